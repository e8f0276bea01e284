//! Shoe compositions and player hands as card counts by rank.
//!
//! Suits never matter and J/Q/K count as ten, so a shoe is ten counts:
//! index 0 is the ace, 1–8 the cards 2–9, 9 every ten-valued card. Counts
//! are `f64` so a shoe can stand for a fractional composition (a true
//! count); a player's hand is whole cards.

/// Ranks by blackjack value: 0 = ace, 1 = two … 8 = nine, 9 = ten-valued.
pub const RANKS: usize = 10;
/// The ace's rank index.
pub const ACE: usize = 0;
/// The ten-valued rank index.
pub const TEN: usize = 9;

/// Blackjack value of a rank index, ace 1.
#[inline]
pub const fn value(rank: usize) -> u8 {
    rank as u8 + 1
}

/// A shoe (or what is left of one): cards of each rank.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shoe {
    /// Cards of each rank.
    pub counts: [f64; RANKS],
}

impl Shoe {
    /// `decks` full 52-card decks.
    pub fn decks(decks: f64) -> Shoe {
        let mut counts = [4.0 * decks; RANKS];
        counts[TEN] = 16.0 * decks;
        Shoe { counts }
    }

    /// Cards left.
    pub fn total(&self) -> f64 {
        self.counts.iter().sum()
    }

    /// This shoe less one card of `rank`.
    pub fn without(mut self, rank: usize) -> Shoe {
        self.counts[rank] -= 1.0;
        self
    }

    /// This shoe less the cards of `hand`.
    pub fn less(mut self, hand: &Hand) -> Shoe {
        for (c, &n) in self.counts.iter_mut().zip(&hand.counts) {
            *c -= f64::from(n);
        }
        self
    }

    /// The probability that `hand` is exactly the next `hand.len()` cards,
    /// in any order (multivariate hypergeometric).
    pub fn chance_of(&self, hand: &Hand) -> f64 {
        let mut p = 1.0;
        let mut left = self.total();
        let mut drawn = 0.0;
        for (r, &k) in hand.counts.iter().enumerate() {
            for i in 0..k {
                drawn += 1.0;
                p *= (self.counts[r] - f64::from(i)).max(0.0) / left * drawn / f64::from(i + 1);
                left -= 1.0;
            }
        }
        p
    }
}

/// A player's hand: cards by rank, with its hard total (aces 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    /// Cards of each rank.
    pub counts: [u8; RANKS],
    /// Sum with every ace 1.
    pub hard: u8,
    /// Cards in the hand.
    pub len: u8,
}

impl Hand {
    /// A hand of the given ranks.
    pub fn of(ranks: &[usize]) -> Hand {
        ranks.iter().fold(Hand::default(), |h, &r| h.with(r))
    }

    /// This hand plus one card of `rank`.
    pub fn with(mut self, rank: usize) -> Hand {
        self.counts[rank] += 1;
        self.hard += value(rank);
        self.len += 1;
        self
    }

    /// Holds an ace that counts 11.
    pub fn is_soft(&self) -> bool {
        self.counts[ACE] > 0 && self.hard <= 11
    }

    /// The best total.
    pub fn best(&self) -> u8 {
        if self.is_soft() { self.hard + 10 } else { self.hard }
    }

    /// Over 21.
    pub fn is_bust(&self) -> bool {
        self.hard > 21
    }

    /// Ace and ten as two cards.
    pub fn is_two_card_21(&self) -> bool {
        self.len == 2 && self.counts[ACE] == 1 && self.counts[TEN] == 1
    }

    /// A unique key: five bits per rank (a hand of at most 21 points holds
    /// at most 21 cards of a rank).
    pub fn key(&self) -> u64 {
        self.counts.iter().fold(0u64, |k, &n| k << 5 | u64::from(n.min(31)))
    }
}

/// Every hand of at least `min_len` cards whose hard total is at most 21
/// and that `shoe` can supply, each once.
pub fn hands_up_to_21(shoe: &Shoe, min_len: u8) -> Vec<Hand> {
    fn grow(shoe: &Shoe, hand: Hand, from: usize, min_len: u8, out: &mut Vec<Hand>) {
        if hand.len >= min_len {
            out.push(hand);
        }
        for r in from..RANKS {
            let next = hand.with(r);
            if next.hard <= 21 && f64::from(next.counts[r]) <= shoe.counts[r] {
                grow(shoe, next, r, min_len, out);
            }
        }
    }
    let mut out = Vec::new();
    grow(shoe, Hand::default(), 0, min_len, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_and_chances() {
        let shoe = Shoe::decks(1.0);
        assert_eq!(shoe.total(), 52.0);
        let bj = Hand::of(&[ACE, TEN]);
        assert!(bj.is_soft() && bj.best() == 21 && bj.is_two_card_21());
        // Ace then ten or ten then ace: 2 · 4/52 · 16/51.
        assert!((shoe.chance_of(&bj) - 2.0 * 4.0 / 52.0 * 16.0 / 51.0).abs() < 1e-15);
        let aces = Hand::of(&[ACE, ACE]);
        assert!((shoe.chance_of(&aces) - 4.0 / 52.0 * 3.0 / 51.0).abs() < 1e-15);
        let two: f64 = hands_up_to_21(&shoe, 2).iter().filter(|h| h.len == 2).map(|h| shoe.chance_of(h)).sum();
        assert!((two - 1.0).abs() < 1e-12, "{two}");
    }
}
