//! What every request handler reads: the shared [`App`], who a caller is
//! ([`Who`]), the one error answer ([`Failure`], from [`crate::answer`]),
//! and the worker's doorbell ([`Bell`]), which handlers ring and the
//! worker waits on, and through which the worker tells how far the
//! running run is ([`Progress`]), so neither imports the other. Blocking work (SQLite,
//! files, checks) goes through [`App::blocking`], never on the async
//! threads.

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::competition::Competition;
use crate::db::{Db, Entrant};
use crate::guards::Guards;
use crate::plans::Checker;

pub use crate::answer::Failure;
use crate::error::Error;
use crate::secret;

/// Everything a request handler reads.
pub struct App {
    /// The data folder.
    pub dir: PathBuf,
    pub db: Arc<Db>,
    pub competition: Arc<Competition>,
    pub checker: Checker,
    pub bell: Arc<Bell>,
    /// Rate limits, upload slots and check slots.
    pub guards: Arc<Guards>,
    /// Modules being checked now (a failed one is deleted after).
    pub modules: crate::store::Checking,
    /// SHA-256 of the organiser's token.
    pub(crate) admin_hash: String,
}

/// Shared state of the routes.
pub type Shared = Arc<App>;

/// Who made a request.
#[derive(Clone, Debug)]
pub enum Who {
    /// The organiser.
    Admin,
    /// An entrant.
    Entrant(Entrant),
}

impl App {
    /// Runs `work` on tokio's blocking threads and waits for it.
    pub async fn blocking<T, F>(self: &Arc<Self>, work: F) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce(&App) -> Result<T, Error> + Send + 'static,
    {
        let app = self.clone();
        match tokio::task::spawn_blocking(move || work(&app)).await {
            Ok(done) => done.map_err(Failure::from),
            Err(e) => Err(Error::League(format!("a request's work stopped: {e}")).into()),
        }
    }

    /// Who a token belongs to, if anyone (blocking); an entrant's is
    /// their last request ([`crate::seen`]).
    pub fn token_owner(&self, token: &str) -> Result<Option<Who>, Error> {
        let hash = secret::hash(token);
        if secret::same(&hash, &self.admin_hash) {
            return Ok(Some(Who::Admin));
        }
        let entrant = self.db.entrant_by_token(&hash)?;
        if let Some(e) = &entrant {
            self.db.touch(e.id, crate::db::now())?;
        }
        Ok(entrant.map(Who::Entrant))
    }

    /// The live browser session with this id: who, and its CSRF token
    /// (blocking).
    pub fn session(&self, id: &str) -> Result<Option<(Who, String)>, Error> {
        let Some((entrant, csrf)) = self.db.session(&secret::hash(id))? else { return Ok(None) };
        Ok(match entrant {
            None => Some((Who::Admin, csrf)),
            Some(id) => {
                self.db.touch(id, crate::db::now())?;
                self.db.entrant(id)?.filter(|e| !e.disabled).map(|e| (Who::Entrant(e), csrf))
            }
        })
    }

    /// Whether everyone may open run `run`'s reports (and whole
    /// replays): the competition's are public, or the organiser
    /// published this run, the final one (blocking).
    pub fn reports_public(&self, run: i64) -> Result<bool, Error> {
        Ok(self.competition.public_reports || self.db.published()? == Some(run))
    }

    /// The active bots may have changed: with a debounce, a run is due
    /// that long after the first change.
    pub fn changed(&self) {
        if let Some(secs) = self.competition.runs.debounce_secs {
            self.bell.changed(Duration::from_secs(secs));
        }
    }

    /// `text` with the data folder's path taken out, for anything shown
    /// outside the server's own log.
    pub fn public_text(&self, text: &str) -> String {
        let mut out = text.to_string();
        let canonical = self.dir.canonicalize().ok();
        for dir in canonical.iter().chain([&self.dir]) {
            let shown = dir.display().to_string();
            if !shown.is_empty() && shown != "." {
                out = out.replace(&shown, "DATA");
            }
        }
        out
    }
}

/// What wakes the worker.
#[derive(Default)]
pub(crate) struct Signal {
    /// Look at the queue now.
    pub(crate) wake: bool,
    /// Queue a run at this time (the debounce after a change).
    pub(crate) due: Option<Instant>,
    /// Stop after the current run.
    pub(crate) stop: bool,
}

/// The worker's doorbell, shared with the request handlers, and the
/// running run's progress the worker writes for them.
#[derive(Default)]
pub struct Bell {
    pub(crate) signal: Mutex<Signal>,
    pub(crate) ring: Condvar,
    pub progress: Progress,
}

