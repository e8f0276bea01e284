//! CSRF as extractors, the way who a caller is ([`crate::auth`]) is one:
//! a page's POST handler takes its form through [`CsrfForm`] (a signed-in
//! visitor's form, whose `csrf` field must be the session's token),
//! [`CsrfUpload`] (the upload form, multipart, the same check) or
//! [`FreshForm`] (logging in and registering, before there is a session:
//! from this server's own pages, carrying the token the form's cookie
//! holds, a double submit). A missing or wrong token is refused with 403
//! before the handler runs and before any other field is read, so a new
//! POST page cannot forget the check: `axum::Form` and `Multipart` are
//! named nowhere else in the crate (a test in `tests/layers.rs` says so).
//!
//! A form posted without a session can change nothing a forger would
//! want: it is sent to the front page, as a stale page's "Log out" was.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Multipart, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::answer::{Answer, Failure};
use crate::auth::{self, Client, Session, Visitor, same_origin};
use crate::page::refuse;
use crate::state::Shared;

/// Cookie of the login and registration forms' CSRF token.
const FORM_COOKIE: &str = "pitboss_form";

/// The answer to a form whose CSRF token is missing or wrong.
pub fn bad_csrf() -> Response {
    refuse(StatusCode::FORBIDDEN, "The form's CSRF token is missing or wrong: reload the page.")
}

/// A form posted by a signed-in visitor from one of our pages: its
/// fields, after its `csrf` field matched the session's token.
pub struct CsrfForm<F>(pub F);

impl<F: DeserializeOwned> FromRequest<Shared> for CsrfForm<F> {
    type Rejection = Response;

    async fn from_request(request: Request, app: &Shared) -> Result<Self, Response> {
        let (mut parts, body) = request.into_parts();
        let session = session(&mut parts, app).await?;
        let (token, fields) = read_form::<F>(parts, body, app).await?;
        if !token.is_some_and(|t| session.csrf_ok(&t)) {
            return Err(bad_csrf());
        }
        fields.map(CsrfForm)
    }
}

/// The upload form (multipart: `csrf`, `bot`), read whole and its
/// `csrf` field matched to the session's token: the file, if it had one.
pub struct CsrfUpload {
    /// The file's name and bytes.
    pub file: Option<(String, Bytes)>,
}

impl FromRequest<Shared> for CsrfUpload {
    type Rejection = Response;

    async fn from_request(request: Request, app: &Shared) -> Result<Self, Response> {
        let (mut parts, body) = request.into_parts();
        let session = session(&mut parts, app).await?;
        let mut form = Multipart::from_request(Request::from_parts(parts, body), app)
            .await
            .map_err(IntoResponse::into_response)?;
        let unread = |e: axum::extract::multipart::MultipartError| {
            // Over the body limit: 413, which crate::oversize answers in words.
            let status = if e.status() == StatusCode::PAYLOAD_TOO_LARGE { e.status() } else { StatusCode::BAD_REQUEST };
            refuse(status, &format!("The upload could not be read: {e}"))
        };
        let (mut csrf, mut file): (Option<String>, Option<(String, Bytes)>) = (None, None);
        while let Some(field) = form.next_field().await.map_err(unread)? {
            match field.name() {
                Some("csrf") => csrf = field.text().await.ok(),
                Some("bot") => {
                    let name = field.file_name().unwrap_or("upload.wasm").to_string();
                    file = Some((name, field.bytes().await.map_err(unread)?));
                }
                _ => {}
            }
        }
        if !csrf.is_some_and(|c| session.csrf_ok(&c)) {
            return Err(bad_csrf());
        }
        Ok(CsrfUpload { file })
    }
}

/// A form posted before there is a session (logging in, registering):
/// its fields, after the request came from our own pages with the token
/// its form's cookie holds. A refused one counts against the address
/// like a failed login.
pub struct FreshForm<F>(pub F);

impl<F: DeserializeOwned> FromRequest<Shared> for FreshForm<F> {
    type Rejection = Response;

    async fn from_request(request: Request, app: &Shared) -> Result<Self, Response> {
        let (mut parts, body) = request.into_parts();
        let Client(ip) = Client::from_request_parts(&mut parts, app).await.map_err(IntoResponse::into_response)?;
        let headers = parts.headers.clone();
        let (token, fields) = read_form::<F>(parts, body, app).await?;
        if !token.is_some_and(|t| form_ok(&headers, &t)) {
            app.guards.login(ip).map_err(IntoResponse::into_response)?;
            return Err(bad_csrf());
        }
        fields.map(FreshForm)
    }
}

/// A page with a fresh form token for a [`FreshForm`]: the token goes
/// into the form and, as a cookie, beside it.
pub fn with_form_token(make: impl FnOnce(&str) -> Response) -> Answer {
    let csrf = auth::new_secret("")?;
    let mut response = make(&csrf);
    let cookie = format!("{FORM_COOKIE}={csrf}; HttpOnly; SameSite=Strict; Path=/; Max-Age=3600");
    let value =
        HeaderValue::from_str(&cookie).map_err(|e| Failure::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    response.headers_mut().append(header::SET_COOKIE, value);
    Ok(response)
}

/// Whether a form post without a session is genuine: from our own pages,
/// carrying the token its form cookie holds.
fn form_ok(headers: &HeaderMap, given: &str) -> bool {
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';').map(str::trim))
        .find_map(|kv| kv.strip_prefix(FORM_COOKIE)?.strip_prefix('='));
    same_origin(headers) && cookie.is_some_and(|c| !c.is_empty() && auth::same(c, given))
}

/// The visitor's session (looked up once a request: [`Visitor`] keeps
/// it), or the front page without one.
async fn session(parts: &mut Parts, app: &Shared) -> Result<Session, Response> {
    match Visitor::from_request_parts(parts, app).await.map_err(IntoResponse::into_response)? {
        Visitor(Some(session)) => Ok(session),
        Visitor(None) => Err(Redirect::to("/").into_response()),
    }
}

/// Only the token of a form.
#[derive(Deserialize)]
struct Token {
    csrf: Option<String>,
}

/// A urlencoded body's `csrf` field, and its fields as `F` (or the
/// answer saying why they cannot be read, for after the token passed).
async fn read_form<F: DeserializeOwned>(
    parts: Parts,
    body: Body,
    app: &Shared,
) -> Result<(Option<String>, Result<F, Response>), Response> {
    let again = parts.clone();
    let bytes =
        Bytes::from_request(Request::from_parts(parts, body), app).await.map_err(IntoResponse::into_response)?;
    let form = |bytes: Bytes| Request::from_parts(again.clone(), Body::from(bytes));
    let token = axum::Form::<Token>::from_request(form(bytes.clone()), app).await.ok().and_then(|f| f.0.csrf);
    let fields =
        axum::Form::<F>::from_request(form(bytes), app).await.map(|f| f.0).map_err(IntoResponse::into_response);
    Ok((token, fields))
}
