//! What every request handler reads: the shared [`App`], who a caller is
//! ([`Who`]), the one error answer ([`Failure`], from [`crate::answer`]),
//! and the worker's doorbell ([`Bell`]), which handlers ring and the
//! worker waits on, so neither imports the other. Blocking work (SQLite,
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

/// The worker's doorbell, shared with the request handlers.
#[derive(Default)]
pub struct Bell {
    pub(crate) signal: Mutex<Signal>,
    pub(crate) ring: Condvar,
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
