//! `View`: a request read in place, field by field, as a
//! [`crate::Strategy`] receives it (re-exported from [`crate::abi`], whose
//! layout it reads), and `sample`, a request for unit tests.

use crate::abi::{
    ActionSet, BUFFER_LEN, Decision, Event, Header, MAX_EVENTS, MAX_HAND_CARDS, RulesBlock, Variant, encode, offset,
    rule_flag,
};
use crate::card::Card;

/// A decoded request: read-only accessors over the exchange buffer, no
/// copying. This is what a [`crate::Strategy`] receives.
#[derive(Clone, Copy)]
pub struct View<'a> {
    /// The whole buffer, its length in the type: every accessor reads at
    /// a constant offset, so none needs a bounds check (a bot's every
    /// decision is counted in fuel).
    buf: &'a [u8; BUFFER_LEN],
}

impl core::fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("View")
            .field("kind", &self.kind())
            .field("seat", &self.seat())
            .field("hand", &self.hand())
            .field("dealer_up", &self.dealer_up())
            .field("legal", &self.legal())
            .field("balance", &self.balance())
            .field("events", &self.events().len())
            .finish()
    }
}

impl<'a> View<'a> {
    /// Reads a request written by [`encode`]. `None` if `buf` is too short
    /// or names an unknown decision kind.
    #[inline]
    pub fn new(buf: &'a [u8]) -> Option<View<'a>> {
        let buf: &[u8; BUFFER_LEN] = buf.get(..BUFFER_LEN)?.try_into().ok()?;
        Decision::from_code(buf[offset::KIND])?;
        Some(View { buf })
    }

    #[inline]
    fn i64_at(&self, at: usize) -> i64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.buf[at..at + 8]);
        i64::from_le_bytes(b)
    }

    /// What is asked.
    #[inline]
    pub fn kind(&self) -> Decision {
        Decision::from_code(self.buf[offset::KIND]).unwrap_or(Decision::Observe)
    }

    /// Rule set (north-american if the byte is unknown).
    #[inline]
    pub fn variant(&self) -> Variant {
        Variant::from_code(self.buf[offset::VARIANT]).unwrap_or(Variant::NorthAmerican)
    }

    /// Box this decision is about.
    #[inline]
    pub fn seat(&self) -> u8 {
        self.buf[offset::SEAT]
    }

    /// Current hand index on the box.
    #[inline]
    pub fn hand_index(&self) -> u8 {
        self.buf[offset::HAND_INDEX]
    }

    /// Hands on the box.
    #[inline]
    pub fn hand_count(&self) -> u8 {
        self.buf[offset::HAND_COUNT]
    }

    /// Legal actions for an `Act` decision.
    #[inline]
    pub fn legal(&self) -> ActionSet {
        ActionSet(self.buf[offset::LEGAL])
    }

    /// Dealer's up card, if dealt.
    #[inline]
    pub fn dealer_up(&self) -> Option<Card> {
        match self.buf[offset::DEALER_UP] {
            0 => None,
            b => Some(Card::from_byte(b)),
        }
    }

    /// Round number.
    #[inline]
    pub fn round(&self) -> u32 {
        let b = &self.buf[offset::ROUND..offset::ROUND + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// Chips not on the table.
    #[inline]
    pub fn balance(&self) -> i64 {
        self.i64_at(offset::BALANCE)
    }

    /// Current hand's bet, or the base bet for insurance and side bets.
    #[inline]
    pub fn bet(&self) -> i64 {
        self.i64_at(offset::BET)
    }

    /// Smallest legal non-zero amount.
    #[inline]
    pub fn min(&self) -> i64 {
        self.i64_at(offset::MIN)
    }

    /// Largest legal amount.
    #[inline]
    pub fn max(&self) -> i64 {
        self.i64_at(offset::MAX)
    }

    /// Amounts are whole multiples of this.
    #[inline]
    pub fn unit(&self) -> i64 {
        self.i64_at(offset::UNIT)
    }

    /// Rules in force.
    #[inline]
    pub fn rules(&self) -> RulesBlock {
        RulesBlock::read(&self.buf[offset::RULES..offset::RULES + 32])
    }

    /// The rules block's [`rule_flag`] bits, without decoding the block.
    #[inline]
    pub fn rule_flags(&self) -> u8 {
        self.buf[offset::RULES + 3]
    }

    /// The rules block's [`rule_flag2`](crate::abi::rule_flag2) bits, without decoding the block.
    #[inline]
    pub fn rule_flags2(&self) -> u8 {
        self.buf[offset::RULES + 11]
    }

    /// The current hand's cards.
    #[inline]
    pub fn hand(&self) -> &'a [Card] {
        let len = (self.buf[offset::HAND_LEN] as usize).min(MAX_HAND_CARDS);
        let bytes = &self.buf[offset::HAND..offset::HAND + len];
        // SAFETY: `Card` is `repr(transparent)` over `u8`, so any byte is a
        // valid `Card` value; alignment is 1 and the slice stays within `buf`.
        unsafe { core::slice::from_raw_parts(bytes.as_ptr().cast::<Card>(), len) }
    }

    /// Events since this bot's previous request, oldest first.
    #[inline]
    pub fn events(&self) -> &'a [Event] {
        let n = u16::from_le_bytes([self.buf[offset::EVENT_COUNT], self.buf[offset::EVENT_COUNT + 1]]) as usize;
        let n = n.min(MAX_EVENTS);
        let bytes = &self.buf[offset::EVENTS..offset::EVENTS + 4 * n];
        // SAFETY: `Event` is `repr(C)` of four one-byte fields (size 4,
        // alignment 1, no padding, any byte valid); the slice stays within
        // `buf`.
        unsafe { core::slice::from_raw_parts(bytes.as_ptr().cast::<Event>(), n) }
    }

    /// The current hand's total.
    #[inline]
    pub fn total(&self) -> crate::card::Total {
        crate::card::Total::of(self.hand())
    }
}

/// A request for unit tests of a strategy: decision `kind` about `hand`
/// against `dealer_up`, with `legal` actions, amounts from 2 to 1000 in
/// steps of 2, a balance of 1000 and `north-american` rules. Written into
/// `buf` (at least [`BUFFER_LEN`] bytes).
pub fn sample<'a>(
    buf: &'a mut [u8],
    kind: Decision,
    hand: &[Card],
    dealer_up: Option<Card>,
    legal: ActionSet,
) -> View<'a> {
    let header = Header {
        kind,
        variant: Variant::NorthAmerican,
        seat: 0,
        hand_index: 0,
        hand_count: 1,
        legal,
        dealer_up,
        round: 1,
        balance: 1000,
        bet: 2,
        min: 2,
        max: 1000,
        unit: 2,
        rules: RulesBlock {
            decks: 6,
            boxes: 7,
            max_split_hands: 4,
            flags: rule_flag::HOLE_CARD,
            ..RulesBlock::default()
        },
    };
    encode(&header, hand, &[], buf);
    View::new(buf).expect("a request just written")
}
