//! What an answer carries: the one error answer ([`Failure`]: a status,
//! one line of JSON, `Retry-After` where a wait is known; internal errors
//! go to the server's log, never to the client) and the
//! `Content-Security-Policy` of pages and of reports.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::Error;

/// The pages' policy: our own inline CSS, no script, forms to
/// ourselves, never framed.
pub const PAGE_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; \
     form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// A report's policy: its inline CSS, SVG and script, nothing fetched.
pub const REPORT_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; \
     img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/// What a handler answers: a response, or the one error answer.
pub type Answer = Result<Response, Failure>;

/// An error answer: a status, one line of text (as JSON), and how long
/// to wait before trying again where that is known.
#[derive(Debug)]
pub struct Failure {
    pub status: StatusCode,
    pub text: String,
    /// Seconds, sent as `Retry-After`.
    pub retry_after: Option<u64>,
}

impl Failure {
    pub fn new(status: StatusCode, text: impl Into<String>) -> Failure {
        Failure { status, text: text.into(), retry_after: None }
    }

    /// A 429 or 503 that says when to come back.
    pub fn busy(status: StatusCode, text: impl Into<String>, retry_after: u64) -> Failure {
        Failure { status, text: text.into(), retry_after: Some(retry_after.max(1)) }
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        if let Error::Limited(text, secs) = e {
            return Failure::busy(StatusCode::TOO_MANY_REQUESTS, text, secs);
        }
        eprintln!("pitboss serve: error: {}", pitboss_host::text::excerpt(&e.to_string(), 2_000));
        Failure::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error; the organiser can see it in the server's log")
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(serde_json::json!({ "error": self.text }))).into_response();
        if let Some(secs) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}
