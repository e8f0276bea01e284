//! `pitboss check` gating a folder of submissions: one line per bot and a
//! count, one exit status for the batch, JSON verdicts, and a bot checked
//! only for what its league plays (`--variant`, `--league` with the
//! league's rules and `[limits]`).

use std::path::{Path, PathBuf};

use pitboss_tests::{Ran, pitboss, wasm_path};
use serde_json::{Value, json};

fn scratch(name: &str) -> PathBuf {
    pitboss_tests::scratch("check", name)
}

fn hostile(name: &str) -> PathBuf {
    PathBuf::from(concat!(tests_dir!(), "/bots/hostile")).join(format!("{name}.wat"))
}

/// Copies a file into `dir` as `name`.
fn copy(from: &Path, dir: &Path, name: &str) {
    std::fs::copy(from, dir.join(name)).unwrap();
}

/// A bot that bets the minimum and stands, with `body` run first on
/// every decision.
fn bot(dir: &Path, name: &str, body: &str, extra: &str) {
    let wat = format!(
        r#"(module
  (memory (export "memory") 1)
  {extra}
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (local $i i32)
    {body}
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))"#
    );
    std::fs::write(dir.join(name), wat).unwrap();
}

/// Traps whenever the request's rule-set byte (offset 3) says
/// `norwegian-home` (3): a bot that only breaks in the banker game.
const TRAPS_IN_THE_BANKER_GAME: &str = "(if (i32.eq (i32.load8_u (i32.const 1027)) (i32.const 3)) (then unreachable))";

/// Traps when a `BET` request's largest stake (offset 40) is over 500.
const SMALL_STAKES_ONLY: &str = "(if (i32.and (i32.eq (local.get $kind) (i32.const 1))
                 (i64.gt_s (i64.load (i32.const 1064)) (i64.const 500)))
      (then unreachable))";

/// Spends about 10,000 fuel on every decision: far under the default
/// limit, over a league's `fuel_per_decision = 1000`.
const BURNS_FUEL: &str = "(loop $burn
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $burn (i32.lt_u (local.get $i) (i32.const 2000))))";

/// A league file of `variant` in `format` with `extra` appended.
fn league(dir: &Path, name: &str, variant: &str, format: &str, extra: &str) -> String {
    let text = format!(
        "name = \"{name}\"\nvariant = \"{variant}\"\nrounds = 1000\nseed = 1\nbankroll = 100000\n\
         format = \"{format}\"\n\n[[bot]]\nbuiltin = \"basic\"\n{extra}"
    );
    std::fs::write(dir.join(name), text).unwrap();
    name.to_string()
}

fn code(ran: &Ran, expected: i32) {
    assert_eq!(ran.code, Some(expected), "{ran:?}");
}

fn json(text: &str) -> Vec<Value> {
    match serde_json::from_str(text) {
        Ok(Value::Array(bots)) => bots,
        other => panic!("not a JSON array: {other:?}\n{text}"),
    }
}

