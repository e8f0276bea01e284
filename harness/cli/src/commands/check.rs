//! `pitboss check`: every file checked against a plan (`--variant`,
//! `--league`, or every rule set); a line or the full report per bot as
//! it goes, then a count, and `--json`.

use std::path::PathBuf;

use anyhow::Result;
use pitboss_league::check::{self, Plan};
use pitboss_results::output;

use crate::common::{LimitFlags, sandbox, variant_parser};

/// Validate bot files and smoke-test them; exit status 0 when every bot
/// passed, 1 otherwise.
///
/// Each file is loaded (a module that breaks the ABI or a cap is refused
/// in one line) and plays a short smoke match in every rule set, or only
/// in what `--variant` or `--league` names. One file gets the full
/// report; several get one line each and a count.
///
/// A bot fails when it is refused or any decision faults. Status 1 also
/// when the command itself fails (an unreadable league file, a --json
/// file that cannot be written); 2 is a usage error.
#[derive(clap::Args)]
pub struct Args {
    /// The .wasm (or .wat) files to check, or Python bots' .py sources.
    #[arg(required = true)]
    bots: Vec<PathBuf>,
    /// Check only this rule set (its defaults).
    #[arg(long, value_parser = variant_parser(), conflicts_with = "league")]
    variant: Option<pitboss_sdk::Variant>,
    /// Check only what this league file plays: its rule set with its rule
    /// overrides, under its [limits] (fuel, memory, module caps); the
    /// --max-… flags raise them further.
    #[arg(long, value_name = "FILE.toml")]
    league: Option<PathBuf>,
    /// Also write the verdicts as JSON to FILE (`-`: standard output, the
    /// text then going to standard error).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// The full report for each bot, even for several files.
    #[arg(long, conflicts_with = "summary")]
    details: bool,
    /// One line per bot and a count, even for one file.
    #[arg(long)]
    summary: bool,
    #[command(flatten)]
    limits: LimitFlags,
}

/// Checks every file; says whether every bot passed.
pub fn run(args: &Args) -> Result<bool> {
    let sandbox = sandbox()?;
    let plan = match (&args.league, args.variant) {
        (Some(path), _) => Plan::league(path, &sandbox)?,
        (None, Some(variant)) => Plan::rule_set(variant, &sandbox)?,
        (None, None) => Plan::every_rule_set(&sandbox)?,
    }
    .raised(&args.limits.raised())?;
    // With the JSON on standard output, the text goes to standard error.
    let json_on_stdout = args.json.as_deref() == Some(std::path::Path::new("-"));
    let say = |text: String| {
        if json_on_stdout {
            eprintln!("{text}");
        } else {
            out!("{text}");
        }
    };
    let lines = args.summary || (args.bots.len() > 1 && !args.details);
    let width = args.bots.iter().map(|p| check::shown(p).chars().count()).max().unwrap_or(0);
    let mut reports = Vec::with_capacity(args.bots.len());
    for path in &args.bots {
        crate::common::warn_stale(path);
        let report = check::check(path, &plan);
        say(if lines { report.line(width) } else { report.render().trim_end().to_string() });
        if let Some(hint) =
            crate::common::league_beside(path, report.refusal.as_deref(), args.league.is_some(), "check")
        {
            say(hint);
        }
        reports.push(report);
    }
    if lines || reports.len() > 1 {
        say(check::summary(&reports));
    }
    match &args.json {
        Some(_) if json_on_stdout => out!("{}", serde_json::to_string_pretty(&reports)?),
        Some(path) => output::write_json(path, &reports)?,
        None => {}
    }
    Ok(reports.iter().all(|r| r.passed))
}
