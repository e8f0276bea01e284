//! `WasmPlayer`: one bot instance answering requests — one host→wasm call
//! per decision, with the request written straight into the bot's buffer.

use pitboss_engine::{Fault, FaultKind, Player, Request, Spent};
use pitboss_sdk::abi::BUFFER_LEN;
use std::sync::{Arc, Mutex};

use pitboss_sdk::{Decision, Variant};
use wasmtime::{Instance, Memory, Store, Trap, TypedFunc};

use crate::keys::Declared;
use crate::limits::Raisable;
use crate::load::{BotModule, LoadError, Started, trap_text};
use crate::store::{CapHit, StoreState};

/// A live bot instance. After a trap it is replaced by a fresh instance of
/// the same module (the bot loses its memory, as after a crash).
pub struct WasmPlayer {
    module: BotModule,
    store: Store<StoreState>,
    instance: Instance,
    memory: Memory,
    decide: TypedFunc<i32, i64>,
    buffer: usize,
    fuel: u64,
    deadline: u64,
    profile: Option<Arc<Mutex<FuelProfile>>>,
    /// The fuel of its decisions so far, this instance's and those of the
    /// instances it replaced ([`Player::spent`]); start-up is not counted.
    spent: Spent,
    /// The log of a decision that trapped, kept across the restart.
    trapped_log: Option<String>,
    /// The module imports the WASI clock, so each call's fuel use is
    /// counted into it; every other bot skips that on this hot path.
    reads_clock: bool,
    /// Bit `v`: reads events under rule set code `v` (ABI v2).
    wants_events: u8,
    /// ABI v2: the buffer keeps what the host wrote, so a match's constant
    /// parts are written once (`primed`; a restarted instance starts
    /// unprimed).
    keeps_buffer: bool,
    primed: bool,
    /// Bits of the decisions it leaves to their default, by rule set code
    /// (ABI v3).
    defaults: [u32; Variant::ALL.len()],
    /// ABI v4: the parts of each decision's key (the table keeps the
    /// answers given to them).
    keys: Declared,
    /// The ABI version the module speaks.
    abi_version: u32,
    /// Diagnosing its fuel faults ([`WasmPlayer::diagnose_fuel`]): how many
    /// out-of-fuel decisions to let pass before the one diagnosed.
    diagnose: Option<u32>,
}

/// How many times its cap a decision that ran out of fuel is given when
/// it is diagnosed ([`WasmPlayer::diagnose_fuel`]), up to
/// [`DIAGNOSIS_CEILING`].
pub const DIAGNOSIS_FACTOR: u64 = 16;

/// The most fuel a diagnosis gives a decision, whatever the cap (about
/// 4 seconds of a bot's work): a cap at or above it is not diagnosed.
pub const DIAGNOSIS_CEILING: u64 = 4_000_000_000;

/// The most wall-clock time a diagnosed decision is given, in ms.
const DIAGNOSIS_WALL_MS: u64 = 60_000;

/// Fuel and time used per decision, by decision kind — what `pitboss
/// check` reports. Only collected when asked for ([`WasmPlayer::profile`]).
#[derive(Clone, Debug, Default)]
pub struct FuelProfile {
    /// Fuel used by each call, indexed by decision kind code.
    pub used: [Vec<u64>; Decision::ALL.len()],
    /// Wall-clock nanoseconds of each call, indexed the same way: for
    /// organisers choosing limits, never for results (it differs run to
    /// run; fuel does not).
    pub nanos: [Vec<u64>; Decision::ALL.len()],
}

impl BotModule {
    /// A fresh instance with its own store, memory and fuel, its WASI
    /// `random_get` stream seeded with 0 ([`BotModule::instantiate_seeded`]).
    pub fn instantiate(&self) -> Result<WasmPlayer, LoadError> {
        self.instantiate_seeded(0)
    }

    /// A fresh instance whose WASI `random_get` stream is keyed by `seed`
    /// and the module's SHA-256: the same seed and module give the same
    /// bytes on every machine. Reactors (modules exporting `_initialize`)
    /// are initialised here, under the start-up fuel; `_start` is never
    /// called.
    pub fn instantiate_seeded(&self, seed: u64) -> Result<WasmPlayer, LoadError> {
        Ok(WasmPlayer::new(self.clone(), self.start(seed)?))
    }
}

