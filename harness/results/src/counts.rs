//! Counters indexed by an enum: decisions by kind, hands by outcome,
//! actions, faults by kind. One generic type instead of one struct per
//! enum mirroring its variants field by field: adding a variant means one
//! line in its [`Counted`] table, and merging is one loop.
//!
//! In results files each counter is an object with one field per counted
//! variant, in the table's order (`{"bet": 3, "side-bet": 0, …}`), exactly
//! as the per-enum structs wrote them.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

use pitboss_engine::{FaultKind, Outcome};
use pitboss_sdk::{Action, Decision};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An enum whose variants are counted: which variants (`ORDER`, the order
/// of the fields in results files), their field names, and each value's
/// slot (`None`: not counted, e.g. an `observe` question).
pub trait Counted: Copy + 'static {
    /// The counted variants, in file order.
    const ORDER: &'static [Self];
    /// How many are counted (`ORDER.len()`).
    const COUNT: usize;
    /// The counter's name in the results schema.
    const SCHEMA_NAME: &'static str;
    /// The counter's description in the results schema.
    const DESCRIPTION: &'static str;
    /// The field name of `self` in results files.
    fn field(self) -> &'static str;
    /// Where `self` is counted, if it is.
    fn slot(self) -> Option<usize>;
}

/// How often each counted variant of `K` happened; `N` is `K::COUNT`.
pub struct Counts<K, const N: usize> {
    counts: [u64; N],
    kind: PhantomData<K>,
}

impl<K: Counted, const N: usize> Counts<K, N> {
    /// Counts one `kind` (nothing if it is not counted).
    #[inline]
    pub fn add(&mut self, kind: K) {
        if let Some(slot) = kind.slot() {
            self.counts[slot] += 1;
        }
    }

    /// Counts one `kind` `sign` times (-1 takes one back).
    #[inline]
    pub fn add_signed(&mut self, kind: K, sign: i64) {
        if let Some(slot) = kind.slot() {
            self.counts[slot] = self.counts[slot].wrapping_add_signed(sign);
        }
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &Self) {
        for (n, o) in self.counts.iter_mut().zip(&other.counts) {
            *n += o;
        }
    }

    /// Every count added up.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Each counted variant with its count, in file order.
    pub fn iter(&self) -> impl Iterator<Item = (K, u64)> + '_ {
        K::ORDER.iter().copied().zip(self.counts.iter().copied())
    }
}

impl<K: Counted, const N: usize> Index<K> for Counts<K, N> {
    type Output = u64;

    /// The count of `kind`; 0 for a variant never counted.
    fn index(&self, kind: K) -> &u64 {
        kind.slot().map_or(&0, |slot| &self.counts[slot])
    }
}

impl<K: Counted, const N: usize> IndexMut<K> for Counts<K, N> {
    /// The count of `kind`. Panics for a variant that is not counted: a
    /// programming error, never an input's.
    fn index_mut(&mut self, kind: K) -> &mut u64 {
        let slot = kind.slot().unwrap_or_else(|| panic!("{} is not counted", kind.field()));
        &mut self.counts[slot]
    }
}

// Derives would bound `K` itself; the counts are plain integers.
impl<K, const N: usize> Clone for Counts<K, N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K, const N: usize> Copy for Counts<K, N> {}

impl<K, const N: usize> Default for Counts<K, N> {
    fn default() -> Self {
        Counts { counts: [0; N], kind: PhantomData }
    }
}

impl<K, const N: usize> PartialEq for Counts<K, N> {
    fn eq(&self, other: &Self) -> bool {
        self.counts == other.counts
    }
}

impl<K, const N: usize> Eq for Counts<K, N> {}

impl<K: Counted, const N: usize> fmt::Debug for Counts<K, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter().map(|(k, n)| (k.field(), n))).finish()
    }
}

impl<K: Counted, const N: usize> Serialize for Counts<K, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(N))?;
        for (kind, n) in self.iter() {
            map.serialize_entry(kind.field(), &n)?;
        }
        map.end()
    }
}

impl<'de, K: Counted, const N: usize> Deserialize<'de> for Counts<K, N> {
    /// Every counted field is required; other fields are ignored, as for
    /// any object in a results file.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CountsVisitor<K, const N: usize>(PhantomData<K>);

