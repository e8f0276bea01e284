//! The HTML pages (maud, so every name and verdict is escaped by
//! construction): the leaderboard, login with a token, an entrant's page
//! (upload form, submissions with verdicts, faults and log lines from the
//! latest run), self-registration with the invite code, and the
//! organiser's page. A login makes a session cookie (HttpOnly,
//! SameSite=Strict); every form that changes something carries the
//! session's CSRF token, checked before anything is done.

use axum::Form;
use axum::body::Bytes;
use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde::Deserialize;

use crate::app::{Failure, Shared, Who, debounce, new_entrant};
use crate::competition::format_time;
use crate::db::{Entrant, Outcome, now};
use crate::worker::Summary;
use crate::{Error, auth};

type Answer = Result<Response, Failure>;

const CSS: &str = include_str!("page.css");

fn layout(title: &str, who: Option<&(Who, String)>, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(CSS)) }
            }
            body {
                nav {
                    a href="/" { "Leaderboard" }
                    @match who {
                        Some((Who::Entrant(e), csrf)) => { a href="/me" { "My bot (" (e.name) ")" } (logout_form(csrf)) }
                        Some((Who::Admin, csrf)) => { a href="/admin" { "Organiser" } (logout_form(csrf)) }
                        None => { a href="/login" { "Log in" } }
                    }
                }
                main { (body) }
            }
        }
    }
}

fn logout_form(csrf: &str) -> Markup {
    html! { form.inline method="post" action="/logout" { input type="hidden" name="csrf" value=(csrf); button { "Log out" } } }
}

fn page(title: &str, who: Option<&(Who, String)>, body: Markup) -> Response {
    Html(layout(title, who, body).into_string()).into_response()
}

fn refuse(status: StatusCode, text: &str) -> Response {
    (status, Html(layout("Refused", None, html! { h1 { "Refused" } p.error { (text) } }).into_string())).into_response()
}

fn csrf_ok(session: &(Who, String), given: &str) -> bool {
    auth::same(&session.1, given)
}

/// `GET /`: the latest run's standings per league and overall, and the
/// runs before it.
pub async fn leaderboard(State(app): State<Shared>, headers: HeaderMap) -> Answer {
    let session = app.session(&headers)?;
    let latest: Option<Summary> = match app.db.latest_done()? {
        Some((_, s)) => Some(serde_json::from_str(&s).map_err(Error::from)?),
        None => None,
    };
    let links = app.competition.public_reports || matches!(session, Some((Who::Admin, _)));
    let runs = app.db.runs(20)?;
    let body = html! {
        h1 { (app.competition.name) }
        @if let Some(deadline) = app.competition.deadline { p { "Submissions close " (format_time(deadline)) "." } }
        @match &latest {
            None => p id="no-run" { "No run has finished yet." },
            Some(s) => {
                p { "Run " (s.run) ", finished " (format_time(s.finished)) ", " (s.bots.len()) " bots." }
                @if s.leagues.len() > 1 { (overall(s)) }
                @for league in &s.leagues { (league_table(s.run, league, links)) }
                p.legend { "EV: net chips per 100 staked, ± its 95 % interval. "
                    "“>”: significantly ahead of the next bot; “≈”: not." }
            }
        }
        h2 { "Runs" }
        div.scroll { table id="runs" { thead { tr { th { "Run" } th { "State" } th { "Why" } th { "Queued" } } }
            tbody { @for r in &runs { tr { td { (r.id) } td { (r.state) } td { (r.reason) } td { (format_time(r.created)) } } } } } }
    };
    Ok(page(&app.competition.name, session.as_ref(), body))
}

fn overall(s: &Summary) -> Markup {
    html! {
        h2 { "Overall" }
        div.scroll { table id="overall" { thead { tr { th { "#" } th { "Entrant" } th { "Mean rank" } } }
            tbody { @for r in &s.overall { tr { td { (r.rank) } td { (r.name) } td { (format!("{:.2}", r.mean_rank)) } } } } } }
    }
}

