//! `pitboss check BOT.wasm …`: validate each module, play a short smoke
//! match in each rule set checked, and report per decision kind how often
//! it was asked, how often it faulted and how much fuel it used.
//!
//! A [`Plan`] says what a bot is checked against: every rule set under the
//! default limits, one rule set, or exactly what a league plays (its rule
//! set with its overrides, under its `[limits]`), so a bot is never failed
//! for a game its league does not play. [`check`] returns a
//! [`CheckReport`] per bot, refused or not; the caller chooses the form:
//! the full report ([`CheckReport::render`]), one line
//! ([`CheckReport::line`]) with a count ([`summary`]), or JSON (the report
//! serialized, fields in a fixed order, no clock).

use std::path::Path;

use anyhow::{Context, Result};
use pitboss_engine::{Banker, FaultKind, Player, Rules, TableEvent, derive_seed};
use pitboss_host::text::{excerpt, printable};
use pitboss_host::{BotModule, FuelProfile, Raisable, Sandbox, files};
use pitboss_sdk::abi::DEFAULTABLE_MASK;
use pitboss_sdk::{Decision, Variant};
use serde::{Serialize, Serializer};
use tabled::Tabled;
use tabled::settings::Style;

use crate::bots::{Bot, seat_seed};
use crate::file::{LeagueFile, LimitChoice};
use crate::setup::TableSpec;

mod keys;
pub use keys::KeyConflictReport;

/// Rounds of each smoke match.
pub const SMOKE_ROUNDS: u64 = 2_000;
/// The seed of the smoke match, plus the rule set's code (0–3): the
/// `--seed` of `pitboss play` that deals the same cards.
pub const SMOKE_SEED: u64 = 24_301;
/// Log texts a report shows per rule set.
const SHOWN_LOGS: usize = 3;

/// Chips the bot starts each smoke match with, whatever a league's
/// `bankroll`: a bot that went broke early would be asked nothing more.
const SMOKE_BANKROLL: i64 = 1_000_000;

/// What bots are checked against: rule sets, and the sandbox whose limits
/// (fuel, memory, module caps) apply.
#[derive(Clone)]
pub struct Plan {
    rule_sets: Vec<Rules>,
    sandbox: Sandbox,
    /// The league file and flags behind the sandbox's limits, for the
    /// `pitboss play` command that replays a fault.
    limits: LimitChoice,
}

impl Plan {
    /// Every rule set with its defaults, under `sandbox`'s limits.
    pub fn every_rule_set(sandbox: &Sandbox) -> Result<Plan> {
        let rule_sets = Variant::ALL.into_iter().map(Rules::for_variant).collect();
        Ok(Plan { rule_sets, sandbox: sandbox.clone(), limits: LimitChoice::default() })
    }

    /// One rule set with its defaults, under `sandbox`'s limits.
    pub fn rule_set(variant: Variant, sandbox: &Sandbox) -> Result<Plan> {
        let rule_sets = vec![Rules::for_variant(variant)];
        Ok(Plan { rule_sets, sandbox: sandbox.clone(), limits: LimitChoice::default() })
    }

    /// What the league file at `path` plays: its rule set with its rule
    /// overrides (and its format's banker), under its `[limits]` on top of
    /// `sandbox`'s. The league's bots are not read.
    pub fn league(path: &Path, sandbox: &Sandbox) -> Result<Plan> {
        let file: LeagueFile = crate::file::parse(path)?;
        let rules = crate::file::league_rules(&file).with_context(|| path.display().to_string())?;
        let sandbox = match &file.limits {
            Some(limits) => limits.sandbox(sandbox)?,
            None => sandbox.clone(),
        };
        let limits = LimitChoice { league: Some(path.to_path_buf()), raised: Vec::new() };
        Ok(Plan { rule_sets: vec![rules], sandbox, limits })
    }

    /// This plan with its league file's `[limits]` shown as `--max-…`
    /// flags in the command that replays a fault, instead of `--league
    /// FILE`: for a verdict read by someone who has no copy of that file
    /// (a competition server's entrant). The limits are the same.
    pub fn limits_as_flags(mut self) -> Result<Plan> {
        if let Some(path) = self.limits.league.take()
            && let Some(overrides) = crate::file::parse(&path)?.limits
        {
            let mut raised: Vec<(Raisable, u64)> =
                overrides.values().into_iter().filter_map(|(limit, v)| Some((limit, *v?.get_ref()))).collect();
            raised.append(&mut self.limits.raised);
            self.limits.raised = raised;
        }
        Ok(self)
    }

