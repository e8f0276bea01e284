//! Runs WebAssembly bots (ABI v1 and v2, `sdk/ABI.md`) in a wasmtime sandbox and
//! presents each instance to the engine as a [`pitboss_engine::Player`].
//!
//! A [`Sandbox`] holds one wasmtime engine configured for determinism
//! (fuel, NaN canonicalisation, no threads, no relaxed SIMD). A module is
//! compiled once per run ([`Sandbox::load`]; identical files share one
//! compilation, and with [`Sandbox::with_cache_dir`] compiled modules are
//! kept on disk across runs, each bound by a MAC under a per-user key to
//! the wasm it came from) and instantiated once per table
//! ([`BotModule::instantiate`]).
//!
//! [`files`] is how every file handed to Pitboss is read (regular files
//! only, each kind under a size cap) and every output written (whole or
//! not at all); the CLI uses it too.
//!
//! Modules depend one way: `limits`, `text`, `files`, `cache`, `botlog`
//! and `written` (which pages of a memory were written) at the bottom; `inspect` and `wasi` above them; then `store` (an
//! instance's store data), `snapshot` (a start-up kept and given to every instance),
//! `runtime` (the runtimes of the language table, embedded: a `.py` bot's
//! source is handed to the Python runtime), `load` (compile, check, start) and `player`, each
//! on those before it. `botlog` and `wasi` reach the store data through
//! small traits (`HasLog`, `HasWasi`) that `store` implements.
//!
//! **Invariant:** a bot's only way out of its sandbox is its answer; the
//! host never lets a bot panic the harness.

mod botlog;
mod cache;
pub use pitboss_files::files;
mod inspect;
mod keys;
mod limits;
mod load;
mod player;
mod runtime;
mod snapshot;
mod store;
pub use pitboss_files::text;
mod wasi;
mod written;

pub use botlog::{LOG_FUEL_PER_CALL, LOG_PER_DECISION};
pub use cache::{
    COMPILE_NOTICE_BYTES, CacheConfig, CacheUnused, DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRY_BYTES, Origin, Unusable,
    on_compile,
};
pub use limits::{Limits, Raisable, range as limit_range};
pub use load::{BotModule, LoadError, Sandbox};
pub use pitboss_engine::FAULT_LOG_BYTES;
pub use pitboss_files::lang;
pub use player::{DIAGNOSIS_CEILING, DIAGNOSIS_FACTOR, FuelProfile, WasmPlayer};
pub use runtime::{PYTHON_EXTENSION, is_python_source, python_runtime_sha256, runtime_sha256};
pub use wasi::{RANDOM_PER_CALL, WASI_FUEL_PER_CALL};