#[test]
fn several_files_get_one_line_each_and_a_count_and_one_status() {
    let dir = scratch("lines");
    copy(&wasm_path("basic"), &dir, "student01-basic.wasm");
    copy(&hostile("sometimes"), &dir, "student02.wat");
    copy(&hostile("unknown-import"), &dir, "s3.wat");
    copy(&hostile("../minimal"), &dir, "evil\u{1b}[31m.wat");

    let ran = pitboss(&dir, &["check", "student01-basic.wasm", "student02.wat", "s3.wat", "evil\u{1b}[31m.wat"]);
    code(&ran, 1);
    let lines: Vec<&str> = ran.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{}", ran.stdout);
    assert!(lines[0].starts_with("OK    student01-basic.wasm   4 rule sets, 0 faults, fuel max "), "{}", lines[0]);
    assert!(lines[0].ends_with(" / 1000000"), "{}", lines[0]);
    assert!(lines[1].starts_with("FAIL  student02.wat"), "{}", lines[1]);
    assert!(lines[1].contains(" faults (first: north-american round 128, act: wasm trap: "), "{}", lines[1]);
    assert!(lines[2].starts_with("FAIL  s3.wat "), "{}", lines[2]);
    assert!(lines[2].contains("   refused: imports `wasi_snapshot_preview1.sock_accept`"), "{}", lines[2]);
    assert!(lines[3].starts_with("OK    evil\\u{1b}[31m.wat"), "the name is escaped: {}", lines[3]);
    assert!(!ran.stdout.contains('\u{1b}'), "{}", ran.stdout);
    // The names padded to the longest (`evil\u{1b}[31m.wat` escaped is
    // shorter than `student01-basic.wasm`): the details line up.
    let column = "OK    ".len() + "student01-basic.wasm".len() + 3;
    for line in &lines[..4] {
        assert!(line[..column].ends_with("   ") && !line[column..].starts_with(' '), "{lines:#?}");
    }
    assert_eq!(lines[4], "4 bots: 2 passed, 2 failed");
    assert_eq!(ran.stderr, "");

    // All passing: status 0.
    let ran = pitboss(&dir, &["check", "student01-basic.wasm", "evil\u{1b}[31m.wat"]);
    code(&ran, 0);
    assert_eq!(ran.stdout.lines().last(), Some("2 bots: 2 passed, 0 failed"), "{}", ran.stdout);

    // One file: the full report, as before; `--summary` makes it a line.
    let ran = pitboss(&dir, &["check", "student01-basic.wasm"]);
    code(&ran, 0);
    assert!(ran.stdout.starts_with("student01-basic.wasm: loads as a bot (ABI v6)\n"), "{}", ran.stdout);
    let defaults = "answers bet, insurance, even-money, side-bet and back-bet by default, unasked";
    let banker = "answers insurance, even-money, side-bet and back-bet by default, unasked";
    assert!(ran.stdout.contains(&format!("norwegian-home: 2000 rounds ({banker})\n")), "{}", ran.stdout);
    let danish =
        format!("danish: 2000 rounds (reads no events here, so is sent none; {defaults}; act keyed by legal, ");
    assert!(ran.stdout.contains(&danish), "{}", ran.stdout);
    assert!(ran.stdout.ends_with("\nstudent01-basic.wasm: OK\n"), "{}", ran.stdout);
    let ran = pitboss(&dir, &["check", "--summary", "student02.wat"]);
    code(&ran, 1);
    assert_eq!(ran.stdout.lines().count(), 2, "{}", ran.stdout);
    assert!(ran.stdout.ends_with("\n1 bot: 0 passed, 1 failed\n"), "{}", ran.stdout);

    // Several files: `--details` gives each the full report, then the count.
    let ran = pitboss(&dir, &["check", "--details", "student01-basic.wasm", "s3.wat"]);
    code(&ran, 1);
    assert!(ran.stdout.contains("student01-basic.wasm: OK\ns3.wat: FAILED: imports `wasi"), "{}", ran.stdout);
    assert!(ran.stdout.contains(&danish), "{}", ran.stdout);
    assert!(ran.stdout.ends_with("\n2 bots: 1 passed, 1 failed\n"), "{}", ran.stdout);
    code(&pitboss(&dir, &["check", "--details", "--summary", "s3.wat"]), 2);
}