fn league_table(run: i64, league: &crate::worker::LeagueStandings, links: bool) -> Markup {
    html! {
        h2 { (league.name) }
        p.small { (league.variant) ", " (league.sessions) " session(s) × " (league.rounds) " rounds"
            @if links { " · " a href=(format!("/runs/{run}/{}/report.html", league.folder)) { "report" }
                " · " a href=(format!("/runs/{run}/{}/results.json", league.folder)) { "results.json" } } }
        div.scroll { table.standings { thead { tr { th { "#" } th { "Entrant" } th { "EV %" } th { "" } th { "Net" } th { "Faults" } } }
            tbody { @for r in &league.rows { tr {
                td { (r.rank) " " (r.status) } td.name { (r.name) }
                td.num { (format!("{:+.2} ± {:.2}", r.ev_pct, r.ev_ci95_pct)) } td { (r.mark) }
                td.num { (r.net) } td.num { (r.faults) }
            } } } } }
    }
}

/// `GET /login`.
pub async fn login_form(State(app): State<Shared>) -> Response {
    let body = html! {
        h1 { "Log in to " (app.competition.name) }
        form method="post" action="/login" {
            label for="token" { "Your token" }
            input id="token" type="password" name="token" autocomplete="current-password" required;
            button id="login" { "Log in" }
        }
        @if app.competition.invite_code.is_some() { p { "Have an invite code? " a href="/register" { "Register" } } }
    };
    page("Log in", None, body)
}

#[derive(Deserialize)]
pub struct LoginForm {
    token: String,
}

/// `POST /login`: a token becomes a session cookie.
pub async fn login(State(app): State<Shared>, headers: HeaderMap, Form(form): Form<LoginForm>) -> Answer {
    let Some(who) = app.token_owner(form.token.trim())? else {
        return Ok(refuse(StatusCode::UNAUTHORIZED, "That token is not known here."));
    };
    let id = auth::new_secret("")?;
    let csrf = auth::new_secret("")?;
    let entrant = match &who {
        Who::Entrant(e) => Some(e.id),
        Who::Admin => None,
    };
    app.db.add_session(&auth::hash(&id), entrant, &csrf, now() + auth::SESSION_SECS)?;
    let https = headers.get("x-forwarded-proto").is_some_and(|v| v.as_bytes() == b"https");
    let cookie = format!(
        "{}={id}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}{}",
        auth::COOKIE,
        auth::SESSION_SECS,
        if https { "; Secure" } else { "" }
    );
    let mut response = Redirect::to(if entrant.is_some() { "/me" } else { "/admin" }).into_response();
    let value = HeaderValue::from_str(&cookie).map_err(|e| Error::League(e.to_string()))?;
    response.headers_mut().insert(header::SET_COOKIE, value);
    Ok(response)
}

