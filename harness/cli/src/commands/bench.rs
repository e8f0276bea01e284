//! `pitboss bench`: rounds per second, native against wasm, every rule
//! set, one thread and all.

use std::path::{Path, PathBuf};

use anyhow::Result;
use pitboss_league::bots::Bot;

use crate::common::sandbox;

/// Measure rounds per second (release build!): native vs wasm, every rule set, 1 and all threads.
#[derive(clap::Args)]
pub struct Args {
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
    /// Also play this league once on one thread and report its bot-rounds
    /// per CPU second (e.g. leagues/class.toml after scripts/class-demo).
    #[arg(long, value_name = "FILE.toml")]
    league: Option<PathBuf>,
}

/// Runs the benchmark and prints each figure and the ratios.
pub fn run(args: Args) -> Result<()> {
    let Args { rounds, basic, hilo, repeat, league } = args;
    let sandbox = sandbox()?;
    let basic = Bot::resolve(&basic.to_string_lossy(), Path::new(""), &sandbox)?;
    let hilo = Bot::resolve(&hilo.to_string_lossy(), Path::new(""), &sandbox)?;
    let figures = pitboss_league::bench::run_best(&basic, &hilo, rounds, repeat.max(1))?;
    out!("best of {} run(s), {rounds} rounds per table:", repeat.max(1));
    for f in &figures {
        out!("{:>12.0} rounds/s  {}", f.rate, f.label);
    }
    let rate = |i: usize| figures[i].rate;
    out!("ratio wasm / native basic: {:.2}", rate(1) / rate(0));
    out!("ratio all threads / 1 thread (wasm basic): {:.2}", rate(figures.len() - 1) / rate(1));
    if let Some(path) = league {
        let file = pitboss_league::file::parse(&path)?;
        let (figure, bot_rounds, cpu) = pitboss_league::bench::league_rate(&file, &path, &sandbox)?;
        out!("{:>12.0} {}  ({bot_rounds} bot-rounds in {cpu:.2} CPU s)", figure.rate, figure.label);
    }
    Ok(())
}
