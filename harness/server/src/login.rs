//! Logging in, out and registering in the browser. A login makes a
//! session cookie (HttpOnly, SameSite=Strict). The login and registration
//! forms have no session yet, so they carry a CSRF token that must match
//! a cookie set with the form (double submit), and their posts must come
//! from this server's own pages (`Origin`), both checked by the extractor
//! [`crate::csrf::FreshForm`]; failed attempts are
//! rate-limited per address and a wrong token or invite code counts
//! against it; a right token or code is never refused for what others at
//! the address did (registrations with the right code are counted).

use std::net::IpAddr;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;

use crate::answer::Answer;
use crate::auth::{self, Client, Session, Visitor};
use crate::csrf::{CsrfForm, FreshForm, with_form_token};
use crate::db::now;
use crate::entrants::{self, refused_registration};
use crate::page::{PageForm, page, refuse};
use crate::state::{Failure, Shared, Who};
use crate::{copy, editor};
use pitboss_host::lang::Lang;

/// `GET /login`.
pub async fn login_form(State(app): State<Shared>) -> Answer {
    with_form_token(|csrf| {
        let body = html! {
            h1 { "Log in to " (app.competition.name) }
            form method="post" action="/login" {
                input type="hidden" name="csrf" value=(csrf);
                label for="token" { "Your token" }
                input id="token" type="password" name="token" autocomplete="current-password" required;
                button id="login" { "Log in" }
            }
            @if app.competition.invite_code.is_some() { p { "Have an invite code? " a href="/register" { "Register" } } }
        };
        page("Log in", None, body)
    })
}

#[derive(Deserialize)]
pub struct LoginForm {
    token: String,
}

/// `POST /login` (`csrf`, `token`): a token becomes a session cookie.
pub async fn login(
    State(app): State<Shared>,
    Client(ip): Client,
    headers: HeaderMap,
    FreshForm(form): FreshForm<LoginForm>,
) -> Answer {
    // Only attempts that fail count against the address (a forged form
    // too, [`FreshForm`]): a right token logs in whatever others at the
    // address did.
    let token = form.token.trim().to_string();
    let who = match app.blocking(move |app| app.token_owner(&token)).await? {
        None => {
            app.guards.login(ip)?;
            return Ok(wrong(&app, ip, StatusCode::UNAUTHORIZED, "That token is not known here."));
        }
        Some(Who::Entrant(e)) if e.disabled => {
            return Ok(refuse(StatusCode::FORBIDDEN, "The organiser has disabled this entrant."));
        }
        Some(who) => who,
    };
    let admin = matches!(who, Who::Admin);
    let (_, cookie) = new_session(&app, who, &headers).await?;
    let mut response = Redirect::to(if admin { "/admin" } else { "/me" }).into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    Ok(response)
}

