//! The background worker: one thread that plays queued runs, each an
//! ordinary league run per league with every entrant's active bot, and
//! queues runs itself after submissions change (debounced) and on a
//! schedule. A run's files go to `DIR/runs/N/league-K/`: the league file,
//! its bots under `bots/` by SHA-256, `results.json` and `report.html`,
//! so `pitboss verify` re-runs it from that folder alone; and the public
//! copies under `public/` (results and report without any bot's log
//! lines), which are all anyone but the organiser may read.
//!
//! Between runs it plays the queued scrimmages one at a time
//! (`crate::scrimmage`), each after every queued run. A scrimmage gives
//! way: when a run is queued while it plays, it stops within a block of
//! rounds and goes back to the queue (played again from the start after
//! the runs), and one that plays longer than [`SCRIMMAGE_MAX_SECS`] is
//! stopped and fails saying so.
//!
//! **Invariant:** a run is marked `done` only after every file of it is
//! written; a run found `running` at start (the server was killed) is
//! played again from scratch.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pitboss_results::{LeagueResult, Standing, Status};
use serde::{Deserialize, Serialize};

use crate::competition::Competition;
use crate::db::{ActiveBot, Db, Entrant, now};
use crate::error::Error;
use crate::paths::{PUBLIC, run_dir, scrimmage_dir};
use crate::scrimmage::Scrimmage;
use crate::state::Bell;
use crate::store;

/// Longest a scrimmage plays before it is stopped.
pub const SCRIMMAGE_MAX_SECS: u64 = 300;

/// How often a playing scrimmage looks for a queued run.
const LOOK_EVERY: Duration = Duration::from_millis(250);

/// Why a scrimmage stopped early (the payload it unwinds with).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GaveWay {
    /// A run was queued: it goes back to the queue.
    RunQueued,
    /// It played [`SCRIMMAGE_MAX_SECS`].
    TimeUp,
}

/// One league's standings in a run, as the leaderboard shows them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LeagueStandings {
    pub name: String,
    pub variant: String,
    /// The league's folder in the run (`league-1`).
    pub folder: String,
    pub rounds: u64,
    pub sessions: u64,
    pub rows: Vec<Row>,
    /// With luck-adjusted figures: the parts of a round whose luck they
    /// leave in (absent in leagues with `luck = false` and older runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_uncorrected: Option<Vec<String>>,
    /// The league's `fuel_per_decision` cap, against which its rows'
    /// `cost` is read (absent in older runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuel_per_decision: Option<u64>,
}

impl LeagueStandings {
    /// The leaderboard's view of a finished league kept in `folder`,
    /// played under a cap of `fuel_per_decision`.
    pub fn of(result: &LeagueResult, folder: String, fuel_per_decision: u64) -> LeagueStandings {
        LeagueStandings {
            name: result.name.clone(),
            variant: result.variant.clone(),
            folder,
            rounds: result.rounds,
            sessions: result.sessions,
            rows: rows(&result.standings),
            luck_uncorrected: result.luck_uncorrected.clone(),
            fuel_per_decision: Some(fuel_per_decision),
        }
    }
}

/// One bot's line of a league's standings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    pub rank: usize,
    /// The entrant.
    pub name: String,
    /// `""` in play, `broke`, or `DQ`.
    pub status: String,
    /// EV, net chips per 100 staked.
    pub ev_pct: f64,
    /// Half-width of the 95 % interval of the EV.
    pub ev_ci95_pct: f64,
    /// The luck-adjusted EV per 100 staked (`docs/luck.md`), in leagues
    /// that measure it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_ev_pct: Option<f64>,
    /// Half-width of its 95 % interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_ci95_pct: Option<f64>,
    /// `>`: significantly ahead of the next; `≈`: not; `""`: last or out.
    pub mark: String,
    pub net: i64,
    pub faults: u64,
    /// The fuel of its decisions (wasm bots; absent for builtins and in
    /// older runs): who is slow, on the organiser's page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<pitboss_results::Cost>,
}

