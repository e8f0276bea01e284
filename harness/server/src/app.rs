//! Starting the server: the data folder, the admin token at first start,
//! the entrants the competition file lists, the worker, and the HTTP
//! routes on a tokio runtime until SIGTERM or Ctrl-C (then graceful: no
//! new connections, requests in flight answered, the worker stopped).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::competition::{self, Competition, valid_name};
use crate::db::{Db, Entrant};
use crate::verdict::Checker;
use crate::worker::{self, Bell};
use crate::{Error, api, auth, pages};

/// How to start.
#[derive(Clone, Debug)]
pub struct Options {
    /// The competition file.
    pub competition: PathBuf,
    /// The data folder (database, modules, runs).
    pub data: PathBuf,
    /// Address to listen on, e.g. `127.0.0.1:8080` (port 0: any free one).
    pub listen: String,
}

/// Everything a request handler reads.
pub struct App {
    pub dir: PathBuf,
    pub db: Arc<Db>,
    pub competition: Arc<Competition>,
    pub checker: Checker,
    pub bell: Arc<Bell>,
    /// Checks at once: one per core, so a burst of uploads queues rather
    /// than starving the pages.
    pub checks: tokio::sync::Semaphore,
    /// SHA-256 of the organiser's token.
    admin_hash: String,
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
    /// Who a token belongs to, if anyone.
    pub fn token_owner(&self, token: &str) -> Result<Option<Who>, Error> {
        let hash = auth::hash(token);
        if auth::same(&hash, &self.admin_hash) {
            return Ok(Some(Who::Admin));
        }
        Ok(self.db.entrant_by_token(&hash)?.map(Who::Entrant))
    }

    /// Who a request's bearer token belongs to.
    pub fn bearer(&self, headers: &HeaderMap) -> Result<Option<Who>, Error> {
        match headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(auth::bearer) {
            Some(token) => self.token_owner(token),
            None => Ok(None),
        }
    }

    /// The request's browser session: who, and the session's CSRF token.
    pub fn session(&self, headers: &HeaderMap) -> Result<Option<(Who, String)>, Error> {
        let Some(id) =
            headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(auth::session_cookie)
        else {
            return Ok(None);
        };
        let Some((entrant, csrf)) = self.db.session(&auth::hash(id))? else { return Ok(None) };
        Ok(match entrant {
            None => Some((Who::Admin, csrf)),
            Some(id) => self.db.entrant(id)?.map(|e| (Who::Entrant(e), csrf)),
        })
    }
}

/// An error answer: a status and one line of text (JSON for the API).
#[derive(Debug)]
pub struct Failure(pub StatusCode, pub String);