/// A new browser session for `who` (logging in, or just registered): the
/// session, for the page's navigation, and its cookie (`Secure` behind
/// a proxy that says it serves HTTPS).
async fn new_session(app: &Shared, who: Who, headers: &HeaderMap) -> Result<(Session, HeaderValue), Failure> {
    let id = auth::new_secret("")?;
    let csrf = auth::new_secret("")?;
    let entrant = match &who {
        Who::Entrant(e) => Some(e.id),
        Who::Admin => None,
    };
    let (id_hash, kept) = (auth::hash(&id), csrf.clone());
    app.blocking(move |app| app.db.add_session(&id_hash, entrant, &kept, now() + auth::SESSION_SECS)).await?;
    let https = headers.get("x-forwarded-proto").is_some_and(|v| v.as_bytes() == b"https");
    let cookie = format!(
        "{}={id}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}{}",
        auth::COOKIE,
        auth::SESSION_SECS,
        if https { "; Secure" } else { "" }
    );
    let cookie =
        HeaderValue::from_str(&cookie).map_err(|e| Failure::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok((Session { who, csrf, id }, cookie))
}

/// A wrong secret from `ip`: the page saying so with `status`, or 429
/// once it has sent too many.
fn wrong(app: &Shared, ip: IpAddr, status: StatusCode, text: &str) -> Response {
    let failure = app.guards.wrong_secret(ip, Failure::new(status, text));
    if failure.status == StatusCode::TOO_MANY_REQUESTS {
        return failure.into_response();
    }
    refuse(failure.status, text)
}

/// `POST /logout` (`csrf`).
pub async fn logout(State(app): State<Shared>, Visitor(session): Visitor, _: CsrfForm<PageForm>) -> Answer {
    let Some(session) = session else { return Ok(Redirect::to("/").into_response()) };
    let id_hash = auth::hash(&session.id);
    app.blocking(move |app| app.db.end_session(&id_hash)).await?;
    let mut response = Redirect::to("/").into_response();
    let clear = format!("{}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0", auth::COOKIE);
    if let Ok(v) = HeaderValue::from_str(&clear) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(response)
}

/// `GET /register`: name and invite code (only when the competition has
/// one).
pub async fn register_form(State(app): State<Shared>) -> Answer {
    if app.competition.invite_code.is_none() {
        return Ok(refuse(StatusCode::NOT_FOUND, "This competition has no self-registration."));
    }
    with_form_token(|csrf| {
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
        page("Register", None, body)
    })
}

#[derive(Deserialize)]
pub struct RegisterForm {
    name: String,
    invite_code: String,
}

/// `POST /register` (`csrf`, `name`, `invite_code`): the new entrant,
/// logged in (a session cookie, as [`login`] sets), and their token,
/// shown only this once with a Copy button and the `pitboss submit` line
/// that uses it (with this server's address as the browser reached it).
pub async fn register(
    State(app): State<Shared>,
    Client(ip): Client,
    headers: HeaderMap,
    FreshForm(form): FreshForm<RegisterForm>,
) -> Answer {
    let Some(code) = &app.competition.invite_code else {
        return Ok(refuse(StatusCode::NOT_FOUND, "This competition has no self-registration."));
    };
    if !auth::same(form.invite_code.trim(), code) {
        return Ok(wrong(&app, ip, StatusCode::FORBIDDEN, "Wrong invite code."));
    }
    app.guards.register(ip)?;
    let name = form.name.trim().to_string();
    let max = app.competition.max_entrants;
    let token = match app.blocking(move |app| Ok(entrants::register(&app.db, &name, max))).await? {
        Ok(token) => token,
        Err(e) => match refused_registration(&e) {
            Some(status) => return Ok(refuse(status, &e.to_string())),
            None => return Err(e.into()),
        },
    };
    let owner = token.clone();
    let Some(who) = app.blocking(move |app| app.token_owner(&owner)).await? else {
        return Err(Failure::new(StatusCode::INTERNAL_SERVER_ERROR, "a new entrant's token is not known"));
    };
    let (session, cookie) = new_session(&app, who, &headers).await?;
    let mut response = editor::with_script(page("Registered", Some(&session), welcome(&session, &token, &headers)));
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    Ok(response)
}

/// The page a new entrant lands on: their token and how to use it.
fn welcome(session: &Session, token: &str, headers: &HeaderMap) -> Markup {
    let name = match &session.who {
        Who::Entrant(e) => e.name.as_str(),
        Who::Admin => "",
    };
    let submit = format!("pitboss submit --server {} --token {token} bot.wasm", copy::origin(headers));
    html! {
        (copy::assets())
        h1 { "Welcome, " (name) }
        p { "You are logged in. Your token, shown only this once: keep it somewhere only you read (a password \
            manager, say). It is how you log in again and how " code { "pitboss submit" } " knows you." }
        (copy::copyable("token", token))
        h2 { "Submit your bot" }
        p { "On " a href="/me" { "your page" } ", upload a bot file (" code { "." (Lang::Rust.bot_ending()) } " or a Python " code { "bot.py" }
            "), or write a " code { "bot.py" } " in the browser. Or start from the "
            a #starter href=(editor::STARTER_PATH) download="bot.py" { "starter bot.py" } "." }
        p { "From a terminal, with " a href="/download" { "pitboss" } " installed, in your bot's folder (" code { "bot.py" }
            " for a Python bot):" }
        (copy::copyable("submit-line", &submit))
        p { a #mine href="/me" { "Go to your page →" } }
    }
}
