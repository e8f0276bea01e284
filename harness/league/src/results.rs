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

use std::path::Path;

use anyhow::{Result, bail};
use pitboss_engine::{Banker, InsuranceOn, Rules};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::league::{BotEntry, Format, LeagueFile, Skipped};
use crate::tally::Tally;

/// The version of this schema; readers refuse any other. 1 was the
/// unversioned format before the league was embedded.
pub const SCHEMA_VERSION: u32 = 2;

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
}

/// Where insurance is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Insurance {
    /// Never.
    Never,
    /// When the dealer shows an ace.
    Ace,
    /// When the dealer shows an ace or a ten-valued card.
    AceOrTen,
}

/// The rules in force, keyed as a league file's `[rules]` table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RulesRecord {
    pub decks: u8,
    pub cut_card: u16,
    pub boxes: u8,
    pub hole_card: bool,
    pub dealer_hits_soft_17: bool,
    pub insurance: Insurance,
    pub insurance_up_to_half: bool,
    pub late_surrender: bool,
    /// Two-card hard totals that may double; `null`: any.
    pub double_totals: Option<Vec<u8>>,
    pub double_after_split: bool,
    pub max_split_hands: u8,
    pub resplit_aces: bool,
    /// `"3:2"`.
    pub blackjack_pays: String,
    pub min_bet: i64,
    pub max_bet: i64,
    pub bet_unit: i64,
    pub double_soft: bool,
    pub aces_low_after_soft_double: bool,
    pub dealer_wins_ties_to: u8,
    pub original_bets_only: bool,
    pub even_money: bool,
    pub over_under_13: bool,
    pub back_bets: bool,
    pub boxes_per_player: u8,
    pub shuffle_every_round: bool,
    /// `house`, `rotate` or `seat:N`.
    pub banker: String,
    pub sit_out: bool,
}

impl From<&Rules> for RulesRecord {
    fn from(r: &Rules) -> RulesRecord {
        RulesRecord {
            decks: r.decks,
            cut_card: r.cut_card,
            boxes: r.boxes,
            hole_card: r.hole_card,
            dealer_hits_soft_17: r.dealer_hits_soft_17,
            insurance: match r.insurance_on {
                InsuranceOn::Never => Insurance::Never,
                InsuranceOn::Ace => Insurance::Ace,
                InsuranceOn::AceOrTen => Insurance::AceOrTen,
            },
            insurance_up_to_half: r.insurance_up_to_half,
            late_surrender: r.late_surrender,
            double_totals: (r.double_totals != u32::MAX)
                .then(|| (2..=21u8).filter(|t| r.double_totals & (1 << t) != 0).collect()),
            double_after_split: r.double_after_split,
            max_split_hands: r.max_split_hands,
            resplit_aces: r.resplit_aces,
            blackjack_pays: format!("{}:{}", r.blackjack_pays.0, r.blackjack_pays.1),
            min_bet: r.min_bet,
            max_bet: r.max_bet,
            bet_unit: r.bet_unit,
            double_soft: r.double_soft,
            aces_low_after_soft_double: r.aces_low_after_soft_double,
            dealer_wins_ties_to: r.dealer_wins_ties_to,
            original_bets_only: r.original_bets_only,
            even_money: r.even_money,
            over_under_13: r.over_under_13,
            back_bets: r.back_bets,
            boxes_per_player: r.boxes_per_player,
            shuffle_every_round: r.shuffle_every_round,
            banker: match r.banker {
                Banker::House => "house".to_string(),
                Banker::Rotate => "rotate".to_string(),
                Banker::Seat(n) => format!("seat:{n}"),
            },
            sit_out: r.sit_out,
        }
    }
}

/// The sandbox limits a league may set, in force, in `[limits]` units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LimitsRecord {
    pub fuel_per_decision: u64,
    pub memory_mib: u64,
    pub wall_ms: u64,
    pub module_mib: u64,
    pub code_kib: u64,
    pub functions: u64,
}