        impl<'de, K: Counted, const N: usize> Visitor<'de> for CountsVisitor<K, N> {
            type Value = Counts<K, N>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an object of counts ({})", K::SCHEMA_NAME)
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut seen = [None; N];
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    match K::ORDER.iter().position(|k| k.field() == key) {
                        Some(i) if seen[i].is_some() => return Err(de::Error::duplicate_field(K::ORDER[i].field())),
                        Some(i) => seen[i] = Some(map.next_value::<u64>()?),
                        None => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                let mut counts = [0; N];
                for (i, n) in seen.into_iter().enumerate() {
                    counts[i] = n.ok_or_else(|| de::Error::missing_field(K::ORDER[i].field()))?;
                }
                Ok(Counts { counts, kind: PhantomData })
            }
        }

        deserializer.deserialize_map(CountsVisitor(PhantomData))
    }
}

impl<K: Counted, const N: usize> JsonSchema for Counts<K, N> {
    fn schema_name() -> Cow<'static, str> {
        K::SCHEMA_NAME.into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let count = json_schema!({"type": "integer", "format": "uint64", "minimum": 0});
        let properties: serde_json::Map<String, serde_json::Value> =
            K::ORDER.iter().map(|k| (k.field().to_string(), count.clone().into())).collect();
        let required: Vec<&str> = K::ORDER.iter().map(|k| k.field()).collect();
        json_schema!({
            "description": K::DESCRIPTION,
            "type": "object",
            "properties": properties,
            "required": required,
        })
    }
}

/// Questions a bot was asked, by kind (an `observe` is not a question).
pub type Decisions = Counts<Decision, { <Decision as Counted>::COUNT }>;
/// How a bot's hands ended (a split hand counts as a hand).
pub type Hands = Counts<Outcome, 8>;
/// Actions a bot applied to its hands.
pub type Actions = Counts<Action, 5>;
/// Faults by kind (disqualification is a status, not a fault).
pub type FaultKinds = Counts<FaultKind, 5>;

/// Every decision that is a question, in the order results files write
/// them: the one list the tally's slots, the report's columns and the
/// names follow (`Decision::name`). A new `Decision` that is not listed
/// here is never counted, and a test says so.
const DECISION_ORDER: &[Decision] = &[
    Decision::Bet,
    Decision::SideBet,
    Decision::BackBet,
    Decision::Insurance,
    Decision::EvenMoney,
    Decision::Act,
    Decision::BankerDouble,
    Decision::BankerDraw,
];

/// Each decision's slot in [`DECISION_ORDER`], by its ABI code.
const DECISION_SLOTS: [Option<usize>; Decision::ALL.len()] = {
    let mut slots = [None; Decision::ALL.len()];
    let mut i = 0;
    while i < DECISION_ORDER.len() {
        slots[DECISION_ORDER[i] as usize] = Some(i);
        i += 1;
    }
    slots
};

impl Counted for Decision {
    const ORDER: &'static [Decision] = DECISION_ORDER;
    const COUNT: usize = DECISION_ORDER.len();
    const SCHEMA_NAME: &'static str = "Decisions";
    const DESCRIPTION: &'static str = "Decisions a bot was asked, by kind.";

    fn field(self) -> &'static str {
        self.name()
    }

    #[inline]
    fn slot(self) -> Option<usize> {
        DECISION_SLOTS[self as usize]
    }
}

impl Counted for Outcome {
    const ORDER: &'static [Outcome] = &[
        Outcome::Win,
        Outcome::Blackjack,
        Outcome::EvenMoney,
        Outcome::Push,
        Outcome::Lose,
        Outcome::Bust,
        Outcome::Surrender,
        Outcome::DealerBlackjack,
    ];
    const COUNT: usize = 8;
    const SCHEMA_NAME: &'static str = "Hands";
    const DESCRIPTION: &'static str = "How the bot's hands ended (a split hand counts as a hand).";

    fn field(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Blackjack => "blackjack",
            Outcome::EvenMoney => "even-money",
            Outcome::Push => "push",
            Outcome::Lose => "lose",
            Outcome::Bust => "bust",
            Outcome::Surrender => "surrender",
            Outcome::DealerBlackjack => "dealer-blackjack",
        }
    }

    #[inline]
    fn slot(self) -> Option<usize> {
        Some(match self {
            Outcome::Win => 0,
            Outcome::Blackjack => 1,
            Outcome::EvenMoney => 2,
            Outcome::Push => 3,
            Outcome::Lose => 4,
            Outcome::Bust => 5,
            Outcome::Surrender => 6,
            Outcome::DealerBlackjack => 7,
        })
    }
}

