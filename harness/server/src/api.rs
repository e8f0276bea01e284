//! The JSON API, authenticated by `Authorization: Bearer TOKEN` only (a
//! cookie is never accepted here, so no other site can make a browser
//! call it): uploads and their verdicts, one's own submissions and
//! faults, the leaderboard, runs and their files, and the organiser's
//! entrant and run controls.

use std::path::Path;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::app::{Failure, Shared, Who, debounce, new_entrant};
use crate::db::{Entrant, Outcome};
use crate::verdict::{Upload, Verdict, judge};
use crate::worker::{Summary, run_dir};
use crate::{Error, auth};

type Answer = Result<Response, Failure>;

fn unauthorized() -> Failure {
    Failure::new(StatusCode::UNAUTHORIZED, "a valid token is needed: Authorization: Bearer TOKEN")
}

/// The entrant making the request (the organiser is refused: they have
/// no bot).
fn entrant(app: &Shared, headers: &HeaderMap) -> Result<Entrant, Failure> {
    match app.bearer(headers)? {
        Some(Who::Entrant(e)) => Ok(e),
        Some(Who::Admin) => {
            Err(Failure::new(StatusCode::FORBIDDEN, "the organiser's token has no bot; use an entrant's"))
        }
        None => Err(unauthorized()),
    }
}

fn admin(app: &Shared, headers: &HeaderMap) -> Result<(), Failure> {
    match app.bearer(headers)? {
        Some(Who::Admin) => Ok(()),
        Some(Who::Entrant(_)) => Err(Failure::new(StatusCode::FORBIDDEN, "only the organiser may do this")),
        None => Err(unauthorized()),
    }
}

/// Judges an upload off the request threads, at most one check per core
/// at once; the active bots changing queues a run after the debounce.
pub async fn judge_upload(app: &Shared, who: Entrant, file_name: String, bytes: Bytes) -> Result<Verdict, Failure> {
    let permit =
        app.checks.acquire().await.map_err(|_| Failure::new(StatusCode::SERVICE_UNAVAILABLE, "shutting down"))?;
    let worker_app = app.clone();
    let verdict = tokio::task::spawn_blocking(move || {
        let up = Upload { entrant: &who, file_name: &file_name, bytes: &bytes };
        judge(&worker_app.dir, &worker_app.db, &worker_app.competition, &worker_app.checker, &up)
    })
    .await
    .map_err(|e| Error::League(format!("the check stopped: {e}")))??;
    drop(permit);
    if verdict.outcome == Outcome::Passed
        && let Some(d) = debounce(app)
    {
        app.bell.changed(d);
    }
    Ok(verdict)
}

#[derive(Deserialize)]
pub struct UploadQuery {
    name: Option<String>,
}

/// `POST /api/submissions[?name=FILE]`, the module as the raw body:
/// 201 with the verdict when it passed, 422 when it failed or was refused.
pub async fn upload(State(app): State<Shared>, headers: HeaderMap, q: Query<UploadQuery>, body: Bytes) -> Answer {
    let who = entrant(&app, &headers)?;
    let name = q.0.name.unwrap_or_else(|| "upload.wasm".into());
    let verdict = judge_upload(&app, who, name, body).await?;
    let status =
        if verdict.outcome == Outcome::Passed { StatusCode::CREATED } else { StatusCode::UNPROCESSABLE_ENTITY };
    Ok((status, Json(verdict)).into_response())
}

/// `GET /api/submissions`: one's own submissions, newest first.
pub async fn submissions(State(app): State<Shared>, headers: HeaderMap) -> Answer {
    let who = entrant(&app, &headers)?;
    Ok(Json(app.db.submissions(who.id)?).into_response())
}

/// `GET /api/submissions/ID`: one of one's own submissions (another's is
/// "not found", as if it did not exist).
pub async fn submission(State(app): State<Shared>, headers: HeaderMap, UrlPath(id): UrlPath<i64>) -> Answer {
    let who = entrant(&app, &headers)?;
    let found = app.db.submissions(who.id)?.into_iter().find(|s| s.id == id);
    found
        .map(|s| Json(s).into_response())
        .ok_or_else(|| Failure::new(StatusCode::NOT_FOUND, "no such submission of yours"))
}

/// `POST /api/submissions/ID/activate`: play this (passed) submission.
pub async fn activate(State(app): State<Shared>, headers: HeaderMap, UrlPath(id): UrlPath<i64>) -> Answer {
    let who = entrant(&app, &headers)?;
    if !app.db.choose(who.id, id)? {
        return Err(Failure::new(StatusCode::NOT_FOUND, "no such submission of yours that passed its check"));
    }
    if let Some(d) = debounce(&app) {
        app.bell.changed(d);
    }
    Ok(Json(json!({ "active": id })).into_response())
}

/// `GET /api/me`: one's name, active submission, and one's bot's faults
/// and log lines in the latest run (see [`crate::mine`]).
pub async fn me(State(app): State<Shared>, headers: HeaderMap) -> Answer {
    let who = entrant(&app, &headers)?;
    let active = app.db.active_submission(who.id)?;
    let own = crate::mine::latest(&app, &who.name)?;
    let active = active.map(|(id, sha)| json!({"id": id, "sha256": sha}));
    Ok(Json(json!({ "name": who.name, "active": active, "faults": own.faults, "logs": own.logs })).into_response())
}

/// `GET /api/leaderboard`: the latest finished run's standings, per
/// league and overall, and the recent runs. Public.
pub async fn leaderboard(State(app): State<Shared>) -> Answer {
    let latest: Option<Summary> = match app.db.latest_done()? {
        Some((_, s)) => Some(serde_json::from_str(&s).map_err(Error::from)?),
        None => None,
    };
    let runs = app.db.runs(50)?;
    Ok(Json(json!({ "competition": app.competition.name, "latest": latest, "runs": runs })).into_response())
}

