//! The runs as the handlers share them (blocking): the latest finished
//! run's summary and the recent runs, a run as anyone may see it, the
//! league folders with a report, queueing a run on demand or the final
//! run, and publishing the final run's reports.

use axum::http::StatusCode;

use crate::answer::Failure;
use crate::db::Run;
use crate::error::Error;
use crate::paths::run_dir;
use crate::state::App;
use crate::worker::Summary;

/// The latest finished run's summary and the recent runs (blocking).
pub fn latest_and_runs(app: &App, runs: u32) -> Result<(Option<Summary>, Vec<Run>), Error> {
    let latest = match app.db.latest_done()? {
        Some((_, s)) => Some(serde_json::from_str(&s)?),
        None => None,
    };
    Ok((latest, app.db.runs(runs)?))
}

/// The league folders of finished run `id` that hold a report (blocking).
pub fn reports_of(app: &App, id: i64) -> Vec<String> {
    (1..=app.competition.leagues.len())
        .map(|k| format!("league-{k}"))
        .filter(|l| run_dir(&app.dir, id).join(l).join("report.html").is_file())
        .collect()
}

/// A run as anyone may see it: a failed run's error without the server's
/// paths.
pub fn public_run(app: &App, mut run: Run) -> Run {
    run.error = run.error.map(|e| app.public_text(&e));
    run
}

/// A run as anyone may see it, as JSON: a running run has `progress`
/// (`done` and `total` rounds, `left_secs` once there is a rate).
pub fn run_json(app: &App, run: Run) -> serde_json::Value {
    let progress = app.bell.progress.of(run.id);
    let mut value = serde_json::to_value(public_run(app, run)).unwrap_or_default();
    if let Some(p) = progress {
        value["progress"] = serde_json::json!({ "done": p.done, "total": p.total, "left_secs": p.left_secs() });
    }
    value
}

/// Queues a run on demand, unless the final run has finished.
pub fn queue_unless_frozen(app: &App) -> Result<Option<i64>, Error> {
    match app.db.frozen()? {
        Some(_) => Ok(None),
        None => app.db.queue_run("on demand").map(Some),
    }
}

/// The answer to a run asked for after the final run.
pub fn frozen() -> Failure {
    Failure::new(StatusCode::CONFLICT, "the final run has finished: the standings are frozen")
}

/// Queues the final run: after the deadline (when there is one), once.
pub fn final_run(app: &App) -> Result<Result<i64, Failure>, Error> {
    if let Some(deadline) = app.competition.deadline
        && crate::db::now() <= deadline
    {
        let when = crate::competition::format_time(deadline);
        return Ok(Err(Failure::new(StatusCode::CONFLICT, format!("the final run comes after the deadline ({when})"))));
    }
    match app.db.queue_final_run()? {
        Some(id) => Ok(Ok(id)),
        None => Ok(Err(Failure::new(StatusCode::CONFLICT, "the final run is already queued, running or done"))),
    }
}

/// Publishes the final run's reports to everyone, once it has finished;
/// its id. A second call answers the same and changes nothing. Recorded
/// in the data folder (it survives a restart) and in the server's log.
pub fn publish_final(app: &App) -> Result<Result<i64, Failure>, Error> {
    let Some(id) = app.db.frozen()? else {
        return Ok(Err(Failure::new(StatusCode::CONFLICT, "the final run has not finished: nothing to publish yet")));
    };
    if app.db.published()? != Some(id) {
        app.db.publish(id)?;
        eprintln!("pitboss serve: the organiser published the final run's reports (run {id}) to everyone");
    }
    Ok(Ok(id))
}
