//! `Player`: what plays at a table — a wasm bot, a native builtin, a test
//! script — and the request it is asked.

use pitboss_sdk::abi::{self, Decision, Header, MAX_EVENTS};
use pitboss_sdk::key::Weights;
use pitboss_sdk::{Card, Event, Strategy, Total, Variant};

/// One question to a player: the decision's context, the current hand and
/// every event it has not seen yet.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The decision and its context.
    pub header: &'a Header,
    /// The current hand's cards (empty when no hand is in play).
    pub hand: &'a [Card],
    /// `hand`'s total (`Total::of(hand)`), as the table keeps it: decision
    /// keys read it instead of counting the hand again.
    pub total: Total,
    /// Events since this player's previous request, oldest first.
    pub events: &'a [Event],
}

impl Request<'_> {
    /// Writes part of this request into `buf`, starting at event `from`.
    /// While more events are pending than one request holds, the part is an
    /// `Observe` request; the last part is the decision itself. Returns the
    /// kind written and the next `from`, or `None` as the next `from` when
    /// the decision was written.
    pub fn encode_part(&self, from: usize, buf: &mut [u8]) -> (Decision, Option<usize>) {
        abi::encode_constant(self.header, buf);
        self.encode_varying_part(from, buf)
    }

    /// [`Request::encode_part`] into a buffer that keeps what it holds
    /// when `keeps` (only its writer touches it): the match's constant
    /// parts ([`abi::encode_constant`]) are written while `*primed` is
    /// false, which this then sets to `keeps`. One `primed` per buffer.
    #[inline]
    pub fn encode_part_primed(
        &self,
        from: usize,
        buf: &mut [u8],
        primed: &mut bool,
        keeps: bool,
    ) -> (Decision, Option<usize>) {
        if !*primed {
            abi::encode_constant(self.header, buf);
            *primed = keeps;
        }
        self.encode_varying_part(from, buf)
    }

    /// [`Request::encode_part`] into a buffer that already holds this
    /// match's constant parts: the rule set and rules block are left as
    /// they are.
    #[inline]
    fn encode_varying_part(&self, from: usize, buf: &mut [u8]) -> (Decision, Option<usize>) {
        let rest = &self.events[from..];
        if rest.len() > MAX_EVENTS {
            let header = Header { kind: Decision::Observe, ..*self.header };
            let n = abi::encode_varying(&header, self.hand, rest, buf);
            (Decision::Observe, Some(from + n))
        } else {
            abi::encode_varying(self.header, self.hand, rest, buf);
            (self.header.kind, None)
        }
    }
}

/// How a player failed to answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// The answer is not legal for the decision (the engine's verdict).
    Illegal,
    /// The bot trapped (unreachable, out of bounds, stack overflow …).
    Trap,
    /// The bot used up its per-decision fuel.
    OutOfFuel,
    /// The bot asked for more memory than allowed.
    Memory,
    /// The call ran past the wall-clock watchdog (a backstop; fuel is the
    /// deterministic limit, so this should not happen).
    Timeout,
    /// The player was disqualified earlier; it is not asked any more.
    Disqualified,
}

impl FaultKind {
    /// Lower-case name used in reports.
    pub const fn name(self) -> &'static str {
        match self {
            FaultKind::Illegal => "illegal",
            FaultKind::Trap => "trap",
            FaultKind::OutOfFuel => "out-of-fuel",
            FaultKind::Memory => "memory",
            FaultKind::Timeout => "timeout",
            FaultKind::Disqualified => "disqualified",
        }
    }
}

/// Most bytes of a fault's [`Fault::log`]: the latest text a player wrote
/// while it failed, whatever it logged before (a cut marked at the start).
pub const FAULT_LOG_BYTES: usize = 4 << 10;

/// A failed decision: its kind, a one-line explanation, and what the
/// player wrote while failing ([`FaultDetail`], whose fields it reads as
/// its own). Boxed: faults are rare, and a pointer keeps every answer
/// (`Result<i64, Fault>`, two registers) and every [`crate::TableEvent`]
/// small on the path of every decision and every event.
#[derive(Clone, PartialEq, Eq)]
pub struct Fault(Box<FaultDetail>);

