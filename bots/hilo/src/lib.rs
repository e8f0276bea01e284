//! `hilo`: Hi-Lo card counting on top of basic strategy.
//!
//! - **Count:** 2–6 count +1, 7–9 count 0, tens and aces −1, over every
//!   card turned face up (the request's events); a shuffle resets it. The
//!   true count is the running count per deck still in the shoe, which the
//!   bot knows from the rules block (decks) and the cards it has seen.
//! - **Bets:** a 1–12 ramp of the table minimum — true count ≤ 1: 1 unit,
//!   2: 2, 3: 4, 4: 8, 5 or more: 12 — and it sits out (bets 0) at a true
//!   count of −2 or less while other boxes keep the cards coming.
//! - **Plays:** the Illustrious 18 index plays and the "Fab 4" surrenders
//!   (six decks, S17), insurance at a true count of +3 or more against an
//!   ace; everything else is basic strategy (`bots/chart`).
//!
//! In the banker game, where a single deck is shuffled every round, it
//! plays plain basic strategy.

#![cfg_attr(target_arch = "wasm32", no_std)]

use core::mem;

use pitboss_chart::{Basic, up_value};
use pitboss_sdk::{Action, ActionSet, Card, Event, Strategy, Total, Variant, View, event_kind};

/// Hi-Lo value of a card.
pub const fn hilo_value(card: Card) -> i32 {
    match card.value() {
        2..=6 => 1,
        7..=9 => 0,
        _ => -1,
    }
}

/// A Hi-Lo counter playing basic strategy with index plays.
#[derive(Clone, Copy, Debug, Default)]
pub struct HiLo {
    basic: Basic,
    running: i32,
    seen: u32,
    /// Cards dealt to other boxes since this bot's last bet request.
    others: u32,
    /// This bot's box (from its last bet request).
    seat: u8,
}

impl HiLo {
    /// The true count: running count per remaining deck (at least half a
    /// deck), rounded toward zero.
    pub fn true_count(&self, decks: u8) -> i32 {
        let remaining = (decks as i32 * 52 - self.seen as i32).max(26);
        self.running * 52 / remaining
    }

    fn tc(&self, view: &View<'_>) -> i32 {
        self.true_count(view.rules().decks.max(1))
    }
}

/// The Illustrious 18 and Fab 4 for a two-or-more-card hand against `up`
/// (2–11) at true count `tc`; `None` leaves the play to basic strategy.
pub fn index_play(hand: &[Card], up: u8, tc: i32, legal: ActionSet) -> Option<Action> {
    let total = Total::of(hand);
    if total.is_soft() {
        return None;
    }
    let t = total.best();
    let two = hand.len() == 2;
    // Fab 4 surrenders (and not surrendering 15 v 10 at negative counts).
    if legal.contains(Action::Surrender) && two {
        let surrender = match (t, up) {
            (14, 10) => tc >= 3,
            (15, 10) => tc >= 0,
            (15, 9) => tc >= 2,
            (15, 11) => tc >= 1,
            _ => return index_play(hand, up, tc, without(legal, Action::Surrender)),
        };
        return Some(if surrender { Action::Surrender } else { stand_or_hit(t, up, tc) });
    }
    if two && hand[0].is_ten() && hand[1].is_ten() && legal.contains(Action::Split) {
        match (up, tc) {
            (5, 5..) | (6, 4..) => return Some(Action::Split),
            _ => return Some(Action::Stand),
        }
    }
    let double = |threshold: i32| -> Option<Action> {
        if two && legal.contains(Action::Double) && tc >= threshold { Some(Action::Double) } else { None }
    };
    match (t, up) {
        (10, 10) => double(4),
        (10, 11) => double(4),
        (11, 11) => double(1),
        (9, 2) => double(1),
        (9, 7) => double(3),
        (12..=16, _) => Some(stand_or_hit(t, up, tc)),
        _ => None,
    }
}

/// Stand or hit a stiff hand by the count's index numbers.
fn stand_or_hit(t: u8, up: u8, tc: i32) -> Action {
    let stand = match (t, up) {
        (16, 10) => tc >= 0,
        (16, 9) => tc >= 5,
        (15, 10) => tc >= 4,
        (13, 2) => tc >= -1,
        (13, 3) => tc >= -2,
        (12, 2) => tc >= 3,
        (12, 3) => tc >= 2,
        (12, 4) => tc >= 0,
        (12, 5) => tc >= -2,
        (12, 6) => tc >= -1,
        (_, 2..=6) => t >= 13,
        _ => false,
    };
    if stand { Action::Stand } else { Action::Hit }
}

