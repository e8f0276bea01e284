//! One way to raise limits everywhere: `play`, `check` and `replay` take a
//! league file's `[limits]` (`--league FILE`) or `--max-…` flags, and every
//! refusal names the limit, its value, and the flag and league key that
//! raise it.

use std::path::{Path, PathBuf};

use pitboss_tests::pitboss;

fn scratch(name: &str) -> PathBuf {
    pitboss_tests::scratch("limits", name)
}

/// A bot that bets the minimum and stands, logging `thinking` each
/// decision after spinning through about 1.5 million fuel: over the
/// default cap of a million a decision.
const SPINNER: &str = r#"(module
  (import "pitboss" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 8192) "thinking\n")
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (local $i i32)
    (loop $spin
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $spin (i32.lt_u (local.get $i) (i32.const 300000))))
    (call $log (i32.const 8192) (i32.const 9))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))"#;

/// A league file in `dir` raising the fuel a decision may use.
fn league(dir: &Path) {
    let text = "name = \"spin\"\nvariant = \"north-american\"\nrounds = 10\nseed = 1\nbankroll = 1000\nformat = \"solo\"\n\n[limits]\nfuel_per_decision = 5000000\n\n[[bot]]\nname = \"spinner\"\npath = \"spinner.wat\"\n";
    std::fs::write(dir.join("league.toml"), text).unwrap();
}

#[test]
fn play_runs_a_bot_with_its_transcript_under_a_leagues_limits_or_flags() {
    let dir = scratch("play");
    std::fs::write(dir.join("spinner.wat"), SPINNER).unwrap();
    league(&dir);
    let base = ["play", "--bot", "spinner.wat", "--rounds", "3", "--transcript"];

    let tight = pitboss(&dir, &base);
    assert_eq!(tight.code, Some(0), "{}", tight.stderr);
    let raise = "raise it with --max-fuel-per-decision N, or `fuel_per_decision = N` under [limits] in a league file";
    assert!(tight.stdout.contains("(fuel cap: 1000000 per decision; "), "{}", tight.stdout);
    assert!(tight.stdout.contains(raise), "the fault says how to raise the cap: {}", tight.stdout);

    for extra in [&["--league", "league.toml"][..], &["--max-fuel-per-decision", "5000000"]] {
        let ran = pitboss(&dir, &[&base[..], extra].concat());
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
        assert!(ran.stdout.contains("box 0: log during act: thinking"), "{extra:?}: {}", ran.stdout);
        assert!(!ran.stdout.contains("FAULT"), "{extra:?}: {}", ran.stdout);
    }
    let out_of_range = pitboss(&dir, &[&base[..], &["--max-fuel-per-decision", "99"]].concat());
    assert_eq!(out_of_range.code, Some(2), "a usage error");
    assert!(out_of_range.stderr.contains("--max-fuel-per-decision"), "{}", out_of_range.stderr);
}

#[test]
fn check_says_how_to_raise_a_limit_and_replays_a_fault_under_the_same_limits() {
    let dir = scratch("check");
    std::fs::write(dir.join("spinner.wat"), SPINNER).unwrap();
    league(&dir);
    let plain = pitboss(&dir, &["check", "spinner.wat", "--variant", "north-american"]);
    assert_eq!(plain.code, Some(1), "{}", plain.stdout);
    assert!(plain.stdout.contains("--max-fuel-per-decision N, or `fuel_per_decision = N`"), "{}", plain.stdout);
    for extra in
        [&["--league", "league.toml"][..], &["--variant", "north-american", "--max-fuel-per-decision", "5000000"]]
    {
        let ran = pitboss(&dir, &[&["check", "spinner.wat"][..], extra].concat());
        assert_eq!(ran.code, Some(0), "{extra:?}: {}", ran.stdout);
    }

    // Under a league whose cap is still too low, the replay command
    // `check` prints plays under the same limits.
    let low = std::fs::read_to_string(dir.join("league.toml")).unwrap().replace("5000000", "1200000");
    std::fs::write(dir.join("low.toml"), low).unwrap();
    let ran = pitboss(&dir, &["check", "spinner.wat", "--league", "low.toml", "--max-code-kib", "512"]);
    assert_eq!(ran.code, Some(1), "{}", ran.stdout);
    let replay = ran.stdout.lines().find_map(|l| l.trim().strip_prefix("replay: ")).expect("a replay command");
    assert!(replay.contains(" --league low.toml --max-code-kib 512 "), "{replay}");
    let args: Vec<&str> = replay.split(' ').skip(1).collect();
    let replayed = pitboss(&dir, &args);
    assert!(replayed.stdout.contains("FAULT in"), "the replay shows the fault: {}", replayed.stdout);
}

#[test]
fn a_module_over_the_default_caps_is_refused_naming_the_flag_and_the_league_key() {
    let dir = scratch("module");
    // 5 MiB of data: over the 4 MiB module cap.
    let big = format!(
        "(module (memory (export \"memory\") 100) (data (i32.const 0) \"{}\") (func (export \"pitboss_abi_version\") (result i32) i32.const 1) (func (export \"pitboss_buffer\") (result i32) i32.const 1024) (func (export \"pitboss_decide\") (param i32) (result i64) i64.const 0))",
        "x".repeat(5 << 20)
    );
    std::fs::write(dir.join("big.wat"), big).unwrap();
    let league = "name = \"big\"\nvariant = \"north-american\"\nrounds = 10\nseed = 1\nbankroll = 1000\nformat = \"solo\"\n\n[limits]\nmodule_mib = 8\n\n[[bot]]\nname = \"big\"\npath = \"big.wat\"\n";
    std::fs::write(dir.join("league.toml"), league).unwrap();
    let ran = pitboss(&dir, &["check", "big.wat"]);
    assert_eq!(ran.code, Some(1));
    // The league beside it (a Go scaffold's) raises the cap.
    assert!(
        ran.stdout.contains(
            "hint: ./league.toml raises the limits this bot needs: pitboss check big.wat --league ./league.toml"
        ),
        "{}",
        ran.stdout
    );
    assert_eq!(pitboss(&dir, &["check", "big.wat", "--league", "./league.toml"]).code, Some(0));
    assert!(
        ran.stdout.contains("the cap is 4096 KiB: raise it with --max-module-mib N, or `module_mib = N`"),
        "{}",
        ran.stdout
    );
    let raised = pitboss(&dir, &["check", "big.wat", "--max-module-mib", "8", "--max-memory-mib", "16"]);
    assert!(!raised.stdout.contains("module_mib"), "{}", raised.stdout);
    assert_eq!(raised.code, Some(0), "{}", raised.stdout);
}
