//! Per-bot resource limits and the wasmtime resource limiter that enforces
//! the memory cap.

/// What one bot instance may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Fuel (roughly, wasm instructions) for one decision. Deterministic:
    /// a replay runs out at the same instruction.
    pub fuel_per_decision: u64,
    /// Fuel for instantiation and the start-up calls.
    pub fuel_for_startup: u64,
    /// Linear memory cap in bytes.
    pub memory_bytes: usize,
    /// Most table elements.
    pub table_elements: usize,
    /// Wasm stack cap in bytes.
    pub stack_bytes: usize,
    /// Wall-clock backstop for one call, in milliseconds. Not
    /// deterministic; fuel normally ends a runaway bot long before.
    pub wall_ms: u64,
}

impl Limits {
    /// The watchdog deadline in epoch ticks.
    pub(crate) fn deadline_ticks(&self) -> u64 {
        self.wall_ms.div_ceil(crate::load::TICK_MS).max(1)
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
        }
    }
}

/// Store data: the limiter, which remembers whether it refused memory so a
/// trap can be reported as a memory fault.
pub(crate) struct StoreState {
    pub(crate) limits: Limits,
    pub(crate) memory_refused: bool,
}

impl wasmtime::ResourceLimiter for StoreState {
    fn memory_growing(&mut self, _current: usize, desired: usize, _max: Option<usize>) -> wasmtime::Result<bool> {
        if desired > self.limits.memory_bytes {
            self.memory_refused = true;
            return Err(wasmtime::Error::msg(format!(
                "memory limit exceeded: asked for {desired} bytes, the cap is {}",
                self.limits.memory_bytes
            )));
        }
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _max: Option<usize>) -> wasmtime::Result<bool> {
        Ok(desired <= self.limits.table_elements)
    }
}
