//! A class's season under load on this 2-core machine: thirty entrants,
//! two leagues, a run, and ten scrimmages asked for at once while it
//! plays, pages read all along. Everything must finish; the run's time,
//! the scrimmages' queue wait and the pages' latency are printed
//! (`season-load:` line) for the record, never compared with a clock.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::server::{Server, bytes, call, scratch};
use crate::server_soak::upload_when_free;

fn pct(v: &mut [Duration], p: usize) -> u128 {
    v.sort();
    v[(v.len() * p / 100).min(v.len() - 1)].as_millis()
}

#[test]
#[ignore = "soak"]
fn thirty_entrants_two_leagues_and_ten_scrimmages_at_once() {
    let dir = scratch("season-load");
    let names: Vec<String> = (0..30).map(|i| format!("e{i:02}")).collect();
    let listed: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    let league = |name: &str, format: &str| {
        format!(
            "[[league]]\nname = \"{name}\"\nvariant = \"north-american\"\nformat = \"{format}\"\nrounds = 100000\n\
             sessions = 2\nseed = 9\nbankroll = 1000000\n"
        )
    };
    let text = format!(
        "name = \"Load cup\"\n[uploads]\nmax_kib = 512\nper_hour = 10\nscore_rounds = 5000\n\
         [scrimmages]\nmax_rounds = 20000\n[entrants]\nnames = [{}]\n{}{}",
        listed.join(", "),
        league("Shared", "table"),
        league("Duplicate", "solo")
    );
    let comp = dir.join("competition.toml");
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let bots = ["basic", "hilo", "random", "mimic_dealer", "never_bust", "template"];
    for (i, name) in names.iter().enumerate() {
        let token = server.token(name);
        let (status, verdict) = upload_when_free(&url, &token, &bytes(bots[i % bots.len()]));
        assert_eq!(status, 201, "{verdict}");
        let allow = json!({ "allow": true }).to_string();
        assert_eq!(
            call("POST", &format!("{url}/api/me/allow-scrimmages"), Some(&token), Some(allow.as_bytes())).0,
            200
        );
    }

    let start = Instant::now();
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let run = run["run"].as_i64().unwrap();
    let mut asked = Vec::new();
    for (i, name) in names.iter().take(10).enumerate() {
        let opponents = json!([names[(i + 10) % 30], names[(i + 20) % 30], "builtin:basic"]);
        let body = json!({ "league": 1 + i % 2, "rounds": 20000, "opponents": opponents }).to_string();
        let (status, v) =
            call("POST", &format!("{url}/api/scrimmages"), Some(&server.token(name)), Some(body.as_bytes()));
        assert_eq!(status, 202, "{v}");
        asked.push((server.token(name), v["scrimmage"].as_i64().unwrap(), Instant::now(), None::<Duration>));
    }
    let (mut pages, mut run_took, mut most_fds) = (Vec::new(), None, 0);
    while run_took.is_none() || asked.iter().any(|a| a.3.is_none()) {
        most_fds = most_fds.max(server.resources().0);
        for (path, token) in [("/", None), ("/api/leaderboard", None), ("/api/scrimmages", Some(asked[0].0.clone()))] {
            let t = Instant::now();
            let (status, _) = call("GET", &format!("{url}{path}"), token.as_deref(), None);
            assert_eq!(status, 200, "{path}");
            pages.push(t.elapsed());
        }
        let (_, runs) = call("GET", &format!("{url}/api/runs"), None, None);
        let state = runs.as_array().unwrap().iter().find(|r| r["id"] == run).map(|r| r["state"].clone());
        assert_ne!(state, Some(json!("failed")), "{runs}");
        if run_took.is_none() && state == Some(json!("done")) {
            run_took = Some(start.elapsed());
        }
        for a in asked.iter_mut().filter(|a| a.3.is_none()) {
            let (_, list) = call("GET", &format!("{url}/api/scrimmages"), Some(&a.0), None);
            let s: Value = list.as_array().unwrap().iter().find(|s| s["id"] == a.1).cloned().unwrap();
            assert_ne!(s["state"], "failed", "{s}");
            if s["state"] == "done" {
                assert!(run_took.is_some(), "a scrimmage finished before the official run: {s}");
                a.3 = Some(a.2.elapsed());
            }
        }
        assert!(start.elapsed() < Duration::from_secs(600), "the season under load did not finish");
        std::thread::sleep(Duration::from_millis(200));
    }
    let mut done: Vec<Duration> = asked.iter().filter_map(|a| a.3).collect();
    eprintln!(
        "season-load: 30 entrants, 2 leagues × 2 sessions × 100000 rounds: run {} ms; 10 scrimmages (3 opponents, \
         20000 rounds) asked with it: done after p50 {} ms, max {} ms; {} page loads p50 {} ms, p95 {} ms, max {} ms; \
         server peak RSS {} MiB, at most {} descriptors open",
        run_took.unwrap().as_millis(),
        pct(&mut done, 50),
        pct(&mut done, 100),
        pages.len(),
        pct(&mut pages, 50),
        pct(&mut pages, 95),
        pct(&mut pages, 100),
        server.resources().1 / 1024,
        most_fds
    );
}
