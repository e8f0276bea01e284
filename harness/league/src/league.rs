//! League files (minimal format, see `leagues/README.md`): which bots play
//! which rules for how many rounds from which seed, and the standings.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pitboss_engine::{Banker, InsuranceOn, Rules, Stats, derive_seed};
use pitboss_host::{Sandbox, files};
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::bots::{Bot, NamedBots};
use crate::matchplay::FAULT_LOG_CAP;
pub use crate::results::{
    BotResult, BotSource, LeagueRecord, LeagueResult, LeagueSpec, ResultsFile, SessionBotRecord, SessionRecord,
    Standing, Status,
};
use crate::session::{SessionBot, SessionResult, play_session, rotated_seating};

/// How bots are seated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Shared tables, seats rotating every session.
    #[default]
    Table,
    /// Duplicate: each bot alone at its own table, all tables dealt from
    /// the same seed, so luck is shared and only skill differs.
    Solo,
    /// The banker game with the bank rotating: shared tables where every
    /// bot banks equally often and the bots play each other.
    Bank,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Table => "table",
            Format::Bank => "bank",
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

/// `[rules]`: any rule field of the variant, overridden. Each value keeps
/// its place in the file so a refusal can point at it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleOverrides {
    decks: Option<Spanned<u8>>,
    cut_card: Option<Spanned<u16>>,
    boxes: Option<Spanned<u8>>,
    hole_card: Option<Spanned<bool>>,
    dealer_hits_soft_17: Option<Spanned<bool>>,
    insurance: Option<Spanned<String>>,
    insurance_up_to_half: Option<Spanned<bool>>,
    late_surrender: Option<Spanned<bool>>,
    double_totals: Option<Spanned<Vec<u8>>>,
    double_after_split: Option<Spanned<bool>>,
    max_split_hands: Option<Spanned<u8>>,
    resplit_aces: Option<Spanned<bool>>,
    blackjack_pays: Option<Spanned<String>>,
    min_bet: Option<Spanned<i64>>,
    max_bet: Option<Spanned<i64>>,
    bet_unit: Option<Spanned<i64>>,
    double_soft: Option<Spanned<bool>>,
    aces_low_after_soft_double: Option<Spanned<bool>>,
    dealer_wins_ties_to: Option<Spanned<u8>>,
    original_bets_only: Option<Spanned<bool>>,
    even_money: Option<Spanned<bool>>,
    over_under_13: Option<Spanned<bool>>,
    back_bets: Option<Spanned<bool>>,
    boxes_per_player: Option<Spanned<u8>>,
    shuffle_every_round: Option<Spanned<bool>>,
    banker: Option<Spanned<String>>,
    sit_out: Option<Spanned<bool>>,
}

