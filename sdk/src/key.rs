//! ABI version 4's decision keys: the parts of a request a bot's answer
//! depends on, named by bit in its `pitboss_decision_key` answer, and the
//! key the host builds from those parts (sdk/ABI.md, "Version 4"). The
//! host answers a request whose key it has seen before with the answer the
//! bot gave then, without a call. Version 5 adds one part, the true count
//! of the cards shown under the weights a bot names (`pitboss_count`,
//! [`Weights`], [`true_count`]).

use crate::abi::{ActionSet, Decision, Header};
use crate::card::{Card, Total};

/// The parts of a request a key may name, one bit each.
pub mod part {
    /// The box the decision is about (request byte 4).
    pub const SEAT: u32 = 1 << 0;
    /// The current hand's index on its box (byte 5).
    pub const HAND_INDEX: u32 = 1 << 1;
    /// The number of hands on the box (byte 6).
    pub const HAND_COUNT: u32 = 1 << 2;
    /// The legal actions (byte 7).
    pub const LEGAL: u32 = 1 << 3;
    /// The dealer's up card's rank, 1–13 (byte 8).
    pub const UP_CARD: u32 = 1 << 4;
    /// The dealer's up card's value: ace 1, 2–9, and 10 for every ten.
    pub const UP_VALUE: u32 = 1 << 5;
    /// The round number (bytes 12–15).
    pub const ROUND: u32 = 1 << 6;
    /// The balance (bytes 16–23).
    pub const BALANCE: u32 = 1 << 7;
    /// The bet the decision is about (bytes 24–31).
    pub const BET: u32 = 1 << 8;
    /// The amount bounds: smallest, largest, unit (bytes 32–55).
    pub const AMOUNTS: u32 = 1 << 9;
    /// The current hand's cards, in deal order (byte 9 and 88…).
    pub const CARDS: u32 = 1 << 10;
    /// The current hand's cards as a multiset: how many of each rank.
    pub const CARD_SET: u32 = 1 << 11;
    /// The current hand's summary: its best total, whether it is soft, the
    /// value of a two-card pair (0 for none) and its card count up to 3.
    pub const SUMMARY: u32 = 1 << 12;
    /// ABI v5: the true count of the cards shown since the last shuffle,
    /// under the weights the bot names ([`super::true_count`]).
    pub const TRUE_COUNT: u32 = 1 << 13;
    /// ABI v6: whether a box other than the one the decision is about was
    /// dealt a card face up (a `CARD` event) in the round before this one.
    pub const OTHERS: u32 = 1 << 14;
    /// Every part.
    pub const ALL: u32 = (1 << 15) - 1;
    /// Each part's name, by bit.
    pub const NAMES: [&str; 15] = [
        "box",
        "hand index",
        "hand count",
        "legal",
        "up card",
        "up value",
        "round",
        "balance",
        "bet",
        "amounts",
        "cards",
        "card set",
        "summary",
        "true count",
        "others dealt",
    ];
}

/// A card count's weights (ABI v5's `pitboss_count`): what each card
/// shown adds to the running count, by value — index 0 the ace, 1–8 the
/// twos to nines, 9 every ten — each in −8..=7. Hi-Lo is
/// `[-1, 1, 1, 1, 1, 1, 0, 0, 0, -1]`.
pub type Weights = [i8; 10];

/// `weights` as `pitboss_count` answers them: value *v*'s weight a signed
/// four-bit number in bits `4(v − 1)`…`4v − 1` (the ace lowest), 0 above
/// bit 39. Weights outside −8..=7 are cut to four bits.
pub const fn pack_weights(weights: &Weights) -> i64 {
    let mut packed = 0i64;
    let mut v = 0;
    while v < weights.len() {
        packed |= ((weights[v] as i64) & 0xf) << (4 * v);
        v += 1;
    }
    packed
}

