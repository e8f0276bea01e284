//! A shard file: the sessions one `pitboss run --shard I/N` played, kept
//! losslessly (integers that may pass 2^53 as decimal strings, so no JSON
//! reader can round them), with the league embedded as in a results
//! file, so merging needs no league file.

use serde::{Deserialize, Serialize};

use crate::league::Skipped;
use crate::schema::{BotSource, LeagueRecord};
use crate::session::SessionResult;

/// A shard file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardFile {
    /// The results schema version ([`crate::SCHEMA_VERSION`]).
    pub schema_version: u32,
    /// "I/N".
    pub shard: String,
    /// The league, embedded as in a results file.
    pub league: LeagueRecord,
    /// The bots and their hashes.
    pub bots: Vec<BotSource>,
    /// The sessions this shard played.
    pub sessions: Vec<SessionResult>,
    /// Folder and glob entries left out, for the command to warn about
    /// (not written).
    #[serde(skip)]
    pub skipped: Vec<Skipped>,
}