impl From<&pitboss_host::Limits> for LimitsRecord {
    fn from(l: &pitboss_host::Limits) -> LimitsRecord {
        LimitsRecord {
            fuel_per_decision: l.fuel_per_decision,
            memory_mib: (l.memory_bytes >> 20) as u64,
            wall_ms: l.wall_ms,
            module_mib: (l.module_bytes >> 20) as u64,
            code_kib: (l.code_bytes >> 10) as u64,
            functions: l.functions as u64,
        }
    }
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

/// One fault, as kept in results: where it happened and what it was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FaultRecord {
    /// Session (0-based; always 0 for `pitboss play`).
    pub session: u64,
    /// Table of the session (0-based; always 0 for `pitboss play`).
    pub table: usize,
    /// Round (1-based).
    pub round: u64,
    /// The decision that faulted.
    pub decision: String,
    /// What went wrong: illegal, trap, out-of-fuel, memory, timeout.
    pub kind: String,
    /// Details.
    pub message: String,
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
    /// The bot's result.
    #[serde(flatten)]
    pub result: BotResult,
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
    /// Folder and glob entries left out as not regular files, for the
    /// command to warn about (not part of the results).
    #[serde(skip)]
    pub skipped: Vec<Skipped>,
}

/// The JSON Schema of [`ResultsFile`], pretty, as checked in at
/// `docs/results.schema.json`.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(ResultsFile);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// Reads a results file: the current schema, or one line saying why not.
pub fn read(path: &Path) -> Result<ResultsFile> {
    let text = pitboss_host::files::read_text(path, pitboss_host::files::Kind::Results)?;
    parse(&text, &path.display().to_string())
}

/// Parses a results file's text (`label` names it in errors). A file of
/// another schema version, or `pitboss play`'s output, is refused in one
/// line that says what to do instead.
pub fn parse(text: &str, label: &str) -> Result<ResultsFile> {
    let error = match serde_json::from_str::<ResultsFile>(text) {
        Ok(results) if results.schema_version == SCHEMA_VERSION => return Ok(results),
        Ok(results) => return Err(old_schema(label, Some(results.schema_version))),
        Err(e) => e,
    };
    /// What a file that is not a current results file says it is.
    #[derive(Deserialize)]
    struct Probe {
        schema_version: Option<serde::de::IgnoredAny>,
        pitboss_version: Option<serde::de::IgnoredAny>,
        league_file: Option<serde::de::IgnoredAny>,
    }
    if serde_json::from_str::<crate::PlayReport>(text).is_ok() {
        bail!(
            "{label} is the output of `pitboss play`; this command reads a league's results.json (`pitboss run LEAGUE.toml --json results.json`)"
        );
    }
    if let Ok(probe) = serde_json::from_str::<Probe>(text) {
        let version = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| v.get("schema_version").and_then(serde_json::Value::as_u64));
        match (probe.schema_version, version) {
            (Some(_), Some(v)) if v != u64::from(SCHEMA_VERSION) => {
                return Err(old_schema(label, Some(u32::try_from(v).unwrap_or(u32::MAX))));
            }
            (None, _) if probe.pitboss_version.is_some() && probe.league_file.is_some() => {
                return Err(old_schema(label, None));
            }
            _ => {}
        }
    }
    bail!("{label}:{}:{}: {error} (not a Pitboss results file?)", error.line(), error.column())
}

/// The refusal of a results file of another schema version.
fn old_schema(label: &str, version: Option<u32>) -> anyhow::Error {
    let was = version.map_or("was written by an older Pitboss (results schema 1)".to_string(), |v| {
        format!("has results schema {v}")
    });
    anyhow::anyhow!(
        "{label} {was}; this Pitboss reads schema {SCHEMA_VERSION}: re-run the league (`pitboss run LEAGUE.toml --json {}`)",
        Path::new(label).file_name().map_or("results.json".into(), |f| f.to_string_lossy())
    )
}

impl ResultsFile {
    /// The league this file embeds, parsed from its text (`label` names
    /// the results file in errors): the text must match its SHA-256 and
    /// the parsed settings recorded beside it.
    pub fn league_file(&self, label: &str) -> Result<LeagueFile> {
        let l = &self.league;
        if l.text.len() as u64 > pitboss_host::files::LEAGUE_CAP {
            bail!("{label}: the embedded league is over the league file cap");
        }
        if crate::league::sha256_hex(l.text.as_bytes()) != l.sha256 {
            bail!("{label}: the embedded league text does not match its SHA-256");
        }
        let origin = format!("{} (the league embedded in {label})", l.file);
        let file = crate::league::parse_text(&l.text, &l.file, &origin)?;
        if file.record()? != *l {
            bail!("{label}: the embedded league's parsed settings are not what its text says");
        }
        Ok(file)
    }

