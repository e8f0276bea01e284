//! Hostile and broken bots (the WAT fixtures in `tests/bots/hostile/`):
//! refused at load time with one clear line, or faulting at run time
//! without touching anyone else's result.

use std::path::PathBuf;

use pitboss_engine::{FaultKind, Player, Rules, Shoe, Table, TableEvent};
use pitboss_host::{Limits, Sandbox};
use pitboss_league::file::{Format, LeagueFile};
use pitboss_league::league::{self};
use pitboss_results::BotResult;
use pitboss_sdk::Decision;
use pitboss_tests::{boxed, wasm_path};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(concat!(tests_dir!(), "/bots/hostile")).join(format!("{name}.wat"))
}

fn refusal(name: &str) -> String {
    let path = fixture(name);
    let e = Sandbox::new(Limits::default()).unwrap().load_file(&path).unwrap_err().to_string();
    assert!(e.starts_with(&path.display().to_string()), "names the file: {e}");
    assert!(!e.contains('\n'), "one line: {e}");
    e
}

#[test]
fn load_time_hazards_are_refused_with_one_line_naming_the_problem() {
    for (name, says) in [
        ("loop-start", "has a start function"),
        ("loop-init", "failed to start: wasm trap: all fuel consumed"),
        ("wrong-version", "speaks bot ABI version 7, this Pitboss speaks versions 1 to 6"),
        ("defaults-type", "export `pitboss_defaults` has the wrong type"),
        (
            "defaults-act",
            "pitboss_defaults(0) = 0x10 names decisions that have no default answer (only bet, insurance, even-money, side-bet, back-bet and banker-double: bits 0xee)",
        ),
        ("wants-events-type", "export `pitboss_wants_events` has the wrong type"),
        ("wants-events-trap", "failed to start: wasm trap: wasm `unreachable` instruction executed"),
        ("unknown-import", "imports `wasi_snapshot_preview1.sock_accept`"),
        ("missing-exports", "does not export `pitboss_buffer`"),
        ("oversized-table", "declares a table of 1000000 elements; the cap is 10000"),
        ("oversized-memory", "declares 16384 pages (1048576 KiB) of initial memory; the cap is 16384 KiB"),
    ] {
        let e = refusal(name);
        assert!(e.contains(says), "{name}: {e}");
    }
}

fn league_with(hostile: Option<&str>, fault_limit: u64) -> LeagueFile {
    let mut text = format!(
        r#"name = "hostile"
variant = "north-american"
rounds = 3000
seed = 77
bankroll = 100000
format = "solo"
fault_limit = {fault_limit}

[[bot]]
name = "basic"
path = "{}"
"#,
        wasm_path("basic").display()
    );
    if let Some(h) = hostile {
        text.push_str(&format!("\n[[bot]]\nname = \"{h}\"\npath = \"{}\"\n", fixture(h).display()));
    }
    toml_league(&text)
}

