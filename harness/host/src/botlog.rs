//! `pitboss.log(ptr, len)`: a bot's debug text, kept within caps and paid
//! for in fuel, so logging can neither flood memory or disk nor run for
//! free. What is kept reaches the engine through `Player::take_log` after
//! each decision, and from there transcripts, replays, `check` and the
//! report's hand viewer.

use wasmtime::{Caller, Trap};

/// Bytes of log kept per decision; the rest of that decision's text is
/// dropped and the cut marked.
pub const LOG_PER_DECISION: usize = 1024;
/// Bytes of log kept per bot per table (a session's table): past this
/// nothing more is kept, and the cut is marked once.
pub const LOG_PER_TABLE: usize = 64 << 10;
/// Fuel one `pitboss.log` call costs, plus one per byte asked for (kept
/// or not), so a loop of calls runs out of fuel like any other loop.
pub const LOG_FUEL_PER_CALL: u64 = 100;

/// One instance's log: this decision's text, and how much the table has
/// kept so far.
#[derive(Debug, Default)]
pub(crate) struct BotLog {
    decision: Vec<u8>,
    /// Bytes kept since the table started (carried across restarts).
    pub(crate) kept: usize,
    cut: bool,
}

impl BotLog {
    /// This decision's text, if it logged anything; clears it.
    #[inline]
    pub(crate) fn take(&mut self) -> Option<String> {
        // Asked after every decision; almost every bot logs nothing.
        if self.decision.is_empty() && !self.cut {
            return None;
        }
        self.take_text()
    }

    #[cold]
    #[inline(never)]
    fn take_text(&mut self) -> Option<String> {
        let mut text = String::from_utf8_lossy(&std::mem::take(&mut self.decision)).into_owned();
        if std::mem::take(&mut self.cut) {
            text.push_str(if self.kept >= LOG_PER_TABLE {
                " [log cut: 64 KiB a table kept]"
            } else {
                " [log cut: 1 KiB a decision kept]"
            });
        }
        Some(text)
    }
}

/// Store data that holds a [`BotLog`]: what the host functions here (and
/// WASI's) write a bot's log into. The store's `StoreState` is the one.
pub(crate) trait HasLog: 'static {
    /// The instance's log.
    fn log(&self) -> &BotLog;
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
/// this decision's log, as far as the caps allow; text outside memory is
/// noted instead. The one way into a bot's log: `pitboss.log` and WASI's
/// `fd_write` both come here, already paid for.
pub(crate) fn append<T: HasLog>(caller: &mut Caller<'_, T>, spans: &[(u32, u32)]) {
    let memory = caller.get_export("memory").and_then(|e| e.into_memory());
    for &(ptr, len) in spans {
        let state = caller.data().log();
        let room = LOG_PER_DECISION.saturating_sub(state.decision.len()).min(LOG_PER_TABLE.saturating_sub(state.kept));
        let wanted = len as usize;
        let take = wanted.min(room);
        let mut bytes = vec![0u8; take];
        let read = match memory {
            Some(memory) => memory.read(&*caller, ptr as usize, &mut bytes).is_ok(),
            None => false,
        };
        let log = caller.data_mut().log_mut();
        if !read {
            let note = b"[log: text outside memory]";
            let n = note.len().min(room);
            log.decision.extend_from_slice(&note[..n]);
            log.kept += n;
            return;
        }
        log.decision.extend_from_slice(&bytes);
        log.kept += take;
        log.cut |= take < wanted;
    }
}
