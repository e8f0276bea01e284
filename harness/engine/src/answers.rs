//! The answers a player has given, by decision key (ABI version 4,
//! sdk/ABI.md "Version 4"; `pitboss_sdk::key`): a request whose key was
//! seen before is answered from here without asking the bot. Kept by the
//! table for each seat and session (`PlayerState`), whatever kind of player
//! declares the keys: a wasm bot (`pitboss-host`) or a native
//! [`crate::Native`] strategy.
//!
//! Deterministic: which requests are answered from here is a function of
//! the requests asked before, in order, and of [`MAX_KEYS`]; a key is the
//! exact bytes of its parts, never a hash of them (the tables are only
//! looked up and added to, never iterated).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use pitboss_sdk::key::{self, KEY_LEN};

use crate::Request;

/// The most keys a seat keeps in a session; past it, new keys are asked
/// every time. Basic strategy needs about 1,300; `hilo`, keyed by its
/// true count too, about 9,900 after 200,000 heads-up rounds and 13,500
/// after a million (4,096 kept it calling for one act in ten). At most
/// 512 KiB of short keys a seat (16 bytes a slot, the table at most three
/// quarters full), or 1 MiB of wide ones (32 bytes a slot), far below a
/// bot's own memory cap.
pub const MAX_KEYS: usize = 16_384;

/// The answers a seat has given, by key: a short key (every key basic
/// strategy names, `key::encode_short`) as a number, a wide one (the
/// amounts besides, `key::encode_wide`: a counter's insurance) as two,
/// any other as its bytes.
#[derive(Default)]
pub struct Answers {
    short: OpenKeys<u64>,
    wide: OpenKeys<u128>,
    long: HashMap<Box<[u8]>, i64, BuildHasherDefault<Fnv>>,
}

impl Answers {
    /// The key of `request` under `parts` (`derived`: the parts the table
    /// derives from the events, [`key::part::TRUE_COUNT`] and
    /// [`key::part::OTHERS`]), and the answer given to it before, if any.
    /// The events a request carries are never part of its key.
    #[inline]
    pub fn lookup(&self, parts: u32, request: &Request<'_>, derived: key::Derived) -> Lookup {
        // A new key once the seat keeps `MAX_KEYS` is asked and not kept:
        // no key (and for a long one no allocation) is made for it.
        let (header, hand, total) = (request.header, request.hand, request.total);
        if let Some(key) = key::encode_short(parts, header, hand, total, derived.count) {
            return self.found(self.short.get(key), || Key::Short(key));
        }
        if let Some(key) = key::encode_wide(parts, header, hand, total, derived) {
            return self.found(self.wide.get(key), || Key::Wide(key));
        }
        let mut key = [0; KEY_LEN];
        let n = key::encode(parts, header, hand, derived, &mut key);
        self.found(self.long.get(&key[..n]).copied(), || Key::Long(key[..n].into()))
    }

    /// What a lookup found: the answer kept, if any; else the key to keep
    /// the answer under (made by `key`), unless the seat keeps
    /// [`MAX_KEYS`] already.
    #[inline]
    fn found(&self, kept: Option<i64>, key: impl FnOnce() -> Key) -> Lookup {
        match kept {
            Some(answer) => Lookup::Known(answer),
            None if self.full() => Lookup::Unkeyed,
            None => Lookup::New(key()),
        }
    }

    /// The answer given before to the short key `key`
    /// (`key::encode_short`), if any.
    #[inline]
    pub fn known_short(&self, key: u64) -> Option<i64> {
        self.short.get(key)
    }

    /// Keeps `answer` to `key`, a key [`Answers::lookup`] found new (and
    /// never past [`MAX_KEYS`], whatever key it is given).
    pub fn keep(&mut self, key: Key, answer: i64) {
        if self.full() {
            return;
        }
        match key {
            Key::Short(key) => self.short.insert(key, answer),
            Key::Wide(key) => self.wide.insert(key, answer),
            Key::Long(key) => {
                self.long.insert(key, answer);
            }
        }
    }

    /// The seat keeps [`MAX_KEYS`] keys: no more are kept.
    fn full(&self) -> bool {
        self.short.len + self.wide.len + self.long.len() >= MAX_KEYS
    }
}

