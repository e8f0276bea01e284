//! A fault always carries its cause: a bot that logs every decision and
//! fails after round 3,000 — far past any log budget counted from the
//! session's start — shows what it wrote while failing (a Rust panic, a C
//! message on stderr, a Python exception) in `results.json`'s fault log, in `pitboss replay`
//! of that round (with that round's own log lines), and in the report.

use std::path::{Path, PathBuf};
use std::process::Command;

use pitboss_tests::pitboss_bin;

/// Rounds of the league: the bots fail from round 3,001 on.
const ROUNDS: u64 = 3_010;

fn scratch(name: &str) -> PathBuf {
    pitboss_tests::scratch("fault-causes", name)
}

/// Runs `command`, failing the test with its output unless it succeeds;
/// returns what it printed.
fn succeeds(command: &mut Command, what: &str) -> String {
    let out = command.env("PITBOSS_CACHE_DIR", "off").output();
    let out = out.unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} failed ({}):\n{stdout}\n{stderr}", out.status);
    stdout.into_owned()
}

/// A Rust bot that logs a long line at every decision and panics at its
/// first hand after round 3,000.
const LATE_PANIC_RUST: &str = r#"//! Logs every decision; gives up after round 3,000.
#![cfg_attr(target_arch = "wasm32", no_std)]
use pitboss_sdk::alloc::format;
use pitboss_sdk::{Action, Strategy, View};

#[derive(Default)]
pub struct Late;

impl Strategy for Late {
    fn act(&mut self, view: &View<'_>) -> Action {
        let total = view.total().best();
        pitboss_sdk::log(&format!("round {}: my total is {total}, and I am thinking hard about it\n", view.round()));
        if view.round() > 3_000 {
            panic!("gave up at round {}", view.round());
        }
        if total < 17 && view.legal().contains(Action::Hit) { Action::Hit } else { Action::Stand }
    }
}

pitboss_sdk::export_bot!(Late, Late);
"#;

/// The same in C with wasi-libc: `printf` logs, and the failure is a
/// message on stderr, then `abort()`.
const LATE_ABORT_C: &str = r#"#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static uint8_t buffer[4096] __attribute__((aligned(16)));
__attribute__((export_name("pitboss_abi_version"))) int32_t abi_version(void) { return 1; }
__attribute__((export_name("pitboss_buffer"))) int32_t exchange_buffer(void) { return (int32_t)(uintptr_t)buffer; }
__attribute__((export_name("pitboss_decide"))) int64_t decide(int32_t kind) {
    uint32_t round = buffer[12] | buffer[13] << 8 | buffer[14] << 16 | (uint32_t)buffer[15] << 24;
    printf("round %u: decision %d, and I am thinking hard about it\n", round, kind);
    if (round > 3000) {
        fprintf(stderr, "bot.c: no strategy for round %u\n", round);
        abort();
    }
    if (kind == 1) return (int64_t)buffer[32] | (int64_t)buffer[33] << 8; /* MIN */
    return 0; /* stand, and decline everything else */
}
"#;

#[test]
fn a_rust_bot_panicking_after_round_3000_shows_its_panic_in_results_replay_and_report() {
    let dir = scratch("rust");
    let made =
        succeeds(Command::new(pitboss_bin()).args(["new", "late", "--lang", "rust", "--dir"]).arg(&dir), "pitboss new");
    assert!(made.contains("late"), "{made}");
    let bot = dir.join("late");
    std::fs::write(bot.join("src/lib.rs"), LATE_PANIC_RUST).unwrap();
    // One target folder for every run, so the SDK is compiled once.
    let target = std::env::temp_dir().join("pitboss-authoring-target");
    succeeds(Command::new("./build.sh").current_dir(&bot).env("CARGO_TARGET_DIR", target), "build.sh");
    let cause = "panicked at src/lib.rs:";
    let said = shows_its_cause_everywhere(&bot.join("late.wasm"), "", cause, "gave up at round 300");
    assert!(said.contains("(wasm trap: wasm `unreachable` instruction executed)"), "{said}");
}