impl WasmPlayer {
    fn new(module: BotModule, started: Started) -> Self {
        let Started { store, instance, memory, decide, buffer, reads_clock, wants_events, defaults, keys, abi_version } =
            started;
        let limits = store.data().limits;
        let (fuel, deadline) = (limits.fuel_per_decision, limits.deadline_ticks());
        WasmPlayer {
            module,
            store,
            instance,
            memory,
            decide,
            buffer,
            fuel,
            deadline,
            profile: None,
            spent: Spent::default(),
            trapped_log: None,
            reads_clock,
            wants_events,
            // ABI v2's promise: the bot never writes its buffer.
            keeps_buffer: abi_version >= 2,
            primed: false,
            defaults,
            keys,
            abi_version,
            diagnose: None,
        }
    }

    /// Diagnoses the fuel fault after `skip` others: that decision is given
    /// [`DIAGNOSIS_FACTOR`] times its cap (at most [`DIAGNOSIS_CEILING`])
    /// and, whatever it does with it, still faults as out of fuel, its
    /// message saying whether it returned with the larger budget (the fuel
    /// it needed: an expensive decision) or not (an endless loop?; for a
    /// Python bot, the line it was at). Every decision before it plays as
    /// it would have: one that stays under the cap does not see its budget.
    /// The bot's state after the diagnosed decision (its clock, its random
    /// stream) may differ from a plain run's, so only one fault is
    /// diagnosed; replay the table to it, then take its message.
    pub fn diagnose_fuel(&mut self, skip: u32) {
        self.diagnose = Some(skip);
    }

    /// The bot ABI version the module speaks.
    pub fn abi_version(&self) -> u32 {
        self.abi_version
    }

    /// Starts recording the fuel each call uses; the handle reads it.
    pub fn profile(&mut self) -> Arc<Mutex<FuelProfile>> {
        let profile = Arc::new(Mutex::new(FuelProfile::default()));
        self.profile = Some(profile.clone());
        profile
    }

    fn classify(&self, e: &wasmtime::Error) -> Fault {
        let state = self.store.data();
        let limits = state.limits;
        if let (Some(CapHit::Memory(..)), Some(text)) = (state.cap_hit, state.cap_text()) {
            return Fault::new(FaultKind::Memory, text);
        }
        let (kind, cap) = match e.downcast_ref::<Trap>() {
            Some(Trap::OutOfFuel) => (
                FaultKind::OutOfFuel,
                format!(
                    "fuel cap: {} per decision; {}",
                    limits.fuel_per_decision,
                    Raisable::FuelPerDecision.how_to_raise()
                ),
            ),
            Some(Trap::Interrupt) => (
                FaultKind::Timeout,
                format!("wall-clock cap: {} ms per call; {}", limits.wall_ms, Raisable::WallMs.how_to_raise()),
            ),
            Some(Trap::StackOverflow) => {
                (FaultKind::Trap, format!("stack cap: {} KiB, the same for every bot", limits.stack_bytes >> 10))
            }
            _ => return Fault::new(FaultKind::Trap, trap_text(e)),
        };
        Fault::new(kind, format!("{} ({cap})", trap_text(e)))
    }

    /// Replaces this instance with a fresh one after a trap: one with a
    /// start-up snapshot is given it again in place (the clock and random
    /// stream go on), unless its memory has grown. If even that fails, the
    /// old (poisoned) instance stays and keeps faulting.
    fn restart(&mut self) {
        if let Some(snapshot) = self.module.snapshot_state()
            && snapshot.reset(&mut self.store, &self.instance) == Ok(true)
        {
            self.primed = false;
            return;
        }
        if let Ok(mut fresh) = self.module.instantiate() {
            fresh.profile = self.profile.take();
            fresh.spent = self.spent;
            // Nor can it rewind its clock or replay its random bytes.
            let left = crate::wasi::fuel_left(&self.store);
            let old = self.store.data().wasi;
            fresh.store.data_mut().wasi.carry(&old, left);
            fresh.trapped_log = self.trapped_log.take();
            fresh.diagnose = self.diagnose;
            *self = fresh;
        }
    }
}

