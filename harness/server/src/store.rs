//! Uploaded modules, stored once by SHA-256 as `DIR/modules/HASH.wasm`
//! (a bot's source under its upload's ending, `HASH.py` or `HASH.js`, so
//! the league's loader runs it with that runtime: [`module_file`]; the
//! bytes cannot tell Python from JavaScript), each written whole or not at all (`pitboss_host::files::write_atomic`:
//! a uniquely named temporary file renamed into place), so a reader never
//! sees half a module and two uploads of one module at once do not collide.
//!
//! Only modules that passed are kept: a module whose check failed is
//! deleted once no check of the same bytes is in flight
//! ([`Checking`]), and modules that no passed submission names (a kill
//! mid-check, an entrant removed) are deleted at start ([`sweep`]).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pitboss_host::lang::{Lang, Runtime};

use crate::db::Db;
use crate::error::Error;
use crate::paths::{module_endings, module_file, module_path, modules};

/// The modules being checked now, by SHA-256, with how many checks.
#[derive(Default)]
pub struct Checking(Mutex<BTreeMap<String, usize>>);

impl Checking {
    fn with<T>(&self, f: impl FnOnce(&mut BTreeMap<String, usize>) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Stores `bytes` (a source run by `runtime`) and marks them as being checked.
    pub fn start(&self, dir: &Path, sha256: &str, bytes: &[u8], runtime: Option<Runtime>) -> Result<PathBuf, Error> {
        self.with(|m| *m.entry(sha256.to_string()).or_default() += 1);
        let stored = put(dir, sha256, bytes, runtime);
        if stored.is_err() {
            self.with(|m| release(m, sha256));
        }
        stored
    }

    /// The check of `sha256` ended: unless it or another passed, or
    /// another check of it is in flight, the module is deleted.
    pub fn finish(&self, dir: &Path, db: &Db, sha256: &str, passed: bool) -> Result<(), Error> {
        self.with(|m| {
            let last = release(m, sha256);
            if last && !passed && !db.module_in_use(sha256)? {
                remove(dir, sha256)?;
            }
            Ok(())
        })
    }
}

impl Checking {
    /// Deletes those of `shas` that no passed submission names and no
    /// check is using (after an entrant is removed).
    pub fn forget(&self, dir: &Path, db: &Db, shas: &[String]) -> Result<(), Error> {
        self.with(|m| {
            for sha in shas {
                if !m.contains_key(sha) && !db.module_in_use(sha)? {
                    remove(dir, sha)?;
                }
            }
            Ok(())
        })
    }
}

/// One check fewer of `sha256`; whether it was the last.
fn release(m: &mut BTreeMap<String, usize>, sha256: &str) -> bool {
    match m.get_mut(sha256) {
        Some(n) if *n > 1 => {
            *n -= 1;
            false
        }
        _ => {
            m.remove(sha256);
            true
        }
    }
}

/// Deletes a stored module (gone already is fine).
fn remove(dir: &Path, sha256: &str) -> Result<(), Error> {
    for extension in module_endings() {
        match std::fs::remove_file(modules(dir).join(format!("{sha256}.{extension}"))) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
            _ => {}
        }
    }
    Ok(())
}