fn toml_league(text: &str) -> LeagueFile {
    let dir = std::env::temp_dir().join(format!("pitboss-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("l{}.toml", text.len()));
    std::fs::write(&path, text).unwrap();
    pitboss_league::file::parse(&path).unwrap()
}

fn run(file: &LeagueFile) -> Vec<BotResult> {
    let sandbox = pitboss_league::sandbox().unwrap();
    let result = league::run(file, std::path::Path::new("league.toml"), &sandbox).unwrap();
    assert_eq!(result.format, Format::Solo);
    let mut bots: Vec<BotResult> = result.standings.into_iter().map(|s| s.result).collect();
    bots.sort_by(|a, b| a.name.cmp(&b.name));
    bots
}

#[test]
fn run_time_hazards_fault_without_touching_the_other_bots() {
    let alone = run(&league_with(None, 100));
    let basic_alone = serde_json::to_string(&alone[0]).unwrap();
    for (hazard, kind) in [
        ("loop-decide", "out-of-fuel"),
        ("memory-bomb", "memory"),
        ("deep-recursion", "trap"),
        ("trap", "trap"),
        ("garbage", "illegal"),
        ("sometimes", "trap"),
    ] {
        let results = run(&league_with(Some(hazard), 100));
        let basic = results.iter().find(|r| r.name == "basic").unwrap();
        assert_eq!(serde_json::to_string(basic).unwrap(), basic_alone, "{hazard} changed basic's result");
        let bad = results.iter().find(|r| r.name == hazard).unwrap();
        assert!(bad.faults > 0, "{hazard} faulted");
        assert_eq!(bad.fault_log.len() as u64, bad.faults.min(100), "{hazard}");
        assert!(bad.fault_log.iter().all(|f| f.kind == kind), "{hazard}: {:?}", bad.fault_log.first());
        if hazard == "sometimes" {
            assert!(!bad.disqualified, "a rare fault stays under the limit");
            assert!(bad.fault_log.iter().all(|f| f.round.is_multiple_of(64)), "faults only in every 64th round");
        }
        if hazard == "deep-recursion" {
            assert!(bad.fault_log[0].message.contains("call stack exhausted"), "{}", bad.fault_log[0].message);
        }
    }
}

#[test]
fn a_replay_reproduces_the_same_faults_at_the_same_decisions() {
    let file = league_with(Some("sometimes"), 100);
    let a = run(&file);
    let b = run(&file);
    assert_eq!(a, b);
    assert!(!a[1].fault_log.is_empty());
}

#[test]
fn the_fault_limit_disqualifies_and_freezes_chips() {
    let results = run(&league_with(Some("loop-decide"), 5));
    let bad = results.iter().find(|r| r.name == "loop-decide").unwrap();
    assert!(bad.disqualified);
    assert_eq!(bad.faults, 5);
    let last = bad.fault_log.last().unwrap().round;
    assert_eq!(bad.rounds, last, "no bets after the round it was disqualified in");
    let sandbox = pitboss_league::sandbox().unwrap();
    let file = league_with(Some("loop-decide"), 5);
    let standings = league::run(&file, std::path::Path::new("league.toml"), &sandbox).unwrap().standings;
    assert_eq!(standings.last().unwrap().result.name, "loop-decide", "DQ ranks last");
}

#[test]
fn every_garbage_answer_is_counted_exactly_once() {
    let module = Sandbox::new(Limits::default()).unwrap().load_file(&fixture("garbage")).unwrap();
    let players: Vec<Box<dyn Player + Send>> = vec![boxed(module.instantiate().unwrap())];
    let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 4), players, 10_000).unwrap();
    let (mut bad_answers, mut faults) = (0, 0);
    for _ in 0..2_000 {
        table
            .play_round(&mut |e: &TableEvent| match e {
                TableEvent::Asked { kind, answer: Some(a), .. } => {
                    let illegal =
                        matches!((kind, a), (Decision::Bet, 3) | (Decision::Insurance, 99) | (Decision::Act, 77));
                    bad_answers += illegal as u64;
                }
                TableEvent::Fault { fault, .. } => {
                    assert_eq!(fault.kind, FaultKind::Illegal);
                    faults += 1;
                }
                _ => {}
            })
            .unwrap();
    }
    assert!(bad_answers > 2_000, "{bad_answers}");
    assert_eq!(faults, bad_answers);
    assert_eq!(table.players()[0].stats.faults, bad_answers);
    assert_eq!(table.players()[0].stats.rounds, 1_000, "every odd round's bet of 3 was refused");
}

#[test]
fn the_wall_clock_watchdog_is_a_separate_fault_kind() {
    let limits = Limits { fuel_per_decision: u64::MAX / 4, wall_ms: 30, ..Limits::default() };
    let module = Sandbox::new(limits).unwrap().load_file(&fixture("loop-decide")).unwrap();
    let players: Vec<Box<dyn Player + Send>> = vec![boxed(module.instantiate().unwrap())];
    let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 4), players, 10_000).unwrap();
    let mut kinds = Vec::new();
    while kinds.is_empty() {
        table
            .play_round(&mut |e: &TableEvent| {
                if let TableEvent::Fault { fault, .. } = e {
                    kinds.push(fault.kind);
                }
            })
            .unwrap();
    }
    assert_eq!(kinds, [FaultKind::Timeout]);
}

#[test]
fn pitboss_check_passes_our_bots_and_fails_hostile_ones() {
    use pitboss_league::check::{Plan, check};
    let plan = Plan::every_rule_set(&pitboss_league::sandbox().unwrap()).unwrap();
    let good = check(&wasm_path("basic"), &plan);
    assert!(good.passed && !good.faulted(), "{}", good.render());
    let text = good.render();
    assert!(text.contains("north-american: 2000 rounds") && text.contains("act"), "{text}");
    let rows = &good.rule_sets[0].decisions;
    assert!(rows.iter().all(|r| r.fuel_max > 0 && r.fuel_max < r.limit), "{text}");

    let bad = check(&fixture("sometimes"), &plan);
    assert!(bad.faulted() && !bad.passed);
    let text = bad.render();
    let round: u64 =
        text.split("first fault in round ").nth(1).and_then(|r| r.split(',').next()).unwrap().parse().unwrap();
    assert!(round.is_multiple_of(64) && text.contains(", act decision: wasm trap"), "{text}");

    let refused = check(&fixture("unknown-import"), &plan);
    assert!(!refused.passed && refused.rule_sets.is_empty());
    let e = refused.refusal.unwrap();
    assert!(e.starts_with("imports `wasi_snapshot_preview1.sock_accept`"), "{e}");
}
