//! Bot ABI version 5: the byte layout of a request, the decision kinds and
//! the encoding of answers. `sdk/ABI.md` is the prose form of this file.
//! (Version 2 is version 1 plus one optional export, `pitboss_wants_events`;
//! version 3 adds another, `pitboss_defaults`, version 4 another,
//! `pitboss_decision_key` ([`crate::key`]), and version 5 `pitboss_count`
//! and keys for bots that read events. The request layout is the same,
//! and modules of every version run.)
//!
//! The host writes one request into the bot's exchange buffer and calls
//! `pitboss_decide(kind) -> i64` once. The request carries the decision's
//! context *and* every event the bot has not yet seen (cards turned face up,
//! shuffles, splits), so a bot is never called once per card.

use crate::card::Card;
pub use crate::rules_block::{RulesBlock, rule_flag, rule_flag2};
pub use crate::view::{View, sample};

/// The ABI version this SDK speaks; exported as `pitboss_abi_version`.
pub const ABI_VERSION: u32 = 6;

/// The oldest ABI version a host still runs: version 1 modules lack only
/// the optional `pitboss_wants_events`, `pitboss_defaults`,
/// `pitboss_decision_key` and `pitboss_count`.
pub const MIN_ABI_VERSION: u32 = 1;

/// The bits a `pitboss_defaults` answer may set: those of
/// [`Decision::DEFAULTABLE`].
pub const DEFAULTABLE_MASK: u32 = {
    let mut mask = 0;
    let mut i = 0;
    while i < Decision::DEFAULTABLE.len() {
        mask |= Decision::DEFAULTABLE[i].bit();
        i += 1;
    }
    mask
};

/// The default answer to a [`Decision::DEFAULTABLE`] decision, the one
/// [`crate::Strategy`]'s own methods give (its row of `decisions!`): a bet
/// of the table minimum `min` when `balance` covers it, else 0 (sit out);
/// 0 ("no") to every offer and to doubling as banker, and 0 to a kind that
/// has no default. The host answers with it for a bot that says it always
/// does (ABI v3's `pitboss_defaults`).
#[inline]
pub const fn default_answer(kind: Decision, balance: i64, min: i64) -> i64 {
    match kind.default_for(balance, min) {
        Some(answer) => answer,
        None => 0,
    }
}

/// The request layout's version, written at [`offset::VERSION`]: 1 in
/// every ABI version so far.
pub const LAYOUT_VERSION: u16 = 1;

/// Size in bytes of the exchange buffer a bot exports via `pitboss_buffer`.
pub const BUFFER_LEN: usize = 4096;

/// Byte offsets of the request header (all integers little-endian).
pub mod offset {
    /// `u16` ABI version (1).
    pub const VERSION: usize = 0;
    /// `u8` decision kind, see [`super::Decision`].
    pub const KIND: usize = 2;
    /// `u8` rule-set id, see [`super::Variant`].
    pub const VARIANT: usize = 3;
    /// `u8` the box this decision is about, 0 = the dealer's left.
    pub const SEAT: usize = 4;
    /// `u8` index of the current hand on that box (after splits).
    pub const HAND_INDEX: usize = 5;
    /// `u8` number of hands on that box.
    pub const HAND_COUNT: usize = 6;
    /// `u8` legal actions for an `ACT` decision, an [`super::ActionSet`].
    pub const LEGAL: usize = 7;
    /// `u8` dealer's up card (rank), 0 when there is none yet.
    pub const DEALER_UP: usize = 8;
    /// `u8` number of cards in the current hand.
    pub const HAND_LEN: usize = 9;
    /// `u16` number of events that follow.
    pub const EVENT_COUNT: usize = 10;
    /// `u32` round number (1-based, wraps).
    pub const ROUND: usize = 12;
    /// `i64` the bot's balance (chips not on the table).
    pub const BALANCE: usize = 16;
    /// `i64` the current hand's bet (the base bet for insurance/side bets).
    pub const BET: usize = 24;
    /// `i64` smallest legal non-zero amount for amount decisions.
    pub const MIN: usize = 32;
    /// `i64` largest legal amount for amount decisions.
    pub const MAX: usize = 40;
    /// `i64` amounts must be whole multiples of this.
    pub const UNIT: usize = 48;
    /// 32-byte rules block, see [`super::RulesBlock`].
    pub const RULES: usize = 56;
    /// Up to [`super::MAX_HAND_CARDS`] card bytes of the current hand.
    pub const HAND: usize = 88;
    /// Events, 4 bytes each, until the end of the buffer.
    pub const EVENTS: usize = 120;
}

