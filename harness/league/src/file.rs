//! League files (the format is in `leagues/README.md`): which bots play
//! which rules, in what format, for how many rounds and sessions from which
//! seed, under which limits; parsed strictly, every number range-checked
//! with the line it is on.

use std::path::Path;

use anyhow::{Context, Result, bail};
use pitboss_engine::{Banker, Game, Rules};
use pitboss_host::{Raisable, Sandbox, files};
use serde::Deserialize;
use toml::Spanned;

use crate::bots::sha256_hex;
pub use pitboss_results::league::{BotEntry, Format, MAX_BOT_SESSIONS, MAX_BOTS, MAX_ROUNDS, MAX_SESSIONS, Skipped};
use pitboss_results::sequential::{MAX_LOOKS, MIN_SESSIONS, Plan};
use pitboss_results::{LeagueRecord, LeagueSpec, LimitsRecord};
/// A league file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueFile {
    /// Display name.
    pub name: String,
    /// Rule set id, e.g. `north-american`.
    pub variant: String,
    /// Rounds per table per session.
    pub rounds: u64,
    /// Sessions, each dealt from its own seed (derived from `seed`).
    #[serde(default = "one")]
    pub sessions: u64,
    /// Master seed.
    pub seed: u64,
    /// Chips each bot starts each session with.
    pub bankroll: i64,
    /// Seating.
    #[serde(default)]
    pub format: Format,
    /// Faults after which a bot is disqualified (0 = never).
    #[serde(default = "default_fault_limit")]
    pub fault_limit: u64,
    /// Overrides of the rule set's defaults.
    #[serde(default)]
    pub rules: RuleOverrides,
    /// Sandbox limits for every bot.
    pub limits: Option<LimitOverrides>,
    /// Luck-adjusted figures beside the chips (`docs/luck.md`); on unless
    /// `false`.
    #[serde(default)]
    pub luck: Option<bool>,
    /// `"resolved"`: play sessions `batch` at a time until every adjacent
    /// pair is separated (at most `sessions`); absent: play them all.
    #[serde(default)]
    pub until: Option<String>,
    /// Sessions per look of a resolved league (default: a tenth of
    /// `sessions`, rounded up).
    #[serde(default)]
    pub batch: Option<u64>,
    /// SHA-256 of the file's text, as parsed.
    #[serde(skip)]
    pub sha256: String,
    /// The file's text, as parsed (embedded in results).
    #[serde(skip)]
    pub text: String,
    /// The file's name without its folder (`class.toml`): the only trace
    /// of its path that results keep.
    #[serde(skip)]
    pub file_name: String,
    /// How messages name the league: its path as given, or the results
    /// file it is embedded in. Never written to results.
    #[serde(skip)]
    pub origin: String,
    /// The bots.
    #[serde(rename = "bot")]
    pub bots: Vec<BotEntry>,
}

