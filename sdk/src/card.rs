//! Cards and hand arithmetic: ranks, values, totals, softness, pairs.

use core::fmt;

/// One playing card. Only the rank matters in blackjack, so a card is its
/// rank: 1 = ace, 2–10, 11 = jack, 12 = queen, 13 = king.
///
/// `#[repr(transparent)]` over `u8`: a card is one byte in the ABI.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Card(u8);

impl Card {
    /// The ace.
    pub const ACE: Card = Card(1);
    /// The ten (the plain ten; J, Q and K count the same).
    pub const TEN: Card = Card(10);
    /// The king.
    pub const KING: Card = Card(13);

    /// A card of rank 1 (ace) to 13 (king); `None` for anything else.
    #[inline]
    pub const fn new(rank: u8) -> Option<Card> {
        if rank >= 1 && rank <= 13 { Some(Card(rank)) } else { None }
    }

    /// The card for a byte of the ABI. Bytes outside 1–13 are clamped into
    /// range, so a decoder never produces an invalid card.
    #[inline]
    pub const fn from_byte(byte: u8) -> Card {
        if byte == 0 {
            Card(1)
        } else if byte > 13 {
            Card(13)
        } else {
            Card(byte)
        }
    }

    /// The rank, 1 (ace) to 13 (king).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0
    }

    /// Blackjack value with an ace counted as 1: 1–10.
    #[inline]
    pub const fn value(self) -> u8 {
        if self.0 > 10 { 10 } else { self.0 }
    }

    /// Is this an ace?
    #[inline]
    pub const fn is_ace(self) -> bool {
        self.0 == 1
    }

    /// Is this a ten-valued card (10, J, Q, K)?
    #[inline]
    pub const fn is_ten(self) -> bool {
        self.0 >= 10
    }

    /// The character used in shoe files and transcripts: `A 2-9 T J Q K`.
    #[inline]
    pub const fn symbol(self) -> char {
        match self.0 {
            1 => 'A',
            2 => '2',
            3 => '3',
            4 => '4',
            5 => '5',
            6 => '6',
            7 => '7',
            8 => '8',
            9 => '9',
            10 => 'T',
            11 => 'J',
            12 => 'Q',
            _ => 'K',
        }
    }

    /// Parses one symbol of a shoe file: `A 2-9 T J Q K` (either case), or
    /// `10`.
    #[inline]
    pub fn parse(text: &str) -> Option<Card> {
        let rank = match text {
            "A" | "a" => 1,
            "T" | "t" | "10" => 10,
            "J" | "j" => 11,
            "Q" | "q" => 12,
            "K" | "k" => 13,
            _ => {
                let b = text.as_bytes();
                if b.len() == 1 && (b'2'..=b'9').contains(&b[0]) { b[0] - b'0' } else { return None }
            }
        };
        Card::new(rank)
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// A hand's total: the hard total (every ace 1) and whether one ace can
/// count 11 without passing 21.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Total {
    /// Sum with every ace counted as 1.
    pub hard: u8,
    /// The hand holds at least one ace.
    pub has_ace: bool,
}

impl Total {
    /// The total of `cards`.
    #[inline]
    pub fn of(cards: &[Card]) -> Total {
        // Most hands asked about hold two cards: added without the loop,
        // whose every turn costs a fuel and a deadline check in a bot.
        if let [a, b] = *cards {
            return Total::default().add(a).add(b);
        }
        let mut t = Total::default();
        for &c in cards {
            t = t.add(c);
        }
        t
    }

    /// This total plus one card.
    #[inline]
    pub const fn add(self, card: Card) -> Total {
        Total { hard: self.hard.saturating_add(card.value()), has_ace: self.has_ace || card.is_ace() }
    }

    /// Is the hand soft (an ace counting 11)?
    #[inline]
    pub const fn is_soft(self) -> bool {
        self.has_ace && self.hard <= 11
    }

    /// The best total: an ace counts 11 unless that passes 21.
    #[inline]
    pub const fn best(self) -> u8 {
        if self.is_soft() { self.hard + 10 } else { self.hard }
    }

    /// Over 21?
    #[inline]
    pub const fn is_bust(self) -> bool {
        self.hard > 21
    }
}

/// Two cards of equal value (so K+Q is a pair).
#[inline]
pub fn is_pair(cards: &[Card]) -> bool {
    cards.len() == 2 && cards[0].value() == cards[1].value()
}

/// An ace and a ten-valued card as a hand's two cards. Whether a split hand
/// counts is the caller's business: it never does.
#[inline]
pub fn is_natural(cards: &[Card]) -> bool {
    cards.len() == 2 && Total::of(cards).best() == 21
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> [Card; 3] {
        let mut out = [Card::ACE; 3];
        for (slot, sym) in out.iter_mut().zip(s.split(' ')) {
            *slot = Card::parse(sym).unwrap();
        }
        out
    }

    #[test]
    fn totals_count_an_ace_as_eleven_only_when_it_fits() {
        assert_eq!(Total::of(&cards("A 6 A")[..2]).best(), 17);
        assert!(Total::of(&cards("A 6 A")[..2]).is_soft());
        let t = Total::of(&cards("A 6 9"));
        assert_eq!((t.best(), t.is_soft()), (16, false));
        assert_eq!(Total::of(&cards("A A A")).best(), 13);
        assert!(Total::of(&cards("K Q 5")).is_bust());
    }

    #[test]
    fn a_total_of_any_length_is_its_cards_added_one_by_one() {
        for a in (1..=13).filter_map(Card::new) {
            for b in (1..=13).filter_map(Card::new) {
                let three = [a, b, a];
                for hand in [&three[..0], &three[..1], &three[..2], &three[..]] {
                    let added = hand.iter().fold(Total::default(), |t, &c| t.add(c));
                    assert_eq!(Total::of(hand), added, "{hand:?}");
                }
            }
        }
        assert_eq!(Total::of(&[Card::TEN; 32]).hard, u8::MAX, "saturates as `add` does");
    }

    #[test]
    fn pairs_are_equal_values_and_naturals_are_ace_ten() {
        assert!(is_pair(&cards("K Q A")[..2]));
        assert!(!is_pair(&cards("9 T A")[..2]));
        assert!(is_natural(&cards("A J 2")[..2]));
        assert!(!is_natural(&cards("A 9 2")[..2]));
    }

    #[test]
    fn symbols_round_trip() {
        for rank in 1..=13 {
            let c = Card::new(rank).unwrap();
            let s = c.symbol();
            let mut buf = [0u8; 4];
            assert_eq!(Card::parse(s.encode_utf8(&mut buf)).unwrap().value(), c.value());
        }
        assert_eq!(Card::parse("10"), Some(Card::TEN));
        assert_eq!(Card::parse("1"), None);
        assert_eq!(Card::parse("X"), None);
    }
}
