//! `pitboss standings --server URL`: a competition server's leaderboard,
//! the latest finished run per league and overall. Every text the server
//! sends is shown through [`shown`]: a hostile server cannot move the
//! terminal's cursor or hide a line.

use anyhow::{Context, Result, bail};
use pitboss_host::text::excerpt;
use serde_json::Value;

use super::submit::{agent, base};

/// Print a competition server's leaderboard: the latest finished run's
/// standings per league, ranked by final chips (net chips, EV with its 95 %
/// interval, `>` where a bot is significantly ahead of the next, the
/// luck-adjusted EV where the league measures it) and
/// overall (season points, then net chips: `pitboss_results::overall`).
#[derive(clap::Args)]
pub struct Args {
    /// The server, e.g. https://pitboss.example.edu
    #[arg(long, value_name = "URL")]
    server: String,
}

/// Fetches and prints the leaderboard.
pub fn run(args: Args) -> Result<()> {
    let url = format!("{}/api/leaderboard", base(&args.server));
    let mut answer = agent().get(&url).call().with_context(|| format!("cannot reach {}", base(&args.server)))?;
    let status = answer.status();
    let body: Value =
        answer.body_mut().read_json().with_context(|| format!("the server answered {status} without JSON"))?;
    if !status.is_success() {
        bail!("the server answered {status}: {}", shown(&body["error"], 500));
    }
    out!("{}", shown(&body["competition"], 200));
    let latest = &body["latest"];
    if latest.is_null() {
        out!("no run has finished yet");
        return Ok(());
    }
    out!(
        "run {}; ranked by final chips (net over the sessions), then EV ± its 95 % interval",
        latest["run"].as_i64().unwrap_or(0)
    );
    for league in latest["leagues"].as_array().into_iter().flatten() {
        out!();
        out!("{} ({})", shown(&league["name"], 200), shown(&league["variant"], 60));
        for row in league["rows"].as_array().into_iter().flatten() {
            // The luck-adjusted EV where the league measures it (docs/luck.md).
            let luck = match (row["luck_ev_pct"].as_f64(), row["luck_ci95_pct"].as_f64()) {
                (Some(ev), Some(ci)) => format!("  luck-adjusted {ev:+.2} ± {ci:.2}"),
                _ => String::new(),
            };
            out!(
                "{:>3} {:<5} {:<32} {:>+12} chips {:>+8.2} ± {:<6.2} {:<1}  faults {}{luck}",
                row["rank"].as_u64().unwrap_or(0),
                shown(&row["status"], 10),
                shown(&row["name"], 64),
                row["net"].as_i64().unwrap_or(0),
                row["ev_pct"].as_f64().unwrap_or(0.0),
                row["ev_ci95_pct"].as_f64().unwrap_or(0.0),
                shown(&row["mark"], 4),
                row["faults"].as_u64().unwrap_or(0)
            );
        }
    }
    let overall = latest["overall"].as_array().map_or(&[][..], Vec::as_slice);
    if latest["leagues"].as_array().is_some_and(|l| l.len() > 1) {
        out!();
        out!(
            "Overall (season points: per league, one for every entrant finished above plus one; net chips break ties)"
        );
        for row in overall {
            out!(
                "{:>3} {:<32} {:>6} points {:>12} chips",
                row["rank"].as_u64().unwrap_or(0),
                shown(&row["name"], 64),
                row["points"].as_u64().unwrap_or(0),
                row["net"].as_i64().unwrap_or(0)
            );
        }
    }
    Ok(())
}

/// A text field of the server's answer, control characters escaped and
/// cut at `max` characters (`?` when it is not text).
fn shown(value: &Value, max: usize) -> String {
    excerpt(value.as_str().unwrap_or("?"), max)
}
