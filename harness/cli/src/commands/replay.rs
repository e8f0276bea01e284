//! `pitboss replay`: one round of a league re-simulated from its results
//! file, card by card.

use std::path::PathBuf;

use anyhow::Result;
use pitboss_league::replay::{ReplayRequest, replay};

/// Re-simulate one round of a league from its results file, card by card.
#[derive(clap::Args)]
pub struct Args {
    /// The league's results.json (from `pitboss run --json`).
    results: PathBuf,
    /// Session (from 0).
    #[arg(long, default_value_t = 0)]
    session: u64,
    /// Round (from 1).
    #[arg(long)]
    round: u64,
    /// Table of the session (from 0).
    #[arg(long, default_value_t = 0)]
    table: usize,
    /// Show only this box's events (and the dealer's).
    #[arg(long = "box")]
    only_box: Option<u8>,
    /// Also write the table's hand history for the whole session as JSON lines.
    #[arg(long)]
    log: Option<PathBuf>,
    /// A folder to find bot files in by SHA-256, whatever their names (after the results file's folder).
    #[arg(long, value_name = "DIR")]
    bots: Option<PathBuf>,
}

/// Replays the round onto standard output.
pub fn run(args: Args) -> Result<()> {
    let Args { results, session, round, table, only_box, log, bots } = args;
    let request = ReplayRequest { results, bots, session, round, table, only_box, log };
    let stdout = std::io::stdout();
    replay(&request, stdout.lock())
}
