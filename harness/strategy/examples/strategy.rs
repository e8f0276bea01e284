//! `pitboss strategy` before the CLI has the command: prints a rule set's
//! chart, margins and EV off the top, or its JSON, or checks a `pitboss
//! play --json` run of `basic` against the chart's EV (`scripts/par`).
//!
//! ```text
//! cargo run --release -p pitboss-strategy --example strategy -- north-american
//! cargo run --release -p pitboss-strategy --example strategy -- swedish --json
//! cargo run --release -p pitboss-strategy --example strategy -- danish --compare play.json
//! ```

use std::process::ExitCode;

use pitboss_engine::Rules;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(variant) = args.first() else {
        eprintln!("usage: strategy VARIANT [--json | --compare PLAY.json]");
        return ExitCode::FAILURE;
    };
    let rules = match Rules::variant_by_id(variant).map(Rules::for_variant) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("strategy: {e}");
            return ExitCode::FAILURE;
        }
    };
    let report = match pitboss_strategy::analyze(&rules) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("strategy: {e}");
            return ExitCode::FAILURE;
        }
    };
    match args.get(1).map(String::as_str) {
        Some("--json") => println!("{}", serde_json::to_string_pretty(&report).expect("serialisable")),
        Some("--compare") => return compare(&report, args.get(2).map(String::as_str).unwrap_or("")),
        _ => print!("{}", pitboss_strategy::render(&report)),
    }
    ExitCode::SUCCESS
}

/// Compares the first bot of a `pitboss play --json` file with the chart's
/// EV: within three standard errors passes.
fn compare(report: &pitboss_strategy::Report, path: &str) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("strategy: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    // `pitboss play --json`: bots[0].ev and its standard error; `pitboss
    // run --json`: standings[0].ev and its 95 % half-interval in %.
    let (bot, standing) = (&json["bots"][0], &json["standings"][0]);
    let found = match (bot["ev"].as_f64(), standing["ev"].as_f64()) {
        (Some(ev), _) => bot["ev_se"].as_f64().map(|se| (ev, se, &bot["rounds"])),
        (None, Some(ev)) => standing["ev_ci95_pct"].as_f64().map(|ci| (ev, ci / 196.0, &standing["rounds"])),
        (None, None) => None,
    };
    let Some((ev, se, Some(rounds))) = found.map(|(ev, se, r)| (ev, se, r.as_u64())) else {
        eprintln!("strategy: {path}: no EV and standard error for the first bot");
        return ExitCode::FAILURE;
    };
    let par = report.chart_ev.ev;
    let z = (ev - par) / se;
    let verdict = if z.abs() <= 3.0 { "agrees" } else { "DISAGREES" };
    println!(
        "{:<15} analyzer {:+.4} %   simulated {:+.4} % ± {:.4} (1 SE, {rounds} rounds)   z = {z:+.2}   {verdict}",
        report.variant,
        par * 100.0,
        ev * 100.0,
        se * 100.0
    );
    if z.abs() <= 3.0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
