//! Faults: per faulting bot, its faults by kind and the first few, each
//! with the `pitboss replay` line that shows it and what the bot wrote
//! while failing (its panic, its traceback).

use maud::{Markup, html};
use pitboss_results::Standing;
use pitboss_results::tally::FaultRecord;

use crate::context::Context;
use crate::counts;
use crate::format::chips;

/// Faults listed per bot; the results keep more.
const LISTED: usize = 10;

/// A bot's text with its newlines kept and every other control character
/// escaped (the page escapes markup).
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() && c != '\n' { c.escape_unicode().to_string() } else { c.to_string() })
        .collect()
}

pub fn section(cx: &Context) -> Markup {
    let faulty: Vec<&Standing> = cx.results.result.standings.iter().filter(|s| s.result.faults > 0).collect();
    html! {
        section #faults {
            h2 { "Faults" }
            @if faulty.is_empty() {
                p.note { "No bot faulted: every answer was legal and in time." }
            }
            @for s in faulty { (bot(cx, s)) }
        }
    }
}

fn bot(cx: &Context, s: &Standing) -> Markup {
    let r = &s.result;
    let by_kind: Vec<String> = counts::faults(&r.tally)
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{} {k}", chips(*n as i64)))
        .collect();
    html! {
        details.fault {
            summary {
                (cx.swatch(&r.name)) b { (r.name) } ": "
                (chips(r.faults as i64)) " fault" (if r.faults == 1 { "" } else { "s" })
                " (" (by_kind.join(", ")) ")"
                @if r.disqualified { " — disqualified at the fault limit" }
            }
            ol { @for rec in r.fault_log.iter().take(LISTED) { (fault(cx, rec)) } }
        }
    }
}

fn fault(cx: &Context, rec: &FaultRecord) -> Markup {
    html! {
        li {
            "session " (rec.session) ", table " (rec.table) ", round " (chips(rec.round as i64)) ", "
            (rec.decision) " (" (rec.kind) "): " (rec.message) " "
            span.note { "— replay: " code {
                "pitboss replay " (cx.results_name) " --session " (rec.session) " --table " (rec.table) " --round " (rec.round)
            } }
            @if !rec.log.is_empty() {
                details { summary { "what it wrote while failing" } pre.log { (printable(&pitboss_files::text::failure_apart(&rec.log))) } }
            }
        }
    }
}
