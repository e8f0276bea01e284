//! `pitboss merge`: shard files joined into the results of one run.

use std::path::PathBuf;

use anyhow::Result;

/// Merge shard files (from `run --shard`) into the results of a single run.
#[derive(clap::Args)]
pub struct Args {
    /// The shard files.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// Write the merged results as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write the standings as CSV here.
    #[arg(long)]
    csv: Option<PathBuf>,
}

/// Merges, prints the standings and writes what was asked.
pub fn run(args: Args) -> Result<()> {
    let (result, results_file) = pitboss_league::shard::merge(&args.shards)?;
    crate::common::standings(&result, &results_file, args.json, args.csv)
}
