//! What several commands share: the sandbox (with its one cache warning),
//! the progress bar, warnings for left-out league entries, and the
//! parsers of `--variant` and `--threads`.

use std::path::PathBuf;

use anyhow::Result;
use pitboss_host::{Raisable, Sandbox, limit_range};
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
    let cost = pitboss_cli::tables::cost_table(&result.standings, file.league.parsed.limits.fuel_per_decision);
    if !cost.is_empty() {
        out!("{cost}");
    }
    for line in first_faults(result, json.as_deref()) {
        out!("{line}");
    }
    if let Some(path) = json {
        output::write_json(&path, file)?;
    }
    if let Some(path) = csv {
        output::write_text(&path, &output::standings_csv(&result.standings))?;
    }
    Ok(())
}

/// Warns when the bot at `path` is older than a source of its scaffold
/// (`pitboss_league::bots::newer_source`): the module checked or played is
/// not the code just edited.
pub fn warn_stale(path: &std::path::Path) {
    if let Some(source) = pitboss_league::bots::newer_source(path) {
        let name = |p: &std::path::Path| pitboss_host::text::excerpt(&p.display().to_string(), 300);
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
        let build = if dir == std::path::Path::new(".") {
            "./build.sh".to_string()
        } else {
            format!("./build.sh in {}", name(dir))
        };
        eprintln!("pitboss: warning: {} is older than {}: rebuild it with {build}", name(path), name(&source));
    }
}

/// For each bot that faulted: its first fault, where, why (the line it
/// wrote that says so) and the command that replays it (and, out of
/// fuel, diagnoses it: [`pitboss_host::WasmPlayer::diagnose_fuel`]).
fn first_faults(result: &LeagueResult, json: Option<&std::path::Path>) -> Vec<String> {
    let short = |text: &str, max| pitboss_host::text::excerpt(text, max);
    let mut lines = Vec::new();
    for standing in &result.standings {
        let bot = &standing.result;
        let Some(f) = bot.fault_log.first() else { continue };
        let dq = if bot.disqualified { ", disqualified" } else { "" };
        lines.push(format!(
            "{}: {} fault{}{dq}; the first in session {} table {} round {}, {}: {} ({})",
            short(&bot.name, 200),
            bot.faults,
            if bot.faults == 1 { "" } else { "s" },
            f.session,
            f.table,
            f.round,
            f.decision,
            short(&f.message, 500),
            f.kind
        ));
        let at = format!("--session {} --table {} --round {}", f.session, f.table, f.round);
        // Out of fuel: the replay asks that decision again with more fuel.
        let diagnosed = if f.kind == pitboss_engine::FaultKind::OutOfFuel.name() {
            " (it tells an endless loop from an expensive decision)"
        } else {
            ""
        };
        lines.push(match json {
            Some(path) => {
                format!("  replay: pitboss replay {} {at}{diagnosed}", short(&path.display().to_string(), 300))
            }
            None => {
                format!(
                    "  replay: run again with --json results.json, then pitboss replay results.json {at}{diagnosed}"
                )
            }
        });
    }
    lines
}

/// When a bot refused for a raisable cap (`refusal`) has a `league.toml`
/// with `[limits]` beside it (a Python or Go scaffold's, raising what the
/// language needs) and no league was given: the `command` to run with it.
pub fn league_beside(path: &std::path::Path, refusal: Option<&str>, given: bool, command: &str) -> Option<String> {
    let over = refusal.is_some_and(|r| r.contains("under [limits]"));
    let league =
        path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new(".")).join("league.toml");
    let raises = || pitboss_league::file::parse(&league).is_ok_and(|l| l.limits.is_some());
    (over && !given && league.is_file() && raises()).then(|| {
        let shown = |p: &std::path::Path| pitboss_host::text::excerpt(&p.display().to_string(), 300);
        let (league, path) = (shown(&league), shown(path));
        format!("  hint: {league} raises the limits this bot needs: pitboss {command} {path} --league {league}")
    })
}