impl Counted for Action {
    const ORDER: &'static [Action] = &[Action::Stand, Action::Hit, Action::Double, Action::Split, Action::Surrender];
    const COUNT: usize = 5;
    const SCHEMA_NAME: &'static str = "Actions";
    const DESCRIPTION: &'static str = "Actions the bot applied to its hands.";

    fn field(self) -> &'static str {
        self.name()
    }

    #[inline]
    fn slot(self) -> Option<usize> {
        Some(match self {
            Action::Stand => 0,
            Action::Hit => 1,
            Action::Double => 2,
            Action::Split => 3,
            Action::Surrender => 4,
        })
    }
}

impl Counted for FaultKind {
    const ORDER: &'static [FaultKind] =
        &[FaultKind::Illegal, FaultKind::Trap, FaultKind::OutOfFuel, FaultKind::Memory, FaultKind::Timeout];
    const COUNT: usize = 5;
    const SCHEMA_NAME: &'static str = "FaultKinds";
    const DESCRIPTION: &'static str = "Faults by kind.";

    fn field(self) -> &'static str {
        self.name()
    }

    #[inline]
    fn slot(self) -> Option<usize> {
        match self {
            FaultKind::Illegal => Some(0),
            FaultKind::Trap => Some(1),
            FaultKind::OutOfFuel => Some(2),
            FaultKind::Memory => Some(3),
            FaultKind::Timeout => Some(4),
            FaultKind::Disqualified => None,
        }
    }
}

impl Hands {
    /// Hands that returned more than their stake.
    pub fn wins(&self) -> u64 {
        self[Outcome::Win] + self[Outcome::Blackjack] + self[Outcome::EvenMoney]
    }

    /// Hands that returned less than their stake.
    pub fn losses(&self) -> u64 {
        self[Outcome::Lose] + self[Outcome::Bust] + self[Outcome::Surrender] + self[Outcome::DealerBlackjack]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each table lists every counted variant once, in slot order, and
    /// `COUNT` matches the array the alias gives.
    fn consistent<K: Counted + PartialEq + fmt::Debug>(all: &[K], n: usize) {
        assert_eq!((K::ORDER.len(), K::COUNT), (n, n));
        for (i, k) in K::ORDER.iter().enumerate() {
            assert_eq!(k.slot(), Some(i), "{k:?}");
        }
        let counted = all.iter().filter(|k| k.slot().is_some()).count();
        assert_eq!(counted, n, "every variant with a slot is in ORDER");
    }

    #[test]
    fn every_table_is_consistent() {
        consistent(&Decision::ALL, 8);
        // Every question is counted: only `observe` has no slot.
        let uncounted: Vec<_> = Decision::ALL.iter().filter(|d| d.slot().is_none()).collect();
        assert_eq!(uncounted, [&Decision::Observe], "add the new decision to DECISION_ORDER");
        consistent(&Action::ALL, 5);
        use FaultKind::*;
        consistent(&[Illegal, Trap, OutOfFuel, Memory, Timeout, Disqualified], 5);
        use Outcome::*;
        consistent(&[Bust, Surrender, Win, Blackjack, Push, Lose, DealerBlackjack, EvenMoney], 8);
    }

    #[test]
    fn counts_round_trip_as_objects_in_file_order() {
        let mut d = Decisions::default();
        d.add(Decision::Act);
        d.add(Decision::Act);
        d.add(Decision::Observe);
        d[Decision::BankerDraw] += 3;
        let text = serde_json::to_string(&d).unwrap();
        assert_eq!(
            text,
            r#"{"bet":0,"side-bet":0,"back-bet":0,"insurance":0,"even-money":0,"act":2,"banker-double":0,"banker-draw":3}"#
        );
        assert_eq!(serde_json::from_str::<Decisions>(&text).unwrap(), d);
        assert_eq!(d[Decision::Observe], 0);
        assert_eq!(d.total(), 5);
        let missing = serde_json::from_str::<Actions>(r#"{"stand":1,"hit":2,"double":0,"split":0}"#).unwrap_err();
        assert!(missing.to_string().contains("missing field `surrender`"), "{missing}");
        let twice = serde_json::from_str::<Actions>(r#"{"stand":1,"stand":2}"#).unwrap_err();
        assert!(twice.to_string().contains("duplicate field `stand`"), "{twice}");
        let negative = serde_json::from_str::<Actions>(r#"{"stand":-1}"#).unwrap_err();
        assert!(negative.to_string().contains("invalid value"), "{negative}");
    }
}
