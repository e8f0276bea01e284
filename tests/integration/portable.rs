//! Self-contained, portable results: the same league gives the same bytes
//! from any folder and any path spelling; `replay`, `report` and `verify`
//! work from anywhere, after a comment-only edit of the league file, and
//! (`report`) with no bot file at all; `--bots DIR` finds renamed bot
//! files by hash; `verify` catches a changed bot and an edited number;
//! fault records name their table; the published schema is current.
//!
//! `PITBOSS_BLESS=1` rewrites `docs/results.schema.json` instead of
//! failing when the types changed.

use std::path::{Path, PathBuf};

use pitboss_tests::{Ran, pitboss, wasm_path};
use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    pitboss_tests::scratch("portable", name)
}

fn hostile(name: &str) -> PathBuf {
    Path::new(tests_dir!()).join("bots/hostile").join(format!("{name}.wat"))
}

/// A league under `root/leagues/x.toml`: a named bot file, a glob, a
/// builtin and a bot that faults now and then, each alone at its table
/// (so "sometimes" sits at table 4). Returns the league file's path.
fn layout(root: &Path) -> PathBuf {
    let leagues = root.join("leagues");
    for dir in ["bots", "subs"] {
        std::fs::create_dir_all(leagues.join(dir)).unwrap();
    }
    std::fs::copy(wasm_path("basic"), leagues.join("bots/basic.wasm")).unwrap();
    std::fs::copy(hostile("sometimes"), leagues.join("bots/sometimes.wat")).unwrap();
    std::fs::copy(wasm_path("hilo"), leagues.join("subs/hilo.wasm")).unwrap();
    std::fs::copy(wasm_path("random"), leagues.join("subs/random.wasm")).unwrap();
    let text = "# Portable results\nname = \"portable\"\nvariant = \"north-american\"\nrounds = 700\nsessions = 2\n\
                seed = 3\nbankroll = 10000\nformat = \"solo\"\n\n\
                [[bot]]\nname = \"basic\"\npath = \"bots/basic.wasm\"\n\n\
                [[bot]]\npath = \"subs/*.wasm\"\n\n\
                [[bot]]\nbuiltin = \"never-bust\"\n\n\
                [[bot]]\nname = \"sometimes\"\npath = \"bots/sometimes.wat\"\n";
    let path = leagues.join("x.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn ok(ran: &Ran) {
    assert_eq!(ran.code, Some(0), "{ran:?}");
}

fn failed(ran: &Ran, says: &str) {
    assert_eq!(ran.code, Some(1), "{ran:?}");
    assert!(ran.stderr.contains(says) || ran.stdout.contains(says), "wanted `{says}`: {ran:?}");
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs the league at `root` once, writing `root/leagues/results.json`.
fn run_beside(root: &Path) -> (PathBuf, PathBuf) {
    let league = layout(root);
    let results = root.join("leagues/results.json");
    ok(&pitboss(root, &["run", "leagues/x.toml", "--json", s(&results)]));
    (league, results)
}

#[test]
fn two_folders_and_two_path_spellings_give_identical_bytes() {
    let (a, b, elsewhere) = (scratch("bytes-a"), scratch("bytes-b"), scratch("bytes-cwd"));
    layout(&a);
    layout(&b);
    let out = |name: &str| elsewhere.join(name);
    let (league_b, in_b) = (b.join("leagues/x.toml"), b.join("leagues"));
    let runs: [(&Path, &str, PathBuf); 4] = [
        (a.as_path(), "leagues/x.toml", out("1.json")),
        (a.as_path(), "./leagues/../leagues/x.toml", out("2.json")),
        (in_b.as_path(), "x.toml", out("3.json")),
        (elsewhere.as_path(), s(&league_b), out("4.json")),
    ];
    for (cwd, league, json) in &runs {
        ok(&pitboss(cwd, &["run", league, "--json", s(json), "--threads", "2"]));
    }
    let first = std::fs::read(&runs[0].2).unwrap();
    for (_, league, json) in &runs[1..] {
        assert!(std::fs::read(json).unwrap() == first, "{league} gave other bytes than leagues/x.toml");
    }
    let text = String::from_utf8(first).unwrap();
    for folder in [&a, &b, &elsewhere] {
        assert!(!text.contains(s(folder)), "a folder leaked into the results");
    }
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["schema_version"], pitboss_results::SCHEMA_VERSION);
    assert_eq!(v["league"]["file"], "x.toml");
    assert!(v["league"]["text"].as_str().unwrap().starts_with("# Portable results\n"));
    assert_eq!(v["league"]["parsed"]["rules"]["decks"], 6, "the rules in force");
    let files: Vec<&str> = v["bots"].as_array().unwrap().iter().map(|b| b["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["basic.wasm", "hilo.wasm", "random.wasm", "builtin:never-bust", "sometimes.wat"]);
    // Shards and their merge embed the league too, so they are as portable.
    ok(&pitboss(&a, &["run", "leagues/x.toml", "--shard", "0/2", "--json", s(&out("p0.json"))]));
    ok(&pitboss(&b.join("leagues"), &["run", "x.toml", "--shard", "1/2", "--json", s(&out("p1.json"))]));
    std::fs::remove_dir_all(&a).unwrap();
    ok(&pitboss(&elsewhere, &["merge", "p0.json", "p1.json", "--json", "merged.json"]));
    assert!(std::fs::read(out("merged.json")).unwrap() == text.as_bytes(), "merged shards differ");
}

#[test]
fn replay_report_and_verify_work_from_anywhere_after_a_comment_only_edit() {
    let root = scratch("anywhere");
    let (league, results) = run_beside(&root);
    // A comment-only edit changes the league file's hash, not the league.
    let mut text = std::fs::read_to_string(&league).unwrap();
    text.push_str("# a note added after the league ran\n");
    std::fs::write(&league, text).unwrap();
    let cwd = scratch("anywhere-cwd");
    // The round and table of a fault the results record, replayed.
    let v: Value = serde_json::from_slice(&std::fs::read(&results).unwrap()).unwrap();
    let sometimes = v["standings"].as_array().unwrap().iter().find(|s| s["name"] == "sometimes").unwrap();
    let fault = sometimes["fault_log"].as_array().unwrap().iter().find(|f| f["session"] == 1).unwrap();
    let (table, round) = (fault["table"].to_string(), fault["round"].to_string());
    let args = ["replay", s(&results), "--session", "1", "--table", &table, "--round", &round];
    let ran = pitboss(&cwd, &args);
    ok(&ran);
    assert!(ran.stdout.contains("seat 0: sometimes") && ran.stdout.contains("FAULT"), "{ran:?}");
    let ran = pitboss(&cwd, &["report", s(&results), "-o", "page.html"]);
    ok(&ran);
    assert!(ran.stderr.is_empty(), "no warning: {ran:?}");
    let ran = pitboss(&cwd, &["verify", s(&results)]);
    ok(&ran);
    assert!(ran.stdout.contains("verified: 2 session(s) identical, byte for byte"), "{ran:?}");
    let ran = pitboss(&cwd, &["verify", s(&results), "--sessions", "1"]);
    ok(&ran);
    assert!(ran.stdout.contains("verified: session(s) 1 identical"), "{ran:?}");
    // Nothing needs the league file at all.
    std::fs::remove_file(&league).unwrap();
    ok(&pitboss(&cwd, &["verify", s(&results), "--sessions", "0"]));
}

#[test]
fn a_mailed_results_file_reports_its_hands_and_bots_are_found_by_hash() {
    let root = scratch("mailed");
    let (_, results) = run_beside(&root);
    // The results file alone, somewhere else: the report needs nothing more.
    let mail = scratch("mailed-inbox");
    std::fs::copy(&results, mail.join("results.json")).unwrap();
    let ran = pitboss(&mail, &["report", "results.json", "-o", "page.html", "--session", "1"]);
    ok(&ran);
    assert!(ran.stderr.is_empty(), "{ran:?}");
    let html = std::fs::read_to_string(mail.join("page.html")).unwrap();
    let start = html.find(r#"<script type="application/json" id="hand-data">"#).unwrap() + 47;
    let data: Value = serde_json::from_str(&html[start..start + html[start..].find("</script>").unwrap()]).unwrap();
    let rounds = data["rounds"].as_array().unwrap();
    assert!(rounds.len() > 5, "key rounds and opening rounds: {}", rounds.len());
    for r in rounds {
        let events = r["events"].as_array().unwrap();
        assert!(events.iter().any(|e| e["event"] == "round-start") && events.iter().any(|e| e["event"] == "card"));
    }
    assert_eq!(data["tables"].as_array().unwrap().len(), 5, "solo: a table per bot");
    assert!(html.len() < 200 * 1024, "the page stays small: {} bytes", html.len());
    // Replaying needs the bot files: not here, so it says how to point at them.
    let ran = pitboss(&mail, &["replay", "results.json", "--round", "3"]);
    failed(&ran, "pass --bots DIR");
    // Renamed bot files in another folder are found by their SHA-256.
    let renamed = scratch("mailed-renamed");
    for (i, file) in ["bots/basic.wasm", "bots/sometimes.wat", "subs/hilo.wasm", "subs/random.wasm"].iter().enumerate()
    {
        std::fs::copy(root.join("leagues").join(file), renamed.join(format!("upload-{i}.bin"))).unwrap();
    }
    std::fs::write(renamed.join("notes.txt"), "not a bot").unwrap();
    let bots = ["--bots", s(&renamed)];
    ok(&pitboss(&mail, &[&["replay", "results.json", "--round", "3"][..], &bots].concat()));
    let ran = pitboss(&mail, &[&["verify", "results.json"][..], &bots].concat());
    ok(&ran);
    assert!(ran.stdout.starts_with("verified: 2 session(s)"), "{ran:?}");
}

#[test]
fn verify_catches_a_changed_bot_and_an_edited_number() {
    let root = scratch("verify");
    let (_, results) = run_beside(&root);
    // A changed bot file is refused by its hash.
    let hilo = root.join("leagues/subs/hilo.wasm");
    std::fs::copy(wasm_path("basic"), &hilo).unwrap();
    failed(&pitboss(&root, &["verify", s(&results)]), "hilo.wasm is not the file that played");
    std::fs::copy(wasm_path("hilo"), &hilo).unwrap();
    ok(&pitboss(&root, &["verify", s(&results)]));
    // An edited number is the first difference, named by its path.
    let mut v: Value = serde_json::from_slice(&std::fs::read(&results).unwrap()).unwrap();
    let win = &mut v["sessions"][1]["bots"][2]["tally"]["hands"]["win"];
    let was = win.as_u64().unwrap();
    *win = (was + 1).into();
    let tampered = root.join("leagues/tampered.json");
    std::fs::write(&tampered, serde_json::to_string_pretty(&v).unwrap() + "\n").unwrap();
    let says = format!("sessions[1].bots[2].tally.hands.win: {} in the file, {was} re-run", was + 1);
    failed(&pitboss(&root, &["verify", s(&tampered)]), &says);
    failed(&pitboss(&root, &["verify", s(&tampered), "--sessions", "1"]), &says);
    ok(&pitboss(&root, &["verify", s(&tampered), "--sessions", "0"]));
    // The same data in other bytes is not the file Pitboss wrote.
    let reformatted = root.join("leagues/compact.json");
    std::fs::write(&reformatted, std::fs::read_to_string(&results).unwrap().replace("\n", "\n ")).unwrap();
    failed(&pitboss(&root, &["verify", s(&reformatted)]), "the file was re-formatted");
    // An edited bot list is refused before anything runs.
    let mut v: Value = serde_json::from_slice(&std::fs::read(&results).unwrap()).unwrap();
    v["bots"][0]["name"] = "champion".into();
    std::fs::write(&tampered, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    failed(&pitboss(&root, &["verify", s(&tampered)]), "is not what the league's [[bot]] entries make");
}

#[test]
fn fault_records_name_their_table() {
    let root = scratch("faults");
    let (_, results) = run_beside(&root);
    let v: Value = serde_json::from_slice(&std::fs::read(results).unwrap()).unwrap();
    let standing = v["standings"].as_array().unwrap().iter().find(|s| s["name"] == "sometimes").unwrap();
    let log = standing["fault_log"].as_array().unwrap();
    assert!(log.len() >= 2, "{standing}");
    // Solo: every bot alone at its table, in league order.
    assert!(log.iter().all(|f| f["table"] == 4 && f["round"].as_u64().unwrap().is_multiple_of(64)), "{log:?}");
    assert!(log.iter().any(|f| f["session"] == 1));
}

#[test]
fn older_results_and_play_output_are_refused_in_one_line() {
    let d = scratch("old");
    let old = r#"{"pitboss_version": "0.1.0", "league_file": "x.toml", "league_sha256": "00", "bots": []}"#;
    std::fs::write(d.join("old.json"), old).unwrap();
    let ran = pitboss(&d, &["report", "old.json", "-o", "r.html"]);
    failed(&ran, "was written by an older Pitboss (results schema 1); this Pitboss reads schema 2: re-run the league");
    assert_eq!(ran.stderr.lines().count(), 1, "{ran:?}");
    ok(&pitboss(&d, &["play", "--bot", "builtin:basic", "--rounds", "100", "--json", "play.json"]));
    failed(&pitboss(&d, &["verify", "play.json"]), "is the output of `pitboss play`");
    failed(&pitboss(&d, &["replay", "play.json", "--round", "1"]), "is the output of `pitboss play`");
}

#[test]
fn the_published_schema_is_generated_from_the_types() {
    let path = Path::new(tests_dir!()).join("../docs/results.schema.json");
    let generated = pitboss_results::schema_json();
    if std::env::var_os("PITBOSS_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "{} is stale: run `PITBOSS_BLESS=1 cargo test --release -p pitboss-tests -- the_published_schema` and commit it",
        path.display()
    );
    let schema: Value = serde_json::from_str(&generated).unwrap();
    let required: Vec<&str> = schema["required"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    for key in ["schema_version", "league", "bots", "sessions", "standings"] {
        assert!(required.contains(&key), "{key}: {required:?}");
    }
}

#[test]
fn an_address_space_cap_or_pitboss_reserve_changes_no_result() {
    // With address space to spare each bot reserves a whole 32-bit memory
    // and its compiled code leaves stray accesses to guard pages; under
    // `ulimit -v` it reserves only its memory cap and checks every access.
    // A bot that strays now and then must fault at the same decisions.
    let dir = scratch("ulimit");
    let bots = [wasm_path("basic"), wasm_path("hilo"), hostile("stray")];
    let mut args: Vec<String> =
        ["play", "--variant", "swedish", "--rounds", "3000", "--seed", "9"].map(String::from).into();
    for b in &bots {
        args.extend(["--bot".to_string(), b.display().to_string()]);
    }
    let run = |json: &str, cap: Option<u64>, reserve: &str| {
        let script = match cap {
            Some(kib) => format!("ulimit -v {kib} && exec \"$0\" \"$@\""),
            None => "exec \"$0\" \"$@\"".to_string(),
        };
        let out = std::process::Command::new("sh")
            .args(["-c", &script])
            .arg(pitboss_tests::pitboss_bin())
            .args(&args)
            .args(["--json", json])
            .current_dir(&dir)
            .env("PITBOSS_CACHE_DIR", "off")
            .env("PITBOSS_RESERVE", reserve)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::read(dir.join(json)).unwrap()
    };
    let free = run("free.json", None, "auto");
    // 4 GB: too little for three whole 32-bit memories and their guards.
    let capped = run("capped.json", Some(4_000_000), "auto");
    assert_eq!(free, capped, "the same bytes either way");
    for reserve in ["whole", "cap"] {
        assert_eq!(run(&format!("{reserve}.json"), None, reserve), free, "PITBOSS_RESERVE={reserve}");
    }
    let bad = std::process::Command::new(pitboss_tests::pitboss_bin())
        .args(["play", "--bot", "builtin:basic", "--rounds", "10"])
        .env("PITBOSS_RESERVE", "lots")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(
        !bad.status.success() && said.contains("PITBOSS_RESERVE is \"lots\": it must be whole, cap or auto"),
        "{said}"
    );
    let results: Value = serde_json::from_slice(&free).unwrap();
    let faults = results["bots"][2]["faults"].as_u64().unwrap();
    assert!(faults > 10, "the stray bot faulted: {faults}");
}