/// The weights of a `pitboss_count` answer: `None` for 0 (no count) or an
/// answer with a bit above bit 39.
pub const fn unpack_weights(packed: i64) -> Option<Weights> {
    if packed == 0 || packed >> 40 != 0 {
        return None;
    }
    let mut weights = [0i8; 10];
    let mut v = 0;
    while v < weights.len() {
        // The nibble in the top four bits of a byte, shifted down with its sign.
        weights[v] = (((packed >> (4 * v)) as u8) << 4) as i8 >> 4;
        v += 1;
    }
    Some(weights)
}

/// The true count ([`part::TRUE_COUNT`]): the running count (`running`, the
/// weights of the `shown` cards turned face up since the last shuffle)
/// per deck still in a shoe of `decks` decks — at least half a deck —
/// rounded toward zero: `running × 52 / max(26, decks × 52 − shown)`.
/// What `bots/hilo` computes from the events, and the host from the cards
/// it showed.
#[inline]
pub const fn true_count(running: i32, shown: u32, decks: u8) -> i32 {
    let left = decks as i64 * 52 - shown as i64;
    let left = if left < 26 { 26 } else { left };
    (running as i64 * 52 / left) as i32
}

/// Box `seat`'s bit in a mask of boxes (none past 31).
#[inline]
pub const fn box_bit(seat: u8) -> u32 {
    if seat < 32 { 1 << seat } else { 0 }
}

/// Whether a box other than `seat` is among `dealt` ([`part::OTHERS`]).
#[inline]
pub const fn others_dealt(dealt: u32, seat: u8) -> bool {
    dealt & !box_bit(seat) != 0
}

/// The longest key, in bytes.
pub const KEY_LEN: usize = 1 + 6 + 4 + 8 + 8 + 24 + 33 + 13 + 4 + 4 + 1;

/// The parts of a key the host derives from the events rather than reads
/// from the request: the true count ([`part::TRUE_COUNT`], 0 where no key
/// names it) and whether another box was dealt a card in the round before
/// ([`part::OTHERS`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Derived {
    pub count: i32,
    pub others: bool,
}

/// Writes the key of a request (`header`, `hand`) under `parts` into
/// `out`: the decision kind, then each part named, in bit order (the
/// derived parts from `derived`). Returns the key's length. Parts outside
/// [`part::ALL`] are ignored.
pub fn encode(parts: u32, header: &Header, hand: &[Card], derived: Derived, out: &mut [u8; KEY_LEN]) -> usize {
    let mut n = 0;
    let mut put = |bytes: &[u8]| {
        out[n..n + bytes.len()].copy_from_slice(bytes);
        n += bytes.len();
    };
    put(&[header.kind as u8]);
    let up = header.dealer_up.map_or(0, Card::rank);
    let bytes: [(u32, u8); 6] = [
        (part::SEAT, header.seat),
        (part::HAND_INDEX, header.hand_index),
        (part::HAND_COUNT, header.hand_count),
        (part::LEGAL, header.legal.0),
        (part::UP_CARD, up),
        (part::UP_VALUE, header.dealer_up.map_or(0, Card::value)),
    ];
    for (bit, byte) in bytes {
        if parts & bit != 0 {
            put(&[byte]);
        }
    }
    if parts & part::ROUND != 0 {
        put(&header.round.to_le_bytes());
    }
    for (bit, amount) in [(part::BALANCE, header.balance), (part::BET, header.bet)] {
        if parts & bit != 0 {
            put(&amount.to_le_bytes());
        }
    }
    if parts & part::AMOUNTS != 0 {
        for amount in [header.min, header.max, header.unit] {
            put(&amount.to_le_bytes());
        }
    }
    let hand = &hand[..hand.len().min(32)];
    if parts & part::CARDS != 0 {
        put(&[hand.len() as u8]);
        for &c in hand {
            put(&[c.rank()]);
        }
    }
    if parts & part::CARD_SET != 0 {
        let mut counts = [0u8; 13];
        for &c in hand {
            counts[usize::from(c.rank().clamp(1, 13)) - 1] += 1;
        }
        put(&counts);
    }
    if parts & part::SUMMARY != 0 {
        put(&summary(hand));
    }
    if parts & part::TRUE_COUNT != 0 {
        put(&derived.count.to_le_bytes());
    }
    if parts & part::OTHERS != 0 {
        put(&[u8::from(derived.others)]);
    }
    n
}

