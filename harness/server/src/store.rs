//! Uploaded modules, stored once by SHA-256 as `DIR/modules/HASH.wasm`,
//! each written to a temporary file and renamed into place, so a reader
//! never sees half a module.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::Error;

/// Where the module with this SHA-256 is kept.
pub fn module_path(dir: &Path, sha256: &str) -> PathBuf {
    dir.join("modules").join(format!("{sha256}.wasm"))
}

/// Stores `bytes` (whose SHA-256 is `sha256`) unless already stored.
pub fn put(dir: &Path, sha256: &str, bytes: &[u8]) -> Result<PathBuf, Error> {
    let path = module_path(dir, sha256);
    if path.is_file() {
        return Ok(path);
    }
    let folder = dir.join("modules");
    std::fs::create_dir_all(&folder)?;
    let tmp = folder.join(format!(".{sha256}.{}.tmp", std::process::id()));
    let mut file = std::fs::File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Copies a stored module to `to` (a hard link where the disk allows).
pub fn copy_out(dir: &Path, sha256: &str, to: &Path) -> Result<(), Error> {
    if to.is_file() {
        return Ok(());
    }
    let from = module_path(dir, sha256);
    if std::fs::hard_link(&from, to).is_err() {
        std::fs::copy(&from, to)?;
    }
    Ok(())
}
