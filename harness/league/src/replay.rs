//! `pitboss replay RESULTS.json --session S --round R`: re-simulates one
//! round of a league from its results file and prints it card by card.
//! The league is the one the results file embeds (no league file is
//! read); the bot files are found by name and SHA-256 wherever the results
//! file now is, or in `--bots DIR` (`crate::locate`), and refused when
//! none is the file that played.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use pitboss_engine::{Recorder, TableEvent, derive_seed};

use pitboss_host::files;

use crate::file::{LeagueFile, league_rules};
use crate::league::seating_for;
use crate::session::replay_table;
use crate::transcript::{JsonLines, Transcript};
use pitboss_results::ResultsFile;

/// What to replay.
#[derive(Clone, Debug)]
pub struct ReplayRequest {
    /// The `results.json` of a league.
    pub results: PathBuf,
    /// Where else to look for bot files (matched by SHA-256).
    pub bots: Option<PathBuf>,
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

/// A league made ready to replay from its results file: the embedded
/// league parsed, and every bot file found and checked against its
/// recorded SHA-256.
pub struct Replayable {
    /// The results file.
    pub results: ResultsFile,
    /// The league it embeds.
    pub file: LeagueFile,
    /// Its rules, overrides applied.
    pub rules: pitboss_engine::Rules,
    /// The bots, in league order.
    pub bots: crate::bots::NamedBots,
}

impl Replayable {
    /// Opens the league behind the results file at `path`; `bots` is a
    /// further folder to find bot files in.
    pub fn open(path: &Path, bots: Option<&Path>) -> Result<Replayable> {
        let results = pitboss_results::read(path)?;
        results
            .check()
            .map_err(|why| anyhow::anyhow!("{} is not a consistent Pitboss results file: {why}", path.display()))?;
        Replayable::from_results(results, path, bots)
    }

    /// [`Replayable::open`] for results already read from `path`.
    pub fn from_results(results: ResultsFile, path: &Path, bots: Option<&Path>) -> Result<Replayable> {
        let file = crate::file::embedded(&results.league, &path.display().to_string())?;
        crate::locate::check_listing(&file, &results.bots)
            .map_err(|why| anyhow::anyhow!("{}: {why}", path.display()))?;
        let sandbox = file.sandbox(&crate::sandbox()?)?;
        let bots = crate::locate::bots(path, &results.bots, &file, bots, &sandbox)?;
        let rules = league_rules(&file)?;
        Ok(Replayable { results, file, rules, bots })
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
}

/// Writes the round to `out`.
pub fn replay<W: Write>(req: &ReplayRequest, mut out: W) -> Result<()> {
    let league = Replayable::open(&req.results, req.bots.as_deref())?;
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
