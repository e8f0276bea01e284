//! `pitboss bench`: rounds per second, heads-up against the dealer, for
//! the native and wasm builds of our bots, every rule set, one thread and
//! all threads — the figures of the performance goals, measured in one run.

use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use pitboss_engine::{Rules, derive_seed};
use pitboss_sdk::Variant;

use crate::bots::Bot;
use crate::file::LeagueFile;
use crate::setup::TableSpec;

/// One measurement.
#[derive(Clone, Debug)]
pub struct Figure {
    /// What ran.
    pub label: String,
    /// Rounds per second.
    pub rate: f64,
}

/// Plays `rounds` heads-up rounds of `variant` with `bot` on each of
/// `threads` independent tables; returns all tables' rounds per second.
pub fn measure(bot: &Bot, variant: Variant, rounds: u64, threads: usize) -> Result<f64> {
    let rules = Rules::for_variant(variant);
    let start = Instant::now();
    std::thread::scope(|s| -> Result<()> {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let rules = rules.clone();
                s.spawn(move || -> Result<()> {
                    let mut table = TableSpec {
                        rules: &rules,
                        seed: derive_seed(7, t as u64),
                        stacked: None,
                        bankroll: pitboss_engine::MAX_BANKROLL,
                        fault_limit: 0,
                    }
                    .seat_players(vec![bot.player()?])?;
                    for _ in 0..rounds {
                        table.play_round(&mut ())?;
                    }
                    Ok(())
                })
            })
            .collect();
        for h in handles {
            h.join().map_err(|_| anyhow::anyhow!("a bench thread panicked"))??;
        }
        Ok(())
    })?;
    Ok((rounds * threads as u64) as f64 / start.elapsed().as_secs_f64())
}

/// The whole benchmark, `repeat` times over (interleaved, so a noisy
/// machine's slow spells hit every configuration alike), keeping each
/// configuration's best rate.
pub fn run_best(basic_wasm: &Bot, hilo_wasm: &Bot, rounds: u64, repeat: u32) -> Result<Vec<Figure>> {
    let mut best = run(basic_wasm, hilo_wasm, rounds)?;
    for _ in 1..repeat {
        for (b, f) in best.iter_mut().zip(run(basic_wasm, hilo_wasm, rounds)?) {
            b.rate = b.rate.max(f.rate);
        }
    }
    Ok(best)
}

/// The whole benchmark once: `rounds` per table.
pub fn run(basic_wasm: &Bot, hilo_wasm: &Bot, rounds: u64) -> Result<Vec<Figure>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let native = Bot::builtin("basic")?;
    let mut out = Vec::new();
    let mut push = |label: String, rate: f64| out.push(Figure { label, rate });
    let na = Variant::NorthAmerican;
    push("native basic, north-american, 1 thread".into(), measure(&native, na, rounds, 1)?);
    push("wasm basic, north-american, 1 thread".into(), measure(basic_wasm, na, rounds, 1)?);
    push("wasm hilo, north-american, 1 thread".into(), measure(hilo_wasm, na, rounds, 1)?);
    for v in [Variant::Swedish, Variant::Danish, Variant::NorwegianHome] {
        push(format!("wasm basic, {}, 1 thread", v.id()), measure(basic_wasm, v, rounds, 1)?);
    }
    push(format!("wasm basic, north-american, {cores} threads"), measure(basic_wasm, na, rounds, cores)?);
    Ok(out)
}

/// A league's throughput, the figure of issue 17's third goal: every
/// bot's rounds played, per CPU second (user + system) of this process,
/// on one thread. Returns the figure, the bot-rounds and the CPU seconds.
pub fn league_rate(file: &LeagueFile, path: &Path, sandbox: &pitboss_host::Sandbox) -> Result<(Figure, u64, f64)> {
    let before = cpu_seconds();
    let (result, _) = crate::league::run_with(file, path, sandbox, Some(1), &|_| ())?;
    let cpu = (cpu_seconds() - before).max(1e-9);
    let bot_rounds: u64 = result.standings.iter().map(|s| s.result.rounds).sum();
    let label = format!("bot-rounds per CPU second, league `{}`, 1 thread", result.name);
    Ok((Figure { label, rate: bot_rounds as f64 / cpu }, bot_rounds, cpu))
}

/// CPU seconds (user + system) this process has used so far; where the
/// platform does not say, wall seconds since the first call.
fn cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage writes a whole `rusage` into the pointer given.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } == 0 {
            // SAFETY: it returned 0, so the struct is written.
            let u = unsafe { usage.assume_init() };
            let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
            return secs(u.ru_utime) + secs(u.ru_stime);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}