/// One entrant overall, by [`pitboss_results::overall`]'s rule (the
/// seasons' too): points over the leagues, then net chips.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OverallRow {
    pub rank: usize,
    pub name: String,
    /// A point per entrant finished above plus one, per league; none
    /// when disqualified.
    #[serde(default)]
    pub points: u64,
    /// Net chips summed over the leagues.
    #[serde(default)]
    pub net: i64,
}

/// What a finished run stores in the database for the leaderboard.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    pub run: i64,
    pub finished: u64,
    /// The bots that played: entrant and SHA-256.
    pub bots: Vec<(String, String)>,
    /// The entrants' ids, in the order of `bots`: who played under each
    /// name (empty in runs from before ids were recorded).
    #[serde(default)]
    pub entrants: Vec<i64>,
    pub leagues: Vec<LeagueStandings>,
    pub overall: Vec<OverallRow>,
    /// The competition's final run: the standings are frozen.
    #[serde(default)]
    pub final_run: bool,
}

impl Summary {
    /// The summary of run `run`, just finished, with these bots.
    pub fn new(
        run: i64,
        bots: &[ActiveBot],
        leagues: Vec<LeagueStandings>,
        overall: Vec<OverallRow>,
        final_run: bool,
    ) -> Summary {
        Summary {
            run,
            finished: now(),
            bots: bots.iter().map(|b| (b.name.clone(), b.sha256.clone())).collect(),
            entrants: bots.iter().map(|b| b.entrant).collect(),
            leagues,
            overall,
            final_run,
        }
    }

    /// The name `entrant`'s bot played under in this run, if it played:
    /// found by the entrant's id, never by the name alone, so an entrant
    /// registered under a removed entrant's name finds none of theirs. A
    /// run from before ids were recorded is matched by name, but only if
    /// the entrant was registered before it finished.
    pub fn name_of(&self, entrant: &Entrant) -> Option<&str> {
        if self.entrants.is_empty() {
            let legacy = entrant.created <= self.finished;
            return self.bots.iter().map(|(name, _)| name.as_str()).find(|n| legacy && *n == entrant.name);
        }
        let at = self.entrants.iter().position(|&id| id == entrant.id)?;
        self.bots.get(at).map(|(name, _)| name.as_str())
    }
}

/// What the worker needs.
pub struct Work {
    pub dir: PathBuf,
    pub db: Arc<Db>,
    pub competition: Arc<Competition>,
    pub sandbox: pitboss_host::Sandbox,
    pub bell: Arc<Bell>,
}

/// Starts the worker thread; interrupted runs are queued again first.
pub fn start(work: Work) -> Result<std::thread::JoinHandle<()>, Error> {
    for id in work.db.requeue_interrupted()? {
        eprintln!("pitboss serve: run {id} was interrupted; playing it again");
    }
    work.db.requeue_scrimmages()?;
    work.bell.wake();
    Ok(std::thread::Builder::new().name("pitboss-runs".into()).spawn(move || work.main())?)
}

