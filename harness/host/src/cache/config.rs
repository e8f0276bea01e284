//! What a cache is asked for and why one is refused: [`CacheConfig`] (the
//! folder, the key file and the size caps, from arguments or the
//! environment), and [`CacheUnused`] with its [`Unusable`] reason, shown as
//! one line.

use std::ffi::OsStr;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// Bytes in a key file.
pub(super) const KEY_LEN: usize = 32;
/// The most module bytes one cache file may hold.
pub const DEFAULT_MAX_ENTRY_BYTES: u64 = 64 << 20;
/// The most bytes all cache files together may hold, unless
/// `$PITBOSS_CACHE_MAX_MIB` says otherwise.
pub const DEFAULT_MAX_BYTES: u64 = 512 << 20;
/// The largest `$PITBOSS_CACHE_MAX_MIB` accepted (1 TiB).
const MAX_MIB: u64 = 1 << 20;

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
    /// The key file is not `KEY_LEN` (32) bytes long.
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

#[cfg(test)]
mod tests {
    use super::*;

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
