//! Helpers for the engine's unit tests: scripted players, stacked tables,
//! recorded events and a chip count. Compiled for tests only.

use std::collections::VecDeque;

use pitboss_sdk::{Action, Decision};

use crate::player::{Fault, Player, Request};
use crate::record::{Outcome, TableEvent};
use crate::rules::Rules;
use crate::shoe::{Shoe, parse_stacked};
use crate::table::Table;

/// Chips each test player starts with.
pub(crate) const BANKROLL: i64 = 1000;

/// A player that bets `bet` every round, answers `Act` from a queue (then
/// stands), and every other decision from `other` (0 unless set).
pub(crate) struct Script {
    bet: i64,
    acts: VecDeque<Action>,
    other: [i64; Decision::ALL.len()],
}

impl Script {
    pub(crate) fn new(bet: i64, acts: &[Action]) -> Script {
        Script { bet, acts: acts.iter().copied().collect(), other: [0; Decision::ALL.len()] }
    }

    /// Answers every `kind` decision with `answer`.
    pub(crate) fn answer(mut self, kind: Decision, answer: i64) -> Script {
        self.other[kind as usize] = answer;
        self
    }

    pub(crate) fn boxed(self) -> Box<dyn Player + Send> {
        Box::new(self)
    }
}

impl Player for Script {
    fn decide(&mut self, r: &Request<'_>) -> Result<i64, Fault> {
        Ok(match r.header.kind {
            Decision::Bet => self.bet,
            Decision::Act => self.acts.pop_front().map_or(0, |a| a as i64),
            kind => self.other[kind as usize],
        })
    }
}

/// A table of `rules` dealing `cards` (shoe-file syntax) in order, the
/// players each with [`BANKROLL`] chips.
pub(crate) fn stacked(rules: Rules, cards: &str, players: Vec<Box<dyn Player + Send>>) -> Table {
    let shoe = Shoe::stacked(parse_stacked(cards).expect("test shoe parses"));
    Table::new(rules, shoe, players, BANKROLL).expect("valid table")
}

/// Plays one round, returning its events.
pub(crate) fn round(table: &mut Table) -> Vec<TableEvent> {
    let mut events = Vec::new();
    table.play_round(&mut |e: &TableEvent| events.push(e.clone())).expect("shoe long enough");
    events
}

/// Every chip at the table: balances plus the house's (constant).
pub(crate) fn chips(table: &Table) -> i64 {
    table.players().iter().map(|p| p.balance).sum::<i64>() + table.house()
}

/// The players' balances, in order.
pub(crate) fn balances(table: &Table) -> Vec<i64> {
    table.players().iter().map(|p| p.balance).collect()
}

/// The `Settled` events as `(box, hand, bet, returned, outcome)`.
pub(crate) fn settled(events: &[TableEvent]) -> Vec<(u8, u8, i64, i64, Outcome)> {
    events
        .iter()
        .filter_map(|e| match *e {
            TableEvent::Settled { seat, hand, bet, returned, outcome } => Some((seat, hand, bet, returned, outcome)),
            _ => None,
        })
        .collect()
}

/// The decisions that faulted.
pub(crate) fn faults(events: &[TableEvent]) -> Vec<Decision> {
    events.iter().filter_map(|e| if let TableEvent::Fault { kind, .. } = e { Some(*kind) } else { None }).collect()
}
