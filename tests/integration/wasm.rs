//! The wasm host: our Rust bots and hand-written WAT load and play; the
//! wasm and native builds of `basic` decide identically; modules that
//! break the ABI are refused with one clear line; traps and runaway loops
//! become faults, not crashes.

use pitboss_engine::{FaultKind, Native, Player, Rules, Shoe, Table, TableEvent};
use pitboss_host::{Limits, Sandbox};
use pitboss_tests::{boxed, faults, taped_run, wasm_path};

fn sandbox() -> Sandbox {
    Sandbox::new(Limits::default()).unwrap()
}

#[test]
fn wasm_and_native_basic_make_identical_decisions_over_a_long_run() {
    let module = sandbox().load_file(&wasm_path("basic")).unwrap();
    let rounds = 200_000;
    let wasm = taped_run(boxed(module.instantiate().unwrap()), rounds);
    let native = taped_run(boxed(Native::new(basic::Basic::default())), rounds);
    assert!(wasm.1 > 2 * rounds, "{} decisions", wasm.1);
    assert_eq!(wasm, native, "(decision hash, decisions, balance) differ");
}

#[test]
fn every_bot_we_ship_loads_and_plays_without_faults() {
    let sandbox = sandbox();
    let players: Vec<_> = ["basic", "hilo", "random", "mimic_dealer", "never_bust", "template"]
        .iter()
        .map(|b| boxed(sandbox.load_file(&wasm_path(b)).unwrap().instantiate().unwrap()))
        .collect();
    let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 1), players, 100_000).unwrap();
    let mut events = Vec::new();
    for _ in 0..5_000 {
        table.play_round(&mut |e: &TableEvent| events.push(e.clone())).unwrap();
    }
    assert_eq!(faults(&events), []);
    let rounds: Vec<u64> = table.players().iter().map(|s| s.stats.rounds).collect();
    // hilo sits out at bad counts and random sometimes bets nothing; the
    // flat bettors play every round. (random also bets big and goes broke.)
    assert!(rounds.iter().all(|&r| r > 100), "{rounds:?}");
    assert_eq!([rounds[0], rounds[3], rounds[4], rounds[5]], [5_000; 4]);
}

#[test]
fn the_wat_bot_from_the_abi_document_plays() {
    let wat = std::fs::read(concat!(tests_dir!(), "/bots/minimal.wat")).unwrap();
    let module = sandbox().load("minimal.wat", &wat).unwrap();
    let mut table =
        Table::new(Rules::north_american(), Shoe::seeded(6, 78, 3), vec![boxed(module.instantiate().unwrap())], 1_000)
            .unwrap();
    for _ in 0..200 {
        table.play_round(&mut ()).unwrap();
    }
    let seat = &table.players()[0];
    assert_eq!(seat.stats.rounds, 200, "bet every round");
    assert_eq!(seat.stats.wagered, 400, "the minimum, 2 chips");
    assert_eq!(seat.stats.faults, 0);
}

fn refusal(wat: &str) -> String {
    sandbox().load("bot.wat", wat.as_bytes()).map(|_| ()).unwrap_err().to_string()
}

const EXPORTS: &str = r#"
  (memory (export "memory") 1)
  (func (export "pitboss_buffer") (result i32) i32.const 0)
  (func (export "pitboss_decide") (param i32) (result i64) i64.const 0)"#;

#[test]
fn a_file_that_is_not_wasm_is_refused_in_one_line() {
    let e = sandbox().load("notes.txt", b"hello, I am not a bot").unwrap_err().to_string();
    assert!(e.starts_with("notes.txt: not a valid WebAssembly module"), "{e}");
    assert!(!e.contains('\n'), "{e}");
}

#[test]
fn an_import_outside_the_abi_is_refused_by_name() {
    let e = refusal(&format!(
        r#"(module (import "wasi_snapshot_preview1" "sock_accept" (func (param i32 i32 i32) (result i32)))
             (func (export "pitboss_abi_version") (result i32) i32.const 1) {EXPORTS})"#
    ));
    assert!(e.contains("imports `wasi_snapshot_preview1.sock_accept`"), "{e}");
}

