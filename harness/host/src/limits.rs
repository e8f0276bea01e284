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

/// A limit a league's `[limits]` or a command's `--max-…` flag may raise
/// (the others are fixed): its key, its flag, its unit and its range,
/// declared once for the league file, the commands and every refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Raisable {
    /// `fuel_per_decision`.
    FuelPerDecision,
    /// `fuel_for_startup`.
    FuelForStartup,
    /// `memory_mib`.
    MemoryMib,
    /// `wall_ms`.
    WallMs,
    /// `module_mib`.
    ModuleMib,
    /// `code_kib`.
    CodeKib,
    /// `functions`.
    Functions,
}

impl Raisable {
    /// Every limit that may be raised, in the order documented.
    pub const ALL: [Raisable; 7] = [
        Raisable::FuelPerDecision,
        Raisable::FuelForStartup,
        Raisable::MemoryMib,
        Raisable::WallMs,
        Raisable::ModuleMib,
        Raisable::CodeKib,
        Raisable::Functions,
    ];

    /// Its key under `[limits]` in a league file.
    pub const fn key(self) -> &'static str {
        match self {
            Raisable::FuelPerDecision => "fuel_per_decision",
            Raisable::FuelForStartup => "fuel_for_startup",
            Raisable::MemoryMib => "memory_mib",
            Raisable::WallMs => "wall_ms",
            Raisable::ModuleMib => "module_mib",
            Raisable::CodeKib => "code_kib",
            Raisable::Functions => "functions",
        }
    }

    /// The flag of `pitboss play`, `check` and `replay` that sets it.
    pub const fn flag(self) -> &'static str {
        match self {
            Raisable::FuelPerDecision => "--max-fuel-per-decision",
            Raisable::FuelForStartup => "--max-fuel-for-startup",
            Raisable::MemoryMib => "--max-memory-mib",
            Raisable::WallMs => "--max-wall-ms",
            Raisable::ModuleMib => "--max-module-mib",
            Raisable::CodeKib => "--max-code-kib",
            Raisable::Functions => "--max-functions",
        }
    }

    /// The values a league or a flag may give it, in its key's units.
    pub const fn range(self) -> std::ops::RangeInclusive<u64> {
        match self {
            Raisable::FuelPerDecision => range::FUEL_PER_DECISION,
            Raisable::FuelForStartup => range::FUEL_FOR_STARTUP,
            Raisable::MemoryMib => range::MEMORY_MIB,
            Raisable::WallMs => range::WALL_MS,
            Raisable::ModuleMib => range::MODULE_MIB,
            Raisable::CodeKib => range::CODE_KIB,
            Raisable::Functions => range::FUNCTIONS,
        }
    }

    /// Bits its key's unit shifts by into the `Limits` field (MiB: 20).
    const fn shift(self) -> u32 {
        match self {
            Raisable::MemoryMib | Raisable::ModuleMib => 20,
            Raisable::CodeKib => 10,
            _ => 0,
        }
    }

    /// `limits` with this limit at `value` (its key's units). A value
    /// outside [`Raisable::range`] (which the league file and the flags
    /// refuse first) leaves `limits` as they are.
    pub fn set(self, limits: &mut Limits, value: u64) {
        if !self.range().contains(&value) {
            return;
        }
        let bytes = usize::try_from(value << self.shift()).unwrap_or(usize::MAX);
        match self {
            Raisable::FuelPerDecision => limits.fuel_per_decision = value,
            Raisable::FuelForStartup => limits.fuel_for_startup = value,
            Raisable::MemoryMib => limits.memory_bytes = bytes,
            Raisable::WallMs => limits.wall_ms = value,
            Raisable::ModuleMib => limits.module_bytes = bytes,
            Raisable::CodeKib => limits.code_bytes = bytes,
            Raisable::Functions => limits.functions = bytes,
        }
    }

    /// How a refusal says to raise it: the flag and the league key.
    pub fn how_to_raise(self) -> String {
        format!(
            "raise it with {} N, or `{} = N` under [limits] in a league file (--league FILE)",
            self.flag(),
            self.key()
        )
    }
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
