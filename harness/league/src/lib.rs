//! Pitboss competitions as a library: resolving bots, playing matches,
//! running leagues and seasons, tallying, ranking, writing and reading
//! results, shards and replays. Nothing here prints: every function
//! returns values, and the `pitboss` command (or a server) shows them.
//!
//! **Invariant:** every result written (table or JSON) is a function of
//! the rules, the bots' bytes and the seed — never of time, thread count
//! or hash order.

pub mod bench;
pub mod bots;
pub mod check;
pub mod counts;
pub mod league;
pub mod locate;
pub mod matchplay;
pub mod output;
pub mod replay;
pub mod results;
pub mod season;
pub mod session;
pub mod setup;
pub mod shard;
pub mod tally;
pub mod transcript;
pub mod verify;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use pitboss_engine::{Rules, derive_seed, parse_stacked};
use pitboss_host::{Limits, Sandbox};
use serde::{Deserialize, Serialize};

use crate::bots::Bot;
use crate::matchplay::{MatchSpec, TableResult, play_table};

/// Options of `pitboss play`.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Rule set id.
    pub variant: String,
    /// Bot specs (`.wasm` paths or `builtin:NAME`), seat order.
    pub bots: Vec<String>,
    /// Rounds to play; with a stacked shoe, `None` plays until it runs out.
    pub rounds: Option<u64>,
    /// Master seed.
    pub seed: u64,
    /// Stacked shoe file.
    pub shoe: Option<PathBuf>,
    /// Chips each bot starts with.
    pub bankroll: i64,
    /// Print every event.
    pub transcript: bool,
    /// Faults after which a bot is disqualified; 0 = never.
    pub fault_limit: u64,
}

/// What `pitboss play` reports (and writes as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayReport {
    /// Rule set id.
    pub variant: String,
    /// Master seed (absent with a stacked shoe).
    pub seed: Option<u64>,
    /// Rounds asked for.
    pub rounds_requested: Option<u64>,
    /// The table's outcome.
    #[serde(flatten)]
    pub table: TableResult,
}

/// The `pitboss play` command that plays `opts`'s match again up to
/// `round`, with a transcript: every fault's round can be looked at card
/// by card.
pub fn replay_command(opts: &PlayOptions, round: u64) -> String {
    let quote = |s: &str| {
        let s = pitboss_host::text::excerpt(s, 300);
        if s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:+=@".contains(c)) {
            s
        } else {
            format!("'{}'", s.replace('\'', "'\\''"))
        }
    };
    let mut out = format!("pitboss play --variant {}", quote(&opts.variant));
    for bot in &opts.bots {
        out.push_str(&format!(" --bot {}", quote(bot)));
    }
    match &opts.shoe {
        Some(shoe) => out.push_str(&format!(" --shoe {}", quote(&shoe.display().to_string()))),
        None => out.push_str(&format!(" --seed {}", opts.seed)),
    }
    if opts.bankroll != DEFAULT_BANKROLL {
        out.push_str(&format!(" --bankroll {}", opts.bankroll));
    }
    if opts.fault_limit != league::DEFAULT_FAULT_LIMIT {
        out.push_str(&format!(" --fault-limit {}", opts.fault_limit));
    }
    out.push_str(&format!(" --rounds {round} --transcript"));
    out
}

/// Chips each bot starts a `pitboss play` match with unless told.
pub const DEFAULT_BANKROLL: i64 = 1_000_000;

/// A sandbox with the default limits, caching compiled bots in
/// [`cache_dir`]. When the cache cannot be used the sandbox still works;
/// [`Sandbox::cache_unused`] says why, for the caller to show.
pub fn sandbox() -> Result<Sandbox> {
    let sandbox = Sandbox::new(Limits::default()).map_err(|e| anyhow::anyhow!("cannot start the wasm sandbox: {e}"))?;
    Ok(sandbox.with_cache_dir(cache_dir()))
}

/// Why `sandbox`'s compile cache is not used, the first time a process
/// asks (`None` afterwards, and when it is used): a command that makes
/// several sandboxes (a replay, a league's `[limits]`) warns once.
pub fn cache_warning(sandbox: &Sandbox) -> Option<String> {
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let why = sandbox.cache_unused()?;
    (!WARNED.swap(true, std::sync::atomic::Ordering::Relaxed)).then(|| why.to_string())
}

/// Where compiled bots are kept between runs: `$PITBOSS_CACHE_DIR` (`off`
/// or empty: nowhere), else `$XDG_CACHE_HOME/pitboss`, else
/// `~/.cache/pitboss`. Its files are signed with the key in
/// `$PITBOSS_CACHE_KEY`, else `$XDG_CONFIG_HOME/pitboss/cache.key`, else
/// `~/.config/pitboss/cache.key`, and hold at most
/// `$PITBOSS_CACHE_MAX_MIB` (default 512) together; see
/// [`pitboss_host::CacheConfig::from_env`].
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(v) = std::env::var_os("PITBOSS_CACHE_DIR") {
        return (!v.is_empty() && v != "off").then(|| PathBuf::from(v));
    }
    var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|h| h.join(".cache"))).map(|d| d.join("pitboss"))
}

/// Runs `pitboss play`; also returns the wall time for the throughput line.
pub fn play(opts: &PlayOptions) -> Result<(PlayReport, std::time::Duration)> {
    let variant = Rules::variant_by_id(&opts.variant)?;
    let rules = Rules::for_variant(variant)?;
    let sandbox = sandbox()?;
    let mut bots = Vec::new();
    for spec in &opts.bots {
        let bot = Bot::resolve(spec, Path::new("."), &sandbox)?;
        let mut name = bot.default_name();
        let same =
            bots.iter().filter(|(n, _): &&(String, Bot)| n == &name || n.starts_with(&format!("{name}#"))).count();
        if same > 0 {
            name = format!("{name}#{}", same + 1);
        }
        bots.push((name, bot));
    }
    let stacked = match &opts.shoe {
        Some(path) => {
            let text = pitboss_host::files::read_text(path, pitboss_host::files::Kind::Shoe)?;
            Some(parse_stacked(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let rounds = opts.rounds.unwrap_or(if stacked.is_some() { u64::MAX } else { 100_000 });
    // A stacked shoe deals at least one card a round that anyone bets in,
    // and stops a match after a run of rounds without a bet.
    let rounds_bound = match &stacked {
        Some(cards) => rounds.min(cards.len() as u64 + matchplay::IDLE_ROUNDS_CAP),
        None => rounds,
    };
    rules.check_chip_range(opts.bankroll, rounds_bound, 1).map_err(|e| anyhow::anyhow!("--bankroll/--rounds: {e}"))?;
    let spec = MatchSpec {
        rules,
        rounds,
        seed: derive_seed(opts.seed, 0),
        bankroll: opts.bankroll,
        stacked,
        fault_limit: opts.fault_limit,
    };
    let start = Instant::now();
    let table = if opts.transcript {
        let stdout = std::io::stdout();
        play_table(&spec, &bots, &mut transcript::Transcript::new(stdout.lock()))?
    } else {
        play_table(&spec, &bots, &mut ())?
    };
    let elapsed = start.elapsed();
    let report = PlayReport {
        variant: opts.variant.clone(),
        seed: spec.stacked.is_none().then_some(opts.seed),
        rounds_requested: opts.rounds,
        table,
    };
    Ok((report, elapsed))
}
