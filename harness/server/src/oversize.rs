//! An upload over the competition's size limit, answered in words: the
//! upload routes' outer layer sees a `Content-Length` past
//! [`crate::uploads::upload_limit`], settles who sends it (and their one
//! upload slot) as the upload itself would, reads the body to nowhere
//! (so a client still sending it reads the answer instead of a broken
//! pipe; at most [`DRAINED`] bytes, until [`IDLE`] passes without one),
//! records the refusal in the submission log if the whole upload came
//! (an abandoned one is not an upload), tells the organiser's log,
//! and answers 413 saying the size, the limit and its key: JSON to the
//! API (`pitboss submit` prints it), a page inside the site's layout with
//! a way back to the form. An upload without a `Content-Length` that
//! goes over the limit as it comes is answered the same way (but for its
//! size, not known).

use axum::extract::{FromRequestParts, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::Body as _;
use maud::html;

use crate::auth::Session;
use crate::db::{NewSubmission, Outcome, now};
use crate::state::Shared;
use crate::uploads::{ApiUpload, PageUpload};
use crate::verdict::too_big;

/// Most bytes of an oversized upload read and thrown away before the
/// answer: the largest bot file `pitboss submit` sends, and its framing.
pub const DRAINED: u64 = pitboss_host::files::BOT_CAP + (64 << 10);

/// How long a client sending an oversized upload may pause before the
/// answer is sent without the rest.
pub const IDLE: std::time::Duration = std::time::Duration::from_secs(1);

/// The layer: passes every request but an upload whose declared length
/// is over the limit.
pub async fn refuse(State(app): State<Shared>, request: Request, next: Next) -> Response {
    let limit = crate::uploads::upload_limit(app.competition.uploads.max_bytes) as u64;
    let length = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    let Some(size) = length.filter(|&n| n > limit) else {
        let (page, cookie) = (request.uri().path().starts_with("/me/"), crate::auth::cookie_session(request.headers()));
        let cookie = cookie.map(str::to_string);
        let answer = next.run(request).await;
        if answer.status() != StatusCode::PAYLOAD_TOO_LARGE {
            return answer;
        }
        return unmeasured(&app, page, cookie).await;
    };
    let (mut parts, body) = request.into_parts();
    let page = parts.uri.path().starts_with("/me/");
    // The API names the file in its query; a form's name is in the body.
    let named = axum::extract::Query::<std::collections::HashMap<String, String>>::try_from_uri(&parts.uri)
        .ok()
        .and_then(|q| q.0.get("name").map(|n| pitboss_host::text::excerpt(n, 100)));
    let file_name = named.unwrap_or_else(|| "(over the size limit)".into());
    let (entrant, session, slot) = if page {
        match PageUpload::from_request_parts(&mut parts, &app).await {
            Ok(up) => (up.visitor.entrant, Some(up.visitor.session), up.slot),
            Err(rejected) => return rejected,
        }
    } else {
        match ApiUpload::from_request_parts(&mut parts, &app).await {
            Ok(up) => (up.entrant, None, up.slot),
            Err(rejected) => return rejected.into_response(),
        }
    };
    let came = if size <= DRAINED { drain(body).await } else { 0 };
    let why = too_big(size, app.competition.uploads.max_bytes);
    eprintln!(
        "pitboss serve: upload refused: {} sent {size} bytes, over [uploads] max_kib = {}",
        entrant.name,
        app.competition.uploads.max_bytes >> 10
    );
    let text = format!("refused: {why}");
    let recorded = app
        .blocking(move |app| {
            let _held = slot;
            if came != size {
                return Ok(None);
            }
            let (_, refused) = app.db.uploads_since(entrant.id, now().saturating_sub(3600))?;
            if refused >= app.competition.server.refused_per_hour {
                return Ok(None);
            }
            let upload = NewSubmission {
                entrant: entrant.id,
                file_name: &file_name,
                size,
                sha256: None,
                outcome: Outcome::Refused,
                verdict: &text,
                report: "",
            };
            app.db.add_submission(&upload).map(Some)
        })
        .await;
    let id = match recorded {
        Ok(id) => id,
        Err(failure) => return failure.into_response(),
    };
    match session {
        // As a failure (`error`) and as a verdict, like any refusal's.
        None => {
            let answer = serde_json::json!({ "error": why, "id": id, "outcome": Outcome::Refused, "verdict": format!("refused: {why}") });
            (StatusCode::PAYLOAD_TOO_LARGE, axum::Json(answer)).into_response()
        }
        Some(session) => {
            let back = id.map_or("/me".to_string(), |id| format!("/me#sub-{id}"));
            refused_page(&why, &back, Some(&session))
        }
    }
}

/// The answer to an upload sent without a `Content-Length` that went over
/// the limit as it came (the body limit stopped it, so its size is not
/// known, and there is no whole upload to record): the limit and its
/// key, as JSON or, to a page's form, inside the site's layout.
async fn unmeasured(app: &Shared, page: bool, cookie: Option<String>) -> Response {
    let max = app.competition.uploads.max_bytes;
    let why = format!(
        "this upload is over this competition's limit of {} KiB (`max_kib = {}` under [uploads] in the competition \
         file, the organiser's)",
        max >> 10,
        max >> 10
    );
    if !page {
        let answer =
            serde_json::json!({ "error": why, "outcome": Outcome::Refused, "verdict": format!("refused: {why}") });
        return (StatusCode::PAYLOAD_TOO_LARGE, axum::Json(answer)).into_response();
    }
    let session = crate::auth::session_of(app, cookie).await;
    refused_page(&why, "/me", session.as_ref())
}

/// The 413 page of an upload over the limit: why, inside the site's
/// layout, with a way back to `back`.
fn refused_page(why: &str, back: &str, session: Option<&Session>) -> Response {
    let body = html! {
        h1 { "Upload refused" }
        p.error #too-big { (why) }
        p { "Nothing was checked. Make the module smaller, or ask the organiser to raise the limit." }
        p { a href=(back) { "← back to your page" } }
    };
    let mut answer = crate::page::page("Upload refused", session, body);
    *answer.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
    answer
}

/// Reads `body` to its end, its first error or a pause of [`IDLE`],
/// keeping nothing; returns how many bytes came.
async fn drain(mut body: axum::body::Body) -> u64 {
    let mut came = 0u64;
    loop {
        let next = std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx));
        match tokio::time::timeout(IDLE, next).await {
            Ok(Some(Ok(frame))) => came += frame.data_ref().map_or(0, |d| d.len() as u64),
            _ => return came,
        }
    }
}