#[test]
fn json_verdicts_name_each_bot_its_refusal_or_its_first_fault() {
    let dir = scratch("json");
    copy(&wasm_path("basic"), &dir, "basic.wasm");
    copy(&hostile("sometimes"), &dir, "sometimes.wat");
    copy(&hostile("unknown-import"), &dir, "import.wat");
    let args = ["check", "basic.wasm", "sometimes.wat", "import.wat", "missing.wasm", "--json", "v.json"];
    let ran = pitboss(&dir, &args);
    code(&ran, 1);
    assert!(ran.stdout.ends_with("\n4 bots: 1 passed, 3 failed\n"), "{}", ran.stdout);
    let text = std::fs::read_to_string(dir.join("v.json")).unwrap();
    let bots = json(&text);
    assert_eq!(bots.len(), 4);
    let sha = |name: &str| pitboss_league::bots::sha256_hex(&std::fs::read(dir.join(name)).unwrap());

    let basic = &bots[0];
    assert_eq!(basic["file"], "basic.wasm");
    assert_eq!(basic["sha256"], sha("basic.wasm").as_str());
    assert_eq!(basic["passed"], true);
    assert_eq!(basic["refusal"], Value::Null);
    assert_eq!(basic["abi_version"], 6, "the Rust SDK builds ABI v6 bots");
    let rule_sets = basic["rule_sets"].as_array().unwrap();
    let ids: Vec<&str> = rule_sets.iter().map(|r| r["rule_set"].as_str().unwrap()).collect();
    assert_eq!(ids, ["north-american", "swedish", "danish", "norwegian-home"]);
    let reads: Vec<bool> = rule_sets.iter().map(|r| r["reads_events"].as_bool().unwrap()).collect();
    assert_eq!(reads, [false, false, false, true], "basic reads events only in the banker game (ABI v2)");
    assert!(bots[1]["rule_sets"].as_array().unwrap().iter().all(|r| r["reads_events"] == true), "a v1 bot reads all");
    for r in rule_sets {
        // Basic leaves its bet (outside the banker game) and every offer
        // to the default (ABI v3): never asked, so not among the decisions
        // it was asked.
        let offers = ["insurance", "even-money", "side-bet", "back-bet"];
        let defaults: Vec<&str> = r["defaults"].as_array().unwrap().iter().map(|d| d.as_str().unwrap()).collect();
        let bet: &[&str] = if r["rule_set"] == "norwegian-home" { &[] } else { &["bet"] };
        assert_eq!(defaults, [bet, &offers].concat());
        let asked: Vec<&str> =
            r["decisions"].as_array().unwrap().iter().map(|d| d["decision"].as_str().unwrap()).collect();
        assert!(!asked.iter().any(|d| defaults.contains(d)), "{asked:?}");
        // Outside the banker game its act is keyed (ABI v4): asked every
        // time, called once per key.
        let keyed = r["keyed"].as_array().unwrap();
        if r["rule_set"] == "norwegian-home" {
            assert!(keyed.is_empty());
        } else {
            assert_eq!((&keyed[0][0], &keyed[0][1]), (&json!("act"), &json!(["legal", "up value", "summary"])));
            let (asked, called) = (keyed[0][2].as_u64().unwrap(), keyed[0][3].as_u64().unwrap());
            assert!(called > 0 && called * 2 < asked, "{asked} asked, {called} called");
        }
    }
    assert!(bots[1]["rule_sets"].as_array().unwrap().iter().all(|r| r["defaults"] == serde_json::json!([])));
    assert_eq!(bots[1]["abi_version"], 1);
    for r in rule_sets {
        assert_eq!(r["rounds"], 2000);
        assert_eq!(r["first_fault"], Value::Null);
        for d in r["decisions"].as_array().unwrap() {
            assert!(d["asked"].as_u64().unwrap() > 0 && d["faults"] == 0, "{d}");
            let (median, max) = (d["fuel_median"].as_u64().unwrap(), d["fuel_max"].as_u64().unwrap());
            assert!(0 < median && median <= max && max < d["limit"].as_u64().unwrap(), "{d}");
            assert_eq!(d["limit"], 1_000_000);
        }
    }

    let faulty = &bots[1];
    assert_eq!((&faulty["passed"], &faulty["refusal"]), (&Value::Bool(false), &Value::Null));
    let first = &faulty["rule_sets"][0]["first_fault"];
    assert_eq!((&first["decision"], &first["kind"]), (&Value::from("act"), &Value::from("trap")), "{first}");
    assert!(first["round"].as_u64().unwrap().is_multiple_of(64), "{first}");
    assert!(first["message"].as_str().unwrap().starts_with("wasm trap: "), "{first}");
    let act = faulty["rule_sets"][0]["decisions"].as_array().unwrap().iter().find(|d| d["decision"] == "act").unwrap();
    assert!(act["faults"].as_u64().unwrap() > 0, "{act}");

    let refused = &bots[2];
    assert_eq!(refused["passed"], false);
    assert_eq!(refused["sha256"], sha("import.wat").as_str());
    let why = refused["refusal"].as_str().unwrap();
    assert!(why.starts_with("imports `wasi_snapshot_preview1.sock_accept`"), "without the file name: {why}");
    assert_eq!(refused["rule_sets"], Value::Array(vec![]));
    assert_eq!(refused["abi_version"], Value::Null);
    let unread = &bots[3];
    assert_eq!((&unread["sha256"], &unread["passed"]), (&Value::Null, &Value::Bool(false)));
    assert!(unread["refusal"].as_str().unwrap().contains("missing.wasm"), "{unread}");

    // Fields in a fixed order; no clock: a second run writes the same bytes.
    let order = [
        "\"file\"",
        "\"sha256\"",
        "\"passed\"",
        "\"refusal\"",
        "\"abi_version\"",
        "\"rule_sets\"",
        "\"rule_set\"",
        "\"rounds\"",
    ];
    let at: Vec<usize> = order.iter().map(|k| text.find(k).unwrap()).collect();
    assert!(at.is_sorted(), "{at:?}");
    let keys =
        ["\"decision\"", "\"asked\"", "\"faults\"", "\"fuel_median\"", "\"fuel_max\"", "\"limit\"", "\"first_fault\""];
    let at: Vec<usize> = keys.iter().map(|k| text.find(k).unwrap()).collect();
    assert!(at.is_sorted(), "{at:?}");
    code(&pitboss(&dir, &args), 1);
    assert_eq!(std::fs::read_to_string(dir.join("v.json")).unwrap(), text);

    // `--json -`: the JSON alone on stdout, the lines on stderr.
    let ran = pitboss(&dir, &["check", "basic.wasm", "--json", "-"]);
    code(&ran, 0);
    let bots = json(&ran.stdout);
    assert_eq!(bots.len(), 1);
    assert_eq!(bots[0]["passed"], true);
    assert!(ran.stderr.contains("basic.wasm: OK\n"), "{}", ran.stderr);

    // A JSON file that cannot be written fails the command, naming it.
    let ran = pitboss(&dir, &["check", "basic.wasm", "--json", "no/such/folder/v.json"]);
    code(&ran, 1);
    assert!(ran.stderr.contains("no/such/folder"), "{ran:?}");
}