    /// This plan with `raised` (a command's `--max-…` flags) on top of its
    /// limits.
    pub fn raised(mut self, raised: &[(Raisable, u64)]) -> Result<Plan> {
        let flags = LimitChoice { league: None, raised: raised.to_vec() };
        self.sandbox = flags.sandbox(&self.sandbox)?;
        self.limits.raised.extend_from_slice(raised);
        Ok(self)
    }

    /// The fuel a decision may use.
    pub fn fuel_limit(&self) -> u64 {
        self.sandbox.limits().fuel_per_decision
    }
}

/// One row of the report: a decision kind in one rule set.
#[derive(Clone, Debug, PartialEq, Eq, Tabled, Serialize)]
pub struct KindReport {
    /// Decision kind.
    #[tabled(rename = "decision")]
    pub decision: &'static str,
    /// Times asked.
    #[tabled(rename = "asked")]
    pub asked: u64,
    /// Times it faulted.
    #[tabled(rename = "faults")]
    pub faults: u64,
    /// Median fuel per call.
    #[tabled(rename = "fuel median")]
    pub fuel_median: u64,
    /// Most fuel of one call.
    #[tabled(rename = "fuel max")]
    pub fuel_max: u64,
    /// The per-decision limit.
    #[tabled(rename = "limit")]
    pub limit: u64,
    /// Median wall-clock time per call, in microseconds. Shown, never in
    /// the JSON: it differs from run to run and machine to machine.
    #[tabled(rename = "µs median", display("micros"))]
    #[serde(skip)]
    pub nanos_median: u64,
    /// Longest call, in microseconds (a lazy runtime's start included).
    #[tabled(rename = "µs max", display("micros"))]
    #[serde(skip)]
    pub nanos_max: u64,
}

/// Nanoseconds as a table shows them, in microseconds.
fn micros(nanos: &u64) -> String {
    let us = *nanos as f64 / 1_000.0;
    if us < 10.0 { format!("{us:.2}") } else { format!("{us:.0}") }
}

/// The first fault of a smoke match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FirstFault {
    /// The round it happened in (1-based).
    pub round: u64,
    /// The decision that faulted.
    pub decision: &'static str,
    /// The fault's kind: `trap`, `out-of-fuel`, `illegal`, …
    pub kind: &'static str,
    /// What went wrong, one line, control bytes escaped.
    pub message: String,
    /// What the bot logged while making that decision (its panic message,
    /// its traceback): its lines, control characters escaped.
    pub log: Option<String>,
    /// The command that plays that round again with a transcript, where
    /// `pitboss play` can (the rule set's defaults, under the limits
    /// checked).
    pub replay: Option<String>,
}

/// One rule set's smoke match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleSetReport {
    /// The rule set (its id in JSON).
    #[serde(serialize_with = "variant_id")]
    pub rule_set: Variant,
    /// Rounds played.
    pub rounds: u64,
    /// Whether it reads events here (ABI v2's `pitboss_wants_events`).
    pub reads_events: bool,
    /// The decisions it leaves to their default answer for good under this
    /// rule set, by name in code order (ABI v3's `pitboss_defaults`): never
    /// asked, so absent from `decisions`.
    pub defaults: Vec<&'static str>,
    /// The decision kinds the bot was asked, in code order.
    pub decisions: Vec<KindReport>,
    /// The decisions it keys (ABI v4's `pitboss_decision_key`): name, the
    /// key's parts, times asked, times called (once per key).
    pub keyed: Vec<(&'static str, Vec<&'static str>, u64, u64)>,
    /// The first fault, if any.
    pub first_fault: Option<FirstFault>,
    /// The first answer unlike the bot's earlier answer to the same key,
    /// where it keys decisions (its keys are put to the test: it is asked
    /// every decision); absent where none differed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_conflict: Option<KeyConflictReport>,
    /// Decisions during which the bot logged something.
    pub logged: u64,
    /// The first few log texts, their lines kept, control characters
    /// escaped.
    pub first_logs: Vec<String>,
}

