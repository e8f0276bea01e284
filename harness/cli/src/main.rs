//! `pitboss`: play blackjack bots against the dealer and run leagues.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use pitboss_cli::tables;
use pitboss_league::{PlayOptions, league, output};

/// Prints a line to stdout; a closed pipe (`pitboss … | head`) ends the
/// program quietly instead of panicking.
macro_rules! out {
    () => { out_raw!("\n") };
    ($($arg:tt)*) => { out_raw!("{}\n", format_args!($($arg)*)) };
}

/// Prints to stdout, exiting quietly on a closed pipe and with an error
/// on any other failed write (`pitboss … > /dev/full`).
macro_rules! out_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("pitboss: error: cannot write to standard output: {e}");
            std::process::exit(1);
        }
    }};
}

/// Warns about folder and glob entries a league left out.
fn warn_skipped(skipped: &[pitboss_league::file::Skipped]) {
    for s in skipped {
        eprintln!("pitboss: warning: {s}");
    }
}

#[derive(Parser)]
#[command(name = "pitboss", version, about = "A tournament harness for blackjack strategy bots written in WebAssembly")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Seat bots at one table and play seeded (or stacked) rounds.
    Play {
        /// Rule set: north-american, swedish, danish or norwegian-home.
        #[arg(long, default_value = "north-american")]
        variant: String,
        /// A bot: path to a .wasm file, or builtin:basic, builtin:hilo, builtin:random, builtin:mimic-dealer, builtin:never-bust. Repeat for more seats.
        #[arg(long = "bot", required = true)]
        bots: Vec<String>,
        /// Rounds to play, 1 to 10^10 [default: 100000; with --shoe, until the shoe runs out].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=pitboss_league::file::MAX_ROUNDS))]
        rounds: Option<u64>,
        /// Seed of the shoe.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stacked shoe: a text file of ranks in deal order (A 2-9 T J Q K, # comments).
        #[arg(long)]
        shoe: Option<PathBuf>,
        /// Chips each bot starts with, 1 to 10^12.
        #[arg(long, default_value_t = pitboss_league::DEFAULT_BANKROLL, value_parser = clap::value_parser!(i64).range(1..=pitboss_engine::MAX_BANKROLL))]
        bankroll: i64,
        /// Print every deal, decision and payout.
        #[arg(long)]
        transcript: bool,
        /// Disqualify a bot at this many faults (0: never).
        #[arg(long, default_value_t = pitboss_league::file::DEFAULT_FAULT_LIMIT)]
        fault_limit: u64,
        /// Also write the results as JSON to this file.
        #[arg(long)]
        json: Option<PathBuf>,
    },
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
    Check(CheckArgs),
    /// Print a rule set (or all four) in plain words, generated from the
    /// rules the engine enforces.
    Rules {
        /// north-american, swedish, danish or norwegian-home.
        variant: Option<String>,
    },
    /// Measure rounds per second (release build!): native vs wasm, every rule set, 1 and all threads.
    Bench {
        /// Rounds per table, 1 to 10^9.
        #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
        rounds: u64,
        /// The wasm basic bot.
        #[arg(long, default_value = "target/wasm32-unknown-unknown/release/basic.wasm")]
        basic: PathBuf,
        /// The wasm hilo bot.
        #[arg(long, default_value = "target/wasm32-unknown-unknown/release/hilo.wasm")]
        hilo: PathBuf,
        /// Runs of the whole benchmark (1 to 100); each figure is the best of them.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
        repeat: u32,
    },
    /// Run a season (a file listing leagues) and print the overall standings.
    Season {
        /// The season file (TOML).
        season: PathBuf,
        /// Write the season's results as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Worker threads, 1 to 256 [default: all cores].
        #[arg(long, value_parser = threads)]
        threads: Option<usize>,
    },
    /// Re-simulate one round of a league from its results file, card by card.
    Replay {
        /// The league's results.json (from `pitboss run --json`).
        results: PathBuf,
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
        #[arg(long = "box")]
        only_box: Option<u8>,
        /// Also write the table's hand history for the whole session as JSON lines.
        #[arg(long)]
        log: Option<PathBuf>,
        /// A folder to find bot files in by SHA-256, whatever their names (after the results file's folder).
        #[arg(long, value_name = "DIR")]
        bots: Option<PathBuf>,
    },
    /// Re-run a league from its results file alone and confirm the results are byte-identical (exit 0), or name the first difference (exit 1).
    Verify {
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
    },
    /// Write a league's results as one self-contained HTML page: standings,
    /// charts, per-bot play, faults and a hand viewer.
    Report {
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
    },
    /// Scaffold a new bot: its source, a build script, a README and a practice league.
    New {
        /// The bot's name, e.g. mybot (its folder, and its wasm file's stem).
        name: String,
        /// Where to create its folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
        /// The language to write it in.
        #[arg(long, value_enum, default_value_t = pitboss_cli::new::Lang::Rust)]
        lang: pitboss_cli::new::Lang,
    },
    /// Run a league file and print the standings.
    Run {
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
    },
    /// Merge shard files (from `run --shard`) into the results of a single run.
    Merge {
        /// The shard files.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// Write the merged results as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Write the standings as CSV here.
        #[arg(long)]
        csv: Option<PathBuf>,
    },
}