#[test]
fn variant_and_league_check_a_bot_only_for_what_the_league_plays() {
    let dir = scratch("scope");
    bot(&dir, "banker-trap.wat", TRAPS_IN_THE_BANKER_GAME, "");
    let na = league(&dir, "na.toml", "north-american", "table", "\n[rules]\nmax_bet = 500\n");
    let bank = league(&dir, "bank.toml", "norwegian-home", "bank", "");

    // Every rule set: it fails in the banker game only.
    let ran = pitboss(&dir, &["check", "banker-trap.wat"]);
    code(&ran, 1);
    assert!(ran.stdout.contains("\nnorwegian-home: first fault in round 1, bet decision: wasm trap"), "{}", ran.stdout);
    assert_eq!(ran.stdout.matches("first fault").count(), 1, "{}", ran.stdout);

    let ran = pitboss(&dir, &["check", "banker-trap.wat", "--variant", "north-american"]);
    code(&ran, 0);
    assert!(ran.stdout.contains("north-american: 2000 rounds"), "{}", ran.stdout);
    assert!(!ran.stdout.contains("swedish") && !ran.stdout.contains("norwegian-home"), "{}", ran.stdout);
    code(&pitboss(&dir, &["check", "banker-trap.wat", "--variant", "norwegian-home"]), 1);

    let ran = pitboss(&dir, &["check", "banker-trap.wat", "--league", &na, "--summary"]);
    code(&ran, 0);
    assert!(ran.stdout.starts_with("OK    banker-trap.wat   1 rule set, 0 faults, fuel max "), "{}", ran.stdout);
    let ran = pitboss(&dir, &["check", "banker-trap.wat", "--league", &bank]);
    code(&ran, 1);

    // A `bank` league's bot banks in turn, so it is asked the banker's
    // decisions as the league will ask them.
    copy(&wasm_path("basic"), &dir, "basic.wasm");
    let ran = pitboss(&dir, &["check", "basic.wasm", "--league", &bank, "--json", "-"]);
    code(&ran, 0);
    let kinds: Vec<String> = json(&ran.stdout)[0]["rule_sets"][0]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["decision"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["bet", "act", "banker-double", "banker-draw"]);

    // The league's rule overrides apply too: a bot that refuses to play
    // for more than 500 chips fails the default table (1000) but passes
    // the league's (`max_bet = 500`).
    bot(&dir, "small-stakes.wat", SMALL_STAKES_ONLY, "");
    code(&pitboss(&dir, &["check", "small-stakes.wat", "--variant", "north-american"]), 1);
    code(&pitboss(&dir, &["check", "small-stakes.wat", "--league", &na]), 0);

    let ran = pitboss(&dir, &["check", "banker-trap.wat", "--variant", "danish", "--league", &na]);
    code(&ran, 2);
    assert!(ran.stderr.contains("cannot be used with"), "{}", ran.stderr);
    let ran = pitboss(&dir, &["check", "banker-trap.wat", "--league", "missing.toml"]);
    code(&ran, 1);
    assert!(ran.stderr.contains("missing.toml"), "{}", ran.stderr);
}

