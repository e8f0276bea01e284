//! Untrusted submissions: modules built to exhaust the host at load time
//! (many memories, many or huge functions, huge modules) are refused in
//! one line naming the file and the cap; run-time cap faults say which cap;
//! error messages never echo a file's contents or raw control bytes.
//! Every hostile module is generated here, not checked in.

use std::path::{Path, PathBuf};
use std::process::Command;

use pitboss_host::{Limits, Sandbox};
use pitboss_tests::{pitboss_bin, wasm_path};

/// The smallest complete bot (tests/bots/minimal.wat) with `extra` spliced
/// into its module.
fn bot_with(extra: &str) -> String {
    format!(
        r#"(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0))))
  {extra})"#
    )
}

fn dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitboss-untrusted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn file(name: &str, contents: &[u8]) -> PathBuf {
    let path = dir().join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// `pitboss check FILE`: (succeeded, stdout + stderr).
fn check(path: &Path) -> (bool, String) {
    let out = Command::new(pitboss_bin()).arg("check").arg(path).env("PITBOSS_CACHE_DIR", "off").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// `pitboss check` refuses the module in one line naming the file and
/// saying `says`.
fn refused(name: &str, wat: &str, says: &str) {
    let path = file(name, wat.as_bytes());
    let (ok, text) = check(&path);
    assert!(!ok, "{name} passed check: {text}");
    let line = text.lines().find(|l| l.contains("FAILED")).unwrap_or_else(|| panic!("{name}: {text}"));
    assert!(line.starts_with(&path.display().to_string()), "names the file: {line}");
    assert!(line.contains(says), "{name}: {line}");
    assert_eq!(text.lines().count(), 1, "one line: {text}");
}

#[test]
fn a_module_with_many_memories_is_refused() {
    let memories: String = (0..63).map(|i| format!("(memory $m{i} 256)\n")).collect();
    refused("memories.wat", &bot_with(&memories), "declares 64 memories; Pitboss bots have exactly one");
}

#[test]
fn tables_count_together_against_the_table_cap() {
    let tables = "(table $a 6000 funcref) (table $b 6000 funcref)";
    refused(
        "tables.wat",
        &bot_with(tables),
        "declares tables of 12000 elements together; the cap for all tables is 10000",
    );
}

#[test]
fn compile_time_bombs_are_refused_before_compiling() {
    let many: String = (0..10_000).map(|i| format!("(func (result i32) i32.const {i})\n")).collect();
    refused("functions.wat", &bot_with(&many), "has 10003 functions; the cap is 10000");

    let body = "local.get 0 i32.const 7 i32.add local.set 0 ".repeat(30_000);
    let huge = format!("(func (param i32) (result i32) {body} local.get 0)");
    refused("body.wat", &bot_with(&huge), "KiB; the cap is 128 KiB");

    let body = "local.get 0 i32.const 7 i32.add local.set 0 ".repeat(12_000);
    let code: String = (0..4).map(|_| format!("(func (param i32) (result i32) {body} local.get 0)\n")).collect();
    refused("code.wat", &bot_with(&code), "KiB of code; the cap is 256 KiB");

    let locals = "(func (local i32 i64) (local i32) ".to_string() + &"(local f64)".repeat(10_000) + ")";
    refused("locals.wat", &bot_with(&locals), "has a function with 10003 locals; the cap is 10000");

    let data = format!("(data (i32.const 0) \"{}\")", "\\00".repeat(5 << 20));
    refused("data.wat", &bot_with(&data), "KiB of WebAssembly; the cap is 4096 KiB");
}

#[test]
fn a_module_just_under_the_caps_loads_quickly() {
    let body = "local.get 0 i32.const 7 i32.add local.set 0 ".repeat(7_000);
    let code: String = (0..4).map(|_| format!("(func (param i32) (result i32) {body} local.get 0)\n")).collect();
    let many: String = (0..4_000).map(|i| format!("(func (result i32) i32.const {i})\n")).collect();
    let wat = bot_with(&(code + &many));
    let started = std::time::Instant::now();
    let loaded = Sandbox::new(Limits::default()).unwrap().load("near-caps", wat.as_bytes());
    assert!(loaded.is_ok(), "{:?}", loaded.err());
    // Not a timing assertion: a generous bound that only a compile-time
    // bomb (tens of seconds) would cross.
    assert!(started.elapsed().as_secs() < 60);
}

#[test]
fn a_memory_cap_fault_names_the_cap() {
    let league = file(
        "memory-league.toml",
        format!(
            "name = \"m\"\nvariant = \"north-american\"\nrounds = 400\nseed = 1\nbankroll = 100000\nformat = \"solo\"\n\
             [[bot]]\npath = \"{}\"\n",
            PathBuf::from(concat!(tests_dir!(), "/bots/hostile/memory-bomb.wat")).display()
        )
        .as_bytes(),
    );
    let sandbox = pitboss_league::sandbox().unwrap();
    let parsed = pitboss_league::file::parse(&league).unwrap();
    let result = pitboss_league::league::run(&parsed, &league, &sandbox).unwrap();
    let bot = &result.standings[0].result;
    let fault = bot.fault_log.first().expect("the bomb faults");
    assert_eq!(fault.kind, "memory");
    assert!(
        fault.message.starts_with(
            "memory cap hit: the bot's memory was 12352 KiB and it asked to grow by 4096 KiB, to 16448 KiB; the cap is 16384 KiB"
        ),
        "{}",
        fault.message
    );
}

#[test]
fn a_fuel_fault_names_the_cap() {
    let path = PathBuf::from(concat!(tests_dir!(), "/bots/hostile/loop-decide.wat"));
    let (ok, text) = check(&path);
    assert!(!ok);
    // Diagnosed: given 16 times the fuel, it still loops.
    assert!(text.contains("never returned, even with 16× the fuel (16000000): an endless loop? (fuel cap: 1000000 per decision) (out-of-fuel)"), "{text}");
}

#[test]
fn errors_never_echo_a_files_contents_or_raw_control_bytes() {
    // A "bot" that is some other text file: its first line is not printed.
    let secret = file("passwd", b"root:x:0:0:secret-line:/root:/bin/bash\n");
    let (ok, text) = check(&secret);
    assert!(!ok && !text.contains("secret-line"), "{text}");
    assert!(text.contains("neither a WebAssembly binary nor WAT text"), "{text}");

    // WAT with an escape sequence: the position is given, the byte escaped.
    let wat = file("escape.wat", b"(module\n (func $x\x1b[2J))");
    let (ok, text) = check(&wat);
    assert!(!ok && !text.contains('\x1b'), "{text:?}");
    assert!(text.contains("line 2, column 10") && text.contains("\\u{1b}"), "{text}");

    // A file name with control bytes is escaped wherever it is printed.
    let odd = file("odd\x1b[31mname.wasm", b"\0asm\x01\0\0\0");
    let (ok, text) = check(&odd);
    assert!(!ok && !text.contains('\x1b'), "{text:?}");

    // A huge token in a league file is quoted, not echoed whole.
    let token = "k".repeat(400_000);
    let league = file("token.toml", format!("name = \"t\"\n{token} = 1\n").as_bytes());
    let out = Command::new(pitboss_bin()).arg("run").arg(&league).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.len() < 1_500 && err.lines().count() == 1, "{} bytes: {}", err.len(), &err[..err.len().min(300)]);
}

#[test]
fn our_bots_are_far_below_every_cap() {
    let limits = Limits::default();
    for bot in ["basic", "hilo", "random"] {
        let size = std::fs::metadata(wasm_path(bot)).unwrap().len() as usize;
        assert!(size * 8 < limits.code_bytes, "{bot}: {size} bytes");
    }
}

#[test]
fn a_stacked_shoe_match_ends_when_every_bot_sits_out() {
    let sitter = file(
        "sitter.wat",
        br#"(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64) i64.const 0))"#,
    );
    let shoe = file("short.shoe", b"T 9 8 7 6 5\n");
    let mut child = Command::new(pitboss_bin())
        .args(["play", "--bot"])
        .arg(&sitter)
        .arg("--shoe")
        .arg(&shoe)
        .env("PITBOSS_CACHE_DIR", "off")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed().as_secs() > 60 {
            child.kill().unwrap();
            panic!("play --shoe did not end with a bot that always sits out");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("stopped after 1000 rounds: no bot has bet for 1000 rounds in a row"), "{text}");
}

#[test]
fn csv_cells_that_a_spreadsheet_would_run_stay_text() {
    use pitboss_results::output::csv_cell;
    assert_eq!(csv_cell("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    for risky in ["+1", "-2+3", "@SUM(A1)", "\tx", "\rx"] {
        assert!(csv_cell(risky).trim_start_matches('"').starts_with('\''), "{risky}");
    }
    assert_eq!(csv_cell("basic"), "basic");

    let league = file(
        "formula.toml",
        b"name = \"f\"\nvariant = \"north-american\"\nrounds = 100\nseed = 3\nbankroll = 1000\n\
          [[bot]]\nname = \"=HYPERLINK(1)\"\nbuiltin = \"basic\"\n",
    );
    let parsed = pitboss_league::file::parse(&league).unwrap();
    let result = pitboss_league::league::run(&parsed, &league, &pitboss_league::sandbox().unwrap()).unwrap();
    let csv = pitboss_results::output::standings_csv(&result.standings);
    let row = csv.lines().nth(1).unwrap();
    assert!(row.starts_with("1,'=HYPERLINK(1),"), "{row}");
}

/// Runs `pitboss` with `args`: (succeeded, stderr).
fn pitboss(args: &[&std::ffi::OsStr]) -> (bool, String) {
    let out = Command::new(pitboss_bin()).args(args).env("PITBOSS_CACHE_DIR", "off").output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Reads a JSON file, changes it, writes it beside under `name`.
fn tampered(from: &Path, name: &str, change: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(from).unwrap()).unwrap();
    change(&mut v);
    file(name, serde_json::to_string(&v).unwrap().as_bytes())
}

#[test]
fn merge_and_report_refuse_results_that_contradict_themselves() {
    let league = file(
        "tamper.toml",
        b"name = \"t\"\nvariant = \"north-american\"\nrounds = 3000\nsessions = 2\nseed = 5\nbankroll = 10000\n\
          [[bot]]\nbuiltin = \"basic\"\n[[bot]]\nbuiltin = \"never-bust\"\n",
    );
    let os = |s: &str| std::ffi::OsString::from(s);
    let part = dir().join("tamper-part.json");
    let (ok, err) =
        pitboss(&[&os("run"), league.as_os_str(), &os("--shard"), &os("0/1"), &os("--json"), part.as_os_str()]);
    assert!(ok, "{err}");

    // A shard whose net was raised by 50,000 is refused by merge.
    let raised = tampered(&part, "tamper-raised.json", |v| {
        let net = v["sessions"][0]["bots"][1]["net"].as_i64().unwrap();
        v["sessions"][0]["bots"][1]["net"] = (net + 50_000).into();
    });
    let (ok, err) = pitboss(&[&os("merge"), raised.as_os_str()]);
    assert!(!ok && err.contains("session 0 of the shards does not add up: bot 1: net"), "{err}");

    // The untouched shard merges; its results report.
    let results = dir().join("tamper-results.json");
    let (ok, err) = pitboss(&[&os("merge"), part.as_os_str(), &os("--json"), results.as_os_str()]);
    assert!(ok, "{err}");
    let page = dir().join("tamper.html");
    let (ok, err) = pitboss(&[&os("report"), results.as_os_str(), &os("-o"), page.as_os_str()]);
    assert!(ok, "{err}");

    // A results file whose standing was raised is refused by report.
    let raised = tampered(&results, "tamper-standing.json", |v| {
        let net = v["standings"][0]["net"].as_i64().unwrap();
        v["standings"][0]["net"] = (net + 50_000).into();
    });
    let (ok, err) = pitboss(&[&os("report"), raised.as_os_str(), &os("-o"), page.as_os_str()]);
    assert!(!ok && err.contains("is not a consistent Pitboss results file: bot"), "{err}");

    // A million series points are not drawn into a 47 MB page.
    let flooded = tampered(&results, "tamper-series.json", |v| {
        v["series_rounds"] = (1..=1_000_000u64).collect::<Vec<_>>().into();
    });
    let (ok, err) = pitboss(&[&os("report"), flooded.as_os_str(), &os("-o"), page.as_os_str()]);
    assert!(!ok && err.contains("series_rounds are not at most 200 increasing rounds"), "{err}");
}

#[test]
fn numbers_out_of_range_are_refused_where_they_are_given() {
    let os = |s: &str| std::ffi::OsString::from(s);
    for (args, says) in [
        (vec!["play", "--bot", "builtin:basic", "--bankroll", "4611686018427387904"], "is not in 1..=1000000000000"),
        (vec!["play", "--bot", "builtin:basic", "--rounds", "0"], "is not in 1..=10000000000"),
        (vec!["run", "x.toml", "--threads", "1000000000"], "is not a thread count from 1 to 256"),
        (vec!["report", "x.json", "--opening-rounds", "1000000"], "is not in 0..=5"),
    ] {
        let args: Vec<_> = args.iter().map(|a| os(a)).collect();
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let (ok, err) = pitboss(&refs);
        assert!(!ok && err.contains(says), "{args:?}: {err}");
    }
    let league = file(
        "huge-memory.toml",
        b"name = \"m\"\nvariant = \"north-american\"\nrounds = 10\nseed = 1\nbankroll = 100\n\
          [limits]\nmemory_mib = 17592186044416\n[[bot]]\nbuiltin = \"basic\"\n",
    );
    let e = format!("{:#}", pitboss_league::file::parse(&league).unwrap_err());
    assert!(e.ends_with("huge-memory.toml:7:14: limit `memory_mib` = 17592186044416 is outside 1..=1024"), "{e}");

    let league_with = |name: &str, top: &str, rules: &str| {
        let text = format!(
            "name = \"n\"\nvariant = \"north-american\"\nseed = 1\n{top}\n[rules]\n{rules}\n[[bot]]\nbuiltin = \"basic\"\n"
        );
        let path = file(name, text.as_bytes());
        let started = std::time::Instant::now();
        let e = format!("{:#}", pitboss_league::file::parse(&path).unwrap_err());
        assert!(started.elapsed().as_secs() < 5, "refused at once, allocating nothing");
        e
    };
    let e = league_with("sessions.toml", "rounds = 10\nbankroll = 100\nsessions = 1000000000", "");
    assert!(e.ends_with("sessions.toml:6:12: sessions = 1000000000 is outside 1..=10000"), "{e}");
    let e = league_with("bankroll.toml", "rounds = 10\nbankroll = 4611686018427387900", "");
    assert!(e.ends_with("bankroll.toml:5:12: bankroll = 4611686018427387900 is outside 1..=1000000000000"), "{e}");
    let e = league_with("rounds.toml", "rounds = 20000000000\nbankroll = 100", "");
    assert!(e.ends_with("rounds.toml:4:10: rounds = 20000000000 is outside 1..=10000000000"), "{e}");
    let e = league_with("range.toml", "rounds = 10000000000\nbankroll = 100", "max_bet = 1000000000000");
    assert!(
        e.contains("range.toml:4:10: 1 × (100 chips + 10000000000 rounds × up to")
            && e.contains("could pass 2^62 chips"),
        "{e}"
    );
}

/// Inputs for the file fuzz: arbitrary bytes, and valid files with bytes
/// replaced, cut or repeated (which reach far deeper into the parsers).
fn mutated(valid: &'static [u8]) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let edits = prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 1..6);
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..600),
        edits.prop_map(move |edits| {
            let mut bytes = valid.to_vec();
            for (at, byte, how) in edits {
                if bytes.is_empty() {
                    break;
                }
                let i = at.index(bytes.len());
                match how {
                    0 => bytes[i] = byte,
                    1 => bytes.truncate(i),
                    2 => bytes.insert(i, byte),
                    _ => {
                        let tail = bytes[i..].to_vec();
                        bytes.extend_from_slice(&tail[..tail.len().min(64)]);
                    }
                }
            }
            bytes
        }),
    ]
}