/// Most cards a hand can hold in the header (a hand of 21 aces fits).
pub const MAX_HAND_CARDS: usize = offset::EVENTS - offset::HAND;

/// Most events one request can carry; the host sends older events in
/// `OBSERVE` requests first when more are pending.
pub const MAX_EVENTS: usize = (BUFFER_LEN - offset::EVENTS) / 4;

/// Declares the decision kinds, once: each row is a variant with its code
/// (its position: codes run 0, 1, 2, … in row order), its name in reports,
/// JSON and transcripts, and, for a kind a bot may leave to the host for
/// good, its default answer from the bot's `balance` and the table minimum
/// `min`. From the rows come [`Decision`], [`Decision::ALL`],
/// [`Decision::name`], [`Decision::DEFAULTABLE`] and [`default_answer`];
/// `sdk/tests/decisions.rs` checks every other SDK's constants against
/// them (`docs/dev/decision.md`).
macro_rules! decisions {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $code:literal, $name:literal
            $(, default |$balance:pat_param, $min:pat_param| $answer:expr)?;
    )*) => {
        /// What the host asks for. The answer is the `i64` returned by
        /// `pitboss_decide`; its meaning per kind is documented on each variant.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Decision {
            $($(#[$doc])* $variant = $code,)*
        }

        impl Decision {
            /// Every kind, in code order.
            pub const ALL: [Decision; [$(Decision::$variant),*].len()] = [$(Decision::$variant),*];

            /// Lower-case name used in reports.
            #[inline]
            pub const fn name(self) -> &'static str {
                match self {
                    $(Decision::$variant => $name,)*
                }
            }

            /// The answer the host gives for a bot that leaves this kind to
            /// its default, `None` for a kind that may not be left.
            #[inline]
            const fn default_for(self, balance: i64, min: i64) -> Option<i64> {
                match self {
                    $(Decision::$variant => decisions!(@default balance, min $(, |$balance, $min| $answer)?),)*
                }
            }
        }
    };
    (@default $b:ident, $m:ident) => { None };
    (@default $b:ident, $m:ident, |$balance:pat_param, $min:pat_param| $answer:expr) => {{
        let $balance = $b;
        let $min = $m;
        Some($answer)
    }};
}

decisions! {
    /// Events only; the answer is ignored.
    Observe = 0, "observe";
    /// Stake for this box: 0 sits the round out, else `MIN..=MAX` in `UNIT`s.
    /// Default: the table minimum when the balance covers it, else 0.
    Bet = 1, "bet", default |balance, min| if balance >= min { min } else { 0 };
    /// Insurance stake: 0 declines, else `MIN..=MAX`.
    Insurance = 2, "insurance", default |_, _| 0;
    /// Take even money on a blackjack against an ace: 1 yes, 0 no.
    EvenMoney = 3, "even-money", default |_, _| 0;
    /// Play the current hand: an [`Action`] code within `LEGAL`.
    Act = 4, "act";
    /// Over/Under 13: `(side << 32) | amount`, side 1 over, 2 under; 0 none.
    SideBet = 5, "side-bet", default |_, _| 0;
    /// Back bet on the offered box (`SEAT`): a stake in `MIN..=MAX`, 0 to
    /// pass. Offered box by box until the player places one.
    BackBet = 6, "back-bet", default |_, _| 0;
    /// Banker doubles every stake: 1 yes, 0 no.
    BankerDouble = 7, "banker-double", default |_, _| 0;
    /// Banker draws another card: 1 draw, 0 stand.
    BankerDraw = 8, "banker-draw";
}

