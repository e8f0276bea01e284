//! `results.json`, the one schema of a league's results: the types the
//! writer (`pitboss run`, `pitboss merge`) serializes and every reader
//! (`report`, `replay`, `verify`, the shard merge) deserializes, versioned
//! by [`SCHEMA_VERSION`]. `docs/results.schema.json` is generated from
//! them ([`schema_json`]); a test keeps the checked-in file current.
//!
//! A results file is self-contained: it embeds the league file's text
//! (and the league as parsed, every rule and limit in force), names each
//! bot by file name and SHA-256, and stores the events of each session's
//! deciding hands, so `replay` and `verify` need no league file and
//! `report` needs no file at all.
//!
//! **Invariant:** nothing in a results file depends on where or how the
//! league was invoked (no path as typed, no folder, no time): the same
//! league gives the same bytes from any folder and any path spelling.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cost::Cost;
use crate::league::{BotEntry, Format, Skipped};
use crate::luck::LuckSums;
use crate::rules::RulesRecord;
use crate::sequential::{Gap, Resolution, VsNext};
pub use crate::tally::FaultRecord;
use crate::tally::Tally;
use pitboss_engine::Stats;

/// The version of this schema; readers refuse any other. 1 was the
/// unversioned format before the league was embedded.
pub const SCHEMA_VERSION: u32 = 2;

/// Points of each bot's balance kept per session, evenly spaced over its
/// rounds (fewer when the session is shorter): enough for a chart, and
/// the same size for ten thousand rounds or ten billion.
pub const SERIES_POINTS: u64 = 200;

/// Rounds of a session kept as its deciding hands: those with the largest
/// swing of any one bot's chips.
pub const KEY_ROUNDS: usize = 8;

/// Sessions whose hands results store (sessions 0 to 3). Keeping a
/// session's hands means copying every event of every round in case it
/// turns out to be a key round, which costs about 15 % of that session's
/// time; later sessions' hands are replayed with `pitboss replay`.
pub const STORED_SESSIONS: u64 = 4;

/// Rounds of table 0 stored, from round 1, beside a session's key rounds.
pub const OPENING_ROUNDS: u64 = 5;

/// Most events stored of one round (a round at a full table has about a
/// hundred); a longer one is cut there and marked `truncated`.
pub const EVENTS_PER_ROUND: usize = 512;

/// Bytes of bot logs a stored round keeps; later log events of the round
/// are left out and the round marked `truncated`.
pub const LOG_BYTES_PER_ROUND: usize = 4 << 10;

/// `results.json`: everything needed to trust, reproduce and show a
/// league. No wall-clock field and no path, so two runs compare byte for
/// byte.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ResultsFile {
    /// The version of this schema, 2; readers refuse any other.
    pub schema_version: u32,
    /// The Pitboss version that ran it.
    pub pitboss_version: String,
    /// The league, embedded: its file's name and text and the league as
    /// parsed.
    pub league: LeagueRecord,
    /// Every bot in league order, with the hash of its file.
    pub bots: Vec<BotSource>,
    /// The rounds after which each session's `series` samples balances.
    pub series_rounds: Vec<u64>,
    /// Per-session figures.
    pub sessions: Vec<SessionRecord>,
    /// The standings (with each bot's first faults).
    #[serde(flatten)]
    pub result: LeagueResult,
}

/// The league a results file came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LeagueRecord {
    /// The league file's name without its folder (`class.toml`), for
    /// display only: nothing is looked up by it.
    pub file: String,
    /// SHA-256 of `text`, hex.
    pub sha256: String,
    /// The league file's text as it was read: `replay`, `verify` and
    /// `merge` parse this, never the file on disk.
    pub text: String,
    /// The league as parsed, with every rule and sandbox limit in force.
    pub parsed: LeagueSpec,
}

