//! Compiled modules, kept so a bot is compiled once per run (identical
//! files share one compilation) and, with a cache folder, once per machine.
//!
//! A cache file is native code that Pitboss will run, so the folder is not
//! what is trusted. **What is trusted is the key file**: 32 random bytes,
//! mode 0600, kept outside the cache folder (`$PITBOSS_CACHE_KEY`, else
//! `$XDG_CONFIG_HOME/pitboss/cache.key`, else `~/.config/pitboss/cache.key`;
//! created on first use). Each file is wasmtime's serialized module followed
//! by an HMAC-SHA256, under that key, of a domain tag, the Pitboss version,
//! the SHA-256 of the wasm binary and the serialized module; it is named by
//! that SHA-256, under a folder named by the Pitboss version. A file whose
//! MAC does not verify (damaged, planted, written by an older Pitboss or
//! with another key, or one bot's file renamed to another's) is never
//! deserialized: the bot is compiled afresh and the file replaced. wasmtime
//! also checks that a file was compiled by the same wasmtime with the same
//! settings. Anyone who can read the key can plant code; anyone who can
//! only write the folder can make Pitboss recompile, nothing more. Letting
//! others read the folder would not weaken this (it is created 0700 all
//! the same: compiled bots are copies of their submissions).
//!
//! Defence in depth, and a plain signal to the user: the folder and its
//! version folder are created 0700 and the whole cache is not used when
//! either is writable by group or others or belongs to another user, nor
//! when the key is not a plain file of 32 bytes, is readable or writable by
//! others, belongs to another user, lies inside the cache folder, or sits in
//! a folder others can write. Then every bot is compiled in memory and
//! [`CacheUnused`] says why, once per sandbox, for the caller to print.
//!
//! Limits: one entry holds at most 64 MiB of module (a bigger one runs but
//! is not kept); all entries together, across version folders, at most
//! 512 MiB (`$PITBOSS_CACHE_MAX_MIB`), the least recently used (file
//! modification time, set on every use) deleted first after each store.
//! Files are read into memory rather than mapped (a file truncated under a
//! running match must not take the process down) through a capped read that
//! opens only plain files, never following a symlink or waiting on a FIFO,
//! and written to a fresh temporary file that is renamed into place. No
//! cache problem is an error: the bot is compiled in memory and plays.
//!
//! Here: [`ModuleCache`], the in-memory map in front of the folder. The
//! rest, one way down: `config` (what is asked for, and why it is
//! refused), `entry` (one file: format, MAC, read and write), `key` (the
//! key and the private folders), `evict` (the size cap).

mod config;
mod entry;
mod evict;
mod key;
#[cfg(test)]
mod testkit;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};
use wasmtime::{Engine, Module};

pub use config::{CacheConfig, CacheUnused, DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRY_BYTES, Unusable};
use entry::Disk;

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
    disk: Option<Arc<Disk>>,
    unused: Option<CacheUnused>,
    memo: Arc<Mutex<BTreeMap<[u8; 32], Module>>>,
}

impl ModuleCache {
    /// A cache in memory and in the folder `config` names, or in memory
    /// only (saying why) when that folder or its key is unfit.
    pub(crate) fn open(config: &CacheConfig) -> ModuleCache {
        match Disk::open(config) {
            Ok(disk) => ModuleCache { disk: Some(Arc::new(disk)), ..ModuleCache::default() },
            Err(reason) => ModuleCache::unused(CacheUnused { dir: config.dir.clone(), reason }),
        }
    }

    /// A cache in memory only, because a folder was asked for but is unfit.
    pub(crate) fn unused(why: CacheUnused) -> ModuleCache {
        ModuleCache { unused: Some(why), ..ModuleCache::default() }
    }

    /// The cache folder, if one is in use.
    pub(crate) fn dir(&self) -> Option<&Path> {
        self.disk.as_ref().map(|d| d.dir.as_path())
    }

    /// Why the cache folder asked for is not used, if it is not.
    pub(crate) fn unused_reason(&self) -> Option<&CacheUnused> {
        self.unused.as_ref()
    }

    /// The module for `binary`: from memory, from the folder, or compiled
    /// (and then stored in both; `compiling` hears of it first).
    pub(crate) fn get(
        &self,
        engine: &Engine,
        binary: &[u8],
        compiling: &dyn Fn(),
    ) -> Result<(Module, Origin), wasmtime::Error> {
        let hash: [u8; 32] = Sha256::digest(binary).into();
        if let Some(m) = self.memo.lock().unwrap_or_else(|e| e.into_inner()).get(&hash) {
            return Ok((m.clone(), Origin::Memory));
        }
        let (module, origin) = match self.disk.as_ref().and_then(|d| d.load(engine, &hash)) {
            Some(m) => (m, Origin::Disk),
            None => {
                compiling();
                let m = Module::new(engine, binary)?;
                if let Some(disk) = &self.disk {
                    disk.store(&hash, &m);
                }
                (m, Origin::Compiled)
            }
        };
        self.memo.lock().unwrap_or_else(|e| e.into_inner()).insert(hash, module.clone());
        Ok((module, origin))
    }
}

/// Modules of at least this many bytes are announced before they compile
/// (a compile takes about two seconds of CPU a MiB: a Python bot's, with
/// CPython in it, about fourteen).
pub const COMPILE_NOTICE_BYTES: usize = 1 << 20;

/// Who hears of a large module's compile: its name and size.
static COMPILE_NOTICE: std::sync::OnceLock<fn(&str, usize)> = std::sync::OnceLock::new();

/// Has `notice` told of every module of at least [`COMPILE_NOTICE_BYTES`]
/// that is compiled (not found in the compile cache), before it compiles,
/// so a long silence has its reason (the CLI prints a line). Once per
/// process; play and results are the same either way.
pub fn on_compile(notice: fn(&str, usize)) {
    let _ = COMPILE_NOTICE.set(notice);
}

pub(crate) fn compile_notice(name: &str, bytes: usize) {
    if bytes >= COMPILE_NOTICE_BYTES
        && let Some(notice) = COMPILE_NOTICE.get()
    {
        notice(name, bytes);
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::MetadataExt;

    use super::config::KEY_LEN;
    use super::testkit::{Scratch, origin, wasm};
    use super::*;

    #[test]
    fn a_module_is_kept_and_read_back_and_private_folders_and_key_are_made() {
        let s = Scratch::new();
        let config = s.config();
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
        assert_eq!(origin(&config, &wasm(1)), Origin::Disk);
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o7777;
        assert_eq!((mode(&config.dir), mode(&s.version_dir())), (0o700, 0o700));
        assert_eq!((mode(config.key.parent().unwrap()), mode(&config.key)), (0o700, 0o600));
        assert_eq!(std::fs::metadata(&config.key).unwrap().len(), KEY_LEN as u64);
        assert_eq!(s.files().len(), 1, "no temporary file left: {:?}", s.files());
    }
}
