//! Who a request comes from, decided from its headers alone, before any
//! byte of its body is read: the extractors [`Client`] (the address),
//! [`EntrantCaller`] and [`AdminCaller`] (a bearer token, for the JSON
//! API), [`Visitor`], [`EntrantVisitor`] and [`AdminVisitor`] (a browser
//! session, for pages), [`IsOrganiser`] (either, for the run files) and
//! [`Reader`] (anyone signed in either way, for replays).
//! A handler names who may call it in its signature; no handler checks a
//! token itself.
//!
//! Tokens are random secrets shown once and stored only as their
//! SHA-256; a session is a cookie (HttpOnly, SameSite=Strict) whose every
//! form carries the session's CSRF token. A wrong token counts against
//! its address ([`crate::guards::Guards::wrong_secret`]); a right one is
//! let in whatever its address did, and an unknown session cookie (most
//! often a stale one) is no guess: the page is shown as to anyone.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};

use crate::db::Entrant;
pub use crate::secret::{hash, hex, new_secret, same};
use crate::state::{Failure, Shared, Who};

/// Name of the session cookie.
pub const COOKIE: &str = "pitboss_session";
/// How long a browser session lasts, in seconds (12 hours).
pub const SESSION_SECS: u64 = 12 * 3600;

/// The token of an `Authorization: Bearer TOKEN` header value.
pub fn bearer_token(header: &str) -> Option<&str> {
    let token = header.strip_prefix("Bearer ")?.trim();
    (!token.is_empty()).then_some(token)
}

/// The session id in a `Cookie` header value.
pub fn session_cookie(header: &str) -> Option<&str> {
    header.split(';').map(str::trim).find_map(|kv| kv.strip_prefix(COOKIE)?.strip_prefix('='))
}

/// The last entry of the request's `X-Forwarded-For` headers: the one
/// the reverse proxy in front added (whatever the client sent before it,
/// in the same header or an earlier one).
pub fn last_forwarded(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?.to_str().ok()?;
    last.rsplit(',').next()?.trim().parse().ok()
}

/// Set once the log has said that requests come through a proxy while
/// `forwarded_for` is off.
static WARNED_PROXY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The client's address: the peer's, or with `forwarded_for` the last
/// `X-Forwarded-For` entry (the one the reverse proxy added).
#[derive(Clone, Copy, Debug)]
pub struct Client(pub IpAddr);

impl FromRequestParts<Shared> for Client {
    type Rejection = Failure;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Failure> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        let forwarded = match app.competition.server.forwarded_for {
            true => last_forwarded(&parts.headers),
            false => {
                // Behind a proxy without `forwarded_for`, every client
                // has the proxy's address and shares its limits: say so
                // once.
                if parts.headers.contains_key("x-forwarded-for")
                    && peer.is_some_and(|p| p.is_loopback())
                    && !WARNED_PROXY.swap(true, std::sync::atomic::Ordering::Relaxed)
                {
                    eprintln!(
                        "pitboss serve: warning: requests come through a proxy (X-Forwarded-For) but [server] \
                         forwarded_for is false: every client shares the proxy's address and its limits; set \
                         forwarded_for = true"
                    );
                }
                None
            }
        };
        forwarded
            .or(peer)
            .map(Client)
            .ok_or_else(|| Failure::new(StatusCode::BAD_REQUEST, "the client's address is unknown"))
    }
}

fn unauthorized() -> Failure {
    Failure::new(StatusCode::UNAUTHORIZED, "a valid token is needed: Authorization: Bearer TOKEN")
}

