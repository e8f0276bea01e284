//! Standings that read the luck-adjusted results: the "vs next" mark from
//! the paired test of each session's luck-adjusted results (saying so),
//! carried by results, CSV, shards, merges and `verify`; and leagues
//! played until every adjacent pair is separated (`until = "resolved"`).

use std::path::{Path, PathBuf};

use pitboss_tests::pitboss;
use serde_json::Value;

fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitboss-certified-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `builtin:basic`, the Hi-Lo counter and mimic-dealer at one table, with
/// `extra` lines at the league's top level.
fn three_bots(d: &Path, rounds: u64, sessions: u64, seed: u64, extra: &str) -> PathBuf {
    let text = format!(
        "name = \"three\"\nvariant = \"north-american\"\nrounds = {rounds}\nsessions = {sessions}\nseed = {seed}\n\
         bankroll = 1000000\nformat = \"table\"\n{extra}\n\
         [[bot]]\nname = \"basic\"\nbuiltin = \"basic\"\n\
         [[bot]]\nname = \"hilo\"\nbuiltin = \"hilo\"\n\
         [[bot]]\nname = \"mimic-dealer\"\nbuiltin = \"mimic-dealer\"\n"
    );
    let path = d.join("three.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn run(d: &Path, args: &[&str]) -> String {
    let ran = pitboss(d, args);
    assert_eq!(ran.code, Some(0), "pitboss {}: {}", args.join(" "), ran.stderr);
    ran.stdout
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn standing<'a>(results: &'a Value, name: &str) -> &'a Value {
    results["standings"].as_array().unwrap().iter().find(|s| s["name"] == name).unwrap()
}

/// 4 sessions of 3,000 rounds (seed 1): the chips cannot tell the Hi-Lo
/// counter from basic strategy (`≈` by the round-by-round test of chips),
/// the luck-adjusted results can (`>`), and the output says which test the
/// mark read. Shards merged and `verify` give the same bytes.
#[test]
fn the_vs_next_mark_reads_the_luck_adjusted_results_and_says_so() {
    let d = dir("vsnext");
    let league = three_bots(&d, 3000, 4, 1, "");
    let league = league.to_str().unwrap();
    let out = run(&d, &["run", league, "--json", "results.json", "--csv", "standings.csv", "--threads", "2"]);
    let results = json(&d.join("results.json"));
    let hilo = standing(&results, "hilo");
    assert_eq!(hilo["rank"], 1, "{out}");
    assert_eq!(hilo["ahead_of_next"], false, "the chips read ≈");
    assert_eq!(hilo["vs_next"], serde_json::json!({"on": "luck-adjusted", "gap": "ahead"}));
    assert!(out.contains("vs next (luck-adjusted): paired test of the luck-adjusted results session by session"));
    assert!(out.contains("hilo leads; by luck-adjusted results its lead over basic is significant at 95 %."), "{out}");
    let row = out.lines().find(|l| l.contains(" hilo ")).unwrap();
    assert!(row.contains(" > "), "{row}");
    let csv = std::fs::read_to_string(d.join("standings.csv")).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .ends_with(",ahead_of_next,luck_ev_pct,luck_ev_ci95_low_pct,luck_ev_ci95_high_pct,vs_next_on,vs_next")
    );
    let first = csv.lines().nth(1).unwrap();
    assert!(
        first.starts_with("1,hilo,") && first.contains(",false,") && first.ends_with(",luck-adjusted,ahead"),
        "{csv}"
    );
    assert!(csv.lines().nth(3).unwrap().ends_with(",,"), "the last bot in play compares with no one: {csv}");

    for i in 0..2 {
        run(&d, &["run", league, "--shard", &format!("{i}/2"), "--json", &format!("shard{i}.json")]);
    }
    run(&d, &["merge", "shard0.json", "shard1.json", "--json", "merged.json"]);
    assert_eq!(std::fs::read(d.join("merged.json")).unwrap(), std::fs::read(d.join("results.json")).unwrap());
    assert!(run(&d, &["verify", "results.json"]).contains("identical, byte for byte"));
    // An edited mark is a difference.
    let text = std::fs::read_to_string(d.join("results.json")).unwrap();
    std::fs::write(d.join("edited.json"), text.replacen("\"gap\": \"ahead\"", "\"gap\": \"level\"", 1)).unwrap();
    let ran = pitboss(&d, &["verify", "edited.json"]);
    assert_ne!(ran.code, Some(0));
    assert!(ran.stdout.contains("vs_next.gap") || ran.stderr.contains("vs_next.gap"), "{ran:?}");

    // Without luck, or with fewer than 3 sessions, the mark is the chips'
    // as it always was, and nothing new is written.
    let no_luck = three_bots(&d, 3000, 4, 1, "luck = false");
    run(&d, &["run", no_luck.to_str().unwrap(), "--json", "off.json"]);
    let two = three_bots(&d, 3000, 2, 1, "");
    let out = run(&d, &["run", two.to_str().unwrap(), "--json", "two.json", "--csv", "two.csv"]);
    for file in ["off.json", "two.json"] {
        let text = std::fs::read_to_string(d.join(file)).unwrap();
        assert!(!text.contains("vs_next"), "{file}");
    }
    assert!(out.contains(pitboss_results::standings::LEGEND), "{out}");
    assert!(!std::fs::read_to_string(d.join("two.csv")).unwrap().contains("vs_next"));
}
