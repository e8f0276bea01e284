//! `pitboss replay RESULTS.json --session S --round R`: re-simulates one
//! round of a league from its results file and prints it card by card.
//! The league is the one the results file embeds (no league file is
//! read); the bot files are found by name and SHA-256 wherever the results
//! file now is, or in `--bots DIR` (`crate::locate`), and refused when
//! none is the file that played.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use pitboss_engine::{FaultKind, Recorder, TableEvent};

use pitboss_host::{Raisable, files};

use crate::file::{LeagueFile, LimitChoice, league_rules};
use crate::league::seating_for;
use crate::session::{LeaguePlay, fuel_diagnosis, replay_table};
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
    /// Limits raised on top of the league's own `[limits]` (`--max-…`):
    /// the round may then play otherwise than it did in the league.
    pub raised: Vec<(Raisable, u64)>,
}

/// One round of one table of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    /// 0-based session.
    pub session: u64,
    /// 0-based table of the session.
    pub table: usize,
    /// 1-based round.
    pub round: u64,
}

/// A league made ready to replay from its results file: the embedded
/// league parsed, and its bot files found and checked against their
/// recorded SHA-256 (every bot's, or only those of one table's).
pub struct Replayable {
    /// The results file.
    pub results: ResultsFile,
    /// The league it embeds.
    pub file: LeagueFile,
    /// Its rules, overrides applied.
    pub rules: pitboss_engine::Rules,
    /// The bots, in league order ([`Bot::Absent`](crate::bots::Bot) where
    /// not loaded).
    pub bots: crate::bots::NamedBots,
}

impl Replayable {
    /// Opens the league behind the results file at `path`; `bots` is a
    /// further folder to find bot files in.
    pub fn open(path: &Path, bots: Option<&Path>) -> Result<Replayable> {
        Replayable::load(read_checked(path)?, path, bots, None, &[])
    }

    /// [`Replayable::open`] for results already read from `path`.
    pub fn from_results(results: ResultsFile, path: &Path, bots: Option<&Path>) -> Result<Replayable> {
        Replayable::load(results, path, bots, None, &[])
    }

    /// [`Replayable::open`] with only the bots seated at `spot`'s table
    /// found and compiled (the others may be missing), after checking
    /// that the spot is in the league.
    pub fn open_table(path: &Path, bots: Option<&Path>, spot: Spot) -> Result<Replayable> {
        Replayable::load(read_checked(path)?, path, bots, Some(spot), &[])
    }

    /// [`Replayable::open_table`] for results already read from `path`.
    pub fn from_results_table(
        results: ResultsFile,
        path: &Path,
        bots: Option<&Path>,
        spot: Spot,
    ) -> Result<Replayable> {
        Replayable::load(results, path, bots, Some(spot), &[])
    }

    fn load(
        results: ResultsFile,
        path: &Path,
        bots: Option<&Path>,
        only: Option<Spot>,
        raised: &[(Raisable, u64)],
    ) -> Result<Replayable> {
        let file = crate::file::embedded(&results.league, &path.display().to_string())?;
        crate::locate::check_listing(&file, &results.bots)
            .map_err(|why| anyhow::anyhow!("{}: {why}", path.display()))?;
        let rules = league_rules(&file)?;
        let seats = match only {
            Some(spot) => Some(table_seats(&file, &rules, results.bots.len(), spot)?),
            None => None,
        };
        let flags = LimitChoice { league: None, raised: raised.to_vec() };
        let sandbox = flags.sandbox(&file.sandbox(&crate::sandbox()?)?)?;
        let bots = crate::locate::bots(path, &results.bots, &file, bots, &sandbox, seats.as_deref())?;
        Ok(Replayable { results, file, rules, bots })
    }

    /// The bots at each table of `session`, in seat order.
    pub fn seating(&self, session: u64) -> crate::session::Seating {
        seating_for(self.file.format, self.bots.len(), &self.rules, session)
    }

    /// The seats of `spot`'s table (bots by league order), or why the
    /// spot is not in the league.
    pub fn seats(&self, spot: Spot) -> Result<Vec<usize>> {
        table_seats(&self.file, &self.rules, self.bots.len(), spot)
    }

    /// The seed of `session`'s shoes (each table's derives from it).
    pub fn session_seed(&self, session: u64) -> u64 {
        self.play().session_seed(session)
    }

