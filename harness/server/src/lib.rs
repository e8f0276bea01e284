//! The Pitboss competition server (`pitboss serve`): entrants upload wasm
//! bots and get `pitboss check`'s verdict at once, a background worker
//! plays every league with each entrant's active bot, and a leaderboard
//! shows the latest run's standings.
//!
//! The design in one breath: state lives in SQLite in the data folder
//! (`db`), uploaded modules once each by SHA-256 (`store`), runs as
//! ordinary league folders that `pitboss verify` re-runs (`worker`). The
//! HTTP side is hyper and axum on tokio: our own accept loop with a
//! connection cap and timeouts (`net`), every route and its layers
//! (`routes`), who a caller is decided from headers before any body byte
//! (`auth`), rate limits and slots (`guards`), a JSON API authenticated
//! by `Authorization: Bearer TOKEN` (`api`), and HTML pages behind a
//! session cookie whose forms carry a CSRF token (`pages`). Checks, runs
//! and database work are blocking work kept off the async threads
//! (`state::App::blocking`), so a run never blocks an upload or a page.
//!
//! **Invariant:** an entrant reads and changes only their own
//! submissions; tokens are stored only as hashes.
//!
//! ```no_run
//! use pitboss_server::{Options, serve};
//! let options = Options {
//!     competition: "competition.toml".into(),
//!     data: "data".into(),
//!     listen: "127.0.0.1:8080".into(),
//! };
//! serve(&options)?;
//! # Ok::<(), pitboss_server::Error>(())
//! ```

pub mod answer;
pub mod api;
pub mod app;
pub mod auth;
pub mod chips;
pub mod cluster;
pub mod coaching;
pub mod compare;
pub mod competition;
pub mod db;
pub mod entrants;
pub mod guards;
pub mod history;
pub mod import;
pub mod log;
pub mod login;
pub mod mine;
pub mod net;
pub mod organiser;
pub mod oversize;
pub mod pages;
pub mod plans;
pub mod replays;
pub mod routes;
pub mod scores;
pub mod scrimmage;
pub mod scrimmage_pages;
pub mod secret;
pub mod seen;
pub mod sources;
pub mod state;
pub mod store;
pub mod uploads;
pub mod verdict;
pub mod verification;
pub mod worker;

use std::path::PathBuf;

pub use app::{Options, add_entrant, serve};
pub use import::import_run;

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
