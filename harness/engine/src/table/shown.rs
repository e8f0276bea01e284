//! The cards a table has shown since its last shuffle, by value: what a
//! card counter reading the events has counted, kept for the decision
//! keys that name its true count (ABI version 5, sdk/ABI.md "Version 5").

use pitboss_sdk::abi::event_kind;
use pitboss_sdk::{Card, Event, key};

/// The cards shown since the last shuffle (the events that reveal one,
/// [`Event::reveals_card`]), by value: what a counter reading the events
/// has counted, kept for the keys that name its true count.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Shown {
    by_value: [u32; 10],
    cards: u32,
    /// The shoe's decks, as the rules block says.
    decks: u8,
}

impl Shown {
    /// Nothing shown yet, from a shoe of `decks` decks.
    pub(super) fn new(decks: u8) -> Shown {
        Shown { decks, ..Shown::default() }
    }

    /// Counts the event `kind` showing `card`; a shuffle starts again.
    #[inline]
    pub(super) fn see(&mut self, kind: u8, card: Card) {
        let event = Event { kind, seat: 0, hand: 0, card };
        if event.reveals_card() {
            self.by_value[usize::from(card.value().clamp(1, 10)) - 1] += 1;
            self.cards += 1;
        } else if kind == event_kind::SHUFFLE || kind == event_kind::PARTIAL_SHUFFLE {
            (self.by_value, self.cards) = ([0; 10], 0);
        }
    }

    /// The true count under `weights` (`key::true_count`).
    #[inline]
    pub(crate) fn true_count(&self, weights: &key::Weights) -> i32 {
        let running = self.by_value.iter().zip(weights).map(|(&n, &w)| n as i32 * i32::from(w)).sum();
        key::true_count(running, self.cards, self.decks)
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::abi::event_kind;
    use pitboss_sdk::{Card, key};

    use super::Shown;

    #[test]
    fn a_shown_card_counts_by_value_and_a_shuffle_starts_again() {
        let hilo: key::Weights = [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1];
        let mut shown = Shown::new(1);
        let card = |r| Card::new(r).unwrap();
        for (kind, rank) in [(event_kind::CARD, 2), (event_kind::DEALER_CARD, 5), (event_kind::REVEAL, 3)] {
            shown.see(kind, card(rank));
        }
        // A round's start or a split shows no card.
        shown.see(event_kind::ROUND, card(1));
        shown.see(event_kind::SPLIT, card(13));
        assert_eq!(shown.true_count(&hilo), key::true_count(3, 3, 1));
        shown.see(event_kind::HOLE_CARD, card(12));
        assert_eq!(shown.true_count(&hilo), key::true_count(2, 4, 1));
        shown.see(event_kind::PARTIAL_SHUFFLE, card(1));
        assert_eq!(shown.true_count(&hilo), 0);
        shown.see(event_kind::CARD, card(1));
        assert_eq!(shown.true_count(&hilo), key::true_count(-1, 1, 1));
    }
}
