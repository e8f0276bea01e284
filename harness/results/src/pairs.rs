//! The paired sums: Σ over a session's rounds of net_i × net_j, for the
//! pairs of bots a session keeps them for, and the cross term the
//! standings' paired test reads from them.
//!
//! A league of at most [`PAIRED_BOTS`] bots keeps every pair, row-major
//! n × n: every table of a session is dealt from the same shoe, so any two
//! bots' rounds may be alike. A larger league keeps only the pairs that
//! share a table, table by table (each table's s × s block in seat order,
//! the blocks in table order): summing every pair costs n²/2 products a
//! round, which at 1,000 bots was most of a round's time. Bots at
//! different tables of such a league are taken as independent in that
//! session: their shoes part at the first card one table draws and the
//! other does not, so the session's cross term is estimated as
//! net_i × net_j / rounds, the value it has in expectation when the
//! bots' rounds are independent.

use crate::seating::Seating;
use crate::session::SessionResult;

/// The most bots a league may have for every pair's per-round products to
/// be summed (2,016 pairs); above, only bots that share a table are.
pub const PAIRED_BOTS: usize = 64;

/// Where each pair's sum lies in a session's `pairs`.
#[derive(Clone, Debug)]
pub struct Layout {
    n: usize,
    /// Per bot, when only tables are paired: its block's start, the
    /// block's side (the table's size) and its seat; `None` when every
    /// pair is.
    seats: Option<Vec<Seat>>,
    len: usize,
}

#[derive(Clone, Copy, Debug, Default)]
struct Seat {
    start: usize,
    side: usize,
    seat: usize,
}

impl Layout {
    /// The layout of a session of `n` bots seated as `seating`.
    pub fn new(n: usize, seating: &Seating) -> Layout {
        if n <= PAIRED_BOTS {
            return Layout { n, seats: None, len: n * n };
        }
        let mut seats = vec![Seat::default(); n];
        let mut start = 0;
        for table in seating {
            for (seat, &b) in table.iter().enumerate() {
                if let Some(s) = seats.get_mut(b) {
                    *s = Seat { start, side: table.len(), seat };
                }
            }
            start += table.len() * table.len();
        }
        Layout { n, seats: Some(seats), len: start }
    }

    /// Whether every pair is kept (else only pairs at one table).
    pub fn all(&self) -> bool {
        self.seats.is_none()
    }

    /// How many sums a session keeps.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether a session keeps no sums (no bots).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Each kept pair of two bots, as the indices of its two sums: the
    /// lower bot index's row first. `seating` is the session's, as given
    /// to [`Layout::new`].
    pub fn mirrored<'a>(&'a self, seating: &'a Seating) -> impl Iterator<Item = (usize, usize)> + 'a {
        let whole = self.all().then(|| (0..self.n).collect::<Vec<_>>());
        let groups: Vec<&[usize]> = match &whole {
            Some(all) => vec![all.as_slice()],
            None => seating.iter().map(Vec::as_slice).collect(),
        };
        let mut out = Vec::new();
        for group in groups {
            for (x, &i) in group.iter().enumerate() {
                for &j in &group[..x] {
                    let (lo, hi) = if i <= j { (i, j) } else { (j, i) };
                    if let (Some(upper), Some(lower)) = (self.index(lo, hi), self.index(hi, lo)) {
                        out.push((upper, lower));
                    }
                }
            }
        }
        out.into_iter()
    }

    /// Where the sum of bots `i` and `j` lies, if the session keeps it.
    pub fn index(&self, i: usize, j: usize) -> Option<usize> {
        match &self.seats {
            None => (i < self.n && j < self.n).then_some(i * self.n + j),
            Some(seats) => {
                let (a, b) = (seats.get(i)?, seats.get(j)?);
                (a.start == b.start).then_some(a.start + a.seat * a.side + b.seat)
            }
        }
    }
}

/// The cross term Σ net_i × net_j of two bots over a league's rounds:
/// exact when every session kept their pair, else partly estimated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cross {
    /// Summed round by round in every session.
    Exact(i128),
    /// Some sessions' share estimated as independent (see the module).
    Estimated(f64),
}