impl RuleSetReport {
    /// Faults over every decision kind.
    pub fn faults(&self) -> u64 {
        self.decisions.iter().map(|d| d.faults).sum()
    }
}

fn variant_id<S: Serializer>(variant: &Variant, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(variant.id())
}

/// The outcome of checking one bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// The file as given, control bytes escaped ([`shown`]).
    pub file: String,
    /// SHA-256 (hex) of the file's bytes; absent if it could not be read.
    pub sha256: Option<String>,
    /// Loaded, and no decision faulted in any smoke match.
    pub passed: bool,
    /// Why the bot could not be played (the load-time refusal), one line
    /// without the file name; absent if it loaded.
    pub refusal: Option<String>,
    /// The bot ABI version the module speaks (`sdk/ABI.md`); absent if it
    /// was refused.
    pub abi_version: Option<u32>,
    /// A start-up snapshot (`pitboss_preinit`, sdk/ABI.md): the fuel of
    /// the one start-up, and the KiB of memory each instance is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<(u64, u64)>,
    /// Per rule set checked, in id order; empty if refused.
    pub rule_sets: Vec<RuleSetReport>,
}

impl CheckReport {
    /// Faults over every rule set.
    pub fn faults(&self) -> u64 {
        self.rule_sets.iter().map(RuleSetReport::faults).sum()
    }

    /// Did any decision fault?
    pub fn faulted(&self) -> bool {
        self.faults() > 0
    }

    /// The first rule set whose smoke match found a key that is not true.
    pub fn key_conflict(&self) -> Option<&KeyConflictReport> {
        self.rule_sets.iter().find_map(|r| r.key_conflict.as_ref())
    }

    /// The full report: the load verdict, a table per rule set, the first
    /// faults, and the verdict.
    pub fn render(&self) -> String {
        let file = &self.file;
        if let Some(refusal) = &self.refusal {
            return format!("{file}: FAILED: {refusal}\n");
        }
        let mut out = match self.abi_version {
            Some(v) => format!("{file}: loads as a bot (ABI v{v})\n"),
            None => format!("{file}: loads as a bot\n"),
        };
        if let Some((fuel, kib)) = self.snapshot {
            out.push_str(&format!(
                "start-up snapshot: the bot started once, at load ({fuel} fuel); every table, and every restart after a fault, starts from a copy of that state ({kib} KiB) instead of starting again\n"
            ));
        }
        for r in &self.rule_sets {
            let mut notes = Vec::new();
            if !r.reads_events {
                notes.push("reads no events here, so is sent none".to_string());
            }
            if !r.defaults.is_empty() {
                notes.push(format!("answers {} by default, unasked", listed(&r.defaults)));
            }
            for (kind, parts, asked, called) in &r.keyed {
                notes.push(format!("{kind} keyed by {}: asked {asked}, called {called}", parts.join(", ")));
            }
            let notes = if notes.is_empty() { String::new() } else { format!(" ({})", notes.join("; ")) };
            out.push_str(&format!("{}: {} rounds{notes}\n", r.rule_set.id(), r.rounds));
            out.push_str(&tabled::Table::new(&r.decisions).with(Style::rounded()).to_string());
            out.push('\n');
        }
        for r in &self.rule_sets {
            if r.logged > 0 {
                out.push_str(&format!("{}: logged in {} decisions, first:\n", r.rule_set.id(), r.logged));
                for line in r.first_logs.iter().flat_map(|text| text.lines()) {
                    out.push_str(&format!("  | {line}\n"));
                }
            }
            if let Some(f) = &r.first_fault {
                out.push_str(&format!(
                    "{}: first fault in round {}, {} decision: {} ({})\n",
                    r.rule_set.id(),
                    f.round,
                    f.decision,
                    f.message,
                    f.kind
                ));
                if let Some(log) = &f.log {
                    out.push_str("  it logged:\n");
                    for line in log.lines() {
                        out.push_str(&format!("  | {line}\n"));
                    }
                }
                if let Some(replay) = &f.replay {
                    out.push_str(&format!("  replay: {replay}\n"));
                }
            }
        }
        for (r, conflict) in self.rule_sets.iter().filter_map(|r| Some((r, r.key_conflict.as_ref()?))) {
            out.push_str(&format!("{}: {}", r.rule_set.id(), conflict.render()));
        }
        match (self.faults(), self.key_conflict()) {
            (0, None) => out.push_str(&format!("{file}: OK\n")),
            (0, Some(c)) => out.push_str(&format!("{file}: FAILED: its {} key is not true\n", c.decision)),
            (n, _) => out.push_str(&format!("{file}: FAILED: {n} {} in the smoke match\n", plural(n, "fault"))),
        }
        out
    }