/// What a [`Fault`] holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultDetail {
    /// What went wrong.
    pub kind: FaultKind,
    /// Details for the bot's author.
    pub message: String,
    /// What the player wrote while making the failing decision (a panic
    /// message, a traceback), at most [`FAULT_LOG_BYTES`]; empty when it
    /// wrote nothing or the engine refused its answer.
    pub log: String,
}

impl Fault {
    /// A fault of `kind` explained by `message`, with no log.
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Fault {
        Fault(Box::new(FaultDetail { kind, message: message.into(), log: String::new() }))
    }
}

impl std::ops::Deref for Fault {
    type Target = FaultDetail;

    fn deref(&self) -> &FaultDetail {
        &self.0
    }
}

impl std::ops::DerefMut for Fault {
    fn deref_mut(&mut self) -> &mut FaultDetail {
        &mut self.0
    }
}

impl std::fmt::Debug for Fault {
    /// As the fields it holds, named `Fault`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let FaultDetail { kind, message, log } = &*self.0;
        f.debug_struct("Fault").field("kind", kind).field("message", message).field("log", log).finish()
    }
}

/// Something that answers requests. The engine validates every answer;
/// a `Fault` (or an illegal answer) gets that decision's safe default.
pub trait Player {
    /// Answers one request (see `sdk/ABI.md` for the meaning of the `i64`).
    fn decide(&mut self, request: &Request<'_>) -> Result<i64, Fault>;

    /// Diagnose the out-of-fuel fault after `skip` others, for a message
    /// that tells an endless loop from an expensive decision (a wasm bot:
    /// `pitboss_host::WasmPlayer::diagnose_fuel`). Only for a table played
    /// again to that fault: afterwards the player may answer otherwise.
    /// Default: nothing (a player without fuel).
    fn diagnose_fuel(&mut self, skip: u32) {
        let _ = skip;
    }

    /// What the player logged (`pitboss.log`) while deciding, since the
    /// last call; `None` when it logged nothing. The table records it as a
    /// [`crate::TableEvent::BotLog`] after each decision. Bounded by the
    /// player (the wasm host caps it per decision and per session).
    fn take_log(&mut self) -> Option<String> {
        None
    }

    /// Whether the player reads events under rule set `variant`; one that
    /// does not is sent none (its requests carry no events), and a table
    /// where no player reads them keeps no event log. Asked once, as the
    /// player sits down. Default: `true`.
    fn wants_events(&self, variant: Variant) -> bool {
        let _ = variant;
        true
    }

    /// The decisions the player leaves to their default answer for good
    /// under rule set `variant`, as `pitboss_defaults` bits (bit `code` of
    /// each [`pitboss_sdk::Decision::DEFAULTABLE`] kind; the table ignores
    /// any other bit). The table never asks it those: it records
    /// [`pitboss_sdk::abi::default_answer`] in its place, and the events the
    /// question would have carried wait for the next one. Asked once, as
    /// the player sits down. Default: none.
    fn defaults(&self, variant: Variant) -> u32 {
        let _ = variant;
        0
    }

    /// The parts of its `kind` decisions' key under rule set `variant`
    /// (ABI version 4, `pitboss_sdk::key::part` bits), if it names one:
    /// its answer depends on nothing else. The table then asks it once per
    /// distinct key a session and answers a repeated key with what it said
    /// ([`crate::answers::Answers`]). Where the player reads events, only
    /// read if its bet is not left to the default (the bet, asked or keyed,
    /// is the question that comes every round: the table tells such a
    /// player its events with its next call, and calls it once
    /// `FLUSH_AT` wait);
    /// a key the contract refuses (`pitboss_sdk::key::problem`), or one
    /// naming the true count without a [`Player::count`], keys nothing.
    /// Asked once per decision kind, as it sits down. Default: none.
    fn decision_key(&self, variant: Variant, kind: Decision) -> Option<u32> {
        let _ = (variant, kind);
        None
    }

    /// The weights of the card count its keys' true count is taken under
    /// (ABI v5's `pitboss_count`, [`pitboss_sdk::key::Weights`]) under rule
    /// set `variant`, if it names one; read only where a key names
    /// [`pitboss_sdk::key::part::TRUE_COUNT`]. Default: none.
    fn count(&self, variant: Variant) -> Option<Weights> {
        let _ = variant;
        None
    }

    /// What its answers have cost since it sat down, for a player that
    /// measures it (a wasm bot: the fuel of its calls); `None` for one
    /// that does not (a native builtin). Read after play, never during:
    /// it decides nothing.
    fn spent(&self) -> Option<Spent> {
        None
    }
}

/// What a player's answers cost ([`Player::spent`]), in the units it
/// measures (a wasm bot's fuel), summed over its calls: the same on every
/// machine, so results may hold it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    /// Decisions it was called for (a repeated key's answer, which the
    /// table keeps, calls nothing).
    pub decisions: u64,
    /// Units spent answering them.
    pub units: u64,
    /// The most one decision spent.
    pub max: u64,
}