impl Work {
    fn main(&self) {
        let every = self.competition.runs.every_minutes.map(|m| Duration::from_secs(m * 60));
        let mut next_scheduled = every.map(|e| Instant::now() + e);
        loop {
            loop {
                match self.db.start_next_run() {
                    Ok(Some(id)) => self.play(id),
                    Ok(None) => break,
                    Err(e) => {
                        eprintln!("pitboss serve: error: cannot read the run queue: {e}");
                        break;
                    }
                }
            }
            // Scrimmages one at a time, each after every queued run.
            match self.db.start_next_scrimmage() {
                Ok(Some(s)) => {
                    self.play_scrimmage(&s);
                    continue;
                }
                Ok(None) => {}
                Err(e) => eprintln!("pitboss serve: error: cannot read the scrimmage queue: {e}"),
            }
            let mut signal = self.bell.signal.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if signal.stop {
                    return;
                }
                let now = Instant::now();
                if signal.due.is_some_and(|d| d <= now) {
                    signal.due = None;
                    self.queue("submissions changed");
                    break;
                }
                if let (Some(at), Some(e)) = (next_scheduled, every)
                    && at <= now
                {
                    next_scheduled = Some(now + e);
                    self.queue("scheduled");
                    break;
                }
                if std::mem::take(&mut signal.wake) {
                    break;
                }
                let until = [signal.due, next_scheduled].into_iter().flatten().min();
                let wait = until.map_or(Duration::from_secs(3600), |u| u.saturating_duration_since(now));
                signal = self.bell.ring.wait_timeout(signal, wait).unwrap_or_else(|e| e.into_inner()).0;
            }
        }
    }

    fn queue(&self, reason: &str) {
        // After the final run, nothing is played again.
        if !matches!(self.db.frozen(), Ok(None)) {
            return;
        }
        if let Err(e) = self.db.queue_run(reason) {
            eprintln!("pitboss serve: error: cannot queue a run: {e}");
        }
    }

    /// Plays run `id` and records how it ended.
    fn play(&self, id: i64) {
        let outcome = self.play_leagues(id).and_then(|s| Ok(serde_json::to_string(&s)?));
        if outcome.is_err() {
            // A failed run leaves no partial folder behind.
            let _ = std::fs::remove_dir_all(run_dir(&self.dir, id));
        }
        let recorded = match &outcome {
            Ok(summary) => self.db.finish_run(id, Ok(summary)),
            Err(e) => self.db.finish_run(id, Err(&e.to_string())),
        };
        // Recorded done or failed: the pages say so instead.
        self.bell.progress.end();
        match (outcome, recorded) {
            (_, Err(e)) => eprintln!("pitboss serve: error: run {id} could not be recorded: {e}"),
            (Ok(_), Ok(())) => eprintln!("pitboss serve: run {id} done"),
            (Err(e), Ok(())) => eprintln!("pitboss serve: run {id} failed: {e}"),
        }
    }

    fn play_leagues(&self, id: i64) -> Result<Summary, Error> {
        let bots = self.db.active_bots()?;
        if bots.is_empty() {
            return Err(Error::League("no entrant has a bot that passed its check".into()));
        }
        let run_dir = run_dir(&self.dir, id);
        if run_dir.exists() {
            std::fs::remove_dir_all(&run_dir)?;
        }
        let mut files = Vec::new();
        let mut total = 0u64;
        for (i, template) in self.competition.leagues.iter().enumerate() {
            let folder = format!("league-{}", i + 1);
            let dir = run_dir.join(&folder);
            std::fs::create_dir_all(dir.join("bots"))?;
            let mut paths = Vec::new();
            for bot in &bots {
                let file = store::copy_out(&self.dir, &bot.sha256, &dir.join("bots"))?;
                paths.push((bot.name.as_str(), format!("bots/{file}")));
            }
            let text = template.with_bots(paths);
            if let Ok(file) = pitboss_league::file::parse_text(&text, "league.toml", "league.toml") {
                total = total.saturating_add(file.rounds.saturating_mul(file.sessions));
            }
            files.push((folder, dir, text));
        }
        // Rounds played here are counted as the CLI's bar counts them;
        // a league on Slurm reports its shards instead.
        let progress = &self.bell.progress;
        if self.competition.slurm.is_none() {
            progress.start(id, total);
        }
        let mut leagues = Vec::new();
        for (folder, dir, text) in files {
            let (result, cap) = self.play_league(&dir, &text, Some((id, &folder)), &|n| progress.add(n))?;
            leagues.push(LeagueStandings::of(&result, folder, cap));
        }
        let overall = overall(&leagues);
        let final_run = self.db.final_run()? == Some(id);
        Ok(Summary::new(id, &bots, leagues, overall, final_run))
    }

    /// Plays scrimmage `s` in its folder and records how it ended (a
    /// failed one leaves no folder).
    fn play_scrimmage(&self, s: &Scrimmage) {
        let dir = scrimmage_dir(&self.dir, s.id);
        let started = Instant::now();
        let last_look = Mutex::new(Instant::now());
        // Called between blocks of rounds: unwinds out of the league
        // (caught below) when a run waits or the time is up.
        let give_way = |_: u64| {
            if started.elapsed() >= Duration::from_secs(SCRIMMAGE_MAX_SECS) {
                std::panic::resume_unwind(Box::new(GaveWay::TimeUp));
            }
            let mut last = last_look.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed() >= LOOK_EVERY {
                *last = Instant::now();
                drop(last);
                if self.db.has_queued_run().unwrap_or(false) {
                    std::panic::resume_unwind(Box::new(GaveWay::RunQueued));
                }
            }
        };
        let played =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.scrimmage_standings(s, &dir, &give_way)));
        let outcome = match played {
            Ok(outcome) => outcome,
            Err(payload) => match payload.downcast_ref::<GaveWay>() {
                Some(GaveWay::RunQueued) => {
                    let _ = std::fs::remove_dir_all(&dir);
                    if let Err(e) = self.db.requeue_scrimmages() {
                        eprintln!("pitboss serve: scrimmage {}: {e}", s.id);
                    }
                    return;
                }
                Some(GaveWay::TimeUp) => {
                    Err(Error::League(format!("stopped after {SCRIMMAGE_MAX_SECS} s of play: ask for fewer rounds")))
                }
                None => std::panic::resume_unwind(payload),
            },
        };
        if outcome.is_err() {
            let _ = std::fs::remove_dir_all(&dir);
        }
        let public = |e: &Error| e.to_string().replace(&self.dir.display().to_string(), "DATA");
        let recorded = match &outcome {
            Ok(rows) => self.db.finish_scrimmage(s.id, Ok(rows)),
            Err(e) => self.db.finish_scrimmage(s.id, Err(&public(e))),
        };
        if let Err(e) = recorded.and(outcome.map(|_| ())) {
            eprintln!("pitboss serve: scrimmage {}: {e}", s.id);
        }
    }

    /// Writes scrimmage `s`'s league (its league's keys, `s.rounds`
    /// rounds, one session, its seats) and bots to `dir` and plays it;
    /// returns its standings rows.
    fn scrimmage_standings(
        &self,
        s: &Scrimmage,
        dir: &Path,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<serde_json::Value, Error> {
        let template = (s.league.checked_sub(1).and_then(|k| self.competition.leagues.get(k)))
            .ok_or_else(|| Error::League(format!("league {} is no longer in the competition", s.league)))?;
        if dir.exists() {
            std::fs::remove_dir_all(dir)?;
        }
        std::fs::create_dir_all(dir.join("bots"))?;
        let mut table: toml::Table = toml::from_str(&template.text).map_err(|e| Error::League(e.to_string()))?;
        table.insert("name".into(), format!("Scrimmage {} · {}", s.id, template.name).into());
        table.insert("rounds".into(), toml::Value::Integer(i64::try_from(s.rounds).unwrap_or(i64::MAX)));
        table.insert("sessions".into(), toml::Value::Integer(1));
        let mut text = toml::to_string(&table).map_err(|e| Error::League(e.to_string()))?;
        for seat in &s.seats {
            match &seat.sha256 {
                Some(sha) => {
                    let file = store::copy_out(&self.dir, sha, &dir.join("bots"))?;
                    text += &format!("\n[[bot]]\nname = \"{}\"\npath = \"bots/{file}\"\n", seat.name);
                }
                None => {
                    let builtin = seat.name.trim_start_matches("builtin:");
                    text += &format!("\n[[bot]]\nname = \"{}\"\nbuiltin = \"{builtin}\"\n", seat.name);
                }
            }
        }
        let (result, _) = self.play_league(dir, &text, None, progress)?;
        Ok(serde_json::to_value(rows(&result.standings))?)
    }

    /// Plays one league file written to `dir` (`progress` hears of every
    /// block of rounds); writes its results and report beside it;
    /// returns its standings and its `fuel_per_decision` cap.
    /// A league of run `on` (its id and folder) goes to Slurm when the
    /// competition says so (`crate::cluster`); scrimmages never do.
    fn play_league(
        &self,
        dir: &Path,
        text: &str,
        on: Option<(i64, &str)>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(LeagueResult, u64), Error> {
        let path = dir.join("league.toml");
        std::fs::write(&path, text)?;
        let file = pitboss_league::file::parse_text(text, "league.toml", &path.display().to_string())
            .map_err(Error::LeagueFile)?;
        let threads = self
            .competition
            .runs
            .threads
            .or_else(|| Some(std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))));
        let (result, results_file) = match (on, &self.competition.slurm) {
            (Some((run, folder)), Some(policy)) => crate::cluster::play(&self.db, run, folder, &path, policy)?,
            _ => {
                pitboss_league::league::run_with(&file, &path, &self.sandbox, threads, progress).map_err(Error::Play)?
            }
        };
        pitboss_results::output::write_json(&dir.join("results.json"), &results_file)?;
        write_reports(dir, &results_file)?;
        Ok((result, results_file.league.parsed.limits.fuel_per_decision))
    }
}

