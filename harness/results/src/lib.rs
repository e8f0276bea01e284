//! Pitboss results as an API: what a league's run produces and everyone
//! after it reads. `pitboss-league` writes these types; the report, the
//! server, `verify`, `merge` and `replay` read them, and none of them
//! needs the wasm sandbox to do so.
//!
//! - [`ResultsFile`] and its parts (the schema of `results.json`, versioned
//!   by [`SCHEMA_VERSION`]), read by [`read`] / [`open`] with a typed
//!   [`Error`];
//! - [`tally`] and [`counts`]: what each bot did, counted by the engine's
//!   own enums;
//! - [`standings`]: ranking and the verdict line; [`pairs`]: the paired
//!   sums its test reads, and which pairs a session keeps;
//! - [`luck`]: a bot's luck-adjusted round results, summed;
//! - [`sequential`]: the paired test of two bots session by session, and
//!   the stopping rule of a league played until it is resolved;
//! - [`session`] and [`shard`]: one session's figures, losslessly, and the
//!   shard file that carries them;
//! - [`seating`]: who sits where in each session;
//! - [`names`]: the names of events, outcomes, shuffles and side bets;
//! - [`rules`]: every rule field declared once, and the rules record;
//! - [`output`]: JSON, text and CSV written whole;
//! - [`coach`]: the coach's report (`pitboss coach --json`), read as
//!   hostile input.
//!
//! **Invariant:** nothing in a results file depends on where, when or how
//! the league was run: no path as typed, no time, no thread count.

pub mod coach;
pub mod cost;
pub mod counts;
pub mod league;
pub mod luck;
pub mod names;
pub mod output;
pub mod overall;
pub mod pairs;
mod read;
pub mod rules;
mod schema;
pub mod seating;
pub mod sequential;
pub mod session;
pub mod shard;
pub mod standings;
pub mod tally;

pub use cost::Cost;
pub use league::{BotEntry, Format, MAX_BOT_SESSIONS, MAX_BOTS, MAX_ROUNDS, MAX_SESSIONS, Skipped};
pub use read::{Error, first_difference, first_difference_at, open, parse, read, schema_json};
pub use rules::{Insurance, RulesRecord};
pub use schema::*;
pub use session::{SessionBot, SessionResult};
