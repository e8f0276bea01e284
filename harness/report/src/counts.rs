//! The one place that reads the tally's counters by kind (decisions,
//! hand outcomes, actions, faults): each table of the page takes its
//! columns from here, labelled, so a change in how the tally stores them
//! touches this file alone.

use pitboss_league::tally::{Tally, Wager};

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
        pushed: t.hands.push,
        lost: t.hands.losses(),
        blackjacks: t.hands.blackjack + t.hands.even_money,
        busts: t.hands.bust,
        doubles: t.actions.double,
        splits: t.actions.split,
        surrenders: t.actions.surrender,
    }
}

/// A kind of extra bet: how often it was offered, and the wagers taken.
pub type Extra = fn(&Tally) -> (u64, &Wager);

/// The extra bets, in column order.
pub const EXTRAS: [(&str, Extra); 3] = [
    ("insurance", |t| (t.decisions.insurance, &t.insurance)),
    ("side bets", |t| (t.decisions.side_bet, &t.side_bets)),
    ("back bets", |t| (t.decisions.back_bet, &t.back_bets)),
];

/// How often a bot was asked one kind of decision.
pub type Asked = fn(&Tally) -> u64;

/// The decisions, in column order.
pub const DECISIONS: [(&str, Asked); 8] = [
    ("bet", |t| t.decisions.bet),
    ("side bet", |t| t.decisions.side_bet),
    ("back bet", |t| t.decisions.back_bet),
    ("insurance", |t| t.decisions.insurance),
    ("even money", |t| t.decisions.even_money),
    ("act", |t| t.decisions.act),
    ("banker double", |t| t.decisions.banker_double),
    ("banker draw", |t| t.decisions.banker_draw),
];

/// Hits and stands, the two actions "Decisions by kind" counts apart.
pub fn hits_and_stands(t: &Tally) -> (u64, u64) {
    (t.actions.hit, t.actions.stand)
}

/// Faults by kind, labelled, in the page's order.
pub fn faults(t: &Tally) -> [(&'static str, u64); 5] {
    let f = &t.faults;
    [
        ("illegal", f.illegal),
        ("trap", f.trap),
        ("out of fuel", f.out_of_fuel),
        ("memory", f.memory),
        ("timeout", f.timeout),
    ]
}
