//! Hand totals for transcripts: the cards of each hand and the dealer's,
//! followed from the events as an observer sees them, so a transcript
//! says `hard 16`, `soft 18`, `blackjack`, `dealer 21` or `dealer soft 17` where a card
//! lands, as the player and the dealer would count it.

use pitboss_engine::TableEvent;
use pitboss_sdk::Card;
use pitboss_sdk::card::Total;

/// Every hand's cards at the table, and the dealer's, for one round.
#[derive(Debug, Default)]
pub(crate) struct Totals {
    /// By box: its hands' cards, in hand order.
    boxes: Vec<Hands>,
    /// The dealer's (or banker's) cards turned up.
    dealer: Vec<Card>,
}

/// One box's hands.
#[derive(Debug, Default)]
struct Hands {
    cards: Vec<Vec<Card>>,
    /// The box split: none of its hands is a blackjack.
    split: bool,
}

impl Totals {
    /// Follows `event`; returns the total to show after its line, if it
    /// is a card that makes a hand of two or more cards.
    pub(crate) fn follow(&mut self, event: &TableEvent) -> Option<String> {
        match *event {
            TableEvent::RoundStart { .. } => *self = Totals::default(),
            TableEvent::Card { seat, hand, card } => {
                let split = self.hands(seat).split;
                let cards = self.hand(seat, hand);
                cards.push(card);
                return (cards.len() > 1).then(|| hand_words(cards, !split));
            }
            // The banker game's hidden card is the first of the box's hand.
            TableEvent::HiddenCard { seat: Some(seat), card } => self.hand(seat, 0).insert(0, card),
            TableEvent::Acted { seat, hand, action: pitboss_sdk::Action::Split } => {
                let hands = self.hands(seat);
                hands.split = true;
                if let Some(moved) = hands.cards.get_mut(usize::from(hand)).and_then(|h| h.pop()) {
                    let at = (usize::from(hand) + 1).min(hands.cards.len());
                    hands.cards.insert(at, vec![moved]);
                }
            }
            TableEvent::DealerCard { card, hole: false } | TableEvent::HoleRevealed { card } => {
                self.dealer.push(card);
                // The dealer's hard total is just its number: `dealer 17`.
                let words = |cards: &[Card]| {
                    let words = hand_words(cards, true);
                    format!("dealer {}", words.strip_prefix("hard ").unwrap_or(&words))
                };
                return (self.dealer.len() > 1).then(|| words(&self.dealer));
            }
            _ => {}
        }
        None
    }

    fn hands(&mut self, seat: u8) -> &mut Hands {
        let seat = usize::from(seat);
        if self.boxes.len() <= seat {
            self.boxes.resize_with(seat + 1, Hands::default);
        }
        &mut self.boxes[seat]
    }

    fn hand(&mut self, seat: u8, hand: u8) -> &mut Vec<Card> {
        let hands = &mut self.hands(seat).cards;
        let hand = usize::from(hand);
        if hands.len() <= hand {
            hands.resize_with(hand + 1, Vec::new);
        }
        &mut hands[hand]
    }
}

/// A hand's total as a player says it: `blackjack` (two cards making 21,
/// where `natural` may be one: not after a split), `soft 18`, `hard 16`,
/// `bust 24`.
fn hand_words(cards: &[Card], natural: bool) -> String {
    let total = Total::of(cards);
    if total.is_bust() {
        format!("bust {}", total.hard)
    } else if natural && cards.len() == 2 && total.best() == 21 {
        "blackjack".to_string()
    } else if total.is_soft() {
        format!("soft {}", total.best())
    } else {
        format!("hard {}", total.best())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitboss_sdk::Action;

    fn card(rank: u8) -> Card {
        Card::new(rank).unwrap()
    }

    #[test]
    fn totals_follow_cards_splits_and_the_dealer() {
        let mut t = Totals::default();
        let mut says = |e: TableEvent| t.follow(&e);
        assert_eq!(says(TableEvent::RoundStart { round: 1 }), None);
        assert_eq!(says(TableEvent::Card { seat: 0, hand: 0, card: card(8) }), None);
        assert_eq!(says(TableEvent::DealerCard { card: card(10), hole: false }), None);
        assert_eq!(says(TableEvent::Card { seat: 0, hand: 0, card: card(8) }).as_deref(), Some("hard 16"));
        assert_eq!(says(TableEvent::DealerCard { card: card(1), hole: true }), None);
        says(TableEvent::Acted { seat: 0, hand: 0, action: Action::Split });
        assert_eq!(says(TableEvent::Card { seat: 0, hand: 0, card: card(1) }).as_deref(), Some("soft 19"));
        assert_eq!(says(TableEvent::Card { seat: 0, hand: 1, card: card(13) }).as_deref(), Some("hard 18"));
        assert_eq!(says(TableEvent::Card { seat: 0, hand: 1, card: card(9) }).as_deref(), Some("bust 27"));
        assert_eq!(says(TableEvent::HoleRevealed { card: card(1) }).as_deref(), Some("dealer blackjack"));
        assert_eq!(hand_words(&[card(10), card(5), card(6)], true), "hard 21");
        assert_eq!(hand_words(&[card(1), card(13)], false), "soft 21", "after a split");
    }
}
