//! Chips over the rounds: every bot's net chips at evenly spaced rounds,
//! summed over the sessions and session by session (one shown at a time),
//! with a legend that highlights a bot's line.

use maud::{Markup, html};
use pitboss_results::SessionRecord;

use crate::context::Context;
use crate::svg::{Line, line_chart};

/// Per-session balance charts drawn one by one; later sessions count in
/// the "all sessions" chart only, so the page stays small however many
/// sessions a league has.
const SESSION_CHARTS: usize = 24;

pub fn section(cx: &Context) -> Markup {
    let r = cx.results;
    let empty = r.series_rounds.is_empty() || r.sessions.iter().all(|s| s.bots.iter().all(|b| b.series.is_empty()));
    html! {
        section #balances {
            h2 { "Chips over the rounds" }
            @if empty {
                p.note { "This results file holds no balance series (written by an older Pitboss)." }
            } @else {
                (charts(cx))
            }
        }
    }
}

/// The picker, the charts and the legend.
fn charts(cx: &Context) -> Markup {
    let r = cx.results;
    let drawn: Vec<&SessionRecord> =
        r.sessions.iter().filter(|s| (s.session as usize) < SESSION_CHARTS || s.session == cx.session).collect();
    let order = cx.order();
    let mut sum = vec![vec![0i64; r.series_rounds.len()]; order.len()];
    for s in &r.sessions {
        for (acc, b) in sum.iter_mut().zip(&s.bots) {
            for (acc, v) in acc.iter_mut().zip(&b.series) {
                *acc = acc.saturating_add(*v);
            }
        }
    }
    let total: Vec<Line> = order.iter().zip(&sum).enumerate().map(|(bot, (name, ys))| Line { bot, name, ys }).collect();
    html! {
        p.note {
            "Net chips of every bot, sampled at evenly spaced rounds. Every session starts from the bankroll; "
            "“all sessions” adds the sessions up round by round. "
            label { "Show " select #series-pick {
                option value="all" { "all sessions (sum)" }
                @for s in &drawn { option value=(s.session) { "session " (s.session) } }
            } }
            " " label { input type="checkbox" id="full-range"; " full range" }
            " (by default the vertical axis leaves out far-off lines, such as a bot that lost its whole bankroll)"
        }
        figure.series data-session="all" { (line_chart(&r.series_rounds, &total)) }
        @if r.sessions.len() > SESSION_CHARTS {
            p.note {
                "Sessions are drawn one by one up to session " (SESSION_CHARTS - 1)
                "; the sum includes all " (r.sessions.len()) "."
            }
        }
        @for s in &drawn {
            @let lines: Vec<Line> =
                s.bots.iter().enumerate().map(|(bot, b)| Line { bot, name: &b.name, ys: &b.series }).collect();
            figure.series data-session=(s.session) hidden { (line_chart(&r.series_rounds, &lines)) }
        }
        ul.legend {
            @for (i, name) in order.iter().enumerate() { li data-bot=(i) { (cx.swatch(name)) (name) } }
        }
    }
}
