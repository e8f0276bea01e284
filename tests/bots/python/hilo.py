"""Hi-Lo in Python, run from its source: counts every card it sees (+1
for 2-6, -1 for tens and aces), bets up to eight minimums as the true
count rises, and plays a simple total strategy. A test bot
(tests/integration/python_source.rs): it must fit a league's default
[limits], as a student's counter would.
"""

import collections

import pitboss
from pitboss import DOUBLE, HIT, STAND, Event, value

DECKS = 6
SEEN_KINDS = (Event.CARD, Event.DEALER_CARD, Event.REVEAL)


class HiLo(pitboss.Bot):
    def __init__(self):
        self.running = 0
        self.seen = 0
        self.counted = collections.Counter()

    def observe(self, events):
        for kind, _box, _hand, card in events:
            if kind in (Event.SHUFFLE, Event.PARTIAL_SHUFFLE):
                self.running, self.seen = 0, 0
            elif kind in SEEN_KINDS and card:
                v = value(card)
                self.running += 1 if 2 <= v <= 6 else -1 if v in (1, 10) else 0
                self.seen += 1
                self.counted[v] += 1

    def true_count(self):
        decks_left = max(1.0, (DECKS * 52 - self.seen) / 52)
        return self.running / decks_left

    def bet(self, r):
        if r.balance < r.min:
            return 0
        units = max(1, min(8, int(self.true_count())))
        stake = min(r.min * units, r.max, r.balance)
        if r.unit:
            stake -= (stake - r.min) % r.unit
        return max(stake, r.min)

    def act(self, r):
        best, soft = r.total()
        if best in (10, 11) and r.can(DOUBLE):
            return DOUBLE
        if best < (18 if soft else 17) and r.can(HIT):
            return HIT
        return STAND


pitboss.play(HiLo())
