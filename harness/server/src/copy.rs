//! Text a student copies whole (a once-only token, a command line): shown
//! in a monospace block that wraps anywhere, so a 68-character token fits
//! a phone without scrolling sideways, with a **Copy** button that a small
//! script of the server's ([`PATH`]) shows and works; without the script
//! the text is still there to select. A page using it must let the script
//! run ([`crate::editor::with_script`]: `script-src 'self'`). The
//! server's address as the client reached it ([`origin`]), for the
//! command lines shown, is here too.

use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use maud::{Markup, PreEscaped, html};

/// Where the copy buttons' script is served.
pub const PATH: &str = "/copy.js";
/// The copy buttons' script.
pub const SCRIPT: &str = include_str!("copy.js");

const STYLE: &str = ".copyable{display:flex;flex-wrap:wrap;gap:.4em;align-items:flex-start;margin:.5em 0}\
    .copyable code{flex:1 1 16em;min-width:0;display:block;font:.95em/1.4 ui-monospace,Menlo,Consolas,monospace;\
    white-space:pre-wrap;overflow-wrap:anywhere;background:#f0f0ec;padding:.5em}";

/// `text` in a block with id `id` and its Copy button.
pub fn copyable(id: &str, text: &str) -> Markup {
    html! {
        div.copyable {
            code id=(id) { (text) }
            button.copy type="button" data-copy=(id) hidden aria-label={ "Copy " (id) } { "Copy" }
        }
    }
}

/// The style of [`copyable`] blocks and the script of their buttons, once
/// a page.
pub fn assets() -> Markup {
    html! {
        style { (PreEscaped(STYLE)) }
        script src=(PATH) defer {}
    }
}

/// `GET /copy.js`.
pub async fn script() -> Response {
    asset(SCRIPT.to_string(), "text/javascript; charset=utf-8")
}

/// One of the server's own files (a script, the editor's gutter), kept
/// by browsers for a day.
pub fn asset(body: String, kind: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400"));
    response
}

/// The server's address as the visitor reached it, for the install line:
/// `Host` (only a host name or address and port) and the proxy's
/// `X-Forwarded-Proto`; `SERVER` when the host is missing or odd.
pub fn origin(headers: &HeaderMap) -> String {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    let host = text("host");
    let fine =
        !host.is_empty() && host.len() <= 255 && host.chars().all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c));
    if !fine {
        return "SERVER".into();
    }
    let scheme = if text("x-forwarded-proto") == "https" { "https" } else { "http" };
    format!("{scheme}://{host}")
}
