//! The optional exports of ABI versions 2 to 5, asked once at start-up:
//! the rule sets a bot reads events under, the decisions it leaves to
//! their default, version 4's decision keys — the request parts each
//! decision's answer depends on (sdk/ABI.md, "Version 4";
//! `pitboss_sdk::key`) — and version 5's count weights, for keys that name
//! the true count. The answers a seat gave, by key, are kept in
//! [`pitboss_engine::answers::Answers`].

use pitboss_sdk::abi::DEFAULTABLE_MASK;
use pitboss_sdk::key::{self, Weights};
use pitboss_sdk::{Decision, Variant};
use wasmtime::{Instance, Store};

use crate::store::StoreState;

/// ABI v4's optional export: `(variant: i32, kind: i32) -> i32`, the
/// `pitboss_sdk::key::part` bits the answer depends on, or a negative
/// number for "ask me every time".
pub(crate) const DECISION_KEY: &str = "pitboss_decision_key";

/// ABI v5's optional export: `(variant: i32) -> i64`, the weights of the
/// bot's card count (`pitboss_sdk::key::pack_weights`), or 0 for none.
pub(crate) const COUNT: &str = "pitboss_count";

/// What a bot declared: by rule set code and decision code, the parts of
/// its key, or `None` (asked every time); by rule set code, the weights of
/// its count.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Declared {
    keys: [[Option<u32>; Decision::ALL.len()]; Variant::ALL.len()],
    counts: [Option<Weights>; Variant::ALL.len()],
}

impl Declared {
    /// The parts of a `kind` decision's key under `variant`, if keyed.
    #[inline]
    pub(crate) fn parts(&self, variant: Variant, kind: Decision) -> Option<u32> {
        self.keys[variant as usize][kind as usize]
    }

    /// The weights of its count under `variant`, if it names one.
    pub(crate) fn count(&self, variant: Variant) -> Option<Weights> {
        self.counts[variant as usize]
    }
}

/// Asks a version 4 to 6 module's `pitboss_decision_key` for every rule
/// set and decision kind, and a version 5 or 6 module's `pitboss_count`
/// for every rule set, under the start-up fuel. `Ok(Err(problem))`: an
/// answer the contract refuses (a part that does not exist, or of a later
/// version, a key for `observe`, a key under a rule set where the bot
/// reads events — `wants_events` bit by rule set code — in version 4, in
/// version 5 where its bet is keyed, or where its bet is left to the
/// default (`defaults`), a true count without a count, a count with a bit
/// above bit 39).
pub(crate) fn declared(
    store: &mut Store<StoreState>,
    instance: &Instance,
    version: i32,
    (wants_events, defaults): (u8, &[u32; Variant::ALL.len()]),
) -> Result<Result<Declared, String>, wasmtime::Error> {
    let mut declared = Declared::default();
    if version >= 5
        && let Ok(ask) = instance.get_typed_func::<i32, i64>(&mut *store, COUNT)
    {
        for v in Variant::ALL {
            let packed = ask.call(&mut *store, i32::from(v as u8))?;
            declared.counts[v as usize] = key::unpack_weights(packed);
            if packed != 0 && declared.counts[v as usize].is_none() {
                return Ok(Err(format!("{COUNT}({}) = {packed:#x} sets a bit above bit 39", v as u8)));
            }
        }
    }
    let Ok(ask) = instance.get_typed_func::<(i32, i32), i32>(&mut *store, DECISION_KEY) else {
        return Ok(Ok(declared));
    };
    if version < 4 {
        return Ok(Ok(declared));
    }
    for v in Variant::ALL {
        for kind in Decision::ALL {
            let parts = ask.call(&mut *store, (i32::from(v as u8), i32::from(kind as u8)))?;
            declared.keys[v as usize][kind as usize] = u32::try_from(parts).ok();
            if let Some(problem) = key::problem(kind, parts) {
                return Ok(Err(format!("{DECISION_KEY}({}, {}) = {parts} {problem}", v as u8, kind as u8)));
            }
        }
        if let Some(problem) = keys_problem(&declared, v, version, (wants_events, defaults[v as usize])) {
            return Ok(Err(problem));
        }
    }
    Ok(Ok(declared))
}

/// What is wrong with the keys `declared` names under `v`, if anything:
/// the part "others dealt" before version 6; a key where the bot reads
/// events (`wants_events`, by rule set bit), in version 4 at all, in
/// version 5 with its bet keyed, in any version with its bet left to the
/// default (`defaulted`: its `pitboss_defaults` answer there), so that no
/// question would come every round to bring it the events; or a true
/// count without a count.
fn keys_problem(declared: &Declared, v: Variant, version: i32, (wants_events, defaulted): (u8, u32)) -> Option<String> {
    let keys = &declared.keys[v as usize];
    let (k, parts) = Decision::ALL.iter().zip(keys).find_map(|(&k, p)| Some((k, (*p)?)))?;
    let at = |kind: Decision, parts: u32| format!("{DECISION_KEY}({}, {}) = {parts}", v as u8, kind as u8);
    let others = Decision::ALL.iter().zip(keys).find(|(_, p)| p.is_some_and(|p| p & key::part::OTHERS != 0));
    if version < 6
        && let Some((&kind, &Some(p))) = others
    {
        return Some(format!("{} names others dealt (bit 14), a part of ABI version 6", at(kind, p)));
    }
    if wants_events & (1 << v as u8) != 0 {
        if version < 5 {
            return Some(format!(
                "{} names a key under a rule set where the bot reads events (pitboss_wants_events)",
                at(k, parts)
            ));
        }
        let bet = Decision::Bet;
        if version < 6
            && let Some(p) = keys[bet as usize]
        {
            return Some(format!(
                "{} keys the bet of a bot that reads events: before ABI version 6 its bet must bring them every round",
                at(bet, p)
            ));
        }
        if defaulted & bet.bit() != 0 {
            return Some(format!(
                "{} names a key where the bot reads events and leaves its bet to the default (pitboss_defaults): its bet must bring them every round",
                at(k, parts)
            ));
        }
    }
    let counted = Decision::ALL.iter().zip(keys).find(|(_, p)| p.is_some_and(|p| p & key::part::TRUE_COUNT != 0));
    match counted {
        Some((&kind, &Some(p))) if declared.counts[v as usize].is_none() => {
            Some(format!("{} names the true count, but {COUNT}({}) names no count", at(kind, p), v as u8))
        }
        _ => None,
    }
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
