//! The answers a player has given, by decision key (ABI version 4,
//! sdk/ABI.md "Version 4"; `pitboss_sdk::key`): a request whose key was
//! seen before is answered from here without asking the bot. Kept by the
//! table for each seat and session (`PlayerState`), whatever kind of player
//! declares the keys: a wasm bot (`pitboss-host`) or a native
//! [`crate::Native`] strategy.
//!
//! Deterministic: which requests are answered from here is a function of
//! the requests asked before, in order, and of [`MAX_KEYS`]; a key is the
//! exact bytes of its parts, never a hash of them (the hash map is only
//! looked up, never iterated).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use pitboss_sdk::key::{self, KEY_LEN};

use crate::Request;

/// The most keys a seat keeps in a session; past it, new keys are asked
/// every time (basic strategy needs about 1,300).
pub const MAX_KEYS: usize = 4096;

/// The answers a seat has given, by key: a short key (every key basic
/// strategy names, `key::encode_short`) as a number, any other as its
/// bytes.
#[derive(Default)]
pub struct Answers {
    short: HashMap<u64, i64, BuildHasherDefault<Mix>>,
    long: HashMap<Box<[u8]>, i64, BuildHasherDefault<Fnv>>,
}

impl Answers {
    /// The key of `request` under `parts`, and the answer given to it
    /// before, if any. A request carrying events has no key.
    #[inline]
    pub fn lookup(&self, parts: u32, request: &Request<'_>) -> Lookup {
        if !request.events.is_empty() {
            return Lookup::Unkeyed;
        }
        // A new key once the seat keeps `MAX_KEYS` is asked and not kept:
        // no key (and for a long one no allocation) is made for it.
        if let Some(key) = key::encode_short(parts, request.header, request.hand, request.total) {
            return match self.short.get(&key) {
                Some(&answer) => Lookup::Known(answer),
                None if self.full() => Lookup::Unkeyed,
                None => Lookup::New(Key::Short(key)),
            };
        }
        let mut key = [0; KEY_LEN];
        let n = key::encode(parts, request.header, request.hand, &mut key);
        match self.long.get(&key[..n]) {
            Some(&answer) => Lookup::Known(answer),
            None if self.full() => Lookup::Unkeyed,
            None => Lookup::New(Key::Long(key[..n].into())),
        }
    }

    /// The answer given before to the short key `key`
    /// (`key::encode_short`), if any.
    #[inline]
    pub fn known_short(&self, key: u64) -> Option<i64> {
        self.short.get(&key).copied()
    }

    /// Keeps `answer` to `key`, a key [`Answers::lookup`] found new (and
    /// never past [`MAX_KEYS`], whatever key it is given).
    pub fn keep(&mut self, key: Key, answer: i64) {
        if self.full() {
            return;
        }
        match key {
            Key::Short(key) => self.short.insert(key, answer),
            Key::Long(key) => self.long.insert(key, answer),
        };
    }

    /// The seat keeps [`MAX_KEYS`] keys: no more are kept.
    fn full(&self) -> bool {
        self.short.len() + self.long.len() >= MAX_KEYS
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
    /// Any other key's bytes, as `key::encode` writes them.
    Long(Box<[u8]>),
}

/// A short key's hash: one folded multiply, so every bit of the key
/// reaches the bits the table indexes by.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write_u64(&mut self, key: u64) {
        let m = u128::from(key ^ self.0) * 0x9e37_79b9_7f4a_7c15;
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
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
    use pitboss_sdk::key::part;
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
        match answers.lookup(parts, &request) {
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
    fn a_seat_keeps_at_most_max_keys_and_still_answers_those_it_kept() {
        // Long keys (the round) and short ones (the box) share the cap.
        let mut answers = Answers::default();
        for round in 0..MAX_KEYS as u32 - 10 {
            assert!(!known(&mut answers, part::ROUND, &header(round, 0)));
        }
        for seat in 0..20 {
            assert!(!known(&mut answers, part::SEAT, &header(0, seat)));
        }
        assert_eq!(answers.short.len() + answers.long.len(), MAX_KEYS);
        let request = Request { header: &header(MAX_KEYS as u32, 0), hand: &[], total: Total::default(), events: &[] };
        assert!(matches!(answers.lookup(part::ROUND, &request), Lookup::Unkeyed), "full: asked, not kept");
        assert!(known(&mut answers, part::ROUND, &header(7, 0)), "a kept long key");
        assert!(known(&mut answers, part::SEAT, &header(0, 3)), "a kept short key");
        assert!(!known(&mut answers, part::SEAT, &header(0, 15)), "past the cap: not kept");
    }
}
