//! Uploaded modules, stored once by SHA-256 as `DIR/modules/HASH.wasm`,
//! each written whole or not at all (`pitboss_host::files::write_atomic`:
//! a uniquely named temporary file renamed into place), so a reader never
//! sees half a module and two uploads of one module at once do not collide.

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
    std::fs::create_dir_all(dir.join("modules"))?;
    pitboss_host::files::write_atomic(&path, |out| out.write_all(bytes))
        .map_err(|e| Error::Io(std::io::Error::other(e.to_string())))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_module_uploaded_many_times_at_once_is_stored_once_whole() {
        let dir = std::env::temp_dir().join(format!("pitboss-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        std::thread::scope(|s| {
            let puts: Vec<_> = (0..16).map(|_| s.spawn(|| put(&dir, "ab12", &bytes))).collect();
            for p in puts {
                p.join().unwrap().unwrap();
            }
        });
        assert_eq!(std::fs::read(module_path(&dir, "ab12")).unwrap(), bytes);
        let names: Vec<_> = std::fs::read_dir(dir.join("modules")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["ab12.wasm"], "no temporary file left");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