// Codes are positions: `from_code` indexes `ALL`.
const _: () = {
    let mut i = 0;
    while i < Decision::ALL.len() {
        assert!(Decision::ALL[i] as usize == i, "decision codes must run 0, 1, 2, … in row order");
        i += 1;
    }
};

impl Decision {
    /// The decisions a bot may leave to their default answer for good (ABI
    /// v3's `pitboss_defaults`, [`crate::Strategy::defaults`],
    /// [`default_answer`]): the rows of `decisions!` with a default — the
    /// bet (the table minimum), the offers (insurance, even money, the side
    /// bet, back bets) and doubling as banker (each "no").
    pub const DEFAULTABLE: [Decision; Decision::DEFAULTABLE_LEN] = {
        let mut out = [Decision::Observe; Decision::DEFAULTABLE_LEN];
        let (mut i, mut n) = (0, 0);
        while i < Decision::ALL.len() {
            if Decision::ALL[i].default_for(0, 0).is_some() {
                out[n] = Decision::ALL[i];
                n += 1;
            }
            i += 1;
        }
        out
    };

    const DEFAULTABLE_LEN: usize = {
        let (mut i, mut n) = (0, 0);
        while i < Decision::ALL.len() {
            if Decision::ALL[i].default_for(0, 0).is_some() {
                n += 1;
            }
            i += 1;
        }
        n
    };

    /// Bit `code` of a `pitboss_defaults` mask.
    #[inline]
    pub const fn bit(self) -> u32 {
        1 << self as u8
    }

    /// The kind for a code, `None` if unknown.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Decision> {
        if (code as usize) < Decision::ALL.len() { Some(Decision::ALL[code as usize]) } else { None }
    }
}

/// A playing action on a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Action {
    /// Take no more cards.
    Stand = 0,
    /// Take one card.
    Hit = 1,
    /// Double the bet, take exactly one card, stand.
    Double = 2,
    /// Split a pair into two hands.
    Split = 3,
    /// Give up half the bet (late surrender).
    Surrender = 4,
}

impl Action {
    /// Every action, in code order.
    pub const ALL: [Action; 5] = [Action::Stand, Action::Hit, Action::Double, Action::Split, Action::Surrender];

    /// The action for an answer, `None` if it is no action code.
    #[inline]
    pub const fn from_answer(answer: i64) -> Option<Action> {
        if answer >= 0 && answer < Action::ALL.len() as i64 { Some(Action::ALL[answer as usize]) } else { None }
    }

    /// Lower-case name used in reports.
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            Action::Stand => "stand",
            Action::Hit => "hit",
            Action::Double => "double",
            Action::Split => "split",
            Action::Surrender => "surrender",
        }
    }
}

/// A set of actions as a bitmask (bit n = action code n).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ActionSet(pub u8);

impl ActionSet {
    /// No action.
    pub const EMPTY: ActionSet = ActionSet(0);

    /// This set plus `a`.
    #[inline]
    pub const fn with(self, a: Action) -> ActionSet {
        ActionSet(self.0 | 1 << a as u8)
    }

    /// Is `a` in the set?
    #[inline]
    pub const fn contains(self, a: Action) -> bool {
        self.0 & (1 << a as u8) != 0
    }

    /// The actions in the set, in code order.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Action> {
        Action::ALL.into_iter().filter(move |&a| self.contains(a))
    }
}