impl Player for WasmPlayer {
    fn wants_events(&self, variant: Variant) -> bool {
        self.wants_events & (1 << variant as u8) != 0
    }

    fn defaults(&self, variant: Variant) -> u32 {
        self.defaults[variant as usize]
    }

    #[inline]
    fn take_log(&mut self) -> Option<String> {
        // Asked after every decision, and almost no bot logs: two reads.
        if self.trapped_log.is_none() && self.store.data().log.is_empty() {
            return None;
        }
        self.trapped_log.take().or_else(|| self.store.data_mut().log.take())
    }

    fn decide(&mut self, request: &Request<'_>) -> Result<i64, Fault> {
        self.call(request)
    }

    fn decision_key(&self, variant: Variant, kind: Decision) -> Option<u32> {
        self.keys.parts(variant, kind)
    }

    fn diagnose_fuel(&mut self, skip: u32) {
        WasmPlayer::diagnose_fuel(self, skip);
    }

    fn count(&self, variant: Variant) -> Option<pitboss_sdk::key::Weights> {
        self.keys.count(variant)
    }

    fn spent(&self) -> Option<Spent> {
        Some(self.spent)
    }
}

impl WasmPlayer {
    /// Asks the bot: writes the request into its buffer (in parts, while
    /// more events are pending than one holds) and calls it.
    fn call(&mut self, request: &Request<'_>) -> Result<i64, Fault> {
        let (mut from, mut used) = (0, 0u64);
        loop {
            // Memory never shrinks, so the buffer checked at start-up is
            // still in bounds; `get_mut` keeps that a checked claim.
            let data = self.memory.data_mut(&mut self.store);
            let Some(buf) = data.get_mut(self.buffer..self.buffer + BUFFER_LEN) else {
                return Err(Fault::new(FaultKind::Trap, "exchange buffer out of bounds"));
            };
            let (kind, next) = request.encode_part_primed(from, buf, &mut self.primed, self.keeps_buffer);
            // Diagnosing: this part may run past the cap (a part that stays
            // under it is played as it would have been).
            let given = if self.diagnose == Some(0) { self.diagnosis_fuel() } else { self.fuel };
            let fueled =
                if self.reads_clock { crate::wasi::refuel(&mut self.store, given) } else { self.store.set_fuel(given) };
            fueled.expect("fuel is enabled in every sandbox");
            self.store.set_epoch_deadline(if given == self.fuel { self.deadline } else { self.diagnosis_ticks() });
            // The clock is read only for a profile (`pitboss check`), and
            // never decides anything: fuel does.
            let start = self.profile.as_ref().map(|_| std::time::Instant::now());
            let result = self.decide.call(&mut self.store, kind as i32);
            // A part's fuel: what it was given less what is left (all of
            // it when the cap was hit); the parts of one decision are one
            // cost.
            let part = given.saturating_sub(self.store.get_fuel().unwrap_or(0));
            used = used.saturating_add(part);
            if let (Some(profile), Some(start)) = (&self.profile, start) {
                let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
                let mut profile = profile.lock().expect("profile lock");
                profile.used[kind as usize].push(part);
                profile.nanos[kind as usize].push(nanos);
            }
            if given != self.fuel {
                let used = given - self.store.get_fuel().unwrap_or(0);
                let out_of_fuel = matches!(&result, Err(e) if e.downcast_ref::<Trap>() == Some(&Trap::OutOfFuel));
                if used > self.fuel || out_of_fuel {
                    return Err(self.diagnosed(result.err(), used, given));
                }
            }
            match result {
                Ok(answer) => match next {
                    Some(n) => from = n,
                    None => {
                        self.spent.add(used);
                        return Ok(answer);
                    }
                },
                Err(e) => {
                    self.spent.add(used);
                    return Err(self.trapped(&e));
                }
            }
        }
    }
}

