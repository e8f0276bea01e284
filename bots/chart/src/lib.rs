//! The strategy library our bots share: `Basic`, total-dependent basic
//! strategy that reads the rules it is
//! given. For `north-american` (six decks, S17, DAS, late surrender, split
//! to four) it is the textbook chart; without a hole card (`swedish`,
//! `danish`) it stops doubling and splitting into a possible dealer ten or
//! ace, and in `swedish` it never doubles a soft hand (its aces would count
//! 1). In the banker game (`norwegian-home`) it plays the chart against the
//! banker's open card and banks by the cards it has seen. Flat minimum bets, never
//! insurance, even money or side bets.
//!
//! A plain library (no wasm exports), so several bots can build on it:
//! `bots/basic` exports it as is, `bots/hilo` adds a count to it.

#![no_std]

use pitboss_sdk::abi::{rule_flag, rule_flag2};
use pitboss_sdk::{Action, Card, Event, Strategy, Total, Variant, View, event_kind};

/// Basic strategy. Its only state is what the banker game needs: the
/// open cards of each seat this round.
#[derive(Clone, Copy, Debug, Default)]
pub struct Basic {
    /// Sum of each seat's face-up cards this round (banker game).
    shown: [u8; 16],
    /// Seats whose hand is over (busted or paid).
    out: u16,
    /// Playing the banker game (learned from the first bet request); only
    /// then are the events worth tracking.
    banker_game: bool,
}

/// What the chart says before legality is considered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Stand.
    Stand,
    /// Hit.
    Hit,
    /// Double if allowed, else hit.
    DoubleOrHit,
    /// Double if allowed, else stand.
    DoubleOrStand,
}

/// Dealer up card as 2–11 (ace 11).
pub fn up_value(up: Card) -> u8 {
    if up.is_ace() { 11 } else { up.value() }
}

/// Split a pair of `pair` (value 1–10, ace 1) against `up` (2–11)?
pub fn split_pair(pair: u8, up: u8) -> bool {
    match pair {
        1 | 8 => true,
        10 | 5 => false,
        9 => matches!(up, 2..=6 | 8 | 9),
        7 | 3 | 2 => up <= 7,
        6 => up <= 6,
        4 => matches!(up, 5 | 6),
        _ => false,
    }
}

/// Surrender `total` (hard, two cards) against `up`?
pub fn surrender(total: u8, up: u8) -> bool {
    (total == 16 && up >= 9) || (total == 15 && up == 10)
}

/// The chart's play for `total` against `up` (2–11), before legality.
pub fn chart(total: Total, up: u8) -> Play {
    let best = total.best();
    if total.is_soft() {
        return match best {
            19.. => Play::Stand,
            18 => match up {
                3..=6 => Play::DoubleOrStand,
                2 | 7 | 8 => Play::Stand,
                _ => Play::Hit,
            },
            17 => {
                if (3..=6).contains(&up) {
                    Play::DoubleOrHit
                } else {
                    Play::Hit
                }
            }
            15 | 16 => {
                if (4..=6).contains(&up) {
                    Play::DoubleOrHit
                } else {
                    Play::Hit
                }
            }
            _ => {
                if (5..=6).contains(&up) {
                    Play::DoubleOrHit
                } else {
                    Play::Hit
                }
            }
        };
    }
    match best {
        17.. => Play::Stand,
        13..=16 => {
            if up <= 6 {
                Play::Stand
            } else {
                Play::Hit
            }
        }
        12 => {
            if (4..=6).contains(&up) {
                Play::Stand
            } else {
                Play::Hit
            }
        }
        11 => {
            if up <= 10 {
                Play::DoubleOrHit
            } else {
                Play::Hit
            }
        }
        10 => {
            if up <= 9 {
                Play::DoubleOrHit
            } else {
                Play::Hit
            }
        }
        9 => {
            if (3..=6).contains(&up) {
                Play::DoubleOrHit
            } else {
                Play::Hit
            }
        }
        _ => Play::Hit,
    }
}