fn without(set: ActionSet, a: Action) -> ActionSet {
    ActionSet(set.0 & !(1 << a as u8))
}

impl Strategy for HiLo {
    fn observe(&mut self, events: &[Event]) {
        self.basic.observe(events);
        for e in events {
            match e.kind {
                event_kind::SHUFFLE | event_kind::PARTIAL_SHUFFLE => {
                    self.running = 0;
                    self.seen = 0;
                }
                _ if e.reveals_card() => {
                    self.running += hilo_value(e.card);
                    self.seen += 1;
                    self.others += (e.kind == event_kind::CARD && e.seat != self.seat) as u32;
                }
                _ => {}
            }
        }
    }

    fn bet(&mut self, view: &View<'_>) -> i64 {
        if view.variant() == Variant::NorwegianHome {
            return self.basic.bet(view);
        }
        let tc = self.tc(view);
        // Sit out at bad counts — but only while others keep dealing cards:
        // alone at the table, sitting out would freeze the count forever.
        let others_playing = mem::take(&mut self.others) > 0;
        self.seat = view.seat();
        if tc <= -2 && others_playing {
            return 0;
        }
        let units = match tc {
            ..=1 => 1,
            2 => 2,
            3 => 4,
            4 => 8,
            _ => 12,
        };
        let (min, max, unit) = (view.min(), view.max(), view.unit().max(1));
        let wanted = (min * units).min(max);
        let bet = wanted - wanted.rem_euclid(unit);
        if bet < min { 0 } else { bet }
    }

    fn insurance(&mut self, view: &View<'_>) -> i64 {
        let ace_up = view.dealer_up().is_some_and(Card::is_ace);
        if ace_up && self.tc(view) >= 3 { view.max() } else { 0 }
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        if view.variant() != Variant::NorwegianHome {
            let up = up_value(view.dealer_up().unwrap_or(Card::TEN));
            if let Some(a) = index_play(view.hand(), up, self.tc(view), view.legal())
                && view.legal().contains(a)
            {
                return a;
            }
        }
        self.basic.act(view)
    }

    fn banker_double(&mut self, view: &View<'_>) -> bool {
        self.basic.banker_double(view)
    }

    fn banker_draw(&mut self, view: &View<'_>) -> bool {
        self.basic.banker_draw(view)
    }
}

pitboss_sdk::export_bot!(HiLo, HiLo::default());

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(ranks: &[u8]) -> Vec<Card> {
        ranks.iter().map(|&r| Card::new(r).unwrap()).collect()
    }

    fn all() -> ActionSet {
        Action::ALL.iter().fold(ActionSet::EMPTY, |s, a| s.with(*a))
    }

    #[test]
    fn the_count_and_the_true_count() {
        let mut h = HiLo::default();
        let ev = |r| Event { kind: event_kind::CARD, seat: 0, hand: 0, card: Card::new(r).unwrap() };
        h.observe(&[ev(2), ev(5), ev(13), ev(1), ev(6), ev(8)]);
        assert_eq!((h.running, h.seen), (1, 6));
        h.running = 10;
        assert_eq!(h.true_count(6), 10 * 52 / (312 - 6));
        h.observe(&[Event::table(event_kind::SHUFFLE, 0)]);
        assert_eq!((h.running, h.seen), (0, 0));
    }

    #[test]
    fn illustrious_18_and_fab_4() {
        let stand_16_v_10 = index_play(&hand(&[10, 6]), 10, 0, without(all(), Action::Surrender));
        assert_eq!(stand_16_v_10, Some(Action::Stand));
        assert_eq!(index_play(&hand(&[10, 6]), 10, -1, without(all(), Action::Surrender)), Some(Action::Hit));
        assert_eq!(index_play(&hand(&[10, 10]), 6, 4, all()), Some(Action::Split));
        assert_eq!(index_play(&hand(&[10, 10]), 6, 3, all()), Some(Action::Stand));
        assert_eq!(index_play(&hand(&[6, 5]), 11, 1, all()), Some(Action::Double));
        assert_eq!(index_play(&hand(&[6, 5]), 11, 0, all()), None, "basic decides below the index");
        assert_eq!(index_play(&hand(&[10, 2]), 3, 2, all()), Some(Action::Stand));
        assert_eq!(index_play(&hand(&[10, 4]), 10, 3, all()), Some(Action::Surrender));
        assert_eq!(index_play(&hand(&[10, 5]), 10, -1, all()), Some(Action::Hit), "no surrender at negative counts");
    }
}