/// `[rules]`: any rule field of the variant, overridden, one field per
/// line of `pitboss_engine::rule_fields!`. Each value keeps its place in
/// the file so a refusal can point at it.
macro_rules! define_overrides {
    ($($(#[$attr:meta])* $name:ident: $rec:ty, $file:ty = $example:literal, $what:literal => $codec:ident $(, describe: $describe:expr)?;)*) => {
        /// `[rules]`: any rule field of the variant, overridden. Each value
        /// keeps its place in the file so a refusal can point at it.
        #[derive(Clone, Debug, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct RuleOverrides {
            $($name: Option<Spanned<$file>>,)*
        }

        impl RuleOverrides {
            /// `rules` with these overrides, validated. An error names the
            /// field and the byte offset of its value.
            pub fn apply(&self, mut rules: Rules) -> Result<Rules, (usize, String)> {
                $(
                    if let Some(v) = &self.$name {
                        let at = v.span().start;
                        let value = pitboss_results::__rule_parse!($codec, v.get_ref().clone()).map_err(|e| (at, e))?;
                        pitboss_results::__rule_set!($codec, $name, &mut rules, value).map_err(|e| (at, e))?;
                    }
                )*
                rules.validate().map_err(|e| (self.offset_of(e.field), e.to_string()))?;
                Ok(rules)
            }

            /// Where the value of `field` is in the file (0 if not
            /// overridden).
            fn offset_of(&self, field: &str) -> usize {
                $(
                    if field == stringify!($name) {
                        return self.$name.as_ref().map_or(0, |v| v.span().start);
                    }
                )*
                0
            }
        }
    };
}

pitboss_engine::rule_fields!(define_overrides);

/// Faults after which a bot is disqualified unless a league says otherwise.
pub const DEFAULT_FAULT_LIMIT: u64 = 100;

fn default_fault_limit() -> u64 {
    DEFAULT_FAULT_LIMIT
}

fn one() -> u64 {
    1
}

/// `[limits]`: the sandbox's limits for every bot of the league. Each
/// value keeps its place in the file, so a value out of its range
/// (`pitboss_host::limit_range`) is refused pointing at it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitOverrides {
    /// Fuel per decision.
    pub fuel_per_decision: Option<Spanned<u64>>,
    /// Fuel for instantiation and a reactor's `_initialize`.
    pub fuel_for_startup: Option<Spanned<u64>>,
    /// Memory cap in MiB.
    pub memory_mib: Option<Spanned<u64>>,
    /// Wall-clock backstop per call, in milliseconds.
    pub wall_ms: Option<Spanned<u64>>,
    /// Largest module in MiB.
    pub module_mib: Option<Spanned<u64>>,
    /// Largest code section in KiB.
    pub code_kib: Option<Spanned<u64>>,
    /// Most functions in a module.
    pub functions: Option<Spanned<u64>>,
}

impl LimitOverrides {
    /// Each limit with its value in the file, if it sets one.
    pub(crate) fn values(&self) -> [(Raisable, Option<&Spanned<u64>>); Raisable::ALL.len()] {
        Raisable::ALL.map(|limit| {
            let value = match limit {
                Raisable::FuelPerDecision => &self.fuel_per_decision,
                Raisable::FuelForStartup => &self.fuel_for_startup,
                Raisable::MemoryMib => &self.memory_mib,
                Raisable::WallMs => &self.wall_ms,
                Raisable::ModuleMib => &self.module_mib,
                Raisable::CodeKib => &self.code_kib,
                Raisable::Functions => &self.functions,
            };
            (limit, value.as_ref())
        })
    }

    /// Checks every value against its documented range; an error carries
    /// the value's byte offset.
    pub fn check(&self) -> Result<(), (usize, String)> {
        for (limit, value) in self.values() {
            let range = limit.range();
            if let Some(v) = value
                && !range.contains(v.get_ref())
            {
                let msg =
                    format!("limit `{}` = {} is outside {}..={}", limit.key(), v.get_ref(), range.start(), range.end());
                return Err((v.span().start, msg));
            }
        }
        Ok(())
    }

    /// `base` with these overrides (each checked at parse time to lie in
    /// its range; one that somehow does not keeps the default).
    pub(crate) fn limits(&self, base: &pitboss_host::Limits) -> pitboss_host::Limits {
        let mut limits = *base;
        for (limit, value) in self.values() {
            if let Some(v) = value {
                limit.set(&mut limits, *v.get_ref());
            }
        }
        limits
    }

    pub(crate) fn sandbox(&self, base_sandbox: &Sandbox) -> Result<Sandbox> {
        let limits = self.limits(&base_sandbox.limits());
        let sandbox = Sandbox::new(limits).map_err(|e| anyhow::anyhow!("cannot start the wasm sandbox: {e}"))?;
        Ok(sandbox.with_cache_dir(base_sandbox.cache_dir().map(Path::to_path_buf)))
    }
}

/// The limits a command plays under: the `[limits]` of a league file
/// (`--league FILE`), then each `--max-…` flag on top, over the defaults.
/// How `pitboss play`, `check` and `replay` raise limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LimitChoice {
    /// A league file whose `[limits]` apply (nothing else of it is used).
    pub league: Option<std::path::PathBuf>,
    /// Limits set by flags, each already in its range, applied last.
    pub raised: Vec<(Raisable, u64)>,
}