/// The parts whose key fits [`encode_short`]'s 64 bits: every one-byte
/// part, the summary and the true count (the count in place of the hand's
/// index and count, so a key naming it with either is a long one).
pub const SHORT_PARTS: u32 = part::SEAT
    | part::HAND_INDEX
    | part::HAND_COUNT
    | part::LEGAL
    | part::UP_CARD
    | part::UP_VALUE
    | part::SUMMARY
    | part::TRUE_COUNT;

/// Where each short part sits in a short key ([`encode_short`]): its
/// first bit and its width. The kind always comes first; the parts'
/// index (`short_index`) last.
mod at {
    pub const KIND: (u32, u32) = (0, 4);
    pub const SEAT: (u32, u32) = (4, 8);
    pub const HAND_INDEX: (u32, u32) = (12, 8);
    pub const HAND_COUNT: (u32, u32) = (20, 8);
    pub const LEGAL: (u32, u32) = (28, 8);
    pub const UP_CARD: (u32, u32) = (36, 4);
    pub const UP_VALUE: (u32, u32) = (40, 4);
    /// Best total (5 bits), soft (1), pair value (4), cards up to 3 (2).
    pub const SUMMARY: (u32, u32) = (44, 12);
    /// The true count, as a 16-bit two's complement number, where the
    /// hand's index and count would be (a key never holds all three).
    pub const TRUE_COUNT: (u32, u32) = (12, 16);
    pub const PARTS: (u32, u32) = (56, 8);
}

/// A short part set as 8 bits: seat … up value (bits 0..=5), the summary
/// (bit 12) as bit 6 and the true count (bit 13) as bit 7.
#[inline]
const fn short_index(parts: u32) -> u32 {
    parts & 0x3f | (parts >> 12 & 3) << 6
}

/// Which bits of a short key its parts keep, by [`short_index`].
const KEEP: [u64; 256] = {
    let fields =
        [at::SEAT, at::HAND_INDEX, at::HAND_COUNT, at::LEGAL, at::UP_CARD, at::UP_VALUE, at::SUMMARY, at::TRUE_COUNT];
    let mut masks = [(1 << at::KIND.1) - 1; 256];
    let mut index = 0;
    while index < 256 {
        let mut bit = 0;
        while bit < 8 {
            if index & 1 << bit != 0 {
                let (first, width) = fields[bit];
                masks[index] |= ((1 << width) - 1) << first;
            }
            bit += 1;
        }
        index += 1;
    }
    masks
};

/// The fields of a request that a short key reads besides the hand:
/// what [`encode_short`] takes from a header, and what a table that keeps
/// its hands can give without building one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyFields {
    pub kind: Decision,
    pub seat: u8,
    pub hand_index: u8,
    pub hand_count: u8,
    pub legal: ActionSet,
    pub dealer_up: Option<Card>,
    /// The true count ([`part::TRUE_COUNT`]; 0 where no key names it).
    pub count: i32,
}

impl KeyFields {
    /// `header`'s fields, with the true count `count`.
    #[inline]
    pub fn of(header: &Header, count: i32) -> KeyFields {
        KeyFields {
            kind: header.kind,
            seat: header.seat,
            hand_index: header.hand_index,
            hand_count: header.hand_count,
            legal: header.legal,
            dealer_up: header.dealer_up,
            count,
        }
    }
}