    /// Refuses a results file that is out of the bounds any league
    /// produces or that contradicts itself: readers would otherwise draw
    /// or replay whatever they are given (a file with a million series
    /// points made a 47 MB page).
    pub fn check(&self) -> std::result::Result<(), String> {
        use crate::league::{MAX_BOT_SESSIONS, MAX_BOTS, MAX_SESSIONS};
        use crate::matchplay::FAULT_LOG_CAP;
        use crate::session::{EVENTS_PER_ROUND, KEY_ROUNDS, OPENING_ROUNDS, SERIES_POINTS, STORED_SESSIONS};
        let r = &self.result;
        let bots = r.standings.len();
        if bots == 0 || bots > MAX_BOTS || self.bots.len() != bots {
            return Err(format!("it ranks {bots} bots and lists {}; a league has 1 to {MAX_BOTS}", self.bots.len()));
        }
        if r.sessions > MAX_SESSIONS || self.sessions.len() as u64 != r.sessions {
            return Err(format!(
                "it holds {} sessions but says {}; a league has at most {MAX_SESSIONS}",
                self.sessions.len(),
                r.sessions
            ));
        }
        if bots as u64 * r.sessions > MAX_BOT_SESSIONS {
            return Err(format!("{bots} bots × {} sessions is over {MAX_BOT_SESSIONS}", r.sessions));
        }
        if self.series_rounds.len() as u64 > SERIES_POINTS || self.series_rounds.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!("its series_rounds are not at most {SERIES_POINTS} increasing rounds"));
        }
        if let Some(s) =
            r.standings.iter().find(|s| s.result.name.chars().count() > 200 || s.result.fault_log.len() > FAULT_LOG_CAP)
        {
            return Err(format!(
                "bot `{}` has a name over 200 characters or over {FAULT_LOG_CAP} logged faults",
                s.result.name
            ));
        }
        let mut out = vec![false; bots];
        for (k, s) in self.sessions.iter().enumerate() {
            let outside = s.key_rounds.iter().any(|key| key.round == 0 || key.round > r.rounds);
            if s.session != k as u64 || s.key_rounds.len() > KEY_ROUNDS || outside || s.bots.len() != bots {
                return Err(format!(
                    "session {k} is out of order, has over {KEY_ROUNDS} key rounds, one outside the session, or not {bots} bots"
                ));
            }
            if s.hands.is_some() != (s.session < STORED_SESSIONS) {
                return Err(format!("session {k}: hands are stored for sessions 0 to {} only", STORED_SESSIONS - 1));
            }
            if let Some(hands) = &s.hands {
                let bad = hands.len() > KEY_ROUNDS + OPENING_ROUNDS as usize
                    || hands.iter().any(|h| h.round == 0 || h.round > r.rounds || h.events.len() > EVENTS_PER_ROUND);
                if bad {
                    return Err(format!(
                        "session {k} stores over {} hands, one outside the session, or one of over {EVENTS_PER_ROUND} events",
                        KEY_ROUNDS + OPENING_ROUNDS as usize
                    ));
                }
            }
            for (i, (b, source)) in s.bots.iter().zip(&self.bots).enumerate() {
                let name = &b.name;
                if *name != source.name {
                    return Err(format!(
                        "session {k}: bot {i} is `{name}`, but the league's bot {i} is `{}`",
                        source.name
                    ));
                }
                if b.series.len() != self.series_rounds.len() {
                    return Err(format!(
                        "session {k}, bot `{name}`: {} series points, not {}",
                        b.series.len(),
                        self.series_rounds.len()
                    ));
                }
                if b.after_dq != out[i] {
                    return Err(format!(
                        "session {k}, bot `{name}`: after_dq is {}, but the bot was {}disqualified in an earlier session",
                        b.after_dq,
                        if out[i] { "" } else { "not " }
                    ));
                }
                if let Some(last) = b.series.last()
                    && b.net != *last
                {
                    return Err(format!(
                        "session {k}, bot `{name}`: net {} but its last balance sample is {last}",
                        b.net
                    ));
                }
                out[i] |= b.disqualified;
            }
        }
        for st in &r.standings {
            let Some(i) = self.bots.iter().position(|b| b.name == st.result.name) else {
                return Err(format!("bot `{}` is ranked but not among the league's bots", st.result.name));
            };
            let total: i128 = self.sessions.iter().map(|s| i128::from(s.bots[i].net)).sum();
            if total != i128::from(st.result.net) {
                return Err(format!(
                    "bot `{}` is ranked with net {} but its sessions add up to {total}",
                    st.result.name, st.result.net
                ));
            }
        }
        Ok(())
    }
}

