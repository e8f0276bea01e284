//! What results record of a league's settings that the league file
//! also says: how bots are seated, its `[[bot]]` entries as written, the
//! entries a folder or glob left out, and the sizes every league (and so
//! every results file) stays within.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How bots are seated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Shared tables, seats rotating every session.
    #[default]
    Table,
    /// Duplicate: each bot alone at its own table, all tables dealt from
    /// the same seed, so luck is shared and only skill differs.
    Solo,
    /// The banker game with the bank rotating: shared tables where every
    /// bot banks equally often and the bots play each other.
    Bank,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Table => "table",
            Format::Bank => "bank",
            Format::Solo => "solo",
        })
    }
}

/// One `[[bot]]` entry: a `.wasm` path (or a glob like `subs/*.wasm`), a
/// `folder` of `.wasm` files, or a `builtin` strategy.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BotEntry {
    /// Display name, unique within the league (file stems name the bots
    /// of a glob or folder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Path to a `.wasm` file, or a glob, relative to the league file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// A folder of submissions: every `.wasm` file in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    /// Name of a builtin strategy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
}

/// An entry of a bot folder or glob left out because it is not a regular
/// file (after following symlinks): a FIFO, a device, a socket, a folder,
/// a dangling symlink.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The entry.
    pub path: PathBuf,
    /// What it is: "a FIFO", "a dangling symlink".
    pub found: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "skipped {:?}: {}, not a regular file", self.path, self.found)
    }
}
/// Most rounds per table per session (and for `pitboss play`).
pub const MAX_ROUNDS: u64 = 10_000_000_000;
/// Most sessions in a league.
pub const MAX_SESSIONS: u64 = 10_000;
/// Most bots in a league.
pub const MAX_BOTS: usize = 1_000;
/// Most bots × sessions: results keep 200 balance samples for each, so
/// this bounds a results file (and the memory that builds it) to about
/// 200 MB.
pub const MAX_BOT_SESSIONS: u64 = 100_000;
