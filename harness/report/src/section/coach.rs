//! The coach (`pitboss coach --json`, given with `pitboss report --coach`):
//! per bot its EV, the EV it gave away, the optimal EV and the
//! luck-adjusted EV with their intervals, then where the EV went, largest
//! first, each situation with the command that replays an example.
//!
//! Drawn from a checked [`pitboss_results::coach::Report`] alone, so the
//! server can show the same markup on a page of its own
//! ([`crate::coach_section`]); its styles are [`crate::COACH_CSS`].

use maud::{Markup, html};
use pitboss_results::coach::{Coached, Group, Report};

use crate::format::chips;

/// Situations shown per bot; the rest are in the coach's JSON.
const SHOWN: usize = 12;

/// The section: one block per bot of each report.
pub fn section(reports: &[Report]) -> Markup {
    html! {
        section #coach .coach {
            h2 { "Coach: where each bot gives EV away" }
            p.note {
                "Every figure is in chips per 100 chips staked. "
                "Each decision is valued exactly from the cards the bot had not seen; "
                "the EV given away is best − chosen, so bad luck costs nothing there. "
                "EV + EV given away = optimal EV in expectation (the performance-difference identity)."
            }
            @for report in reports {
                @for bot in &report.bots {
                    (figures(report, bot))
                    (situations(bot))
                }
            }
        }
    }
}

/// A figure with its sign, 3 decimals, a true minus.
fn fig(x: f64) -> String {
    format!("{x:+.3}").replace('-', "−")
}

/// ± a half-width.
fn ci(x: f64) -> String {
    format!("± {x:.3}")
}

fn figures(report: &Report, c: &Coached) -> Markup {
    let rows: [(&str, String, String, &str); 5] = [
        ("EV", fig(c.ev), ci(c.ci95), "what the bot won"),
        (
            "EV given away",
            format!("{:.3}", c.ev_given_away),
            String::new(),
            "best − chosen at each decision, from the shoe it saw",
        ),
        (
            "of it off the top",
            format!("{:.3}", c.ev_given_away_off_top),
            String::new(),
            "strategy errors whatever the count",
        ),
        ("optimal EV", fig(c.ev_optimal), String::new(), "optimal play from each round's shoe, with the bot's bets"),
        (
            "luck-adjusted EV",
            fig(c.luck_adjusted.ev),
            ci(c.luck_adjusted.ci95),
            "the result less the luck of every card (AIVAT)",
        ),
    ];
    html! {
        h3 { (c.bot) }
        p.note {
            code { "pitboss coach" } " on " (report.variant) " from seed " (report.seed) ": "
            (chips(c.rounds as i64)) " rounds, " (chips(c.decisions as i64)) " decisions valued; identity gap "
            (fig(c.identity_gap)) " " (ci(c.identity_ci95)) " (with the luck out " (fig(c.identity_adjusted.ev)) " "
            (ci(c.identity_adjusted.ci95)) "): zero in expectation."
        }
        table.figs {
            tbody {
                @for (name, value, interval, what) in rows {
                    tr { th.l scope="row" { (name) } td { (value) } td { (interval) } td.what { (what) } }
                }
            }
        }
    }
}

fn situations(c: &Coached) -> Markup {
    if c.situations.is_empty() {
        return html! { p { "No decision gave EV away." } };
    }
    let shown: Vec<&Group> = c.situations.iter().take(SHOWN).collect();
    html! {
        div.scroll { table.situations {
            thead { tr {
                th { "given away" } th.l { "situation" } th { "count" } th.missed { "missed" } th.l { "bot" } th.l { "best" }
            } }
            tbody {
                @for g in shown {
                    tr.sit {
                        td { (format!("{:.4}", g.ev_given_away)) }
                        td.l.sit { (situation(g)) }
                        td { (chips(g.count as i64)) } td.missed { (chips(g.mistakes as i64)) }
                        td.l { (g.choice) } td.l { b { (g.best) } }
                    }
                    tr.cmd { td.cmd colspan="6" {
                        "round " (g.example_round)
                        @if !g.replay.is_empty() { ": " code { (g.replay) } }
                    } }
                }
            }
        } }
        @if c.situations.len() > SHOWN {
            p.note { (c.situations.len() - SHOWN) " more situations in the coach's JSON." }
        }
    }
}

/// `play: hard 16 v T`, `side bet`.
fn situation(g: &Group) -> String {
    match (g.hand.is_empty(), g.up.is_empty()) {
        (true, _) => g.decision.clone(),
        (false, true) => format!("{}: {}", g.decision, g.hand),
        (false, false) => format!("{}: {} v {}", g.decision, g.hand, g.up),
    }
}