impl RuleOverrides {
    /// `rules` with these overrides, validated. An error names the field
    /// and the byte offset of its value.
    pub fn apply(&self, mut rules: Rules) -> Result<Rules, (usize, String)> {
        fn set<T: Clone>(slot: &mut T, value: &Option<Spanned<T>>) {
            if let Some(v) = value {
                *slot = v.get_ref().clone();
            }
        }
        let at = |v: &Option<Spanned<String>>| v.as_ref().map_or(0, |s| s.span().start);
        set(&mut rules.decks, &self.decks);
        set(&mut rules.cut_card, &self.cut_card);
        set(&mut rules.boxes, &self.boxes);
        set(&mut rules.hole_card, &self.hole_card);
        set(&mut rules.dealer_hits_soft_17, &self.dealer_hits_soft_17);
        set(&mut rules.insurance_up_to_half, &self.insurance_up_to_half);
        set(&mut rules.late_surrender, &self.late_surrender);
        set(&mut rules.double_after_split, &self.double_after_split);
        set(&mut rules.max_split_hands, &self.max_split_hands);
        set(&mut rules.resplit_aces, &self.resplit_aces);
        set(&mut rules.min_bet, &self.min_bet);
        set(&mut rules.max_bet, &self.max_bet);
        set(&mut rules.bet_unit, &self.bet_unit);
        set(&mut rules.double_soft, &self.double_soft);
        set(&mut rules.aces_low_after_soft_double, &self.aces_low_after_soft_double);
        set(&mut rules.dealer_wins_ties_to, &self.dealer_wins_ties_to);
        set(&mut rules.original_bets_only, &self.original_bets_only);
        set(&mut rules.even_money, &self.even_money);
        set(&mut rules.over_under_13, &self.over_under_13);
        set(&mut rules.back_bets, &self.back_bets);
        set(&mut rules.boxes_per_player, &self.boxes_per_player);
        set(&mut rules.shuffle_every_round, &self.shuffle_every_round);
        set(&mut rules.sit_out, &self.sit_out);
        if let Some(v) = &self.banker {
            let text = v.get_ref().as_str();
            rules.banker = match text {
                "house" => Banker::House,
                "rotate" => Banker::Rotate,
                _ => match text.strip_prefix("seat:").and_then(|n| n.parse().ok()) {
                    Some(seat) => Banker::Seat(seat),
                    None => {
                        let msg = format!("rule `banker`: `{text}` is not one of house, rotate, seat:N");
                        return Err((at(&self.banker), msg));
                    }
                },
            };
        }
        if let Some(v) = &self.insurance {
            rules.insurance_on = match v.get_ref().as_str() {
                "never" => InsuranceOn::Never,
                "ace" => InsuranceOn::Ace,
                "ace-or-ten" => InsuranceOn::AceOrTen,
                other => {
                    let msg = format!("rule `insurance`: `{other}` is not one of never, ace, ace-or-ten");
                    return Err((at(&self.insurance), msg));
                }
            };
        }
        if let Some(v) = &self.double_totals {
            let mut mask = 0u32;
            for &t in v.get_ref() {
                if !(2..=21).contains(&t) {
                    return Err((v.span().start, format!("rule `double_totals`: {t} is no two-card total (2 to 21)")));
                }
                mask |= 1 << t;
            }
            rules.double_totals = mask;
        }
        if let Some(v) = &self.blackjack_pays {
            let parsed =
                v.get_ref().split_once(':').and_then(|(n, d)| Some((n.trim().parse().ok()?, d.trim().parse().ok()?)));
            match parsed {
                Some(pays) => rules.blackjack_pays = pays,
                None => {
                    let msg = format!("rule `blackjack_pays`: `{}` is not a ratio like \"3:2\"", v.get_ref());
                    return Err((at(&self.blackjack_pays), msg));
                }
            }
        }
        rules.validate().map_err(|e| (self.offset_of(e.field), e.to_string()))?;
        Ok(rules)
    }

    /// Where the value of `field` is in the file (0 if not overridden).
    fn offset_of(&self, field: &str) -> usize {
        fn start<T>(v: &Option<Spanned<T>>) -> Option<usize> {
            v.as_ref().map(|s| s.span().start)
        }
        let found = match field {
            "decks" => start(&self.decks),
            "cut_card" => start(&self.cut_card),
            "boxes" => start(&self.boxes),
            "hole_card" => start(&self.hole_card),
            "max_split_hands" => start(&self.max_split_hands),
            "blackjack_pays" => start(&self.blackjack_pays),
            "min_bet" => start(&self.min_bet),
            "max_bet" => start(&self.max_bet),
            "bet_unit" => start(&self.bet_unit),
            "boxes_per_player" => start(&self.boxes_per_player),
            "original_bets_only" => start(&self.original_bets_only),
            "dealer_wins_ties_to" => start(&self.dealer_wins_ties_to),
            "banker" => start(&self.banker),
            _ => None,
        };
        found.unwrap_or(0)
    }
}

