//! `pitboss submissions --server URL --token T`: one's own submissions on
//! a competition server, newest first, with their verdicts. Every text
//! the server sends is shown with its control characters escaped.

use anyhow::{Context, Result, bail};
use pitboss_host::text::excerpt;
use serde_json::Value;

use super::submit::{agent, base};

/// List your submissions to a competition server: id, time, outcome,
/// size, SHA-256, the active one marked, each verdict's first line, and
/// each passing one's score; `--show ID` prints one whole verdict and its
/// check's report.
#[derive(clap::Args)]
pub struct Args {
    /// The server, e.g. https://pitboss.example.edu
    #[arg(long, value_name = "URL")]
    server: String,
    /// Your entrant token (pbe_…).
    #[arg(long, value_name = "TOKEN")]
    token: String,
    /// Show only submission ID, with its whole verdict (a line per
    /// league) and its check's full report.
    #[arg(long, value_name = "ID")]
    show: Option<i64>,
}

/// Fetches and prints the submissions.
pub fn run(args: Args) -> Result<()> {
    let one = args.show.map(|id| format!("/{id}")).unwrap_or_default();
    let url = format!("{}/api/submissions{one}", base(&args.server));
    let mut answer = agent()
        .get(&url)
        .header("Authorization", &format!("Bearer {}", args.token))
        .call()
        .with_context(|| format!("cannot reach {}", base(&args.server)))?;
    let status = answer.status();
    let body: Value =
        answer.body_mut().read_json().with_context(|| format!("the server answered {status} without JSON"))?;
    if !status.is_success() {
        bail!("the server answered {status}: {}", excerpt(body["error"].as_str().unwrap_or("?"), 500));
    }
    if args.show.is_some() {
        line(&body);
        for text in [&body["verdict"], &body["report"]] {
            out!("");
            for l in text.as_str().unwrap_or("").lines() {
                out!("  {}", excerpt(l, 2_000));
            }
        }
        return Ok(());
    }
    let subs = body.as_array().map_or(&[][..], Vec::as_slice);
    if subs.is_empty() {
        out!("no submissions yet");
    }
    for s in subs {
        line(s);
    }
    Ok(())
}

/// Submission `s`'s line (its verdict's first line), and its score's.
fn line(s: &Value) {
    let sha = s["sha256"].as_str().map_or_else(|| "-".to_string(), |h| excerpt(h, 12));
    let verdict = s["verdict"].as_str().unwrap_or("").lines().next().unwrap_or("");
    out!(
        "#{:<5} {}  {:<8} {:>9} bytes  {:<13} {:<6} {}",
        s["id"].as_i64().unwrap_or(0),
        pitboss_server::competition::format_time(s["created"].as_u64().unwrap_or(0)),
        excerpt(s["outcome"].as_str().unwrap_or("?"), 10),
        s["size"].as_u64().unwrap_or(0),
        sha,
        if s["active"].as_bool() == Some(true) { "ACTIVE" } else { "" },
        excerpt(verdict, 200)
    );
    if let Some(score) = s["score"].as_object() {
        let f = |k: &str| score.get(k).and_then(Value::as_f64).unwrap_or(0.0);
        match score.get("error").and_then(Value::as_str) {
            Some(why) => out!("       no score: {}", excerpt(why, 300)),
            None => out!(
                "       score: EV {:+.2} ± {:.2} % over {} rounds, {:+.2} ± {:.2} chips/100 rounds against basic, \
                 would rank {} of {}",
                f("ev_pct"),
                f("ci95_pct"),
                score.get("rounds").and_then(Value::as_u64).unwrap_or(0),
                f("vs_basic_per_100_rounds"),
                f("vs_basic_ci95"),
                score.get("rank_if_active").and_then(Value::as_u64).unwrap_or(0),
                score.get("of").and_then(Value::as_u64).unwrap_or(0)
            ),
        }
    }
}