impl LimitChoice {
    /// `base` under these limits (`base` itself when they change nothing).
    pub fn sandbox(&self, base: &Sandbox) -> Result<Sandbox> {
        let mut limits = base.limits();
        if let Some(path) = &self.league
            && let Some(overrides) = parse(path)?.limits
        {
            limits = overrides.limits(&limits);
        }
        for &(limit, value) in &self.raised {
            limit.set(&mut limits, value);
        }
        if limits == base.limits() {
            return Ok(base.clone());
        }
        let sandbox = Sandbox::new(limits).map_err(|e| anyhow::anyhow!("cannot start the wasm sandbox: {e}"))?;
        Ok(sandbox.with_cache_dir(base.cache_dir().map(Path::to_path_buf)))
    }

    /// These limits as a command's arguments (` --league FILE --max-… N`),
    /// each quoted by `quote`.
    pub fn args(&self, quote: impl Fn(&str) -> String) -> String {
        let mut out = String::new();
        if let Some(path) = &self.league {
            out.push_str(&format!(" --league {}", quote(&path.display().to_string())));
        }
        for (limit, value) in &self.raised {
            out.push_str(&format!(" {} {value}", limit.flag()));
        }
        out
    }
}

/// Reads and checks a league file; errors name the file (and, for syntax
/// and type errors, the line and column).
pub fn parse(path: &Path) -> Result<LeagueFile> {
    let text = files::read_text(path, files::Kind::League)?;
    let file_name = path.file_name().map_or_else(|| "league.toml".into(), |f| f.to_string_lossy().into_owned());
    parse_text(&text, &file_name, &path.display().to_string())
}

/// Parses and checks a league file's `text` (the file called `file_name`;
/// errors name `origin`, with line and column where they can).
pub fn parse_text(text: &str, file_name: &str, origin: &str) -> Result<LeagueFile> {
    let mut league: LeagueFile = toml::from_str(text).map_err(|e| {
        let at = e.span().map(|s| line_col(text, s.start)).map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default();
        anyhow::anyhow!("{origin}{at}: {}", e.message())
    })?;
    league.sha256 = sha256_hex(text.as_bytes());
    league.text = text.to_string();
    league.file_name = file_name.to_string();
    league.origin = origin.to_string();
    let variant = Rules::variant_by_id(&league.variant).map_err(|e| anyhow::anyhow!("{origin}: {e}"))?;
    let defaults = Rules::for_variant(variant);
    if let Err((offset, problem)) = league.rules.apply(defaults) {
        let (line, col) = line_col(text, offset);
        bail!("{origin}:{line}:{col}: {problem}");
    }
    if let Some(Err((offset, problem))) = league.limits.as_ref().map(LimitOverrides::check) {
        let (line, col) = line_col(text, offset);
        bail!("{origin}:{line}:{col}: {problem}");
    }
    if league.bots.is_empty() {
        bail!("{origin}: the league has no [[bot]] entries");
    }
    for (i, bot) in league.bots.iter().enumerate() {
        let what = bot.name.clone().unwrap_or_else(|| format!("number {}", i + 1));
        if bot.name.is_some() && league.bots[..i].iter().any(|b| b.name == bot.name) {
            bail!("{origin}: two bots are named `{what}`");
        }
        let given = [&bot.path, &bot.folder, &bot.builtin].iter().filter(|x| x.is_some()).count();
        if given != 1 {
            bail!("{origin}: bot `{what}` needs exactly one of `path`, `folder` or `builtin`");
        }
    }
    check_numbers(&league, text).map_err(|(offset, problem)| {
        let (line, col) = line_col(text, offset);
        anyhow::anyhow!("{origin}:{line}:{col}: {problem}")
    })?;
    Ok(league)
}