/// Most rounds per table per session (and for `pitboss play`).
pub const MAX_ROUNDS: u64 = 10_000_000_000;
/// Most sessions in a league.
pub const MAX_SESSIONS: u64 = 10_000;
/// Most bots in a league.
pub const MAX_BOTS: usize = 1_000;
/// Most bots × sessions: results keep 200 balance samples for each, so
/// this bounds a results file (and the memory that builds it) to about
/// 200 MB.
pub const MAX_BOT_SESSIONS: u64 = 100_000;

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
    /// Checks every value against its documented range; an error carries
    /// the value's byte offset.
    pub fn check(&self) -> Result<(), (usize, String)> {
        use pitboss_host::limit_range as r;
        let fields = [
            ("fuel_per_decision", &self.fuel_per_decision, r::FUEL_PER_DECISION),
            ("memory_mib", &self.memory_mib, r::MEMORY_MIB),
            ("wall_ms", &self.wall_ms, r::WALL_MS),
            ("module_mib", &self.module_mib, r::MODULE_MIB),
            ("code_kib", &self.code_kib, r::CODE_KIB),
            ("functions", &self.functions, r::FUNCTIONS),
        ];
        for (name, value, range) in fields {
            if let Some(v) = value
                && !range.contains(v.get_ref())
            {
                let msg = format!("limit `{name}` = {} is outside {}..={}", v.get_ref(), range.start(), range.end());
                return Err((v.span().start, msg));
            }
        }
        Ok(())
    }

    /// `base` with these overrides.
    pub(crate) fn limits(&self, base: &pitboss_host::Limits) -> pitboss_host::Limits {
        let get = |v: &Option<Spanned<u64>>| v.as_ref().map(|s| *s.get_ref());
        // Checked at parse time to lie in ranges that fit a `usize` once
        // scaled; a value that somehow does not keeps the default.
        let scaled = |v: Option<u64>, shift: u32, default: usize| {
            v.and_then(|v| v.checked_shl(shift)).and_then(|v| usize::try_from(v).ok()).unwrap_or(default)
        };
        pitboss_host::Limits {
            fuel_per_decision: get(&self.fuel_per_decision).unwrap_or(base.fuel_per_decision),
            memory_bytes: scaled(get(&self.memory_mib), 20, base.memory_bytes),
            wall_ms: get(&self.wall_ms).unwrap_or(base.wall_ms),
            module_bytes: scaled(get(&self.module_mib), 20, base.module_bytes),
            code_bytes: scaled(get(&self.code_kib), 10, base.code_bytes),
            functions: scaled(get(&self.functions), 0, base.functions),
            ..*base
        }
    }

    pub(crate) fn sandbox(&self, base_sandbox: &Sandbox) -> Result<Sandbox> {
        let limits = self.limits(&base_sandbox.limits());
        let sandbox = Sandbox::new(limits).map_err(|e| anyhow::anyhow!("cannot start the wasm sandbox: {e}"))?;
        Ok(sandbox.with_cache_dir(base_sandbox.cache_dir().map(Path::to_path_buf)))
    }
}

/// One `[[bot]]` entry: a `.wasm` path (or a glob like `subs/*.wasm`), a
/// `folder` of `.wasm` files, or a `builtin` strategy.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BotEntry {
    /// Display name, unique within the league (file stems name the bots
    /// of a glob or folder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Path to a `.wasm` file, or a glob, relative to the league file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// A folder of submissions: every `.wasm` file in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    /// Name of a builtin strategy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
}

