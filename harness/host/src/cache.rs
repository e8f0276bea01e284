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

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs::{DirBuilder, File, OpenOptions, Permissions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use wasmtime::{Engine, Module};

type HmacSha256 = Hmac<Sha256>;

/// Starts every MAC'd message, so a MAC made for anything else never
/// passes as a cache file's.
const DOMAIN: &[u8] = b"pitboss compiled-module cache v1\0";
/// The Pitboss version: names the version folder and is MAC'd.
const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Bytes in a key file.
const KEY_LEN: usize = 32;
/// Bytes of MAC after the module.
const TRAILER: u64 = 32;
/// The most module bytes one cache file may hold.
pub const DEFAULT_MAX_ENTRY_BYTES: u64 = 64 << 20;
/// The most bytes all cache files together may hold, unless
/// `$PITBOSS_CACHE_MAX_MIB` says otherwise.
pub const DEFAULT_MAX_BYTES: u64 = 512 << 20;
/// The largest `$PITBOSS_CACHE_MAX_MIB` accepted (1 TiB).
const MAX_MIB: u64 = 1 << 20;
/// Starts a temporary file's name (and ends it with `.tmp`).
const TMP_PREFIX: &str = ".pitboss-";

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

/// A cache folder, the key that signs its files, and its size caps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    /// The folder; one subfolder per Pitboss version holds the files.
    pub dir: PathBuf,
    /// The key file; it must lie outside `dir`.
    pub key: PathBuf,
    /// The most bytes all files together may hold.
    pub max_bytes: u64,
    /// The most module bytes one file may hold.
    pub max_entry_bytes: u64,
}

impl CacheConfig {
    /// `dir`, signed with the key in `key`, with the default caps.
    pub fn new(dir: PathBuf, key: PathBuf) -> CacheConfig {
        CacheConfig { dir, key, max_bytes: DEFAULT_MAX_BYTES, max_entry_bytes: DEFAULT_MAX_ENTRY_BYTES }
    }

    /// `dir`, with the key file and the size cap the environment names:
    /// `$PITBOSS_CACHE_KEY`, else `$XDG_CONFIG_HOME/pitboss/cache.key`, else
    /// `$HOME/.config/pitboss/cache.key`; `$PITBOSS_CACHE_MAX_MIB` (a whole
    /// number from 1 to 1048576), else 512.
    pub fn from_env(dir: PathBuf) -> Result<CacheConfig, CacheUnused> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let key = var("PITBOSS_CACHE_KEY").map(PathBuf::from).or_else(|| {
            let config = var("XDG_CONFIG_HOME")
                .map(PathBuf::from)
                .or_else(|| var("HOME").map(|h| Path::new(&h).join(".config")));
            config.map(|c| c.join("pitboss").join("cache.key"))
        });
        let unused = |reason| CacheUnused { dir: dir.clone(), reason };
        let key = key.ok_or_else(|| unused(Unusable::NoKeyPath))?;
        let max_bytes = match var("PITBOSS_CACHE_MAX_MIB") {
            None => DEFAULT_MAX_BYTES,
            Some(v) => parse_max_mib(&v)
                .ok_or_else(|| unused(Unusable::BadMaxMib { value: v.to_string_lossy().into_owned() }))?,
        };
        Ok(CacheConfig { max_bytes, ..CacheConfig::new(dir, key) })
    }
}

/// `$PITBOSS_CACHE_MAX_MIB` in bytes, if it is a whole number of MiB in range.
fn parse_max_mib(value: &OsStr) -> Option<u64> {
    let mib: u64 = value.to_str()?.trim().parse().ok()?;
    (1..=MAX_MIB).contains(&mib).then_some(mib << 20)
}

/// Why a cache folder is not used; every bot is then compiled in memory.
/// Displays as one line for a warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheUnused {
    /// The cache folder.
    pub dir: PathBuf,
    /// Why.
    pub reason: Unusable,
}

