//! Opening the data folder, for the server and for an import alike: made
//! if missing (`0700`, one canonical path), the database (`0600`), and at
//! first start the organiser's token and the entrants the competition
//! file lists, each printed once.

use std::path::{Path, PathBuf};

use crate::competition::Competition;
use crate::db::Db;
use crate::error::Error;
use crate::{auth, entrants};

/// How to start.
#[derive(Clone, Debug)]
pub struct Options {
    /// The competition file.
    pub competition: PathBuf,
    /// The data folder (database, modules, runs).
    pub data: PathBuf,
    /// Address to listen on, e.g. `127.0.0.1:8080` (port 0: any free one).
    pub listen: String,
}

/// New files and folders of this process: for its own user only.
pub(crate) fn private_umask() {
    // SAFETY: umask only sets the process's file-mode mask; it cannot fail.
    unsafe {
        libc::umask(0o077);
    }
}

/// Makes `path` (a file or folder) its owner's only.
pub(crate) fn make_private(path: &Path, mode: u32) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt as _;
    match std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::Data(path.to_path_buf(), e.to_string())),
        _ => Ok(()),
    }
}

/// Opens the data folder: creates it (`0700`), the database (`0600`), and
/// at first start the organiser's token (printed) and the listed
/// entrants (each token printed once).
pub(crate) fn open(options: &Options, competition: &Competition) -> Result<(Db, String), Error> {
    private_umask();
    let data = &options.data;
    std::fs::create_dir_all(data).map_err(|e| Error::Data(data.clone(), e.to_string()))?;
    make_private(data, 0o700)?;
    let db = Db::open(data)?;
    for file in crate::paths::DB_FILES {
        make_private(&data.join(file), 0o600)?;
    }
    let admin_hash = match db.meta("admin_token_hash")? {
        Some(hash) => hash,
        None => {
            let token = auth::new_secret("pba_")?;
            let hash = auth::hash(&token);
            db.set_meta("admin_token_hash", &hash)?;
            say(&format!("admin token: {token}"));
            hash
        }
    };
    for name in &competition.entrants {
        if !db.has_entrant(name)? {
            let token = entrants::register(&db, name, competition.max_entrants)?;
            say(&format!("entrant {name}: {token}"));
        }
    }
    Ok((db, admin_hash))
}

/// The data folder, made if missing, as one absolute, canonical path,
/// resolved once at start: the server writes it into league files whose
/// bot paths are read relative to the league file's own folder, so a
/// relative one (the default `pitboss-data`) would be joined twice.
pub(crate) fn data_folder(data: &Path) -> Result<PathBuf, Error> {
    private_umask();
    std::fs::create_dir_all(data).map_err(|e| Error::Data(data.to_path_buf(), e.to_string()))?;
    data.canonicalize().map_err(|e| Error::Data(data.to_path_buf(), e.to_string()))
}

/// Prints a line to stdout at once (a supervisor or test reads it).
pub(crate) fn say(line: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}
