//! The runtimes that run bots from source (sdk/ABI.md, "Bots from
//! source"): one module per [`Runtime`] of the language table
//! (`pitboss_files::lang`), built by its script and embedded here, that
//! runs any bot of its language from its source. It starts once per
//! sandbox (the interpreter, under the runtime's own fuel: the same for
//! every bot, so no bot's start-up fuel pays for it) and that state is
//! kept; a bot's source is then handed to an instance started from it,
//! checked and run under the bot's start-up fuel, and the result is the
//! bot's own start-up snapshot, as for any module that exports
//! `pitboss_preinit`.

use std::sync::OnceLock;

use pitboss_files::lang::Runtime;
use wasmtime::Module;

use crate::cache::Origin;
use crate::snapshot::Snapshot;

/// The Python runtime, as `scripts/build-python-runtime` wrote it.
const PYTHON_RUNTIME: &[u8] = include_bytes!("../python/runtime.wasm");
/// The JavaScript runtime, as `scripts/build-js-runtime` wrote it.
const JAVASCRIPT_RUNTIME: &[u8] = include_bytes!("../javascript/runtime.wasm");

/// The module of `runtime`.
pub(crate) const fn module(runtime: Runtime) -> &'static [u8] {
    match runtime {
        Runtime::Python => PYTHON_RUNTIME,
        Runtime::JavaScript => JAVASCRIPT_RUNTIME,
    }
}

/// The runtime's export that makes room for a source of `len` bytes and
/// says where: `(len: i32) -> i32`, 0 for no room.
pub(crate) const RESERVE: &str = "pitboss_source_reserve";
/// The runtime's export that checks and runs the source: `() -> i32`,
/// 0 when the bot is ready, else the line it last wrote says why.
pub(crate) const LOAD: &str = "pitboss_source_load";

/// Fuel for the runtime's own start (CPython, `runtime.py` and the modules
/// it imports: about 265 million), paid once per sandbox and counted
/// against no bot.
pub(crate) const BOOT_FUEL: u64 = 4_000_000_000;
/// Its wall-clock backstop, in milliseconds.
pub(crate) const BOOT_WALL_MS: u64 = 120_000;

/// SHA-256 of the embedded module of `runtime`, hex: what results record
/// beside each source bot's own hash, so a replay runs the runtime that
/// played.
pub fn runtime_sha256(runtime: Runtime) -> &'static str {
    static HEX: [OnceLock<String>; Runtime::ALL.len()] = [const { OnceLock::new() }; Runtime::ALL.len()];
    HEX[runtime.index()].get_or_init(|| {
        use sha2::{Digest, Sha256};
        pitboss_files::hex(&Sha256::digest(module(runtime)))
    })
}

/// The file ending of a Python bot's source (the language table's).
pub const PYTHON_EXTENSION: &str = pitboss_files::lang::Lang::Python.bot_ending();

/// [`runtime_sha256`] of the Python runtime.
pub fn python_runtime_sha256() -> &'static str {
    runtime_sha256(Runtime::Python)
}

/// Whether a bot named `name` (a path) is Python source.
pub fn is_python_source(name: &str) -> bool {
    Runtime::of(name) == Some(Runtime::Python)
}

/// A runtime, compiled and started: what each source bot starts from.
pub(crate) struct Booted {
    pub(crate) module: Module,
    /// The export names of its mutable globals (`snapshot::prepare`).
    pub(crate) globals: Vec<String>,
    /// The interpreter started, no source yet.
    pub(crate) boot: Snapshot,
    /// SHA-256 of its module.
    pub(crate) digest: [u8; 32],
    /// Where the compiled module came from the first time.
    pub(crate) origin: Origin,
}

/// The digest a source bot's WASI random stream is keyed by: SHA-256 of
/// a tag naming the language (`pitboss python source\0`), the runtime's
/// SHA-256 and the source.
pub(crate) fn source_digest(which: Runtime, runtime: &[u8; 32], source: &[u8]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(format!("pitboss {} source\0", which.lang().id()).as_bytes());
    h.update(runtime);
    h.update(source);
    h.finalize().into()
}
