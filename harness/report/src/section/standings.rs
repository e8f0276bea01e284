//! Standings: rank, chips, EV with its interval, the luck-adjusted EV
//! (leagues that measure it), whether a bot is significantly ahead of the
//! next, faults; then the verdict, the legends and the league's warnings.

use maud::{Markup, html};
use pitboss_results::sequential::Basis;
use pitboss_results::standings::{LUCK_LEGEND, league_luck_note, legend, resolution_note, verdict, vs_next_basis};
use pitboss_results::{Standing, Status};

use crate::context::Context;
use crate::format::{chips, signed};

pub fn section(cx: &Context) -> Markup {
    let result = &cx.results.result;
    // Results without luck-adjusted figures (a league with `luck = false`,
    // or written before they existed) show no empty column for them.
    let luck = result.standings.iter().any(|s| s.luck_ev_pct.is_some());
    html! {
        section #standings {
            h2 { "Standings" }
            div.scroll { table.standings {
                thead { tr {
                    th { "#" } th.l { "bot" } th { "final chips" } th { "net chips" } th { "rounds played" }
                    th title=(concat!("net chips per 100 chips initially staked, over the rounds the bot played; ",
                        "± is the 95 % interval")) { "EV % of stake (± 95 %)" }
                    @if luck { th.luck title=(LUCK_LEGEND) { "luck-adjusted EV %" } }
                    @match vs_next_basis(&result.standings) {
                        Some(Basis::LuckAdjusted) => th title=(concat!("luck-adjusted results against the next bot in ",
                            "play, paired session by session, 95 %")) { "vs next (luck-adj.)" },
                        _ => th title="significantly ahead of the next bot in play (paired difference, 95 %)" { "vs next" },
                    }
                    th { "faults" }
                } }
                tbody { (rows(cx, &result.standings, luck)) }
            } }
            p.verdict { (verdict(&result.standings)) "." }
            p.note { (legend(&result.standings)) }
            @if let Some(r) = &result.resolution { p.note.resolution { (resolution_note(r)) } }
            @if let Some(note) = luck.then(|| league_luck_note(result)).flatten() {
                p.note.luck { (note) }
            }
            @for w in &result.warnings { p.warning { "Warning: " (w) } }
        }
    }
}

/// A row per bot; bots out of play under a heading of their own.
fn rows(cx: &Context, standings: &[Standing], luck: bool) -> Markup {
    let before = std::iter::once(Status::Active).chain(standings.iter().map(|s| s.status));
    html! {
        @for (s, before) in standings.iter().zip(before) {
            @if s.status != before { (group_heading(s.status, if luck { 9 } else { 8 })) }
            (row(cx, s, luck))
        }
    }
}

fn group_heading(group: Status, columns: usize) -> Markup {
    let title = match group {
        Status::Broke => "Broke in every session they played: out of play, not compared with the bots above",
        _ => {
            "Disqualified at the fault limit: chips frozen for the rest of the league, not compared with the bots above"
        }
    };
    html! { tr.group { th colspan=(columns) class="l" { (title) } } }
}

fn row(cx: &Context, s: &Standing, luck: bool) -> Markup {
    let r = &s.result;
    let rank = match s.status {
        Status::Active => s.rank.to_string(),
        out => format!("{} {}", s.rank, out.label()),
    };
    html! {
        tr class=[(s.status != Status::Active).then_some("dq")] {
            td { (rank) }
            td.l {
                (cx.swatch(&r.name)) (r.name)
                @if r.broke_sessions > 0 && s.status == Status::Active {
                    " " span.note {
                        "(broke in " (r.broke_sessions) " session" (if r.broke_sessions == 1 { "" } else { "s" }) ")"
                    }
                }
            }
            td.n { (chips(r.balance)) }
            td class=(if r.net < 0 { "n neg" } else { "n pos" }) { (signed(r.net)) }
            td.n { (chips(r.rounds as i64)) }
            td.n { (format!("{:+.3} % ± {:.3}", s.ev_pct, s.ev_ci95_pct)) }
            @if luck {
                td.n.luck {
                    @if let (Some(ev), Some(ci)) = (s.luck_ev_pct, s.luck_ci95_pct) { (format!("{ev:+.3}\u{a0}% ±\u{a0}{ci:.3}")) }
                }
            }
            td.c {
                @match s.mark() {
                    ">" => span.ahead title="significantly ahead of the next bot" { (s.mark()) },
                    "≈" => span title="not significantly ahead of the next bot" { (s.mark()) },
                    "<" => span title="significantly behind the next bot by luck-adjusted results" { (s.mark()) },
                    _ => {},
                }
            }
            td.n { (chips(r.faults as i64)) @if r.disqualified { " DQ" } }
        }
    }
}
