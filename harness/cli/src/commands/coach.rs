//! `pitboss coach`: a bot played alone as `pitboss play` plays it, each of
//! its decisions valued exactly, and where it gives EV away.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pitboss_coach::{BotInput, CoachRequest, CoachSpec, Coached, MAX_ROUNDS, MAX_TOP, Report, UNIT};
use pitboss_engine::Rules;
use pitboss_league::PlayOptions;
use pitboss_league::bots::Bot;
use pitboss_results::coach::figures::{FIGURES, Part};
use pitboss_results::output;

/// Play a bot and value each of its decisions exactly from the shoe it
/// saw: the EV it gives away, where, and what optimal play would make.
#[derive(clap::Args)]
pub struct Args {
    /// The bot: a .wasm file, a Python bot's .py source, or builtin:NAME.
    bot: String,
    /// Rule set: north-american, swedish or danish (the dealer games).
    #[arg(long, conflicts_with = "league", default_value = "north-american")]
    variant: String,
    /// Play this league file's rules (overrides included), limits, seed, bankroll and fault limit.
    #[arg(long, value_name = "FILE.toml")]
    league: Option<PathBuf>,
    /// Rounds to play, 1 to 10^7.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=MAX_ROUNDS))]
    rounds: u64,
    /// Seed of the shoe, as `pitboss play --seed` takes it [default: 1, or the league's].
    #[arg(long)]
    seed: Option<u64>,
    /// Chips the bot starts with, 1 to 10^12 [default: 1000000, or the league's].
    #[arg(long, value_parser = clap::value_parser!(i64).range(1..=pitboss_engine::MAX_BANKROLL))]
    bankroll: Option<i64>,
    /// Situations listed, 1 to 1000.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=MAX_TOP as u64))]
    top: u64,
    /// Also write the report as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Threads valuing rounds, 1 to 256 [default: all cores]; the report is identical for any count.
    #[arg(long, value_parser = crate::common::threads)]
    threads: Option<usize>,
}

/// Coaches the bot and prints the report.
pub fn run(args: Args) -> Result<()> {
    let start = std::time::Instant::now();
    let bar = crate::common::progress_bar(args.rounds);
    let progress = {
        let bar = bar.clone();
        Box::new(move |n| bar.inc(n))
    };
    let report = match &args.league {
        Some(path) => under_league(&args, path, progress),
        None => under_variant(&args, progress),
    };
    bar.finish_and_clear();
    let report = report?;
    let secs = start.elapsed().as_secs_f64();
    let coached = &report.bots[0];
    print(coached);
    eprintln!(
        "{} rounds, {} decisions valued in {secs:.1} s ({:.1} s per 10^5 decisions)",
        coached.rounds,
        coached.decisions,
        secs * 1e5 / coached.decisions.max(1) as f64
    );
    if let Some(path) = &args.json {
        output::write_json(path, &report)?;
    }
    Ok(())
}

/// Under a league file: its rules, `[limits]`, fault limit and bankroll
/// (`--bankroll` and `--seed` override), as a server coaches.
fn under_league(args: &Args, path: &Path, progress: Box<dyn Fn(u64)>) -> Result<Report> {
    let league = pitboss_league::file::parse(path)?;
    let request = CoachRequest {
        rounds: args.rounds,
        seed: args.seed.unwrap_or(league.seed),
        top: args.top as usize,
        bankroll: args.bankroll,
    };
    let bot = match args.bot.strip_prefix("builtin:") {
        Some(name) => BotInput::Builtin(name),
        None => BotInput::Path(Path::new(&args.bot)),
    };
    let sandbox = crate::common::sandbox()?;
    let run = pitboss_coach::Run {
        threads: threads(args),
        progress: Some(progress),
        // The commands name the files as they were given here.
        bot_shown: Some(args.bot.clone()),
        league_shown: Some(path.to_path_buf()),
    };
    pitboss_coach::coach_league_with(&league, bot, &request, &sandbox, run)
        .with_context(|| format!("coaching {}", args.bot))
}