/// At start: deletes every file in `DIR/modules/` that is not the module
/// of a passed submission (orphans of a kill mid-check, temporary files,
/// modules of removed entrants); returns how many.
pub fn sweep(dir: &Path, db: &Db) -> Result<usize, Error> {
    let Ok(entries) = std::fs::read_dir(modules(dir)) else { return Ok(0) };
    let mut removed = 0;
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let sha = module_endings().find_map(|e| name.strip_suffix(&format!(".{e}")));
        let keep = match sha {
            Some(sha) if sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit()) => db.module_in_use(sha)?,
            _ => false,
        };
        if !keep {
            std::fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// Whether an upload's bytes are a bot's source rather than a
/// WebAssembly module (which starts with the bytes `\0asm`): what decides
/// how a module is stored, so one SHA-256 has one kind.
pub fn is_source(bytes: &[u8]) -> bool {
    !bytes.starts_with(b"\0asm")
}

/// Stores `bytes` (whose SHA-256 is `sha256`) unless already stored: a
/// source as run by `runtime` (the upload's name's, [`Runtime::of`]), a
/// module as `HASH.wasm`. Bytes kept already are kept as they are, so
/// one SHA-256 has one kind, checked as it runs.
pub fn put(dir: &Path, sha256: &str, bytes: &[u8], runtime: Option<Runtime>) -> Result<PathBuf, Error> {
    let kept = module_path(dir, sha256);
    if kept.is_file() {
        return Ok(kept);
    }
    let ending = match runtime {
        Some(runtime) if is_source(bytes) => runtime.ending(),
        _ => Lang::Rust.bot_ending(),
    };
    let path = modules(dir).join(format!("{sha256}.{ending}"));
    std::fs::create_dir_all(modules(dir))?;
    pitboss_host::files::write_atomic(&path, |out| out.write_all(bytes))
        .map_err(|e| Error::Io(std::io::Error::other(e.to_string())))?;
    Ok(path)
}

/// A bot's file name as a run's results record it, checked to be a plain
/// file name (its module in the run's `bots/` folder).
pub fn plain_file(file: &str) -> Result<&str, Error> {
    match Path::new(file).file_name() {
        Some(f) if f == file => Ok(file),
        _ => Err(Error::League(format!(
            "a run's results name the bot file `{}`, not a plain file name",
            pitboss_host::text::excerpt(file, 80)
        ))),
    }
}

/// Copies a stored module into the folder `to` under its
/// [`module_file`] name (a hard link where the disk allows); that name.
pub fn copy_out(dir: &Path, sha256: &str, to: &Path) -> Result<String, Error> {
    let file = module_file(dir, sha256);
    let (from, to) = (modules(dir).join(&file), to.join(&file));
    if !to.is_file() && std::fs::hard_link(&from, &to).is_err() {
        std::fs::copy(&from, &to)?;
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_module_uploaded_many_times_at_once_is_stored_once_whole() {
        let dir = pitboss_testkit::scratch("store", "once");
        let bytes: Vec<u8> = b"\0asm".iter().copied().chain((0..100_000u32).map(|i| (i % 251) as u8)).collect();
        std::thread::scope(|s| {
            let puts: Vec<_> = (0..16).map(|_| s.spawn(|| put(&dir, "ab12", &bytes, None))).collect();
            for p in puts {
                p.join().unwrap().unwrap();
            }
        });
        assert_eq!(std::fs::read(module_path(&dir, "ab12")).unwrap(), bytes);
        let names: Vec<_> = std::fs::read_dir(modules(&dir)).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["ab12.wasm"], "no temporary file left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_python_source_is_kept_as_py_and_found_by_its_hash_alone() {
        let dir = pitboss_testkit::scratch("store", "py");
        put(&dir, "cd34", b"import pitboss\n", Some(Runtime::Python)).unwrap();
        put(&dir, "ef56", b"\0asm\x01\0\0\0", Some(Runtime::Python)).unwrap();
        assert_eq!((module_file(&dir, "cd34"), module_file(&dir, "ef56")), ("cd34.py".into(), "ef56.wasm".into()));
        std::fs::create_dir_all(dir.join("out")).unwrap();
        assert_eq!(copy_out(&dir, "cd34", &dir.join("out")).unwrap(), "cd34.py");
        assert_eq!(std::fs::read(dir.join("out/cd34.py")).unwrap(), b"import pitboss\n");
        remove(&dir, "cd34").unwrap();
        assert_eq!(module_file(&dir, "cd34"), "cd34.wasm", "removed");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_javascript_source_is_kept_as_js_and_found_by_its_hash_alone() {
        let dir = std::env::temp_dir().join(format!("pitboss-store-js-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        put(&dir, "cd34", b"import * as pitboss from 'pitboss';\n", Some(Runtime::JavaScript)).unwrap();
        assert_eq!(module_file(&dir, "cd34"), "cd34.js");
        // The same bytes sent again under another source's name stay as kept.
        assert_eq!(
            put(&dir, "cd34", b"import * as pitboss from 'pitboss';\n", Some(Runtime::Python)).unwrap(),
            module_path(&dir, "cd34")
        );
        std::fs::create_dir_all(dir.join("out")).unwrap();
        assert_eq!(copy_out(&dir, "cd34", &dir.join("out")).unwrap(), "cd34.js");
        let names: Vec<_> = std::fs::read_dir(modules(&dir)).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["cd34.js"]);
        remove(&dir, "cd34").unwrap();
        assert_eq!(module_file(&dir, "cd34"), "cd34.wasm", "removed");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
