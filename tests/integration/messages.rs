//! Messages in the author's words: an illegal action by its name, a log
//! as its lines, hand totals in transcripts, the seat column of `play`,
//! the build hint of a scaffold, a warning for a module older than its
//! sources, and `play --help` listing every builtin.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use pitboss_tests::pitboss;

fn scratch(name: &str) -> PathBuf {
    pitboss_tests::scratch("messages", name)
}

/// A bot that bets the minimum, logs two lines, and answers `act` with
/// `answer`.
fn bot(answer: i64) -> String {
    format!(
        r#"(module
  (import "pitboss" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 8192) "first line\nsecond line\n")
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.eq (local.get $kind) (i32.const 4)) (then (call $log (i32.const 8192) (i32.const 23))))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const {answer})))))"#
    )
}

#[test]
fn a_transcript_names_the_illegal_action_shows_log_lines_and_totals() {
    let dir = scratch("transcript");
    // 3 is split: illegal on almost every hand.
    std::fs::write(dir.join("splitter.wat"), bot(3)).unwrap();
    let ran = pitboss(&dir, &["play", "--bot", "splitter.wat", "--rounds", "20", "--transcript"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let out = &ran.stdout;
    assert!(out.contains("FAULT in act (illegal): split is not a legal action here (legal: "), "{out}");
    assert!(!out.contains("act 3"), "never the code: {out}");
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| *l == "box 0: log during act: first line").expect("the first line");
    assert_eq!(lines[at + 1], "  | second line", "the log's next line, as a line");
    assert!(lines.iter().any(|l| l.starts_with("box 0 hand 0: dealt ") && l.ends_with(')')), "a total: {out}");
    assert!(out.contains(" (hard ") && out.contains(" (dealer "), "{out}");
    // A match ranks nobody: its first column is the seat, from 0.
    assert!(out.contains("│ seat │") && out.contains("│ 0    │"), "{out}");
}

#[test]
fn a_scaffolds_missing_or_stale_module_says_build_sh() {
    let dir = scratch("scaffold");
    std::fs::write(dir.join("build.sh"), "#!/bin/sh\n").unwrap();
    let missing = pitboss(&dir, &["check", "my-bot.wasm"]);
    assert!(missing.stdout.contains("my-bot.wasm does not exist (build it with ./build.sh in "), "{}", missing.stdout);
    let played = pitboss(&dir, &["play", "--bot", "my-bot.wasm"]);
    assert!(played.stderr.contains("build it with ./build.sh in "), "{}", played.stderr);

    // A module older than the source beside it: checked, with a warning.
    std::fs::write(dir.join("my-bot.wat"), bot(0)).unwrap();
    std::fs::write(dir.join("my-bot.c"), "/* edited after the build */\n").unwrap();
    let old = SystemTime::now() - Duration::from_secs(3_600);
    std::fs::File::options().write(true).open(dir.join("my-bot.wat")).unwrap().set_modified(old).unwrap();
    let stale = pitboss(&dir, &["check", "my-bot.wat", "--variant", "north-american"]);
    let warning = "warning: my-bot.wat is older than ";
    assert!(stale.stderr.contains(warning) && stale.stderr.contains("rebuild it with ./build.sh"), "{}", stale.stderr);
    let stale = pitboss(&dir, &["play", "--bot", "my-bot.wat", "--rounds", "1"]);
    assert!(stale.stderr.contains(warning), "{}", stale.stderr);

    std::fs::File::options().write(true).open(dir.join("my-bot.wat")).unwrap().set_modified(SystemTime::now()).unwrap();
    let fresh = pitboss(&dir, &["check", "my-bot.wat", "--variant", "north-american"]);
    assert!(!fresh.stderr.contains("older than"), "{}", fresh.stderr);
    not_a_scaffold_never_warns(&dir);
}

/// Without a `build.sh` beside it, a module is nobody's scaffold.
fn not_a_scaffold_never_warns(dir: &Path) {
    std::fs::remove_file(dir.join("build.sh")).unwrap();
    let old = SystemTime::now() - Duration::from_secs(3_600);
    std::fs::File::options().write(true).open(dir.join("my-bot.wat")).unwrap().set_modified(old).unwrap();
    let ran = pitboss(dir, &["check", "my-bot.wat", "--variant", "north-american"]);
    assert!(!ran.stderr.contains("older than"), "{}", ran.stderr);
}

#[test]
fn play_help_lists_every_builtin() {
    let help = pitboss(Path::new("."), &["play", "--help"]);
    for name in pitboss_league::bots::BUILTINS {
        assert!(help.stdout.contains(&format!("builtin:{name}")), "{name}: {}", help.stdout);
    }
}