/// Under a rule set's own rules.
fn under_variant(args: &Args, progress: Box<dyn Fn(u64)>) -> Result<Report> {
    let variant = Rules::variant_by_id(&args.variant).map_err(|e| anyhow::anyhow!("--variant: {e}"))?;
    let rules = Rules::for_variant(variant);
    let (seed, bankroll) = (args.seed.unwrap_or(1), args.bankroll.unwrap_or(pitboss_league::DEFAULT_BANKROLL));
    let fault_limit = pitboss_league::file::DEFAULT_FAULT_LIMIT;
    rules.check_chip_range(bankroll, args.rounds, 1).map_err(|e| anyhow::anyhow!("--bankroll/--rounds: {e}"))?;
    let sandbox = crate::common::sandbox()?;
    let bot = Bot::resolve(&args.bot, Path::new("."), &sandbox)?;
    let name = bot.default_name();
    // `pitboss play` plays the same match: its transcript shows any round.
    let opts = PlayOptions {
        variant: args.variant.clone(),
        bots: vec![args.bot.clone()],
        rounds: Some(args.rounds),
        seed,
        shoe: None,
        bankroll,
        transcript: true,
        fault_limit,
        limits: Default::default(),
        tally: false,
    };
    let mut spec = CoachSpec::new(rules, args.rounds, seed);
    spec.bankroll = bankroll;
    spec.fault_limit = fault_limit;
    spec.top = args.top as usize;
    spec.replay = Some(Box::new(move |round| pitboss_coach::see_it(&opts, round)));
    spec.threads = threads(args);
    spec.progress = Some(progress);
    let coached = pitboss_coach::coach(&spec, &name, &bot).with_context(|| format!("coaching {}", args.bot))?;
    Ok(Report {
        variant: args.variant.clone(),
        seed,
        rounds_requested: args.rounds,
        unit: UNIT.into(),
        bots: vec![coached],
    })
}

/// `--threads`, or every core.
fn threads(args: &Args) -> usize {
    args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// The report as text: the figures (one line each, from the coach's one
/// list of them, with what each means in plain words), then the situations.
fn print(c: &Coached) {
    let name = pitboss_host::text::excerpt(&c.bot, 200);
    out!("{name}: {} rounds, {} decisions valued; every EV in {UNIT}", c.rounds, c.decisions);
    for part in [Part::Result, Part::Betting] {
        if part == Part::Betting {
            out!("  betting (for card counters):");
        }
        // Betting rows sit under their heading; the values stay in one column.
        let (indent, width) = if part == Part::Betting { ("    ", 24) } else { ("  ", 26) };
        for f in FIGURES.iter().filter(|f| f.part == part) {
            let interval = f.show_interval(c).map_or(String::new(), |ci| format!(" {ci} (95 %)"));
            out!("{indent}{:<width$} {:>9}{interval:<18} {}", f.label, f.show(c), f.what);
        }
    }
    if !c.by_true_count.is_empty() {
        out!(
            "  by Hi-Lo true count at the round's start, for card counters (a deviation that pays gives EV away off the top, not from the shoe):"
        );
        for t in &c.by_true_count {
            out!(
                "    TC {:>+2}{}: {:>7} rounds, given away {:.3}, off the top {:.3}",
                t.true_count,
                if t.true_count.abs() == 4 { "+" } else { " " },
                t.rounds,
                t.ev_given_away,
                t.ev_given_away_off_top
            );
        }
    }
    if c.situations.is_empty() {
        out!("No decision gave EV away.");
        return;
    }
    out!();
    out!(
        "Where it gives EV away, largest first (count: hands it met there; missed: times it did not choose the best; given away: what those cost, per 100 of all it bet):"
    );
    out!(
        "  {:>10}  {:<22} {:>2} {:>8} {:>8} {:>8}  {:<14} {:<14} round",
        "given away",
        "hand",
        "up",
        "count",
        "missed",
        "decision",
        "bot",
        "best"
    );
    for g in &c.situations {
        out!(
            "  {:>10.4}  {:<22} {:>2} {:>8} {:>8} {:>8}  {:<14} {:<14} {}",
            g.ev_given_away,
            g.hand,
            g.up,
            g.count,
            g.mistakes,
            g.decision,
            g.choice,
            g.best,
            g.example_round
        );
        if g.count < pitboss_coach::FEW_HANDS {
            out!("              only {} hand{}: too few to be sure of", g.count, if g.count == 1 { "" } else { "s" });
        }
        if !g.replay.is_empty() {
            out!("              see it: {}", g.replay);
        }
    }
}