/// The rule sets, by ABI id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Variant {
    /// `north-american`: six decks, hole card, S17, DAS, late surrender.
    NorthAmerican = 0,
    /// `swedish`: no hole card, ties on 17–19 lose, Over/Under 13.
    Swedish = 1,
    /// `danish`: no hole card, back bets, double on 9–11.
    Danish = 2,
    /// `norwegian-home`: the banker game.
    NorwegianHome = 3,
}

impl Variant {
    /// Every variant, in id order.
    pub const ALL: [Variant; 4] = [Variant::NorthAmerican, Variant::Swedish, Variant::Danish, Variant::NorwegianHome];

    /// The id used in league files and on the command line.
    #[inline]
    pub const fn id(self) -> &'static str {
        match self {
            Variant::NorthAmerican => "north-american",
            Variant::Swedish => "swedish",
            Variant::Danish => "danish",
            Variant::NorwegianHome => "norwegian-home",
        }
    }

    /// Whether it is the banker game (`norwegian-home`: one player banks
    /// against the others) rather than a dealer game, for code that plays
    /// the two differently: ask this, not which rule set it is.
    #[inline]
    pub const fn banker_game(self) -> bool {
        matches!(self, Variant::NorwegianHome)
    }

    /// The variant for an ABI code.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Variant> {
        if (code as usize) < Variant::ALL.len() { Some(Variant::ALL[code as usize]) } else { None }
    }
}

/// What an event reports. Codes are the first byte of an event record.
pub mod event_kind {
    /// A card turned face up on a box's hand (`seat`, `hand`, `card`).
    pub const CARD: u8 = 1;
    /// A dealer card turned face up: the up card or a drawn card.
    pub const DEALER_CARD: u8 = 2;
    /// The dealer's hidden (hole) card turned up.
    pub const HOLE_CARD: u8 = 3;
    /// The shoe was shuffled; counting starts afresh. `card` is unused.
    pub const SHUFFLE: u8 = 4;
    /// Hand `hand` of box `seat` was split; the new hand is `hand + 1` and
    /// holds `card` (already seen, do not count it again).
    pub const SPLIT: u8 = 5;
    /// A player's hidden card was turned up (banker game).
    pub const REVEAL: u8 = 6;
    /// A round began; `card` is unused, `seat` is the number of boxes.
    pub const ROUND: u8 = 7;
    /// Only the discards of earlier rounds were shuffled back (the shoe ran
    /// dry mid-round); cards of this round stay out. `card` is unused.
    pub const PARTIAL_SHUFFLE: u8 = 8;
}

/// One event record: 4 bytes, `[kind, seat, hand, card]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Event {
    /// An [`event_kind`] code.
    pub kind: u8,
    /// The box, 0 = the dealer's left (0 for dealer and table events).
    pub seat: u8,
    /// The hand on that box.
    pub hand: u8,
    /// The card, where the kind has one.
    pub card: Card,
}

impl Event {
    /// `events` as the ABI's records, `[kind, seat, hand, card]` each: the
    /// layout `Event` has in memory, so a request's events are one copy
    /// (a full table's round is about a hundred of them).
    #[inline]
    pub fn bytes(events: &[Event]) -> &[u8] {
        const _: () = assert!(size_of::<Event>() == 4 && align_of::<Event>() == 1);
        // SAFETY: `Event` is `repr(C)` of four one-byte fields (`Card` is
        // `repr(transparent)` over `u8`): size 4, alignment 1, no padding,
        // its bytes in field order; the slice covers exactly `events`.
        unsafe { core::slice::from_raw_parts(events.as_ptr().cast::<u8>(), 4 * events.len()) }
    }

    /// An event with no card.
    #[inline]
    pub const fn table(kind: u8, seat: u8) -> Event {
        Event { kind, seat, hand: 0, card: Card::ACE }
    }

    /// Does this event show a card not seen before (for counting)?
    #[inline]
    pub const fn reveals_card(&self) -> bool {
        matches!(self.kind, event_kind::CARD | event_kind::DEALER_CARD | event_kind::HOLE_CARD | event_kind::REVEAL)
    }
}