#[test]
#[ignore = "needs toolchains"]
fn a_c_bot_aborting_after_round_3000_shows_its_message_in_results_replay_and_report() {
    let dir = scratch("c");
    std::fs::write(dir.join("bot.c"), LATE_ABORT_C).unwrap();
    let built = Command::new("clang")
        .args(["--target=wasm32-wasi", "--sysroot=/usr", "-mexec-model=reactor", "-O2", "-o", "late.wasm", "bot.c"])
        .current_dir(&dir)
        .output();
    match built {
        Ok(o) if o.status.success() => {}
        Ok(o) => {
            let why = String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or_default().to_string();
            panic!("the C bot that aborts needs wasi-libc: {why} (bash scripts/setup installs it)");
        }
        Err(e) => panic!("the C bot that aborts needs clang, which cannot run ({e})"),
    }
    let said = shows_its_cause_everywhere(&dir.join("late.wasm"), "", "it last wrote: bot.c: no strategy", "round 300");
    assert!(said.starts_with("wasm trap: wasm `unreachable` instruction executed"), "{said}");
}

/// The same in Python: `print` logs, and a `KeyError` after round 3,000.
const LATE_RAISE_PYTHON: &str = r#"import pitboss
from pitboss import HIT, STAND

CHART = {n: HIT for n in range(4, 17)}


class Late(pitboss.Bot):
    def act(self, r):
        best, soft = r.total()
        print(f"round {r.round}: my total is {best}, and I am thinking hard about it")
        if r.round > 3000:
            return CHART[best + 100]
        return CHART.get(best, STAND) if r.can(HIT) else STAND


pitboss.play(Late())
"#;

#[test]
fn a_python_bot_raising_after_round_3000_shows_its_exception_in_results_replay_and_report() {
    let dir = scratch("python");
    succeeds(Command::new(pitboss_bin()).args(["new", "late", "--lang", "python", "--dir"]).arg(&dir), "pitboss new");
    let bot = dir.join("late");
    std::fs::write(bot.join("bot.py"), LATE_RAISE_PYTHON).unwrap();
    // From its source, under the default limits: `play` prints what the
    // bot wrote.
    let played = succeeds(
        Command::new(pitboss_bin())
            .args(["play", "--bot", "bot.py", "--rounds", "3", "--transcript"])
            .current_dir(&bot),
        "play",
    );
    assert!(played.contains("log during act: round 1: my total is"), "{played}");
    let said = shows_its_cause_everywhere(&bot.join("bot.py"), "", "KeyError: 1", "(wasm trap: ");
    assert!(said.starts_with("KeyError: 1"), "{said}");
}