/// A league as parsed: its settings, the rules and limits in force (each
/// rule set's defaults with the file's overrides), and its `[[bot]]`
/// entries as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LeagueSpec {
    /// Display name.
    pub name: String,
    /// Rule set id.
    pub variant: String,
    /// Rounds per table per session.
    pub rounds: u64,
    /// Sessions.
    pub sessions: u64,
    /// Master seed.
    pub seed: u64,
    /// Chips each bot starts every session with.
    pub bankroll: i64,
    /// Seating.
    pub format: Format,
    /// Faults after which a bot is disqualified (0 = never).
    pub fault_limit: u64,
    /// Every rule in force, named as in a league file's `[rules]`.
    pub rules: RulesRecord,
    /// Every sandbox limit a league may set, in force, named as in
    /// `[limits]`.
    pub limits: LimitsRecord,
    /// The `[[bot]]` entries as written (paths relative to the league
    /// file, as the file says them).
    pub bots: Vec<BotEntry>,
    /// Luck-adjusted figures are measured (the league's `luck`, on unless
    /// it says `false`); absent in results written before they existed,
    /// which `verify` then reproduces without them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub luck: bool,
    /// `until = "resolved"`: sessions are played `batch` at a time until
    /// every adjacent pair is separated, `sessions` at most (absent for
    /// every other league).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<u64>,
}

/// The sandbox limits a league may set, in force, in `[limits]` units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LimitsRecord {
    pub fuel_per_decision: u64,
    /// Recorded only where a league sets it: results of leagues that do
    /// not are as they were before the key existed.
    #[serde(default = "default_startup_fuel", skip_serializing_if = "is_default_startup_fuel")]
    pub fuel_for_startup: u64,
    pub memory_mib: u64,
    pub wall_ms: u64,
    pub module_mib: u64,
    pub code_kib: u64,
    pub functions: u64,
}

/// Fuel for instantiation and a reactor's `_initialize` when a league
/// sets none: the sandbox's default (`pitboss_host::Limits`, which a test
/// in `pitboss-league` keeps equal to this).
pub const DEFAULT_STARTUP_FUEL: u64 = 10_000_000;

fn default_startup_fuel() -> u64 {
    DEFAULT_STARTUP_FUEL
}

fn is_default_startup_fuel(fuel: &u64) -> bool {
    *fuel == DEFAULT_STARTUP_FUEL
}

/// The rounds after which balances are sampled: `SERIES_POINTS` (or
/// `rounds`, if fewer) evenly spaced, the last one `rounds`.
pub fn series_rounds(rounds: u64) -> Vec<u64> {
    let points = rounds.min(SERIES_POINTS);
    (1..=points).map(|k| (k as u128 * rounds as u128 / points as u128) as u64).collect()
}

/// A bot of the league: how to find its file again, wherever the results
/// file has moved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BotSource {
    /// Its name in the league.
    pub name: String,
    /// The bot file's name without its folder (`student03-basic.wasm`),
    /// or `builtin:NAME`.
    pub file: String,
    /// SHA-256 of the bot file, hex; `null` for builtins.
    pub sha256: Option<String>,
    /// For a Python bot run from its source (`bot.py`): SHA-256 of the
    /// Python runtime that ran it, hex (sdk/ABI.md, "Bots from source").
    /// Absent for every other bot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime: Option<String>,
}

/// One session in the results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionRecord {
    /// 0-based.
    pub session: u64,
    /// Its shoe seed.
    pub seed: u64,
    /// Per bot, in league order.
    pub bots: Vec<SessionBotRecord>,
    /// The rounds with the largest swing of one bot's chips, largest
    /// first: the hands worth replaying.
    pub key_rounds: Vec<KeyRound>,
    /// The key rounds' events, then those of the first 5 rounds of table
    /// 0 (`OPENING_ROUNDS`), for the report's hand viewer; `null` for
    /// sessions from 4 on (`STORED_SESSIONS`).
    pub hands: Option<Vec<HandRecord>>,
}