/// Beside a league folder's `results.json` (already written): its report,
/// and the public copies of both without log lines in `public/`.
pub fn write_reports(dir: &Path, results: &pitboss_results::ResultsFile) -> Result<(), Error> {
    let report = |results: PathBuf, out: PathBuf| {
        let request = pitboss_report::ReportRequest { results, session: 0, opening_rounds: 5 };
        pitboss_report::write_report(&request, &out).map_err(Error::Report)
    };
    report(dir.join("results.json"), dir.join("report.html"))?;
    let public = dir.join(PUBLIC);
    std::fs::create_dir_all(&public)?;
    pitboss_results::output::write_json(&public.join("results.json"), &results.without_logs())?;
    report(public.join("results.json"), public.join("report.html"))?;
    Ok(())
}

pub(crate) fn rows(standings: &[Standing]) -> Vec<Row> {
    standings
        .iter()
        .map(|s| Row {
            rank: s.rank,
            name: s.result.name.clone(),
            status: match s.status {
                Status::Active => String::new(),
                out => out.label().to_string(),
            },
            ev_pct: s.ev_pct,
            ev_ci95_pct: s.ev_ci95_pct,
            luck_ev_pct: s.luck_ev_pct,
            luck_ci95_pct: s.luck_ci95_pct,
            mark: s.mark().into(),
            net: s.result.net,
            faults: s.result.faults,
            cost: s.result.cost,
        })
        .collect()
}

/// Entrants ranked overall by [`pitboss_results::overall`]'s rule.
pub(crate) fn overall(leagues: &[LeagueStandings]) -> Vec<OverallRow> {
    let mut sums: std::collections::BTreeMap<&str, (u64, i64)> = Default::default();
    for league in leagues {
        for row in &league.rows {
            let e = sums.entry(&row.name).or_default();
            e.0 += pitboss_results::overall::points(
                row.rank,
                league.rows.len(),
                row.status == Status::Disqualified.label(),
            );
            e.1 = e.1.saturating_add(row.net);
        }
    }
    let mut rows: Vec<OverallRow> = sums
        .into_iter()
        .map(|(name, (points, net))| OverallRow { rank: 0, name: name.to_string(), points, net })
        .collect();
    rows.sort_by(|a, b| pitboss_results::overall::order((a.points, a.net, &a.name), (b.points, b.net, &b.name)));
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i + 1;
    }
    rows
}