impl Bell {
    fn with<T>(&self, f: impl FnOnce(&mut Signal) -> T) -> T {
        let out = f(&mut self.signal.lock().unwrap_or_else(|e| e.into_inner()));
        self.ring.notify_all();
        out
    }

    /// A run was queued: look now.
    pub fn wake(&self) {
        self.with(|s| s.wake = true);
    }

    /// The active bots changed: queue a run `debounce` from now, unless
    /// one is due already (a later change never moves it later, so a
    /// stream of changes cannot put a run off for ever).
    pub fn changed(&self, debounce: Duration) {
        self.with(|s| {
            s.due.get_or_insert_with(|| Instant::now() + debounce);
        });
    }

    /// Stop when the current run (if any) ends.
    pub fn stop(&self) {
        self.with(|s| s.stop = true);
    }
}

/// How far the running run is, as the worker tells the pages: rounds
/// done of the rounds to play, and since when.
#[derive(Default)]
pub struct Progress {
    now: Mutex<Option<RunProgress>>,
}

/// A running run's progress.
#[derive(Clone, Copy, Debug)]
pub struct RunProgress {
    pub run: i64,
    /// Rounds played so far, over every league and session of the run.
    pub done: u64,
    /// Rounds the run plays in all.
    pub total: u64,
    started: Instant,
    /// When the first rounds were done (loading the bots comes before).
    first: Option<(Instant, u64)>,
}

impl RunProgress {
    /// Seconds left at the rate since the first rounds were done, once
    /// there is a rate.
    pub fn left_secs(&self) -> Option<u64> {
        let (at, base) = self.first?;
        let rounds = self.done.checked_sub(base).filter(|&r| r > 0)?;
        let secs = at.elapsed().as_secs_f64();
        let left = self.total.saturating_sub(self.done) as f64 * secs / rounds as f64;
        left.is_finite().then(|| left.ceil() as u64)
    }

    /// Seconds since the run started.
    pub fn elapsed_secs(&self) -> u64 {
        self.started.elapsed().as_secs()
    }

    /// "rounds 4,096 / 40,000 (10 %), about 30 s left", for the pages.
    pub fn line(&self) -> String {
        let pct = (self.done * 100).checked_div(self.total).unwrap_or(0);
        let left = match self.left_secs() {
            Some(s) if s >= 120 => format!(", about {} min left", s.div_ceil(60)),
            Some(s) => format!(", about {s} s left"),
            None => String::new(),
        };
        format!("rounds {} / {} ({pct} %){left}", self.done, self.total)
    }
}

impl Progress {
    fn with<T>(&self, f: impl FnOnce(&mut Option<RunProgress>) -> T) -> T {
        f(&mut self.now.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Run `run` starts, to play `total` rounds.
    pub fn start(&self, run: i64, total: u64) {
        let started = Instant::now();
        self.with(|p| *p = Some(RunProgress { run, done: 0, total, started, first: None }));
    }

    /// `rounds` more rounds of the running run are done.
    pub fn add(&self, rounds: u64) {
        self.with(|p| {
            if let Some(p) = p {
                if p.first.is_none() {
                    p.first = Some((Instant::now(), p.done + rounds));
                }
                p.done = (p.done + rounds).min(p.total);
            }
        });
    }

    /// The running run has ended.
    pub fn end(&self) {
        self.with(|p| *p = None);
    }

    /// Run `run`'s progress, if it is the one running.
    pub fn of(&self, run: i64) -> Option<RunProgress> {
        self.with(|p| p.filter(|p| p.run == run))
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn progress_counts_the_running_runs_rounds_and_estimates_from_the_first_done() {
        let p = Progress::default();
        assert!(p.of(1).is_none(), "nothing runs");
        p.start(1, 10_000);
        let now = p.of(1).unwrap();
        assert_eq!((now.done, now.total, now.left_secs()), (0, 10_000, None));
        assert!(p.of(2).is_none(), "another run's is not this one's");
        p.add(2_048);
        assert_eq!(p.of(1).unwrap().left_secs(), None, "no rate from the first block alone");
        std::thread::sleep(std::time::Duration::from_millis(20));
        p.add(2_048);
        let now = p.of(1).unwrap();
        assert_eq!(now.done, 4_096);
        assert!(now.left_secs().is_some(), "a rate once more rounds are done");
        assert!(now.line().starts_with("rounds 4096 / 10000 (40 %)"), "{}", now.line());
        p.add(1_000_000);
        assert_eq!(p.of(1).unwrap().done, 10_000, "never past the total");
        p.end();
        assert!(p.of(1).is_none());
    }
}
