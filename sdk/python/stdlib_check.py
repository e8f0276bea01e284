"""A Python bot that imports and uses the standard library a bot may
plausibly want, for a test to build and run: a module that
nuitka/pitboss_plugin.py leaves out (LEFT_OUT, BUILTINS) but a bot needs
fails its start-up. It logs one line, "stdlib: ok", then stands.
Importing all of these costs start-up fuel: about 320 million, within
the billion of a Python bot's league.
"""

import abc
import base64
import bisect
import collections
import copy
import dataclasses
import datetime
import decimal
import enum
import fractions
import functools
import hashlib
import heapq
import importlib
import itertools
import json
import math
import operator
import pprint
import random
import re
import statistics
import string
import struct
import time
import traceback
import typing

import pitboss


@dataclasses.dataclass
class Hand:
    cards: typing.List[int] = dataclasses.field(default_factory=list)


class Suit(enum.Enum):
    SPADES = 1


class Named(abc.ABC):
    @abc.abstractmethod
    def name(self): ...


checks = [
    json.loads(json.dumps({"a": [1, 2.5]})) == {"a": [1, 2.5]},
    re.sub(r"\d", "#", "a1b2") == "a#b#",
    decimal.Decimal("1.1") + decimal.Decimal("2.2") == decimal.Decimal("3.3"),
    fractions.Fraction(3, 6) == fractions.Fraction(1, 2),
    statistics.mean([1, 2, 3, 4]) == 2.5,
    hashlib.sha256(b"x").hexdigest().startswith("2d711642"),
    datetime.date(2024, 1, 2).isoformat() == "2024-01-02",
    time.strptime("2024-01-02", "%Y-%m-%d").tm_yday == 2,  # CPython imports _strptime
    "é".encode("latin-1") == b"\xe9" and "x".encode("utf-16-le") == b"x\x00",
    base64.b64encode(b"ab") == b"YWI=",
    bisect.bisect([1, 3], 2) == 1 and heapq.nsmallest(1, [3, 1]) == [1],
    collections.Counter("aab")["a"] == 2 and list(itertools.accumulate([1, 2])) == [1, 3],
    copy.deepcopy(Hand([1])) == Hand([1]) and Suit(1) is Suit.SPADES,
    functools.reduce(operator.add, [1, 2]) == 3 and math.isqrt(17) == 4,
    pprint.pformat([1]) == "[1]" and string.ascii_lowercase[0] == "a",
    struct.pack("<H", 1) == b"\x01\x00" and 0 <= random.random() < 1,
    importlib.import_module("json") is json,
    "ValueError" in "".join(traceback.format_exception_only(ValueError, ValueError("x"))),
]
print("stdlib:", "ok" if all(checks) else "FAILED %s" % [i for i, ok in enumerate(checks) if not ok])


class Stand(pitboss.Bot):
    def act(self, r):
        return pitboss.STAND


pitboss.play(Stand())
