//! The JSON API, authenticated by `Authorization: Bearer TOKEN` only (a
//! cookie is never accepted here, so no other site can make a browser
//! call it): uploads and their verdicts, one's own submissions and
//! faults, the leaderboard, runs and their files, and the organiser's
//! entrant and run controls. Who may call a handler is its extractor
//! ([`crate::auth`]); its database and file work runs off the async
//! threads ([`crate::state::App::blocking`]).

use std::path::Path;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use serde::Deserialize;
use serde_json::json;

use crate::answer::{Answer, REPORT_POLICY};
use crate::auth;
use crate::auth::{AdminCaller, Client, EntrantCaller, IsOrganiser, Reader};
use crate::db::Outcome;
use crate::entrants::{self, Action, refused_registration};
use crate::error::Error;
use crate::grades::{csv_download, csv_field, grades_csv};
use crate::paths::{PUBLIC, league_folder, run_dir};
use crate::runs::{final_run, frozen, latest_and_runs, publish_final, queue_unless_frozen, run_json};
use crate::state::{Failure, Shared};
use crate::uploads::{ApiUpload, judge_upload};

#[derive(Deserialize)]
pub struct UploadQuery {
    name: Option<String>,
}

/// `POST /api/submissions[?name=FILE]`, the module as the raw body:
/// 201 with the verdict when it passed, 422 when it failed or was refused.
/// The token and the upload slot are settled before the body is read.
pub async fn upload(State(app): State<Shared>, up: ApiUpload, q: Query<UploadQuery>, body: Bytes) -> Answer {
    let name = q.0.name.unwrap_or_else(|| "upload.wasm".into());
    let verdict = judge_upload(&app, up.entrant, up.slot, name, body).await?;
    let status =
        if verdict.outcome == Outcome::Passed { StatusCode::CREATED } else { StatusCode::UNPROCESSABLE_ENTITY };
    Ok((status, Json(verdict)).into_response())
}

/// `GET /api/submissions`: one's own submissions, newest first.
pub async fn submissions(State(app): State<Shared>, EntrantCaller(who): EntrantCaller) -> Answer {
    let subs = app.blocking(move |app| app.db.submissions(who.id)).await?;
    Ok(Json(subs).into_response())
}

/// `GET /api/submissions/ID`: one of one's own submissions (another's is
/// "not found", as if it did not exist).
pub async fn submission(
    State(app): State<Shared>,
    EntrantCaller(who): EntrantCaller,
    UrlPath(id): UrlPath<i64>,
) -> Answer {
    let found = app.blocking(move |app| Ok(app.db.submissions(who.id)?.into_iter().find(|s| s.id == id))).await?;
    found
        .map(|s| Json(s).into_response())
        .ok_or_else(|| Failure::new(StatusCode::NOT_FOUND, "no such submission of yours"))
}

/// `POST /api/submissions/ID/activate`: play this (passed) submission.
pub async fn activate(
    State(app): State<Shared>,
    EntrantCaller(who): EntrantCaller,
    UrlPath(id): UrlPath<i64>,
) -> Answer {
    if !app.blocking(move |app| app.db.choose(who.id, id)).await? {
        return Err(Failure::new(StatusCode::NOT_FOUND, "no such submission of yours that passed its check"));
    }
    app.changed();
    Ok(Json(json!({ "active": id })).into_response())
}

/// `GET /api/me`: one's name, active submission, and one's bot's faults
/// and log lines in the latest run (see [`crate::mine`]).
pub async fn me(State(app): State<Shared>, EntrantCaller(who): EntrantCaller) -> Answer {
    let name = who.name.clone();
    let (active, own) = app
        .blocking(move |app| {
            let active = app.db.active_submission(who.id)?;
            Ok((active, crate::mine::latest(&app.dir, &app.db, &who)?))
        })
        .await?;
    let active = active.map(|(id, sha)| json!({"id": id, "sha256": sha}));
    let answer =
        json!({ "name": name, "active": active, "status": own.status, "faults": own.faults, "logs": own.logs });
    Ok(Json(answer).into_response())
}

/// `GET /api/leaderboard`: the latest finished run's standings, per
/// league and overall, and the recent runs. Public.
pub async fn leaderboard(State(app): State<Shared>) -> Answer {
    let (latest, runs) = app.blocking(|app| latest_and_runs(app, 50)).await?;
    let runs: Vec<_> = runs.into_iter().map(|r| run_json(&app, r)).collect();
    let frozen = app.blocking(|app| app.db.frozen()).await?;
    Ok(Json(json!({ "competition": app.competition.name, "final": frozen, "latest": latest, "runs": runs }))
        .into_response())
}

