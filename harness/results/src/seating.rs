//! Who sits where: the seating of every session of a league, a function
//! of its format, its bot count, the rules' table size and the session
//! number alone, so play, replay, verify and the report's viewer seat
//! alike.

use pitboss_engine::Rules;

use crate::league::Format;

/// Which bots sit where: one entry per table, bot indices in seat order.
pub type Seating = Vec<Vec<usize>>;

/// Who sits where in session `session`: alone (solo) or rotated shared
/// tables.
pub fn seating_for(format: Format, n: usize, rules: &Rules, session: u64) -> Seating {
    match format {
        Format::Solo => (0..n).map(|b| vec![b]).collect(),
        Format::Table | Format::Bank => rotated_seating(n, rules.max_players(), session),
    }
}

/// The bots of table `table` of session `session` (in seat order), for
/// `n` bots in a league of `sessions` sessions of `rounds` rounds; or, in
/// one line, why round `round` of that table is not in the league.
pub fn table_at(
    (format, n, rules): (Format, usize, &Rules),
    (sessions, rounds): (u64, u64),
    (session, table, round): (u64, usize, u64),
) -> Result<Vec<usize>, String> {
    if session >= sessions || round == 0 || round > rounds {
        return Err(format!(
            "session {session} round {round} is outside the league ({sessions} sessions of {rounds} rounds; \
             sessions count from 0, rounds from 1)"
        ));
    }
    let seating = seating_for(format, n, rules, session);
    seating
        .get(table)
        .cloned()
        .ok_or_else(|| format!("session {session} has {} table(s); tables count from 0", seating.len()))
}

/// The seating of session `session` for `n` bots at tables of `seats`:
/// the seat order rotates by one each session, so over `n` sessions every
/// bot sits in every position once; more bots than seats are spread over
/// tables of near-equal size.
pub fn rotated_seating(n: usize, seats: usize, session: u64) -> Seating {
    let order: Vec<usize> = (0..n).map(|k| (k + session as usize) % n).collect();
    let tables = n.div_ceil(seats.max(1));
    let base = n / tables;
    let extra = n % tables;
    let mut out = Vec::with_capacity(tables);
    let mut at = 0;
    for t in 0..tables {
        let size = base + (t < extra) as usize;
        out.push(order[at..at + size].to_vec());
        at += size;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_puts_every_bot_in_every_position_equally_often() {
        let n = 5;
        let mut counts = vec![vec![0; n]; n];
        for s in 0..n as u64 * 3 {
            let seating = rotated_seating(n, 7, s);
            assert_eq!(seating.len(), 1);
            for (pos, &b) in seating[0].iter().enumerate() {
                counts[b][pos] += 1;
            }
        }
        assert!(counts.iter().flatten().all(|&c| c == 3), "{counts:?}");
    }

    #[test]
    fn more_bots_than_seats_spread_over_balanced_tables() {
        let seating = rotated_seating(30, 7, 0);
        let sizes: Vec<usize> = seating.iter().map(Vec::len).collect();
        assert_eq!(sizes, [6, 6, 6, 6, 6]);
        let mut all: Vec<usize> = seating.concat();
        all.sort();
        assert_eq!(all, (0..30).collect::<Vec<_>>());
    }
}
