//! The coach (`pitboss coach --json`, given with `pitboss report --coach`):
//! per bot its EV, the EV it gave away, the optimal EV and the
//! luck-adjusted EV with their intervals, then where the EV went, largest
//! first, each situation with the command that replays an example.
//!
//! Drawn from a checked [`pitboss_results::coach::Report`] alone, so the
//! server can show the same markup on a page of its own
//! ([`crate::coach_section`]); its styles are [`crate::COACH_CSS`].

use maud::{Markup, html};
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
        ("EV", fig(c.ev), ci(c.ci95), "what it won; the true figure is within ± of it, 19 times in 20"),
        (
            "EV given away",
            format!("{:.3}", c.ev_given_away),
            String::new(),
            "what better choices would have won, knowing the cards left",
        ),
        (
            "of it off the top",
            format!("{:.3}", c.ev_given_away_off_top),
            String::new(),
            "of that, what it gave away even from a full shoe: plain mistakes",
        ),
        (
            "optimal EV",
            fig(c.ev_optimal),
            String::new(),
            "what perfect play would have won with the same bets and cards left",
        ),
        (
            "luck-adjusted EV",
            fig(c.luck_adjusted.ev),
            ci(c.luck_adjusted.ci95),
            "the EV with the luck of the cards taken out, far more precise (AIVAT)",
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
        details.counters {
            summary { "For card counters: the bets against the edge, and by the true count" }
            (betting(c))
            (by_count(c))
        }
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

/// The bets against the edge and the card counters' figures.
fn betting(c: &Coached) -> Markup {
    let b = &c.betting;
    let ror = if b.risk_of_ruin >= 1.0 { "1 (it loses)".to_string() } else { format!("{:.4}", b.risk_of_ruin) };
    html! {
        p.note.betting {
            "Betting: mean bet " (format!("{:.2}", b.mean_bet)) ", edge at the round's start " (fig(b.mean_edge))
            " per 100 bet; bet–edge correlation " (fig(b.correlation)) ", the spread won " (fig(b.spread_ev))
            " chips per 100 rounds. Win rate " (fig(b.win_rate)) " chips per 100 rounds, SD " (format!("{:.2}", b.sd))
            " a round, DI " (format!("{:+.2}", b.di).replace('-', "−")) ", SCORE " (fig(b.score)) ", N0 "
            (chips(b.n0.min(9e15) as i64)) ", risk of ruin " (ror) " for " (chips(b.bankroll)) " chips."
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