/// The key of `parts`, all within [`SHORT_PARTS`], as one number: each
/// named part's value in its own bits (`at`; 0 where a part is not named)
/// and the parts themselves above them. So two short keys are equal
/// exactly when they name the same parts and [`encode`] writes the same
/// bytes for both. `None` for any other part, or where a value does not
/// fit its bits (a kind past 15, a total past 31, a true count outside
/// 16 bits: never a question the engine asks, but the long key holds it),
/// and for the true count named with the hand's index or count. The
/// lookup of every decision a basic strategy keys, and of a counter's
/// acts: no buffer, no hashing of bytes, half the room of a 16-byte key
/// in the seat's table. `total` is the hand's (`Total::of(hand)`), passed
/// in by a caller that keeps it; `count` the true count.
#[inline]
pub fn encode_short(parts: u32, header: &Header, hand: &[Card], total: Total, count: i32) -> Option<u64> {
    encode_short_of(parts, &KeyFields::of(header, count), hand, total)
}

/// [`encode_short`] of a request with `fields`.
#[inline]
pub fn encode_short_of(parts: u32, fields: &KeyFields, hand: &[Card], total: Total) -> Option<u64> {
    let kind = fields.kind as u64;
    if parts & !SHORT_PARTS != 0 || kind >> at::KIND.1 != 0 {
        return None;
    }
    let up = fields.dealer_up;
    let mut key = kind
        | u64::from(fields.seat) << at::SEAT.0
        | u64::from(fields.hand_index) << at::HAND_INDEX.0
        | u64::from(fields.hand_count) << at::HAND_COUNT.0
        | u64::from(fields.legal.0) << at::LEGAL.0
        | u64::from(up.map_or(0, Card::rank)) << at::UP_CARD.0
        | u64::from(up.map_or(0, Card::value)) << at::UP_VALUE.0;
    if parts & part::SUMMARY != 0 {
        let [best, soft, pair, count] = summary_of(hand, total);
        if best > 31 {
            return None;
        }
        let summary = u64::from(best) | u64::from(soft) << 5 | u64::from(pair) << 6 | u64::from(count) << 10;
        key |= summary << at::SUMMARY.0;
    }
    if parts & part::TRUE_COUNT != 0 {
        let count = i16::try_from(fields.count).ok()?;
        if parts & (part::HAND_INDEX | part::HAND_COUNT) != 0 {
            return None;
        }
        key = key & !(0xffff << at::TRUE_COUNT.0) | u64::from(count as u16) << at::TRUE_COUNT.0;
    }
    let index = short_index(parts);
    Some(key & KEEP[index as usize] | u64::from(index) << at::PARTS.0)
}

/// The largest amount bound a wide key holds ([`encode_wide`]): 21 bits.
pub const WIDE_AMOUNT: i64 = (1 << 21) - 1;

/// The largest unit a wide key holds: 20 bits, leaving two for
/// [`part::OTHERS`].
pub const WIDE_UNIT: i64 = (1 << 20) - 1;

/// The key of `parts` — [`part::AMOUNTS`] and otherwise [`SHORT_PARTS`]
/// and [`part::OTHERS`] only — as two numbers: the short key of the other
/// parts ([`encode_short`]) in the low 64 bits, the amount bounds
/// (smallest and largest 21 bits each, the unit 20) above, and in the top
/// two bits whether the key names [`part::OTHERS`] and its value. So two
/// wide keys are equal exactly when they name the same parts and
/// [`encode`] writes the same bytes for both. `None` without the amounts,
/// for any other part, where the short key is `None`, or where a bound is
/// outside `0..=`[`WIDE_AMOUNT`] (the unit `0..=`[`WIDE_UNIT`]: the long
/// key holds it). The lookup of a
/// counter's bet and insurance, keyed by their bounds and its count: no
/// buffer, no hashing of bytes.
#[inline]
pub fn encode_wide(parts: u32, header: &Header, hand: &[Card], total: Total, derived: Derived) -> Option<u128> {
    if parts & part::AMOUNTS == 0 {
        return None;
    }
    // The short key's parts byte has no room for "others": bit 62 says a
    // key names it, bit 63 holds its value.
    let named = parts & part::OTHERS != 0;
    let short = encode_short(parts & !(part::AMOUNTS | part::OTHERS), header, hand, total, derived.count)?;
    let bound = |a: i64, most: i64| u64::try_from(a).ok().filter(|&a| a <= most as u64);
    let amounts =
        bound(header.min, WIDE_AMOUNT)? | bound(header.max, WIDE_AMOUNT)? << 21 | bound(header.unit, WIDE_UNIT)? << 42;
    let others = u64::from(named) << 62 | u64::from(named && derived.others) << 63;
    Some(u128::from(amounts | others) << 64 | u128::from(short))
}