/// What makes a cache folder or its key unfit for use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unusable {
    /// A folder group or others can write.
    WritableByOthers {
        /// The folder.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// A folder or the key belongs to another user.
    OwnedByOther {
        /// The folder or key.
        path: PathBuf,
        /// Its owner.
        owner: u32,
        /// This process's effective user.
        euid: u32,
    },
    /// Something else stands where a folder should be.
    NotAFolder {
        /// The path.
        path: PathBuf,
    },
    /// The key is readable or writable by group or others.
    KeyExposed {
        /// The key file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The key is a symlink, a FIFO, a folder…
    KeyNotAFile {
        /// The key path.
        path: PathBuf,
    },
    /// The key file is not [`KEY_LEN`] bytes long.
    KeyLength {
        /// The key file.
        path: PathBuf,
        /// Its length.
        len: u64,
    },
    /// The key lies inside the cache folder, where a writer of the folder
    /// could replace it.
    KeyInside {
        /// The key file.
        path: PathBuf,
    },
    /// No key path: neither `$PITBOSS_CACHE_KEY`, `$XDG_CONFIG_HOME` nor
    /// `$HOME` is set.
    NoKeyPath,
    /// `$PITBOSS_CACHE_MAX_MIB` is not a whole number in range.
    BadMaxMib {
        /// Its value.
        value: String,
    },
    /// The OS gave no random bytes for a new key.
    NoRandomness,
    /// A folder or the key could not be created or read.
    Io {
        /// What could not be.
        path: PathBuf,
        /// Why.
        kind: ErrorKind,
    },
}

impl std::fmt::Display for CacheUnused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The cache folder itself is "it"; any other path is named.
        let name = |p: &Path| if p == self.dir { "it".to_string() } else { p.display().to_string() };
        write!(f, "compile cache {} not used: ", self.dir.display())?;
        match &self.reason {
            Unusable::WritableByOthers { path, mode } => {
                write!(f, "{} is writable by others (mode {:04o})", name(path), mode & 0o7777)
            }
            Unusable::OwnedByOther { path, owner, euid } => {
                write!(f, "{} belongs to user {owner}, not to this user ({euid})", name(path))
            }
            Unusable::NotAFolder { path } => write!(f, "{} is not a folder", name(path)),
            Unusable::KeyExposed { path, mode } => write!(
                f,
                "its key {} is readable or writable by others (mode {:04o}; it must be 0600)",
                path.display(),
                mode & 0o7777
            ),
            Unusable::KeyNotAFile { path } => write!(f, "its key {} is not a plain file", path.display()),
            Unusable::KeyLength { path, len } => {
                write!(f, "its key {} holds {len} bytes, not {KEY_LEN}", path.display())
            }
            Unusable::KeyInside { path } => write!(f, "its key {} lies inside it", path.display()),
            Unusable::NoKeyPath => write!(f, "no place for its key (set PITBOSS_CACHE_KEY)"),
            Unusable::BadMaxMib { value } => {
                write!(f, "PITBOSS_CACHE_MAX_MIB={value:?} is not a whole number from 1 to {MAX_MIB}")
            }
            Unusable::NoRandomness => write!(f, "the system gave no random bytes for its key"),
            Unusable::Io { path, kind } => write!(f, "{}: {kind}", path.display()),
        }?;
        write!(f, "; compiling every bot")
    }
}

