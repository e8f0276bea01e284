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

/// Ten colours told apart on white (and in print), darkest first.
const COLOURS: [&str; 10] =
    ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#4b5563", "#a16207", "#0e7490"];

/// Line patterns (SVG `stroke-dasharray`; empty: solid): with the
/// colours, 30 entrants each have a line of their own.
const DASHES: [&str; 3] = ["", "7 4", "2 3"];

/// The `k`th entrant's line: its colour and dash pattern (distinct for the
/// first `COLOURS.len() × DASHES.len()` = 30, then over again).
pub fn line_style(k: usize) -> (&'static str, &'static str) {
    (COLOURS[k % COLOURS.len()], DASHES[k / COLOURS.len() % DASHES.len()])
}

/// An entrant's line through its ranks (`M x,y L x,y …`), broken where
/// it was not in a run; a rank alone between gaps is a dot.
fn line_path(ranks: &[Option<usize>], x: &impl Fn(usize) -> f64, y: &impl Fn(usize) -> f64) -> String {
    let mut d = Vec::new();
    for (i, r) in ranks.iter().enumerate() {
        let Some(r) = *r else { continue };
        let joined = i > 0 && ranks[i - 1].is_some();
        d.push(format!("{}{:.1},{:.1}", if joined { "L" } else { "M" }, x(i), y(r)));
        if !joined && ranks.get(i + 1).is_none_or(Option::is_none) {
            d.push("h0.1".into());
        }
    }
    d.join(" ")
}

/// The chart of one league's history (nothing before two runs): an SVG
/// as wide as the page allows (at most 640 px), each line named by its
/// tooltip and in a legend below that wraps, so a phone shows the names
/// at full size.
pub fn chart(h: &History) -> Markup {
    if h.runs.len() < 2 {
        return html! {};
    }
    let most = h.ranks.values().flatten().flatten().copied().max().unwrap_or(1).max(2);
    // Drawn 480 units wide: shown at most 640 px wide (see page.css), at
    // about 0.75 of its size on a 390 px phone, its rank labels readable.
    let (left, top, step_x, step_y) = (34.0, 16.0, 436.0 / (h.runs.len() - 1) as f64, 18.0);
    let height = top * 2.0 + step_y * (most - 1) as f64;
    let x = |i: usize| left + step_x * i as f64;
    let y = |rank: usize| top + step_y * (rank - 1) as f64;
    html! {
        h3 { (h.league) ": rank over the last " (h.runs.len()) " runs" }
        figure.history {
            svg.history xmlns="http://www.w3.org/2000/svg" viewBox=(format!("0 0 480 {height:.0}"))
                role="img" aria-label=(format!("{}: rank history", h.league)) {
                @for rank in 1..=most { text x="4" y=(format!("{:.1}", y(rank) + 4.0)) font-size="12" fill="#555" { "#" (rank) } }
                @for (k, (name, ranks)) in h.ranks.iter().enumerate() {
                    @let (colour, dash) = line_style(k);
                    path d=(line_path(ranks, &x, &y)) fill="none" stroke=(colour) stroke-width="2" stroke-linecap="round"
                        stroke-dasharray=[(!dash.is_empty()).then_some(dash)] { title { (name) } }
                }
            }
            figcaption { ul.lines { @for (k, (name, ranks)) in h.ranks.iter().enumerate() {
                @let (colour, dash) = line_style(k);
                li { svg width="28" height="10" aria-hidden="true" { line x1="0" y1="5" x2="28" y2="5" stroke=(colour) stroke-width="2"
                        stroke-dasharray=[(!dash.is_empty()).then_some(dash)]; }
                    " " (name) @if let Some(Some(r)) = ranks.last() { " (#" (r) ")" } }
            } } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_breaks_where_its_entrant_was_not_in_a_run() {
        let (x, y) = (|i: usize| i as f64 * 10.0, |r: usize| r as f64);
        assert_eq!(line_path(&[Some(1), Some(2), None, Some(3)], &x, &y), "M0.0,1.0 L10.0,2.0 M30.0,3.0 h0.1");
        assert_eq!(line_path(&[None, Some(1), Some(1)], &x, &y), "M10.0,1.0 L20.0,1.0");
    }

    #[test]
    fn thirty_entrants_get_thirty_lines_of_their_own_and_every_name_in_the_legend() {
        let styles: BTreeSet<_> = (0..30).map(line_style).collect();
        assert_eq!(styles.len(), 30, "{styles:?}");
        let ranks = (0..30).map(|k| (format!("student{k:02}"), vec![Some(k + 1), Some(30 - k)])).collect();
        let h = History { league: "Main".into(), runs: vec![1, 2], ranks };
        let svg = chart(&h).into_string();
        let drawn: BTreeSet<(&str, &str)> = svg
            .split("<path ")
            .skip(1)
            .map(|line| {
                let attr = |key: &str| line.split(&format!(" {key}=\"")).nth(1).and_then(|v| v.split('"').next());
                (attr("stroke").unwrap_or(""), attr("stroke-dasharray").unwrap_or(""))
            })
            .collect();
        assert_eq!(drawn.len(), 30, "30 lines told apart: {drawn:?}");
        assert_eq!(svg.matches("<path ").count(), 30, "{svg}");
        for k in 0..30 {
            assert!(svg.contains(&format!(" student{k:02} (#{})</li>", 30 - k)), "student{k:02} in the legend: {svg}");
        }
    }
}