/// One bot's session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionBotRecord {
    /// The bot.
    pub name: String,
    /// Net chips this session.
    pub net: i64,
    /// Rounds its table played (bets or not).
    pub rounds: u64,
    /// Reached the fault limit.
    pub disqualified: bool,
    /// Ended the session unable to stake the table minimum.
    pub broke: bool,
    /// Not counted: the bot was disqualified in an earlier session, and a
    /// disqualification holds for the rest of the league.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub after_dq: bool,
    /// Net chips after each of the league's `series_rounds`.
    pub series: Vec<i64>,
    /// What it did and how its hands ended.
    pub tally: Tally,
    /// Its luck-adjusted round results, summed (leagues with `luck`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck: Option<LuckSums>,
    /// The fuel of its decisions (wasm bots; absent for builtins, and
    /// in results written before it was measured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
}

/// A round with a large swing: where to find it and how large it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct KeyRound {
    /// 1-based round.
    pub round: u64,
    /// 0-based table of the session.
    pub table: usize,
    /// The largest change of one bot's chips that round.
    pub swing: i64,
}

/// One round's events, as `pitboss replay --log` writes them (each
/// without its `round`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HandRecord {
    /// 0-based table of the session.
    pub table: usize,
    /// 1-based round.
    pub round: u64,
    /// The events: `event` and the event's fields (`box`, `card`, …).
    pub events: Vec<serde_json::Map<String, serde_json::Value>>,
    /// The round had more than 512 events (`EVENTS_PER_ROUND`): the rest
    /// were left out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// One bot's result, as printed and written to JSON (by `pitboss play`
/// too).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BotResult {
    /// Display name.
    pub name: String,
    /// Rounds in which it bet.
    pub rounds: u64,
    /// Sum of initial bets.
    pub wagered: i64,
    /// Net chips won (negative: lost).
    pub net: i64,
    /// Chips at the end.
    pub balance: i64,
    /// Expected value per unit of initial bet.
    pub ev: f64,
    /// Standard error of `ev`.
    pub ev_se: f64,
    /// Decisions that faulted.
    pub faults: u64,
    /// Reached the fault limit; chips frozen since (for a league: for the
    /// rest of the league).
    pub disqualified: bool,
    /// Could not stake the table minimum at the end (for a league: in
    /// every session it played).
    pub broke: bool,
    /// Sessions it ended unable to stake the minimum (leagues only).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub broke_sessions: u64,
    /// The first faults (at most 100, `FAULT_LOG_CAP`).
    pub fault_log: Vec<FaultRecord>,
    /// Decisions, hand outcomes, actions, extra bets and faults, counted.
    pub tally: Tally,
    /// The luck-adjusted EV per unit of initial bet: the chips less the
    /// luck of the cards (`docs/luck.md`), over the same rounds as `ev`
    /// (leagues with `luck` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_ev: Option<f64>,
    /// Standard error of `luck_ev`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_ev_se: Option<f64>,
    /// Against the next bot in play, the paired test of their results
    /// session by session, on the figure it names (luck-adjusted where
    /// the league measures it): leagues of 3 sessions or more with luck,
    /// and resolved leagues (`until = "resolved"`). Where absent, the
    /// mark is `ahead_of_next`'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_next: Option<VsNext>,
    /// The sum of its luck-adjusted round results, in chips: what a
    /// resolved league with luck ranks by (those leagues only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_net: Option<f64>,
    /// The fuel of its decisions over the sessions it counts in (wasm
    /// bots; absent for builtins, and in results written before it was
    /// measured): who is slow, and how much of the run it took
    /// ([`crate::cost::shares`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
}

