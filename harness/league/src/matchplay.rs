//! Playing a match: seat bots at a table, play rounds, collect results.

use anyhow::Result;
use pitboss_engine::{Recorder, Rules, Stats, Table};
use serde::{Deserialize, Serialize};

use crate::bots::Bot;
pub use crate::results::{BotResult, FaultRecord};
use crate::setup::TableSpec;
use crate::tally::{SeatLog, Tally};

/// Everything that decides a match's cards and chips.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    /// Rule set.
    pub rules: Rules,
    /// Rounds to play (a stacked shoe may end the match earlier).
    pub rounds: u64,
    /// Seed of the shoe.
    pub seed: u64,
    /// Chips each bot starts with.
    pub bankroll: i64,
    /// A stacked shoe instead of a seeded one.
    pub stacked: Option<Vec<pitboss_sdk::Card>>,
    /// Faults after which a bot is disqualified; 0 = never.
    pub fault_limit: u64,
}

/// Fault events kept per bot in results (the count is always exact).
pub const FAULT_LOG_CAP: usize = 100;

/// With a stacked shoe, the rounds in a row without a bet after which a
/// match stops.
pub const IDLE_ROUNDS_CAP: u64 = 1_000;

impl BotResult {
    /// The result of a bot from its statistics and final balance.
    pub fn new(name: String, stats: &Stats, balance: i64, bankroll: i64, disqualified: bool) -> BotResult {
        BotResult {
            name,
            rounds: stats.rounds,
            wagered: i64::try_from(stats.wagered).unwrap_or(i64::MAX),
            net: balance - bankroll,
            balance,
            ev: stats.ev(),
            ev_se: stats.ev_standard_error(),
            faults: stats.faults,
            disqualified,
            broke: false,
            broke_sessions: 0,
            fault_log: Vec::new(),
            tally: Tally::default(),
        }
    }
}

/// The outcome of one table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableResult {
    /// Rounds completed.
    pub rounds: u64,
    /// Why play stopped early, if it did.
    pub stopped: Option<String>,
    /// The house's net chips.
    pub house: i64,
    /// Per bot, in seat order.
    pub bots: Vec<BotResult>,
}

/// Plays one table of `bots` (seat order = slice order) under `spec`.
pub fn play_table<R: Recorder>(spec: &MatchSpec, bots: &[(String, Bot)], rec: &mut R) -> Result<TableResult> {
    let seats: Vec<usize> = (0..bots.len()).collect();
    let mut table = TableSpec {
        rules: &spec.rules,
        seed: spec.seed,
        stacked: spec.stacked.as_deref(),
        bankroll: spec.bankroll,
        fault_limit: spec.fault_limit,
    }
    .seat(bots, &seats)?;
    let mut rec = SeatLog::new(rec, bots.len(), spec.rules.boxes_per_player as usize);
    let mut stopped = None;
    let mut idle = 0;
    // A stacked shoe runs out only when cards are dealt: a match whose bots
    // all sit out would never end on its own. (A seeded shoe's match ends
    // at `rounds`, so only a stacked one is watched.)
    let watch_idle = spec.stacked.is_some();
    let bets_so_far = |table: &Table| table.seats().iter().map(|s| s.stats.rounds).sum::<u64>();
    for _ in 0..spec.rounds {
        let before = if watch_idle { bets_so_far(&table) } else { 0 };
        if let Err(e) = table.play_round(&mut rec) {
            stopped = Some(format!("{e}; round {} was void and its stakes returned", table.rounds() + 1));
            break;
        }
        if watch_idle {
            idle = if bets_so_far(&table) == before { idle + 1 } else { 0 };
            if idle == IDLE_ROUNDS_CAP {
                stopped = Some(format!(
                    "no bot has bet for {IDLE_ROUNDS_CAP} rounds in a row, so the stacked shoe is not dealt"
                ));
                break;
            }
        }
    }
    let bots = bots
        .iter()
        .zip(table.seats())
        .zip(rec.finish())
        .enumerate()
        .map(|(k, (((name, _), seat), (tally, log)))| BotResult {
            fault_log: log,
            tally,
            broke: !seat.disqualified && table.out_for_good(k),
            ..BotResult::new(name.clone(), &seat.stats, seat.balance, spec.bankroll, seat.disqualified)
        })
        .collect();
    Ok(TableResult { rounds: table.rounds(), stopped, house: table.house(), bots })
}
