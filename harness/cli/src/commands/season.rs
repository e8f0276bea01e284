//! `pitboss season`: a season file's leagues run in turn, then the
//! overall standings.

use std::path::PathBuf;

use anyhow::Result;
use pitboss_results::output;

use crate::common::{threads, warn_skipped};

/// Run a season (a file listing leagues) and print the overall standings.
#[derive(clap::Args)]
pub struct Args {
    /// The season file (TOML).
    season: PathBuf,
    /// Write the season's results as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Worker threads, 1 to 256 [default: all cores].
    #[arg(long, value_parser = threads)]
    threads: Option<usize>,
}

/// Runs the season and prints its table.
pub fn run(args: Args) -> Result<()> {
    let result = pitboss_league::season::run(&args.season, args.threads)?;
    for l in &result.leagues {
        warn_skipped(&l.skipped);
    }
    out!("{}", result.name);
    out!("{}", pitboss_league::season::table(&result));
    if let Some(path) = args.json {
        output::write_json(&path, &result)?;
    }
    Ok(())
}
