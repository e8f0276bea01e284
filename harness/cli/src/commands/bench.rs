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
}

/// Runs the benchmark and prints each figure and the ratios.
pub fn run(args: Args) -> Result<()> {
    let Args { rounds, basic, hilo, repeat } = args;
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
    Ok(())
}
