//! The cache's size cap: after each store, the least recently used files
//! (by modification time, set on every use), across version folders, are
//! deleted until all fit. Only names the cache gives are ever touched.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Starts a temporary file's name (and ends it with `.tmp`).
pub(super) const TMP_PREFIX: &str = ".pitboss-";

/// Deletes the least recently used files in the cache folder `dir`,
/// across version folders, until all together hold at most `max_bytes`;
/// then the folders of versions other than `current` left empty. Only names this cache gives are touched,
/// so a cache folder set by mistake to a folder of other things loses
/// none of them.
pub(super) fn evict(dir: &Path, current: &Path, max_bytes: u64) {
    let Ok(versions) = std::fs::read_dir(dir) else { return };
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
        if total <= max_bytes {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
    for version in versions.iter().filter(|v| v.as_path() != current) {
        // Fails, harmlessly, unless the folder is empty.
        let _ = std::fs::remove_dir(version);
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

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256};

    use super::super::entry::hex;
    use super::super::testkit::{Scratch, origin, set_age, wasm};
    use crate::cache::{CacheConfig, Origin};

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
}
