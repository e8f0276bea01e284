//! The optional exports of ABI versions 2 to 4, asked once at start-up:
//! the rule sets a bot reads events under, the decisions it leaves to
//! their default, and version 4's decision keys — the request parts each
//! decision's answer depends on (sdk/ABI.md, "Version 4";
//! `pitboss_sdk::key`). The answers a seat gave, by key, are kept in
//! [`pitboss_engine::answers::Answers`].

use pitboss_sdk::abi::DEFAULTABLE_MASK;
use pitboss_sdk::key;
use pitboss_sdk::{Decision, Variant};
use wasmtime::{Instance, Store};

use crate::store::StoreState;

/// ABI v4's optional export: `(variant: i32, kind: i32) -> i32`, the
/// `pitboss_sdk::key::part` bits the answer depends on, or a negative
/// number for "ask me every time".
pub(crate) const DECISION_KEY: &str = "pitboss_decision_key";

/// What a bot declared: by rule set code and decision code, the parts of
/// its key, or `None` (asked every time).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Declared([[Option<u32>; Decision::ALL.len()]; Variant::ALL.len()]);

impl Declared {
    /// The parts of a `kind` decision's key under `variant`, if keyed.
    #[inline]
    pub(crate) fn parts(&self, variant: Variant, kind: Decision) -> Option<u32> {
        self.0[variant as usize][kind as usize]
    }
}

/// Asks a version 4 module's `pitboss_decision_key` for every rule set and
/// decision kind, under the start-up fuel. `Ok(Err(problem))`: an answer
/// the contract refuses (a part that does not exist, a key for `observe`,
/// a key under a rule set where the bot reads events, `wants_events` bit
/// by rule set code).
pub(crate) fn declared(
    store: &mut Store<StoreState>,
    instance: &Instance,
    version: i32,
    wants_events: u8,
) -> Result<Result<Declared, String>, wasmtime::Error> {
    let mut declared = Declared::default();
    let Ok(ask) = instance.get_typed_func::<(i32, i32), i32>(&mut *store, DECISION_KEY) else {
        return Ok(Ok(declared));
    };
    if version < 4 {
        return Ok(Ok(declared));
    }
    for v in Variant::ALL {
        for kind in Decision::ALL {
            let parts = ask.call(&mut *store, (i32::from(v as u8), i32::from(kind as u8)))?;
            let problem = key::problem(kind, parts).or_else(|| {
                (parts >= 0 && wants_events & (1 << v as u8) != 0)
                    .then_some("names a key under a rule set where the bot reads events (pitboss_wants_events)")
            });
            if let Some(problem) = problem {
                return Ok(Err(format!("{DECISION_KEY}({}, {}) = {parts} {problem}", v as u8, kind as u8)));
            }
            declared.0[v as usize][kind as usize] = u32::try_from(parts).ok();
        }
    }
    Ok(Ok(declared))
}

/// Versions 2 and 3's optional exports, each asked once per rule set
/// under the start-up fuel: the rule sets the bot reads events under (bit
/// by code; no export: all) and, by rule set code, the decisions it leaves
/// to their default (no export: none).
pub(crate) fn optional_answers(
    store: &mut Store<StoreState>,
    instance: &Instance,
    version: i32,
) -> Result<(u8, [u32; Variant::ALL.len()]), wasmtime::Error> {
    let mut answers = |export: &str, since: i32| -> Result<Option<[i32; Variant::ALL.len()]>, wasmtime::Error> {
        let Ok(ask) = instance.get_typed_func::<i32, i32>(&mut *store, export) else { return Ok(None) };
        if version < since {
            return Ok(None);
        }
        let mut answers = [0; Variant::ALL.len()];
        for v in Variant::ALL {
            answers[v as usize] = ask.call(&mut *store, i32::from(v as u8))?;
        }
        Ok(Some(answers))
    };
    let wants_events = answers(WANTS_EVENTS, 2)?
        .map_or(u8::MAX, |a| (0..a.len()).filter(|&v| a[v] != 0).fold(0u8, |bits, v| bits | 1 << v));
    let defaults = answers(DEFAULTS, 3)?.unwrap_or_default().map(|mask| mask as u32);
    Ok((wants_events, defaults))
}

/// What is wrong with a `pitboss_defaults` answer: a bit for a decision
/// without a default answer.
pub(crate) fn defaults_problem(defaults: &[u32]) -> Option<String> {
    let v = defaults.iter().position(|mask| mask & !DEFAULTABLE_MASK != 0)?;
    Some(format!(
        "{DEFAULTS}({v}) = {:#x} names decisions that have no default answer (only bet, insurance, even-money, side-bet, back-bet and banker-double: bits {DEFAULTABLE_MASK:#x})",
        defaults[v]
    ))
}

/// ABI v2's optional export: `(variant: i32) -> i32`, 0 for "send me no
/// events under this rule set".
pub(crate) const WANTS_EVENTS: &str = "pitboss_wants_events";

/// ABI v3's optional export: `(variant: i32) -> i32`, the bits (by decision
/// code) of the decisions the bot leaves to their default answer for good
/// under that rule set.
pub(crate) const DEFAULTS: &str = "pitboss_defaults";
