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
            body { main {
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
                    pre.transcript { (view.transcript) }
                }
                script type="application/json" id="hand-data" { (PreEscaped(viewer::script_json(view.data))) }
                script { (PreEscaped(viewer::event_names_js())) (PreEscaped(JS)) }
            } }
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
            transcript: "box 0: log </script>",
            data: &data,
            back: "/me",
        };
        let html = round_page(&view);
        assert!(html.contains("round &lt;17&gt;") && html.contains("&lt;/script&gt;"), "{html}");
        assert!(!html.contains("<b>eve</b>"), "names travel escaped in the JSON");
        assert!(html.contains("id=\"felt\"") && html.contains("const EV="));
    }
}