const LEAGUE: &[u8] = b"name = \"f\"\nvariant = \"swedish\"\nrounds = 20\nsessions = 2\nseed = 9\nbankroll = 500\n\
format = \"table\"\n[rules]\nboxes = 3\nmax_bet = 100\n[limits]\nmemory_mib = 2\n\
[[bot]]\nbuiltin = \"basic\"\n[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n";
const SEASON: &[u8] = b"name = \"s\"\nleagues = [\"fuzz-league.toml\"]\n";
const SHOE: &[u8] = b"# a shoe\nA K 10 T 9, 8\n7 6 5 4 3 2 Q J\n";

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

    /// Fuzz: any bytes as a league, season or shoe file give a value or a
    /// one-line error, never a panic, a hang or a huge allocation.
    #[test]
    fn arbitrary_league_season_and_shoe_files_never_panic(
        league in mutated(LEAGUE),
        season in mutated(SEASON),
        shoe in mutated(SHOE),
    ) {
        let dir = dir().join(format!("fuzz-{:?}", std::thread::current().id()).replace(['(', ')'], ""));
        std::fs::create_dir_all(&dir).unwrap();
        let league_path = dir.join("league.toml");
        std::fs::write(&league_path, &league).unwrap();
        if let Err(e) = pitboss_league::file::parse(&league_path) {
            let text = format!("{e:#}");
            proptest::prop_assert!(!text.is_empty());
        }
        let _ = pitboss_engine::parse_stacked(&String::from_utf8_lossy(&shoe));
        // A season names one harmless league (arbitrary bytes never name a
        // runnable one with many rounds: the league's own caps apply).
        std::fs::write(dir.join("fuzz-league.toml"), LEAGUE).unwrap();
        let season_path = dir.join("season.toml");
        std::fs::write(&season_path, &season).unwrap();
        let _ = pitboss_league::season::run(&season_path, Some(1));
    }
}