/// The fixed part of a request: everything but the hand's cards and the
/// events. The engine fills one in; [`encode`] writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// What is asked.
    pub kind: Decision,
    /// Rule set.
    pub variant: Variant,
    /// Box the decision is about.
    pub seat: u8,
    /// Current hand on that box.
    pub hand_index: u8,
    /// Hands on that box.
    pub hand_count: u8,
    /// Legal actions (for `Act`).
    pub legal: ActionSet,
    /// Dealer's up card, if dealt.
    pub dealer_up: Option<Card>,
    /// Round number.
    pub round: u32,
    /// Chips not on the table.
    pub balance: i64,
    /// Current hand's bet (or base bet).
    pub bet: i64,
    /// Smallest legal non-zero amount.
    pub min: i64,
    /// Largest legal amount.
    pub max: i64,
    /// Amount granularity.
    pub unit: i64,
    /// Rules in force.
    pub rules: RulesBlock,
}

/// Writes a request into `buf` (at least [`BUFFER_LEN`] bytes): the header,
/// the current hand and as many of `events` as fit. Returns how many events
/// were written; the caller sends the rest first in `Observe` requests.
///
/// # Panics
/// If `buf` is shorter than [`BUFFER_LEN`] or `hand` longer than
/// [`MAX_HAND_CARDS`] (the engine never builds such a hand).
#[inline]
pub fn encode(h: &Header, hand: &[Card], events: &[Event], buf: &mut [u8]) -> usize {
    encode_constant(h, buf);
    encode_varying(h, hand, events, buf)
}

/// Writes the parts of a request that stay the same for a whole match:
/// the layout version, the rule set and the rules block. A buffer only
/// the writer touches (a native player's, an ABI v2 bot's) needs them
/// once; [`encode_varying`] writes the rest of each request.
///
/// # Panics
/// If `buf` is shorter than [`BUFFER_LEN`].
#[inline]
pub fn encode_constant(h: &Header, buf: &mut [u8]) {
    let buf = &mut buf[..BUFFER_LEN];
    buf[offset::VERSION..offset::VERSION + 2].copy_from_slice(&LAYOUT_VERSION.to_le_bytes());
    buf[offset::VARIANT] = h.variant as u8;
    h.rules.write(&mut buf[offset::RULES..offset::RULES + 32]);
}

/// Writes everything of a request but what [`encode_constant`] writes;
/// returns how many events were written, as [`encode`] does.
///
/// # Panics
/// As [`encode`].
pub fn encode_varying(h: &Header, hand: &[Card], events: &[Event], buf: &mut [u8]) -> usize {
    let buf = &mut buf[..BUFFER_LEN];
    let n = events.len().min(MAX_EVENTS);
    buf[offset::KIND] = h.kind as u8;
    buf[offset::SEAT] = h.seat;
    buf[offset::HAND_INDEX] = h.hand_index;
    buf[offset::HAND_COUNT] = h.hand_count;
    buf[offset::LEGAL] = h.legal.0;
    buf[offset::DEALER_UP] = h.dealer_up.map_or(0, Card::rank);
    buf[offset::HAND_LEN] = hand.len() as u8;
    buf[offset::EVENT_COUNT..offset::EVENT_COUNT + 2].copy_from_slice(&(n as u16).to_le_bytes());
    buf[offset::ROUND..offset::ROUND + 4].copy_from_slice(&h.round.to_le_bytes());
    for (at, v) in [
        (offset::BALANCE, h.balance),
        (offset::BET, h.bet),
        (offset::MIN, h.min),
        (offset::MAX, h.max),
        (offset::UNIT, h.unit),
    ] {
        buf[at..at + 8].copy_from_slice(&v.to_le_bytes());
    }
    let cards = &mut buf[offset::HAND..offset::EVENTS];
    if let [a, b] = *hand {
        // The usual hand: two stores, where the loop below is compiled
        // to a call copying two bytes.
        (cards[0], cards[1]) = (a.rank(), b.rank());
    } else {
        for (slot, c) in cards[..hand.len()].iter_mut().zip(hand) {
            *slot = c.rank();
        }
    }
    // Most requests carry no events (a bot that reads none, a repeated
    // question): no call to copy nothing.
    if n > 0 {
        buf[offset::EVENTS..offset::EVENTS + 4 * n].copy_from_slice(Event::bytes(&events[..n]));
    }
    n
}

