//! `pitboss replay RESULTS.json --session S --round R`: re-simulates one
//! round of a league from its results file and prints it card by card —
//! refusing when the league file or a bot file is not the one that played.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pitboss_engine::{Recorder, TableEvent, derive_seed};
use serde_json::Value;

use crate::league::{self, expand_bots, league_rules, seating_for, sha256_file};
use crate::report::{JsonLines, Transcript};
use crate::session::replay_table;

/// What to replay.
#[derive(Clone, Debug)]
pub struct ReplayRequest {
    /// The `results.json` of a league.
    pub results: PathBuf,
    /// 0-based session.
    pub session: u64,
    /// 1-based round.
    pub round: u64,
    /// Table of the session (0-based; solo leagues have one per bot).
    pub table: usize,
    /// Only this box's events (plus the dealer's).
    pub only_box: Option<u8>,
    /// Also write the table's hand history for the whole session, as JSON
    /// lines, to this file.
    pub log: Option<PathBuf>,
}

fn field<'a>(v: &'a Value, key: &str, results: &Path) -> Result<&'a Value> {
    v.get(key).with_context(|| format!("{}: no `{key}` (not a Pitboss results file?)", results.display()))
}

/// Writes the round to `out`.
pub fn replay<W: Write>(req: &ReplayRequest, mut out: W) -> Result<()> {
    let results = &req.results;
    let text = std::fs::read_to_string(results).with_context(|| format!("cannot read {}", results.display()))?;
    let v: Value = serde_json::from_str(&text).with_context(|| format!("{} is not JSON", results.display()))?;
    let league_path = PathBuf::from(field(&v, "league_file", results)?.as_str().unwrap_or_default());
    let file = league::parse(&league_path)?;
    let recorded = field(&v, "league_sha256", results)?.as_str().unwrap_or_default();
    if file.sha256 != recorded {
        bail!(
            "{} changed since {} was written (its SHA-256 differs); cannot replay",
            league_path.display(),
            results.display()
        );
    }
    let sandbox = match &file.limits {
        Some(l) => l.sandbox(crate::sandbox()?.limits())?,
        None => crate::sandbox()?,
    };
    let base = league_path.parent().unwrap_or(Path::new("."));
    let (bots, sources) = expand_bots(&file, base, &sandbox)?;
    let recorded_bots = field(&v, "bots", results)?.as_array().cloned().unwrap_or_default();
    for source in &sources {
        let Some(rec) = recorded_bots.iter().find(|b| b["name"] == source.name.as_str()) else {
            bail!("bot `{}` did not play in {}", source.name, results.display());
        };
        if let Some(expected) = rec["sha256"].as_str() {
            let actual = sha256_file(Path::new(&source.source))?;
            if actual != expected {
                bail!(
                    "bot `{}`: {} is not the file that played (SHA-256 {actual}, recorded {expected}); cannot replay",
                    source.name,
                    source.source
                );
            }
        }
    }
    if req.session >= file.sessions || req.round == 0 || req.round > file.rounds {
        bail!(
            "session {} round {} is outside the league ({} sessions of {} rounds; sessions count from 0, rounds from 1)",
            req.session,
            req.round,
            file.sessions,
            file.rounds
        );
    }
    let rules = league_rules(&file, &league_path)?;
    let seating = seating_for(file.format, bots.len(), &rules, req.session);
    let Some(seats) = seating.get(req.table) else {
        bail!("session {} has {} table(s); --table counts from 0", req.session, seating.len());
    };
    writeln!(out, "{} — session {}, table {}, round {}", file.name, req.session, req.table, req.round)?;
    for (k, &b) in seats.iter().enumerate() {
        writeln!(out, "seat {k}: {}", bots[b].0)?;
    }
    let seed = derive_seed(file.seed, req.session);
    let mut transcript = Transcript::new(&mut out);
    let mut filter = OnlyBox { inner: &mut transcript, only: req.only_box };
    match &req.log {
        None => replay_table(
            seed,
            &rules,
            file.bankroll,
            file.fault_limit,
            &bots,
            seats,
            (req.round, req.round),
            &mut filter,
            &mut (),
        ),
        Some(path) => {
            let file_out = std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
            let mut log = JsonLines::new(std::io::BufWriter::new(file_out));
            let span = (req.round, file.rounds);
            replay_table(seed, &rules, file.bankroll, file.fault_limit, &bots, seats, span, &mut filter, &mut log)
        }
    }
}

/// Passes on table-wide events and those of one box.
struct OnlyBox<'a, R> {
    inner: &'a mut R,
    only: Option<u8>,
}

impl<R: Recorder> Recorder for OnlyBox<'_, R> {
    fn record(&mut self, event: &TableEvent) {
        let seat = match event {
            TableEvent::Asked { seat, .. }
            | TableEvent::Fault { seat, .. }
            | TableEvent::Disqualified { seat, .. }
            | TableEvent::Bet { seat, .. }
            | TableEvent::SideBet { seat, .. }
            | TableEvent::SideBetSettled { seat, .. }
            | TableEvent::BackBet { seat, .. }
            | TableEvent::BackSettled { seat, .. }
            | TableEvent::Card { seat, .. }
            | TableEvent::Insurance { seat, .. }
            | TableEvent::InsuranceSettled { seat, .. }
            | TableEvent::Acted { seat, .. }
            | TableEvent::Settled { seat, .. }
            | TableEvent::Revealed { seat, .. } => Some(*seat),
            _ => None,
        };
        if self.only.is_none() || seat.is_none() || seat == self.only {
            self.inner.record(event);
        }
    }
}
