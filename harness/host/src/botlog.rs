//! `pitboss.log(ptr, len)`: a bot's debug text, kept within caps and paid
//! for in fuel, so logging can neither flood memory or disk nor run for
//! free. What is kept reaches the engine through `Player::take_log` after
//! each decision, and from there transcripts, replays, `check` and the
//! report's hand viewer; what a bot wrote while it failed also reaches its
//! fault ([`cause`] finds the line that says why).
//!
//! Each decision keeps the *latest* text it wrote (a ring), never a prefix
//! counted from the table's start: a bot that logs every decision still
//! shows the lines of round 3,000, and its panic after them.

use pitboss_engine::FAULT_LOG_BYTES;
use wasmtime::{Caller, Trap};

/// Bytes of log kept per decision: the latest the decision wrote; the cut
/// before them is marked.
pub const LOG_PER_DECISION: usize = 1024;
/// Fuel one `pitboss.log` call costs, plus one per byte asked for (kept
/// or not), so a loop of calls runs out of fuel like any other loop.
pub const LOG_FUEL_PER_CALL: u64 = 100;

/// What marks a decision's log whose start was dropped.
const DECISION_CUT: &str = "[log cut: the latest 1 KiB of the decision kept] ";
/// What marks a failing decision's text whose start was dropped.
const FAULT_CUT: &str = "[log cut: the latest 4 KiB kept] ";

/// One instance's log: the latest text of the decision under way (up to
/// [`FAULT_LOG_BYTES`], so a fault gets more of it than the log does).
#[derive(Clone, Debug, Default)]
pub(crate) struct BotLog {
    /// The latest bytes this decision wrote.
    call: Vec<u8>,
    /// Whether it wrote more than `call` holds.
    dropped: bool,
}

impl BotLog {
    /// Nothing written since the last [`BotLog::take`].
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.call.is_empty()
    }

    /// This decision's text, if it logged anything: its latest
    /// [`LOG_PER_DECISION`] bytes. Clears it. Only once [`BotLog::is_empty`]
    /// says there is text: out of line.
    #[inline(never)]
    pub(crate) fn take(&mut self) -> Option<String> {
        // Asked after every decision; almost every bot logs nothing.
        if self.call.is_empty() {
            return None;
        }
        let (bytes, dropped) = self.take_raw();
        Some(marked(&String::from_utf8_lossy(&bytes), dropped, LOG_PER_DECISION, DECISION_CUT))
    }

    /// This decision's log ([`BotLog::take`]'s text) and the text for its
    /// fault: the latest [`FAULT_LOG_BYTES`] it wrote. Clears both.
    #[cold]
    #[inline(never)]
    pub(crate) fn take_both(&mut self) -> (String, String) {
        let (bytes, dropped) = self.take_raw();
        let text = String::from_utf8_lossy(&bytes);
        (marked(&text, dropped, LOG_PER_DECISION, DECISION_CUT), marked(&text, dropped, FAULT_LOG_BYTES, FAULT_CUT))
    }

    /// This decision's bytes and whether some were dropped; clears them.
    fn take_raw(&mut self) -> (Vec<u8>, bool) {
        (std::mem::take(&mut self.call), std::mem::take(&mut self.dropped))
    }
}

/// The latest at most `max` bytes of `text`, `mark` in front where its
/// start was dropped (`dropped`: before it reached the log).
fn marked(text: &str, dropped: bool, max: usize, mark: &str) -> String {
    let kept = latest(text, max - mark.len());
    if dropped || kept.len() < text.len() { format!("{mark}{kept}") } else { kept.to_string() }
}

/// The last at most `max` bytes of `text`, starting on a line when a line
/// starts in the last quarter cut, else on a character.
fn latest(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut at = text.len() - max;
    while !text.is_char_boundary(at) {
        at += 1;
    }
    let tail = &text[at..];
    match tail.find('\n') {
        Some(nl) if nl < max / 4 => &tail[nl + 1..],
        _ => tail,
    }
}

