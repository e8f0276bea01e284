//! What every request handler reads: the shared [`App`], who a caller is
//! ([`Who`]), and the one error answer ([`Failure`], from
//! [`crate::answer`]). Blocking work
//! (SQLite, files, checks) goes through [`App::blocking`], never on the
//! async threads.

use std::path::PathBuf;
use std::sync::Arc;

use crate::competition::Competition;
use crate::db::{Db, Entrant};
use crate::guards::Guards;
use crate::plans::Checker;
use crate::worker::Bell;

pub use crate::answer::Failure;
use crate::{Error, secret};

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

    /// The active bots may have changed: with a debounce, a run is due
    /// that long after the first change.
    pub fn changed(&self) {
        if let Some(secs) = self.competition.runs.debounce_secs {
            self.bell.changed(std::time::Duration::from_secs(secs));
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