/// `GET /api/runs`: recent runs. Public.
pub async fn runs(State(app): State<Shared>) -> Answer {
    Ok(Json(app.db.runs(50)?).into_response())
}

/// `POST /api/runs`: the organiser queues a run now.
pub async fn start_run(State(app): State<Shared>, headers: HeaderMap) -> Answer {
    admin(&app, &headers)?;
    if !app.competition.runs.on_demand {
        return Err(Failure::new(StatusCode::CONFLICT, "this competition runs only on its schedule"));
    }
    let id = app.db.queue_run("on demand")?;
    app.bell.wake();
    Ok((StatusCode::ACCEPTED, Json(json!({ "run": id }))).into_response())
}

#[derive(Deserialize)]
pub struct NewEntrant {
    name: String,
    #[serde(default)]
    invite_code: Option<String>,
}

/// `POST /api/entrants {"name": …}`: the organiser registers an entrant;
/// the answer holds their token (shown once).
pub async fn add_entrant(State(app): State<Shared>, headers: HeaderMap, Json(body): Json<NewEntrant>) -> Answer {
    admin(&app, &headers)?;
    register_name(&app, &body.name)
}

/// `POST /api/register {"name": …, "invite_code": …}`: self-registration
/// with the competition's invite code.
pub async fn register(State(app): State<Shared>, Json(body): Json<NewEntrant>) -> Answer {
    let Some(code) = &app.competition.invite_code else {
        return Err(Failure::new(StatusCode::FORBIDDEN, "this competition has no self-registration"));
    };
    if !body.invite_code.as_deref().is_some_and(|c| auth::same(c, code)) {
        return Err(Failure::new(StatusCode::FORBIDDEN, "wrong invite code"));
    }
    register_name(&app, &body.name)
}

fn register_name(app: &Shared, name: &str) -> Answer {
    match new_entrant(&app.db, name) {
        Ok(token) => Ok((StatusCode::CREATED, Json(json!({ "name": name, "token": token }))).into_response()),
        Err(e @ (Error::BadName(_) | Error::Taken(_))) => Err(Failure::new(StatusCode::BAD_REQUEST, e.to_string())),
        Err(e) => Err(e.into()),
    }
}

/// Whether this request may read runs' results and reports: anyone when
/// the competition's reports are public, else the organiser (by token or
/// session).
fn may_read_reports(app: &Shared, headers: &HeaderMap) -> Result<bool, Failure> {
    if app.competition.public_reports {
        return Ok(true);
    }
    let admin_session = matches!(app.session(headers)?, Some((Who::Admin, _)));
    Ok(admin_session || matches!(app.bearer(headers)?, Some(Who::Admin)))
}

/// `GET /runs/ID/league-K/(results.json|report.html|league.toml)`.
pub async fn run_file(
    State(app): State<Shared>,
    headers: HeaderMap,
    UrlPath((id, league, file)): UrlPath<(i64, String, String)>,
) -> Answer {
    if !may_read_reports(&app, &headers)? {
        return Err(Failure::new(StatusCode::FORBIDDEN, "this competition's reports are for the organiser"));
    }
    let kind = match file.as_str() {
        "results.json" => "application/json",
        "report.html" => "text/html; charset=utf-8",
        "league.toml" => "text/plain; charset=utf-8",
        _ => return Err(Failure::new(StatusCode::NOT_FOUND, "no such file")),
    };
    let well_formed =
        league.strip_prefix("league-").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if !well_formed || app.db.run_state(id)?.as_deref() != Some("done") {
        return Err(Failure::new(StatusCode::NOT_FOUND, "no such finished run"));
    }
    let path = run_dir(&app.dir, id).join(&league).join(&file);
    let bytes = tokio::task::spawn_blocking(move || std::fs::read(path))
        .await
        .map_err(|e| Error::League(e.to_string()))?
        .map_err(|_| Failure::new(StatusCode::NOT_FOUND, "no such file"))?;
    Ok(([(header::CONTENT_TYPE, kind)], bytes).into_response())
}

/// `GET /api/runs/ID/bundle.tar`: the organiser downloads a finished run
/// (league files, bots, results, reports) as `run-ID/league-K/…`;
/// `pitboss verify run-ID/league-K/results.json` re-runs it.
pub async fn bundle(State(app): State<Shared>, headers: HeaderMap, UrlPath(id): UrlPath<i64>) -> Answer {
    // The organiser's page links here: its session cookie counts too.
    if !matches!(app.session(&headers)?, Some((Who::Admin, _))) {
        admin(&app, &headers)?;
    }
    if app.db.run_state(id)?.as_deref() != Some("done") {
        return Err(Failure::new(StatusCode::NOT_FOUND, "no such finished run"));
    }
    let dir = run_dir(&app.dir, id);
    let tar = tokio::task::spawn_blocking(move || tar_folder(&dir, &format!("run-{id}")))
        .await
        .map_err(|e| Error::League(format!("the bundle stopped: {e}")))??;
    let disposition = format!("attachment; filename=\"run-{id}.tar\"");
    Ok((
        [(header::CONTENT_TYPE, "application/x-tar".to_string()), (header::CONTENT_DISPOSITION, disposition)],
        Body::from(tar),
    )
        .into_response())
}

/// A folder as an uncompressed tar, under `top/`.
fn tar_folder(dir: &Path, top: &str) -> Result<Vec<u8>, Error> {
    let mut builder = tar::Builder::new(Vec::new());
    builder.follow_symlinks(false);
    builder.append_dir_all(top, dir)?;
    Ok(builder.into_inner()?)
}
