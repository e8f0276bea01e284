//! The site's layout, shared by every page: the navigation with who is
//! logged in, a whole page, a refusal in words, and the fields of the
//! small forms (taken through [`crate::csrf::CsrfForm`], which checks
//! their token). Handlers build their bodies with maud
//! (so every name and verdict is escaped by construction) and wrap them
//! here.

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde::Deserialize;

use crate::auth::Session;
use crate::state::Who;

const CSS: &str = include_str!("page.css");

/// Most characters of outside text (a verdict, a report, an error) shown.
pub const SHOWN_TEXT: usize = 20_000;

fn layout(title: &str, who: Option<&Session>, body: Markup) -> Markup {
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
                (nav(who))
                main { (body) }
            }
        }
    }
}

fn nav(who: Option<&Session>) -> Markup {
    html! {
        nav {
            a href="/" { "Leaderboard" }
            a href="/download" { "Download" }
            @match who {
                Some(Session { who: Who::Entrant(e), csrf, .. }) => { a href="/me" { "My bot (" (e.name) ")" } (logout_form(csrf)) }
                Some(Session { who: Who::Admin, csrf, .. }) => { a href="/admin" { "Organiser" } (logout_form(csrf)) }
                None => { a href="/login" { "Log in" } }
            }
        }
    }
}

/// The site's navigation for a page built elsewhere (a replayed round in
/// the report's viewer), with its own style: page.css's `nav` rules.
pub fn site_nav(who: Option<&Session>) -> String {
    let style: String = CSS.lines().filter(|l| l.starts_with("nav")).collect();
    html! { style { (PreEscaped(style)) } (nav(who)) }.into_string()
}

fn logout_form(csrf: &str) -> Markup {
    html! { form.inline method="post" action="/logout" { input type="hidden" name="csrf" value=(csrf); button { "Log out" } } }
}

/// A whole page.
pub fn page(title: &str, who: Option<&Session>, body: Markup) -> Response {
    Html(layout(title, who, body).into_string()).into_response()
}

/// A page that says why something was refused.
pub fn refuse(status: StatusCode, text: &str) -> Response {
    (status, Html(layout("Refused", None, html! { h1 { "Refused" } p.error { (text) } }).into_string())).into_response()
}

/// The fields of the site's small forms (their `csrf` is the
/// extractor's).
#[derive(Deserialize)]
pub struct PageForm {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub action: Option<String>,
    /// `yes` on the second step of an action that asks first (removing).
    #[serde(default)]
    pub confirm: Option<String>,
}

/// What the upload form's file picker offers: every bot file's ending
/// but WebAssembly's text format (`.wasm,.py,.js`).
pub fn upload_accept() -> String {
    let wat = pitboss_host::lang::Lang::Wat.bot_ending();
    let endings = pitboss_host::lang::bot_endings();
    let offered: Vec<_> = endings.iter().filter(|e| **e != wat).map(|e| format!(".{e}")).collect();
    offered.join(",")
}

/// The link to submission `id`'s source page, for a submission whose
/// file name says it is a bot's source.
pub fn link(id: i64, file_name: &str) -> Option<String> {
    pitboss_host::lang::Runtime::of(file_name).is_some().then(|| format!("/submissions/{id}/source"))
}
