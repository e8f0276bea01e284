//! The overall ranking over several leagues, defined once for `pitboss
//! season` and the competition server's leaderboard.
//!
//! **The rule:** in each league a bot earns one point for every bot it
//! finished above, plus one (so last place earns 1, a league's winner as
//! many points as the league has bots); a disqualified bot earns none,
//! and so does a league the bot did not enter. Points rank; total net
//! chips break ties, then the name. Skipping a league therefore never
//! helps: entering it earns at least one point.

use std::cmp::Ordering;

/// The points of finishing `rank` (from 1) of `of` bots in a league; none
/// when disqualified.
pub fn points(rank: usize, of: usize, disqualified: bool) -> u64 {
    if disqualified { 0 } else { (of + 1).saturating_sub(rank) as u64 }
}

/// The overall order of two bots by (points, net chips, name): more
/// points first, then more chips, then the name.
pub fn order(a: (u64, i64, &str), b: (u64, i64, &str)) -> Ordering {
    b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then_with(|| a.2.cmp(b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_reward_every_bot_beaten_and_entering_never_hurts() {
        assert_eq!((points(1, 4, false), points(4, 4, false), points(1, 4, true)), (4, 1, 0));
        let mut rows = vec![(3, 10, "b"), (5, -4, "a"), (3, 12, "c"), (3, 10, "a")];
        rows.sort_by(|x, y| order(*x, *y));
        assert_eq!(rows, [(5, -4, "a"), (3, 12, "c"), (3, 10, "a"), (3, 10, "b")]);
    }
}
