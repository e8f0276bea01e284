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
pub mod duel;
pub mod file;
pub mod league;
pub mod locate;
pub mod luck;
pub mod matchplay;
pub mod replay;
pub mod roster;
pub mod season;
pub mod session;
pub mod setup;
pub mod shard;
pub mod similar;
pub mod transcript;
pub mod verify;

use std::path::PathBuf;

use anyhow::Result;
use pitboss_host::{Limits, Sandbox};

pub use crate::matchplay::{DEFAULT_BANKROLL, PlayOptions, PlayReport, play, replay_command};

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