impl Spent {
    /// Counts one decision that spent `units`.
    #[inline]
    pub fn add(&mut self, units: u64) {
        self.decisions += 1;
        self.units = self.units.saturating_add(units);
        self.max = self.max.max(units);
    }

    /// Adds `other`'s decisions (another table's, another session's).
    pub fn merge(&mut self, other: &Spent) {
        self.decisions = self.decisions.saturating_add(other.decisions);
        self.units = self.units.saturating_add(other.units);
        self.max = self.max.max(other.max);
    }
}

impl<P: Player + ?Sized> Player for Box<P> {
    fn decide(&mut self, request: &Request<'_>) -> Result<i64, Fault> {
        (**self).decide(request)
    }

    fn take_log(&mut self) -> Option<String> {
        (**self).take_log()
    }

    fn wants_events(&self, variant: Variant) -> bool {
        (**self).wants_events(variant)
    }

    fn defaults(&self, variant: Variant) -> u32 {
        (**self).defaults(variant)
    }

    fn decision_key(&self, variant: Variant, kind: Decision) -> Option<u32> {
        (**self).decision_key(variant, kind)
    }

    fn count(&self, variant: Variant) -> Option<Weights> {
        (**self).count(variant)
    }

    fn spent(&self) -> Option<Spent> {
        (**self).spent()
    }
}

/// A native [`Strategy`] run through the very bytes a wasm bot would get:
/// the request is encoded into a buffer and handed to
/// [`pitboss_sdk::dispatch`], so native and wasm builds decide alike.
///
/// A strategy that names decision keys ([`Strategy::decision_key`]) gives
/// them to the table ([`Player::decision_key`]), which asks it once per
/// key, as it asks a wasm build of it.
pub struct Native<S> {
    asked: Asked<S>,
    /// The parts of each decision's key, by rule set and decision code.
    keys: [[Option<u32>; Decision::ALL.len()]; Variant::ALL.len()],
}

/// A native strategy and the buffer its requests are encoded into.
struct Asked<S> {
    strategy: S,
    buf: Box<[u8; abi::BUFFER_LEN]>,
    /// The buffer holds the match's constant parts (only this player
    /// writes it, and a player plays one match).
    primed: bool,
}

impl<S: Strategy> Native<S> {
    /// Wraps a strategy, handing the table the decision keys it names
    /// (the table honours only those the contract allows:
    /// [`Player::decision_key`]).
    pub fn new(strategy: S) -> Self {
        let mut keys = [[None; Decision::ALL.len()]; Variant::ALL.len()];
        for v in Variant::ALL {
            for kind in Decision::ALL {
                keys[v as usize][kind as usize] = strategy.decision_key(v, kind);
            }
        }
        Native { keys, ..Native::unkeyed(strategy) }
    }

    /// Wraps a strategy that is asked every decision, whatever keys it
    /// names (as a wasm build of it would be without them).
    pub fn unkeyed(strategy: S) -> Self {
        let asked = Asked { strategy, buf: Box::new([0; abi::BUFFER_LEN]), primed: false };
        Native { asked, keys: [[None; Decision::ALL.len()]; Variant::ALL.len()] }
    }
}

