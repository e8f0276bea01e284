//! How each bot played: hand outcomes and actions, where it won and lost
//! by the dealer's up card, the extra bets it was offered and took, and
//! the decisions it was asked by kind. Tables show only the kinds of bet
//! and decision the league had.

use maud::{Markup, html};
use pitboss_results::Standing;
use pitboss_results::tally::{UpCard, Wager};
use pitboss_sdk::Decision;

use crate::context::Context;
use crate::counts::{self, Extra};
use crate::format::{chips, pct, signed};

pub fn section(cx: &Context) -> Markup {
    html! {
        section #play {
            h2 { "How each bot played" }
            (outcomes(cx))
            (heat_map(cx))
            (extra_bets(cx))
            (decisions(cx))
        }
    }
}

fn standings<'a>(cx: &Context<'a>) -> &'a [Standing] {
    &cx.results.result.standings
}

/// A count in a cell of its own.
fn count(n: u64) -> Markup {
    html! { td.n { (chips(n as i64)) } }
}

fn outcomes(cx: &Context) -> Markup {
    html! {
        div.scroll { table {
            thead { tr {
                th.l { "bot" }
                @for h in ["hands", "won", "pushed", "lost", "blackjacks", "busts", "doubles", "splits", "surrenders"] {
                    th { (h) }
                }
            } }
            tbody {
                @for s in standings(cx) {
                    @let p = counts::play(&s.result.tally);
                    tr {
                        (cx.bot_cell(&s.result.name))
                        (count(p.hands))
                        td.n { (pct(p.won, p.hands)) } td.n { (pct(p.pushed, p.hands)) } td.n { (pct(p.lost, p.hands)) }
                        (count(p.blackjacks)) (count(p.busts)) (count(p.doubles)) (count(p.splits)) (count(p.surrenders))
                    }
                }
            }
        } }
    }
}

/// Net per 100 chips staked on a bot's hands facing one up card.
fn rate(u: &UpCard) -> Option<f64> {
    (u.staked > 0).then(|| 100.0 * u.net as f64 / u.staked as f64)
}

/// Where each bot won and lost: net per 100 chips staked, by the
/// dealer's up card, as a heat map (left out when no hand was counted).
fn heat_map(cx: &Context) -> Markup {
    if !standings(cx).iter().any(|s| s.result.tally.by_dealer_up.iter().any(|u| u.hands > 0)) {
        return html! {};
    }
    let scale = standings(cx)
        .iter()
        .flat_map(|s| s.result.tally.by_dealer_up.iter().filter_map(rate))
        .fold(1.0f64, |m, x| m.max(x.abs()))
        .min(100.0);
    let cell = |u: &UpCard| match rate(u) {
        None => html! { td.c { "–" } },
        Some(x) => {
            let a = (x.abs() / scale).min(1.0) * 0.75;
            let bg = if x >= 0.0 { format!("rgba(27,122,61,{a:.2})") } else { format!("rgba(179,38,30,{a:.2})") };
            let title = format!("{} hands, {} staked, net {}", chips(u.hands as i64), chips(u.staked), signed(u.net));
            html! { td.c style=(format!("background:{bg}")) title=(title) { (format!("{x:+.1}")) } }
        }
    };
    html! {
        h3 { "Where each bot won and lost" }
        p.note {
            "Net chips per 100 staked on the bot's hands, by the dealer's up card (the banker's face-up card in "
            "the banker game); green won, red lost. Hover a cell for the counts."
        }
        div.scroll { table.heat {
            thead { tr {
                th.l { "bot \\ dealer shows" }
                @for label in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"] { th { (label) } }
            } }
            tbody {
                @for s in standings(cx) {
                    tr { (cx.bot_cell(&s.result.name)) @for u in &s.result.tally.by_dealer_up { (cell(u)) } }
                }
            }
        } }
    }
}

/// A wager's cells: placed, the share won, the net.
fn wager_cells(w: &Wager) -> Markup {
    if w.placed == 0 {
        return html! { td.n { "0" } td.n { "–" } td.n { "–" } };
    }
    html! { (count(w.placed)) td.n { (pct(w.won, w.placed)) } td.n { (signed(w.net())) } }
}

/// Insurance, side and back bets: only the kinds this league offered.
fn extra_bets(cx: &Context) -> Markup {
    let offered: Vec<&(&str, Extra)> = counts::EXTRAS
        .iter()
        .filter(|(_, get)| {
            standings(cx).iter().any(|s| get(&s.result.tally).0 > 0 || get(&s.result.tally).1.placed > 0)
        })
        .collect();
    if offered.is_empty() {
        return html! {};
    }
    html! {
        h3 { "Insurance, side and back bets" }
        div.scroll { table {
            thead {
                tr { th.l rowspan="2" { "bot" } @for (name, _) in &offered { th colspan="4" { (name) } } }
                tr { @for _ in &offered { th { "offered" } th { "taken" } th { "won" } th { "net chips" } } }
            }
            tbody {
                @for s in standings(cx) {
                    tr {
                        (cx.bot_cell(&s.result.name))
                        @for (_, get) in &offered {
                            @let (asked, w) = get(&s.result.tally);
                            (count(asked)) (wager_cells(w))
                        }
                    }
                }
            }
        } }
    }
}

/// Decisions by kind: only the kinds this league asked.
fn decisions(cx: &Context) -> Markup {
    let asked: Vec<(String, Decision)> =
        counts::decisions().filter(|(_, d)| standings(cx).iter().any(|s| s.result.tally.decisions[*d] > 0)).collect();
    html! {
        h3 { "Decisions by kind" }
        div.scroll { table {
            thead { tr {
                th.l { "bot" } @for (name, _) in &asked { th { (name) } } th { "hit" } th { "stand" } th { "all" }
            } }
            tbody {
                @for s in standings(cx) {
                    @let t = &s.result.tally;
                    @let (hits, stands) = counts::hits_and_stands(t);
                    tr {
                        (cx.bot_cell(&s.result.name))
                        @for (_, d) in &asked { (count(t.decisions[*d])) }
                        (count(hits)) (count(stands)) (count(asked.iter().map(|(_, d)| t.decisions[*d]).sum()))
                    }
                }
            }
        } }
    }
}
