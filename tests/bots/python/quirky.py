"""A student's own strategy, not basic: doubles 10 and 11 against a
small card, hits a soft hand below 19, and hits a hard one below 15
against a big card but below 13 against a small one. A test bot
(tests/integration/server_similarity.rs): a copy of it with one decision
changed must be flagged as deciding alike.
"""

import pitboss
from pitboss import DOUBLE, HIT, STAND, value


class Quirky(pitboss.Bot):
    def act(self, r):
        up = value(r.up) if r.up else 10
        best, soft = r.total()
        if best in (10, 11) and 2 <= up <= 7 and r.can(DOUBLE):
            return DOUBLE
        if soft:
            return HIT if best < 19 and r.can(HIT) else STAND
        limit = 15 if up >= 7 or up == 1 else 13
        return HIT if best < limit and r.can(HIT) else STAND


pitboss.play(Quirky())