/// Plays a league of the bot at `wasm` past round 3,000 (under `limits`,
/// a `[limits]` table or nothing); checks that its
/// first fault's message holds `cause` and `detail`, its record what the bot
/// wrote while failing, that `pitboss replay` of the round shows the cause
/// and the round's own log line, and that the report shows the text.
/// Returns the fault's message.
fn shows_its_cause_everywhere(wasm: &Path, limits: &str, cause: &str, detail: &str) -> String {
    let dir = wasm.parent().unwrap();
    let league = dir.join("league.toml");
    std::fs::write(
        &league,
        format!(
            "name = \"late\"\nvariant = \"north-american\"\nrounds = {ROUNDS}\nsessions = 1\nseed = 3\nbankroll = 100000\nformat = \"solo\"\n{limits}\n[[bot]]\nname = \"late\"\npath = \"{}\"\n",
            wasm.display()
        ),
    )
    .unwrap();
    let ran = succeeds(
        Command::new(pitboss_bin()).arg("run").arg(&league).args(["--json", "results.json"]).current_dir(dir),
        "run",
    );
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    let first = &results["standings"][0]["fault_log"][0];
    let message = first["message"].as_str().expect("a fault is recorded").to_string();
    assert!(message.contains(cause) && message.contains(detail), "the fault says why: {message}");
    let round = first["round"].as_u64().unwrap();
    assert!(round > 3_000, "{first}");
    // `run` itself says where and why, and how to replay it.
    let said = format!("the first in session 0 table 0 round {round}, ");
    assert!(ran.lines().any(|l| l.starts_with("late: ") && l.contains(&said) && l.contains(cause)), "{ran}");
    let replay = format!("  replay: pitboss replay results.json --session 0 --table 0 --round {round}");
    assert!(ran.lines().any(|l| l == replay), "{ran}");
    let log = first["log"].as_str().expect("the fault keeps what the bot wrote");
    assert!(log.contains(&format!("round {round}: ")), "the failing decision's own lines: {log}");

    let replayed = succeeds(
        Command::new(pitboss_bin()).args(["replay", "results.json", "--round", &round.to_string()]).current_dir(dir),
        "replay",
    );
    assert!(replayed.contains(cause), "the replay shows the cause: {replayed}");
    let own = format!("round {round}: ");
    assert!(replayed.lines().any(|l| l.contains(": log during ") && l.contains(&own)), "its own log: {replayed}");

    succeeds(
        Command::new(pitboss_bin()).args(["report", "results.json", "-o", "report.html"]).current_dir(dir),
        "report",
    );
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(page.contains(cause), "the report shows the cause");
    assert!(page.contains(&format!("round {round}: ")), "and what the bot wrote while failing");
    message
}

/// Logs "thinking" with no newline at its first hand, then panics as the
/// Rust SDK's handler does: "panicked at …", then `unreachable`.
const THINKS_THEN_PANICS: &str = r#"(module
  (import "pitboss" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 8192) "thinking")
  (data (i32.const 8256) "panicked at src/lib.rs:7: no idea")
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.eq (local.get $kind) (i32.const 4))
      (then
        (call $log (i32.const 8192) (i32.const 8))
        (call $log (i32.const 8256) (i32.const 33))
        unreachable))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))"#;

#[test]
fn a_log_line_and_the_panic_after_it_are_separate_lines_in_replay_and_the_report() {
    let dir = scratch("apart");
    std::fs::write(dir.join("thinks.wat"), THINKS_THEN_PANICS).unwrap();
    std::fs::write(
        dir.join("league.toml"),
        "name = \"apart\"\nvariant = \"north-american\"\nrounds = 2\nsessions = 1\nseed = 3\nbankroll = 1000\nformat = \"solo\"\n\n[[bot]]\npath = \"thinks.wat\"\n",
    )
    .unwrap();
    let in_dir = |args: &[&str]| {
        let mut command = Command::new(pitboss_bin());
        command.args(args).current_dir(&dir);
        command
    };
    succeeds(&mut in_dir(&["run", "league.toml", "--json", "results.json"]), "run");
    let replayed = succeeds(&mut in_dir(&["replay", "results.json", "--round", "1"]), "replay");
    let lines: Vec<&str> = replayed.lines().collect();
    let at =
        lines.iter().position(|l| l.ends_with(": log during act: thinking")).unwrap_or_else(|| panic!("{replayed}"));
    assert_eq!(lines[at + 1], "  | panicked at src/lib.rs:7: no idea", "{replayed}");
    succeeds(&mut in_dir(&["report", "results.json", "-o", "report.html"]), "report");
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(page.contains("thinking\npanicked at src/lib.rs:7: no idea"), "the report's fault text, on two lines");
    // The results keep what the bot wrote, as it wrote it.
    let results = std::fs::read_to_string(dir.join("results.json")).unwrap();
    assert!(results.contains("thinkingpanicked at src/lib.rs:7: no idea"), "{results}");
}