/// `GET /api/leaderboard.csv`: the latest finished run's standings, one
/// row per league and bot, for a spreadsheet (the luck-adjusted EV's
/// fields empty where a league measures none). Public.
pub async fn leaderboard_csv(State(app): State<Shared>) -> Answer {
    let (latest, _) = app.blocking(|app| latest_and_runs(app, 1)).await?;
    let mut csv =
        String::from("run,league,rank,entrant,status,net,ev_pct,ev_ci95_pct,faults,luck_ev_pct,luck_ci95_pct\n");
    if let Some(s) = &latest {
        for league in &s.leagues {
            for r in &league.rows {
                let fields = [
                    s.run.to_string(),
                    csv_field(&league.name),
                    r.rank.to_string(),
                    csv_field(&r.name),
                    csv_field(&r.status),
                    r.net.to_string(),
                    format!("{:.4}", r.ev_pct),
                    format!("{:.4}", r.ev_ci95_pct),
                    r.faults.to_string(),
                    // Empty where the league measures no luck-adjusted EV.
                    r.luck_ev_pct.map_or_else(String::new, |v| format!("{v:.4}")),
                    r.luck_ci95_pct.map_or_else(String::new, |v| format!("{v:.4}")),
                ];
                csv.push_str(&fields.join(","));
                csv.push('\n');
            }
        }
    }
    let disposition = "attachment; filename=\"standings.csv\"";
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8"), (header::CONTENT_DISPOSITION, disposition)], csv)
        .into_response())
}

/// `GET /api/grades.csv`: the organiser's grades export, one row per
/// registered entrant ([`crate::grades`]). The organiser's alone: it
/// names everyone registered.
pub async fn grades(State(app): State<Shared>, _: AdminCaller) -> Answer {
    Ok(csv_download("grades.csv", app.blocking(grades_csv).await?))
}

/// `GET /api/runs`: recent runs, a running one with its progress. Public.
pub async fn runs(State(app): State<Shared>) -> Answer {
    let runs = app.blocking(|app| app.db.runs(50)).await?;
    let runs: Vec<_> = runs.into_iter().map(|r| run_json(&app, r)).collect();
    Ok(Json(runs).into_response())
}

/// `POST /api/runs`: the organiser queues a run now.
pub async fn start_run(State(app): State<Shared>, _: AdminCaller) -> Answer {
    if !app.competition.runs.on_demand {
        return Err(Failure::new(StatusCode::CONFLICT, "this competition runs only on its schedule"));
    }
    let Some(id) = app.blocking(queue_unless_frozen).await? else { return Err(frozen()) };
    app.bell.wake();
    Ok((StatusCode::ACCEPTED, Json(json!({ "run": id }))).into_response())
}

/// `POST /api/runs/final`: the organiser queues the final run; once it
/// has finished the leaderboard shows it for good and no run follows.
pub async fn start_final_run(State(app): State<Shared>, _: AdminCaller) -> Answer {
    let id = app.blocking(final_run).await??;
    app.bell.wake();
    Ok((StatusCode::ACCEPTED, Json(json!({ "run": id, "final": true }))).into_response())
}

#[derive(Deserialize)]
pub struct NewEntrant {
    name: String,
    #[serde(default)]
    invite_code: Option<String>,
}

/// `GET /api/entrants`: the organiser's list: name, disabled, active
/// submission.
pub async fn entrants(State(app): State<Shared>, _: AdminCaller) -> Answer {
    let list = app
        .blocking(|app| {
            let mut out = Vec::new();
            let seen = app.db.last_seen()?;
            for e in app.db.entrants()? {
                let active = app.db.active_submission(e.id)?.map(|(id, sha)| json!({"id": id, "sha256": sha}));
                let last_seen = seen.get(&e.id);
                out.push(json!({ "name": e.name, "disabled": e.disabled, "active": active, "last_seen": last_seen }));
            }
            Ok(out)
        })
        .await?;
    Ok(Json(list).into_response())
}

/// `POST /api/entrants {"name": …}`: the organiser registers an entrant;
/// the answer holds their token (shown once).
pub async fn add_entrant(State(app): State<Shared>, _: AdminCaller, Json(body): Json<NewEntrant>) -> Answer {
    register_name(&app, body.name).await
}

/// `POST /api/register {"name": …, "invite_code": …}`: self-registration
/// with the competition's invite code, at most `registrations_per_hour`
/// an address (with the right code); wrong codes count as wrong tokens.
pub async fn register(State(app): State<Shared>, Client(ip): Client, Json(body): Json<NewEntrant>) -> Answer {
    let Some(code) = &app.competition.invite_code else {
        return Err(Failure::new(StatusCode::FORBIDDEN, "this competition has no self-registration"));
    };
    if !body.invite_code.as_deref().is_some_and(|c| auth::same(c, code)) {
        return Err(app.guards.wrong_secret(ip, Failure::new(StatusCode::FORBIDDEN, "wrong invite code")));
    }
    app.guards.register(ip)?;
    register_name(&app, body.name).await
}

async fn register_name(app: &Shared, name: String) -> Answer {
    let shown = name.clone();
    let max = app.competition.max_entrants;
    match app.blocking(move |app| Ok(entrants::register(&app.db, &name, max))).await? {
        Ok(token) => Ok((StatusCode::CREATED, Json(json!({ "name": shown, "token": token }))).into_response()),
        Err(e) => match refused_registration(&e) {
            Some(status) => Err(Failure::new(status, e.to_string())),
            None => Err(e.into()),
        },
    }
}