#[test]
fn a_wrong_abi_version_asks_for_a_rebuild() {
    for (version, says) in [(0, "speaks bot ABI version 0"), (7, "speaks bot ABI version 7")] {
        let wat =
            format!(r#"(module (func (export "pitboss_abi_version") (result i32) i32.const {version}) {EXPORTS})"#);
        let e = refusal(&wat);
        assert!(e.contains(says) && e.contains("rebuild it with pitboss-sdk"), "{e}");
    }
    for version in [1, 2, 3, 4, 5, 6] {
        let wat =
            format!(r#"(module (func (export "pitboss_abi_version") (result i32) i32.const {version}) {EXPORTS})"#);
        assert!(sandbox().load("bot.wat", wat.as_bytes()).is_ok(), "version {version} runs");
    }
}

#[test]
fn a_missing_export_is_named() {
    let e = refusal(
        r#"(module (memory (export "memory") 1) (func (export "pitboss_abi_version") (result i32) i32.const 1))"#,
    );
    assert!(e.contains("does not export `pitboss_buffer`"), "{e}");
}

#[test]
fn a_buffer_outside_memory_is_refused() {
    let e = refusal(
        r#"(module (memory (export "memory") 1)
             (func (export "pitboss_abi_version") (result i32) i32.const 1)
             (func (export "pitboss_buffer") (result i32) i32.const 65000)
             (func (export "pitboss_decide") (param i32) (result i64) i64.const 0))"#,
    );
    assert!(e.contains("leaves no room for 4096 bytes"), "{e}");
}

/// A bot that bets the minimum, then misbehaves on every `ACT`.
fn misbehaving(act_body: &str) -> Box<dyn Player + Send> {
    let wat = format!(
        r#"(module (memory (export "memory") 1)
             (func (export "pitboss_abi_version") (result i32) i32.const 1)
             (func (export "pitboss_buffer") (result i32) i32.const 1024)
             (func (export "pitboss_decide") (param $k i32) (result i64)
               (if (i32.eq (local.get $k) (i32.const 4)) (then {act_body}))
               (if (result i64) (i32.eq (local.get $k) (i32.const 1))
                 (then (i64.load (i32.const 1056))) (else (i64.const 0)))))"#
    );
    boxed(sandbox().load("bad.wat", wat.as_bytes()).unwrap().instantiate().unwrap())
}

fn fault_kinds(player: Box<dyn Player + Send>) -> (Vec<FaultKind>, u64) {
    let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 8), vec![player], 1_000).unwrap();
    let mut kinds = Vec::new();
    for _ in 0..50 {
        table
            .play_round(&mut |e: &TableEvent| {
                if let TableEvent::Fault { fault, .. } = e {
                    kinds.push(fault.kind);
                }
            })
            .unwrap();
    }
    (kinds, table.players()[0].stats.rounds)
}

#[test]
fn a_trapping_bot_faults_and_the_table_plays_on() {
    let (kinds, rounds) = fault_kinds(misbehaving("unreachable"));
    assert!(!kinds.is_empty() && kinds.iter().all(|k| *k == FaultKind::Trap), "{kinds:?}");
    assert_eq!(rounds, 50, "the bot is restarted after each trap and keeps betting");
}

#[test]
fn an_endless_loop_runs_out_of_fuel() {
    let (kinds, rounds) = fault_kinds(misbehaving("(loop $l (br $l))"));
    assert!(!kinds.is_empty() && kinds.iter().all(|k| *k == FaultKind::OutOfFuel), "{kinds:?}");
    assert_eq!(rounds, 50);
}

#[test]
fn a_memory_bomb_is_refused_as_a_memory_fault() {
    let (kinds, _) = fault_kinds(misbehaving("(drop (memory.grow (i32.const 1000)))"));
    assert!(!kinds.is_empty() && kinds.iter().all(|k| *k == FaultKind::Memory), "{kinds:?}");
}