/// Why a bot failed, read from what it wrote while failing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// A line that says why: a Rust panic (`panicked at FILE:LINE: …`), a
    /// Python exception (`KeyError: 20`), a Go `panic: …`.
    Named(String),
    /// The last line it wrote, which may or may not say why (a C
    /// `assert`'s message, a `fprintf(stderr, …)` before `abort`).
    LastLine(String),
}

/// The cause a failing decision's `text` gives, if it wrote anything; one
/// short line.
pub(crate) fn cause(text: &str) -> Option<Cause> {
    let short = |line: &str| crate::text::excerpt(line.trim(), 300);
    if let Some(at) = text.rfind("panicked at ") {
        // std's hook ends the place with ':' and puts the message on the
        // next line; the SDK's handler writes both on one.
        let mut lines = text[at..].lines();
        let first = lines.next().unwrap_or_default();
        let line = match (first.ends_with(':'), lines.next()) {
            (true, Some(message)) => format!("{first} {message}"),
            _ => first.to_string(),
        };
        return Some(Cause::Named(short(&line)));
    }
    if let Some(at) = text.rfind("Traceback (most recent call last):") {
        // The exception is the last line of the traceback not indented
        // (the shim's own "pitboss: …" line follows it).
        let exception = text[at..]
            .lines()
            .skip(1)
            .filter(|l| !l.is_empty() && !l.starts_with(char::is_whitespace) && !l.starts_with("pitboss: "))
            .last();
        if let Some(line) = exception {
            return Some(Cause::Named(short(line)));
        }
    }
    if let Some(line) = text.lines().rev().find(|l| l.starts_with("panic: ")) {
        return Some(Cause::Named(short(line)));
    }
    // A line with no letter or digit (a flood of zero bytes) says nothing.
    let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
    last.chars().any(char::is_alphanumeric).then(|| Cause::LastLine(short(last)))
}

/// `message` (a trap's) with the cause `text` (what the bot wrote while
/// failing) gives, if any.
pub(crate) fn with_cause(message: String, text: &str) -> String {
    match cause(text) {
        Some(Cause::Named(why)) => format!("{why} ({message})"),
        Some(Cause::LastLine(line)) => format!("{message}; it last wrote: {line}"),
        None => message,
    }
}

/// Store data that holds a [`BotLog`]: what the host functions here (and
/// WASI's) write a bot's log into. The store's `StoreState` is the one.
pub(crate) trait HasLog: 'static {
    /// The instance's log, to write.
    fn log_mut(&mut self) -> &mut BotLog;
}

/// The host side of `pitboss.log`.
pub(crate) fn log<T: HasLog>(mut caller: Caller<'_, T>, ptr: i32, len: i32) -> wasmtime::Result<()> {
    let len = len.max(0) as u32;
    charge(&mut caller, LOG_FUEL_PER_CALL + u64::from(len))?;
    append(&mut caller, &[(ptr as u32, len)]);
    Ok(())
}

/// Takes `cost` fuel from the running call, or traps out of fuel (having
/// spent what was left) when it has less.
pub(crate) fn charge<T: HasLog>(caller: &mut Caller<'_, T>, cost: u64) -> wasmtime::Result<()> {
    let fuel = caller.get_fuel()?;
    if fuel < cost {
        caller.set_fuel(0)?;
        return Err(Trap::OutOfFuel.into());
    }
    caller.set_fuel(fuel - cost)?;
    Ok(())
}