/// A small league's results and shard files, made once.
fn valid_results() -> &'static (Vec<u8>, Vec<u8>) {
    static FILES: std::sync::OnceLock<(Vec<u8>, Vec<u8>)> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let league = file("fuzz-results-league.toml", LEAGUE);
        let parsed = pitboss_league::file::parse(&league).unwrap();
        let sandbox = pitboss_league::sandbox().unwrap();
        let (_, results) = pitboss_league::league::run_with(&parsed, &league, &sandbox, Some(1), &|_| ()).unwrap();
        let shard = pitboss_league::shard::run_shard(&league, (0, 1), Some(1)).unwrap();
        (serde_json::to_vec_pretty(&results).unwrap(), serde_json::to_vec_pretty(&shard).unwrap())
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

    /// Fuzz: damaged results and shard files never panic `report`,
    /// `merge` or `replay`.
    #[test]
    fn arbitrary_results_files_never_panic(edits in proptest::collection::vec((proptest::prelude::any::<proptest::sample::Index>(), proptest::prelude::any::<u8>()), 0..8), cut in 0usize..100) {
        let (results, shard) = valid_results();
        let damage = |bytes: &[u8]| {
            let mut bytes = bytes.to_vec();
            for (at, b) in &edits {
                let i = at.index(bytes.len());
                bytes[i] = *b;
            }
            if cut > 90 {
                bytes.truncate(bytes.len() * (cut - 90) / 10);
            }
            bytes
        };
        let dir = dir().join(format!("fuzz-results-{:?}", std::thread::current().id()).replace(['(', ')'], ""));
        std::fs::create_dir_all(&dir).unwrap();
        let results_path = dir.join("results.json");
        std::fs::write(&results_path, damage(results)).unwrap();
        let shard_path = dir.join("shard.json");
        std::fs::write(&shard_path, damage(shard)).unwrap();
        let req = pitboss_report::ReportRequest { results: results_path.clone(), session: 0, opening_rounds: 2 };
        let _ = pitboss_report::report(&req);
        let _ = pitboss_league::shard::merge(&[shard_path]);
        let _ = pitboss_league::replay::Replayable::open(&results_path, None);
    }
}

