//! EV, % of the initial stakes: one bar per bot in rank order, with its
//! 95 % interval.

use maud::{Markup, html};
use pitboss_results::Status;

use crate::context::Context;
use crate::svg::{Bar, ev_chart};

pub fn section(cx: &Context) -> Markup {
    let bars: Vec<Bar> = cx
        .results
        .result
        .standings
        .iter()
        .map(|st| {
            let name = &st.result.name;
            let out = st.status != Status::Active;
            let short: String =
                if name.chars().count() > 26 { name.chars().take(25).chain(['…']).collect() } else { name.clone() };
            Bar {
                bot: cx.index(name),
                label: if out { format!("{} {short}", st.status.label()) } else { short },
                title: match (out, st.result.disqualified) {
                    (false, _) => name.clone(),
                    (true, true) => format!("{name} (disqualified)"),
                    (true, false) => format!("{name} (broke)"),
                },
                ev: st.ev_pct,
                ci95: st.ev_ci95_pct,
                out,
            }
        })
        .collect();
    html! {
        section #ev {
            h2 { "EV, % of the initial stakes" }
            p.note {
                "Bars: net chips per 100 chips initially staked (box and back bets), over the rounds each bot "
                "played; whiskers: the 95 % confidence interval. Grey bars: bots out of play (broke or disqualified)."
            }
            (ev_chart(&bars))
        }
    }
}