impl std::error::Error for CacheUnused {}

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
    /// (and then stored in both).
    pub(crate) fn get(&self, engine: &Engine, binary: &[u8]) -> Result<(Module, Origin), wasmtime::Error> {
        let hash: [u8; 32] = Sha256::digest(binary).into();
        if let Some(m) = self.memo.lock().unwrap_or_else(|e| e.into_inner()).get(&hash) {
            return Ok((m.clone(), Origin::Memory));
        }
        let (module, origin) = match self.disk.as_ref().and_then(|d| d.load(engine, &hash)) {
            Some(m) => (m, Origin::Disk),
            None => {
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

/// A cache folder found fit, with its key ready.
struct Disk {
    dir: PathBuf,
    /// `dir/VERSION`, where this Pitboss reads and writes.
    version_dir: PathBuf,
    /// Keyed, never updated: each MAC starts from a clone.
    mac: HmacSha256,
    max_bytes: u64,
    max_entry_bytes: u64,
}

impl Disk {
    /// Creates the folders (0700) and the key if missing, and checks them.
    fn open(config: &CacheConfig) -> Result<Disk, Unusable> {
        // SAFETY: geteuid takes nothing, touches no memory and cannot fail.
        let euid = unsafe { libc::geteuid() };
        let version_dir = config.dir.join(VERSION);
        private_folder(&config.dir, euid)?;
        private_folder(&version_dir, euid)?;
        let key = load_key(&config.key, &config.dir, euid)?;
        let mac = HmacSha256::new_from_slice(&key)
            .map_err(|_| Unusable::KeyLength { path: config.key.clone(), len: key.len() as u64 })?;
        Ok(Disk {
            dir: config.dir.clone(),
            version_dir,
            mac,
            max_bytes: config.max_bytes,
            max_entry_bytes: config.max_entry_bytes.min(config.max_bytes),
        })
    }

    fn entry(&self, hash: &[u8; 32]) -> PathBuf {
        self.version_dir.join(format!("{}.cwasm", hex(hash)))
    }

    /// The MAC of the module compiled from the binary with SHA-256 `hash`.
    fn mac(&self, hash: &[u8; 32], module: &[u8]) -> HmacSha256 {
        let mut mac = self.mac.clone();
        mac.update(DOMAIN);
        mac.update(&(VERSION.len() as u64).to_le_bytes());
        mac.update(VERSION.as_bytes());
        mac.update(hash);
        mac.update(module);
        mac
    }

    /// The module for the binary with SHA-256 `hash`, if its file is there
    /// and its MAC verifies; marks the file used.
    fn load(&self, engine: &Engine, hash: &[u8; 32]) -> Option<Module> {
        let (file, bytes) = self.read(hash)?;
        // SAFETY: the MAC proves these bytes are a module this cache
        // serialized, under this user's key, from exactly this binary, in
        // this Pitboss version (the key is what is trusted; see the module
        // docs). wasmtime checks their header, version and settings too and
        // refuses a mismatch, which we then recompile.
        let module = unsafe { Module::deserialize(engine, &bytes) }.ok()?;
        // The modification time orders eviction; failing to set it only
        // makes this entry look older.
        let _ = file.set_modified(SystemTime::now());
        Some(module)
    }

    /// The module bytes of `hash`'s file, if it is a plain file of a
    /// possible size and its MAC verifies; never reads past the cap.
    fn read(&self, hash: &[u8; 32]) -> Option<(File, Vec<u8>)> {
        // No symlink is followed, and a FIFO opens without waiting for a
        // writer (and is then refused as no plain file).
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(self.entry(hash))
            .ok()?;
        let meta = file.metadata().ok()?;
        let cap = self.max_entry_bytes + TRAILER;
        if !meta.is_file() || meta.len() > cap || meta.len() < TRAILER {
            return None;
        }
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).ok()?);
        (&file).take(cap + 1).read_to_end(&mut bytes).ok()?;
        let at = bytes.len().checked_sub(TRAILER as usize).filter(|_| bytes.len() as u64 <= cap)?;
        let (module, tag) = bytes.split_at(at);
        self.mac(hash, module).verify_slice(tag).ok()?;
        bytes.truncate(at);
        Some((file, bytes))
    }

    /// Writes `module` for `hash` through a temporary file, then evicts
    /// down to the cap. A module over the entry cap is not kept; a failed
    /// write leaves no file behind.
    fn store(&self, hash: &[u8; 32], module: &Module) {
        let Ok(bytes) = module.serialize() else { return };
        if bytes.len() as u64 > self.max_entry_bytes {
            return;
        }
        let tag = self.mac(hash, &bytes).finalize().into_bytes();
        let written = (|| -> std::io::Result<()> {
            // Created exclusively (O_EXCL) under a fresh random name, mode
            // 0600; removed when dropped unless renamed.
            let mut tmp = tempfile::Builder::new().prefix(TMP_PREFIX).suffix(".tmp").tempfile_in(&self.version_dir)?;
            tmp.write_all(&bytes)?;
            tmp.write_all(&tag)?;
            tmp.persist(self.entry(hash)).map_err(|e| e.error)?;
            Ok(())
        })();
        if written.is_ok() {
            self.evict();
        }
    }

    /// Deletes the least recently used files, across version folders,
    /// until all together hold at most `max_bytes`; then the folders of
    /// other versions left empty. Only names this cache gives are touched,
    /// so a cache folder set by mistake to a folder of other things loses
    /// none of them.
    fn evict(&self) {
        let Ok(versions) = std::fs::read_dir(&self.dir) else { return };
        let versions: Vec<PathBuf> = versions
            .flatten()
            .filter(|v| v.file_type().is_ok_and(|t| t.is_dir()) && is_version(&v.file_name()))
            .map(|v| v.path())
            .collect();
        let mut files = Vec::new();
        for version in &versions {
            let Ok(entries) = std::fs::read_dir(version) else { continue };
            for entry in entries.flatten() {
                // `DirEntry::metadata` does not follow symlinks.
                match entry.metadata() {
                    Ok(meta) if meta.is_file() && is_entry(&entry.file_name()) => {
                        files.push((meta.modified().unwrap_or(SystemTime::UNIX_EPOCH), entry.path(), meta.len()))
                    }
                    _ => {}
                }
            }
        }
        let mut total: u64 = files.iter().map(|f| f.2).sum();
        files.sort();
        for (_, path, len) in files {
            if total <= self.max_bytes {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
        for version in versions.iter().filter(|v| **v != self.version_dir) {
            // Fails, harmlessly, unless the folder is empty.
            let _ = std::fs::remove_dir(version);
        }
    }
}

/// Whether `name` is a version folder's: `1.2.3`, `0.1.0-rc.1`…
fn is_version(name: &OsStr) -> bool {
    name.to_str().is_some_and(|n| {
        n.starts_with(|c: char| c.is_ascii_digit())
            && n.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
    })
}

/// Whether `name` is a cache file's (a SHA-256 in hex, `.cwasm`) or a
/// temporary file's, perhaps left by a crash.
fn is_entry(name: &OsStr) -> bool {
    name.to_str().is_some_and(|n| match n.strip_suffix(".cwasm") {
        Some(hash) => hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        None => n.starts_with(TMP_PREFIX) && n.ends_with(".tmp"),
    })
}

/// Creates `path` (mode 0700, with any missing parents) unless it exists,
/// and checks that it is a folder only this user can write.
fn private_folder(path: &Path, euid: u32) -> Result<(), Unusable> {
    let io = |e: std::io::Error| Unusable::Io { path: path.to_path_buf(), kind: e.kind() };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => {
            DirBuilder::new().recursive(true).mode(0o700).create(path).map_err(io)?
        }
        _ => {}
    }
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_dir() {
        return Err(Unusable::NotAFolder { path: path.to_path_buf() });
    }
    folder_fit(path, meta.uid(), meta.mode(), euid)
}

/// Whether a folder with this owner and mode is fit for user `euid`: its
/// own, and writable by no one else.
fn folder_fit(path: &Path, owner: u32, mode: u32, euid: u32) -> Result<(), Unusable> {
    if owner != euid {
        return Err(Unusable::OwnedByOther { path: path.to_path_buf(), owner, euid });
    }
    if mode & 0o022 != 0 {
        return Err(Unusable::WritableByOthers { path: path.to_path_buf(), mode });
    }
    Ok(())
}

/// Whether a key file with this owner and mode is fit for user `euid`:
/// its own, and neither readable nor writable by anyone else.
fn key_fit(path: &Path, owner: u32, mode: u32, euid: u32) -> Result<(), Unusable> {
    if owner != euid {
        return Err(Unusable::OwnedByOther { path: path.to_path_buf(), owner, euid });
    }
    if mode & 0o077 != 0 {
        return Err(Unusable::KeyExposed { path: path.to_path_buf(), mode });
    }
    Ok(())
}

/// The key in `path`, created first if missing; refused when unfit (see
/// the module docs) or inside `cache_dir`.
fn load_key(path: &Path, cache_dir: &Path, euid: u32) -> Result<[u8; KEY_LEN], Unusable> {
    let io = |e: std::io::Error| Unusable::Io { path: path.to_path_buf(), kind: e.kind() };
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    private_folder(folder, euid)?;
    let (folder_real, cache_real) = (folder.canonicalize().map_err(io)?, cache_dir.canonicalize().map_err(io)?);
    if folder_real.starts_with(&cache_real) {
        return Err(Unusable::KeyInside { path: path.to_path_buf() });
    }
    if std::fs::symlink_metadata(path).is_err_and(|e| e.kind() == ErrorKind::NotFound) {
        create_key(path, folder)?;
    }
    let file = OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path).map_err(
        |e| match e.raw_os_error() {
            Some(libc::ELOOP) => Unusable::KeyNotAFile { path: path.to_path_buf() },
            _ => io(e),
        },
    )?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(Unusable::KeyNotAFile { path: path.to_path_buf() });
    }
    key_fit(path, meta.uid(), meta.mode(), euid)?;
    if meta.len() != KEY_LEN as u64 {
        return Err(Unusable::KeyLength { path: path.to_path_buf(), len: meta.len() });
    }
    let mut key = [0; KEY_LEN];
    (&file).read_exact(&mut key).map_err(io)?;
    Ok(key)
}

