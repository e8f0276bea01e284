"""Pitboss bots in Python: the request as Python values, and the `Bot`
class whose methods answer it (sdk/ABI.md is the contract underneath).

Write a subclass of `Bot`, override what you want to decide, and hand an
instance to `play()` at the end of your file:

    import pitboss
    from pitboss import HIT, STAND

    class Cautious(pitboss.Bot):
        def act(self, r):
            best, soft = r.total()
            return HIT if best < 12 and r.can(HIT) else STAND

    pitboss.play(Cautious())

Pitboss runs the file as it is (`pitboss check bot.py`, `path =
"bot.py"` in a league): its Python runtime holds CPython, this module and
a standard library (sdk/ABI.md, "Bots from source"). `build.py` can still
compile it into a module of its own (sdk/README.md, "Python").
`print()` writes to the bot's log. An exception is a `trap` fault: its
traceback goes to the log, the decision gets its safe default and the bot
starts afresh.
"""

import struct

# Decision kinds (ABI.md, "Decisions and answers").
OBSERVE, BET, INSURANCE, EVEN_MONEY, ACT, SIDE_BET, BACK_BET, BANKER_DOUBLE, BANKER_DRAW = range(9)

# Actions, the answers to ACT.
STAND, HIT, DOUBLE, SPLIT, SURRENDER = range(5)

# Rule sets (`Request.variant`).
NORTH_AMERICAN, SWEDISH, DANISH, NORWEGIAN_HOME = range(4)

# Over/Under 13 sides (`Bot.side_bet`).
OVER, UNDER = 1, 2


class Event:
    """Event kinds: an event is a tuple `(kind, box, hand, card)`."""

    CARD, DEALER_CARD, HOLE_CARD, SHUFFLE, SPLIT, REVEAL, ROUND, PARTIAL_SHUFFLE = range(1, 9)


class Rule:
    """Bits of `Request.rule_flags` and `Request.rule_flags2`."""

    HOLE_CARD, DEALER_HITS_SOFT_17, LATE_SURRENDER, DOUBLE_AFTER_SPLIT = 1, 2, 4, 8
    RESPLIT_ACES, EVEN_MONEY, OVER_UNDER_13, ORIGINAL_BETS_ONLY = 16, 32, 64, 128
    # rule_flags2
    SOFT_DOUBLE, ACES_LOW_AFTER_SOFT_DOUBLE, BACK_BETS = 1, 2, 4


def value(rank):
    """A card's value: ace 1, two to ten their number, faces 10."""
    return 10 if rank > 10 else rank


def total(cards):
    """`(best, soft)`: the best total of `cards` (ranks 1-13), an ace
    counting 11 where that does not pass 21, and whether one does."""
    hard = 0
    ace = False
    for rank in cards:
        hard += 10 if rank > 10 else rank
        if rank == 1:
            ace = True
    if ace and hard <= 11:
        return hard + 10, True
    return hard, False


_HEADER = struct.Struct("<HBBBBBBBBHIqqqqq")


class Request:
    """One request, read from the exchange buffer (ABI.md, "Request layout").

    kind, variant, box, hand_index, hands, legal, up (the dealer's up card,
    1-13, 0 if none), round, balance, bet, min, max, unit: the header
    fields; cards: the current hand's ranks (1 = ace … 13 = king);
    rule_flags and rule_flags2: bytes 59 and 67 (bits: `Rule`)."""

    __slots__ = ("kind", "variant", "box", "hand_index", "hands", "legal", "up", "count", "round",
                 "balance", "bet", "min", "max", "unit", "cards", "rule_flags", "rule_flags2", "_buf")

    def __init__(self, buf):
        (_, self.kind, self.variant, self.box, self.hand_index, self.hands, self.legal, self.up,
         ncards, self.count, self.round, self.balance, self.bet, self.min, self.max,
         self.unit) = _HEADER.unpack_from(buf, 0)
        self.cards = list(buf[88:88 + ncards])
        self.rule_flags = buf[59]
        self.rule_flags2 = buf[67]
        self._buf = buf

    def can(self, action):
        """Is `action` (STAND, HIT, …) legal now? (ACT only)"""
        return self.legal >> action & 1 == 1

    def total(self):
        """`(best, soft)` of the current hand, as `total()`."""
        return total(self.cards)

    def events(self):
        """Events since the previous request, oldest first, as
        `(kind, box, hand, card)` tuples (kinds: `Event`)."""
        buf = self._buf
        return [tuple(buf[at:at + 4]) for at in range(120, 120 + 4 * self.count, 4)]

    def rules(self):
        """The whole 32-byte rules block (ABI.md, "Rules block")."""
        return bytes(self._buf[56:88])


class Bot:
    """Override the decisions you care about; the others keep these
    defaults, which are those of the Rust SDK's `Strategy`."""

    def observe(self, events):
        """Every event since the previous request, before the decision."""

    def bet(self, r):
        """Stake for box `r.box`: 0 sits out. Default: the table minimum."""
        return r.min if r.balance >= r.min else 0

    def insurance(self, r):
        """Insurance stake, 0 to decline. Default: decline."""
        return 0

    def even_money(self, r):
        """Take even money on a blackjack? Default: no."""
        return False

    def act(self, r):
        """STAND, HIT, DOUBLE, SPLIT or SURRENDER; `r.can(action)` says
        which are legal. Default: hit below 17."""
        return HIT if r.total()[0] < 17 and r.can(HIT) else STAND

    def side_bet(self, r):
        """Over/Under 13: `(OVER or UNDER, amount)`, or `(0, 0)` for none."""
        return (0, 0)

    def back_bet(self, r):
        """Stake behind box `r.box`, 0 to pass. Default: pass."""
        return 0

    def banker_double(self, r):
        """As banker, double every stake? Default: no."""
        return False

    def banker_draw(self, r):
        """As banker, draw another card? Default: below 17 only."""
        return r.total()[0] < 17


_buffer = None  # the exchange buffer, a read-only memoryview set by the shim
_bot = None
_observes = False


def play(bot):
    """Makes `bot` (a `Bot`) the one that answers every request."""
    global _bot, _observes
    _bot = bot
    _observes = type(bot).observe is not Bot.observe


def _decide(kind):
    """Called by the shim (nuitka/pitboss_shim.c) for each request."""
    bot = _bot
    r = Request(_buffer)
    if _observes and r.count:
        bot.observe(r.events())
    if kind == ACT:
        return int(bot.act(r))
    if kind == BET:
        return int(bot.bet(r))
    if kind == INSURANCE:
        return int(bot.insurance(r))
    if kind == EVEN_MONEY:
        return 1 if bot.even_money(r) else 0
    if kind == SIDE_BET:
        side, amount = bot.side_bet(r)
        return (int(side) << 32) | (int(amount) & 0xFFFFFFFF) if side else 0
    if kind == BACK_BET:
        return int(bot.back_bet(r))
    if kind == BANKER_DOUBLE:
        return 1 if bot.banker_double(r) else 0
    if kind == BANKER_DRAW:
        return 1 if bot.banker_draw(r) else 0
    return 0