impl WasmPlayer {
    /// The fault a trap (or a cap hit) stands for; the instance is
    /// replaced by a fresh one. Off the per-decision path.
    #[cold]
    #[inline(never)]
    fn trapped(&mut self, e: &wasmtime::Error) -> Fault {
        let mut fault = self.classify(e);
        if let (FaultKind::OutOfFuel, Some(skip @ 1..)) = (fault.kind, self.diagnose) {
            self.diagnose = Some(skip - 1);
        }
        let (log, text) = self.store.data_mut().log.take_both();
        // What the bot wrote while failing says more than "unreachable
        // executed": a Rust panic, a Python exception, a C assertion.
        fault.message = crate::botlog::with_cause(std::mem::take(&mut fault.message), &text);
        self.trapped_log = (!text.is_empty()).then_some(log);
        fault.log = text;
        self.restart();
        fault
    }
}

impl WasmPlayer {
    /// The fuel a diagnosed decision is given: [`DIAGNOSIS_FACTOR`] times
    /// the cap, at most [`DIAGNOSIS_CEILING`] (the cap itself when it is
    /// that high already: nothing is diagnosed).
    fn diagnosis_fuel(&self) -> u64 {
        self.fuel.saturating_mul(DIAGNOSIS_FACTOR).min(DIAGNOSIS_CEILING).max(self.fuel)
    }

    /// The watchdog's deadline of a diagnosed decision: its wall-clock cap
    /// as many times longer as its fuel, at most a minute.
    fn diagnosis_ticks(&self) -> u64 {
        let limits = self.store.data().limits;
        let factor = self.diagnosis_fuel().div_ceil(self.fuel.max(1));
        let ms = limits.wall_ms.saturating_mul(factor).min(DIAGNOSIS_WALL_MS.max(limits.wall_ms));
        ms.div_ceil(crate::limits::TICK_MS).max(1)
    }

    /// The out-of-fuel fault of the diagnosed decision, which used `used`
    /// of the `given` fuel (past its cap) and then returned (`trap` none),
    /// trapped, or ran out again. The bot is restarted, as after any fault,
    /// and nothing more is diagnosed.
    #[cold]
    #[inline(never)]
    fn diagnosed(&mut self, trap: Option<wasmtime::Error>, used: u64, given: u64) -> Fault {
        let cap = self.fuel;
        let limits = self.store.data().limits;
        let raise = Raisable::FuelPerDecision.how_to_raise();
        let times = given / cap.max(1);
        let message = match &trap {
            None => format!(
                "needs about {used} fuel, over the cap of {cap} per decision: make the decision cheaper (the cap: {raise})"
            ),
            Some(e) if e.downcast_ref::<Trap>() == Some(&Trap::OutOfFuel) => {
                let line = self.python_line().map(|l| format!(" (Python was at bot.py line {l})")).unwrap_or_default();
                format!(
                    "never returned, even with {times}× the fuel ({given}): an endless loop?{line} (fuel cap: {cap} per decision)"
                )
            }
            Some(e) if e.downcast_ref::<Trap>() == Some(&Trap::Interrupt) => format!(
                "never returned, even in {times}× the wall-clock cap ({} ms): an endless loop? (fuel cap: {cap} per decision)",
                limits.wall_ms.saturating_mul(times).min(DIAGNOSIS_WALL_MS.max(limits.wall_ms))
            ),
            Some(e) => format!(
                "needs more than the cap of {cap} fuel per decision (given more, it went on to fail: {}): make the decision cheaper (the cap: {raise})",
                trap_text(e)
            ),
        };
        // What it wrote is the diagnosis run's, not the fault's.
        drop(self.store.data_mut().log.take_both());
        self.diagnose = None;
        self.restart();
        Fault::new(FaultKind::OutOfFuel, message)
    }

    /// Where the Python runtime's interpreter was in the bot's source
    /// when the diagnosed decision ran out of fuel (its export
    /// `pitboss_where`, called with a little fuel); `None` for any other
    /// bot, or when it cannot tell.
    fn python_line(&mut self) -> Option<u32> {
        let f = self.instance.get_typed_func::<(), i32>(&mut self.store, "pitboss_where").ok()?;
        self.store.set_fuel(WHERE_FUEL).ok()?;
        self.store.set_epoch_deadline(self.deadline);
        let line = f.call(&mut self.store, ()).ok()?;
        u32::try_from(line).ok().filter(|&l| l > 0)
    }
}

/// Fuel for the Python runtime's `pitboss_where`: it walks the frames.
const WHERE_FUEL: u64 = 10_000_000;
