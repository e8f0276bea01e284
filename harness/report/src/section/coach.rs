//! The coach (`pitboss coach --json`, given with `pitboss report --coach`):
//! per bot its figures (the coach's one list of them,
//! [`pitboss_results::coach::figures::FIGURES`]: the EV, the EV it gave
//! away, the optimal and luck-adjusted EV with their intervals, the
//! betting), then where the EV went, largest first, each situation with
//! the command that replays an example.
//!
//! Drawn from a checked [`pitboss_results::coach::Report`] alone, so the
//! server can show the same markup on a page of its own
//! ([`crate::coach_section`]); its styles are [`crate::COACH_CSS`].

use maud::{Markup, html};
use pitboss_results::coach::figures::{FIGURES, Figure, Format, Part};
use pitboss_results::coach::{Coached, FEW_HANDS, Group, Report};

use crate::format::chips;

/// Situations shown per bot; the rest are in the coach's JSON.
const SHOWN: usize = 12;

/// The section: one block per bot of each report.
pub fn section(reports: &[Report]) -> Markup {
    html! {
        section #coach .coach {
            h2 { "Coach: where each bot gives EV away" }
            p.note {
                "Every EV is in chips per 100 chips staked. "
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

/// The bot's figures, a row each from the coach's one list of them
/// ([`FIGURES`]): the result, then, for card counters, the betting.
fn figures(report: &Report, c: &Coached) -> Markup {
    html! {
        h3 { (c.bot) }
        p.note {
            code { "pitboss coach" } " on " (report.variant) " from seed " (report.seed) ": "
            (chips(c.rounds as i64)) " rounds, " (chips(c.decisions as i64)) " decisions valued."
        }
        table.figs {
            tbody {
                (rows(c, Part::Result))
            }
        }
        details.counters {
            summary { "For card counters: the bets against the edge, and by the true count" }
            table.figs { tbody { (rows(c, Part::Betting)) } }
            (by_count(c))
        }
    }
}

/// One part's figures: name, value, interval, what it means.
fn rows(c: &Coached, part: Part) -> Markup {
    html! {
        @for f in FIGURES.iter().filter(|f| f.part == part) {
            tr {
                th.l scope="row" { (f.label) }
                td { (value(f, c)) }
                td { (f.show_interval(c).unwrap_or_default()) }
                td.what { (f.what) }
            }
        }
    }
}

/// A figure's value, with a true minus and whole numbers grouped.
fn value(f: &Figure, c: &Coached) -> String {
    match f.format {
        Format::Whole => chips((f.value)(c).min(9e15) as i64),
        _ => f.show(c).replace('-', "−"),
    }
}

/// The EV given away by the true count at each round's start.
fn by_count(c: &Coached) -> Markup {
    html! {
        @if !c.by_true_count.is_empty() {
            div.scroll { table.counts {
                caption { "By Hi-Lo true count at the round's start: a deviation that pays gives EV away off the top, \
                    not from the shoe the bot saw" }
                thead { tr { th { "true count" } th { "rounds" } th { "given away" } th { "off the top" } } }
                tbody { @for t in &c.by_true_count { tr {
                    td { (format!("{:+}", t.true_count).replace('-', "−")) @if t.true_count.abs() == 4 { " or beyond" } }
                    td { (chips(t.rounds as i64)) } td { (format!("{:.3}", t.ev_given_away)) }
                    td { (format!("{:.3}", t.ev_given_away_off_top)) }
                } } }
            } }
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
            caption { "Where it gives EV away, largest first. Count: the hands it met there; missed: the times it did \
                not choose the best; given away: what those cost, per 100 of all it bet." }
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
                        @if g.count < FEW_HANDS {
                            span.few { "only " (g.count) " hand" @if g.count != 1 { "s" } ": too few to be sure of. " }
                        }
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