/// Appends the bytes of `spans` (pointer, length) of the bot's memory to
/// this decision's log, keeping its latest [`FAULT_LOG_BYTES`]; text
/// outside memory is noted instead. The one way into a bot's log:
/// `pitboss.log` and WASI's `fd_write` both come here, already paid for.
pub(crate) fn append<T: HasLog>(caller: &mut Caller<'_, T>, spans: &[(u32, u32)]) {
    let memory = caller.get_export("memory").and_then(|e| e.into_memory());
    for &(ptr, len) in spans {
        // Only the end of a long span can be kept.
        let take = (len as usize).min(FAULT_LOG_BYTES);
        let from = u64::from(ptr) + u64::from(len) - take as u64;
        let Some(memory) = memory else { return note_outside(caller.data_mut().log_mut()) };
        let (data, state) = memory.data_and_store_mut(&mut *caller);
        let log = state.log_mut();
        let Some(bytes) = usize::try_from(from).ok().and_then(|at| data.get(at..at.checked_add(take)?)) else {
            return note_outside(log);
        };
        log.dropped |= take < len as usize;
        log.call.extend_from_slice(bytes);
        log.keep_latest();
    }
}

/// Notes text the bot pointed outside its memory.
fn note_outside(log: &mut BotLog) {
    log.call.extend_from_slice(b"[log: text outside memory]\n");
    log.keep_latest();
}

impl BotLog {
    /// Drops all but the latest [`FAULT_LOG_BYTES`] of this decision's text.
    fn keep_latest(&mut self) {
        if let Some(extra) = self.call.len().checked_sub(FAULT_LOG_BYTES).filter(|&n| n > 0) {
            self.call.drain(..extra);
            self.dropped = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_of(text: &[u8], dropped: bool) -> BotLog {
        BotLog { call: text.to_vec(), dropped }
    }

    #[test]
    fn a_decision_keeps_its_latest_text_and_marks_the_cut() {
        let mut long = Vec::new();
        for i in 0..1000 {
            long.extend_from_slice(format!("line {i}\n").as_bytes());
        }
        let mut log = log_of(&long, false);
        log.keep_latest();
        let (decision, fault) = log.take_both();
        assert!(decision.starts_with(DECISION_CUT) && decision.ends_with("line 999\n"), "{decision}");
        assert!(decision.len() <= LOG_PER_DECISION, "{}", decision.len());
        assert!(decision[DECISION_CUT.len()..].starts_with("line "), "cut at a line: {decision}");
        assert!(fault.starts_with(FAULT_CUT) && fault.ends_with("line 999\n") && fault.len() <= FAULT_LOG_BYTES);
        assert!(fault.len() > 3 * LOG_PER_DECISION, "a fault keeps more than a decision's log");
        assert_eq!(log.take(), None, "taken");

        let (short, same) = log_of(b"hi\n", false).take_both();
        assert_eq!((short.as_str(), same.as_str()), ("hi\n", "hi\n"));
        let (cut, _) = log_of(b"hi\n", true).take_both();
        assert_eq!(cut, format!("{DECISION_CUT}hi\n"));
    }

    #[test]
    fn the_cause_is_the_panic_the_exception_or_the_last_line() {
        let named = |s: &str| Some(Cause::Named(s.to_string()));
        let sdk = "thinking\npanicked at src/lib.rs:12: index out of bounds\n";
        assert_eq!(cause(sdk), named("panicked at src/lib.rs:12: index out of bounds"));
        let std = "thread '<unnamed>' panicked at src/lib.rs:5:9:\nboom\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(cause(std), named("panicked at src/lib.rs:5:9: boom"));
        let python = "round 1\nTraceback (most recent call last):\n  File \"bot.py\", line 3, in act\n    return T[t]\n           ~^^^\nKeyError: 20\npitboss: the bot raised an exception\n";
        assert_eq!(cause(python), named("KeyError: 20"));
        let go = "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.act()\n";
        assert_eq!(cause(go), named("panic: runtime error: index out of range [5] with length 3"));
        let c = "deciding\nAssertion failed: total <= 21 (bot.c: act: 30)\n\n";
        assert_eq!(cause(c), Some(Cause::LastLine("Assertion failed: total <= 21 (bot.c: act: 30)".into())));
        assert_eq!(cause(" \n"), None);
        assert_eq!(cause("\0\0\0"), None);
        assert_eq!(cause(""), None);
    }
}
