//! The data folder's layout, in one place: the database beside
//! `modules/` (each uploaded module once, by SHA-256), `runs/N/league-K/`
//! (a finished run's league folder, with its public copies under
//! `public/`), `scrimmages/N/`, `tries/ENTRANT/` (an entrant's latest
//! Try) and `similarity/` (fingerprints). Everything that names a path in the data folder asks here.

use std::path::{Path, PathBuf};

use pitboss_host::lang::{Lang, Runtime};

/// The database and its journal files.
pub const DB_FILES: [&str; 3] = ["pitboss.db", "pitboss.db-wal", "pitboss.db-shm"];

/// The folder of every run (and of an import while it is staged).
pub fn runs(dir: &Path) -> PathBuf {
    dir.join("runs")
}

/// The folder of the uploaded modules, each once by SHA-256.
pub fn modules(dir: &Path) -> PathBuf {
    dir.join("modules")
}

/// The folder of the bots' similarity fingerprints, each kept by its
/// module and league (`crate::similarity`).
pub fn similarity(dir: &Path) -> PathBuf {
    dir.join("similarity")
}

/// The folder of a league's public copies.
pub const PUBLIC: &str = "public";

/// Where run `id` keeps its files.
pub fn run_dir(dir: &Path, id: i64) -> PathBuf {
    runs(dir).join(id.to_string())
}

/// Where scrimmage `id` keeps its files.
pub fn scrimmage_dir(dir: &Path, id: i64) -> PathBuf {
    dir.join("scrimmages").join(id.to_string())
}

/// Whether `folder` names a league of a run (`league-K`).
pub fn league_folder(folder: &str) -> bool {
    folder
        .strip_prefix("league-")
        .is_some_and(|n| !n.is_empty() && n.len() < 6 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The endings a module is kept under: each runtime's source (`py`, `js`:
/// a source is run by its file's ending), then a compiled module's
/// (`wasm`, every compiled language's), last.
pub fn module_endings() -> impl Iterator<Item = &'static str> {
    Runtime::ALL.into_iter().map(Runtime::ending).chain([Lang::Rust.bot_ending()])
}

/// The file name the module with this SHA-256 is kept under, and has in
/// a run's `bots/` folder: `HASH.py` or `HASH.js` for a bot's source
/// (under the ending its upload had), else `HASH.wasm`.
pub fn module_file(dir: &Path, sha256: &str) -> String {
    let mut names = module_endings().map(|ending| format!("{sha256}.{ending}"));
    let compiled = Lang::Rust.bot_ending();
    names.find(|name| modules(dir).join(name).is_file()).unwrap_or_else(|| format!("{sha256}.{compiled}"))
}

/// Where the module with this SHA-256 is kept.
pub fn module_path(dir: &Path, sha256: &str) -> PathBuf {
    modules(dir).join(module_file(dir, sha256))
}

/// Where entrant `id`'s latest Try from the editor keeps its league
/// folder (replaced by their next Try).
pub fn try_dir(dir: &Path, id: i64) -> PathBuf {
    dir.join("tries").join(id.to_string())
}
