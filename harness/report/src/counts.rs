//! The one place that reads the tally's counters by kind (decisions,
//! hand outcomes, actions, faults): each table of the page takes its
//! columns from here, labelled, so a change in how the tally stores them
//! touches this file alone.

use pitboss_engine::{FaultKind, Outcome};
use pitboss_results::counts::Counted;
use pitboss_results::tally::{Tally, Wager};
use pitboss_sdk::{Action, Decision};

/// Hands played and how they went, for "How each bot played".
pub struct Play {
    pub hands: u64,
    pub won: u64,
    pub pushed: u64,
    pub lost: u64,
    /// Blackjacks, counting even money taken.
    pub blackjacks: u64,
    pub busts: u64,
    pub doubles: u64,
    pub splits: u64,
    pub surrenders: u64,
}

pub fn play(t: &Tally) -> Play {
    Play {
        hands: t.hands.total(),
        won: t.hands.wins(),
        pushed: t.hands[Outcome::Push],
        lost: t.hands.losses(),
        blackjacks: t.hands[Outcome::Blackjack] + t.hands[Outcome::EvenMoney],
        busts: t.hands[Outcome::Bust],
        doubles: t.actions[Action::Double],
        splits: t.actions[Action::Split],
        surrenders: t.actions[Action::Surrender],
    }
}

/// A kind of extra bet: how often it was offered, and the wagers taken.
pub type Extra = fn(&Tally) -> (u64, &Wager);

/// The extra bets, in column order.
pub const EXTRAS: [(&str, Extra); 3] = [
    ("insurance", |t| (t.decisions[Decision::Insurance], &t.insurance)),
    ("side bets", |t| (t.decisions[Decision::SideBet], &t.side_bets)),
    ("back bets", |t| (t.decisions[Decision::BackBet], &t.back_bets)),
];

/// The decisions a tally counts, in the results file's order (the one
/// list in `pitboss_results::counts`), each with its column label: its
/// name in words (`side bet`).
pub fn decisions() -> impl Iterator<Item = (String, Decision)> {
    <Decision as Counted>::ORDER.iter().map(|&d| (d.name().replace('-', " "), d))
}

/// Hits and stands, the two actions "Decisions by kind" counts apart.
pub fn hits_and_stands(t: &Tally) -> (u64, u64) {
    (t.actions[Action::Hit], t.actions[Action::Stand])
}

/// Faults by kind, labelled, in the page's order.
pub fn faults(t: &Tally) -> [(&'static str, u64); 5] {
    let f = &t.faults;
    [
        ("illegal", f[FaultKind::Illegal]),
        ("trap", f[FaultKind::Trap]),
        ("out of fuel", f[FaultKind::OutOfFuel]),
        ("memory", f[FaultKind::Memory]),
        ("timeout", f[FaultKind::Timeout]),
    ]
}