/// What [`Answers::lookup`] found.
pub enum Lookup {
    /// Asked before: the answer given.
    Known(i64),
    /// Not yet: the key to keep the answer under.
    New(Key),
    /// Ask, and keep nothing: the request carries events, or the seat
    /// keeps [`MAX_KEYS`] already.
    Unkeyed,
}

/// A request's key: a short one as a number (`key::encode_short`), any
/// other as its bytes.
pub enum Key {
    /// A key of [`key::SHORT_PARTS`] only, as `key::encode_short` makes it.
    Short(u64),
    /// A key of the amounts and short parts, as `key::encode_wide` makes
    /// it.
    Wide(u128),
    /// Any other key's bytes, as `key::encode` writes them.
    Long(Box<[u8]>),
}

/// The answers to short (or wide) keys: an open-addressing table (linear
/// probing, at most three quarters full) of `(key + 1, answer)` slots, 0
/// marking an empty one; a key's first slot is the top bits of one
/// multiply. Looked up on almost every act of a keyed bot: a probe is a
/// multiply, a shift, a load and a compare, where a general hash map's is
/// several times that. Only looked up and inserted into, never iterated,
/// so its layout decides nothing.
#[derive(Default)]
struct OpenKeys<K> {
    slots: Vec<(K, i64)>,
    len: usize,
}

/// A key an [`OpenKeys`] holds: a whole number, stored plus one.
trait Word: Copy + Default + Eq {
    /// 64 bits mixing every bit of the key, for its home slot.
    fn fold(self) -> u64;
    /// The key as stored (plus one), and back.
    fn stored(self) -> Self;
    fn unstored(self) -> Self;
}

/// `Word` for a whole number type, its key folded to 64 bits by `fold`.
macro_rules! word {
    ($t:ty, $fold:expr) => {
        impl Word for $t {
            #[inline]
            fn fold(self) -> u64 {
                $fold(self)
            }
            #[inline]
            fn stored(self) -> Self {
                self.wrapping_add(1)
            }
            #[inline]
            fn unstored(self) -> Self {
                self.wrapping_sub(1)
            }
        }
    };
}

word!(u64, |k: u64| k);
word!(u128, |k: u128| (k as u64) ^ (k >> 64) as u64);

impl<K: Word> OpenKeys<K> {
    /// The slot `key`'s probe starts at, in a table of `slots` (a power of
    /// two, at least 2).
    #[inline]
    fn home(key: K, slots: usize) -> usize {
        let bits = slots.trailing_zeros();
        (key.fold().wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
    }

    /// The answer kept for `key`, if any.
    #[inline]
    fn get(&self, key: K) -> Option<i64> {
        let n = self.slots.len();
        if n == 0 {
            return None;
        }
        let want = key.stored();
        let mut i = Self::home(key, n);
        loop {
            let (k, answer) = self.slots[i];
            if k == want {
                return Some(answer);
            }
            if k == K::default() {
                return None;
            }
            i = (i + 1) & (n - 1);
        }
    }

    /// Keeps `answer` for `key`, a key not kept yet.
    fn insert(&mut self, key: K, answer: i64) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        if Self::place(&mut self.slots, key.stored(), answer) {
            self.len += 1;
        }
    }

    /// Puts `(stored, answer)` in its slot; whether the key is new there.
    fn place(slots: &mut [(K, i64)], stored: K, answer: i64) -> bool {
        let mask = slots.len() - 1;
        let mut i = Self::home(stored.unstored(), slots.len());
        while slots[i].0 != K::default() && slots[i].0 != stored {
            i = (i + 1) & mask;
        }
        let new = slots[i].0 == K::default();
        slots[i] = (stored, answer);
        new
    }

    /// Twice the slots (64 to start), every key placed again.
    fn grow(&mut self) {
        let n = (self.slots.len() * 2).max(64);
        let old = std::mem::replace(&mut self.slots, vec![(K::default(), 0); n]);
        for (stored, answer) in old.into_iter().filter(|&(k, _)| k != K::default()) {
            Self::place(&mut self.slots, stored, answer);
        }
    }
}