#[test]
fn a_league_check_runs_under_the_league_limits() {
    let dir = scratch("limits");
    bot(&dir, "burner.wat", BURNS_FUEL, "");
    let funcs: String = (0..20).map(|i| format!("(func $f{i})\n  ")).collect();
    bot(&dir, "many.wat", "", &funcs);
    let fuel = league(&dir, "fuel.toml", "north-american", "solo", "\n[limits]\nfuel_per_decision = 1000\n");
    let functions = league(&dir, "functions.toml", "north-american", "solo", "\n[limits]\nfunctions = 16\n");

    // Under the default limits both pass.
    let ran = pitboss(&dir, &["check", "burner.wat", "many.wat", "--variant", "north-american"]);
    code(&ran, 0);
    assert!(ran.stdout.contains(" / 1000000\n"), "{}", ran.stdout);

    let ran = pitboss(&dir, &["check", "burner.wat", "many.wat", "--league", &fuel]);
    code(&ran, 1);
    let lines: Vec<&str> = ran.stdout.lines().collect();
    assert!(lines[0].starts_with("FAIL  burner.wat "), "{}", ran.stdout);
    assert!(lines[0].contains(" faults (first: north-american round 1, bet: "), "{}", ran.stdout);
    assert!(lines[1].starts_with("OK    many.wat ") && lines[1].ends_with(" / 1000"), "{}", ran.stdout);
    let ran = pitboss(&dir, &["check", "burner.wat", "--league", &fuel, "--json", "-"]);
    let first = &json(&ran.stdout)[0]["rule_sets"][0]["first_fault"];
    assert_eq!(first["kind"], "out-of-fuel", "{first}");

    let ran = pitboss(&dir, &["check", "burner.wat", "many.wat", "--league", &functions]);
    code(&ran, 1);
    let lines: Vec<&str> = ran.stdout.lines().collect();
    assert!(lines[0].starts_with("OK    burner.wat "), "{}", ran.stdout);
    assert!(lines[1].starts_with("FAIL  many.wat     refused: has 23 functions; the cap is 16"), "{}", ran.stdout);
}