/// Writes a new random key to `path` (mode 0600) unless another process
/// has just done so; theirs is then read instead.
fn create_key(path: &Path, folder: &Path) -> Result<(), Unusable> {
    let io = |e: std::io::Error| Unusable::Io { path: path.to_path_buf(), kind: e.kind() };
    let mut key = [0; KEY_LEN];
    getrandom::fill(&mut key).map_err(|_| Unusable::NoRandomness)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".cache.key.")
        .permissions(Permissions::from_mode(0o600))
        .tempfile_in(folder)
        .map_err(io)?;
    tmp.write_all(&key).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    match tmp.persist_noclobber(path) {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io(e.error)),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::sync::mpsc;
    use std::time::{Duration, SystemTime};

    use super::*;

    /// A folder for one test, with a cache folder and a key path beside it.
    struct Scratch {
        root: tempfile::TempDir,
    }

    impl Scratch {
        fn new() -> Scratch {
            Scratch { root: tempfile::tempdir().unwrap() }
        }
        fn config(&self) -> CacheConfig {
            let root = self.root.path();
            CacheConfig::new(root.join("cache"), root.join("config/cache.key"))
        }
        fn version_dir(&self) -> PathBuf {
            self.config().dir.join(VERSION)
        }
        /// The cache files, sorted.
        fn files(&self) -> Vec<PathBuf> {
            let mut files: Vec<_> = std::fs::read_dir(self.version_dir()).unwrap().map(|e| e.unwrap().path()).collect();
            files.sort();
            files
        }
    }

    /// A small module, different for each `n`.
    fn wasm(n: i32) -> Vec<u8> {
        wat::parse_str(format!("(module (func (export \"f\") (result i32) i32.const {n}))")).unwrap()
    }

    fn origin(config: &CacheConfig, binary: &[u8]) -> Origin {
        let cache = ModuleCache::open(config);
        assert_eq!(cache.unused_reason(), None);
        cache.get(&Engine::default(), binary).unwrap().1
    }

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, Permissions::from_mode(mode)).unwrap();
    }

    fn reason(config: &CacheConfig) -> Unusable {
        let cache = ModuleCache::open(config);
        assert_eq!(cache.dir(), None);
        cache.unused_reason().expect("refused").reason.clone()
    }

    fn set_age(path: &Path, seconds_ago: u64) {
        let file = File::options().write(true).open(path).unwrap();
        file.set_modified(SystemTime::now() - Duration::from_secs(seconds_ago)).unwrap();
    }

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

    #[test]
    fn a_file_signed_with_another_key_is_recompiled_and_replaced() {
        let s = Scratch::new();
        let config = s.config();
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
        let signed = std::fs::read(&s.files()[0]).unwrap();
        let other = CacheConfig { key: s.root.path().join("other/cache.key"), ..config.clone() };
        assert_eq!(origin(&other, &wasm(1)), Origin::Compiled);
        assert_ne!(std::fs::read(&s.files()[0]).unwrap(), signed, "replaced, signed with the other key");
        assert_eq!(origin(&other, &wasm(1)), Origin::Disk);
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
    }

    #[test]
    fn folders_and_keys_are_judged_by_owner_and_mode() {
        let p = Path::new("/x");
        assert_eq!(folder_fit(p, 1000, 0o40700, 1000), Ok(()));
        assert_eq!(folder_fit(p, 1000, 0o40755, 1000), Ok(()), "others may read");
        assert!(matches!(folder_fit(p, 1000, 0o40770, 1000), Err(Unusable::WritableByOthers { .. })));
        assert!(matches!(folder_fit(p, 1000, 0o41777, 1000), Err(Unusable::WritableByOthers { .. })));
        assert!(matches!(folder_fit(p, 0, 0o40700, 1000), Err(Unusable::OwnedByOther { owner: 0, euid: 1000, .. })));
        assert!(matches!(folder_fit(p, 1000, 0o40700, 0), Err(Unusable::OwnedByOther { .. })), "not even for root");
        assert_eq!(key_fit(p, 1000, 0o100600, 1000), Ok(()));
        assert_eq!(key_fit(p, 1000, 0o100400, 1000), Ok(()));
        for mode in [0o100640, 0o100604, 0o100620, 0o100602, 0o100644] {
            assert!(matches!(key_fit(p, 1000, mode, 1000), Err(Unusable::KeyExposed { .. })), "{mode:o}");
        }
        assert!(matches!(key_fit(p, 1001, 0o100600, 1000), Err(Unusable::OwnedByOther { .. })));
    }

    #[test]
    fn a_folder_others_can_write_is_not_used() {
        let s = Scratch::new();
        let config = s.config();
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
        chmod(&config.dir, 0o777);
        assert_eq!(reason(&config), Unusable::WritableByOthers { path: config.dir.clone(), mode: 0o40777 });
        let why = ModuleCache::open(&config).unused_reason().unwrap().to_string();
        assert_eq!(
            why,
            format!(
                "compile cache {} not used: it is writable by others (mode 0777); compiling every bot",
                config.dir.display()
            )
        );
        let cache = ModuleCache::open(&config);
        assert_eq!(cache.get(&Engine::default(), &wasm(1)).unwrap().1, Origin::Compiled, "the file is not read");
        chmod(&config.dir, 0o700);
        chmod(&s.version_dir(), 0o770);
        assert!(matches!(reason(&config), Unusable::WritableByOthers { path, .. } if path == s.version_dir()));
    }

    #[test]
    fn an_unfit_key_turns_the_cache_off() {
        let s = Scratch::new();
        let config = s.config();
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
        chmod(&config.key, 0o644);
        assert_eq!(reason(&config), Unusable::KeyExposed { path: config.key.clone(), mode: 0o100644 });
        assert!(ModuleCache::open(&config).unused_reason().unwrap().to_string().contains("mode 0644; it must be 0600"));
        chmod(&config.key, 0o600);

        std::fs::write(&config.key, [7; 31]).unwrap();
        assert_eq!(reason(&config), Unusable::KeyLength { path: config.key.clone(), len: 31 });
        std::fs::remove_file(&config.key).unwrap();

        let real = s.root.path().join("real.key");
        std::fs::write(&real, [7; KEY_LEN]).unwrap();
        chmod(&real, 0o600);
        std::os::unix::fs::symlink(&real, &config.key).unwrap();
        assert_eq!(reason(&config), Unusable::KeyNotAFile { path: config.key.clone() });
        std::fs::remove_file(&config.key).unwrap();

        chmod(config.key.parent().unwrap(), 0o777);
        assert!(matches!(reason(&config), Unusable::WritableByOthers { .. }));
        chmod(config.key.parent().unwrap(), 0o700);

        let inside = CacheConfig { key: config.dir.join("keys/cache.key"), ..config.clone() };
        assert_eq!(reason(&inside), Unusable::KeyInside { path: inside.key.clone() });
        assert!(!inside.key.exists(), "not created there");
    }

    #[test]
    fn an_old_format_file_with_a_plain_sha256_trailer_is_recompiled() {
        let s = Scratch::new();
        let config = s.config();
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
        let file = s.files().remove(0);
        let good = std::fs::read(&file).unwrap();
        let module = &good[..good.len() - TRAILER as usize];
        let old: Vec<u8> = [module, Sha256::digest(module).as_slice()].concat();
        std::fs::write(&file, &old).unwrap();
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
        assert_eq!(std::fs::read(&file).unwrap(), good, "replaced");
    }

    #[test]
    fn a_module_over_the_entry_cap_runs_but_is_not_kept() {
        let s = Scratch::new();
        let config = s.config();
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
        let size = std::fs::metadata(&s.files()[0]).unwrap().len() - TRAILER;
        std::fs::remove_file(&s.files()[0]).unwrap();
        let capped = CacheConfig { max_entry_bytes: size - 1, ..config.clone() };
        assert_eq!(origin(&capped, &wasm(1)), Origin::Compiled);
        assert_eq!(s.files(), Vec::<PathBuf>::new());
        assert_eq!(origin(&capped, &wasm(1)), Origin::Compiled);
        let fits = CacheConfig { max_entry_bytes: size, ..config };
        assert_eq!(origin(&fits, &wasm(1)), Origin::Compiled);
        assert_eq!(origin(&fits, &wasm(1)), Origin::Disk);
        // A file over the cap when read is not read.
        assert_eq!(origin(&capped, &wasm(1)), Origin::Compiled);
    }

    #[test]
    fn the_folder_cap_evicts_the_least_recently_used_across_versions() {
        let s = Scratch::new();
        let config = s.config();
        for n in 1..=3 {
            assert_eq!(origin(&config, &wasm(n)), Origin::Compiled);
        }
        let name = |n: i32| s.version_dir().join(format!("{}.cwasm", hex(&Sha256::digest(wasm(n)))));
        let size = |n: i32| std::fs::metadata(name(n)).unwrap().len();
        // An older Pitboss's file, the oldest of all.
        let stale = config.dir.join("0.0.1").join(format!("{}.cwasm", "ab".repeat(32)));
        std::fs::create_dir_all(stale.parent().unwrap()).unwrap();
        std::fs::write(&stale, vec![0; 100]).unwrap();
        set_age(&stale, 400);
        // Files the cache did not name are never deleted, however old.
        let theirs = [config.dir.join("notes/old.cwasm"), s.version_dir().join("notes.tmp")];
        for file in &theirs {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, vec![0; 100]).unwrap();
            set_age(file, 500);
        }
        // Written 1, 2, 3 in that order; 1 then used, so 2 is least recent.
        for (n, age) in [(1, 300), (2, 200), (3, 100)] {
            set_age(&name(n), age);
        }
        assert_eq!(origin(&config, &wasm(1)), Origin::Disk);
        // Room for three entries: a fourth evicts the stale file and 2.
        let capped = CacheConfig { max_bytes: size(1) + size(2) + size(3), ..config.clone() };
        assert_eq!(origin(&capped, &wasm(4)), Origin::Compiled);
        assert!(!stale.parent().unwrap().exists(), "the empty folder of the old version is gone");
        assert!(!name(2).exists());
        assert!(name(1).exists() && name(3).exists() && name(4).exists());
        assert_eq!(origin(&capped, &wasm(2)), Origin::Compiled);
        assert!(!name(3).exists(), "then the least recent of the rest");
        assert!(theirs.iter().all(|f| f.exists()));
    }

    #[test]
    fn a_fifo_or_a_symlink_to_dev_zero_as_an_entry_is_recompiled_without_waiting() {
        let s = Scratch::new();
        let config = s.config();
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
        let file = s.files().remove(0);
        for plant in ["fifo", "symlink"] {
            std::fs::remove_file(&file).unwrap();
            if plant == "fifo" {
                let made = std::process::Command::new("mkfifo").arg(&file).status().unwrap();
                assert!(made.success());
            } else {
                std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
            }
            let (tx, rx) = mpsc::channel();
            let config = config.clone();
            std::thread::spawn(move || tx.send(origin(&config, &wasm(1))).unwrap());
            let got = rx.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|_| panic!("hung on a {plant}"));
            assert_eq!(got, Origin::Compiled, "{plant}");
            assert!(std::fs::symlink_metadata(&file).unwrap().is_file(), "replaced by a plain file");
        }
    }

    #[test]
    fn the_size_cap_from_the_environment_is_range_checked() {
        assert_eq!(parse_max_mib(OsStr::new("512")), Some(512 << 20));
        assert_eq!(parse_max_mib(OsStr::new("1")), Some(1 << 20));
        assert_eq!(parse_max_mib(OsStr::new("1048576")), Some(1 << 40));
        for bad in ["0", "-1", "1048577", "1.5", "lots", "18446744073709551616"] {
            assert_eq!(parse_max_mib(OsStr::new(bad)), None, "{bad}");
        }
    }
}
