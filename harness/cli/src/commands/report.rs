//! `pitboss report`: a league's results as one self-contained HTML page.

use std::path::PathBuf;

use anyhow::Result;
use pitboss_report::{ReportRequest, write_report_with};

/// Write a league's results as one self-contained HTML page: standings,
/// charts, per-bot play, faults and a hand viewer.
#[derive(clap::Args)]
pub struct Args {
    /// The league's results.json (from `pitboss run --json` or `pitboss merge --json`).
    results: PathBuf,
    /// The HTML file to write.
    #[arg(short, long, default_value = "report.html")]
    output: PathBuf,
    /// The session whose hands the viewer replays (from 0).
    #[arg(long, default_value_t = 0)]
    session: u64,
    /// Opening rounds of the session's first table the viewer shows beside its deciding hands (0 to 5, as stored).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(0..=5))]
    opening_rounds: u64,
    /// Add a coach section from this JSON of `pitboss coach --json` (repeat for more bots).
    #[arg(long, value_name = "COACH.json")]
    coach: Vec<PathBuf>,
}

/// Writes the page and says where, and how big.
pub fn run(args: Args) -> Result<()> {
    let Args { results, output, session, opening_rounds, coach } = args;
    let coach = coach.iter().map(|path| pitboss_results::coach::read(path)).collect::<Result<Vec<_>, _>>()?;
    let request = ReportRequest { results, session, opening_rounds };
    if let Some(warning) = write_report_with(&request, &coach, &output)? {
        eprintln!("pitboss: warning: {warning}");
    }
    let size = std::fs::metadata(&output).map(|m| m.len()).unwrap_or(0);
    out!("wrote {} ({} KiB)", output.display(), size.div_ceil(1024));
    Ok(())
}
