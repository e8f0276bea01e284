//! Cost: who is slow. Each bot's fuel a decision (mean and largest), the
//! mean against the league's cap and its share of the run's decision
//! fuel, with a bar; a bot taking more than half of a run of three or
//! more is marked. Absent when no bot spent fuel (only builtins, or
//! results written before it was measured).

use maud::{Markup, html};

use crate::context::Context;
use crate::cost::{cost_cells, cost_legend};

pub fn section(cx: &Context) -> Markup {
    let cap = cx.results.league.parsed.limits.fuel_per_decision;
    let cells = cost_cells(&cx.results.result.standings, cap);
    html! {
        @if !cells.is_empty() {
            section #cost {
                h2 { "Cost of decisions" }
                div.scroll { table.cost {
                    thead { tr {
                        th.l { "bot" } th { "fuel/decision" } th { "max" } th { "of cap" } th { "of run" }
                    } }
                    tbody { @for c in &cells {
                        tr class=[c.hog.then_some("hog")] title=[c.hog.then_some("more than half of the run's decision fuel")] {
                            (cx.bot_cell(&c.name))
                            td { (c.mean) } td { (c.max) } td { (c.of_cap) }
                            td.share {
                                @if let Some(p) = c.share_permille {
                                    span.bar style=(format!("width:{}px", (p * 6).div_ceil(100))) {}
                                }
                                (c.share) @if c.hog { " (most)" }
                            }
                        }
                    } }
                } }
                p.note { (cost_legend(cap)) }
            }
        }
    }
}
