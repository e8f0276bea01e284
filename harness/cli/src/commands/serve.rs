//! `pitboss serve COMPETITION.toml`: the competition server, or with
//! `--add-entrant NAME` one new entrant's token, or with `--import-run
//! results.json --league K` a league's run played elsewhere, proven first
//! (`pitboss_server::import`: its bots, its figures, and a replay of a
//! random sample of its sessions, or of all with `--verify-all`).

use std::path::PathBuf;

use anyhow::Result;
use pitboss_server::import::{DEFAULT_SAMPLE, Imported, Replay};
use pitboss_server::{Options, add_entrant, import_run, serve};

/// Run a competition server: entrants upload bots and get verdicts at
/// once, leagues run in the background, a leaderboard shows the latest
/// standings.
///
/// At the first start the organiser's token, and each entrant the file
/// lists, is printed once; only hashes are kept. Stops gracefully on
/// SIGTERM or Ctrl-C; a run interrupted by a crash is played again at the
/// next start.
#[derive(clap::Args)]
pub struct Args {
    /// The competition file (TOML): leagues, deadline, runs, uploads, entrants.
    competition: PathBuf,
    /// The data folder: database, uploaded modules, runs.
    #[arg(long, value_name = "DIR", default_value = "pitboss-data")]
    data: PathBuf,
    /// Address to listen on (port 0: any free port, printed).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    listen: String,
    /// Register an entrant, print their token, and exit.
    #[arg(long, value_name = "NAME", conflicts_with = "import_run")]
    add_entrant: Option<String>,
    /// Import merged results (`pitboss merge --json`) of a league played
    /// elsewhere as a finished run, and exit (needs --league). Its bots
    /// must be the active entrants' bots, its figures must add up, and a
    /// random sample of its sessions is replayed first.
    #[arg(long, value_name = "RESULTS", requires = "league")]
    import_run: Option<PathBuf>,
    /// The competition's league (1-based, in file order) the imported results are of.
    #[arg(long, value_name = "K", requires = "import_run")]
    league: Option<usize>,
    /// Sessions of an import to replay, chosen at random once the file is
    /// read (a sample of k of S sessions costs k/S of the run's time).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SAMPLE, value_parser = clap::value_parser!(u64).range(1..),
          requires = "import_run", conflicts_with = "verify_all")]
    verify_sessions: u64,
    /// Replay every session of an import and compare the whole file byte
    /// for byte (the run's whole cost).
    #[arg(long, requires = "import_run")]
    verify_all: bool,
}

/// Serves until stopped, or registers one entrant.
pub fn run(args: Args) -> Result<()> {
    let options = Options { competition: args.competition, data: args.data, listen: args.listen };
    if let (Some(results), Some(league)) = (&args.import_run, args.league) {
        let replay = if args.verify_all { Replay::All } else { Replay::Sample(args.verify_sessions) };
        let done = import_run(&options, results, league, replay)?;
        out!("imported run {}: league {league} (`{}`), {} bots; {}", done.run, done.league, done.bots, replayed(&done));
        return Ok(());
    }
    match args.add_entrant {
        Some(name) => {
            let token = add_entrant(&options, &name)?;
            out!("entrant {name}: {token}");
        }
        None => serve(&options)?,
    }
    Ok(())
}

/// What an import replayed: "all 2 session(s) replayed, identical byte
/// for byte" or "session(s) 3, 17 (2 of 100, chosen at random) replayed,
/// identical: a forgery of 1 session would have been missed with
/// probability 0.98, …".
fn replayed(done: &Imported) -> String {
    let n = done.replayed.len() as u64;
    if n == done.sessions {
        return format!("all {n} session(s) replayed, identical byte for byte");
    }
    let mut list: Vec<String> = done.replayed.iter().take(16).map(u64::to_string).collect();
    if n > 16 {
        list.push("…".into());
    }
    format!(
        "session(s) {} ({n} of {}, chosen at random) replayed, identical: {}; replay more with --verify-sessions N \
         or --verify-all, or on the organiser's page",
        list.join(", "),
        done.sessions,
        pitboss_server::verification::odds(done.sessions, n)
    )
}