    /// The report as one line, the file name padded to `width` characters:
    /// `OK    a.wasm   4 rule sets, 0 faults, fuel max 405 / 1000000`.
    pub fn line(&self, width: usize) -> String {
        let verdict = if self.passed { "OK" } else { "FAIL" };
        let faults = self.faults();
        let first = self.rule_sets.iter().find_map(|r| r.first_fault.as_ref().map(|f| (r.rule_set, f)));
        let detail = match (&self.refusal, first) {
            (Some(refusal), _) => format!("refused: {refusal}"),
            (None, None) if let Some(c) = self.key_conflict() => c.line(),
            (None, Some((rule_set, f))) => format!(
                "{faults} {} (first: {} round {}, {}: {})",
                plural(faults, "fault"),
                rule_set.id(),
                f.round,
                f.decision,
                f.message
            ),
            (None, None) => {
                let rows = || self.rule_sets.iter().flat_map(|r| &r.decisions);
                format!(
                    "{} {}, {faults} {}, fuel max {} / {}",
                    self.rule_sets.len(),
                    plural(self.rule_sets.len() as u64, "rule set"),
                    plural(faults, "fault"),
                    rows().map(|d| d.fuel_max).max().unwrap_or(0),
                    rows().map(|d| d.limit).max().unwrap_or(0)
                )
            }
        };
        format!("{verdict:<6}{:<width$}   {detail}", self.file)
    }
}

/// The count after the lines: `12 bots: 10 passed, 2 failed`.
pub fn summary(reports: &[CheckReport]) -> String {
    let passed = reports.iter().filter(|r| r.passed).count() as u64;
    let all = reports.len() as u64;
    format!("{all} {}: {passed} passed, {} failed", plural(all, "bot"), all - passed)
}

/// A path as one short line, control bytes escaped: file names are
/// chosen by whoever submitted the bot.
pub fn shown(path: &Path) -> String {
    excerpt(&path.display().to_string(), 300)
}

/// "a", "a and b", "a, b and c".
fn listed(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 { word.to_string() } else { format!("{word}s") }
}

/// Loads `path` and smoke-tests it in each of the plan's rule sets. A
/// refusal, or anything else that stops the bot from being played, is in
/// the report, so one bad file never stops a batch.
pub fn check(path: &Path, plan: &Plan) -> CheckReport {
    let mut report = CheckReport {
        file: shown(path),
        sha256: None,
        passed: false,
        refusal: None,
        abi_version: None,
        snapshot: None,
        rule_sets: Vec::new(),
    };
    let name = path.display().to_string();
    // Load errors start with the file's name, which the report already has.
    let refusal = |e: anyhow::Error| {
        let text = format!("{e:#}");
        let text = text.strip_prefix(&format!("{name}: ")).unwrap_or(&text);
        excerpt(text, 1_000)
    };
    if !path.exists() {
        report.refusal = Some(format!("{} does not exist ({})", shown(path), crate::bots::build_hint(path)));
        return report;
    }
    let bytes = match files::read_regular(path, files::Kind::Bot) {
        Ok(bytes) => bytes,
        Err(e) => {
            report.refusal = Some(refusal(e.into()));
            return report;
        }
    };
    report.sha256 = Some(crate::bots::sha256_hex(&bytes));
    let played = plan
        .sandbox
        .load(&name, &bytes)
        .map_err(anyhow::Error::from)
        .inspect(|module| report.snapshot = module.snapshot().map(|(fuel, bytes)| (fuel, bytes.div_ceil(1024) as u64)))
        .and_then(|module| plan.rule_sets.iter().map(|rules| smoke(&module, rules, plan, path)).collect());
    match played {
        Ok(played) => {
            let played: Vec<(RuleSetReport, u32)> = played;
            report.abi_version = played.first().map(|(_, v)| *v);
            report.rule_sets = played.into_iter().map(|(r, _)| r).collect();
            report.passed = !report.faulted() && report.key_conflict().is_none();
        }
        Err(e) => report.refusal = Some(refusal(e)),
    }
    report
}

