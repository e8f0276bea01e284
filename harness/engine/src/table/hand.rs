//! What lies on a dealer game's box: its hands (cards, total, stake,
//! state) and the back stakes riding on them.

use pitboss_sdk::abi::MAX_HAND_CARDS;
use pitboss_sdk::{Card, SideBet, Total};

use std::ops::{Index, IndexMut};

use crate::id::{PlayerId, hand_byte};

/// Where a hand stands in the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HandState {
    Playing,
    Stood,
    Bust,
    Surrendered,
    /// Paid or lost before the showdown (peek, even money).
    Settled,
}

/// One hand on a box (or the dealer's): its cards, running total and
/// stake.
#[derive(Clone, Copy)]
pub(super) struct Hand {
    pub(super) cards: [Card; MAX_HAND_CARDS],
    pub(super) len: u8,
    pub(super) total: Total,
    pub(super) bet: i64,
    /// The part of `bet` that was the box's original stake (not a double
    /// or a split's extra bet).
    pub(super) original: i64,
    pub(super) from_split: bool,
    pub(super) split_aces: bool,
    /// Every ace counts 1 (after doubling a soft hand in `swedish`).
    pub(super) aces_low: bool,
    pub(super) state: HandState,
}

impl Default for Hand {
    fn default() -> Hand {
        Hand::new(0)
    }
}

impl Hand {
    pub(super) fn new(bet: i64) -> Hand {
        Hand {
            cards: [Card::ACE; MAX_HAND_CARDS],
            len: 0,
            total: Total::default(),
            bet,
            original: bet,
            from_split: false,
            split_aces: false,
            aces_low: false,
            state: HandState::Playing,
        }
    }

    #[inline]
    pub(super) fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }

    /// A hand of a 10-chip bet holding `cards` (stacked-shoe notation).
    #[cfg(test)]
    pub(super) fn dealt(cards: &str) -> Hand {
        let mut hand = Hand::new(10);
        crate::shoe::parse_stacked(cards).unwrap().into_iter().for_each(|c| hand.push(c));
        hand
    }

    #[inline]
    pub(super) fn push(&mut self, card: Card) {
        self.cards[usize::from(self.len)] = card;
        self.len += 1;
        // `Total::add` without its saturation: a hand is played only while
        // its hard total is at most 21, so it never passes 31.
        self.total = Total { hard: self.total.hard + card.value(), has_ace: self.total.has_ace | card.is_ace() };
    }

    /// The hand's total as it counts.
    #[inline]
    pub(super) fn best(&self) -> u8 {
        if self.aces_low { self.total.hard } else { self.total.best() }
    }

    /// Ace + ten as the first two cards of an unsplit hand
    /// (`pitboss_sdk::is_natural`, from the total kept as cards arrive:
    /// this is asked of every hand at every showdown).
    #[inline]
    pub(super) fn is_natural(&self) -> bool {
        !self.from_split && self.is_two_card_21()
    }

    /// Two cards counting 21 (the dealer's natural): an ace and a ten,
    /// hard 11 with an ace (asked of every hand at every showdown).
    #[inline]
    pub(super) fn is_two_card_21(&self) -> bool {
        self.len == 2 && self.total.hard == 11 && self.total.has_ace
    }
}

/// A stake behind a box (danish back bets), following its holder's hand.
pub(super) struct BackStake {
    /// The betting player.
    pub(super) player: PlayerId,
    /// The holder's hand it rides on.
    pub(super) hand: usize,
    pub(super) stake: i64,
    pub(super) original: i64,
}

/// One box in play this round.
pub(super) struct BoxState {
    /// The player holding the box.
    pub(super) holder: PlayerId,
    pub(super) base_bet: i64,
    pub(super) insurance: i64,
    pub(super) side: Option<(SideBet, i64)>,
    pub(super) hands: Hands,
    pub(super) back: Vec<BackStake>,
}

/// Hands a box keeps inline: the usual one, and every split where the
/// rules cap a box at four hands (`north-american`).
const INLINE_HANDS: usize = 4;

/// A box's hands in play order: the first [`INLINE_HANDS`] inline, the
/// rest (only where the rules set no split limit: up to 255) in `spill`,
/// so no round's usual hands touch a `Vec` and none grows or shrinks.
#[derive(Default)]
pub(super) struct Hands {
    inline: [Hand; INLINE_HANDS],
    len: u8,
    spill: Vec<Hand>,
}

impl Hands {
    /// How many.
    #[inline]
    pub(super) fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// None left: the next round's box.
    #[inline]
    pub(super) fn clear(&mut self) {
        if self.len() > INLINE_HANDS {
            self.spill.clear();
        }
        self.len = 0;
    }

