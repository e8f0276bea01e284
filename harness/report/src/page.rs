//! The page's skeleton: head with the styles, the header, the sections,
//! the footer, and the viewer's data and script at the end.

use maud::{Markup, PreEscaped, html};
use serde_json::Value;

use crate::context::Context;
use crate::format::chips;
use crate::{section, viewer};

/// The page's styles and script, real files included at build time.
const CSS: &str = include_str!("../assets/report.css");
pub(crate) const JS: &str = include_str!("../assets/report.js");
/// The coach section's styles.
pub(crate) const COACH_CSS: &str = include_str!("../assets/coach.css");

/// The whole page. `viewer` is the hand viewer's data (or why it has none).
pub fn page(cx: &Context, viewer: &Value) -> Markup {
    let r = cx.results;
    html! {
        (PreEscaped("<!doctype html>"))
        html lang="en" {
            (head(&format!("{} — Pitboss report", r.result.name)))
            body { main {
                (header(cx))
                (section::all(cx))
                (footer(cx))
                script type="application/json" id="hand-data" { (PreEscaped(viewer::script_json(viewer))) }
                script { (PreEscaped(viewer::event_names_js())) (PreEscaped(JS)) }
            } }
        }
    }
}

/// The `<head>` of a page titled `title`, with the report's styles.
pub(crate) fn head(title: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width,initial-scale=1";
            title { (title) }
            // Our own files: nothing in them to escape.
            style { (PreEscaped(CSS)) (PreEscaped(COACH_CSS)) }
        }
    }
}

/// "s" after a count other than one.
fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn header(cx: &Context) -> Markup {
    let r = &cx.results.result;
    let bots = r.standings.len() as u64;
    html! {
        header {
            h1 { (r.name) }
            p.meta {
                (r.variant) " · " (r.format.to_string()) " format · " (r.sessions) " session" (plural(r.sessions))
                " × " (chips(r.rounds as i64)) " round" (plural(r.rounds))
                " · seed " (r.seed) " · " (bots) " bot" (plural(bots))
            }
        }
    }
}

fn footer(cx: &Context) -> Markup {
    let r = cx.results;
    let sha: String = r.league.sha256.chars().take(16).collect();
    html! {
        footer { p {
            "League " code { (r.league.file) } " (SHA-256 " code { (sha) } ", embedded in its results) · re-run and compare: "
            code { "pitboss verify results.json" } " · replay a hand: "
            code { "pitboss replay results.json --session S --table T --round R" } " · Pitboss " (r.pitboss_version)
        } }
    }
}