/// An entry of a bot folder or glob left out because it is not a regular
/// file (after following symlinks): a FIFO, a device, a socket, a folder,
/// a dangling symlink.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The entry.
    pub path: PathBuf,
    /// What it is: "a FIFO", "a dangling symlink".
    pub found: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "skipped {:?}: {}, not a regular file", self.path, self.found)
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
    let defaults = Rules::for_variant(variant).map_err(|e| anyhow::anyhow!("{origin}: {e}"))?;
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
                limits: (&limits).into(),
                bots: self.bots.clone(),
            },
        })
    }

    /// The sandbox this league's bots run in: `base` with the league's
    /// `[limits]`.
    pub(crate) fn sandbox(&self, base: &Sandbox) -> Result<Sandbox> {
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
    if league.bots.len() > MAX_BOTS {
        return Err((0, format!("{} [[bot]] entries; a league has at most {MAX_BOTS} bots", league.bots.len())));
    }
    // The rules were validated above; here only their chip range matters.
    if let Some(rules) = Rules::variant_by_id(&league.variant)
        .ok()
        .and_then(|v| Rules::for_variant(v).ok())
        .and_then(|d| league.rules.apply(d).ok())
    {
        rules.check_chip_range(league.bankroll, league.rounds, league.sessions).map_err(|e| (at(|p| &p.rounds), e))?;
    }
    Ok(())
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

/// Runs a parsed league whose file is at `path` (bot paths are relative to
/// it).
pub fn run(league: &LeagueFile, path: &Path, sandbox: &Sandbox) -> Result<LeagueResult> {
    run_with(league, path, sandbox, None, &|_| ()).map(|(result, _)| result)
}

/// A league's sessions as played, and where its bots came from.
#[derive(Clone, Debug)]
pub struct Played {
    /// Every bot and the hash of its file, in league order.
    pub sources: Vec<BotSource>,
    /// The sessions played, in order.
    pub sessions: Vec<SessionResult>,
    /// Folder and glob entries left out.
    pub skipped: Vec<Skipped>,
}

/// Runs a league on `threads` threads (all cores when `None`); returns the
/// standings and the full results file. The thread count never changes a
/// byte of either: sessions are independent and merged in order.
pub fn run_with(
    league: &LeagueFile,
    path: &Path,
    sandbox: &Sandbox,
    threads: Option<usize>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(LeagueResult, ResultsFile)> {
    let played = run_sessions(league, path, sandbox, threads, progress, None)?;
    let (mut result, mut file) = assemble(league, played.sources, &played.sessions)?;
    result.skipped = played.skipped.clone();
    file.result.skipped = played.skipped;
    Ok((result, file))
}

/// Plays the league's sessions — all, or with `shard = Some((i, n))` the
/// deterministic slice `s % n == i` — in parallel, returned in order.
pub fn run_sessions(
    league: &LeagueFile,
    path: &Path,
    sandbox: &Sandbox,
    threads: Option<usize>,
    progress: &(dyn Fn(u64) + Sync),
    shard: Option<(u64, u64)>,
) -> Result<Played> {
    let sandbox = league.sandbox(sandbox)?;
    let base = path.parent().unwrap_or(Path::new("."));
    let Expanded { bots, sources, skipped } =
        expand_bots(league, base, &sandbox).with_context(|| league.origin.clone())?;
    let wanted: Vec<u64> = (0..league.sessions).filter(|s| shard.is_none_or(|(i, k)| s % k == i)).collect();
    let sessions = play_sessions(league, &bots, &wanted, threads, progress)?;
    Ok(Played { sources, sessions, skipped })
}

/// Plays the sessions `wanted` (ascending) of a league with its bots, in
/// parallel, returned in order.
pub(crate) fn play_sessions(
    league: &LeagueFile,
    bots: &NamedBots,
    wanted: &[u64],
    threads: Option<usize>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<SessionResult>> {
    let rules = league_rules(league)?;
    let n = bots.len();
    if n as u64 * league.sessions > MAX_BOT_SESSIONS {
        bail!(
            "{}: {n} bots × {} sessions is over {MAX_BOT_SESSIONS} (results keep 200 balance samples of each)",
            league.origin,
            league.sessions
        );
    }
    let play = |session: u64| {
        let seed = derive_seed(league.seed, session);
        let seats = seating_for(league.format, n, &rules, session);
        play_session(session, seed, &rules, league.rounds, league.bankroll, league.fault_limit, bots, &seats, progress)
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build()?;
    pool.install(|| wanted.par_iter().map(|&s| play(s)).collect::<Result<Vec<_>>>())
}

/// For each session, in order, which bots an earlier disqualification
/// keeps out of it: a disqualification holds for the rest of the league,
/// in session order. The sessions are played independently (in parallel,
/// or as shards), so such a bot was seated in later ones too, but they do
/// not count, and it keeps its bankroll.
pub(crate) fn out_before(sessions: &[SessionResult], n: usize) -> Vec<Vec<bool>> {
    let mut out = vec![false; n];
    sessions
        .iter()
        .map(|s| {
            let before = out.clone();
            for (o, b) in out.iter_mut().zip(&s.bots) {
                *o |= b.disqualified;
            }
            before
        })
        .collect()
}

/// A session as the results file records it; `out` marks the bots an
/// earlier disqualification keeps out of it (recorded as `after_dq`, with
/// nothing counted).
pub(crate) fn session_record(s: &SessionResult, sources: &[BotSource], out: &[bool]) -> SessionRecord {
    let bots = sources
        .iter()
        .zip(&s.bots)
        .zip(out)
        .map(|((source, b), &out)| SessionBotRecord {
            name: source.name.clone(),
            net: if out { 0 } else { b.net },
            rounds: if out { 0 } else { b.rounds },
            disqualified: !out && b.disqualified,
            broke: !out && b.broke,
            after_dq: out,
            series: if out { vec![0; b.series.len()] } else { b.series.clone() },
            tally: if out { Default::default() } else { b.tally },
        })
        .collect();
    SessionRecord { session: s.session, seed: s.seed, bots, key_rounds: s.key_rounds.clone(), hands: s.hands.clone() }
}

/// Turns every session of a league, in order, into its standings and
/// results file. A single run, merged shards and `verify` all end here,
/// so they produce the same bytes.
pub fn assemble(
    league: &LeagueFile,
    sources: Vec<BotSource>,
    sessions: &[SessionResult],
) -> Result<(LeagueResult, ResultsFile)> {
    let n = sources.len();
    let mut stats = vec![Stats::default(); n];
    let mut pairs = vec![0i128; n * n];
    let mut results: Vec<BotResult> = Vec::with_capacity(n);
    let outs = out_before(sessions, n);
    for (b, source) in sources.iter().enumerate() {
        let mut r = BotResult::new(source.name.clone(), &Stats::default(), league.bankroll, league.bankroll, false);
        let mut played = 0;
        for (s, out) in sessions.iter().zip(&outs) {
            if out[b] {
                continue;
            }
            let sb: &SessionBot = &s.bots[b];
            played += 1;
            stats[b].merge(&sb.stats);
            r.net += sb.net;
            r.disqualified |= sb.disqualified;
            r.broke_sessions += u64::from(sb.broke);
            r.tally.merge(&sb.tally);
            let room = FAULT_LOG_CAP.saturating_sub(r.fault_log.len());
            r.fault_log.extend(sb.fault_log.iter().take(room).cloned());
        }
        // Every session starts from the bankroll: final chips are what the
        // bot held at the ends of all its sessions.
        r.balance = league.bankroll * league.sessions as i64 + r.net;
        r.rounds = stats[b].rounds;
        r.wagered = i64::try_from(stats[b].wagered).unwrap_or(i64::MAX);
        r.ev = stats[b].ev();
        r.ev_se = stats[b].ev_standard_error();
        r.faults = stats[b].faults;
        r.broke = !r.disqualified && played > 0 && r.broke_sessions == played;
        results.push(r);
    }
    for s in sessions {
        for (total, x) in pairs.iter_mut().zip(&s.pairs) {
            *total += x;
        }
    }
    let rounds_total = league.rounds * league.sessions;
    let standings = rank_with_intervals(results, &stats, &pairs, rounds_total);
    let mut warnings = Vec::new();
    if league.format != Format::Solo && n > 1 && !league.sessions.is_multiple_of(n as u64) {
        warnings.push(format!(
            "seating rotates one place a session, so every bot sits in every position equally often only over a \
             multiple of {n} sessions (one per bot); this league has {}: positions are not yet balanced",
            league.sessions
        ));
    }
    let result = LeagueResult {
        name: league.name.clone(),
        variant: league.variant.clone(),
        seed: league.seed,
        rounds: league.rounds,
        sessions: league.sessions,
        format: league.format,
        standings,
        warnings,
        skipped: Vec::new(),
    };
    let file = ResultsFile {
        schema_version: crate::results::SCHEMA_VERSION,
        pitboss_version: env!("CARGO_PKG_VERSION").to_string(),
        league: league.record()?,
        series_rounds: crate::session::series_rounds(league.rounds),
        sessions: sessions.iter().zip(&outs).map(|(s, out)| session_record(s, &sources, out)).collect(),
        bots: sources,
        result: result.clone(),
    };
    Ok((result, file))
}

/// Who sits where in session `session`: alone (solo) or rotated shared
/// tables.
pub fn seating_for(format: Format, n: usize, rules: &Rules, session: u64) -> crate::session::Seating {
    match format {
        Format::Solo => (0..n).map(|b| vec![b]).collect(),
        Format::Table | Format::Bank => rotated_seating(n, rules.seats(), session),
    }
}

/// The rules a league plays: its variant's defaults with its overrides.
pub fn league_rules(league: &LeagueFile) -> Result<Rules> {
    let origin = &league.origin;
    let variant = Rules::variant_by_id(&league.variant).with_context(|| origin.clone())?;
    let mut defaults = Rules::for_variant(variant).with_context(|| origin.clone())?;
    if league.format == Format::Bank {
        if variant != pitboss_sdk::Variant::NorwegianHome {
            bail!("{origin}: format \"bank\" is the banker game's; this league plays `{}`", league.variant);
        }
        defaults.banker = Banker::Rotate;
    }
    league.rules.apply(defaults).map_err(|(_, e)| anyhow::anyhow!("{origin}: {e}"))
}

/// A league's `[[bot]]` entries, expanded.
pub(crate) struct Expanded {
    /// The bots, in league order.
    pub bots: NamedBots,
    /// Where each came from, with the hash of the bytes it was compiled from.
    pub sources: Vec<BotSource>,
    /// Folder and glob entries left out.
    pub skipped: Vec<Skipped>,
}

/// Expands the `[[bot]]` entries (a path, a glob like `subs/*.wasm`, a
/// folder, or a builtin) into named bots, and records where each came from.
pub(crate) fn expand_bots(league: &LeagueFile, base: &Path, sandbox: &Sandbox) -> Result<Expanded> {
    /// A bot of the league, in league order, before its file is compiled.
    enum Pending {
        Builtin(String, Box<Bot>, BotSource),
        File(String, PathBuf),
    }
    let mut pending = Vec::new();
    let mut skipped = Vec::new();
    let mut matching = |pattern: &Path| -> Result<Vec<PathBuf>> {
        let (files, left_out) = glob(pattern)?;
        skipped.extend(left_out);
        Ok(files)
    };
    for entry in &league.bots {
        let label =
            entry.name.clone().unwrap_or_else(|| entry.path.clone().or(entry.folder.clone()).unwrap_or_default());
        let files: Vec<PathBuf> = match (&entry.path, &entry.folder, &entry.builtin) {
            (_, _, Some(b)) => {
                let name = entry.name.clone().unwrap_or_else(|| format!("builtin:{b}"));
                let bot = Bot::builtin(b).with_context(|| format!("bot `{label}`"))?;
                let source = BotSource { name: name.clone(), file: format!("builtin:{b}"), sha256: None };
                pending.push(Pending::Builtin(name, Box::new(bot), source));
                continue;
            }
            (Some(p), _, _) if p.contains('*') => matching(&base.join(p)).with_context(|| format!("bot `{label}`"))?,
            (Some(p), _, _) => vec![base.join(p)],
            (_, Some(f), _) => {
                // A folder of submissions: binary modules and WAT text alike.
                let mut files = matching(&base.join(f).join("*.wasm")).with_context(|| format!("bot `{label}`"))?;
                files.extend(matching(&base.join(f).join("*.wat")).with_context(|| format!("bot `{label}`"))?);
                files.sort();
                files
            }
            _ => bail!("bot `{label}` needs exactly one of `path`, `folder` or `builtin`"),
        };
        if files.is_empty() {
            bail!("bot `{label}`: no bot files match");
        }
        let single = files.len() == 1 && entry.path.as_ref().is_some_and(|p| !p.contains('*'));
        for file in files {
            let name = match (&entry.name, single) {
                (Some(n), true) => n.clone(),
                _ => file.file_stem().map_or(label.clone(), |s| s.to_string_lossy().into_owned()),
            };
            pending.push(Pending::File(name, file));
        }
        if pending.len() > MAX_BOTS {
            bail!("bot `{label}`: the league would have over {MAX_BOTS} bots");
        }
    }
    // Two bots may not share a name: say which files clash, before
    // compiling anything.
    let named = |p: &Pending| match p {
        Pending::Builtin(name, _, source) => (name.clone(), source.file.clone()),
        Pending::File(name, file) => (name.clone(), file.display().to_string()),
    };
    for (i, p) in pending.iter().enumerate() {
        let (name, source) = named(p);
        if let Some((_, first)) = pending[..i].iter().map(named).find(|(n, _)| *n == name) {
            bail!("two bots are named `{name}`: {first} and {source} (give one a `name`, or rename a file)");
        }
    }
    // Compile the files in parallel (a league of 30 submissions starts in
    // about half the time on two cores), then take the results in league
    // order, so the report never depends on which thread finished first.
    let loaded: Vec<Result<(String, Bot, BotSource)>> = pending
        .par_iter()
        .map(|p| match p {
            Pending::Builtin(name, bot, source) => Ok((name.clone(), (**bot).clone(), source.clone())),
            Pending::File(name, file) => {
                let (bot, sha256) = Bot::wasm_file(file, sandbox).with_context(|| format!("bot `{name}`"))?;
                // The file's name only: a path as typed would make the
                // results depend on where the league was run from.
                let file_name = file.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned());
                Ok((name.clone(), bot, BotSource { name: name.clone(), file: file_name, sha256: Some(sha256) }))
            }
        })
        .collect();
    // Every bot that cannot play is reported at once, one line each, so
    // an organiser fixes a class's submissions in one pass.
    let failed: Vec<String> = loaded
        .iter()
        .filter_map(|r| r.as_ref().err())
        .map(|e| pitboss_host::text::excerpt(&format!("{e:#}"), 500))
        .collect();
    match failed.len() {
        0 => {}
        1 => bail!("{}", failed[0]),
        n => bail!("{n} of {} bots cannot play:\n  {}", loaded.len(), failed.join("\n  ")),
    }
    let mut bots = Vec::new();
    let mut sources = Vec::new();
    for (name, bot, source) in loaded.into_iter().flatten() {
        bots.push((name, bot));
        sources.push(source);
    }
    Ok(Expanded { bots, sources, skipped })
}

/// The regular files matching `pattern`, whose last component may hold
/// `*` wildcards, sorted by name so the order never depends on the disk;
/// and the matching entries left out as not regular files (symlinks are
/// followed; nothing is opened, so a FIFO cannot block).
fn glob(pattern: &Path) -> Result<(Vec<PathBuf>, Vec<Skipped>)> {
    let dir = pattern.parent().unwrap_or(Path::new("."));
    let wanted = pattern.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read folder {}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        if !wildcard(&wanted, &name) {
            continue;
        }
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => out.push(path),
            Ok(meta) => skipped.push(Skipped { path, found: files::describe(meta.file_type()).to_string() }),
            Err(e) if path.is_symlink() && e.kind() == std::io::ErrorKind::NotFound => {
                skipped.push(Skipped { path, found: "a dangling symlink".to_string() })
            }
            Err(e) => skipped.push(Skipped { path, found: format!("unreadable ({e})") }),
        }
    }
    out.sort();
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((out, skipped))
}

/// Does `name` match `pattern`, where `*` matches any run of characters?
pub(crate) fn wildcard(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || !name[first.len()..].ends_with(last) || name.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// SHA-256 of some bytes, hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Ranks results: bots in play by final chips, highest first (ties by
/// name), then broke bots, then disqualified ones. Adds each bot's EV (net
/// per 100 chips initially staked, over its own rounds) with its 95 %
/// interval, and, between two consecutive bots in play, whether the upper
/// one is significantly ahead (paired per-round difference of chips over
/// the league's `rounds`, 95 %).
pub fn rank_with_intervals(results: Vec<BotResult>, stats: &[Stats], pairs: &[i128], rounds: u64) -> Vec<Standing> {
    let n = results.len();
    let status = |r: &BotResult| {
        if r.disqualified {
            Status::Disqualified
        } else if r.broke {
            Status::Broke
        } else {
            Status::Active
        }
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&results[a], &results[b]);
        status(ra).cmp(&status(rb)).then(rb.balance.cmp(&ra.balance)).then_with(|| ra.name.cmp(&rb.name))
    });
    let rounds_f = rounds.max(1) as f64;
    let mean = |i: usize| stats[i].net as f64 / rounds_f;
    order
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let in_play = |j: usize| status(&results[j]) == Status::Active;
            let ahead_of_next = order.get(k + 1).filter(|&&j| in_play(i) && in_play(j)).map(|&j| {
                let d = mean(i) - mean(j);
                let e_d2 = (stats[i].net_sq + stats[j].net_sq - 2 * pairs[i * n + j]) as f64 / rounds_f;
                let se = ((e_d2 - d * d).max(0.0) / rounds_f).sqrt();
                se == 0.0 && d != 0.0 || se > 0.0 && (d / se).abs() > 1.96
            });
            let r = &results[i];
            Standing {
                rank: k + 1,
                status: status(r),
                ev_pct: r.ev * 100.0,
                ev_ci95_pct: 1.96 * r.ev_se * 100.0,
                ahead_of_next,
                result: r.clone(),
            }
        })
        .collect()
}

/// What `>` and `≈` and the EV column mean, in one line.
pub const LEGEND: &str = "EV: net chips per 100 chips initially staked (box and back bets; side bets, insurance, \
doubles and splits count in the net only), over the rounds the bot played; ± is the 95 % interval. \
> : significantly ahead of the next bot in play (paired test of round-by-round chips, 95 %); ≈ : the gap could be luck.";

/// The standings in one sentence of words, e.g. "basic leads; its lead
/// over hilo is not significant at 95 %".
pub fn verdict(standings: &[Standing]) -> String {
    let active: Vec<&Standing> = standings.iter().filter(|s| s.status == Status::Active).collect();
    match active.as_slice() {
        [] => "no bot finished in play: every one went broke or was disqualified".to_string(),
        [only] => format!("{} leads; no other bot finished in play", only.result.name),
        [first, second, ..] => format!(
            "{} leads; its lead over {} is {}significant at 95 %",
            first.result.name,
            second.result.name,
            if first.ahead_of_next == Some(true) { "" } else { "not " }
        ),
    }
}
