//! Refusals to a browser, inside the site's layout: a handler answers an
//! error as one line of JSON ([`crate::answer::Failure`]), which is what
//! `pitboss` and scripts read, but a student who opens a private report,
//! a replay they may not see or a page past their session from a link
//! would get a bare `{"error": …}` with no navigation. This layer turns
//! such an answer into a page of the site, with its navigation, the same
//! words and a way on, when the request came from a browser's address
//! bar or link (it accepts `text/html`) to a page route (not `/api/`).
//! The status and `Retry-After` are kept; the API is untouched.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Response, header};
use axum::middleware::Next;
use maud::html;

use crate::state::Shared;

/// Most bytes of an error answer read to be shown as a page (ours are
/// one line; anything longer is shown as the status alone).
const READ: usize = 16 << 10;

/// The layer.
pub async fn errors_as_pages(State(app): State<Shared>, request: Request, next: Next) -> Response<Body> {
    let browser = !request.uri().path().starts_with("/api/") && accepts_html(request.headers());
    let cookie = crate::auth::cookie_session(request.headers()).map(str::to_string);
    let answer = next.run(request).await;
    if !browser
        || !(answer.status().is_client_error() || answer.status().is_server_error())
        || !is_json(answer.headers())
    {
        return answer;
    }
    let (parts, body) = answer.into_parts();
    let text = match axum::body::to_bytes(body, READ).await {
        Ok(bytes) => serde_json::from_slice::<serde_json::Value>(&bytes)
            .ok()
            .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_string)),
        Err(_) => None,
    };
    let status = parts.status;
    let reason = status.canonical_reason().unwrap_or("Refused");
    let text = text.unwrap_or_else(|| format!("{} {reason}", status.as_u16()));
    let session = crate::auth::session_of(&app, cookie).await;
    let signed_in = session.is_some();
    let body = html! {
        h1 { (reason) }
        p.error #refused { (text) }
        p { a href="/" { "← the leaderboard" } " · "
            @if signed_in { a href="/me" { "your page" } } @else { a href="/login" { "log in" } } }
    };
    let mut page = crate::page::page(reason, session.as_ref(), body);
    *page.status_mut() = status;
    if let Some(wait) = parts.headers.get(header::RETRY_AFTER) {
        page.headers_mut().insert(header::RETRY_AFTER, wait.clone());
    }
    page
}

/// Whether a request says it takes a page: a browser's navigation sends
/// `Accept: text/html,…`; `pitboss`, curl and scripts do not.
fn accepts_html(headers: &HeaderMap) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|a| a.contains("text/html"))
}

/// Whether an answer is JSON (the one error answer's kind).
fn is_json(headers: &HeaderMap) -> bool {
    headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|t| t.starts_with("application/json"))
}
