//! Two of one's passing submissions compared on the same cards: `GET
//! /api/submissions/compare?a=ID&b=ID` (JSON) and `/me/compare?a=ID&b=ID`
//! (a page), played by [`crate::scores::compared`].

use axum::extract::{Query, State};
use axum::response::IntoResponse;
use maud::html;

use crate::answer::Answer;
use crate::auth::{EntrantCaller, EntrantVisitor};
use crate::page::page;
use crate::scores::{Pair, compared};
use crate::state::Shared;

/// `GET /api/submissions/compare?a=ID&b=ID`: two of one's passing
/// submissions on the same cards.
pub async fn compare_json(
    State(app): State<Shared>,
    EntrantCaller(who): EntrantCaller,
    Query(pair): Query<Pair>,
) -> Answer {
    let d = compared(&app, who, pair).await?;
    Ok(axum::Json(d).into_response())
}

/// `GET /me/compare?a=ID&b=ID`: the comparison as a page.
pub async fn compare_page(State(app): State<Shared>, visitor: EntrantVisitor, Query(pair): Query<Pair>) -> Answer {
    let d = compared(&app, visitor.entrant.clone(), pair).await?;
    let [a, b] = &d.sides;
    let clear = d.diff_per_100_rounds.abs() > d.diff_ci95;
    let (ahead, behind) = if d.diff_per_100_rounds >= 0.0 { (a, b) } else { (b, a) };
    let body = html! {
        h1 { "Submission " (a.name) " against " (b.name) }
        p.small { "Both played the same " (d.rounds) " rounds of " (app.competition.leagues.first().map_or("", |l| l.name.as_str()))
            " (duplicate shoes: the same cards, each alone at its table)." }
        div.scroll { table #compare { thead { tr { th { "Submission" } th { "EV per 100 staked" } th { "Net chips" } th { "Faults" } th { "Status" } } }
            tbody { @for s in &d.sides { tr { td { (s.name) } td.num { (format!("{:+.2} ± {:.2} %", s.ev_pct, s.ci95_pct)) }
                td.num { (s.net) } td.num { (s.faults) } td { (s.status) } } } } } }
        p.banner.passed #difference {
            (a.name) " − " (b.name) ": " (format!("{:+.2} ± {:.2}", d.diff_per_100_rounds, d.diff_ci95)) " chips per 100 rounds (paired 95 % interval). "
            @if clear { (ahead.name) " is ahead of " (behind.name) ", beyond luck." } @else { "The difference could be luck: play more rounds or change more." }
        }
        p { a href="/me" { "← back" } }
    };
    Ok(page("Compare", Some(&visitor.session), body))
}