impl Failure {
    pub fn new(status: StatusCode, text: impl Into<String>) -> Failure {
        Failure(status, text.into())
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        eprintln!("pitboss serve: error: {e}");
        Failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error; the organiser can see it in the server's log".into(),
        )
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        (self.0, axum::Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

/// Opens the data folder: creates it, the database, and at first start
/// the organiser's token (printed) and the listed entrants (each token
/// printed once).
pub(crate) fn open(options: &Options, competition: &Competition) -> Result<(Db, String), Error> {
    std::fs::create_dir_all(&options.data).map_err(|e| Error::Data(options.data.clone(), e.to_string()))?;
    let db = Db::open(&options.data)?;
    let admin_hash = match db.meta("admin_token_hash")? {
        Some(hash) => hash,
        None => {
            let token = auth::new_secret("pba_")?;
            let hash = auth::hash(&token);
            db.set_meta("admin_token_hash", &hash)?;
            say(&format!("admin token: {token}"));
            hash
        }
    };
    for name in &competition.entrants {
        if !db.has_entrant(name)? {
            let token = new_entrant(&db, name)?;
            say(&format!("entrant {name}: {token}"));
        }
    }
    Ok((db, admin_hash))
}

/// Prints a line to stdout at once (a supervisor or test reads it).
fn say(line: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Registers `name`; returns their token (shown once).
pub fn new_entrant(db: &Db, name: &str) -> Result<String, Error> {
    if !valid_name(name) {
        return Err(Error::BadName(pitboss_host::text::excerpt(name, 40)));
    }
    let token = auth::new_secret("pbe_")?;
    match db.add_entrant(name, &auth::hash(&token))? {
        Some(_) => Ok(token),
        None => Err(Error::Taken(name.to_string())),
    }
}

/// `pitboss serve --add-entrant NAME`: registers an entrant in the data
/// folder and returns their token.
pub fn add_entrant(options: &Options, name: &str) -> Result<String, Error> {
    let competition = competition::read(&options.competition)?;
    let (db, _) = open(options, &competition)?;
    new_entrant(&db, name)
}

/// Runs the server until SIGTERM or Ctrl-C.
pub fn serve(options: &Options) -> Result<(), Error> {
    let competition = Arc::new(competition::read(&options.competition)?);
    let (db, admin_hash) = open(options, &competition)?;
    let db = Arc::new(db);
    let sandbox = pitboss_league::sandbox().map_err(|e| Error::League(format!("{e:#}")))?;
    if let Some(why) = pitboss_league::cache_warning(&sandbox) {
        eprintln!("pitboss serve: warning: {why}");
    }
    let dir = options.data.clone();
    let checker = Checker::new(&dir, &competition, &sandbox)?;
    let bell = Arc::new(Bell::default());
    let work = worker::Work {
        dir: dir.clone(),
        db: db.clone(),
        competition: competition.clone(),
        sandbox,
        bell: bell.clone(),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let app = Arc::new(App {
        dir,
        db,
        competition,
        checker,
        bell: bell.clone(),
        checks: tokio::sync::Semaphore::new(cores),
        admin_hash,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let worker = worker::start(work)?;
    let served = runtime.block_on(listen(app, &options.listen));
    bell.stop();
    // A run in progress is not waited for: it is redone at the next start.
    if worker.is_finished() {
        let _ = worker.join();
    }
    served
}

async fn listen(app: Shared, addr: &str) -> Result<(), Error> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local: SocketAddr = listener.local_addr()?;
    say(&format!("listening on http://{local}"));
    let router = routes(app);
    axum::serve(listener, router).with_graceful_shutdown(shutdown()).await?;
    say("pitboss serve: stopped");
    Ok(())
}

/// Resolves on SIGTERM or Ctrl-C.
async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

/// Every route. Uploads may be as big as the competition allows (and a
/// little more, so an oversized file gets a recorded refusal, not a bare
/// 413); every other body is small.
fn routes(app: Shared) -> Router {
    let upload_limit = app.competition.uploads.max_bytes * 2 + (64 << 10);
    let uploads = Router::new()
        .route("/api/submissions", post(api::upload).get(api::submissions))
        .route("/me/upload", post(pages::upload))
        .layer(DefaultBodyLimit::max(upload_limit));
    Router::new()
        .route("/api/submissions/{id}", get(api::submission))
        .route("/api/submissions/{id}/activate", post(api::activate))
        .route("/api/me", get(api::me))
        .route("/api/leaderboard", get(api::leaderboard))
        .route("/api/runs", get(api::runs).post(api::start_run))
        .route("/api/runs/{id}/bundle.tar", get(api::bundle))
        .route("/api/entrants", post(api::add_entrant))
        .route("/api/register", post(api::register))
        .route("/runs/{id}/{league}/{file}", get(api::run_file))
        .route("/", get(pages::leaderboard))
        .route("/login", get(pages::login_form).post(pages::login))
        .route("/logout", post(pages::logout))
        .route("/register", get(pages::register_form).post(pages::register))
        .route("/me", get(pages::me))
        .route("/me/activate", post(pages::activate))
        .route("/admin", get(pages::admin))
        .route("/admin/entrants", post(pages::admin_add))
        .route("/admin/runs", post(pages::admin_run))
        .layer(DefaultBodyLimit::max(16 << 10))
        .merge(uploads)
        .with_state(app)
}

/// The debounce after a change of active bots, if changes start runs.
pub fn debounce(app: &App) -> Option<Duration> {
    app.competition.runs.debounce_secs.map(Duration::from_secs)
}

/// Whether `dir` is inside the data folder's `runs/` (a path built from
/// request parts is checked before it is read).
pub fn inside(root: &Path, path: &Path) -> bool {
    path.starts_with(root) && !path.components().any(|c| matches!(c, std::path::Component::ParentDir))
}