/// The first place where two JSON values differ, as a path and both
/// values (`sessions[2].bots[1].net: 1234 in the file, 1240 re-run`);
/// `None` when they are equal.
pub fn first_difference(file: &serde_json::Value, rerun: &serde_json::Value) -> Option<String> {
    first_difference_at(file, rerun, "")
}

/// [`first_difference`] of two values found at `path` (`sessions[3]`).
pub fn first_difference_at(file: &serde_json::Value, rerun: &serde_json::Value, path: &str) -> Option<String> {
    use serde_json::Value;
    fn short(v: Option<&Value>) -> String {
        match v {
            None => "absent".to_string(),
            Some(v) => pitboss_host::text::excerpt(&v.to_string(), 120),
        }
    }
    fn walk(a: &Value, b: &Value, at: &mut String) -> Option<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (key, va) in x {
                    let len = at.len();
                    if !at.is_empty() {
                        at.push('.');
                    }
                    at.push_str(key);
                    match y.get(key) {
                        Some(vb) => {
                            if let Some(d) = walk(va, vb, at) {
                                return Some(d);
                            }
                        }
                        None => return Some(format!("{at}: {} in the file, absent re-run", short(Some(va)))),
                    }
                    at.truncate(len);
                }
                let extra = y.keys().find(|k| !x.contains_key(*k))?;
                let sep = if at.is_empty() { "" } else { "." };
                Some(format!("{at}{sep}{extra}: absent in the file, {} re-run", short(y.get(extra))))
            }
            (Value::Array(x), Value::Array(y)) => {
                for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                    let len = at.len();
                    at.push_str(&format!("[{i}]"));
                    if let Some(d) = walk(va, vb, at) {
                        return Some(d);
                    }
                    at.truncate(len);
                }
                (x.len() != y.len()).then(|| format!("{at}: {} entries in the file, {} re-run", x.len(), y.len()))
            }
            _ if a == b => None,
            _ => Some(format!("{at}: {} in the file, {} re-run", short(Some(a)), short(Some(b)))),
        }
    }
    walk(file, rerun, &mut path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let a = json!({"sessions": [{"bots": [{"net": 1}, {"net": 1234}]}], "name": "x"});
        let b = json!({"sessions": [{"bots": [{"net": 1}, {"net": 1240}]}], "name": "x"});
        assert_eq!(first_difference(&a, &b).unwrap(), "sessions[0].bots[1].net: 1234 in the file, 1240 re-run");
        assert_eq!(first_difference(&a, &a), None);
        let c = json!({"sessions": [], "name": "x"});
        assert_eq!(first_difference(&a, &c).unwrap(), "sessions: 1 entries in the file, 0 re-run");
    }

    #[test]
    fn the_numbers_the_schema_quotes_are_the_constants() {
        use crate::session::{EVENTS_PER_ROUND, OPENING_ROUNDS, STORED_SESSIONS};
        assert_eq!((SCHEMA_VERSION, OPENING_ROUNDS, STORED_SESSIONS, EVENTS_PER_ROUND), (2, 5, 4, 512));
        assert_eq!(crate::matchplay::FAULT_LOG_CAP, 100);
        for quoted in ["version of this schema, 2", "first 5 rounds", "from 4 on", "more than 512", "at most 100"] {
            assert!(schema_json().contains(quoted), "{quoted}");
        }
    }

    #[test]
    fn rules_in_force_read_as_a_league_file_writes_them() {
        let r = RulesRecord::from(&Rules::danish());
        assert_eq!(r.double_totals, Some(vec![9, 10, 11]));
        assert_eq!(r.blackjack_pays, "3:2");
        assert_eq!(RulesRecord::from(&Rules::north_american()).double_totals, None);
    }
}