#[test]
fn a_league_reports_every_bot_that_cannot_play_takes_wat_and_names_clashing_files() {
    let dir = std::env::temp_dir().join(format!("pitboss-gating-{}", std::process::id()));
    let subs = dir.join("subs");
    std::fs::create_dir_all(&subs).unwrap();
    std::fs::copy(pitboss_tests::wasm_path("basic"), subs.join("alice.wasm")).unwrap();
    std::fs::write(subs.join("bob.wat"), std::fs::read(concat!(tests_dir!(), "/bots/minimal.wat")).unwrap()).unwrap();
    std::fs::write(subs.join("carol.wasm"), b"not a module").unwrap();
    std::fs::copy(concat!(tests_dir!(), "/bots/hostile/loop-start.wat"), subs.join("dave.wat")).unwrap();
    std::fs::write(
        dir.join("class.toml"),
        "name = \"c\"\nvariant = \"north-american\"\nrounds = 50\nseed = 1\nbankroll = 1000\n[[bot]]\nfolder = \"subs\"\n",
    )
    .unwrap();
    let ran = pitboss_tests::pitboss(&dir, &["run", "class.toml"]);
    assert_eq!(ran.code, Some(1));
    let err = &ran.stderr;
    assert!(err.contains("2 of 4 bots cannot play:"), "{err}");
    assert!(err.contains("bot `carol`") && err.contains("neither a WebAssembly binary nor WAT text"), "{err}");
    assert!(err.contains("bot `dave`") && err.contains("has a start function"), "{err}");
    assert_eq!(err.lines().count(), 3, "one line each: {err}");

    // Without the bad ones, the .wat submission plays beside the .wasm.
    std::fs::remove_file(subs.join("carol.wasm")).unwrap();
    std::fs::remove_file(subs.join("dave.wat")).unwrap();
    let ran = pitboss_tests::pitboss(&dir, &["run", "class.toml"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(ran.stdout.contains("alice") && ran.stdout.contains("bob"), "{}", ran.stdout);

    // Two files with one name: both named.
    std::fs::copy(pitboss_tests::wasm_path("basic"), subs.join("bob.wasm")).unwrap();
    let ran = pitboss_tests::pitboss(&dir, &["run", "class.toml"]);
    assert_eq!(ran.code, Some(1));
    assert!(ran.stderr.contains("two bots are named `bob`:") && ran.stderr.contains("bob.wasm and "), "{}", ran.stderr);
    assert!(ran.stderr.contains("bob.wat"), "{}", ran.stderr);
}

#[test]
fn play_names_each_bots_first_fault_with_the_command_that_replays_its_round() {
    let dir = std::env::temp_dir().join(format!("pitboss-replay-cmd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bot = concat!(tests_dir!(), "/bots/hostile/sometimes.wat");
    let ran = pitboss_tests::pitboss(
        &dir,
        &["play", "--bot", bot, "--bot", "builtin:basic", "--rounds", "300", "--seed", "3"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let line = ran.stdout.lines().find(|l| l.trim_start().starts_with("replay: ")).expect("a replay command");
    let command = line.trim_start().strip_prefix("replay: pitboss ").unwrap();
    assert!(command.ends_with("--seed 3 --rounds 64 --transcript"), "{command}");
    // The command does what it says: its transcript ends in that fault.
    let args: Vec<&str> = command.split(' ').collect();
    let replayed = pitboss_tests::pitboss(&dir, &args);
    assert_eq!(replayed.code, Some(0), "{}", replayed.stderr);
    let last_round = replayed.stdout.rsplit("-- round ").next().unwrap();
    assert!(last_round.starts_with("64") && last_round.contains("FAULT in act (trap)"), "{last_round}");
}

#[test]
fn a_league_sets_the_start_up_fuel_a_runtime_needs_and_its_results_record_it() {
    let dir = scratch("startup");
    // A reactor whose `_initialize` runs 3 million loop turns (a language
    // runtime starting), well over the default start-up fuel.
    let init = "(func (export \"_initialize\") (local $n i32)
    (loop $spin
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br_if $spin (i32.lt_u (local.get $n) (i32.const 3000000)))))";
    bot(&dir, "slow-start.wat", "", init);
    let roomy = league(&dir, "roomy.toml", "north-american", "solo", "\n[limits]\nfuel_for_startup = 100000000\n");
    let plain = league(&dir, "plain.toml", "north-american", "solo", "");

    let ran = pitboss(&dir, &["check", "slow-start.wat", "--variant", "north-american"]);
    code(&ran, 1);
    assert!(ran.stdout.contains("start-up fuel cap: 10000000"), "{}", ran.stdout);
    let ran = pitboss(&dir, &["check", "slow-start.wat", "--league", &roomy]);
    code(&ran, 0);

    // The league plays it; its results record the start-up fuel it set,
    // and a league that sets none records none (results as before).
    for (file, bots) in [(&roomy, "\n[[bot]]\npath = \"slow-start.wat\"\n"), (&plain, "")] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        std::fs::write(dir.join(file), format!("{text}{bots}")).unwrap();
    }
    // (appended after [limits], a [[bot]] table is still a bot entry)
    let ran = pitboss(&dir, &["run", &roomy, "--json", "roomy.json"]);
    code(&ran, 0);
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("roomy.json")).unwrap()).unwrap();
    assert_eq!(results["league"]["parsed"]["limits"]["fuel_for_startup"], 100_000_000);
    let ran = pitboss(&dir, &["run", &plain, "--json", "plain.json"]);
    code(&ran, 0);
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("plain.json")).unwrap()).unwrap();
    assert!(results["league"]["parsed"]["limits"].get("fuel_for_startup").is_none(), "{results}");
    let ran = pitboss(&dir, &["verify", "roomy.json"]);
    code(&ran, 0);

    let bad = league(&dir, "bad.toml", "north-american", "solo", "\n[limits]\nfuel_for_startup = 5\n");
    let ran = pitboss(&dir, &["run", &bad]);
    code(&ran, 1);
    assert!(ran.stderr.contains("limit `fuel_for_startup` = 5 is outside 1000..=10000000000"), "{}", ran.stderr);
}

