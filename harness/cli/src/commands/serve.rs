//! `pitboss serve COMPETITION.toml`: the competition server, or with
//! `--add-entrant NAME` one new entrant's token, or with `--import-run
//! results.json --league K` a league's run played elsewhere.

use std::path::PathBuf;

use anyhow::Result;
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
    /// elsewhere as a finished run, and exit (needs --league).
    #[arg(long, value_name = "RESULTS", requires = "league")]
    import_run: Option<PathBuf>,
    /// The competition's league (1-based, in file order) the imported results are of.
    #[arg(long, value_name = "K", requires = "import_run")]
    league: Option<usize>,
}

/// Serves until stopped, or registers one entrant.
pub fn run(args: Args) -> Result<()> {
    let options = Options { competition: args.competition, data: args.data, listen: args.listen };
    if let (Some(results), Some(league)) = (&args.import_run, args.league) {
        let done = import_run(&options, results, league)?;
        out!("imported run {}: league {league} (`{}`), {} bots", done.run, done.league, done.bots);
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