impl BotResult {
    /// The result of a bot from its statistics and final balance.
    pub fn new(name: String, stats: &Stats, balance: i64, bankroll: i64, disqualified: bool) -> BotResult {
        BotResult {
            name,
            rounds: stats.rounds,
            wagered: i64::try_from(stats.wagered).unwrap_or(i64::MAX),
            net: balance - bankroll,
            balance,
            ev: stats.ev(),
            ev_se: stats.ev_standard_error(),
            faults: stats.faults,
            disqualified,
            broke: false,
            broke_sessions: 0,
            fault_log: Vec::new(),
            tally: Tally::default(),
            luck_ev: None,
            luck_ev_se: None,
            vs_next: None,
            luck_net: None,
            cost: None,
        }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Where a bot finished: in play, or out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Played the league to its end in at least one session.
    Active,
    /// Ran out of chips (could not stake the table minimum) in every
    /// session it played.
    Broke,
    /// Reached the fault limit: out for the rest of the league.
    Disqualified,
}

impl Status {
    /// The word shown in tables.
    pub const fn label(self) -> &'static str {
        match self {
            Status::Active => "",
            Status::Broke => "broke",
            Status::Disqualified => "DQ",
        }
    }
}

/// One row of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Standing {
    /// 1-based rank: bots in play by final chips, then broke bots, then
    /// disqualified ones.
    pub rank: usize,
    /// In play, broke or disqualified.
    pub status: Status,
    /// EV: net chips per 100 chips initially staked, over the rounds this
    /// bot played (`leagues/README.md` says what counts).
    pub ev_pct: f64,
    /// Half-width of the EV's 95 % confidence interval, in percentage
    /// points.
    pub ev_ci95_pct: f64,
    /// Significantly ahead of the next bot in play (paired difference of
    /// round-by-round chips, 95 %); `None` for the last bot in play and
    /// for bots out of play.
    pub ahead_of_next: Option<bool>,
    /// The luck-adjusted EV (`luck_ev`) per 100 chips staked, beside the
    /// chips' EV (which stays the ranking's measure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_ev_pct: Option<f64>,
    /// Half-width of its 95 % confidence interval, in percentage points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_ci95_pct: Option<f64>,
    /// The bot's result.
    #[serde(flatten)]
    pub result: BotResult,
}

impl Standing {
    /// The standings' "vs next" mark: `>` significantly ahead of the next
    /// bot in play, `≈` not, `<` significantly behind it (the luck-adjusted
    /// results rank the two the other way round), empty where no next bot
    /// compares (the one spelling the table, the report and the server
    /// show). It reads `vs_next` where the results have it, else the
    /// chips' `ahead_of_next`.
    pub fn mark(&self) -> &'static str {
        match (self.result.vs_next.map(|v| v.gap), self.ahead_of_next) {
            (Some(Gap::Ahead), _) | (None, Some(true)) => ">",
            (Some(Gap::Level), _) | (None, Some(false)) => "≈",
            (Some(Gap::Behind), _) => "<",
            (None, None) => "",
        }
    }
}

/// A finished league: its standings (also a season's per-league entry).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LeagueResult {
    /// Display name.
    pub name: String,
    /// Rule set id.
    pub variant: String,
    /// Master seed.
    pub seed: u64,
    /// Rounds per table per session.
    pub rounds: u64,
    /// Sessions (`session_count` in JSON: results files also hold a
    /// `sessions` array).
    #[serde(rename = "session_count")]
    pub sessions: u64,
    /// Seating.
    pub format: Format,
    /// Bots in play ranked by final chips (ties by name), then broke and
    /// disqualified bots.
    pub standings: Vec<Standing>,
    /// What a reader of the standings should know (e.g. seating that has
    /// not yet rotated fairly).
    pub warnings: Vec<String>,
    /// With luck-adjusted figures: the parts of a round whose luck they
    /// leave in (it costs them spread, never bias).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_uncorrected: Option<Vec<String>>,
    /// A resolved league (`until = "resolved"`): how many rounds it took
    /// and which pairs its group-sequential test separated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution: Option<Resolution>,
    /// Folder and glob entries left out as not regular files, for the
    /// command to warn about (not part of the results).
    #[serde(skip)]
    pub skipped: Vec<Skipped>,
}
