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

/// A league played until it is resolved: `builtin:basic`, the Hi-Lo
/// counter and mimic-dealer are told apart long before the cap, with the
/// same stopping point and bytes on 1 and 2 threads and as 3 shards
/// merged (the shards play to the cap; the merge stops where a run does),
/// and `verify` reproduces it; sessions past the stop are refused.
#[test]
fn a_resolved_league_stops_before_its_cap_the_same_on_any_threads_and_shards() {
    let d = dir("resolved");
    let league = three_bots(&d, 2000, 30, 5, "until = \"resolved\"\nbatch = 3");
    let league = league.to_str().unwrap();
    let out = run(&d, &["run", league, "--json", "one.json", "--threads", "1"]);
    run(&d, &["run", league, "--json", "two.json", "--threads", "2"]);
    let results = json(&d.join("one.json"));
    let r = &results["resolution"];
    assert_eq!(r["resolved"], true, "{r}");
    let sessions = r["sessions"].as_u64().unwrap();
    assert!(sessions < 30 && sessions.is_multiple_of(3), "{r}");
    assert_eq!((r["pairs"].as_u64(), r["pairs_resolved"].as_u64()), (Some(2), Some(2)));
    assert_eq!(r["rounds"].as_u64(), Some(sessions * 2000));
    assert_eq!(results["session_count"].as_u64(), Some(sessions));
    assert_eq!(results["sessions"].as_array().unwrap().len() as u64, sessions);
    let names: Vec<&str> =
        results["standings"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["hilo", "basic", "mimic-dealer"]);
    assert!(
        out.contains(&format!("Resolved: all 2 adjacent pairs in play separated after look {} of 10", sessions / 3))
    );
    assert!(out.contains("it ranks by the luck-adjusted results"), "{out}");
    let bytes = std::fs::read(d.join("one.json")).unwrap();
    assert_eq!(bytes, std::fs::read(d.join("two.json")).unwrap(), "1 and 2 threads");
    for i in 0..3 {
        run(&d, &["run", league, "--shard", &format!("{i}/3"), "--json", &format!("shard{i}.json")]);
    }
    run(&d, &["merge", "shard0.json", "shard1.json", "shard2.json", "--json", "merged.json"]);
    assert_eq!(bytes, std::fs::read(d.join("merged.json")).unwrap(), "3 shards merged");
    assert!(run(&d, &["verify", "one.json"]).contains(&format!("verified: {sessions} session(s) identical")));

    // Sessions that stop short of the look that resolves the league, or
    // play on past it, are not what the league makes: `assemble` (and so
    // `verify` and `merge`) refuses them.
    let file = pitboss_league::file::parse(Path::new(league)).unwrap();
    let sandbox = pitboss_league::sandbox().unwrap();
    let played =
        pitboss_league::league::run_sessions(&file, Path::new(league), &sandbox, Some(2), &|_| (), Some((0, 1)))
            .unwrap();
    assert_eq!(played.sessions.len(), 30, "a shard plays to the cap");
    let assemble = |k: usize| pitboss_league::league::assemble(&file, played.sources.clone(), &played.sessions[..k]);
    assert_eq!(serde_json::to_vec_pretty(&assemble(sessions as usize).unwrap().1).unwrap(), bytes[..bytes.len() - 1]);
    for k in [sessions as usize - 3, sessions as usize - 1, sessions as usize + 3, 30] {
        let why = format!("{:#}", assemble(k).unwrap_err());
        assert!(why.contains(&format!("does not stop after {k} sessions")), "{k}: {why}");
    }
    let mut shard: Value = json(&d.join("shard0.json"));
    shard["sessions"].as_array_mut().unwrap().truncate(1);
    std::fs::write(d.join("short.json"), serde_json::to_string(&shard).unwrap()).unwrap();
    let ran = pitboss(&d, &["merge", "short.json", "shard1.json", "shard2.json", "--json", "bad.json"]);
    assert_ne!(ran.code, Some(0), "a shard short of sessions is refused");
}

/// `until` and `batch` are range-checked where they are written.
#[test]
fn until_and_batch_are_refused_outside_their_ranges_at_their_line() {
    let d = dir("keys");
    for (extra, sessions, why) in [
        ("until = \"forever\"", 30, ":8:9: until = \"forever\" is not \"resolved\""),
        ("batch = 3", 30, ":8:9: batch is for a league with until = \"resolved\""),
        ("until = \"resolved\"\nbatch = 0", 30, ":9:9: batch = 0 is outside 1..=30"),
        ("until = \"resolved\"\nbatch = 31", 30, ":9:9: batch = 31 is outside 1..=30"),
        (
            "until = \"resolved\"",
            2,
            ":8:9: until = \"resolved\" compares bots session by session: it needs sessions >= 3",
        ),
        ("until = \"resolved\"\nbatch = 1", 1001, ":9:9: batch = 1 makes 1001 looks over 1001 sessions; at most 1000"),
    ] {
        let league = three_bots(&d, 100, sessions, 1, extra);
        let ran = pitboss(&d, &["run", league.to_str().unwrap()]);
        assert_eq!(ran.code, Some(1), "{extra}");
        assert!(ran.stderr.contains(why) && ran.stderr.trim().lines().count() == 1, "{extra}: {}", ran.stderr);
    }
}

/// Two identical bots (basic strategy twice, at one table) over 200
/// seeds: the resolved league's test calls one "better" in at most 5 % of
/// them, through the very code `pitboss run` stops with
/// (`league::run_with`).
#[test]
fn two_identical_bots_are_called_different_in_at_most_five_percent_of_seeds() {
    let d = dir("identical");
    let sandbox = pitboss_league::sandbox().unwrap();
    let (mut false_better, mut cap) = (0, 0);
    let seeds = 200;
    for seed in 0..seeds {
        let text = format!(
            "name = \"twins\"\nvariant = \"north-american\"\nrounds = 300\nsessions = 12\nseed = {seed}\n\
             bankroll = 100000\nuntil = \"resolved\"\nbatch = 3\n\
             [[bot]]\nname = \"a\"\nbuiltin = \"basic\"\n[[bot]]\nname = \"b\"\nbuiltin = \"basic\"\n"
        );
        let path = d.join("twins.toml");
        std::fs::write(&path, text).unwrap();
        let file = pitboss_league::file::parse(&path).unwrap();
        let (result, _) = pitboss_league::league::run_with(&file, &path, &sandbox, Some(2), &|_| ()).unwrap();
        let r = result.resolution.unwrap();
        false_better += u64::from(r.resolved);
        cap += u64::from(r.sessions == 12);
    }
    eprintln!("two identical bots: {false_better} of {seeds} seeds called different; {cap} played to the cap");
    assert!(false_better * 20 <= seeds, "{false_better} of {seeds}");
    assert_eq!(false_better + cap, seeds, "a league unresolved stops only at the cap");
}