#[test]
fn a_decision_key_that_is_not_true_fails_the_check_with_the_request_and_both_answers() {
    let dir = scratch("keys");
    copy(&wasm_path("basic"), &dir, "basic.wasm");
    copy(&wasm_path("hilo"), &dir, "hilo.wasm");
    // Declares one answer to every act, then answers hit once and stand
    // after: played keyed it hits every time, its own answers unheard.
    std::fs::copy(concat!(tests_dir!(), "/bots/keyed.wat"), dir.join("keyed.wat")).unwrap();

    let ran = pitboss(&dir, &["check", "basic.wasm", "hilo.wasm", "keyed.wat"]);
    code(&ran, 1);
    let lines: Vec<&str> = ran.stdout.lines().collect();
    assert!(lines[0].starts_with("OK    basic.wasm "), "{}", ran.stdout);
    assert!(lines[1].starts_with("OK    hilo.wasm "), "keys by its true count, truly: {}", ran.stdout);
    let expected = "FAIL  keyed.wat    its act key (no part: one answer to every request) is not true: in round ";
    assert!(lines[2].starts_with(expected), "{}", ran.stdout);
    assert!(lines[2].contains(" it answered stand (hand "), "{}", ran.stdout);
    assert!(lines[2].ends_with(") where it had answered hit to the same key"), "{}", ran.stdout);
    assert_eq!(lines[3], "3 bots: 2 passed, 1 failed");

    // The full report: what to do, and the command that replays it.
    let ran = pitboss(&dir, &["check", "keyed.wat"]);
    code(&ran, 1);
    let report = &ran.stdout;
    assert!(report.contains("north-american: its act key (no part"), "{report}");
    assert!(report.contains("key the act by every part of the request it reads"), "{report}");
    assert!(
        report.contains("  played keyed, as a league plays it: pitboss play --variant north-american --bot keyed.wat --seed 24301 --rounds "),
        "{report}"
    );
    assert!(report.ends_with("keyed.wat: FAILED: its act key is not true\n"), "{report}");

    // JSON: the finding per rule set; none where the keys hold.
    let ran = pitboss(&dir, &["check", "basic.wasm", "keyed.wat", "--json", "-"]);
    let bots = json(&ran.stdout);
    assert!(bots[0]["rule_sets"].as_array().unwrap().iter().all(|r| r.get("key_conflict").is_none()));
    assert_eq!(bots[1]["passed"], false);
    let conflict = &bots[1]["rule_sets"][0]["key_conflict"];
    assert_eq!((&conflict["decision"], &conflict["parts"]), (&json!("act"), &json!([])), "{conflict}");
    assert_eq!((&conflict["earlier"], &conflict["answer"]), (&json!("hit"), &json!("stand")));
    let (conflicts, repeated) = (conflict["conflicts"].as_u64().unwrap(), conflict["repeated"].as_u64().unwrap());
    assert!(0 < conflicts && conflicts <= repeated, "{conflict}");
}