impl LeagueFile {
    /// The league as results embed it: file name, text, hash, and the
    /// settings with every rule and limit in force.
    pub fn record(&self) -> Result<LeagueRecord> {
        let rules = league_rules(self)?;
        let base = pitboss_host::Limits::default();
        let limits = match &self.limits {
            Some(l) => l.limits(&base),
            None => base,
        };
        Ok(LeagueRecord {
            file: self.file_name.clone(),
            sha256: self.sha256.clone(),
            text: self.text.clone(),
            parsed: LeagueSpec {
                name: self.name.clone(),
                variant: self.variant.clone(),
                rounds: self.rounds,
                sessions: self.sessions,
                seed: self.seed,
                bankroll: self.bankroll,
                format: self.format,
                fault_limit: self.fault_limit,
                rules: (&rules).into(),
                limits: limits_record(&limits),
                bots: self.bots.clone(),
                luck: self.luck_adjusted(),
                batch: self.plan().map(|p| p.batch),
            },
        })
    }
}

/// The limits in force as results record them, in `[limits]` units.
pub fn limits_record(l: &pitboss_host::Limits) -> LimitsRecord {
    LimitsRecord {
        fuel_per_decision: l.fuel_per_decision,
        fuel_for_startup: l.fuel_for_startup,
        memory_mib: (l.memory_bytes >> 20) as u64,
        wall_ms: l.wall_ms,
        module_mib: (l.module_bytes >> 20) as u64,
        code_kib: (l.code_bytes >> 10) as u64,
        functions: l.functions as u64,
    }
}

/// The league `results` embed, parsed from its text (`label` names the
/// results or shard file in errors): the text must be within the league
/// file cap, match its SHA-256 and parse to the settings recorded beside
/// it.
pub fn embedded(league: &LeagueRecord, label: &str) -> Result<LeagueFile> {
    if league.text.len() as u64 > files::LEAGUE_CAP {
        bail!("{label}: the embedded league is over the league file cap");
    }
    if sha256_hex(league.text.as_bytes()) != league.sha256 {
        bail!("{label}: the embedded league text does not match its SHA-256");
    }
    let origin = format!("{} (the league embedded in {label})", league.file);
    let mut file = parse_text(&league.text, &league.file, &origin)?;
    // Results written before luck-adjusted figures existed record none:
    // their league is re-run without them, as it was run.
    if !league.parsed.luck && file.luck.is_none() {
        file.luck = Some(false);
    }
    if file.record()? != *league {
        bail!("{label}: the embedded league's parsed settings are not what its text says");
    }
    Ok(file)
}

impl LeagueFile {
    /// How a resolved league (`until = "resolved"`) plays its sessions;
    /// `None` for one that plays them all.
    pub fn plan(&self) -> Option<Plan> {
        self.until.as_ref()?;
        Some(Plan { batch: self.batch.unwrap_or(self.sessions.div_ceil(DEFAULT_LOOKS)), cap: self.sessions })
    }

    /// Whether this league measures luck-adjusted figures (`luck`, on
    /// unless the file says `false`).
    pub fn luck_adjusted(&self) -> bool {
        self.luck.unwrap_or(true)
    }

    /// The sandbox this league's bots run in: `base` with the league's
    /// `[limits]` (and `base`'s compile cache).
    pub fn sandbox(&self, base: &Sandbox) -> Result<Sandbox> {
        match &self.limits {
            Some(l) => l.sandbox(base),
            None => Ok(base.clone()),
        }
    }
}

/// The places of a league file's top-level numbers, for errors.
#[derive(Deserialize)]
struct NumberPlaces {
    rounds: Option<Spanned<toml::Value>>,
    sessions: Option<Spanned<toml::Value>>,
    bankroll: Option<Spanned<toml::Value>>,
    until: Option<Spanned<toml::Value>>,
    batch: Option<Spanned<toml::Value>>,
}

