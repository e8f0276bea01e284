//! `pitboss run`: a league file played and its standings printed; with
//! `--shard I/N`, only its share of the sessions, written as a shard file;
//! with `--slurm`, as a Slurm array job of shards (`super::cluster`).

use std::path::PathBuf;

use anyhow::{Context, Result};
use pitboss_results::output;

use crate::common::{progress_bar, sandbox, threads, warn_skipped};

/// Run a league file and print the standings.
#[derive(clap::Args)]
pub struct Args {
    /// The league file (TOML).
    league: PathBuf,
    /// Write the full results (version, hashes, sessions, faults) as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write the standings as CSV here.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Worker threads, 1 to 256 [default: all cores]; results are identical for any count.
    #[arg(long, value_parser = threads)]
    threads: Option<usize>,
    /// Run only sessions s with s % N == I and write a shard file to --json (merge with `pitboss merge`).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    #[command(flatten)]
    cluster: super::cluster::ClusterArgs,
}

/// Runs the league (or its shard) and prints or writes what was asked.
pub fn run(args: Args) -> Result<()> {
    if args.cluster.wanted() {
        if args.shard.is_some() {
            anyhow::bail!(
                "--shard is what each cluster task runs; give --slurm, --slurm-script or --k8s-manifest alone"
            );
        }
        let Some((result, results_file)) = super::cluster::run(&args.league, &args.cluster, args.threads)? else {
            return Ok(());
        };
        heading(&result);
        return crate::common::standings(&result, &results_file, args.json, args.csv);
    }
    if let Some(shard) = &args.shard {
        let shard = pitboss_league::shard::parse_shard(shard)?;
        let out_path = args.json.context("--shard needs --json FILE for the shard file")?;
        let file = pitboss_league::shard::run_shard(&args.league, shard, args.threads)?;
        warn_skipped(&file.skipped);
        output::write_json(&out_path, &file)?;
        eprintln!("shard {} written to {}", file.shard, out_path.display());
        return Ok(());
    }
    let file = pitboss_league::file::parse(&args.league)?;
    let sandbox = sandbox()?;
    let bar = progress_bar(file.rounds * file.sessions);
    let (result, results_file) =
        pitboss_league::league::run_with(&file, &args.league, &sandbox, args.threads, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    warn_skipped(&result.skipped);
    heading(&result);
    crate::common::standings(&result, &results_file, args.json, args.csv)
}

/// The lines above the standings: the league, and how it ranks (the
/// order `pitboss_results::standings` gives, said in words).
fn heading(result: &pitboss_results::LeagueResult) {
    out!(
        "{} — {} session(s) × {} rounds of {} (seed {}, {} format)",
        result.name,
        result.sessions,
        result.rounds,
        result.variant,
        result.seed,
        result.format
    );
    out!("{RANKING}");
}

/// How `pitboss run` ranks, printed above its standings.
pub const RANKING: &str =
    "Ranked by final chips, highest first; bots that went broke, then disqualified ones, below those in play.";
