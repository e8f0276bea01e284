//! `basic`: total-dependent basic strategy for `north-american` rules
//! (six decks, dealer stands on soft 17, double after split, late
//! surrender, split to four hands). Flat minimum bets, never insurance.
//!
//! Built twice from this one file: to `wasm32-unknown-unknown` as
//! `basic.wasm`, and natively as the harness builtin `builtin:basic`.

#![cfg_attr(target_arch = "wasm32", no_std)]

use pitboss_sdk::{Action, Card, Strategy, Total, View};

/// Basic strategy; stateless.
#[derive(Clone, Copy, Debug, Default)]
pub struct Basic;

/// What the chart says before legality is considered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Play {
    Stand,
    Hit,
    /// Double if allowed, else hit.
    DoubleOrHit,
    /// Double if allowed, else stand.
    DoubleOrStand,
}

/// Dealer up card as 2–11 (ace 11).
fn up_value(up: Card) -> u8 {
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

fn chart(total: Total, up: u8) -> Play {
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

impl Strategy for Basic {
    fn act(&mut self, view: &View<'_>) -> Action {
        let legal = view.legal();
        let hand = view.hand();
        let up = up_value(view.dealer_up().unwrap_or(Card::TEN));
        let total = view.total();
        if legal.contains(Action::Split) && split_pair(hand[0].value(), up) {
            return Action::Split;
        }
        if legal.contains(Action::Surrender) && !total.is_soft() && hand[0].value() != 8 && surrender(total.best(), up)
        {
            return Action::Surrender;
        }
        let play = chart(total, up);
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

pitboss_sdk::export_bot!(Basic, Basic);

#[cfg(test)]
mod tests {
    use super::*;

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