/// Plays [`SMOKE_ROUNDS`] rounds of `rules` with the bot in seat 0 and
/// counts its decisions, faults and fuel; with the ABI version the bot
/// speaks.
fn smoke(module: &BotModule, rules: &Rules, plan: &Plan, path: &Path) -> Result<(RuleSetReport, u32)> {
    let limit = plan.fuel_limit();
    let variant = rules.variant;
    let (seed, spec, seats) = smoke_table(rules);
    let mut player = module.instantiate_seeded(seat_seed(spec.seed, seats, 0))?;
    let reads_events = player.wants_events(variant);
    let defaulted = player.defaults(variant) & DEFAULTABLE_MASK;
    let keys = Decision::ALL.map(|kind| player.decision_key(variant, kind));
    let abi_version = player.abi_version();
    let profile = player.profile();
    let mut players: Vec<Box<dyn Player + Send>> = vec![Box::new(player)];
    if seats.len() > 1 {
        players.push(Bot::builtin("basic")?.player_seeded(seat_seed(spec.seed, seats, 1))?);
    }
    // `pitboss play` takes a league's limits, not its rules.
    let replayable = players.len() == 1 && Rules::for_variant(variant) == *rules;
    let limits = plan.limits.args(|s| excerpt(s, 300));
    let replay = |round: u64| {
        replayable.then(|| {
            format!(
                "pitboss play --variant {} --bot {}{limits} --seed {seed} --rounds {round} --fault-limit 0 --transcript",
                variant.id(),
                shown(path)
            )
        })
    };
    let mut table = spec.seat_players(players)?;
    // Keys are put to the test: asked every decision, its answers compared.
    if keys.iter().any(Option::is_some) {
        table.audit_keys(0);
    }
    let mut asked = [0u64; Decision::ALL.len()];
    let mut faults = [0u64; Decision::ALL.len()];
    let mut first_fault = None;
    let (mut logged, mut first_logs, mut last_log) = (0u64, Vec::new(), None::<String>);
    for _ in 0..SMOKE_ROUNDS {
        let played = table.play_round(&mut |e: &TableEvent| match e {
            TableEvent::Asked { kind, player: 0, .. } => {
                asked[*kind as usize] += 1;
                last_log = None;
            }
            TableEvent::BotLog { text, player: 0, .. } => {
                logged += 1;
                // Its lines kept (control characters escaped): a
                // traceback reads as one.
                let line = printable(text.trim_end_matches('\n'), 1_000);
                if first_logs.len() < SHOWN_LOGS {
                    first_logs.push(line.clone());
                }
                last_log = Some(line);
            }
            TableEvent::Fault { kind, fault, round, player: 0, .. } => {
                faults[*kind as usize] += 1;
                first_fault.get_or_insert_with(|| FirstFault {
                    round: *round,
                    decision: kind.name(),
                    kind: fault.kind.name(),
                    message: excerpt(&fault.message, 1_000),
                    log: last_log.clone(),
                    replay: replay(*round),
                });
            }
            _ => {}
        });
        played?;
    }
    // An expensive decision or an endless loop? Its table played again to
    // the fault, which is given more fuel (the rest of the report is the
    // plain run's).
    if let Some(first) = first_fault.as_mut().filter(|f| f.kind == FaultKind::OutOfFuel.name())
        && let Some(message) = fuel_diagnosis(module, rules, first.round)?
    {
        first.message = excerpt(&message, 1_000);
    }
    let profile = profile.lock().map_err(|_| anyhow::anyhow!("a fuel profile was poisoned"))?;
    let audit = table.key_audit(0);
    // Calls had it been played keyed: once per key.
    let called = |k: Decision| asked[k as usize] - audit.map_or(0, |a| a.repeated[k as usize]);
    let report = RuleSetReport {
        rule_set: variant,
        rounds: SMOKE_ROUNDS,
        reads_events,
        defaults: Decision::ALL.iter().filter(|k| defaulted & k.bit() != 0).map(|k| k.name()).collect(),
        decisions: kind_reports(&profile, &asked, &faults, limit, defaulted),
        keyed: (Decision::ALL.into_iter().zip(keys))
            .filter_map(|(k, parts)| Some((k, parts?)))
            .map(|(k, p)| (k.name(), key_parts(p), asked[k as usize], called(k)))
            .collect(),
        first_fault,
        key_conflict: audit.and_then(|a| KeyConflictReport::of(a, replay)),
        logged,
        first_logs,
    };
    Ok((report, abi_version))
}