/// Encodes an Over/Under 13 answer.
#[inline]
pub const fn side_bet_answer(side: SideBet, amount: i64) -> i64 {
    match side {
        SideBet::None => 0,
        SideBet::Over => (1 << 32) | (amount & 0xffff_ffff),
        SideBet::Under => (2 << 32) | (amount & 0xffff_ffff),
    }
}

/// The Over/Under 13 choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SideBet {
    /// No side bet.
    None,
    /// The first two cards total over 13 (aces 1).
    Over,
    /// The first two cards total under 13 (aces 1).
    Under,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_events_bytes_are_its_abi_record() {
        let e =
            [Event { kind: event_kind::CARD, seat: 3, hand: 1, card: Card::KING }, Event::table(event_kind::ROUND, 7)];
        assert_eq!(Event::bytes(&e), [event_kind::CARD, 3, 1, 13, event_kind::ROUND, 7, 0, 1]);
        assert!(Event::bytes(&[]).is_empty());
    }

    #[test]
    fn encode_then_view_round_trips() {
        let rules =
            RulesBlock { decks: 6, boxes: 7, cut_card: 78, double_totals: 0b1110_0000_0000, ..Default::default() };
        let h = Header {
            kind: Decision::Act,
            variant: Variant::NorthAmerican,
            seat: 3,
            hand_index: 1,
            hand_count: 2,
            legal: ActionSet::EMPTY.with(Action::Stand).with(Action::Hit),
            dealer_up: Some(Card::TEN),
            round: 77,
            balance: -5,
            bet: 4,
            min: 2,
            max: 1000,
            unit: 2,
            rules,
        };
        let hand = [Card::ACE, Card::new(6).unwrap()];
        let events = [Event { kind: event_kind::CARD, seat: 1, hand: 0, card: Card::KING }; 1000];
        let mut buf = [0u8; BUFFER_LEN];
        let n = encode(&h, &hand, &events, &mut buf);
        assert_eq!(n, MAX_EVENTS);
        let v = View::new(&buf).unwrap();
        assert_eq!(v.kind(), Decision::Act);
        assert_eq!((v.seat(), v.hand_index(), v.hand_count(), v.round()), (3, 1, 2, 77));
        assert_eq!((v.balance(), v.bet(), v.min(), v.max(), v.unit()), (-5, 4, 2, 1000, 2));
        assert!(v.legal().contains(Action::Hit) && !v.legal().contains(Action::Double));
        assert_eq!(v.dealer_up(), Some(Card::TEN));
        assert_eq!(v.hand(), &hand);
        assert_eq!(v.events().len(), MAX_EVENTS);
        assert_eq!(v.events()[5], events[5]);
        assert_eq!(v.rules(), rules);
        assert_eq!(v.total().best(), 17);
        // Every length of hand reads back as written (two cards take a
        // path of their own).
        let mut cards = [Card::ACE; MAX_HAND_CARDS];
        for (rank, card) in (1..=13).cycle().zip(&mut cards) {
            *card = Card::new(rank).unwrap();
        }
        for len in [0, 1, 2, 3, MAX_HAND_CARDS] {
            encode(&h, &cards[..len], &[], &mut buf);
            assert_eq!(View::new(&buf).unwrap().hand(), &cards[..len], "{len} cards");
        }
    }
}