#[derive(Deserialize)]
pub struct CsrfForm {
    csrf: String,
    #[serde(default)]
    id: Option<i64>,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /logout`.
pub async fn logout(State(app): State<Shared>, headers: HeaderMap, Form(form): Form<CsrfForm>) -> Answer {
    let Some(session) = app.session(&headers)? else { return Ok(Redirect::to("/").into_response()) };
    if !csrf_ok(&session, &form.csrf) {
        return Ok(refuse(StatusCode::FORBIDDEN, "The form's CSRF token is missing or wrong: reload the page."));
    }
    if let Some(id) =
        headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(auth::session_cookie)
    {
        app.db.end_session(&auth::hash(id))?;
    }
    let mut response = Redirect::to("/").into_response();
    let clear = format!("{}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0", auth::COOKIE);
    if let Ok(v) = HeaderValue::from_str(&clear) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(response)
}

/// A browser session: who, and its CSRF token.
type Session = (Who, String);

/// The entrant of a browser session, or the answer to give instead.
fn entrant_session(app: &Shared, headers: &HeaderMap) -> Result<Result<(Session, Entrant), Response>, Failure> {
    match app.session(headers)? {
        Some(s @ (Who::Entrant(_), _)) => {
            let Who::Entrant(e) = &s.0 else { return Ok(Err(Redirect::to("/login").into_response())) };
            let e = e.clone();
            Ok(Ok((s, e)))
        }
        Some((Who::Admin, _)) => Ok(Err(Redirect::to("/admin").into_response())),
        None => Ok(Err(Redirect::to("/login").into_response())),
    }
}

/// `GET /me`: the upload form, one's submissions and verdicts, and one's
/// bot's faults and log lines in the latest run.
pub async fn me(State(app): State<Shared>, headers: HeaderMap) -> Answer {
    let (session, who) = match entrant_session(&app, &headers)? {
        Ok(x) => x,
        Err(r) => return Ok(r),
    };
    let subs = app.db.submissions(who.id)?;
    let own = crate::mine::latest(&app, &who.name)?;
    let faults = own.faults;
    let csrf = session.1.clone();
    let body = html! {
        h1 { (who.name) }
        form id="upload" method="post" action="/me/upload" enctype="multipart/form-data" {
            input type="hidden" name="csrf" value=(csrf);
            label for="bot" { "Upload a bot (.wasm, at most " (app.competition.uploads.max_bytes >> 10) " KiB)" }
            input id="bot" type="file" name="bot" accept=".wasm" required;
            button id="send" { "Upload and check" }
        }
        h2 { "Submissions" }
        @if subs.is_empty() { p { "None yet." } }
        @for s in &subs { (submission(s, &csrf)) }
        h2 { "Faults in the latest run" }
        @if faults.is_empty() { p id="faults" { "None recorded." } }
        @for f in &faults { pre.faults { (serde_json::to_string_pretty(f).unwrap_or_default()) } }
        (logs(&own.logs))
    };
    Ok(page(&who.name, Some(&session), body))
}

/// One's bot's log lines in the latest run's stored hands, per league.
fn logs(leagues: &[serde_json::Value]) -> Markup {
    let lines = |l: &serde_json::Value| l["first"].as_array().cloned().unwrap_or_default();
    html! {
        h2 { "Your bot's log lines in the latest run" }
        @if leagues.iter().all(|l| lines(l).is_empty()) { p id="logs" { "None in the stored hands." } }
        @for l in leagues.iter().filter(|l| !lines(l).is_empty()) {
            p.small { (l["league"].as_str().unwrap_or("")) ": " (l["total"]) " line(s) in the stored hands"
                @if l["total"].as_u64() > Some(crate::mine::SHOWN_LOGS as u64) { ", the first " (crate::mine::SHOWN_LOGS) } }
            pre.logs { @for line in lines(l) {
                "session " (line["session"]) " · table " (line["table"]) " · round " (line["round"]) " · "
                (line["decision"].as_str().unwrap_or("")) ": " (line["text"].as_str().unwrap_or("")) "\n"
            } }
        }
    }
}

fn submission(s: &crate::db::Submission, csrf: &str) -> Markup {
    let class = match s.outcome {
        Outcome::Passed => "passed",
        Outcome::Failed => "failed",
        Outcome::Refused => "refused",
    };
    html! {
        div class=(format!("submission {class}")) id=(format!("sub-{}", s.id)) {
            p { strong { "#" (s.id) " " (s.file_name) } " · " (format_time(s.created)) " · " (s.size) " bytes"
                @if let Some(sha) = &s.sha256 { " · " code { (sha.get(..16).unwrap_or(sha)) "…" } }
                @if s.active { " · " span.active { "ACTIVE" } } }
            pre.verdict { (s.verdict) }
            @if !s.report.is_empty() { details { summary { "Per decision: faults and fuel" } pre { (s.report) } } }
            @if s.outcome == Outcome::Passed && !s.active {
                form method="post" action="/me/activate" { input type="hidden" name="csrf" value=(csrf);
                    input type="hidden" name="id" value=(s.id); button { "Play this one" } }
            }
        }
    }
}

/// `POST /me/upload` (multipart: `csrf`, `bot`).
pub async fn upload(State(app): State<Shared>, headers: HeaderMap, mut form: Multipart) -> Answer {
    let (session, who) = match entrant_session(&app, &headers)? {
        Ok(x) => x,
        Err(r) => return Ok(r),
    };
    let bad = |text: &str| Ok(refuse(StatusCode::BAD_REQUEST, text));
    let (mut csrf, mut file): (Option<String>, Option<(String, Bytes)>) = (None, None);
    loop {
        let field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return bad(&format!("The upload could not be read: {e}")),
        };
        match field.name() {
            Some("csrf") => csrf = field.text().await.ok(),
            Some("bot") => {
                let name = field.file_name().unwrap_or("upload.wasm").to_string();
                match field.bytes().await {
                    Ok(bytes) => file = Some((name, bytes)),
                    Err(e) => return bad(&format!("The upload could not be read: {e}")),
                }
            }
            _ => {}
        }
    }
    if !csrf.is_some_and(|c| csrf_ok(&session, &c)) {
        return Ok(refuse(StatusCode::FORBIDDEN, "The form's CSRF token is missing or wrong: reload the page."));
    }
    let Some((name, bytes)) = file else { return bad("The form had no file.") };
    let verdict = crate::api::judge_upload(&app, who, name, bytes).await?;
    Ok(Redirect::to(&format!("/me#sub-{}", verdict.id)).into_response())
}

/// `POST /me/activate` (`csrf`, `id`).
pub async fn activate(State(app): State<Shared>, headers: HeaderMap, Form(form): Form<CsrfForm>) -> Answer {
    let (session, who) = match entrant_session(&app, &headers)? {
        Ok(x) => x,
        Err(r) => return Ok(r),
    };
    if !csrf_ok(&session, &form.csrf) {
        return Ok(refuse(StatusCode::FORBIDDEN, "The form's CSRF token is missing or wrong: reload the page."));
    }
    if !form.id.is_some_and(|id| app.db.choose(who.id, id).unwrap_or(false)) {
        return Ok(refuse(StatusCode::NOT_FOUND, "No such submission of yours that passed its check."));
    }
    if let Some(d) = debounce(&app) {
        app.bell.changed(d);
    }
    Ok(Redirect::to("/me").into_response())
}

/// The organiser's session, or the answer to give instead.
fn admin_session(app: &Shared, headers: &HeaderMap) -> Result<Result<(Who, String), Response>, Failure> {
    Ok(match app.session(headers)? {
        Some(s @ (Who::Admin, _)) => Ok(s),
        Some(_) => Err(refuse(StatusCode::FORBIDDEN, "Only the organiser may see this page.")),
        None => Err(Redirect::to("/login").into_response()),
    })
}

/// `GET /admin`: entrants, a form to add one, a button to run now, and
/// the runs with their bundles.
pub async fn admin(State(app): State<Shared>, headers: HeaderMap) -> Answer {
    let session = match admin_session(&app, &headers)? {
        Ok(s) => s,
        Err(r) => return Ok(r),
    };
    admin_page(&app, &session, None)
}

fn admin_page(app: &Shared, session: &(Who, String), note: Option<Markup>) -> Result<Response, Failure> {
    let entrants = app.db.entrants()?;
    let runs = app.db.runs(50)?;
    let csrf = &session.1;
    let body = html! {
        h1 { "Organiser" }
        @if let Some(note) = note { div.note { (note) } }
        form method="post" action="/admin/entrants" { input type="hidden" name="csrf" value=(csrf);
            label for="name" { "New entrant" } input id="name" name="name" required; button { "Add" } }
        form method="post" action="/admin/runs" { input type="hidden" name="csrf" value=(csrf); button id="run" { "Run now" } }
        h2 { "Entrants" }
        ul { @for e in &entrants { li { (e.name) } } }
        h2 { "Runs" }
        div.scroll { table { thead { tr { th { "Run" } th { "State" } th { "Why" } th { "" } } }
            tbody { @for r in &runs { tr { td { (r.id) } td { (r.state) @if let Some(e) = &r.error { ": " (e) } } td { (r.reason) }
                td { @if r.state == "done" { a href=(format!("/api/runs/{}/bundle.tar", r.id)) { "bundle" } } } } } } } }
    };
    Ok(page("Organiser", Some(session), body))
}

/// `POST /admin/entrants` (`csrf`, `name`): the new token is shown once.
pub async fn admin_add(State(app): State<Shared>, headers: HeaderMap, Form(form): Form<CsrfForm>) -> Answer {
    let session = match admin_session(&app, &headers)? {
        Ok(s) => s,
        Err(r) => return Ok(r),
    };
    if !csrf_ok(&session, &form.csrf) {
        return Ok(refuse(StatusCode::FORBIDDEN, "The form's CSRF token is missing or wrong: reload the page."));
    }
    let name = form.name.unwrap_or_default();
    let note = match new_entrant(&app.db, &name) {
        Ok(token) => html! { p { "Entrant " (name) "'s token (shown once): " code id="token" { (token) } } },
        Err(e @ (Error::BadName(_) | Error::Taken(_))) => html! { p.error { (e.to_string()) } },
        Err(e) => return Err(e.into()),
    };
    admin_page(&app, &session, Some(note))
}

/// `POST /admin/runs` (`csrf`): queue a run now.
pub async fn admin_run(State(app): State<Shared>, headers: HeaderMap, Form(form): Form<CsrfForm>) -> Answer {
    let session = match admin_session(&app, &headers)? {
        Ok(s) => s,
        Err(r) => return Ok(r),
    };
    if !csrf_ok(&session, &form.csrf) {
        return Ok(refuse(StatusCode::FORBIDDEN, "The form's CSRF token is missing or wrong: reload the page."));
    }
    let id = app.db.queue_run("on demand")?;
    app.bell.wake();
    admin_page(&app, &session, Some(html! { p { "Run " (id) " queued." } }))
}

/// Cookie of the registration form's CSRF token (double submit: the
/// form has no session yet; SameSite=Strict keeps other sites' posts
/// from carrying it).
const FORM_COOKIE: &str = "pitboss_form";

/// `GET /register`: name and invite code (only when the competition has
/// one).
pub async fn register_form(State(app): State<Shared>) -> Answer {
    if app.competition.invite_code.is_none() {
        return Ok(refuse(StatusCode::NOT_FOUND, "This competition has no self-registration."));
    }
    let csrf = auth::new_secret("")?;
    let body = html! {
        h1 { "Register for " (app.competition.name) }
        form method="post" action="/register" {
            input type="hidden" name="csrf" value=(csrf);
            label for="name" { "Your name (1 to 32 letters, digits, - or _)" }
            input id="name" name="name" required maxlength="32";
            label for="invite_code" { "Invite code" }
            input id="invite_code" type="password" name="invite_code" required;
            button id="register" { "Register" }
        }
    };
    let mut response = page("Register", None, body);
    let cookie = format!("{FORM_COOKIE}={csrf}; HttpOnly; SameSite=Strict; Path=/register; Max-Age=3600");
    let value = HeaderValue::from_str(&cookie).map_err(|e| Error::League(e.to_string()))?;
    response.headers_mut().insert(header::SET_COOKIE, value);
    Ok(response)
}

#[derive(Deserialize)]
pub struct RegisterForm {
    csrf: String,
    name: String,
    invite_code: String,
}

/// `POST /register` (`csrf`, `name`, `invite_code`): the new entrant's
/// token, shown once.
pub async fn register(State(app): State<Shared>, headers: HeaderMap, Form(form): Form<RegisterForm>) -> Answer {
    let Some(code) = &app.competition.invite_code else {
        return Ok(refuse(StatusCode::NOT_FOUND, "This competition has no self-registration."));
    };
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';').map(str::trim))
        .find_map(|kv| kv.strip_prefix(FORM_COOKIE)?.strip_prefix('='));
    if !cookie.is_some_and(|c| auth::same(c, &form.csrf)) {
        return Ok(refuse(StatusCode::FORBIDDEN, "The form's CSRF token is missing or wrong: reload the page."));
    }
    if !auth::same(form.invite_code.trim(), code) {
        return Ok(refuse(StatusCode::FORBIDDEN, "Wrong invite code."));
    }
    let name = form.name.trim();
    let body = match new_entrant(&app.db, name) {
        Ok(token) => html! {
            h1 { "Welcome, " (name) }
            p { "Your token, shown only this once: keep it, it is how you log in and submit." }
            p { code id="token" { (token) } }
            p { a href="/login" { "Log in" } }
        },
        Err(e @ (Error::BadName(_) | Error::Taken(_))) => {
            return Ok(refuse(StatusCode::BAD_REQUEST, &e.to_string()));
        }
        Err(e) => return Err(e.into()),
    };
    Ok(page("Registered", None, body))
}
