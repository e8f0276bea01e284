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
    /// The weights of the first counter seated, and its running count,
    /// kept card by card: its true count is then one division, not a sum
    /// over the values for every keyed question.
    weights: key::Weights,
    running: i32,
}

impl Shown {
    /// Nothing shown yet, from a shoe of `decks` decks, keeping the
    /// running count under `weights` as cards are shown.
    pub(super) fn new(decks: u8, weights: Option<key::Weights>) -> Shown {
        Shown { decks, weights: weights.unwrap_or_default(), ..Shown::default() }
    }

    /// Counts the event `kind` showing `card`; a shuffle starts again.
    #[inline]
    pub(super) fn see(&mut self, kind: u8, card: Card) {
        let event = Event { kind, seat: 0, hand: 0, card };
        if event.reveals_card() {
            let v = usize::from(card.value().clamp(1, 10)) - 1;
            self.by_value[v] += 1;
            self.cards += 1;
            self.running += i32::from(self.weights[v]);
        } else if kind == event_kind::SHUFFLE || kind == event_kind::PARTIAL_SHUFFLE {
            (self.by_value, self.cards, self.running) = ([0; 10], 0, 0);
        }
    }

    /// The true count a key of `parts` holds for a player counting with
    /// `weights`: 0 where the key names no true count, or the player
    /// names no count.
    #[inline]
    pub(crate) fn count_for(&self, parts: u32, weights: Option<key::Weights>) -> i32 {
        match weights {
            Some(weights) if parts & key::part::TRUE_COUNT != 0 => self.true_count(&weights),
            _ => 0,
        }
    }

    /// The true count under `weights` (`key::true_count`).
    #[inline]
    pub(crate) fn true_count(&self, weights: &key::Weights) -> i32 {
        let running = if *weights == self.weights {
            self.running
        } else {
            self.by_value.iter().zip(weights).map(|(&n, &w)| n as i32 * i32::from(w)).sum()
        };
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
        let other: key::Weights = [2, -1, 0, 0, 3, 0, 0, 0, 0, 1];
        for kept in [None, Some(hilo), Some(other)] {
            counts_under(Shown::new(1, kept), &hilo);
            counts_under(Shown::new(1, kept), &other);
        }
    }

    /// Shows cards to `shown` and checks its true count under `weights`,
    /// whichever weights it keeps a running count under.
    fn counts_under(mut shown: Shown, w: &key::Weights) {
        let card = |r| Card::new(r).unwrap();
        // 2, 5 and 3 shown: values 2, 5, 3.
        for (kind, rank) in [(event_kind::CARD, 2), (event_kind::DEALER_CARD, 5), (event_kind::REVEAL, 3)] {
            shown.see(kind, card(rank));
        }
        // A round's start or a split shows no card.
        shown.see(event_kind::ROUND, card(1));
        shown.see(event_kind::SPLIT, card(13));
        let three = i32::from(w[1]) + i32::from(w[4]) + i32::from(w[2]);
        assert_eq!(shown.true_count(w), key::true_count(three, 3, 1));
        shown.see(event_kind::HOLE_CARD, card(12));
        assert_eq!(shown.true_count(w), key::true_count(three + i32::from(w[9]), 4, 1));
        shown.see(event_kind::PARTIAL_SHUFFLE, card(1));
        assert_eq!(shown.true_count(w), 0);
        shown.see(event_kind::CARD, card(1));
        assert_eq!(shown.true_count(w), key::true_count(i32::from(w[0]), 1, 1));
    }
}
