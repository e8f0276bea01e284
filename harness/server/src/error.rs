//! The server's one error type: what can stop the server or one of its
//! requests ([`crate::answer::Failure`] is how a request's error is
//! answered).

use std::path::PathBuf;

/// What can stop the server or one of its requests.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The competition file is wrong (one line, `file:line: problem`).
    #[error("{0}")]
    Competition(String),
    /// A league could not be checked or played.
    #[error("{0}")]
    League(String),
    /// The database.
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// A file or socket.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A results file that cannot be read or trusted.
    #[error(transparent)]
    Results(#[from] pitboss_results::Error),
    /// A file that cannot be read or written whole.
    #[error(transparent)]
    File(#[from] pitboss_host::files::FileError),
    /// JSON.
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
    /// A name that cannot be an entrant's.
    #[error("`{0}` is not an entrant name: 1 to 32 letters, digits, - or _")]
    BadName(String),
    /// An entrant of that name exists.
    #[error("there is already an entrant named `{0}`")]
    Taken(String),
    /// A results file that cannot be imported (one line: why).
    #[error("{0}")]
    Import(String),
    /// Over a rate limit: what, and the seconds to wait.
    #[error("{0}")]
    Limited(String, u64),
    /// The competition has its most entrants.
    #[error("this competition has its most entrants ({0}); the organiser may raise [entrants] max")]
    Full(u64),
    /// The data folder cannot be used.
    #[error("data folder {0}: {1}")]
    Data(PathBuf, String),
}
