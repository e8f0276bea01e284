//! `pitboss standings --server URL`: a competition server's leaderboard,
//! the latest finished run per league and overall.

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::submit::{agent, base};

/// Print a competition server's leaderboard: the latest finished run's
/// standings per league (EV with its 95 % interval, `>` where a bot is
/// significantly ahead of the next) and overall.
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
        bail!("the server answered {status}: {}", body.get("error").and_then(Value::as_str).unwrap_or("?"));
    }
    out!("{}", body["competition"].as_str().unwrap_or("competition"));
    let latest = &body["latest"];
    if latest.is_null() {
        out!("no run has finished yet");
        return Ok(());
    }
    out!("run {}", latest["run"]);
    for league in latest["leagues"].as_array().into_iter().flatten() {
        out!();
        out!("{} ({})", league["name"].as_str().unwrap_or("?"), league["variant"].as_str().unwrap_or("?"));
        for row in league["rows"].as_array().into_iter().flatten() {
            out!(
                "{:>3} {:<5} {:<32} {:>+8.2} ± {:<6.2} {:<1}  faults {}",
                row["rank"],
                row["status"].as_str().unwrap_or(""),
                row["name"].as_str().unwrap_or("?"),
                row["ev_pct"].as_f64().unwrap_or(0.0),
                row["ev_ci95_pct"].as_f64().unwrap_or(0.0),
                row["mark"].as_str().unwrap_or(""),
                row["faults"]
            );
        }
    }
    let overall = latest["overall"].as_array().map_or(&[][..], Vec::as_slice);
    if latest["leagues"].as_array().is_some_and(|l| l.len() > 1) {
        out!();
        out!("Overall (mean rank)");
        for row in overall {
            out!(
                "{:>3} {:<32} {:.2}",
                row["rank"],
                row["name"].as_str().unwrap_or("?"),
                row["mean_rank"].as_f64().unwrap_or(0.0)
            );
        }
    }
    Ok(())
}