/// FNV-1a: a key's few bytes hash in a few instructions (the standard
/// SipHash costs more than a lookup saves here). Keys are request fields,
/// so a league could make many collide; a seat keeps at most
/// [`MAX_KEYS`], which bounds the harm to slower lookups.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::abi::{ActionSet, Header, RulesBlock};
    use pitboss_sdk::key::{self, part};
    use pitboss_sdk::{Decision, Total, Variant};

    use super::{Answers, Lookup, MAX_KEYS};
    use crate::Request;

    fn header(round: u32, seat: u8) -> Header {
        Header {
            kind: Decision::Bet,
            variant: Variant::NorthAmerican,
            seat,
            hand_index: 0,
            hand_count: 0,
            legal: ActionSet::EMPTY,
            dealer_up: None,
            round,
            balance: 100,
            bet: 0,
            min: 1,
            max: 10,
            unit: 1,
            rules: RulesBlock::default(),
        }
    }

    /// Asks `answers` about `h` under `parts`, answering `round + 1`:
    /// whether the answer came from the seat's kept answers.
    fn known(answers: &mut Answers, parts: u32, h: &Header) -> bool {
        let request = Request { header: h, hand: &[], total: Total::default(), events: &[] };
        match answers.lookup(parts, &request, key::Derived::default()) {
            Lookup::Known(answer) => {
                assert_eq!(answer, i64::from(h.round) + i64::from(h.seat) + 1);
                true
            }
            Lookup::New(key) => {
                answers.keep(key, i64::from(h.round) + i64::from(h.seat) + 1);
                false
            }
            Lookup::Unkeyed => false,
        }
    }

    #[test]
    fn short_keys_keep_every_answer_through_growing_and_know_no_other() {
        let mut keys = super::OpenKeys::<u64>::default();
        // Keys that differ in low bits, high bits and both; 0 among them.
        let key = |i: u64| (i << 40) ^ (i * 0x0101) ^ (i % 7) << 61;
        for i in 0..3000 {
            assert_eq!(keys.get(key(i)), None);
            keys.insert(key(i), i as i64 - 1500);
        }
        keys.insert(key(5), 0);
        assert_eq!(keys.len, 3000, "a key kept again is not counted twice");
        for i in 0..3000 {
            assert_eq!(keys.get(key(i)), Some(if i == 5 { 0 } else { i as i64 - 1500 }), "key {i}");
        }
        for i in 3000..6000 {
            assert_eq!(keys.get(key(i)), None);
        }
    }

    #[test]
    fn wide_keys_told_apart_by_their_high_bits_alone_keep_every_answer() {
        let mut keys = super::OpenKeys::<u128>::default();
        let key = |i: u128| i << 64 | 7;
        for i in 0..3000 {
            assert_eq!(keys.get(key(i)), None);
            keys.insert(key(i), i as i64);
        }
        for i in 0..3000 {
            assert_eq!(keys.get(key(i)), Some(i as i64), "key {i}");
        }
        assert_eq!(keys.get(7 << 64), None);
    }

    #[test]
    fn a_seat_keeps_at_most_max_keys_and_still_answers_those_it_kept() {
        // Long keys (the round) and short ones (the box) share the cap.
        let mut answers = Answers::default();
        for round in 0..MAX_KEYS as u32 - 10 {
            assert!(!known(&mut answers, part::ROUND, &header(round, 0)));
        }
        for seat in 0..20 {
            assert!(!known(&mut answers, part::SEAT, &header(0, seat)));
        }
        assert_eq!(answers.short.len + answers.long.len(), MAX_KEYS);
        let request = Request { header: &header(MAX_KEYS as u32, 0), hand: &[], total: Total::default(), events: &[] };
        assert!(
            matches!(answers.lookup(part::ROUND, &request, key::Derived::default()), Lookup::Unkeyed),
            "full: asked, not kept"
        );
        assert!(known(&mut answers, part::ROUND, &header(7, 0)), "a kept long key");
        assert!(known(&mut answers, part::SEAT, &header(0, 3)), "a kept short key");
        assert!(!known(&mut answers, part::SEAT, &header(0, 15)), "past the cap: not kept");
    }
}
