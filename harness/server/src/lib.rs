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
pub mod browsed;
pub mod chips;
pub mod cluster;
pub mod coaching;
pub mod compare;
pub mod competition;
pub mod copy;
pub mod csrf;
pub mod data;
pub mod db;
pub mod download;
pub mod editor;
pub mod entrants;
pub mod error;
pub mod grades;
pub mod guards;
pub mod history;
pub mod import;
pub mod log;
pub mod login;
pub mod mine;
pub mod net;
pub mod organiser;
pub mod oversize;
pub mod page;
pub mod pages;
pub mod paths;
pub mod plans;
pub mod replays;
pub mod routes;
pub mod runs;
pub mod scores;
pub mod scrimmage;
pub mod scrimmage_pages;
pub mod secret;
pub mod seen;
pub mod similarity;
pub mod sources;
pub mod state;
pub mod store;
pub mod tries;
pub mod uploads;
pub mod verdict;
pub mod verification;
pub mod worker;

#[cfg(test)]
mod tests;

pub use app::{add_entrant, serve};
pub use data::Options;
pub use error::Error;
pub use import::import_run;
