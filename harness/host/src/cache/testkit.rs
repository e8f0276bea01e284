//! Helpers for the cache's unit tests: a scratch folder with a cache and
//! a key beside it, small modules, and ways to age and unprotect files.
//! Compiled for tests only.

use std::fs::{File, Permissions};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use wasmtime::Engine;

use super::entry::VERSION;
use super::{CacheConfig, ModuleCache, Origin, Unusable};

/// A folder for one test, with a cache folder and a key path beside it.
pub(super) struct Scratch {
    pub(super) root: tempfile::TempDir,
}

impl Scratch {
    pub(super) fn new() -> Scratch {
        Scratch { root: tempfile::tempdir().unwrap() }
    }
    pub(super) fn config(&self) -> CacheConfig {
        let root = self.root.path();
        CacheConfig::new(root.join("cache"), root.join("config/cache.key"))
    }
    pub(super) fn version_dir(&self) -> PathBuf {
        self.config().dir.join(VERSION)
    }
    /// The cache files, sorted.
    pub(super) fn files(&self) -> Vec<PathBuf> {
        let mut files: Vec<_> = std::fs::read_dir(self.version_dir()).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        files
    }
}

/// A small module, different for each `n`.
pub(super) fn wasm(n: i32) -> Vec<u8> {
    wat::parse_str(format!("(module (func (export \"f\") (result i32) i32.const {n}))")).unwrap()
}

pub(super) fn origin(config: &CacheConfig, binary: &[u8]) -> Origin {
    let cache = ModuleCache::open(config);
    assert_eq!(cache.unused_reason(), None);
    cache.get(&Engine::default(), binary, &|| ()).unwrap().1
}

pub(super) fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, Permissions::from_mode(mode)).unwrap();
}

pub(super) fn reason(config: &CacheConfig) -> Unusable {
    let cache = ModuleCache::open(config);
    assert_eq!(cache.dir(), None);
    cache.unused_reason().expect("refused").reason.clone()
}

pub(super) fn set_age(path: &Path, seconds_ago: u64) {
    let file = File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(seconds_ago)).unwrap();
}