/// A hand's summary: best total, soft (1) or not (0), the value of a
/// two-card pair (0 for none), its card count up to 3.
#[inline]
fn summary(hand: &[Card]) -> [u8; 4] {
    summary_of(hand, Total::of(hand))
}

/// [`summary`] of `hand`, whose total `total` is already known (a table
/// keeps it as cards arrive: no recount on the path of every decision).
#[inline]
fn summary_of(hand: &[Card], total: Total) -> [u8; 4] {
    debug_assert_eq!(total, Total::of(hand));
    let pair = if crate::card::is_pair(hand) { hand[0].value() } else { 0 };
    [total.best(), u8::from(total.is_soft()), pair, hand.len().min(3) as u8]
}

/// What is wrong with a `pitboss_decision_key` answer `parts` for
/// decision `kind`, if anything: a bit outside [`part::ALL`], or a key for
/// `Observe`, which is never asked for an answer.
pub fn problem(kind: Decision, parts: i32) -> Option<&'static str> {
    if parts < 0 {
        return None;
    }
    if parts as u32 & !part::ALL != 0 {
        return Some("names a part that does not exist");
    }
    (kind == Decision::Observe).then_some("names a key for observe, which is not a question")
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;
    use crate::abi::{ActionSet, RulesBlock};
    use crate::{Action, Variant};

    fn header(kind: Decision, up: u8) -> Header {
        Header {
            kind,
            variant: Variant::NorthAmerican,
            seat: 0,
            hand_index: 0,
            hand_count: 1,
            legal: ActionSet::EMPTY.with(Action::Hit).with(Action::Stand),
            dealer_up: Card::new(up),
            round: 7,
            balance: 100,
            bet: 2,
            min: 2,
            max: 100,
            unit: 2,
            rules: RulesBlock::default(),
        }
    }

    fn key(parts: u32, h: &Header, hand: &[u8]) -> Vec<u8> {
        let cards: Vec<Card> = hand.iter().map(|&r| Card::new(r).unwrap()).collect();
        let mut out = [0; KEY_LEN];
        let n = encode(parts, h, &cards, Derived::default(), &mut out);
        out[..n].to_vec()
    }

    #[test]
    fn a_summary_key_is_the_same_for_hands_basic_strategy_plays_alike() {
        let p = part::SUMMARY | part::UP_VALUE | part::LEGAL;
        let h = header(Decision::Act, 12);
        // 10 + 6 and 9 + 7 against a queen or a king: one key.
        assert_eq!(key(p, &h, &[10, 6]), key(p, &header(Decision::Act, 13), &[9, 7]));
        // Three cards to 16 are another key; a soft 16 another.
        assert_ne!(key(p, &h, &[10, 6]), key(p, &h, &[5, 5, 6]));
        assert_ne!(key(p, &h, &[10, 6]), key(p, &h, &[1, 5]));
        // K + Q is a pair of tens, unlike 10 + 10's ranks in order.
        assert_eq!(key(p, &h, &[13, 12]), key(p, &h, &[10, 10]));
        assert_ne!(key(part::CARDS, &h, &[13, 12]), key(part::CARDS, &h, &[10, 10]));
        assert_eq!(key(part::CARD_SET, &h, &[2, 9]), key(part::CARD_SET, &h, &[9, 2]));
        // The kind is always part of the key.
        assert_ne!(key(0, &h, &[]), key(0, &header(Decision::Bet, 12), &[]));
    }

    #[test]
    fn two_short_keys_are_equal_exactly_when_their_long_keys_are() {
        let hands: [&[u8]; 7] = [&[], &[1], &[10, 6], &[13, 12], &[10, 10], &[1, 1], &[5, 5, 6, 2]];
        let mut requests = Vec::new();
        for (kind, up) in [(Decision::Act, 12), (Decision::Act, 10), (Decision::Bet, 1), (Decision::Insurance, 10)] {
            for hand in hands {
                for count in [0, 3, -3, -32768] {
                    let cards = hand.iter().map(|&r| Card::new(r).unwrap()).collect::<Vec<_>>();
                    requests.push((header(kind, up), cards, count));
                }
            }
        }
        let short = |parts, (h, cards, count): &(Header, Vec<Card>, i32)| {
            encode_short(parts, h, cards, Total::of(cards), *count)
        };
        let long = |parts, (h, cards, count): &(Header, Vec<Card>, i32)| {
            let mut out = [0; KEY_LEN];
            let n = encode(parts, h, cards, Derived { count: *count, others: false }, &mut out);
            out[..n].to_vec()
        };
        for parts in 0..=part::ALL {
            if parts & !SHORT_PARTS != 0 {
                assert_eq!(short(parts, &requests[0]), None, "{parts:#x}");
                continue;
            }
            let shorts: Vec<_> = requests.iter().map(|r| short(parts, r)).collect();
            let longs: Vec<_> = requests.iter().map(|r| long(parts, r)).collect();
            let count_and_hand = parts & part::TRUE_COUNT != 0 && parts & (part::HAND_INDEX | part::HAND_COUNT) != 0;
            assert_eq!(shorts.iter().any(Option::is_none), count_and_hand, "{parts:#x}");
            if count_and_hand {
                continue;
            }
            for (a, b) in shorts.iter().zip(&longs).flat_map(|a| shorts.iter().zip(&longs).map(move |b| (a, b))) {
                assert_eq!(a.0 == b.0, a.1 == b.1, "{parts:#x}");
            }
            // Keys naming different parts never meet.
            assert_ne!(short(parts, &requests[0]), short(parts ^ part::SEAT, &requests[0]));
        }
    }

    #[test]
    fn two_wide_keys_are_equal_exactly_when_their_long_keys_are() {
        let mut requests = Vec::new();
        for up in [1, 10, 12] {
            for (min, max, unit) in
                [(1, 50, 1), (2, 50, 2), (1, 51, 1), (0, 0, 1), (WIDE_AMOUNT, WIDE_AMOUNT, WIDE_UNIT)]
            {
                for count in [0, 2, -2] {
                    for others in [false, true] {
                        let h = Header { min, max, unit, ..header(Decision::Insurance, up) };
                        requests.push((h, Derived { count, others }));
                    }
                }
            }
        }
        let wide = |parts, (h, d): &(Header, Derived)| encode_wide(parts, h, &[], Total::default(), *d);
        let long = |parts, (h, d): &(Header, Derived)| {
            let mut out = [0; KEY_LEN];
            let n = encode(parts, h, &[], *d, &mut out);
            out[..n].to_vec()
        };
        for parts in 0..=part::ALL {
            if parts & part::AMOUNTS == 0 || parts & !(SHORT_PARTS | part::AMOUNTS | part::OTHERS) != 0 {
                assert_eq!(wide(parts, &requests[0]), None, "{parts:#x}");
                continue;
            }
            if parts & part::TRUE_COUNT != 0 && parts & (part::HAND_INDEX | part::HAND_COUNT) != 0 {
                continue;
            }
            let wides: Vec<_> = requests.iter().map(|r| wide(parts, r).unwrap()).collect();
            let longs: Vec<_> = requests.iter().map(|r| long(parts, r)).collect();
            for (a, b) in wides.iter().zip(&longs).flat_map(|a| wides.iter().zip(&longs).map(move |b| (a, b))) {
                assert_eq!(a.0 == b.0, a.1 == b.1, "{parts:#x}");
            }
        }
        // A bound past 21 bits, or below 0, takes the long key.
        let h = |max| Header { max, ..header(Decision::Insurance, 10) };
        let none = Derived::default();
        assert_eq!(encode_wide(part::AMOUNTS, &h(WIDE_AMOUNT + 1), &[], Total::default(), none), None);
        assert_eq!(encode_wide(part::AMOUNTS, &h(-1), &[], Total::default(), none), None);
        let unit = Header { unit: WIDE_UNIT + 1, ..h(10) };
        assert_eq!(encode_wide(part::AMOUNTS, &unit, &[], Total::default(), none), None, "a unit past 20 bits");
    }

    #[test]
    fn a_value_too_wide_for_a_short_key_has_none() {
        let h = header(Decision::Act, 12);
        let twos = [Card::new(2).unwrap(); 16];
        assert_eq!(encode_short(part::SUMMARY, &h, &twos, Total::of(&twos), 0), None, "a total of 32");
        assert!(encode_short(part::LEGAL, &h, &twos, Total::of(&twos), 0).is_some(), "no summary named");
    }

    #[test]
    fn weights_round_trip_and_a_count_is_per_deck_left_toward_zero() {
        let hilo: Weights = [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1];
        for w in [hilo, [-8, 7, 0, 1, -2, 3, -4, 5, -6, 7], [1; 10]] {
            assert_eq!(unpack_weights(pack_weights(&w)), Some(w));
        }
        assert_eq!(unpack_weights(0), None);
        assert_eq!(unpack_weights(1 << 40), None);
        assert_eq!(unpack_weights(-1), None);
        // Six decks, 52 shown: 5 decks left.
        assert_eq!(true_count(11, 52, 6), 2);
        assert_eq!(true_count(-11, 52, 6), -2, "toward zero");
        // Past the last half deck, half a deck.
        assert_eq!(true_count(3, 300, 6), 6);
        assert_eq!(true_count(3, 400, 6), 6);
        assert_eq!(true_count(0, 0, 1), 0);
    }

    #[test]
    fn a_true_count_key_holds_the_count() {
        let h = header(Decision::Act, 12);
        let key = |count| {
            let mut out = [0; KEY_LEN];
            let n = encode(part::TRUE_COUNT | part::LEGAL, &h, &[], Derived { count, others: false }, &mut out);
            out[..n].to_vec()
        };
        assert_ne!(key(1), key(2));
        assert_ne!(key(-1), key(1));
        assert_eq!(key(3), key(3));
        let c = [Card::new(10).unwrap(), Card::new(6).unwrap()];
        let short = |parts, count| encode_short(parts, &h, &c, Total::of(&c), count);
        assert_ne!(short(part::TRUE_COUNT, 1), short(part::TRUE_COUNT, -1));
        assert_eq!(short(part::TRUE_COUNT, 40_000), None, "past 16 bits: a long key");
        assert_eq!(short(part::TRUE_COUNT | part::HAND_INDEX, 1), None, "the count where the hand's index is");
    }

    #[test]
    fn every_part_together_fits() {
        let h = header(Decision::Act, 1);
        let hand = [2u8; 32];
        assert_eq!(key(part::ALL, &h, &hand).len(), KEY_LEN);
        assert_eq!(problem(Decision::Act, part::ALL as i32), None);
        assert_eq!(problem(Decision::Act, -1), None);
        assert!(problem(Decision::Act, 1 << 15).is_some());
        assert!(problem(Decision::Observe, 0).is_some());
    }
}
