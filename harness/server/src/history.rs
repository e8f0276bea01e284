//! Each league's rank history over the latest finished runs, drawn on the
//! leaderboard as an inline SVG chart (no script): one line per entrant,
//! rank 1 at the top, a gap where they were not in a run.

use std::collections::{BTreeMap, BTreeSet};

use maud::{Markup, html};

use crate::db::Db;
use crate::error::Error;
use crate::worker::{LeagueStandings, Summary};

/// Finished runs the chart covers, at most.
pub const HISTORY_RUNS: u32 = 20;

/// One league's history: the runs, oldest first, and each entrant's rank
/// in each (`None`: not in that run).
pub struct History {
    pub league: String,
    pub runs: Vec<i64>,
    pub ranks: BTreeMap<String, Vec<Option<usize>>>,
}

/// The histories of the leagues of the latest finished runs (blocking).
pub fn histories(db: &Db) -> Result<Vec<History>, Error> {
    let conn = db.lock();
    let mut stmt = conn.prepare("SELECT summary FROM runs WHERE state = 'done' ORDER BY id DESC LIMIT ?1")?;
    let texts: Vec<String> = stmt.query_map([HISTORY_RUNS], |r| r.get(0))?.collect::<Result<_, _>>()?;
    drop(stmt);
    drop(conn);
    let mut summaries: Vec<Summary> = texts.iter().filter_map(|t| serde_json::from_str(t).ok()).collect();
    summaries.reverse();
    let mut leagues: Vec<(&str, Vec<(i64, &LeagueStandings)>)> = Vec::new();
    for summary in &summaries {
        for league in &summary.leagues {
            match leagues.iter_mut().find(|(name, _)| *name == league.name) {
                Some((_, runs)) => runs.push((summary.run, league)),
                None => leagues.push((&league.name, vec![(summary.run, league)])),
            }
        }
    }
    let history = |(league, runs): (&str, Vec<(i64, &LeagueStandings)>)| {
        let names: BTreeSet<&str> = runs.iter().flat_map(|(_, l)| l.rows.iter().map(|r| r.name.as_str())).collect();
        let rank_in = |name: &str| -> Vec<Option<usize>> {
            runs.iter().map(|(_, l)| l.rows.iter().find(|r| r.name == name).map(|r| r.rank)).collect()
        };
        let ranks = names.into_iter().map(|n| (n.to_string(), rank_in(n))).collect();
        History { league: league.to_string(), runs: runs.iter().map(|(id, _)| *id).collect(), ranks }
    };
    Ok(leagues.into_iter().map(history).collect())
}

const COLOURS: [&str; 8] = ["#15803d", "#b91c1c", "#1d4ed8", "#a16207", "#7e22ce", "#0f766e", "#be185d", "#4b5563"];

/// The chart of one league's history (nothing before two runs).
pub fn chart(h: &History) -> Markup {
    if h.runs.len() < 2 {
        return html! {};
    }
    let most = h.ranks.values().flatten().flatten().copied().max().unwrap_or(1).max(2);
    let (left, top, step_x, step_y) = (40.0, 16.0, 560.0 / (h.runs.len() - 1) as f64, 18.0);
    let height = top * 2.0 + step_y * (most - 1) as f64;
    let x = |i: usize| left + step_x * i as f64;
    let y = |rank: usize| top + step_y * (rank - 1) as f64;
    html! {
        h3 { (h.league) ": rank over the last " (h.runs.len()) " runs" }
        div.scroll { svg.history xmlns="http://www.w3.org/2000/svg" width="640" height=(format!("{height:.0}"))
            viewBox=(format!("0 0 640 {height:.0}")) role="img" aria-label=(format!("{}: rank history", h.league)) {
            @for rank in 1..=most { text x="4" y=(format!("{:.1}", y(rank) + 4.0)) font-size="11" fill="#555" { "#" (rank) } }
            @for (k, (name, ranks)) in h.ranks.iter().enumerate() {
                @let colour = COLOURS[k % COLOURS.len()];
                @let points: Vec<String> = ranks.iter().enumerate().filter_map(|(i, r)| r.map(|r| format!("{:.1},{:.1}", x(i), y(r)))).collect();
                polyline points=(points.join(" ")) fill="none" stroke=(colour) stroke-width="2" { title { (name) } }
                @if let Some((i, Some(r))) = ranks.iter().enumerate().rev().find(|(_, r)| r.is_some()) {
                    text x=(format!("{:.1}", x(i) - 4.0)) y=(format!("{:.1}", y(*r) - 4.0)) font-size="11" fill=(colour) text-anchor="end" { (name) }
                }
            }
        } }
    }
}