impl<S: Strategy> Asked<S> {
    /// Encodes `request` into the buffer (in parts, while more events are
    /// pending than one holds) and asks the strategy.
    fn ask(&mut self, request: &Request<'_>) -> i64 {
        let mut from = 0;
        loop {
            let (_, next) = request.encode_part_primed(from, &mut self.buf[..], &mut self.primed, true);
            let answer = pitboss_sdk::dispatch(&mut self.strategy, &self.buf[..]);
            match next {
                Some(n) => from = n,
                None => return answer,
            }
        }
    }
}

impl<S: Strategy> Player for Native<S> {
    fn wants_events(&self, variant: Variant) -> bool {
        self.asked.strategy.observes(variant)
    }

    fn defaults(&self, variant: Variant) -> u32 {
        pitboss_sdk::defaulted(&self.asked.strategy, variant)
    }

    fn decide(&mut self, request: &Request<'_>) -> Result<i64, Fault> {
        Ok(self.asked.ask(request))
    }

    fn decision_key(&self, variant: Variant, kind: Decision) -> Option<u32> {
        self.keys[variant as usize][kind as usize]
    }

    fn count(&self, variant: Variant) -> Option<Weights> {
        self.asked.strategy.count(variant)
    }
}

/// A player built from a closure over the request, for tests and scripts.
pub struct FnPlayer<F>(pub F);

impl<F: FnMut(&Request<'_>) -> i64> Player for FnPlayer<F> {
    fn decide(&mut self, request: &Request<'_>) -> Result<i64, Fault> {
        Ok((self.0)(request))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use pitboss_sdk::key::part;
    use pitboss_sdk::{Action, Decision, Strategy, Variant, View};

    use super::{Native, Player};
    use crate::{Rules, Shoe, Table};

    /// Hits below 17, stands after, counting the acts it is asked; its act
    /// depends on the legal set and the hand's summary, as it declares.
    struct Seventeen(Arc<AtomicU64>);

    impl Strategy for Seventeen {
        fn observes(&self, _: Variant) -> bool {
            false
        }

        fn decision_key(&self, _: Variant, kind: Decision) -> Option<u32> {
            (kind == Decision::Act).then_some(part::LEGAL | part::SUMMARY)
        }

        fn act(&mut self, view: &View<'_>) -> Action {
            self.0.fetch_add(1, Ordering::Relaxed);
            if view.total().best() < 17 && view.legal().contains(Action::Hit) { Action::Hit } else { Action::Stand }
        }
    }

    #[test]
    fn a_native_strategy_is_asked_once_per_key_and_plays_as_if_asked_every_time() {
        let play = |keyed: bool| {
            let calls = Arc::new(AtomicU64::new(0));
            let strategy = Seventeen(calls.clone());
            let player: Box<dyn Player + Send> =
                if keyed { Box::new(Native::new(strategy)) } else { Box::new(Native::unkeyed(strategy)) };
            let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 3), vec![player], 100_000).unwrap();
            for _ in 0..3_000 {
                table.play_round(&mut ()).unwrap();
            }
            (table.players()[0].stats, table.players()[0].balance, calls.load(Ordering::Relaxed))
        };
        let (keyed, unkeyed) = (play(true), play(false));
        assert_eq!((keyed.0, keyed.1), (unkeyed.0, unkeyed.1), "the same play, to the chip");
        assert!(unkeyed.2 > 3_000, "asked every act: {}", unkeyed.2);
        assert!(keyed.2 < 100, "asked once per key: {} of {}", keyed.2, unkeyed.2);
    }
}

#[cfg(test)]
mod sizes {
    use super::Fault;
    use crate::TableEvent;

    #[test]
    fn an_answer_and_an_event_stay_small() {
        // Two registers: the answer, or the fault's box.
        assert_eq!(size_of::<Result<i64, Fault>>(), 16);
        assert!(size_of::<TableEvent>() <= 40, "{}", size_of::<TableEvent>());
    }
}