/// The owner of the request's bearer token: `None` without one; an
/// unknown token is 401 (and a strike against the address), a disabled
/// entrant 403, an address or entrant over its rate 429.
async fn bearer(parts: &mut Parts, app: &Shared) -> Result<Option<Who>, Failure> {
    let Some(token) = parts.headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(bearer_token)
    else {
        return Ok(None);
    };
    let token = token.to_string();
    let Client(ip) = Client::from_request_parts(parts, app).await?;
    // Looked up first: a right token is let in whatever its address did.
    match app.blocking(move |app| app.token_owner(&token)).await? {
        None => Err(app.guards.wrong_secret(ip, unauthorized())),
        Some(Who::Entrant(e)) if e.disabled => {
            Err(Failure::new(StatusCode::FORBIDDEN, "the organiser has disabled this entrant"))
        }
        Some(Who::Entrant(e)) => {
            app.guards.request(e.id)?;
            Ok(Some(Who::Entrant(e)))
        }
        Some(Who::Admin) => Ok(Some(Who::Admin)),
    }
}

/// An entrant, by bearer token (the organiser is refused: they have no
/// bot).
pub struct EntrantCaller(pub Entrant);

impl FromRequestParts<Shared> for EntrantCaller {
    type Rejection = Failure;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Failure> {
        match bearer(parts, app).await? {
            Some(Who::Entrant(e)) => Ok(EntrantCaller(e)),
            Some(Who::Admin) => {
                Err(Failure::new(StatusCode::FORBIDDEN, "the organiser's token has no bot; use an entrant's"))
            }
            None => Err(unauthorized()),
        }
    }
}

/// The organiser, by bearer token.
pub struct AdminCaller;

impl FromRequestParts<Shared> for AdminCaller {
    type Rejection = Failure;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Failure> {
        match bearer(parts, app).await? {
            Some(Who::Admin) => Ok(AdminCaller),
            Some(Who::Entrant(_)) => Err(Failure::new(StatusCode::FORBIDDEN, "only the organiser may do this")),
            None => Err(unauthorized()),
        }
    }
}

/// A browser session: who, its CSRF token, and its id (to end it).
#[derive(Clone, Debug)]
pub struct Session {
    pub who: Who,
    pub csrf: String,
    pub id: String,
}

impl Session {
    /// Whether a form's CSRF token is this session's.
    pub fn csrf_ok(&self, given: &str) -> bool {
        same(&self.csrf, given)
    }
}

/// The session id in the request's cookies.
pub fn cookie_session(headers: &HeaderMap) -> Option<&str> {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(session_cookie)
}

/// The session whose id is `cookie`, if it is one, looked up without
/// counting a request (for an answer already decided: a refusal shown
/// as a page, with the site's navigation for whoever it is).
pub async fn session_of(app: &Shared, cookie: Option<String>) -> Option<Session> {
    let id = cookie?;
    app.blocking(move |app| Ok(app.session(&id)?.map(|(who, csrf)| Session { who, csrf, id }))).await.ok().flatten()
}

/// Whoever the page's visitor is: their session, if they have one. Looked
/// up once a request: a second extractor of the same request (the CSRF
/// check's, [`crate::csrf`]) gets the same answer, counted once.
#[derive(Clone)]
pub struct Visitor(pub Option<Session>);

impl FromRequestParts<Shared> for Visitor {
    type Rejection = Failure;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Failure> {
        if let Some(known) = parts.extensions.get::<Visitor>() {
            return Ok(known.clone());
        }
        let Some(id) = cookie_session(&parts.headers).map(str::to_string) else { return Ok(Visitor(None)) };
        let lookup = id.clone();
        // An unknown session id is most often a stale cookie (expired,
        // logged out, its entrant removed), and a guess of a 256-bit id
        // gains nothing: the page is shown as to anyone, and nothing is
        // counted against the address.
        let found = app.blocking(move |app| app.session(&lookup)).await?;
        if let Some((Who::Entrant(e), _)) = &found {
            app.guards.request(e.id)?;
        }
        let visitor = Visitor(found.map(|(who, csrf)| Session { who, csrf, id }));
        parts.extensions.insert(visitor.clone());
        Ok(visitor)
    }
}

/// An entrant's browser session; anyone else is sent to log in (the
/// organiser to their page).
pub struct EntrantVisitor {
    pub session: Session,
    pub entrant: Entrant,
}

