//! `pitboss replay`: one round of a league re-simulated from its results
//! file, card by card; or, with `--server`, one round of a competition
//! run replayed by the server (one's own tables; every table for the
//! organiser), printed exactly as the local replay prints it.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use pitboss_host::text::{excerpt, printable};
use pitboss_league::replay::{ReplayRequest, replay};
use serde_json::Value;

use super::submit::{agent, base};
use crate::common::LimitFlags;

/// Most characters of a server's transcript printed.
const SHOWN_TRANSCRIPT: usize = 4 << 20;

/// Re-simulate one round of a league from its results file, card by card.
#[derive(clap::Args)]
pub struct Args {
    /// The league's results.json (from `pitboss run --json`); not with --server.
    #[arg(required_unless_present = "server", conflicts_with = "server")]
    results: Option<PathBuf>,
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
    #[arg(long = "box", conflicts_with = "server")]
    only_box: Option<u8>,
    /// Also write the table's hand history for the whole session as JSON lines.
    #[arg(long, conflicts_with = "server")]
    log: Option<PathBuf>,
    /// A folder to find bot files in by SHA-256, whatever their names (after the results file's folder).
    #[arg(long, value_name = "DIR", conflicts_with = "server")]
    bots: Option<PathBuf>,
    /// Ask a competition server to replay the round of one of its runs.
    #[arg(long, value_name = "URL", requires_all = ["token", "run"])]
    server: Option<String>,
    /// Your entrant token (pbe_…), or the organiser's; with --server.
    #[arg(long, value_name = "TOKEN", requires = "server")]
    token: Option<String>,
    /// The run's number on the server; with --server.
    #[arg(long, value_name = "N", requires = "server")]
    run: Option<i64>,
    /// The league of the run, from 1 in the competition file's order; with --server.
    #[arg(long, value_name = "K", default_value_t = 1, requires = "server")]
    league: u32,
    /// The league's own [limits] apply; a --max-… flag raises one further
    /// for this replay only (the round may then play otherwise).
    #[command(flatten)]
    limits: LimitFlags,
}

/// Replays the round onto standard output.
pub fn run(args: Args) -> Result<()> {
    if let (Some(server), Some(token), Some(run)) = (&args.server, &args.token, args.run) {
        if !args.limits.raised().is_empty() {
            bail!("--max-… flags raise limits for a local replay only: the server replays under its run's limits");
        }
        return from_server(server, token, run, &args);
    }
    let Args { results, session, round, table, only_box, log, bots, limits, .. } = args;
    let Some(results) = results else { bail!("give a results.json, or --server URL --token T --run N") };
    let raised = limits.raised();
    let request = ReplayRequest { results, bots, session, round, table, only_box, log, raised };
    let stdout = std::io::stdout();
    replay(&request, stdout.lock())
}

/// Asks `server` for the round and prints its transcript.
fn from_server(server: &str, token: &str, run: i64, args: &Args) -> Result<()> {
    if args.league == 0 {
        bail!("--league counts from 1");
    }
    let url = format!(
        "{}/api/runs/{run}/league-{}/replay?session={}&table={}&round={}",
        base(server),
        args.league,
        args.session,
        args.table,
        args.round
    );
    let mut answer = agent()
        .get(&url)
        .header("Authorization", &format!("Bearer {token}"))
        .call()
        .with_context(|| format!("cannot reach {}", base(server)))?;
    let status = answer.status();
    let body: Value = answer
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_json()
        .with_context(|| format!("the server answered {status} without JSON"))?;
    if !status.is_success() {
        bail!("the server answered {status}: {}", excerpt(body["error"].as_str().unwrap_or("?"), 500));
    }
    let transcript = body["transcript"].as_str().context("the server's answer has no transcript")?;
    // A hostile server's control characters never reach the terminal.
    out!("{}", printable(transcript.trim_end_matches('\n'), SHOWN_TRANSCRIPT));
    Ok(())
}
