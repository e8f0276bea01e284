//! Per-bot resource limits: what a league may set, and the watchdog's
//! tick they are counted in. `store` enforces them.

/// Milliseconds per epoch tick of the wall-clock watchdog.
pub(crate) const TICK_MS: u64 = 10;

/// What one bot instance may use, and how large a module may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Fuel (roughly, wasm instructions) for one decision. Deterministic:
    /// a replay runs out at the same instruction.
    pub fuel_per_decision: u64,
    /// Fuel for instantiation and the start-up calls.
    pub fuel_for_startup: u64,
    /// Linear memory cap in bytes. A bot has exactly one memory, so this
    /// bounds all of its memory.
    pub memory_bytes: usize,
    /// Most table elements, over all of a bot's tables together.
    pub table_elements: usize,
    /// Wasm stack cap in bytes.
    pub stack_bytes: usize,
    /// Wall-clock backstop for one call, in milliseconds. Not
    /// deterministic; fuel normally ends a runaway bot long before.
    pub wall_ms: u64,
    /// Largest module, in bytes of binary WebAssembly (after WAT text is
    /// assembled).
    pub module_bytes: usize,
    /// Largest code section, in bytes: compiling costs about 3 ms per KiB
    /// of code, so this bounds how long loading a module takes.
    pub code_bytes: usize,
    /// Most functions in a module (imported and defined); about 50 µs of
    /// compiling each.
    pub functions: usize,
    /// Largest function body, in bytes.
    pub function_body_bytes: usize,
    /// Most locals in one function.
    pub locals_per_function: usize,
}

impl Limits {
    /// The watchdog deadline in epoch ticks.
    pub(crate) fn deadline_ticks(&self) -> u64 {
        self.wall_ms.div_ceil(TICK_MS).max(1)
    }
}

/// The documented range of each limit a league may set (`[limits]` in a
/// league file), in the league file's units.
pub mod range {
    use std::ops::RangeInclusive;

    /// `fuel_per_decision`.
    pub const FUEL_PER_DECISION: RangeInclusive<u64> = 1_000..=10_000_000_000;
    /// `fuel_for_startup`: a language runtime (CPython: about 200 million)
    /// may start in its `_initialize`.
    pub const FUEL_FOR_STARTUP: RangeInclusive<u64> = 1_000..=10_000_000_000;
    /// `memory_mib`: one page at least, and well below the 4 GiB a 32-bit
    /// memory can address.
    pub const MEMORY_MIB: RangeInclusive<u64> = 1..=1_024;
    /// `wall_ms`.
    pub const WALL_MS: RangeInclusive<u64> = 10..=600_000;
    /// `module_mib`.
    pub const MODULE_MIB: RangeInclusive<u64> = 1..=64;
    /// `code_kib`.
    pub const CODE_KIB: RangeInclusive<u64> = 16..=65_536;
    /// `functions`.
    pub const FUNCTIONS: RangeInclusive<u64> = 16..=100_000;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel_per_decision: 1_000_000,
            fuel_for_startup: 10_000_000,
            memory_bytes: 16 << 20,
            table_elements: 10_000,
            stack_bytes: 512 << 10,
            wall_ms: 2_000,
            module_bytes: 4 << 20,
            code_bytes: 256 << 10,
            functions: 10_000,
            function_body_bytes: 128 << 10,
            locals_per_function: 10_000,
        }
    }
}