/// `DELETE /api/entrants/NAME`: removes an entrant, their submissions
/// and modules (finished runs keep theirs).
pub async fn remove_entrant(State(app): State<Shared>, _: AdminCaller, UrlPath(name): UrlPath<String>) -> Answer {
    manage(&app, name, Action::Remove).await
}

/// `POST /api/entrants/NAME/disable`: their token stops working and their
/// bot plays no more runs.
pub async fn disable_entrant(State(app): State<Shared>, _: AdminCaller, UrlPath(name): UrlPath<String>) -> Answer {
    manage(&app, name, Action::Disable).await
}

/// `POST /api/entrants/NAME/enable`.
pub async fn enable_entrant(State(app): State<Shared>, _: AdminCaller, UrlPath(name): UrlPath<String>) -> Answer {
    manage(&app, name, Action::Enable).await
}

/// `POST /api/entrants/NAME/token`: a new token (shown once); the old one
/// and the entrant's sessions stop working.
pub async fn rotate_token(State(app): State<Shared>, _: AdminCaller, UrlPath(name): UrlPath<String>) -> Answer {
    manage(&app, name, Action::NewToken).await
}

async fn manage(app: &Shared, name: String, action: Action) -> Answer {
    match app.blocking(move |app| entrants::manage(app, &name, action)).await? {
        None => Err(Failure::new(StatusCode::NOT_FOUND, "no such entrant")),
        Some((e, token)) => {
            let mut answer = json!({ "name": e.name, "done": format!("{action:?}").to_lowercase() });
            if let Some(token) = token {
                answer["token"] = json!(token);
            }
            Ok(Json(answer).into_response())
        }
    }
}

/// `POST /api/runs/final/publish`: the organiser publishes the finished
/// final run's reports to everyone (409 before it has finished); the
/// same answer again when they are published already.
pub async fn publish(State(app): State<Shared>, _: AdminCaller) -> Answer {
    let id = app.blocking(publish_final).await??;
    Ok(Json(json!({ "run": id, "published": true })).into_response())
}

/// `GET /runs/ID/league-K/(results.json|report.html|league.toml)`: the
/// organiser gets the run's own files; anyone else, when the
/// competition's reports are public or the organiser published this
/// run, the public copies (no log lines). The league file is no secret:
/// any signed-in entrant gets it (the coach's commands and `mine.tar`
/// name it) whether reports are public or not.
pub async fn run_file(
    State(app): State<Shared>,
    reader: Result<Reader, Failure>,
    UrlPath((id, league, file)): UrlPath<(i64, String, String)>,
) -> Answer {
    let organiser = matches!(reader, Ok(Reader::Organiser));
    let entrants_too = reader.is_ok() && file == "league.toml";
    if !organiser && !entrants_too && !app.blocking(move |app| app.reports_public(id)).await? {
        return Err(Failure::new(StatusCode::FORBIDDEN, "this competition's reports are for the organiser"));
    }
    let kind = match file.as_str() {
        "results.json" => "application/json",
        "report.html" => "text/html; charset=utf-8",
        "league.toml" => "text/plain; charset=utf-8",
        _ => return Err(Failure::new(StatusCode::NOT_FOUND, "no such file")),
    };
    if !league_folder(&league) {
        return Err(Failure::new(StatusCode::NOT_FOUND, "no such finished run"));
    }
    let folder = run_dir(&app.dir, id).join(&league);
    let path = if organiser || file == "league.toml" { folder.join(&file) } else { folder.join(PUBLIC).join(&file) };
    let bytes = app
        .blocking(move |app| {
            if app.db.run_state(id)?.as_deref() != Some("done") {
                return Ok(None);
            }
            Ok(std::fs::read(path).ok())
        })
        .await?
        .ok_or_else(|| Failure::new(StatusCode::NOT_FOUND, "no such file of a finished run"))?;
    let mut response = ([(header::CONTENT_TYPE, kind)], bytes).into_response();
    if file == "report.html" {
        response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(REPORT_POLICY));
    }
    Ok(response)
}

/// `GET /api/runs/ID/bundle.tar`: the organiser (by token or session)
/// downloads a finished run (league files, bots, results, reports) as
/// `run-ID/league-K/…`; `pitboss verify run-ID/league-K/results.json`
/// re-runs it.
pub async fn bundle(
    State(app): State<Shared>,
    IsOrganiser(organiser): IsOrganiser,
    UrlPath(id): UrlPath<i64>,
) -> Answer {
    if !organiser {
        return Err(Failure::new(StatusCode::FORBIDDEN, "only the organiser may download a run"));
    }
    let tar = app
        .blocking(move |app| {
            if app.db.run_state(id)?.as_deref() != Some("done") {
                return Ok(None);
            }
            tar_folder(&run_dir(&app.dir, id), &format!("run-{id}")).map(Some)
        })
        .await?
        .ok_or_else(|| Failure::new(StatusCode::NOT_FOUND, "no such finished run"))?;
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
