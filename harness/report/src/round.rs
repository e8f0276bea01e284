//! A page of one round replayed on demand (the server's "replay this
//! round"): its facts (seed, the command that replays it locally), the
//! round in the report's hand viewer, and its transcript as
//! `pitboss replay` prints it. The same styles and script as the report;
//! every text from the caller is escaped by `maud`.

use maud::{Markup, PreEscaped, html};
use serde_json::{Map, Value};

use crate::page::{JS, head};
use crate::section::hands;
use crate::viewer;

/// The round a page shows.
pub struct RoundView<'a> {
    /// The page's heading.
    pub title: &'a str,
    /// Label and value lines shown under the heading (seed, command …).
    pub facts: &'a [(&'a str, String)],
    /// The round as `pitboss replay` prints it.
    pub transcript: &'a str,
    /// The viewer's data, from [`round_data`].
    pub data: &'a Value,
    /// Where the page's "back" link goes.
    pub back: &'a str,
    /// The navigation of the site that shows the page (its HTML, styled
    /// by itself), above the heading.
    pub nav: Option<&'a str>,
    /// The viewer's own seat at the table and its boxes: the seat's line
    /// says "(you)" and the boxes' lines of the transcript are marked
    /// (class `own`).
    pub own: Option<(usize, std::ops::Range<usize>)>,
}

/// The table a round was played at, for [`round_data`].
pub struct Seated<'a> {
    /// The rule set's name.
    pub variant: &'a str,
    /// The banker game (the viewer shows who holds the bank).
    pub banker_game: bool,
    /// Boxes each player holds.
    pub per: u8,
    /// 0-based table of the session.
    pub table: usize,
    /// Its bots' names in seat order.
    pub names: &'a [String],
}

/// The hand viewer's data for one round of one table: the same shape
/// as a report's (`viewer::data`), with that round alone.
pub fn round_data(at: &Seated<'_>, session: u64, round: u64, events: Vec<Map<String, Value>>) -> Value {
    let mut tables = vec![Vec::<String>::new(); at.table];
    tables.push(at.names.to_vec());
    serde_json::json!({
        "session": session,
        "variant": at.variant,
        "banker_game": at.banker_game,
        "per": at.per,
        "tables": tables,
        "rounds": [{
            "table": at.table,
            "round": round,
            "label": format!("round {round} · table {}", at.table),
            "events": events,
        }],
    })
}

/// The whole page of `view`.
pub fn round_page(view: &RoundView<'_>) -> String {
    page(view).into_string()
}

fn page(view: &RoundView<'_>) -> Markup {
    html! {
        (PreEscaped("<!doctype html>"))
        html lang="en" {
            (head(&format!("{} — Pitboss", view.title)))
            body {
                @if let Some(nav) = view.nav { (PreEscaped(nav)) }
                main {
                header {
                    h1 { (view.title) }
                    p { a href=(view.back) { "← back" } }
                    dl.facts {
                        @for (label, value) in view.facts {
                            dt { (label) } dd { code { (value) } }
                        }
                    }
                }
                section #hands { (hands::viewer()) }
                section #transcript {
                    h2 { "Transcript" }
                    pre.transcript { (transcript(view)) }
                }
                script type="application/json" id="hand-data" { (PreEscaped(viewer::script_json(view.data))) }
                script { (PreEscaped(viewer::event_names_js())) (PreEscaped(JS)) }
            } }
        }
    }
}

/// The transcript, the viewer's own seat and boxes marked.
fn transcript(view: &RoundView<'_>) -> Markup {
    let Some((seat, boxes)) = &view.own else { return html! { (view.transcript) } };
    let own_box = |line: &str| {
        let number = line.strip_prefix("box ").map(|rest| rest.split([' ', ':']).next().unwrap_or(""));
        number.and_then(|n| n.parse::<usize>().ok()).is_some_and(|b| boxes.contains(&b))
    };
    let seat_line = format!("seat {seat}: ");
    html! {
        style { ".transcript .own{background:#fef3c7;font-weight:600}" }
        @for line in view.transcript.split_inclusive('\n') {
            @if line.starts_with(&seat_line) {
                span.own { (line.trim_end_matches('\n')) " (you)" } "\n"
            } @else if own_box(line) {
                span.own { (line.trim_end_matches('\n')) } "\n"
            } @else {
                (line)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_page_escapes_what_it_is_given_and_holds_one_round() {
        let names = vec!["<b>eve</b>".to_string()];
        let at = Seated { variant: "north-american", banker_game: false, per: 1, table: 2, names: &names };
        let mut event = Map::new();
        event.insert("event".into(), "round_start".into());
        let data = round_data(&at, 3, 17, vec![event]);
        assert_eq!(data["tables"].as_array().unwrap().len(), 3);
        assert_eq!(data["rounds"][0]["table"], 2);
        let facts = [("Seed", "42".to_string())];
        let view = RoundView {
            title: "round <17>",
            facts: &facts,
            transcript: "seat 1: eve\nbox 0: log </script>\nbox 2 hand 0: dealt 9\nbox 3: bets 10\nbox 20: bets 5\n",
            data: &data,
            back: "/me",
            nav: Some("<nav>site</nav>"),
            own: Some((1, 2..4)),
        };
        let html = round_page(&view);
        assert!(html.contains("round &lt;17&gt;") && html.contains("&lt;/script&gt;"), "{html}");
        assert!(!html.contains("<b>eve</b>"), "names travel escaped in the JSON");
        assert!(html.contains("id=\"felt\"") && html.contains("const EV="));
        assert!(html.contains("<nav>site</nav>"), "the site's navigation");
        for own in ["seat 1: eve (you)", "box 2 hand 0: dealt 9", "box 3: bets 10"] {
            assert!(html.contains(&format!("<span class=\"own\">{own}</span>")), "{own}: {html}");
        }
        assert!(!html.contains("<span class=\"own\">box 20") && !html.contains("<span class=\"own\">box 0"));
    }
}
