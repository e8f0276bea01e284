//! Compiled modules, kept so a bot is compiled once per run (identical
//! files share one compilation) and, with a cache folder, once per machine.
//!
//! A cache file is wasmtime's serialized module, named by the SHA-256 of
//! the wasm binary under a folder named by the Pitboss version. wasmtime
//! checks on loading that the file was compiled by the same wasmtime with
//! the same settings, and a SHA-256 trailer guards against damage; a file
//! that fails either check is compiled afresh and replaced. Files are written to a temporary name and
//! renamed, so a crash never leaves half a file. The folder holds native
//! code that Pitboss will run: keep it as private as the Pitboss binary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};
use wasmtime::{Engine, Module};

/// Where a module came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Compiled now.
    Compiled,
    /// Already compiled earlier in this run (an identical file).
    Memory,
    /// Read from the cache folder.
    Disk,
}

/// Modules compiled by one engine, by binary hash; optionally backed by a
/// folder.
#[derive(Clone, Default)]
pub(crate) struct ModuleCache {
    dir: Option<PathBuf>,
    memo: Arc<Mutex<BTreeMap<[u8; 32], Module>>>,
}

impl ModuleCache {
    /// A cache in memory only, or also in `dir`.
    pub(crate) fn new(dir: Option<PathBuf>) -> ModuleCache {
        ModuleCache { dir, memo: Arc::default() }
    }

    /// The cache folder, if any.
    pub(crate) fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The module for `binary`: from memory, from the folder, or compiled
    /// (and then stored in both).
    pub(crate) fn get(&self, engine: &Engine, binary: &[u8]) -> Result<(Module, Origin), wasmtime::Error> {
        let hash: [u8; 32] = Sha256::digest(binary).into();
        if let Some(m) = self.memo.lock().unwrap_or_else(|e| e.into_inner()).get(&hash) {
            return Ok((m.clone(), Origin::Memory));
        }
        let file = self.dir.as_ref().map(|d| d.join(env!("CARGO_PKG_VERSION")).join(format!("{}.cwasm", hex(&hash))));
        // Read into memory rather than mapped: a file truncated under a
        // running match must not take the process down.
        let from_disk = file.as_ref().and_then(|f| std::fs::read(f).ok()).and_then(checked).and_then(|bytes| {
            // SAFETY: the bytes are a file this cache wrote from a module
            // wasmtime compiled (see the module docs on keeping the folder
            // private); wasmtime checks their header, version and settings
            // and refuses a mismatch, which we then recompile.
            unsafe { Module::deserialize(engine, &bytes) }.ok()
        });
        let (module, origin) = match from_disk {
            Some(m) => (m, Origin::Disk),
            None => {
                let m = Module::new(engine, binary)?;
                if let Some(f) = &file {
                    store(f, &m);
                }
                (m, Origin::Compiled)
            }
        };
        self.memo.lock().unwrap_or_else(|e| e.into_inner()).insert(hash, module.clone());
        Ok((module, origin))
    }
}

/// Writes `module` to `file` atomically. A cache that cannot be written is
/// no error: the run goes on, compiling as it would without one.
fn store(file: &Path, module: &Module) {
    let Ok(mut bytes) = module.serialize() else { return };
    let sum: [u8; 32] = Sha256::digest(&bytes).into();
    bytes.extend_from_slice(&sum);
    let Some(dir) = file.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = file.with_extension(format!("tmp{}-{n}", std::process::id()));
    if std::fs::write(&tmp, bytes).is_ok() && std::fs::rename(&tmp, file).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// A cache file's module bytes, if its SHA-256 trailer matches them (a
/// damaged file is recompiled, never run).
fn checked(mut bytes: Vec<u8>) -> Option<Vec<u8>> {
    let at = bytes.len().checked_sub(32)?;
    let sum: [u8; 32] = Sha256::digest(&bytes[..at]).into();
    (bytes[at..] == sum).then(|| {
        bytes.truncate(at);
        bytes
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