/// The cross terms of a league's bots over its sessions.
pub struct Crosses<'a> {
    sessions: &'a [SessionResult],
    layouts: Vec<Layout>,
    rounds: u64,
}

impl<'a> Crosses<'a> {
    /// The cross terms of `n` bots over `sessions` of `rounds` rounds,
    /// session `s` seated as `seating(s)`.
    pub fn new(sessions: &'a [SessionResult], n: usize, rounds: u64, seating: impl Fn(u64) -> Seating) -> Crosses<'a> {
        let layouts = sessions
            .iter()
            .map(|s| if n <= PAIRED_BOTS { Layout::new(n, &Vec::new()) } else { Layout::new(n, &seating(s.session)) })
            .collect();
        Crosses { sessions, layouts, rounds }
    }

    /// The cross term of bots `i` and `j`: exact where every session kept
    /// their pair; a session that did not adds net_i × net_j / rounds.
    pub fn get(&self, i: usize, j: usize) -> Cross {
        let (mut exact, mut estimated, mut any_estimate) = (0i128, 0f64, false);
        for (s, layout) in self.sessions.iter().zip(&self.layouts) {
            match layout.index(i, j).and_then(|k| s.pairs.get(k)) {
                Some(&sum) => exact += sum,
                None => {
                    any_estimate = true;
                    let net = |b: usize| s.bots.get(b).map_or(0, |b| b.net) as f64;
                    estimated += net(i) * net(j) / self.rounds.max(1) as f64;
                }
            }
        }
        if any_estimate { Cross::Estimated(exact as f64 + estimated) } else { Cross::Exact(exact) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SessionBot;

    #[test]
    fn small_leagues_keep_every_pair_row_major() {
        let l = Layout::new(3, &vec![vec![2], vec![0, 1]]);
        assert!(l.all());
        assert_eq!((l.len(), l.index(2, 0), l.index(0, 2)), (9, Some(6), Some(2)));
    }

    #[test]
    fn large_leagues_keep_each_tables_block_in_seat_order() {
        let n = PAIRED_BOTS + 2;
        let seating: Seating = vec![(0..40).rev().collect(), (40..n).collect()];
        let l = Layout::new(n, &seating);
        assert!(!l.all());
        assert_eq!(l.len(), 40 * 40 + 26 * 26);
        // Bot 39 sits first at table 0, bot 0 last.
        assert_eq!((l.index(39, 0), l.index(0, 39), l.index(0, 0)), (Some(39), Some(39 * 40), Some(39 * 41)));
        assert_eq!(l.index(40, 41), Some(1600 + 1));
        assert_eq!((l.index(0, 40), l.index(n, 0)), (None, None));
    }

    #[test]
    fn a_pair_apart_in_any_session_is_estimated_from_its_nets() {
        let n = PAIRED_BOTS + 1;
        let seating = |s: u64| -> Seating {
            if s == 0 { vec![(0..n).collect()] } else { vec![(0..n - 1).collect(), vec![n - 1]] }
        };
        let session = |s: u64| {
            let layout = Layout::new(n, &seating(s));
            let mut pairs = vec![0i128; layout.len()];
            if s == 0 {
                pairs[layout.index(0, n - 1).unwrap()] = 7;
            }
            let bots = (0..n as i64).map(|net| SessionBot { net, ..SessionBot::default() }).collect();
            SessionResult { session: s, seed: 0, bots, pairs, key_rounds: Vec::new(), hands: None }
        };
        let one = [session(0)];
        assert_eq!(Crosses::new(&one, n, 10, seating).get(0, n - 1), Cross::Exact(7));
        let two = [session(0), session(1)];
        let crosses = Crosses::new(&two, n, 10, seating);
        assert_eq!(crosses.get(1, n - 1), Cross::Estimated((n as f64 - 1.0) / 10.0));
        // Bot 0's net is 0: its estimate adds nothing, but is still one.
        assert_eq!(crosses.get(0, n - 1), Cross::Estimated(7.0));
        assert_eq!(crosses.get(1, 2), Cross::Exact(0));
    }
}