/// Warns about folder and glob entries a league left out.
pub fn warn_skipped(skipped: &[pitboss_results::Skipped]) {
    for s in skipped {
        eprintln!("pitboss: warning: {s}");
    }
}

/// A progress bar with rounds per second and the time left on a terminal
/// ([`Pace`]); hidden when stderr is not one (CI logs, pipes).
pub fn progress_bar(total: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rounds  {pace}")
        .map(|s| s.with_key("pace", Pace::default()))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// The bar's rate and estimate: `41,230 rounds/s  ETA 1m 05s`, a whole
/// number of rounds a second and whole seconds left. Both are measured
/// from the first rounds done, not from the start: loading and compiling
/// the bots (seconds for a language runtime) would otherwise count as slow
/// rounds and the first estimates be far too long. Until half a second of
/// rounds has been seen it shows `-- rounds/s  ETA --`.
#[derive(Clone, Copy, Debug, Default)]
struct Pace {
    /// When the first rounds were seen done, and how many.
    first: Option<(std::time::Instant, u64)>,
    /// The latest count seen, and when.
    latest: Option<(std::time::Instant, u64)>,
}

impl Pace {
    /// Rounds a second since the first rounds done, once half a second of
    /// them has been seen.
    fn rate(&self) -> Option<f64> {
        let ((t0, p0), (t1, p1)) = (self.first?, self.latest?);
        let secs = t1.saturating_duration_since(t0).as_secs_f64();
        (secs >= 0.5 && p1 > p0).then(|| (p1 - p0) as f64 / secs)
    }

    /// What the bar shows with `len` rounds in all.
    fn text(&self, len: Option<u64>) -> String {
        let Some(rate) = self.rate() else { return "-- rounds/s  ETA --".into() };
        let done = self.latest.map_or(0, |(_, p)| p);
        let eta = match len {
            Some(len) => duration_text(len.saturating_sub(done) as f64 / rate),
            None => "--".into(),
        };
        format!("{} rounds/s  ETA {eta}", pitboss_report::whole(rate.round() as u64))
    }
}

impl indicatif::style::ProgressTracker for Pace {
    fn clone_box(&self) -> Box<dyn indicatif::style::ProgressTracker> {
        Box::new(*self)
    }

    fn tick(&mut self, state: &indicatif::ProgressState, now: std::time::Instant) {
        let pos = state.pos();
        if pos > 0 {
            self.first.get_or_insert((now, pos));
            self.latest = Some((now, pos));
        }
    }

    fn reset(&mut self, _: &indicatif::ProgressState, _: std::time::Instant) {
        *self = Pace::default();
    }

    fn write(&self, state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
        let _ = w.write_str(&self.text(state.len()));
    }
}

/// Seconds left in whole units, rounded up: `7s`, `1m 05s`, `2h 03m`;
/// beyond 99 hours, `over 99h`.
fn duration_text(secs: f64) -> String {
    if !secs.is_finite() || secs >= 99.0 * 3600.0 {
        return "over 99h".into();
    }
    let s = secs.max(0.0).ceil() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
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

/// The `--max-…` flags of `play`, `check` and `replay`: each sets one
/// limit a league's `[limits]` may set, in the same unit and range
/// (`pitboss_host::Raisable`), on top of the defaults and any league's.
#[derive(clap::Args, Debug, Default)]
pub struct LimitFlags {
    /// Fuel a decision may use (default 1000000; league key fuel_per_decision).
    #[arg(long, value_name = "FUEL", value_parser = clap::value_parser!(u64).range(limit_range::FUEL_PER_DECISION))]
    max_fuel_per_decision: Option<u64>,
    /// Fuel for start-up (default 10000000; league key fuel_for_startup).
    #[arg(long, value_name = "FUEL", value_parser = clap::value_parser!(u64).range(limit_range::FUEL_FOR_STARTUP))]
    max_fuel_for_startup: Option<u64>,
    /// Memory cap in MiB (default 16; league key memory_mib).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(limit_range::MEMORY_MIB))]
    max_memory_mib: Option<u64>,
    /// Wall-clock backstop per call in ms (default 2000; league key wall_ms).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(limit_range::WALL_MS))]
    max_wall_ms: Option<u64>,
    /// Largest module in MiB (default 4; league key module_mib).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(limit_range::MODULE_MIB))]
    max_module_mib: Option<u64>,
    /// Largest code section in KiB (default 256; league key code_kib).
    #[arg(long, value_name = "KIB", value_parser = clap::value_parser!(u64).range(limit_range::CODE_KIB))]
    max_code_kib: Option<u64>,
    /// Most functions in a module (default 10000; league key functions).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(limit_range::FUNCTIONS))]
    max_functions: Option<u64>,
}

impl LimitFlags {
    /// The limits the flags set, in `Raisable::ALL`'s order.
    pub fn raised(&self) -> Vec<(Raisable, u64)> {
        Raisable::ALL
            .into_iter()
            .filter_map(|limit| {
                let value = match limit {
                    Raisable::FuelPerDecision => self.max_fuel_per_decision,
                    Raisable::FuelForStartup => self.max_fuel_for_startup,
                    Raisable::MemoryMib => self.max_memory_mib,
                    Raisable::WallMs => self.max_wall_ms,
                    Raisable::ModuleMib => self.max_module_mib,
                    Raisable::CodeKib => self.max_code_kib,
                    Raisable::Functions => self.max_functions,
                };
                value.map(|v| (limit, v))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        limits: LimitFlags,
    }

    #[test]
    fn every_limit_has_its_flag_named_and_ranged_as_the_league_key() {
        for limit in Raisable::ALL {
            assert_eq!(limit.flag(), format!("--max-{}", limit.key().replace('_', "-")));
            let top = limit.range().end().to_string();
            let parsed = Flags::try_parse_from(["t", limit.flag(), &top]).unwrap();
            assert_eq!(parsed.limits.raised(), [(limit, *limit.range().end())]);
            let over = (limit.range().end() + 1).to_string();
            assert!(Flags::try_parse_from(["t", limit.flag(), &over]).is_err(), "{}", limit.flag());
        }
    }

    #[test]
    fn the_bars_rate_is_a_whole_number_and_its_estimate_leaves_out_the_start() {
        assert_eq!(
            [
                pitboss_report::whole(0),
                pitboss_report::whole(999),
                pitboss_report::whole(1_000),
                pitboss_report::whole(1_234_567)
            ],
            ["0", "999", "1,000", "1,234,567"]
        );
        let times = [0.2, 59.1, 65.0, 7_380.0, f64::INFINITY, 1e9];
        assert_eq!(times.map(duration_text), ["1s", "1m 00s", "1m 05s", "2h 03m", "over 99h", "over 99h"]);

        // 10 s of loading before the first 1,000 rounds, then 40,000 in 2 s:
        // 20,000 rounds/s, and the 59,000 left take 3 s (2.95, rounded up),
        // not the 18 s that 41,000 rounds in 12 s would say.
        let start = std::time::Instant::now();
        let at = |secs: f64| start + std::time::Duration::from_secs_f64(secs);
        let mut pace = Pace { first: Some((at(10.0), 1_000)), latest: Some((at(10.3), 7_000)) };
        assert_eq!(pace.text(Some(100_000)), "-- rounds/s  ETA --", "too soon to say");
        pace.latest = Some((at(12.0), 41_000));
        assert_eq!(pace.text(Some(100_000)), "20,000 rounds/s  ETA 3s");
        assert_eq!(pace.text(None), "20,000 rounds/s  ETA --", "no length yet (verify)");
        pace.latest = Some((at(12.0), 100_000));
        assert_eq!(pace.text(Some(100_000)), "49,500 rounds/s  ETA 0s");
        assert_eq!(Pace::default().text(Some(10)), "-- rounds/s  ETA --");
    }
}