    /// What its sessions play with (no luck table: a replay sums no luck).
    pub fn play(&self) -> LeaguePlay<'_> {
        LeaguePlay::of(&self.file, &self.rules, &self.bots, None)
    }

    /// Every event of `spot`'s round, as the table played it (its table
    /// replayed from the session's first round).
    pub fn round_events(&self, spot: Spot) -> Result<Vec<TableEvent>> {
        let seats = self.seats(spot)?;
        let mut kept = Kept(Vec::new());
        let span = (spot.round, spot.round);
        let mut before = FuelFaults { round: spot.round, counts: vec![0; seats.len()] };
        replay_table(&self.play(), spot.session, &seats, span, &mut kept, &mut before)?;
        let mut events = kept.0;
        // Each player's first fuel fault of the round is diagnosed: an
        // expensive decision, or an endless loop? The rest play as played.
        let mut diagnosed = vec![false; seats.len()];
        for event in &mut events {
            let TableEvent::Fault { player, fault, .. } = event else { continue };
            let p = usize::from(*player);
            if fault.kind != FaultKind::OutOfFuel || diagnosed.get(p) != Some(&false) {
                continue;
            }
            diagnosed[p] = true;
            let at = (*player, before.counts[p]);
            if let Some(message) = fuel_diagnosis(&self.play(), spot.session, &seats, spot.round, at)? {
                fault.message = message;
            }
        }
        Ok(events)
    }

    /// Writes `events` of `spot`'s round as `pitboss replay` prints them:
    /// a heading, the seats, then a transcript line per event.
    pub fn write_round<'a, W: Write>(
        &self,
        spot: Spot,
        events: impl IntoIterator<Item = &'a TableEvent>,
        mut out: W,
    ) -> Result<()> {
        write_heading(self, spot, &self.seats(spot)?, &mut out)?;
        let mut transcript = Transcript::new(&mut out);
        for event in events {
            transcript.record(event);
        }
        Ok(())
    }
}

/// Reads the results file at `path` and checks it is consistent.
fn read_checked(path: &Path) -> Result<ResultsFile> {
    let results = pitboss_results::read(path)?;
    results
        .check()
        .map_err(|why| anyhow::anyhow!("{} is not a consistent Pitboss results file: {why}", path.display()))?;
    Ok(results)
}

/// Checks that `spot` exists in a league of `file` with `bots` bots;
/// returns its table's seats.
fn table_seats(file: &LeagueFile, rules: &pitboss_engine::Rules, bots: usize, spot: Spot) -> Result<Vec<usize>> {
    let at = (spot.session, spot.table, spot.round);
    pitboss_results::seating::table_at((file.format, bots, rules), (file.sessions, file.rounds), at)
        .map_err(anyhow::Error::msg)
}

/// The heading `pitboss replay` prints: the league, the spot, the seats.
fn write_heading<W: Write>(league: &Replayable, spot: Spot, seats: &[usize], out: &mut W) -> Result<()> {
    writeln!(out, "{} — session {}, table {}, round {}", league.file.name, spot.session, spot.table, spot.round)?;
    for (k, &b) in seats.iter().enumerate() {
        writeln!(out, "seat {k}: {}", league.bots[b].0)?;
    }
    Ok(())
}

/// Counts each player's out-of-fuel faults before round `round`.
struct FuelFaults {
    round: u64,
    counts: Vec<u32>,
}

impl Recorder for FuelFaults {
    fn record(&mut self, event: &TableEvent) {
        if let TableEvent::Fault { player, round, fault, .. } = event
            && *round < self.round
            && fault.kind == FaultKind::OutOfFuel
            && let Some(n) = self.counts.get_mut(usize::from(*player))
        {
            *n += 1;
        }
    }
}

/// Keeps every event it is shown.
struct Kept(Vec<TableEvent>);

impl Recorder for Kept {
    fn record(&mut self, event: &TableEvent) {
        self.0.push(event.clone());
    }
}

/// Writes the round to `out`. Only the bots of its table are looked for.
pub fn replay<W: Write>(req: &ReplayRequest, mut out: W) -> Result<()> {
    let spot = Spot { session: req.session, table: req.table, round: req.round };
    let league =
        Replayable::load(read_checked(&req.results)?, &req.results, req.bots.as_deref(), Some(spot), &req.raised)?;
    let seats = league.seats(spot)?;
    let Some(path) = &req.log else {
        let events = league.round_events(spot)?;
        let shown = events.iter().filter(|e| req.only_box.is_none_or(|b| box_of(e).is_none_or(|s| s == b)));
        return league.write_round(spot, shown, out);
    };
    write_heading(&league, spot, &seats, &mut out)?;
    let file = &league.file;
    let mut transcript = Transcript::new(&mut out);
    let mut filter = OnlyBox { inner: &mut transcript, only: req.only_box };
    // Every line goes to a temp file renamed into place at the end; a
    // failed write anywhere (a full disk) fails the command.
    let mut output = files::Output::create(path)?;
    let span = (req.round, file.rounds);
    replay_table(&league.play(), spot.session, &seats, span, &mut filter, &mut JsonLines::new(&mut output))?;
    Ok(output.finish()?)
}

/// Passes on table-wide events and those of one box.
struct OnlyBox<'a, R> {
    inner: &'a mut R,
    only: Option<u8>,
}

impl<R: Recorder> Recorder for OnlyBox<'_, R> {
    fn record(&mut self, event: &TableEvent) {
        let seat = box_of(event);
        if self.only.is_none() || seat.is_none() || seat == self.only {
            self.inner.record(event);
        }
    }
}

/// The box an event is about, if it is about one.
fn box_of(event: &TableEvent) -> Option<u8> {
    match event {
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
    }
}
