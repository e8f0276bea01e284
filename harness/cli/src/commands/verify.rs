//! `pitboss verify`: a league re-run from its results file alone, byte
//! for byte, or the first difference named.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use pitboss_league::verify::{Verdict, VerifyRequest, verify};

use crate::common::{progress_bar, threads};

/// Re-run a league from its results file alone and confirm the results are byte-identical (exit 0), or name the first difference (exit 1).
#[derive(clap::Args)]
pub struct Args {
    /// The league's results.json.
    results: PathBuf,
    /// A folder to find bot files in by SHA-256, whatever their names (after the results file's folder).
    #[arg(long, value_name = "DIR")]
    bots: Option<PathBuf>,
    /// Only these sessions, e.g. 0,3 (from 0); only their records are compared.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    sessions: Option<Vec<u64>>,
    /// Worker threads, 1 to 256 [default: all cores].
    #[arg(long, value_parser = threads)]
    threads: Option<usize>,
}

/// Re-runs and prints the verdict; a difference is a failure.
pub fn run(args: Args) -> Result<ExitCode> {
    let Args { results, bots, sessions, threads } = args;
    let bar = progress_bar(0);
    let request = VerifyRequest { results, bots, sessions, threads };
    let verdict = verify(&request, &|n| bar.set_length(n), &|n| bar.inc(n))?;
    bar.finish_and_clear();
    Ok(match verdict {
        Verdict::Identical(what) => {
            out!("{what}");
            ExitCode::SUCCESS
        }
        Verdict::Differs(what) => {
            out!("differs: {what}");
            ExitCode::FAILURE
        }
    })
}