/// A bot that logs `calls` × `len` bytes at each decision, then bets the
/// minimum and stands.
fn logging_bot(calls: u32, len: u32) -> String {
    format!(
        r#"(module
  (import "pitboss" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 8192) "log line\n")
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (local $i i32)
    (loop $again
      (call $log (i32.const 8192) (i32.const {len}))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $again (i32.lt_u (local.get $i) (i32.const {calls}))))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))"#
    )
}

#[test]
fn bot_logs_reach_the_transcript_within_their_caps_and_cost_fuel() {
    // Nine bytes a decision: every line reaches the transcript.
    let polite = file("polite.wat", logging_bot(1, 9).as_bytes());
    let out = Command::new(pitboss_bin())
        .args(["play", "--rounds", "3", "--transcript", "--bot"])
        .arg(&polite)
        .env("PITBOSS_CACHE_DIR", "off")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // Its newline ends the line: a log is shown as its lines.
    assert!(text.lines().any(|l| l == "box 0: log during bet: log line"), "{text}");

    // A flood: 200 calls of 60 KiB (past the memory end, too) each
    // decision. Fuel ends each decision after a few calls (100 a call plus
    // one a byte), and at most 1 KiB a decision is kept: its latest text,
    // however much the table logged before.
    let flood = file("flood.wat", logging_bot(200, 61_440).as_bytes());
    let out = Command::new(pitboss_bin())
        .args(["play", "--rounds", "400", "--transcript", "--fault-limit", "0", "--bot"])
        .arg(&flood)
        .env("PITBOSS_CACHE_DIR", "off")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FAULT in bet (out-of-fuel)"), "each flooding decision runs out of fuel");
    let last = text.split("-- round 400").nth(1).expect("round 400 is played");
    assert!(last.contains("box 0: log during bet: [log: text outside memory]"), "the last round logs too: {last}");
    assert!(last.contains("; it last wrote: [log: text outside memory]"), "its fault says what it wrote: {last}");
    assert!(text.lines().all(|l| l.len() < 8_000), "no line over the per-decision cap (escaped)");
}
