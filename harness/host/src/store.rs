//! A bot instance's store data ([`StoreState`]): the resource limiter that
//! enforces the memory and table caps for a whole instance, and the log
//! and WASI state the host functions work on.

use crate::botlog::{BotLog, HasLog};
use crate::limits::Limits;
use crate::wasi::{HasWasi, WasiState};

/// Which cap a store hit, so a trap can be reported as that cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CapHit {
    /// Memory: the bytes it had, and all it would have had after the
    /// growth.
    Memory(usize, usize),
    /// Tables: the elements all tables would hold.
    Table(usize),
}

/// Store data: the limiter. It counts every memory and table of the
/// instance together, and remembers which cap it refused.
pub(crate) struct StoreState {
    pub(crate) limits: Limits,
    pub(crate) memory_total: usize,
    pub(crate) table_total: usize,
    pub(crate) cap_hit: Option<CapHit>,
    pub(crate) log: BotLog,
    pub(crate) wasi: WasiState,
    /// The writes to the memory since its start-up snapshot was given it
    /// (in place or anew), where the kernel tracks them.
    pub(crate) written: Option<crate::written::Tracker>,
}

impl StoreState {
    pub(crate) fn new(limits: Limits, wasi: WasiState) -> StoreState {
        StoreState {
            limits,
            memory_total: 0,
            table_total: 0,
            cap_hit: None,
            log: Default::default(),
            wasi,
            written: None,
        }
    }

    /// One line saying which cap was hit, if one was.
    pub(crate) fn cap_text(&self) -> Option<String> {
        self.cap_hit.map(|hit| match hit {
            // The allocator, not the program, asks for memory: what it
            // already holds (a growing `Vec`'s old buffer included) stays,
            // and it asks for more than one allocation needs.
            CapHit::Memory(had, asked) => format!(
                "memory cap hit: the bot's memory was {} KiB and it asked to grow by {} KiB, to {} KiB; the cap is {} KiB for all of it (in a program, its allocator asks: the heap so far, a growing buffer's old copy and the allocator's rounding up all count): {}",
                had.div_ceil(1024),
                asked.saturating_sub(had).div_ceil(1024),
                asked.div_ceil(1024),
                self.limits.memory_bytes >> 10,
                crate::limits::Raisable::MemoryMib.how_to_raise()
            ),
            CapHit::Table(asked) => {
                format!(
                    "table cap hit: the bot asked for {asked} table elements; the cap is {}, the same for every bot",
                    self.limits.table_elements
                )
            }
        })
    }
}

impl wasmtime::ResourceLimiter for StoreState {
    fn memory_growing(&mut self, current: usize, desired: usize, _max: Option<usize>) -> wasmtime::Result<bool> {
        let total = (self.memory_total - current.min(self.memory_total)).saturating_add(desired);
        if total > self.limits.memory_bytes {
            self.cap_hit = Some(CapHit::Memory(self.memory_total, total));
            return Err(wasmtime::Error::msg(self.cap_text().unwrap_or_default()));
        }
        self.memory_total = total;
        Ok(true)
    }

    fn table_growing(&mut self, current: usize, desired: usize, _max: Option<usize>) -> wasmtime::Result<bool> {
        let total = (self.table_total - current.min(self.table_total)).saturating_add(desired);
        if total > self.limits.table_elements {
            // A refused `table.grow` returns -1 and the bot goes on; only a
            // table refused at instantiation is worth naming.
            if current == 0 {
                self.cap_hit = Some(CapHit::Table(total));
            }
            return Ok(false);
        }
        self.table_total = total;
        Ok(true)
    }

    fn memories(&self) -> usize {
        1
    }
}

impl HasLog for StoreState {
    fn log_mut(&mut self) -> &mut BotLog {
        &mut self.log
    }
}

impl HasWasi for StoreState {
    fn wasi(&self) -> &WasiState {
        &self.wasi
    }

    fn wasi_mut(&mut self) -> &mut WasiState {
        &mut self.wasi
    }
}