/// The smoke test's table of `rules`: the seed `pitboss play --seed`
/// takes, its spec and its seats. Dealt and seated as `pitboss play
/// --seed` deals and seats, so a fault's round can be played again by a
/// command.
fn smoke_table(rules: &Rules) -> (u64, TableSpec<'_>, &'static [usize]) {
    let seed = SMOKE_SEED + rules.variant as u64;
    let spec = TableSpec { rules, seed: derive_seed(seed, 0), stacked: None, bankroll: SMOKE_BANKROLL, fault_limit: 0 };
    // A player-banked game (a league's `bank` format) needs someone to
    // bank against, or the bot is never asked the banker's decisions.
    let seats: &[usize] = if rules.banker == Banker::House { &[0] } else { &[0, 1] };
    (seed, spec, seats)
}

/// The diagnosed message of the bot's first out-of-fuel fault, by round
/// `round` of the smoke test's table of `rules`
/// ([`pitboss_host::WasmPlayer::diagnose_fuel`]).
fn fuel_diagnosis(module: &BotModule, rules: &Rules, round: u64) -> Result<Option<String>> {
    let (_, spec, seats) = smoke_table(rules);
    let mut player = module.instantiate_seeded(seat_seed(spec.seed, seats, 0))?;
    let keyed = Decision::ALL.iter().any(|&k| player.decision_key(rules.variant, k).is_some());
    player.diagnose_fuel(0);
    let mut players: Vec<Box<dyn Player + Send>> = vec![Box::new(player)];
    if seats.len() > 1 {
        players.push(Bot::builtin("basic")?.player_seeded(seat_seed(spec.seed, seats, 1))?);
    }
    let mut table = spec.seat_players(players)?;
    if keyed {
        table.audit_keys(0);
    }
    let mut found = None;
    for _ in 0..round {
        table.play_round(&mut |e: &TableEvent| {
            if let TableEvent::Fault { fault, player: 0, .. } = e
                && fault.kind == FaultKind::OutOfFuel
            {
                found.get_or_insert_with(|| fault.message.clone());
            }
        })?;
        if found.is_some() {
            break;
        }
    }
    Ok(found)
}

/// The names of a key's parts (`pitboss_sdk::key::part` bits).
fn key_parts(parts: u32) -> Vec<&'static str> {
    let names = pitboss_sdk::key::part::NAMES.iter().enumerate();
    names.filter(|(bit, _)| parts & 1 << bit != 0).map(|(_, name)| *name).collect()
}

/// A row per decision kind the bot was asked (`asked`, `faults` by kind
/// code): its fuel against `limit` and its time, from `profile`. The kinds
/// it leaves to their default (`defaulted` bits) are recorded as asked,
/// but it never ran for them: they get no row.
fn kind_reports(profile: &FuelProfile, asked: &[u64], faults: &[u64], limit: u64, defaulted: u32) -> Vec<KindReport> {
    Decision::ALL
        .into_iter()
        .filter(|k| asked[*k as usize] > 0 && defaulted & k.bit() == 0)
        .map(|k| {
            let mut used = profile.used[k as usize].clone();
            used.sort_unstable();
            let mut nanos = profile.nanos[k as usize].clone();
            nanos.sort_unstable();
            KindReport {
                decision: k.name(),
                asked: asked[k as usize],
                faults: faults[k as usize],
                fuel_median: used.get(used.len() / 2).copied().unwrap_or(0),
                fuel_max: used.last().copied().unwrap_or(0),
                limit,
                nanos_median: nanos.get(nanos.len() / 2).copied().unwrap_or(0),
                nanos_max: nanos.last().copied().unwrap_or(0),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
