//! The strategy library our bots share: `Basic`, total-dependent basic
//! strategy computed exactly for each rule set by `pitboss-strategy`
//! (`pitboss strategy VARIANT`) and checked in as byte tables
//! (`generated.rs`, read through [`table::Table`]). It plays the chart of
//! the variant it is told, two-card and three-or-more-card plays apart,
//! with the engine's legal actions deciding the fallbacks; flat minimum
//! bets, never insurance, even money or side bets (the analysis shows
//! each costs money off the top).
//!
//! In the banker game (`norwegian-home`) it plays that game's chart as a
//! player; as banker it doubles on the hidden cards the analysis finds
//! profitable and, from 17 up, draws when drawing beats standing against
//! the standing players' open cards, each hidden card weighed by the
//! unseen cards that agree with the player having stood by the chart.
//!
//! A plain library (no wasm exports), so several bots can build on it:
//! `bots/basic` exports it as is, `bots/hilo` adds a count to it.

#![no_std]

mod banker;
mod generated;
pub mod table;

use pitboss_sdk::{Action, Card, Decision, Event, Strategy, Variant, View, event_kind};

pub use table::{Code, Indices, Table, rank};

/// Basic strategy. Its only state is what the banker game needs: the
/// cards turned up this round.
#[derive(Clone, Copy, Debug, Default)]
pub struct Basic {
    /// Each seat's face-up cards this round: hard sum, count, any ace.
    shown: [u8; 16],
    count: [u8; 16],
    aces: u16,
    /// Seats whose hand is over (busted or paid).
    out: u16,
    /// Players' cards turned up this round, by rank.
    seen: [u8; 10],
    /// Playing the banker game (learned from the first request); only
    /// then are the events worth tracking.
    banker_game: bool,
}

/// Dealer up card as 2–11 (ace 11).
pub fn up_value(up: Card) -> u8 {
    if up.is_ace() { 11 } else { up.value() }
}

/// The chart's action for `hand` against `up`, given the legal actions.
#[inline]
pub fn chart_action(table: &Table, view: &View<'_>) -> Action {
    let legal = view.legal();
    let hand = view.hand();
    let up = rank(view.dealer_up().unwrap_or(Card::TEN));
    let total = view.total();
    let (soft, best) = (total.is_soft(), total.best());
    if hand.len() == 2 && legal.contains(Action::Split) && table.splits(rank(hand[0]), up) {
        return Action::Split;
    }
    let or = |first: Action, fallback: Action| if legal.contains(first) { first } else { fallback };
    let wanted = if hand.len() == 2 {
        match table.two_cards(soft, best, up) {
            Code::Stand => Action::Stand,
            Code::Hit => Action::Hit,
            Code::DoubleHit => or(Action::Double, Action::Hit),
            Code::DoubleStand => or(Action::Double, Action::Stand),
            Code::SurrenderHit => or(Action::Surrender, Action::Hit),
            Code::SurrenderStand => or(Action::Surrender, Action::Stand),
        }
    } else if table.more_cards_hit(soft, best, up) {
        Action::Hit
    } else {
        Action::Stand
    };
    if legal.contains(wanted) { wanted } else { Action::Stand }
}

impl Basic {
    /// The banker game's tracking of the cards turned up this round.
    fn track(&mut self, events: &[Event]) {
        for e in events {
            let s = (e.seat as usize).min(15);
            match e.kind {
                event_kind::ROUND => *self = Basic { banker_game: true, ..Basic::default() },
                event_kind::CARD => {
                    self.shown[s] = self.shown[s].saturating_add(e.card.value());
                    self.count[s] = self.count[s].saturating_add(1);
                    self.aces |= u16::from(e.card.is_ace()) << s;
                    self.seen[rank(e.card)] = self.seen[rank(e.card)].saturating_add(1);
                }
                // A shown hidden card means that seat is out (bust or paid)
                // or the showdown has come.
                event_kind::REVEAL => {
                    self.out |= 1 << s;
                    self.seen[rank(e.card)] = self.seen[rank(e.card)].saturating_add(1);
                }
                _ => {}
            }
        }
    }
}

impl Strategy for Basic {
    /// Only the banker game's play reads the cards turned up.
    fn observes(&self, variant: Variant) -> bool {
        variant.banker_game()
    }

    /// It bets the minimum (learning, in the banker game, that it plays
    /// it: there it is asked) and takes no insurance, even money, side bet
    /// or back bet; as banker it doubles by its chart.
    fn defaults(&self, variant: Variant, kind: Decision) -> bool {
        match kind {
            Decision::Bet => !variant.banker_game(),
            Decision::BankerDouble => false,
            _ => true,
        }
    }

    /// Outside the banker game an act is the chart's cell: the hand's
    /// total, softness and pair, the up card's value and the legal set
    /// (`chart_action`), so the host need ask each such key once.
    fn decision_key(&self, variant: Variant, kind: Decision) -> Option<u32> {
        use pitboss_sdk::key::part;
        (kind == Decision::Act && !variant.banker_game()).then_some(part::LEGAL | part::UP_VALUE | part::SUMMARY)
    }

    fn bet(&mut self, view: &View<'_>) -> i64 {
        self.banker_game = view.variant().banker_game();
        if view.balance() >= view.min() { view.min() } else { 0 }
    }

    /// Outside the banker game there is nothing to track: that test is
    /// inlined into its callers (`hilo` calls this for every request),
    /// the tracking is not.
    #[inline]
    fn observe(&mut self, events: &[Event]) {
        if self.banker_game {
            self.track(events);
        }
    }

    #[inline]
    fn act(&mut self, view: &View<'_>) -> Action {
        chart_action(Table::for_variant(view.variant()), view)
    }

    fn banker_double(&mut self, view: &View<'_>) -> bool {
        self.banker_game = true;
        let table = Table::for_variant(Variant::NorwegianHome);
        view.hand().first().is_some_and(|&c| table.banker_doubles(rank(c)))
    }

    fn banker_draw(&mut self, view: &View<'_>) -> bool {
        banker::draw(self, view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_north_american_chart_is_the_textbook_one() {
        let t = Table::for_variant(Variant::NorthAmerican);
        // 16 against a ten: surrender, else hit; with three cards, stand.
        assert_eq!(t.two_cards(false, 16, 9), Code::SurrenderHit);
        assert!(!t.more_cards_hit(false, 16, 9));
        assert_eq!(t.two_cards(false, 11, 0), Code::Hit);
        assert_eq!(t.two_cards(false, 11, 9), Code::DoubleHit);
        assert_eq!(t.two_cards(true, 18, 4), Code::DoubleStand);
        assert!(t.splits(7, 0) && t.splits(0, 9) && !t.splits(9, 5) && !t.splits(4, 5));
        // The banker doubles on a hidden ace or ten.
        let b = Table::for_variant(Variant::NorwegianHome);
        assert!(b.banker_doubles(0) && b.banker_doubles(9) && !b.banker_doubles(5));
    }
}