    /// A hand after the last.
    #[inline]
    pub(super) fn push(&mut self, hand: Hand) {
        let at = self.len();
        match self.inline.get_mut(at) {
            Some(slot) => *slot = hand,
            None => self.spill.push(hand),
        }
        self.len = hand_byte(at + 1);
    }

    /// A hand at `at`, those from `at` on one place later (a split's
    /// second hand): a few rounds in a hundred, out of line.
    #[inline(never)]
    pub(super) fn insert(&mut self, at: usize, hand: Hand) {
        assert!(at <= self.len(), "a hand is inserted among a box's hands");
        if at >= INLINE_HANDS {
            self.spill.insert(at - INLINE_HANDS, hand);
        } else {
            if self.len() >= INLINE_HANDS {
                self.spill.insert(0, self.inline[INLINE_HANDS - 1]);
            }
            self.inline.copy_within(at..INLINE_HANDS - 1, at + 1);
            self.inline[at] = hand;
        }
        self.len = hand_byte(self.len() + 1);
    }

    /// The first hand, if any.
    #[inline]
    pub(super) fn first(&self) -> Option<&Hand> {
        (self.len > 0).then(|| &self.inline[0])
    }
}

impl Index<usize> for Hands {
    type Output = Hand;
    #[inline]
    fn index(&self, h: usize) -> &Hand {
        debug_assert!(h < self.len());
        match self.inline.get(h) {
            Some(hand) => hand,
            None => &self.spill[h - INLINE_HANDS],
        }
    }
}

impl IndexMut<usize> for Hands {
    #[inline]
    fn index_mut(&mut self, h: usize) -> &mut Hand {
        debug_assert!(h < self.len());
        match self.inline.get_mut(h) {
            Some(hand) => hand,
            None => &mut self.spill[h - INLINE_HANDS],
        }
    }
}

#[cfg(test)]
impl From<Vec<Hand>> for Hands {
    fn from(hands: Vec<Hand>) -> Hands {
        let mut list = Hands::default();
        hands.into_iter().for_each(|hand| list.push(hand));
        list
    }
}

#[cfg(test)]
mod tests {
    use super::{Hand, Hands};

    /// A box's hands, inline and spilled, keep the order a `Vec` would:
    /// splits anywhere, past the inline four and back to none.
    #[test]
    fn a_box_keeps_its_hands_in_order_past_the_inline_four() {
        let mut hands = Hands::default();
        let mut model: Vec<i64> = Vec::new();
        for round in 0..3 {
            hands.clear();
            model.clear();
            hands.push(Hand::new(0));
            model.push(0);
            // Splits at the first, the last and the middle hand, 11 hands in all.
            for (i, at) in [1, 1, 3, 2, 5, 0, 6, 4, 9, 10].into_iter().enumerate() {
                let bet = i64::try_from(i).unwrap() + 1 + 100 * round;
                hands.insert(at, Hand::new(bet));
                model.insert(at, bet);
                let bets: Vec<i64> = (0..hands.len()).map(|h| hands[h].bet).collect();
                assert_eq!(bets, model, "after inserting at {at}");
            }
            hands[7].bet = -1;
            model[7] = -1;
            hands.push(Hand::new(99));
            model.push(99);
            assert_eq!((0..hands.len()).map(|h| hands[h].bet).collect::<Vec<_>>(), model);
            assert_eq!(hands.first().map(|h| h.bet), Some(model[0]));
        }
        hands.clear();
        assert!(hands.first().is_none());
    }

    #[test]
    fn a_hand_counts_its_cards_and_its_best_total() {
        let h = Hand::dealt("A 6");
        assert_eq!((h.cards().len(), h.total.hard, h.best()), (2, 7, 17));
        assert_eq!(Hand { aces_low: true, ..h }.best(), 7, "aces low after a soft double");
    }

    #[test]
    fn only_an_unsplit_two_card_twenty_one_is_natural() {
        assert!(Hand::dealt("A K").is_natural());
        assert!(!Hand { from_split: true, ..Hand::dealt("A K") }.is_natural());
        assert!(!Hand::dealt("7 7 7").is_natural());
        for cards in ["A K", "T A", "A 9", "A A", "5 6", "T T", "A", "A T A", "7 7 7", "K Q"] {
            let hand = Hand::dealt(cards);
            assert_eq!(hand.is_natural(), pitboss_sdk::is_natural(hand.cards()), "{cards}");
        }
    }
}
