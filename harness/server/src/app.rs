//! Starting the server: the data folder made private and cleaned of what
//! a kill left behind, the admin token at first start, the entrants the
//! competition file lists, the worker, and the listener ([`crate::net`])
//! with the routes ([`crate::routes`]) on a tokio runtime until SIGTERM or
//! Ctrl-C (then graceful: no new connections, requests in flight
//! answered, the worker stopped).
//!
//! **Invariant:** everything the server writes is its own user's only:
//! the process's umask is `077` from the start, so the data folder is
//! `0700` and every file in it `0600` (an older folder is tightened at
//! start).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::competition;
use crate::data::{Options, data_folder, make_private, open, say};
use crate::db::Db;
use crate::error::Error;
use crate::guards::Guards;
use crate::plans::Checker;
use crate::state::{App, Bell};
use crate::{entrants, net, routes, store, worker};

/// Descriptors kept for everything but connections (database, modules,
/// runs, the listener).
const SPARE_FILES: u64 = 128;

/// `pitboss serve --add-entrant NAME`: registers an entrant in the data
/// folder and returns their token.
pub fn add_entrant(options: &Options, name: &str) -> Result<String, Error> {
    let options = &Options { data: data_folder(&options.data)?, ..options.clone() };
    let competition = competition::read(&options.competition)?;
    let (db, _) = open(options, &competition)?;
    entrants::register(&db, name, competition.max_entrants)
}

/// What a kill left behind, deleted at start: modules no passed
/// submission names, every folder in `runs/` but those of finished runs
/// (runs that never finished, import staging folders); older files made
/// private.
fn clean(dir: &Path, db: &Db) -> Result<(), Error> {
    let removed = store::sweep(dir, db)?;
    if removed > 0 {
        eprintln!("pitboss serve: removed {removed} module file(s) no passed submission names");
    }
    if let Ok(entries) = std::fs::read_dir(crate::paths::runs(dir)) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let finished = match name.parse::<i64>() {
                Ok(id) => db.run_state(id)?.as_deref() == Some("done"),
                // Import staging folders and anything else.
                Err(_) => false,
            };
            if !finished && entry.file_type()?.is_dir() {
                std::fs::remove_dir_all(entry.path())?;
            } else if !finished {
                std::fs::remove_file(entry.path())?;
            }
        }
    }
    if let Ok(entries) = std::fs::read_dir(crate::paths::modules(dir)) {
        make_private(&crate::paths::modules(dir), 0o700)?;
        for entry in entries.flatten() {
            make_private(&entry.path(), 0o600)?;
        }
    }
    Ok(())
}

/// Raises the open-files limit to what `max_connections` needs, or says
/// which setting to lower.
fn enough_files(max_connections: u64) -> Result<(), Error> {
    let need = max_connections + SPARE_FILES;
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read and write the struct we own.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Ok(());
    }
    if limit.rlim_cur >= need {
        return Ok(());
    }
    if limit.rlim_max >= need {
        let raised = libc::rlimit { rlim_cur: need, rlim_max: limit.rlim_max };
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            return Ok(());
        }
    }
    Err(Error::Competition(format!(
        "[server] max_connections = {max_connections} needs {need} open files, but this process may open at most {}: \
         lower max_connections or raise the limit (ulimit -n)",
        limit.rlim_max
    )))
}

/// Runs the server until SIGTERM or Ctrl-C.
pub fn serve(options: &Options) -> Result<(), Error> {
    let options = &Options { data: data_folder(&options.data)?, ..options.clone() };
    let competition = Arc::new(competition::read(&options.competition)?);
    enough_files(competition.server.max_connections)?;
    for warning in competition.language_warnings() {
        eprintln!("pitboss serve: warning: {warning}");
    }
    let (db, admin_hash) = open(options, &competition)?;
    clean(&options.data, &db)?;
    crate::verdict::STARTED.get_or_init(crate::db::now);
    let db = Arc::new(db);
    let sandbox = pitboss_league::sandbox().map_err(Error::Sandbox)?;
    if let Some(why) = pitboss_league::cache_warning(&sandbox) {
        eprintln!("pitboss serve: warning: {why}");
    }
    let dir = options.data.clone();
    let checker = Checker::new(&dir, &competition, &sandbox)?;
    // The binary `/download` serves, hashed once now.
    if let Err(why) = crate::download::binary() {
        eprintln!("pitboss serve: warning: /download cannot offer this binary: {why}");
    }
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
        guards: Arc::new(Guards::new(&competition.server, cores)),
        competition,
        checker,
        bell: bell.clone(),
        modules: store::Checking::default(),
        admin_hash,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let worker = worker::start(work)?;
    runtime.spawn(crate::scores::score_unscored(app.clone()));
    let served = runtime.block_on(listen(app, &options.listen));
    bell.stop();
    // A run in progress is not waited for: it is redone at the next start.
    if worker.is_finished() {
        let _ = worker.join();
    }
    // Checks still running on blocking threads are not waited for either.
    runtime.shutdown_timeout(Duration::from_secs(1));
    served
}

async fn listen(app: Arc<App>, addr: &str) -> Result<(), Error> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local: SocketAddr = listener.local_addr()?;
    say(&format!("listening on http://{local}"));
    let guards = app.guards.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(60));
        loop {
            every.tick().await;
            guards.prune();
        }
    });
    let policy = app.competition.server;
    net::serve(listener, routes::routes(app), &policy, shutdown()).await;
    say("pitboss serve: stopped");
    Ok(())
}

/// Resolves on SIGTERM or Ctrl-C.
async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}
