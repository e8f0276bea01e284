//! One session of a league: its tables, all dealt from the session's seed,
//! played in lockstep round by round, so each bot's per-round result can be
//! paired with every other bot's (the paired difference of a duplicate
//! format is far tighter than two separate intervals).

use anyhow::{Context, Result};
use pitboss_engine::{Recorder, Rules, Shoe, Stats, Table};
use serde::Serialize;

use crate::bots::Bot;
use crate::matchplay::{FaultLog, FaultRecord};

/// Which bots sit where: one entry per table, bot indices in seat order.
pub type Seating = Vec<Vec<usize>>;

/// What one session produced, indexed by league bot.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionResult {
    /// 0-based session number.
    pub session: u64,
    /// The shoe seed every table of the session was dealt from.
    pub seed: u64,
    /// Per bot (absent bots have empty stats).
    pub bots: Vec<SessionBot>,
    /// Σ over rounds of net_i × net_j, row-major n × n.
    pub pairs: Vec<i128>,
}

/// One bot's session.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SessionBot {
    /// Statistics (integer sums).
    #[serde(skip)]
    pub stats: Stats,
    /// Net chips this session.
    pub net: i64,
    /// Rounds its table played (bets or not).
    pub rounds: u64,
    /// Reached the fault limit.
    pub disqualified: bool,
    /// Its first faults.
    #[serde(skip)]
    pub fault_log: Vec<FaultRecord>,
}

/// Plays session `session` of `rounds` rounds: `seating` tables of
/// `bots`, each bot starting with `bankroll`, every table dealt from `seed`;
/// `progress` hears how many more rounds are done, now and then.
#[allow(clippy::too_many_arguments)]
pub fn play_session(
    session: u64,
    seed: u64,
    rules: &Rules,
    rounds: u64,
    bankroll: i64,
    fault_limit: u64,
    bots: &[(String, Bot)],
    seating: &Seating,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SessionResult> {
    let n = bots.len();
    let mut tables = Vec::with_capacity(seating.len());
    for seats in seating {
        let players = seats.iter().map(|&b| bots[b].1.player()).collect::<Result<Vec<_>>>()?;
        let shoe = Shoe::seeded(rules.decks, rules.cut_card, seed);
        let mut table = Table::new(rules.clone(), shoe, players, bankroll).context("cannot seat the bots")?;
        table.set_fault_limit(fault_limit);
        tables.push(table);
    }
    let mut logs: Vec<FaultLog<'_, ()>> = Vec::new();
    let mut unit = vec![(); seating.len()];
    for (seats, u) in seating.iter().zip(unit.iter_mut()) {
        logs.push(FaultLog::new(u, seats.len()));
    }
    let mut pairs = vec![0i128; n * n];
    let mut before: Vec<Vec<i64>> = seating.iter().map(|s| vec![bankroll; s.len()]).collect();
    let mut net = vec![0i64; n];
    let mut moved: Vec<usize> = Vec::with_capacity(n);
    for round in 0..rounds {
        if round % 4096 == 4095 {
            progress(4096);
        }
        moved.clear();
        for (t, table) in tables.iter_mut().enumerate() {
            table.play_round(&mut logs[t]).with_context(|| format!("session {session}"))?;
            for (k, seat) in table.seats().iter().enumerate() {
                let delta = seat.balance - before[t][k];
                before[t][k] = seat.balance;
                if delta != 0 {
                    let b = seating[t][k];
                    net[b] = delta;
                    moved.push(b);
                }
            }
        }
        // Only bots whose balance moved add to the cross sums.
        for &i in &moved {
            for &j in &moved {
                pairs[i * n + j] += net[i] as i128 * net[j] as i128;
            }
        }
        for &i in &moved {
            net[i] = 0;
        }
    }
    progress(rounds % 4096);
    let mut result = SessionResult { session, seed, bots: vec![SessionBot::default(); n], pairs };
    for ((table, seats), log) in tables.iter().zip(seating).zip(logs) {
        for ((seat, &b), mut faults) in table.seats().iter().zip(seats).zip(log.into_logs()) {
            for f in &mut faults {
                f.session = session;
            }
            result.bots[b] = SessionBot {
                stats: seat.stats,
                net: seat.balance - bankroll,
                rounds: table.rounds(),
                disqualified: seat.disqualified,
                fault_log: faults,
            };
        }
    }
    Ok(result)
}

/// Replays one table of a session round by round for `rounds` rounds,
/// showing round `round` to `rec` and every round to `log`. Tables never
/// affect each other, so one table replays alone exactly as it played.
#[allow(clippy::too_many_arguments)]
pub fn replay_table<R: Recorder, L: Recorder>(
    seed: u64,
    rules: &Rules,
    bankroll: i64,
    fault_limit: u64,
    bots: &[(String, Bot)],
    seats: &[usize],
    (round, rounds): (u64, u64),
    rec: &mut R,
    log: &mut L,
) -> Result<()> {
    let players = seats.iter().map(|&b| bots[b].1.player()).collect::<Result<Vec<_>>>()?;
    let shoe = Shoe::seeded(rules.decks, rules.cut_card, seed);
    let mut table = Table::new(rules.clone(), shoe, players, bankroll).context("cannot seat the bots")?;
    table.set_fault_limit(fault_limit);
    for r in 1..=rounds.max(round) {
        if r == round {
            table.play_round(&mut Both(rec, &mut *log))?;
        } else {
            table.play_round(log)?;
        }
    }
    Ok(())
}

/// Two recorders in one.
struct Both<'a, A, B>(&'a mut A, &'a mut B);

impl<A: Recorder, B: Recorder> Recorder for Both<'_, A, B> {
    fn record(&mut self, event: &pitboss_engine::TableEvent) {
        self.0.record(event);
        self.1.record(event);
    }
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
