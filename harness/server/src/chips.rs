//! An entrant's own chips over the rounds of a run, per league: one line
//! per session (the bot's net chips at the results' sample rounds, as the
//! report draws them), drawn on their page as an inline SVG chart.

use maud::{Markup, html};
use pitboss_results::ResultsFile;
use serde_json::{Value, json};

/// Sessions drawn at most.
pub const SHOWN_SESSIONS: usize = 8;

const COLOURS: [&str; 8] = ["#15803d", "#b91c1c", "#1d4ed8", "#a16207", "#7e22ce", "#0f766e", "#be185d", "#4b5563"];

/// `{rounds, sessions}` of bot `name` in `results`: the sample rounds and,
/// per session (the first [`SHOWN_SESSIONS`]), its net chips at each.
pub fn series(results: &ResultsFile, name: &str) -> Value {
    let Some(bot) = results.bots.iter().position(|b| b.name == name) else { return Value::Null };
    let sessions: Vec<&Vec<i64>> = results
        .sessions
        .iter()
        .filter_map(|s| s.bots.get(bot))
        .filter(|b| !b.after_dq)
        .map(|b| &b.series)
        .take(SHOWN_SESSIONS)
        .collect();
    json!({ "rounds": results.series_rounds, "sessions": sessions })
}

/// The chart of one league's `series` (nothing without two samples).
pub fn chart(league: &str, series: &Value) -> Markup {
    let rounds: Vec<u64> = series["rounds"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
    let sessions: Vec<Vec<i64>> = series["sessions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| s.as_array().into_iter().flatten().filter_map(Value::as_i64).collect())
        .collect();
    let (Some(&last), true) = (rounds.last(), rounds.len() >= 2) else { return html! {} };
    let values = sessions.iter().flatten().copied().chain([0]);
    let (low, high) = (values.clone().min().unwrap_or(0), values.max().unwrap_or(0));
    let span = (high - low).max(1) as f64;
    let (left, top, width, height) = (56.0, 10.0, 560.0, 160.0);
    let x = |r: u64| left + width * r as f64 / last.max(1) as f64;
    let y = |v: i64| top + height * (high - v) as f64 / span;
    html! {
        h3 { (league) ": your net chips over the rounds" }
        div.scroll { svg.chips xmlns="http://www.w3.org/2000/svg" width="640" height="190" viewBox="0 0 640 190"
            role="img" aria-label=(format!("{league}: net chips over the rounds")) {
            line x1=(left) x2=(left + width) y1=(format!("{:.1}", y(0))) y2=(format!("{:.1}", y(0))) stroke="#999" stroke-dasharray="4 3" {}
            text x="4" y=(format!("{:.1}", top + 4.0)) font-size="11" fill="#555" { (high) }
            text x="4" y=(format!("{:.1}", top + height)) font-size="11" fill="#555" { (low) }
            text x=(left + width) y="186" font-size="11" fill="#555" text-anchor="end" { "round " (last) }
            @for (k, s) in sessions.iter().enumerate() {
                @let points: Vec<String> = rounds.iter().zip(s).map(|(&r, &v)| format!("{:.1},{:.1}", x(r), y(v))).collect();
                polyline points=(points.join(" ")) fill="none" stroke=(COLOURS[k % COLOURS.len()]) stroke-width="1.5" {
                    title { "session " (k) } }
            }
        } }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_per_session_scaled_to_the_chart() {
        let series = json!({ "rounds": [10, 20, 30], "sessions": [[5, -5, 10], [0, 0, -20]] });
        let svg = chart("Main", &series).into_string();
        assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
        assert!(svg.contains("round 30") && svg.contains(">10<") && svg.contains(">-20<"), "{svg}");
        assert!(chart("Main", &json!({ "rounds": [10], "sessions": [[1]] })).into_string().is_empty());
    }
}
