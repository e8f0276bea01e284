//! What several commands share: the sandbox (with its one cache warning),
//! the progress bar, warnings for left-out league entries, and the
//! parsers of `--variant` and `--threads`.

use std::path::PathBuf;

use anyhow::Result;
use pitboss_host::Sandbox;
use pitboss_results::output;
use pitboss_results::{LeagueResult, ResultsFile};

/// A sandbox with the default limits. When the compile cache cannot be
/// used, says why on stderr, once per process however many sandboxes are
/// made (a replay or a league's `[limits]` makes more than one).
pub fn sandbox() -> Result<Sandbox> {
    let sandbox = pitboss_league::sandbox()?;
    if let Some(why) = pitboss_league::cache_warning(&sandbox) {
        eprintln!("pitboss: warning: {why}");
    }
    Ok(sandbox)
}

/// A league's standings and their notes on standard output, then its
/// results as JSON and its standings as CSV where asked (`run`, `merge`).
pub fn standings(result: &LeagueResult, file: &ResultsFile, json: Option<PathBuf>, csv: Option<PathBuf>) -> Result<()> {
    out!("{}", pitboss_cli::tables::standings_table(&result.standings));
    out!("{}", pitboss_cli::tables::standings_notes(result));
    if let Some(path) = json {
        output::write_json(&path, file)?;
    }
    if let Some(path) = csv {
        output::write_text(&path, &output::standings_csv(&result.standings))?;
    }
    Ok(())
}

/// Warns about folder and glob entries a league left out.
pub fn warn_skipped(skipped: &[pitboss_results::Skipped]) {
    for s in skipped {
        eprintln!("pitboss: warning: {s}");
    }
}

/// A progress bar with rounds per second and an ETA on a terminal;
/// hidden when stderr is not one (CI logs, pipes).
pub fn progress_bar(total: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rounds  {per_sec}  ETA {eta}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// `--variant`: a rule set by its id; `--help` lists them.
pub fn variant_parser() -> impl clap::builder::TypedValueParser<Value = pitboss_sdk::Variant> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(pitboss_sdk::Variant::ALL.map(|v| v.id()))
        .try_map(|id: String| pitboss_engine::Rules::variant_by_id(&id))
}

/// `--threads`: 1 to 256 (rayon would try to start as many as asked).
pub fn threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(format!("`{}` is not a thread count from 1 to 256", pitboss_host::text::excerpt(text, 40))),
    }
}
