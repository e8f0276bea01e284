//! Scrimmages by API and in the browser (what they are:
//! [`crate::scrimmage`]): `POST /api/scrimmages` asks for one, `GET
//! /api/scrimmages` lists one's own, `POST /api/me/allow-scrimmages` sets
//! whether others may play against one's bot; `/me/scrimmages` is the
//! page with the same (it refreshes itself while one waits or plays);
//! `/scrimmages/N/report.html` and `results.json` are a finished one's
//! files (the public copies for its entrant, everything for the
//! organiser).

use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect};
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::json;

use crate::answer::Answer;
use crate::answer::REPORT_POLICY;
use crate::auth::{EntrantCaller, EntrantVisitor, Reader};
use crate::competition::format_time;
use crate::csrf::CsrfForm;
use crate::db::Entrant;
use crate::page::{page, refuse};
use crate::paths::{PUBLIC, scrimmage_dir};
use crate::scrimmage::{Ask, BUILTINS, MAX_OPPONENTS, Scrimmage};
use crate::state::{Failure, Shared};

/// Checks and queues `ask`; wakes the worker.
async fn queue(app: &Shared, who: Entrant, ask: Ask) -> Result<i64, Failure> {
    let id = app.blocking(move |app| crate::scrimmage::ask(app, &who, &ask)).await??;
    app.bell.wake();
    Ok(id)
}

/// `POST /api/scrimmages {"league": K, "rounds": N, "opponents": [...]}`.
pub async fn ask_json(State(app): State<Shared>, EntrantCaller(who): EntrantCaller, Json(ask): Json<Ask>) -> Answer {
    let id = queue(&app, who, ask).await?;
    Ok((StatusCode::ACCEPTED, Json(json!({ "scrimmage": id, "state": "queued" }))).into_response())
}

/// `GET /api/scrimmages`: one's own, newest first.
pub async fn list_json(State(app): State<Shared>, EntrantCaller(who): EntrantCaller) -> Answer {
    let list = app.blocking(move |app| app.db.scrimmages_of(who.id)).await?;
    Ok(Json(list).into_response())
}

/// Whether others may scrimmage against one's bot.
#[derive(Deserialize)]
pub struct Allow {
    pub allow: bool,
}

/// `POST /api/me/allow-scrimmages {"allow": true}`.
pub async fn allow_json(State(app): State<Shared>, EntrantCaller(who): EntrantCaller, Json(a): Json<Allow>) -> Answer {
    app.blocking(move |app| app.db.allow_scrimmages(who.id, a.allow)).await?;
    Ok(Json(json!({ "allow": a.allow })).into_response())
}

/// `GET /me/scrimmages`: the setting, the form and one's scrimmages.
pub async fn page_get(State(app): State<Shared>, visitor: EntrantVisitor) -> Answer {
    scrimmages_page(&app, &visitor, None).await
}

async fn scrimmages_page(app: &Shared, visitor: &EntrantVisitor, note: Option<Markup>) -> Answer {
    let id = visitor.entrant.id;
    let (allow, others, list) = app
        .blocking(move |app| {
            Ok((app.db.allows_scrimmages(id)?, app.db.scrimmage_opponents(id)?, app.db.scrimmages_of(id)?))
        })
        .await?;
    let csrf = &visitor.session.csrf;
    let c = &app.competition;
    // A queued or playing scrimmage: the page looks again by itself, as
    // the coaching's does, and stops once every one has finished.
    let waiting = list.iter().any(|s| s.state == "queued" || s.state == "running");
    let body = html! {
        h1 { "Scrimmages" }
        @if let Some(note) = note { p.error { (note) } }
        p.small { "Your active bot against opponents you choose, on any league's rules, up to " (c.scrimmages.max_rounds)
            " rounds; played after the official runs, one at a time, " (c.scrimmages.per_hour) " an hour at most." }
        form #allow method="post" action="/me/scrimmages/allow" {
            input type="hidden" name="csrf" value=(csrf);
            input type="hidden" name="allow" value=(if allow { "no" } else { "yes" });
            "Others " (if allow { "may" } else { "may not" }) " play scrimmages against your bot. "
            button { (if allow { "Stop allowing it" } else { "Allow it" }) }
        }
        form #scrimmage method="post" action="/me/scrimmages" {
            input type="hidden" name="csrf" value=(csrf);
            label { "League " select name="league" { @for (k, l) in c.leagues.iter().enumerate() { option value=(k + 1) { (l.name) } } } }
            label { "Rounds " input type="number" name="rounds" min="1" max=(c.scrimmages.max_rounds) value=(c.scrimmages.max_rounds.min(5000)); }
            fieldset { legend { "Opponents (1 to " (MAX_OPPONENTS) ")" }
                @for b in BUILTINS { label.opponent { input type="checkbox" name="opponent" value=(format!("builtin:{b}")); " builtin:" (b) } }
                @for o in &others { label.opponent { input type="checkbox" name="opponent" value=(o); " " (o) } }
            }
            button { "Play a scrimmage" }
        }
        h2 { "Your scrimmages" }
        @if list.is_empty() { p { "None yet." } }
        @if waiting { p.small #scrimmage-refresh { "This page refreshes itself until your scrimmage has been played." } }
        @for s in &list { (scrimmage(s)) }
    };
    let mut answer = page("Scrimmages", Some(&visitor.session), body);
    if waiting {
        answer.headers_mut().insert("refresh", HeaderValue::from_static(REFRESH_SECS));
    }
    Ok(answer)
}

