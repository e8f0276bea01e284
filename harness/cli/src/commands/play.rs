//! `pitboss play`: bots at one table for seeded (or stacked) rounds, the
//! results table, a replay command for each bot's first fault.

use std::path::PathBuf;

use anyhow::Result;
use pitboss_cli::tables;
use pitboss_league::PlayOptions;
use pitboss_league::file::LimitChoice;
use pitboss_results::output;

use crate::common::{LimitFlags, warn_stale};

/// Seat bots at one table and play seeded (or stacked) rounds.
#[derive(clap::Args)]
pub struct Args {
    /// Rule set: north-american, swedish, danish or norwegian-home.
    #[arg(long, default_value = "north-american")]
    variant: String,
    /// A bot: path to a .wasm file (or a Python bot's .py source), or builtin:basic, builtin:hilo, builtin:random, builtin:mimic-dealer, builtin:never-bust, builtin:template. Repeat for more seats.
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
    /// Also write the results as JSON to this file, with each bot's tally
    /// (counted only then).
    #[arg(long)]
    json: Option<PathBuf>,
    /// Play under this league file's [limits] (a Python or Go bot's
    /// league.toml); its rules and bots are not used.
    #[arg(long, value_name = "FILE.toml")]
    league: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitFlags,
}

/// Plays the match and prints its results.
pub fn run(args: Args) -> Result<()> {
    let Args { variant, bots, rounds, seed, shoe, bankroll, transcript, fault_limit, json, league, limits } = args;
    let given = league.is_some();
    let limits = LimitChoice { league, raised: limits.raised() };
    for bot in bots.iter().filter(|b| !b.starts_with("builtin:")) {
        warn_stale(std::path::Path::new(bot));
    }
    let tally = json.is_some();
    let opts = PlayOptions { variant, bots, rounds, seed, shoe, bankroll, transcript, fault_limit, limits, tally };
    let (report, elapsed) = match pitboss_league::play(&opts, &mut std::io::stdout().lock()) {
        Ok(played) => played,
        Err(e) => {
            // A bot over a cap its scaffold's league.toml raises: say so.
            let text = format!("{e:#}");
            let hint = opts
                .bots
                .iter()
                .find_map(|b| crate::common::league_beside(std::path::Path::new(b), Some(&text), given, "play --bot"));
            return Err(match hint {
                Some(hint) => anyhow::anyhow!("{text}\n{hint}"),
                None => e,
            });
        }
    };
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
    eprintln!("{} rounds in {:.2} s ({:.0} rounds/s)", report.table.rounds, secs, report.table.rounds as f64 / secs);
    if let Some(path) = json {
        output::write_json(&path, &report)?;
    }
    Ok(())
}