impl Basic {
    fn act_dealer_game(&self, view: &View<'_>) -> Action {
        let legal = view.legal();
        let hand = view.hand();
        let up = up_value(view.dealer_up().unwrap_or(Card::TEN));
        let total = view.total();
        // Without a hole card a dealer ten or ace may still be blackjack,
        // which takes doubles and splits too: don't add money into it.
        let exposed = view.rule_flags() & rule_flag::HOLE_CARD == 0 && up >= 10;
        let soft_doubles_bad = view.rule_flags2() & rule_flag2::ACES_LOW_AFTER_SOFT_DOUBLE != 0 && total.is_soft();
        if legal.contains(Action::Split) && split_pair(hand[0].value(), up) && !(exposed && hand[0].value() != 1) {
            return Action::Split;
        }
        if legal.contains(Action::Surrender) && !total.is_soft() && hand[0].value() != 8 && surrender(total.best(), up)
        {
            return Action::Surrender;
        }
        let play = match chart(total, up) {
            Play::DoubleOrHit | Play::DoubleOrStand if exposed => Play::Hit,
            Play::DoubleOrHit if soft_doubles_bad => Play::Hit,
            Play::DoubleOrStand if soft_doubles_bad => Play::Stand,
            p => p,
        };
        let wanted = match play {
            Play::Stand => Action::Stand,
            Play::Hit => Action::Hit,
            Play::DoubleOrHit | Play::DoubleOrStand if legal.contains(Action::Double) => Action::Double,
            Play::DoubleOrHit => Action::Hit,
            Play::DoubleOrStand => Action::Stand,
        };
        if legal.contains(wanted) { wanted } else { Action::Stand }
    }
}

impl Strategy for Basic {
    fn bet(&mut self, view: &View<'_>) -> i64 {
        self.banker_game = view.variant() == Variant::NorwegianHome;
        if view.balance() >= view.min() { view.min() } else { 0 }
    }

    fn observe(&mut self, events: &[Event]) {
        if !self.banker_game {
            return;
        }
        for e in events {
            match e.kind {
                event_kind::ROUND => *self = Basic { banker_game: true, ..Basic::default() },
                event_kind::CARD => {
                    let s = (e.seat as usize).min(15);
                    self.shown[s] = self.shown[s].saturating_add(e.card.value());
                }
                // A shown hidden card means that seat is out (bust or paid)
                // or the showdown has come.
                event_kind::REVEAL => self.out |= 1 << e.seat.min(15),
                _ => {}
            }
        }
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        if view.variant() != Variant::NorwegianHome {
            return self.act_dealer_game(view);
        }
        // Banker game: the banker draws to 17 like a dealer, so the chart
        // against its open card applies, without doubles.
        let up = up_value(view.dealer_up().unwrap_or(Card::TEN));
        match chart(view.total(), up) {
            Play::Hit | Play::DoubleOrHit => Action::Hit,
            Play::Stand | Play::DoubleOrStand => Action::Stand,
        }
    }

    fn banker_double(&mut self, view: &View<'_>) -> bool {
        self.banker_game = true;
        // An ace or a ten as the hidden card makes a natural or a strong
        // total likely.
        view.hand().first().is_some_and(|c| c.is_ace() || c.is_ten())
    }

    fn banker_draw(&mut self, view: &View<'_>) -> bool {
        let mine = view.total();
        if mine.best() < 17 {
            return true;
        }
        if mine.is_soft() && mine.best() == 17 {
            return true;
        }
        // Every standing player holds a hidden card worth about 7: draw
        // when most of them probably beat (or tie-lose to) this total.
        let mut standing = 0;
        let mut ahead = 0;
        for seat in 0..16 {
            if self.shown[seat] == 0 || self.out & (1 << seat) != 0 || seat == view.seat() as usize {
                continue;
            }
            standing += 1;
            if self.shown[seat] + 7 > mine.best() {
                ahead += 1;
            }
        }
        mine.best() < 20 && 2 * ahead > standing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;

    fn t(cards: &[u8]) -> Total {
        let mut t = Total::default();
        for &r in cards {
            t = t.add(Card::new(r).unwrap());
        }
        t
    }

    #[test]
    fn chart_spots() {
        assert_eq!(chart(t(&[10, 6]), 10), Play::Hit);
        assert_eq!(chart(t(&[10, 6]), 6), Play::Stand);
        assert_eq!(chart(t(&[10, 2]), 3), Play::Hit);
        assert_eq!(chart(t(&[6, 5]), 11), Play::Hit);
        assert_eq!(chart(t(&[6, 5]), 10), Play::DoubleOrHit);
        assert_eq!(chart(t(&[1, 7]), 4), Play::DoubleOrStand);
        assert_eq!(chart(t(&[1, 7]), 9), Play::Hit);
        assert!(split_pair(8, 11) && !split_pair(10, 6) && !split_pair(9, 7));
        assert!(surrender(16, 11) && surrender(15, 10) && !surrender(15, 11));
    }
}
