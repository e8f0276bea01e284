//! `PlayerId` and `BoxId`, two distinct types so that a player can never be
//! passed where a box is meant (see the glossary in the crate docs), and
//! the narrowing of counts and indices to the ABI's bytes, checked.

/// A player at the table: its index in the order the players were given
/// to [`crate::Table::new`] (at most 9: 8 boxes and a banker).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerId(pub u8);

/// A box: a betting spot on the layout and the hands on it, 0 at the
/// dealer's left (at most 8). On the wire (events, request headers) it is
/// called the "seat".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BoxId(pub u8);

impl PlayerId {
    /// The index into the table's players.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The box of a player that holds exactly one box with its own number
    /// (the banker game, where a box is a player's place at the table).
    #[inline]
    pub fn sole_box(self) -> BoxId {
        BoxId(self.0)
    }
}

impl BoxId {
    /// The index into the table's boxes.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A set of boxes, one bit each (a table has at most 8): the round's
/// active boxes, walked in box order, which is play order. A copy is a
/// byte, so a loop over it leaves the table free to change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BoxSet(u8);

impl BoxSet {
    /// No box.
    pub(crate) const EMPTY: BoxSet = BoxSet(0);

    /// With box `b` (below 8) too.
    #[inline]
    pub(crate) fn insert(&mut self, b: BoxId) {
        debug_assert!(b.0 < 8);
        self.0 |= 1 << (b.0 & 7);
    }

    /// No box at all?
    #[inline]
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl Iterator for BoxSet {
    type Item = BoxId;

    /// The lowest box left.
    #[inline]
    fn next(&mut self) -> Option<BoxId> {
        let low = u8::try_from(self.0.trailing_zeros()).ok().filter(|_| self.0 != 0)?;
        self.0 &= self.0 - 1;
        Some(BoxId(low))
    }
}

/// `0..count` as ids: `count` is a table's players or boxes, a `u8` by
/// construction, so no index is ever narrowed.
#[inline]
pub(crate) fn ids<I>(count: u8, id: fn(u8) -> I) -> impl Iterator<Item = I> {
    (0..count).map(id)
}

/// The most hands one box may hold, however the rules allow splitting: a
/// hand's index and a box's hand count are bytes in events and headers.
/// No shoe of real decks reaches it (8 decks hold 128 cards of one value).
pub(crate) const MAX_HANDS_PER_BOX: usize = u8::MAX as usize;

/// A hand's index on its box as events and headers carry it: a box holds
/// at most [`MAX_HANDS_PER_BOX`] hands, so this never fails.
#[inline]
pub(crate) fn hand_byte(h: usize) -> u8 {
    u8::try_from(h).expect("a box holds at most 255 hands")
}

/// A round number as the ABI's `u32` carries it: modulo 2^32 (ABI.md:
/// "round number (1-based, wraps)"), by design and without a cast.
#[inline]
pub(crate) fn wire_round(round: u64) -> u32 {
    let [a, b, c, d, ..] = round.to_le_bytes();
    u32::from_le_bytes([a, b, c, d])
}

#[cfg(test)]
mod tests {
    use super::{BoxId, BoxSet};

    #[test]
    fn a_box_set_yields_its_boxes_in_order_once() {
        let mut set = BoxSet::EMPTY;
        assert!(set.is_empty());
        for b in [5, 0, 7, 2, 5] {
            set.insert(BoxId(b));
        }
        assert!(!set.is_empty());
        assert_eq!(set.collect::<Vec<_>>(), [0, 2, 5, 7].map(BoxId));
    }
}
