"""Basic strategy for north-american (six decks, the dealer stands on soft
17, double after split, late surrender) written from the textbook chart,
apart from the Rust `basic` bot (bots/chart). A test bot
(tests/integration/server_similarity.rs): the similarity check must say
it and `basic` both play basic, not flag them.
"""

import pitboss
from pitboss import DOUBLE, HIT, SPLIT, STAND, SURRENDER, value

# Pairs to split, by the pair's value: the up cards (values) to split against.
SPLITS = {
    1: range(1, 11), 8: range(1, 11),
    2: range(2, 8), 3: range(2, 8), 7: range(2, 8),
    6: range(2, 7), 4: (5, 6), 9: (2, 3, 4, 5, 6, 8, 9),
}


class Textbook(pitboss.Bot):
    def act(self, r):
        up = value(r.up) if r.up else 10
        best, soft = r.total()
        cards = r.cards
        if len(cards) == 2 and value(cards[0]) == value(cards[1]) and r.can(SPLIT):
            if up in SPLITS.get(value(cards[0]), ()):
                return SPLIT
        if r.can(SURRENDER) and not soft:
            if (best == 16 and up in (9, 10, 1)) or (best == 15 and up == 10):
                return SURRENDER
        if soft:
            return self.soft(r, best, up)
        return self.hard(r, best, up)

    def soft(self, r, best, up):
        doubles = {13: (5, 6), 14: (5, 6), 15: (4, 5, 6), 16: (4, 5, 6), 17: (3, 4, 5, 6), 18: (3, 4, 5, 6)}
        if up in doubles.get(best, ()) and r.can(DOUBLE):
            return DOUBLE
        if best >= 19:
            return STAND
        if best == 18:
            return STAND if up in (2, 3, 4, 5, 6, 7, 8) else HIT
        return HIT

    def hard(self, r, best, up):
        if best >= 17:
            return STAND
        if best >= 13:
            return STAND if 2 <= up <= 6 else HIT
        if best == 12:
            return STAND if 4 <= up <= 6 else HIT
        if r.can(DOUBLE) and ((best == 11 and up != 1) or (best == 10 and 2 <= up <= 9) or (best == 9 and 3 <= up <= 6)):
            return DOUBLE
        return HIT


pitboss.play(Textbook())
