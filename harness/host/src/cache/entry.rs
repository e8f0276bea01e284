//! One cache file: wasmtime's serialized module followed by an
//! HMAC-SHA256 of it (with a domain tag, the Pitboss version and the wasm
//! binary's SHA-256), named by that SHA-256 under a folder named by the
//! Pitboss version. [`Disk`] reads a file only when its MAC verifies, and
//! writes one whole or not at all.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::time::SystemTime;

use hmac::{Hmac, Mac};
use sha2::Sha256;
use wasmtime::{Engine, Module};

use super::config::{CacheConfig, Unusable};
use super::evict::{TMP_PREFIX, evict};
use super::key::{load_key, private_folder};

type HmacSha256 = Hmac<Sha256>;

/// Starts every MAC'd message, so a MAC made for anything else never
/// passes as a cache file's.
const DOMAIN: &[u8] = b"pitboss compiled-module cache v1\0";
/// The Pitboss version: names the version folder and is MAC'd.
pub(super) const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Bytes of MAC after the module.
const TRAILER: u64 = 32;

/// A cache folder found fit, with its key ready.
pub(super) struct Disk {
    pub(super) dir: PathBuf,
    /// `dir/VERSION`, where this Pitboss reads and writes.
    version_dir: PathBuf,
    /// Keyed, never updated: each MAC starts from a clone.
    mac: HmacSha256,
    max_bytes: u64,
    max_entry_bytes: u64,
}

impl Disk {
    /// Creates the folders (0700) and the key if missing, and checks them.
    pub(super) fn open(config: &CacheConfig) -> Result<Disk, Unusable> {
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
    pub(super) fn load(&self, engine: &Engine, hash: &[u8; 32]) -> Option<Module> {
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
    pub(super) fn store(&self, hash: &[u8; 32], module: &Module) {
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
            evict(&self.dir, &self.version_dir, self.max_bytes);
        }
    }
}

pub(super) use pitboss_files::hex;

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::mpsc;
    use std::time::Duration;

    use sha2::{Digest, Sha256};

    use super::super::testkit::{Scratch, origin, wasm};
    use super::*;
    use crate::cache::Origin;

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
}