impl FromRequestParts<Shared> for EntrantVisitor {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Response> {
        let Visitor(session) = Visitor::from_request_parts(parts, app).await.map_err(IntoResponse::into_response)?;
        match session {
            Some(session) => match session.who.clone() {
                Who::Entrant(entrant) => Ok(EntrantVisitor { session, entrant }),
                Who::Admin => Err(Redirect::to("/admin").into_response()),
            },
            None => Err(Redirect::to("/login").into_response()),
        }
    }
}

/// The organiser's browser session.
pub struct AdminVisitor(pub Session);

impl FromRequestParts<Shared> for AdminVisitor {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Response> {
        let Visitor(session) = Visitor::from_request_parts(parts, app).await.map_err(IntoResponse::into_response)?;
        match session {
            Some(s @ Session { who: Who::Admin, .. }) => Ok(AdminVisitor(s)),
            Some(_) => Err(Failure::new(StatusCode::FORBIDDEN, "only the organiser may see this page").into_response()),
            None => Err(Redirect::to("/login").into_response()),
        }
    }
}

/// Whether the caller is the organiser, by browser session or bearer
/// token (their page links to files a token-less browser then fetches);
/// anyone else is `false`, but a wrong token is still 401.
pub struct IsOrganiser(pub bool);

impl FromRequestParts<Shared> for IsOrganiser {
    type Rejection = Failure;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Failure> {
        if let Visitor(Some(Session { who: Who::Admin, .. })) = Visitor::from_request_parts(parts, app).await? {
            return Ok(IsOrganiser(true));
        }
        Ok(IsOrganiser(matches!(bearer(parts, app).await?, Some(Who::Admin))))
    }
}

/// Anyone signed in, by browser session or bearer token: the organiser
/// or an entrant; anyone else gets 401.
pub enum Reader {
    Organiser,
    Entrant(Entrant),
}

impl FromRequestParts<Shared> for Reader {
    type Rejection = Failure;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Failure> {
        let who = match Visitor::from_request_parts(parts, app).await? {
            Visitor(Some(session)) => Some(session.who),
            Visitor(None) => bearer(parts, app).await?,
        };
        match who {
            Some(Who::Admin) => Ok(Reader::Organiser),
            Some(Who::Entrant(e)) => Ok(Reader::Entrant(e)),
            None => Err(Failure::new(
                StatusCode::UNAUTHORIZED,
                "log in, or send your token as `Authorization: Bearer TOKEN`",
            )),
        }
    }
}

/// Whether a form post comes from this server's own pages: an `Origin`
/// (or, without one, a `Referer`) naming another host is refused, as
/// is `Sec-Fetch-Site: cross-site`.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    if text(header::HeaderName::from_static("sec-fetch-site")) == Some("cross-site") {
        return false;
    }
    let Some(host) = text(header::HOST) else { return true };
    let origin = text(header::ORIGIN).or_else(|| text(header::REFERER));
    match origin {
        None | Some("null") => origin.is_none(),
        Some(o) => {
            let rest = o.split_once("://").map_or(o, |(_, r)| r);
            rest.split('/').next() == Some(host)
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_parse() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer "), None);
        assert_eq!(session_cookie("a=b; pitboss_session=xyz; c=d"), Some("xyz"));
        assert_eq!(session_cookie("pitboss_sessionx=1"), None);
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "ab"));
        assert_eq!(new_secret("pb_").unwrap().len(), 67);
    }

    #[test]
    fn origins_of_other_hosts_are_refused() {
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.insert(*k, v.parse().unwrap());
            }
            h
        };
        assert!(same_origin(&headers(&[("host", "a:1"), ("origin", "http://a:1")])));
        assert!(same_origin(&headers(&[("host", "a:1")])), "no Origin: a plain client");
        assert!(!same_origin(&headers(&[("host", "a:1"), ("origin", "http://evil:1")])));
        assert!(!same_origin(&headers(&[("host", "a:1"), ("referer", "http://evil/x")])));
        assert!(!same_origin(&headers(&[("host", "a:1"), ("origin", "null")])));
        assert!(!same_origin(&headers(&[("host", "a:1"), ("sec-fetch-site", "cross-site")])));
    }
}