/// `pitboss check`'s arguments.
#[derive(clap::Args)]
struct CheckArgs {
    /// The .wasm (or .wat) files to check.
    #[arg(required = true)]
    bots: Vec<PathBuf>,
    /// Check only this rule set (its defaults).
    #[arg(long, value_parser = variant_parser(), conflicts_with = "league")]
    variant: Option<pitboss_sdk::Variant>,
    /// Check only what this league file plays: its rule set with its rule
    /// overrides, under its [limits] (fuel, memory, module caps).
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
}

/// `--variant`: a rule set by its id; `--help` lists them.
fn variant_parser() -> impl clap::builder::TypedValueParser<Value = pitboss_sdk::Variant> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(pitboss_sdk::Variant::ALL.map(|v| v.id()))
        .try_map(|id: String| pitboss_engine::Rules::variant_by_id(&id))
}

/// `--threads`: 1 to 256 (rayon would try to start as many as asked).
fn threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(format!("`{}` is not a thread count from 1 to 256", pitboss_host::text::excerpt(text, 40))),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("pitboss: error: {}", quoted(&e));
            ExitCode::FAILURE
        }
    }
}

/// An error as one line of at most about a thousand characters, control
/// bytes escaped: errors quote paths, file contents and bot output, all of
/// which may be hostile.
fn quoted(e: &anyhow::Error) -> String {
    // An error may list several problems, one a line (every bot of a
    // league that cannot play): each line is quoted on its own.
    let text = format!("{e:#}");
    let mut lines: Vec<String> =
        text.lines().take(MAX_ERROR_LINES).map(|l| pitboss_host::text::excerpt(l, 1_000)).collect();
    if text.lines().count() > MAX_ERROR_LINES {
        lines.push(format!("  … and {} more", text.lines().count() - MAX_ERROR_LINES));
    }
    lines.join("\n")
}

/// Lines of one error printed at most.
const MAX_ERROR_LINES: usize = 100;

