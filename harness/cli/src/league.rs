//! League files (minimal format, see `leagues/README.md`): which bots play
//! which rules for how many rounds from which seed, and the standings.

use std::path::Path;

use anyhow::{Context, Result, bail};
use pitboss_engine::{Rules, derive_seed};
use pitboss_host::Sandbox;
use serde::{Deserialize, Serialize};

use crate::bots::Bot;
use crate::matchplay::{BotResult, MatchSpec, play_table};

/// How bots are seated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every bot at one table, sharing the shoe, in file order.
    #[default]
    Table,
    /// Duplicate: each bot alone at its own table, all tables dealt from
    /// the same seed, so luck is shared and only skill differs.
    Solo,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Table => "table",
            Format::Solo => "solo",
        })
    }
}

/// A league file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueFile {
    /// Display name.
    pub name: String,
    /// Rule set id, e.g. `north-american`.
    pub variant: String,
    /// Rounds per table.
    pub rounds: u64,
    /// Master seed.
    pub seed: u64,
    /// Chips each bot starts with.
    pub bankroll: i64,
    /// Seating.
    #[serde(default)]
    pub format: Format,
    /// Faults after which a bot is disqualified (0 = never).
    #[serde(default = "default_fault_limit")]
    pub fault_limit: u64,
    /// The bots.
    #[serde(rename = "bot")]
    pub bots: Vec<BotEntry>,
}

/// Faults after which a bot is disqualified unless a league says otherwise.
pub const DEFAULT_FAULT_LIMIT: u64 = 100;

fn default_fault_limit() -> u64 {
    DEFAULT_FAULT_LIMIT
}

/// One `[[bot]]` entry: a name and either a wasm path or a builtin.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotEntry {
    /// Display name, unique within the league.
    pub name: String,
    /// Path to a `.wasm` file, relative to the league file.
    pub path: Option<String>,
    /// Name of a builtin strategy.
    pub builtin: Option<String>,
}

/// One row of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// 1-based rank by final balance.
    pub rank: usize,
    /// The bot's result.
    #[serde(flatten)]
    pub result: BotResult,
}

/// A finished league.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeagueResult {
    /// Display name.
    pub name: String,
    /// Rule set id.
    pub variant: String,
    /// Master seed.
    pub seed: u64,
    /// Rounds per table.
    pub rounds: u64,
    /// Seating.
    pub format: Format,
    /// Ranked by final balance (ties by name).
    pub standings: Vec<Standing>,
}

/// Reads and checks a league file; errors name the file (and, for syntax
/// and type errors, the line and column).
pub fn parse(path: &Path) -> Result<LeagueFile> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read league file {}", path.display()))?;
    let league: LeagueFile = toml::from_str(&text).map_err(|e| {
        let at = e.span().map(|s| line_col(&text, s.start)).map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default();
        anyhow::anyhow!("{}{at}: {}", path.display(), e.message())
    })?;
    if league.bots.is_empty() {
        bail!("{}: the league has no [[bot]] entries", path.display());
    }
    for (i, bot) in league.bots.iter().enumerate() {
        if league.bots[..i].iter().any(|b| b.name == bot.name) {
            bail!("{}: two bots are named `{}`", path.display(), bot.name);
        }
        if bot.path.is_some() == bot.builtin.is_some() {
            bail!("{}: bot `{}` needs exactly one of `path` or `builtin`", path.display(), bot.name);
        }
    }
    if league.bankroll <= 0 {
        bail!("{}: bankroll must be positive", path.display());
    }
    Ok(league)
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Runs a parsed league whose file is at `path` (bot paths are relative to
/// it).
pub fn run(league: &LeagueFile, path: &Path, sandbox: &Sandbox) -> Result<LeagueResult> {
    let variant = Rules::variant_by_id(&league.variant).with_context(|| path.display().to_string())?;
    let rules = Rules::for_variant(variant).with_context(|| path.display().to_string())?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut bots = Vec::new();
    for entry in &league.bots {
        let bot = match (&entry.path, &entry.builtin) {
            (Some(p), _) => Bot::resolve(p, base, sandbox),
            (_, Some(b)) => Bot::builtin(b),
            _ => unreachable!("checked by parse"),
        }
        .with_context(|| format!("{}: bot `{}`", path.display(), entry.name))?;
        bots.push((entry.name.clone(), bot));
    }
    let spec = MatchSpec {
        rules,
        rounds: league.rounds,
        seed: derive_seed(league.seed, 0),
        bankroll: league.bankroll,
        stacked: None,
        fault_limit: league.fault_limit,
    };
    let results: Vec<BotResult> = match league.format {
        Format::Table => {
            if bots.len() > spec.rules.boxes as usize {
                bail!(
                    "{}: {} bots do not fit one table of {} boxes; use format = \"solo\"",
                    path.display(),
                    bots.len(),
                    spec.rules.boxes
                );
            }
            play_table(&spec, &bots, &mut ())?.bots
        }
        Format::Solo => {
            // Tables are independent, so they run in parallel; each is
            // deterministic, so the thread count never changes a result.
            let tables: Vec<Result<BotResult>> = std::thread::scope(|s| {
                let handles: Vec<_> = bots
                    .iter()
                    .map(|bot| {
                        let spec = &spec;
                        s.spawn(move || play_table(spec, std::slice::from_ref(bot), &mut ()).map(|t| t.bots[0].clone()))
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a table thread panicked")).collect()
            });
            tables.into_iter().collect::<Result<_>>()?
        }
    };
    Ok(LeagueResult {
        name: league.name.clone(),
        variant: league.variant.clone(),
        seed: league.seed,
        rounds: league.rounds,
        format: league.format,
        standings: rank(results),
    })
}

/// Ranks results by final balance, highest first, disqualified bots last;
/// ties by name.
pub fn rank(mut results: Vec<BotResult>) -> Vec<Standing> {
    results.sort_by(|a, b| {
        a.disqualified.cmp(&b.disqualified).then(b.balance.cmp(&a.balance)).then_with(|| a.name.cmp(&b.name))
    });
    results.into_iter().enumerate().map(|(i, result)| Standing { rank: i + 1, result }).collect()
}