/// Checks a parsed league's numbers against their documented ranges
/// (`leagues/README.md`), so nothing is sized from an unchecked number and
/// no balance can leave the range chips are kept in. An error carries the
/// offending value's byte offset.
fn check_numbers(league: &LeagueFile, text: &str) -> std::result::Result<(), (usize, String)> {
    let places: Option<NumberPlaces> = toml::from_str(text).ok();
    let at = |pick: fn(&NumberPlaces) -> &Option<Spanned<toml::Value>>| {
        places.as_ref().and_then(|p| pick(p).as_ref()).map_or(0, |v| v.span().start)
    };
    if !(1..=MAX_ROUNDS).contains(&league.rounds) {
        return Err((at(|p| &p.rounds), format!("rounds = {} is outside 1..={MAX_ROUNDS}", league.rounds)));
    }
    if !(1..=MAX_SESSIONS).contains(&league.sessions) {
        return Err((at(|p| &p.sessions), format!("sessions = {} is outside 1..={MAX_SESSIONS}", league.sessions)));
    }
    if !(1..=pitboss_engine::MAX_BANKROLL).contains(&league.bankroll) {
        let problem = format!("bankroll = {} is outside 1..={}", league.bankroll, pitboss_engine::MAX_BANKROLL);
        return Err((at(|p| &p.bankroll), problem));
    }
    check_until(league)
        .map_err(|(until, problem)| (if until { at(|p| &p.until) } else { at(|p| &p.batch) }, problem))?;
    if league.bots.len() > MAX_BOTS {
        return Err((0, format!("{} [[bot]] entries; a league has at most {MAX_BOTS} bots", league.bots.len())));
    }
    // The rules were validated above; here only their chip range matters.
    if let Some(rules) =
        Rules::variant_by_id(&league.variant).ok().map(Rules::for_variant).and_then(|d| league.rules.apply(d).ok())
    {
        rules.check_chip_range(league.bankroll, league.rounds, league.sessions).map_err(|e| (at(|p| &p.rounds), e))?;
    }
    Ok(())
}

/// Looks a resolved league plans unless it sets `batch`.
pub const DEFAULT_LOOKS: u64 = 10;

/// Checks `until` and `batch` (`leagues/README.md`); an error says which
/// key (`true`: `until`) and why.
fn check_until(league: &LeagueFile) -> std::result::Result<(), (bool, String)> {
    match (&league.until, league.batch) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err((false, "batch is for a league with until = \"resolved\"".into())),
        (Some(until), _) if until != "resolved" => Err((
            true,
            format!("until = {until:?} is not \"resolved\" (the only value; leave it out to play every session)"),
        )),
        (Some(_), _) if league.sessions < MIN_SESSIONS as u64 => Err((
            true,
            format!(
                "until = \"resolved\" compares bots session by session: it needs sessions >= {MIN_SESSIONS} (the cap), not {}",
                league.sessions
            ),
        )),
        (Some(_), Some(b)) if !(1..=league.sessions).contains(&b) => {
            Err((false, format!("batch = {b} is outside 1..={} (sessions, the cap)", league.sessions)))
        }
        (Some(_), _) => match league.plan() {
            Some(plan) if plan.looks() > MAX_LOOKS => Err((
                false,
                format!(
                    "batch = {} makes {} looks over {} sessions; at most {MAX_LOOKS} (a larger batch)",
                    plan.batch,
                    plan.looks(),
                    league.sessions
                ),
            )),
            _ => Ok(()),
        },
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    // An offset inside a character (never from the parser, but cheap to
    // rule out) counts from the character's start.
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The rules a league plays: its variant's defaults with its overrides.
pub fn league_rules(league: &LeagueFile) -> Result<Rules> {
    let origin = &league.origin;
    let variant = Rules::variant_by_id(&league.variant).with_context(|| origin.clone())?;
    let mut defaults = Rules::for_variant(variant);
    if league.format == Format::Bank {
        if defaults.game != Game::Banker {
            bail!("{origin}: format \"bank\" is the banker game's; this league plays `{}`", league.variant);
        }
        defaults.banker = Banker::Rotate;
    }
    league.rules.apply(defaults).map_err(|(_, e)| anyhow::anyhow!("{origin}: {e}"))
}