/// `pitboss check`: every file is checked against the plan (`--variant`,
/// `--league`, or every rule set); prints a line or the full report per
/// bot as it goes, then a count, and writes `--json`. Says whether every
/// bot passed.
fn check(args: &CheckArgs) -> Result<bool> {
    use pitboss_league::check::{self, Plan};
    let sandbox = sandbox()?;
    let plan = match (&args.league, args.variant) {
        (Some(path), _) => Plan::league(path, &sandbox)?,
        (None, Some(variant)) => Plan::rule_set(variant, &sandbox)?,
        (None, None) => Plan::every_rule_set(&sandbox)?,
    };
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
        let report = check::check(path, &plan);
        say(if lines { report.line(width) } else { report.render().trim_end().to_string() });
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

/// A progress bar with rounds per second and an ETA on a terminal;
/// hidden when stderr is not one (CI logs, pipes).
fn progress_bar(total: u64) -> indicatif::ProgressBar {
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

/// A sandbox with the default limits. When the compile cache cannot be
/// used, says why on stderr, once per process however many sandboxes are
/// made (a replay or a league's `[limits]` makes more than one).
fn sandbox() -> Result<pitboss_host::Sandbox> {
    let sandbox = pitboss_league::sandbox()?;
    if let Some(why) = pitboss_league::cache_warning(&sandbox) {
        eprintln!("pitboss: warning: {why}");
    }
    Ok(sandbox)
}

/// Runs the command; the status is a failure only where `check` says some
/// bot failed (errors are the caller's to print).
fn run(cli: Cli) -> Result<ExitCode> {
    if !matches!(
        cli.command,
        Command::New { .. } | Command::Report { .. } | Command::Merge { .. } | Command::Rules { .. }
    ) {
        // Commands that load bots warn once, up front, about the cache.
        sandbox()?;
    }
    match cli.command {
        Command::Check(args) => {
            if !check(&args)? {
                return Ok(ExitCode::FAILURE);
            }
        }
        Command::New { name, dir, lang } => {
            let created = pitboss_cli::new::scaffold(&name, &dir, lang)?;
            out!("created {}, a bot in {}; next:", created.display(), lang.title());
            for step in pitboss_cli::new::next_steps(&created, &name, lang, &pitboss_cli::new::command_name()) {
                out!("  {step}");
            }
        }
        Command::Bench { rounds, basic, hilo, repeat } => {
            let sandbox = sandbox()?;
            let basic =
                pitboss_league::bots::Bot::resolve(&basic.to_string_lossy(), std::path::Path::new(""), &sandbox)?;
            let hilo = pitboss_league::bots::Bot::resolve(&hilo.to_string_lossy(), std::path::Path::new(""), &sandbox)?;
            let figures = pitboss_league::bench::run_best(&basic, &hilo, rounds, repeat.max(1))?;
            out!("best of {} run(s), {rounds} rounds per table:", repeat.max(1));
            for f in &figures {
                out!("{:>12.0} rounds/s  {}", f.rate, f.label);
            }
            let rate = |i: usize| figures[i].rate;
            out!("ratio wasm / native basic: {:.2}", rate(1) / rate(0));
            out!("ratio all threads / 1 thread (wasm basic): {:.2}", rate(figures.len() - 1) / rate(1));
        }
        Command::Season { season, json, threads } => {
            let result = pitboss_league::season::run(&season, threads)?;
            for l in &result.leagues {
                warn_skipped(&l.skipped);
            }
            out!("{}", result.name);
            out!("{}", pitboss_league::season::table(&result));
            if let Some(path) = json {
                output::write_json(&path, &result)?;
            }
        }
        Command::Replay { results, session, round, table, only_box, log, bots } => {
            let request = pitboss_league::replay::ReplayRequest { results, bots, session, round, table, only_box, log };
            let stdout = std::io::stdout();
            pitboss_league::replay::replay(&request, stdout.lock())?;
        }
        Command::Verify { results, bots, sessions, threads } => {
            use pitboss_league::verify::{Verdict, VerifyRequest, verify};
            let bar = progress_bar(0);
            let request = VerifyRequest { results, bots, sessions, threads };
            let verdict = verify(&request, &|n| bar.set_length(n), &|n| bar.inc(n))?;
            bar.finish_and_clear();
            match verdict {
                Verdict::Identical(what) => out!("{what}"),
                Verdict::Differs(what) => {
                    out!("differs: {what}");
                    std::process::exit(1);
                }
            }
        }
        Command::Report { results, output, session, opening_rounds } => {
            let request = pitboss_report::ReportRequest { results, session, opening_rounds };
            if let Some(warning) = pitboss_report::write_report(&request, &output)? {
                eprintln!("pitboss: warning: {warning}");
            }
            let size = std::fs::metadata(&output).map(|m| m.len()).unwrap_or(0);
            out!("wrote {} ({} KiB)", output.display(), size.div_ceil(1024));
        }
        Command::Rules { variant } => {
            let variants = match variant {
                Some(id) => vec![pitboss_engine::Rules::variant_by_id(&id)?],
                None => pitboss_sdk::Variant::ALL.to_vec(),
            };
            for (i, v) in variants.into_iter().enumerate() {
                if i > 0 {
                    out!();
                }
                for line in pitboss_engine::Rules::for_variant(v)?.describe() {
                    out!("- {line}");
                }
            }
        }
        Command::Play { variant, bots, rounds, seed, shoe, bankroll, transcript, fault_limit, json } => {
            let opts = PlayOptions { variant, bots, rounds, seed, shoe, bankroll, transcript, fault_limit };
            let (report, elapsed) = pitboss_league::play(&opts)?;
            out!("{}", tables::results_table(&report.table.bots));
            for bot in &report.table.bots {
                if let Some(f) = bot.fault_log.first() {
                    out!(
                        "{}: {} fault{}, the first in round {}, {}: {} ({})\n  replay: {}",
                        pitboss_host::text::excerpt(&bot.name, 200),
                        bot.faults,
                        if bot.faults == 1 { "" } else { "s" },
                        f.round,
                        f.decision,
                        pitboss_host::text::excerpt(&f.message, 500),
                        f.kind,
                        pitboss_league::replay_command(&opts, f.round)
                    );
                }
            }
            if let Some(why) = &report.table.stopped {
                out!("stopped after {} rounds: {why}", report.table.rounds);
            }
            let secs = elapsed.as_secs_f64().max(1e-9);
            eprintln!(
                "{} rounds in {:.2} s ({:.0} rounds/s)",
                report.table.rounds,
                secs,
                report.table.rounds as f64 / secs
            );
            if let Some(path) = json {
                output::write_json(&path, &report)?;
            }
        }
        Command::Run { league: path, shard: Some(shard), json, threads, .. } => {
            let shard = pitboss_league::shard::parse_shard(&shard)?;
            let out_path = json.context("--shard needs --json FILE for the shard file")?;
            let file = pitboss_league::shard::run_shard(&path, shard, threads)?;
            warn_skipped(&file.skipped);
            output::write_json(&out_path, &file)?;
            eprintln!("shard {} written to {}", file.shard, out_path.display());
        }
        Command::Merge { shards, json, csv } => {
            let (result, results_file) = pitboss_league::shard::merge(&shards)?;
            out!("{}", tables::standings_table(&result.standings));
            out!("{}", tables::standings_notes(&result));
            if let Some(path) = json {
                output::write_json(&path, &results_file)?;
            }
            if let Some(path) = csv {
                output::write_text(&path, &output::standings_csv(&result.standings))?;
            }
        }
        Command::Run { league: path, json, csv, threads, shard: None } => {
            let file = pitboss_league::file::parse(&path)?;
            let sandbox = sandbox()?;
            let total = file.rounds * file.sessions;
            let bar = progress_bar(total);
            let (result, results_file) = league::run_with(&file, &path, &sandbox, threads, &|n| bar.inc(n))?;
            bar.finish_and_clear();
            warn_skipped(&result.skipped);
            out!(
                "{} — {} session(s) × {} rounds of {} (seed {}, {} format)",
                result.name,
                result.sessions,
                result.rounds,
                result.variant,
                result.seed,
                result.format
            );
            out!("{}", tables::standings_table(&result.standings));
            out!("{}", tables::standings_notes(&result));
            if let Some(path) = json {
                output::write_json(&path, &results_file)?;
            }
            if let Some(path) = csv {
                output::write_text(&path, &output::standings_csv(&result.standings))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
