"""The Python runtime: one WebAssembly module that runs any Python bot
from its source (sdk/ABI.md, "Bots from source"). scripts/build-python-runtime
compiles this file, pitboss.py and the standard library below with
sdk/python/build.py --runtime; Pitboss embeds the result and hands it a
bot's `bot.py` as a table starts.

The shim (nuitka/pitboss_shim.c, PITBOSS_RUNTIME) calls `_load(source)`
once, before the start-up snapshot: the source is checked (its syntax,
and that everything it imports is in the runtime's library, both
answered as `LINE:COL: what`), then run as the `__main__` module, where
it calls `pitboss.play(bot)` as a compiled bot does.
"""

import sys

import pitboss

# The standard library a bot may import, as the refusal of any other
# import lists it. Each is compiled in; C modules that are not built in,
# the file system, processes, sockets and threads are not
# (nuitka/pitboss_plugin.py).
LIBRARY = (
    "abc", "array", "base64", "bisect", "collections", "copy", "dataclasses", "datetime", "decimal", "enum",
    "fractions", "functools", "hashlib", "heapq", "itertools", "json", "math", "operator", "pitboss", "pprint",
    "random", "re", "statistics", "string", "struct", "sys", "time", "traceback", "typing",
)

# Imported here, before the snapshot, so a bot that imports them pays
# nothing: the modules bots use most (the rest of LIBRARY costs a bot's
# start-up fuel when it imports it: datetime about 9 million).
import array, bisect, collections, dataclasses, enum, functools, heapq, itertools, json  # noqa: E401,F401,E402
import math, random, re, statistics, struct, typing  # noqa: E401,F401,E402


def _library():
    """Never called: the imports make Nuitka compile the rest in."""
    import abc, base64, copy, datetime, decimal, fractions, hashlib, operator, pprint  # noqa: F401,E401
    import string, time, traceback  # noqa: F401,E401
    import collections.abc, json.decoder, json.encoder  # noqa: F401,E401


_IMPORT_NAME = bytes([__import__("opcode").opmap["IMPORT_NAME"]])
_EXTENDED_ARG = __import__("opcode").opmap["EXTENDED_ARG"]


def _column(code, at):
    """The 1-based column of the instruction at byte `at` of `code`."""
    for n, position in enumerate(code.co_positions()):
        if n == at // 2:
            return position[2] + 1 if position[2] is not None else 1
    return 1


def _function_imports(code, top=True):
    """(line, column, module) of each import inside a function or class
    body of `code` (the module's own run when it runs)."""
    found = []
    if not top:
        ops = code.co_code
        at = ops.find(_IMPORT_NAME)
        while at != -1:
            if at % 2 == 0:
                arg = ops[at + 1] | (ops[at - 1] << 8 if at >= 2 and ops[at - 2] == _EXTENDED_ARG else 0)
                line = next((l for s, e, l in code.co_lines() if s <= at < e), code.co_firstlineno)
                found.append((line or code.co_firstlineno, _column(code, at), code.co_names[arg]))
            at = ops.find(_IMPORT_NAME, at + 1)
    for const in code.co_consts:
        if type(const) is type(code):
            found.extend(_function_imports(const, top=False))
    return found


def _missing(name):
    """The part of module `name` (dotted) outside the runtime's library,
    or None."""
    try:
        __import__(name)
    except ModuleNotFoundError as e:
        return e.name or name
    except Exception:
        return None  # it exists; its failure shows when the bot runs
    return None


def _refusal(line, column, name):
    return "%d:%d: cannot import %s: the Python runtime's library has only %s" % (
        line, column, name, ", ".join(LIBRARY))


def _place(tb):
    """(line, column) in the bot's source that an exception came from."""
    found = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "bot.py":
            found = tb
        tb = tb.tb_next
    if found is None:
        return None
    return found.tb_lineno, _column(found.tb_frame.f_code, found.tb_lasti)


def _print_traceback(e):
    """The exception's traceback to the log, its frames one line each
    (the traceback module's, quoting source lines, costs millions of fuel)."""
    lines, tb = ["Traceback (most recent call last):"], e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        lines.append('  File "%s", line %s, in %s' % (code.co_filename, tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    lines.append("%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__)
    sys.stderr.write("\n".join(lines) + "\n")


def _load(source):
    """Checks and runs a bot's source; None, or one line saying why not,
    starting `LINE:COL: ` where it has a place."""
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError as e:
        return "1:1: not UTF-8 text (byte %d)" % e.start
    try:
        code = compile(text, "bot.py", "exec", dont_inherit=True)
    except SyntaxError as e:
        return "%s:%s: %s: %s" % (e.lineno or 1, e.offset or 1, type(e).__name__, e.msg)
    except ValueError as e:  # a NUL byte
        return "1:1: SyntaxError: %s" % e
    module = type(sys)("__main__")
    module.__file__ = "bot.py"
    module.__builtins__ = __builtins__
    sys.modules["__main__"] = module
    try:
        exec(code, module.__dict__)
    except BaseException as e:  # SystemExit included: a bot does not exit
        place = _place(e.__traceback__)
        if isinstance(e, ModuleNotFoundError) and e.name and place:
            return _refusal(place[0], place[1], e.name)
        _print_traceback(e)
        what = "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__
        return ("%d:%d: %s" % (place[0], place[1], what)) if place else what
    # Imports a decision would run: refused now, not at round 3,000.
    for line, column, name in _function_imports(code):
        missing = _missing(name)
        if missing:
            return _refusal(line, column, missing)
    if pitboss._bot is None:
        return "the bot never calls pitboss.play(bot)"
    return None
