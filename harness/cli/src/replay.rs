//! `pitboss replay RESULTS.json --session S --round R`: re-simulates one
//! round of a league from its results file and prints it card by card —
//! refusing when the league file or a bot file is not the one that played.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pitboss_engine::{Recorder, TableEvent, derive_seed};
use serde_json::Value;

use pitboss_host::files;

use crate::league::{self, Expanded, expand_bots, league_rules, seating_for};
use crate::report::{JsonLines, Transcript, event_json};
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

/// A league made ready to replay from its results file: the league file
/// and every bot file re-read and checked against the recorded SHA-256s.
pub struct Replayable {
    /// The league file.
    pub file: league::LeagueFile,
    /// Its rules, overrides applied.
    pub rules: pitboss_engine::Rules,
    /// The bots, in league order.
    pub bots: crate::bots::NamedBots,
}

impl Replayable {
    /// Opens the league behind `results`, refusing (naming the file) when
    /// the league file or a bot file is not the one that played.
    pub fn open(results: &Path) -> Result<Replayable> {
        let text = files::read_text(results, files::Kind::Results)?;
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
            Some(l) => l.sandbox(&crate::sandbox()?)?,
            None => crate::sandbox()?,
        };
        let base = league_path.parent().unwrap_or(Path::new("."));
        let Expanded { bots, sources, .. } = expand_bots(&file, base, &sandbox)?;
        let recorded_bots = field(&v, "bots", results)?.as_array().cloned().unwrap_or_default();
        for source in &sources {
            let Some(rec) = recorded_bots.iter().find(|b| b["name"] == source.name.as_str()) else {
                bail!("bot `{}` did not play in {}", source.name, results.display());
            };
            // The hash of the bytes just compiled, not of a second read.
            if let (Some(expected), Some(actual)) = (rec["sha256"].as_str(), &source.sha256)
                && actual != expected
            {
                bail!(
                    "bot `{}`: {} is not the file that played (SHA-256 {actual}, recorded {expected}); cannot replay",
                    source.name,
                    source.source
                );
            }
        }
        let rules = league_rules(&file, &league_path)?;
        Ok(Replayable { file, rules, bots })
    }

    /// The bots at each table of `session`, in seat order.
    pub fn seating(&self, session: u64) -> crate::session::Seating {
        seating_for(self.file.format, self.bots.len(), &self.rules, session)
    }

    /// Checks that `session`, `round` and `table` exist; returns the
    /// table's seats.
    fn seats(&self, session: u64, round: u64, table: usize) -> Result<Vec<usize>> {
        let file = &self.file;
        if session >= file.sessions || round == 0 || round > file.rounds {
            bail!(
                "session {session} round {round} is outside the league ({} sessions of {} rounds; sessions count from 0, rounds from 1)",
                file.sessions,
                file.rounds
            );
        }
        let seating = self.seating(session);
        match seating.get(table) {
            Some(seats) => Ok(seats.clone()),
            None => bail!("session {session} has {} table(s); tables count from 0", seating.len()),
        }
    }

    /// Replays table `table` of `session` up to the last of `rounds`
    /// (ascending) and returns each of those rounds as the hand history
    /// `--log` writes: one JSON object per event (without its `round`).
    pub fn rounds_as_json(&self, session: u64, table: usize, rounds: &[u64]) -> Result<Vec<(u64, Vec<Value>)>> {
        let last = rounds.iter().copied().max().unwrap_or(1);
        let seats = self.seats(session, last, table)?;
        let mut pick = Pick { wanted: rounds, round: 0, pending_shuffle: None, out: Vec::new() };
        let seed = derive_seed(self.file.seed, session);
        let (bankroll, limit) = (self.file.bankroll, self.file.fault_limit);
        replay_table(seed, &self.rules, bankroll, limit, &self.bots, &seats, (last, last), &mut (), &mut pick)?;
        Ok(pick.out)
    }
}

/// Collects the events of the wanted rounds as JSON.
struct Pick<'a> {
    wanted: &'a [u64],
    round: u64,
    /// A full shuffle is announced before the round it opens.
    pending_shuffle: Option<TableEvent>,
    out: Vec<(u64, Vec<Value>)>,
}

impl Recorder for Pick<'_> {
    fn record(&mut self, event: &TableEvent) {
        if let TableEvent::Shuffle(_) = event
            && self.round == 0
        {
            self.pending_shuffle = Some(event.clone());
            return;
        }
        if let TableEvent::RoundStart { round } = event {
            self.round = *round;
            if self.wanted.contains(round) {
                self.out.push((*round, Vec::new()));
                if let Some(shuffle) = self.pending_shuffle.take() {
                    self.push(&shuffle);
                }
            }
            self.pending_shuffle = None;
        }
        if self.round_open() == Some(true) {
            self.push(event);
        }
        if let TableEvent::RoundEnd { .. } = event {
            self.round = 0;
        }
    }
}

impl Pick<'_> {
    /// Inside a round: whether it is wanted. Between rounds: `None`.
    fn round_open(&self) -> Option<bool> {
        (self.round != 0).then(|| self.out.last().is_some_and(|(r, _)| *r == self.round))
    }

    fn push(&mut self, event: &TableEvent) {
        if let Some((_, events)) = self.out.last_mut() {
            events.push(event_json(event));
        }
    }
}

/// Writes the round to `out`.
pub fn replay<W: Write>(req: &ReplayRequest, mut out: W) -> Result<()> {
    let league = Replayable::open(&req.results)?;
    let seats = league.seats(req.session, req.round, req.table)?;
    let (file, bots, rules) = (&league.file, &league.bots, &league.rules);
    writeln!(out, "{} — session {}, table {}, round {}", file.name, req.session, req.table, req.round)?;
    for (k, &b) in seats.iter().enumerate() {
        writeln!(out, "seat {k}: {}", bots[b].0)?;
    }
    let seed = derive_seed(file.seed, req.session);
    let mut transcript = Transcript::new(&mut out);
    let mut filter = OnlyBox { inner: &mut transcript, only: req.only_box };
    let (bankroll, limit) = (file.bankroll, file.fault_limit);
    match &req.log {
        None => replay_table(seed, rules, bankroll, limit, bots, &seats, (req.round, req.round), &mut filter, &mut ()),
        Some(path) => {
            // Every line goes to a temp file renamed into place at the end;
            // a failed write anywhere (a full disk) fails the command.
            let mut output = files::Output::create(path)?;
            let span = (req.round, file.rounds);
            replay_table(
                seed,
                rules,
                bankroll,
                limit,
                bots,
                &seats,
                span,
                &mut filter,
                &mut JsonLines::new(&mut output),
            )?;
            Ok(output.finish()?)
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
            | TableEvent::BotLog { seat, .. }
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
