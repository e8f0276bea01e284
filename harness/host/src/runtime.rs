//! The Python runtime (sdk/ABI.md, "Bots from source"): one module,
//! built by `scripts/build-python-runtime` and embedded here, that runs
//! any Python bot from its source. It starts once per sandbox (CPython
//! and its `runtime.py`, under the runtime's own fuel: the same for every
//! bot, so no bot's start-up fuel pays for it) and that state is kept; a
//! bot's source is then handed to an instance started from it, checked
//! and run under the bot's start-up fuel, and the result is the bot's own
//! start-up snapshot, as for any module that exports `pitboss_preinit`.

use std::sync::OnceLock;

use wasmtime::Module;

use crate::cache::Origin;
use crate::snapshot::Snapshot;

/// The runtime module, as `scripts/build-python-runtime` wrote it.
pub(crate) const PYTHON_RUNTIME: &[u8] = include_bytes!("../python/runtime.wasm");

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

/// The file extension of a Python bot's source.
pub const PYTHON_EXTENSION: &str = "py";

/// SHA-256 of the embedded runtime, hex: what results record beside each
/// Python bot's own hash, so a replay runs the runtime that played.
pub fn python_runtime_sha256() -> &'static str {
    static HEX: OnceLock<String> = OnceLock::new();
    HEX.get_or_init(|| {
        use sha2::{Digest, Sha256};
        Sha256::digest(PYTHON_RUNTIME).iter().map(|b| format!("{b:02x}")).collect()
    })
}

/// Whether a bot named `name` (a path) is Python source.
pub fn is_python_source(name: &str) -> bool {
    std::path::Path::new(name).extension().is_some_and(|e| e == PYTHON_EXTENSION)
}

/// The runtime, compiled and started: what each source bot starts from.
pub(crate) struct Runtime {
    pub(crate) module: Module,
    /// The export names of its mutable globals (`snapshot::prepare`).
    pub(crate) globals: Vec<String>,
    /// CPython started, no source yet.
    pub(crate) boot: Snapshot,
    /// SHA-256 of [`PYTHON_RUNTIME`].
    pub(crate) digest: [u8; 32],
    /// Where the compiled module came from the first time.
    pub(crate) origin: Origin,
}

/// The digest a source bot's WASI random stream is keyed by: SHA-256 of
/// a tag, the runtime's SHA-256 and the source.
pub(crate) fn source_digest(runtime: &[u8; 32], source: &[u8]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(b"pitboss python source\0");
    h.update(runtime);
    h.update(source);
    h.finalize().into()
}
