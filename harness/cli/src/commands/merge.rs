//! `pitboss merge`: shard files joined into the results of one run, and
//! with `--verify-sessions N` a random sample of the merged sessions
//! replayed from the league and the bot files, so a shard whose figures
//! were changed consistently (nets, counts and series shifted together,
//! which no sum can catch) is found with the probability docs/server.md gives.

use std::path::PathBuf;

use anyhow::{Result, bail};
use pitboss_league::verify::{Verdict, VerifyRequest, random_sessions, verify};

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
    /// Then replay N sessions drawn at random (all if N is at least the
    /// league's sessions) from the league and its bot files, and refuse
    /// any difference (needs --json).
    #[arg(long, value_name = "N", requires = "json", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    verify_sessions: Option<u64>,
    /// Where else to look for the bot files of --verify-sessions (matched
    /// by SHA-256).
    #[arg(long, value_name = "DIR", requires = "verify_sessions")]
    bots: Option<PathBuf>,
}

/// Merges, prints the standings and writes what was asked.
pub fn run(args: Args) -> Result<()> {
    let (result, results_file) = pitboss_league::shard::merge(&args.shards)?;
    let sessions = results_file.sessions.len() as u64;
    crate::common::standings(&result, &results_file, args.json.clone(), args.csv)?;
    let (Some(k), Some(json)) = (args.verify_sessions, args.json) else { return Ok(()) };
    let wanted = random_sessions(sessions, k)?;
    let all = wanted.len() as u64 == sessions;
    let request = VerifyRequest { results: json, bots: args.bots, sessions: (!all).then_some(wanted), threads: None };
    match verify(&request, &|_| (), &|_| ())? {
        Verdict::Identical(what) => {
            out!("{what}");
            Ok(())
        }
        Verdict::Differs(what) => bail!("a merged session differs from its replay: {what}"),
    }
}