/// Seconds between a waiting scrimmage page's looks.
const REFRESH_SECS: &str = "3";

/// One scrimmage: who played, its state, its standings and files.
fn scrimmage(s: &Scrimmage) -> Markup {
    let names: Vec<&str> = s.seats.iter().map(|seat| seat.name.as_str()).collect();
    let rows = s.standings.as_ref().and_then(|v| v.as_array()).cloned().unwrap_or_default();
    html! {
        div.submission.passed id=(format!("scrimmage-{}", s.id)) {
            p { strong { "Scrimmage " (s.id) } " · " (format_time(s.created)) " · league " (s.league) " · " (s.rounds) " rounds · "
                (names.join(", ")) " · " span.state { (s.state) }
                @if let Some(w) = s.waited { " (waited " (w) " s)" } }
            @if let Some(e) = &s.error { pre.verdict { (pitboss_host::text::excerpt(e, 500)) } }
            @if !rows.is_empty() {
                div.scroll { table { thead { tr { th { "#" } th { "Bot" } th { "EV per 100 staked" } th { "Net" } th { "Faults" } th { "" } } }
                    tbody { @for r in &rows { tr { td { (r["rank"]) } td { (pitboss_host::text::excerpt(r["name"].as_str().unwrap_or(""), 40)) }
                        td.num { (format!("{:+.2} ±\u{a0}{:.2}\u{a0}%", r["ev_pct"].as_f64().unwrap_or(0.0), r["ev_ci95_pct"].as_f64().unwrap_or(0.0))) }
                        td.num { (r["net"]) } td.num { (r["faults"]) } td { (r["status"].as_str().unwrap_or("")) } } } } } }
                p { a href=(format!("/scrimmages/{}/report.html", s.id)) { "report" } }
                form.replay method="get" action=(format!("/scrimmages/{}/replay", s.id)) {
                    "Replay: table " input type="number" name="table" min="0" value="0" aria-label="table";
                    " round " input type="number" name="round" min="1" value="1" aria-label="round";
                    input type="hidden" name="session" value="0";
                    " " button { "Replay" }
                }
            }
        }
    }
}

/// `POST /me/scrimmages` (`csrf`, `league`, `rounds`, `opponent` …).
pub async fn page_post(
    State(app): State<Shared>,
    visitor: EntrantVisitor,
    CsrfForm(fields): CsrfForm<Vec<(String, String)>>,
) -> Answer {
    let field = |k: &str| fields.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
    let opponents = fields.iter().filter(|(k, _)| k == "opponent").map(|(_, v)| v.clone()).collect();
    let (Some(league), Some(rounds)) =
        (field("league").and_then(|l| l.parse().ok()), field("rounds").and_then(|r| r.parse().ok()))
    else {
        return Ok(refuse(StatusCode::BAD_REQUEST, "The form needs a league and a number of rounds."));
    };
    match queue(&app, visitor.entrant.clone(), Ask { league, rounds, opponents }).await {
        Ok(_) => Ok(Redirect::to("/me/scrimmages").into_response()),
        Err(f) if f.status.is_client_error() => {
            scrimmages_page(&app, &visitor, Some(html! { (f.text) })).await.map(|mut r| {
                *r.status_mut() = f.status;
                r
            })
        }
        Err(f) => Err(f),
    }
}

/// The setting's form: `csrf`, `allow` (`yes` or `no`).
#[derive(Deserialize)]
pub struct AllowForm {
    pub allow: String,
}

/// `POST /me/scrimmages/allow`.
pub async fn allow_post(
    State(app): State<Shared>,
    visitor: EntrantVisitor,
    CsrfForm(form): CsrfForm<AllowForm>,
) -> Answer {
    let (id, allow) = (visitor.entrant.id, form.allow == "yes");
    app.blocking(move |app| app.db.allow_scrimmages(id, allow)).await?;
    Ok(Redirect::to("/me/scrimmages").into_response())
}

/// `GET /scrimmages/N/FILE` (`report.html`, `results.json`): its entrant
/// gets the public copies, the organiser the full files.
pub async fn file(State(app): State<Shared>, reader: Reader, UrlPath((id, file)): UrlPath<(i64, String)>) -> Answer {
    let kind = match file.as_str() {
        "results.json" => "application/json",
        "report.html" => "text/html; charset=utf-8",
        _ => return Err(Failure::new(StatusCode::NOT_FOUND, "no such file")),
    };
    let owner = match &reader {
        Reader::Entrant(e) => Some(e.id),
        Reader::Organiser => None,
    };
    let bytes = app
        .blocking(move |app| {
            if app.db.scrimmage(id, owner)?.is_none_or(|s| s.state != "done") {
                return Ok(None);
            }
            let dir = scrimmage_dir(&app.dir, id);
            let path = if owner.is_none() { dir.join(&file) } else { dir.join(PUBLIC).join(&file) };
            Ok(std::fs::read(path).ok())
        })
        .await?
        .ok_or_else(|| Failure::new(StatusCode::NOT_FOUND, "no such finished scrimmage of yours"))?;
    let mut response = ([(header::CONTENT_TYPE, kind)], bytes).into_response();
    if kind.starts_with("text/html") {
        response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(REPORT_POLICY));
    }
    Ok(response)
}
