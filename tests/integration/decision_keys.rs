//! ABI version 4's decision keys: a bot that declares what its answer
//! depends on is asked each distinct key once a session and is otherwise
//! answered with what it said, deterministically; `basic.wasm`, which
//! declares its act's key, plays exactly as the native `basic`; a
//! declaration the contract refuses is named at load.

use pitboss_engine::{Player, Rules, Shoe, Table, TableEvent};
use pitboss_host::{Limits, Sandbox};
use pitboss_sdk::Decision;

const KEYED: &str = include_str!("../bots/keyed.wat");

/// Plays `rounds` heads-up with `wat` and returns (acts the table asked,
/// acts the bot was called for, hits among the answers).
fn acts(wat: &str, rounds: u64) -> (u64, usize, u64) {
    let sandbox = Sandbox::new(Limits::default()).unwrap();
    let mut bot = sandbox.load("keyed.wat", wat.as_bytes()).unwrap().instantiate().unwrap();
    let profile = bot.profile();
    let rules = Rules::north_american();
    let mut table =
        Table::new(rules, Shoe::seeded(6, 78, 5), vec![Box::new(bot) as Box<dyn Player + Send>], 100_000).unwrap();
    let (mut asked, mut hits) = (0, 0);
    for _ in 0..rounds {
        table
            .play_round(&mut |e: &TableEvent| {
                if let TableEvent::Asked { kind: Decision::Act, answer, .. } = e {
                    asked += 1;
                    hits += u64::from(*answer == Some(1));
                }
            })
            .unwrap();
    }
    let called = profile.lock().unwrap().used[Decision::Act as usize].len();
    (asked, called, hits)
}

#[test]
fn a_keyed_decision_is_asked_once_per_key_and_answered_alike_after() {
    let (asked, called, hits) = acts(KEYED, 500);
    assert!(asked > 500, "{asked}");
    assert_eq!(called, 1, "one key, one call");
    assert_eq!(hits, asked, "every act got the first answer, hit");
    // As version 3 its key is not read: asked every act, it hits once.
    let (asked, called, hits) = acts(
        &KEYED.replace(
            "i32.const 4)\n  (func (export \"pitboss_buffer\")",
            "i32.const 3)\n  (func (export \"pitboss_buffer\")",
        ),
        500,
    );
    assert_eq!((called as u64, hits), (asked, 1));
}

#[test]
fn basic_wasm_declares_its_acts_key_and_plays_exactly_as_native_basic() {
    let sandbox = Sandbox::new(Limits::default()).unwrap();
    let basic = sandbox.load_file(&pitboss_tests::wasm_path("basic")).unwrap();
    let native = || pitboss_league::bots::Bot::builtin("basic").unwrap().player_seeded(0).unwrap();
    let rounds = 20_000;
    // Decision by decision (the tape hides a bot's declarations, so the
    // wasm bot is asked every act here)...
    let tape = pitboss_tests::taped_run(pitboss_tests::boxed(basic.instantiate().unwrap()), rounds);
    assert_eq!(tape, pitboss_tests::taped_run(native(), rounds), "(decision hash, decisions, balance)");
    // ...and seated as it is, keyed, to the chip, with few calls.
    let mut wasm = basic.instantiate().unwrap();
    let profile = wasm.profile();
    let play = |player: Box<dyn Player + Send>| {
        let shoe = Shoe::seeded(6, 78, 11);
        let mut table = Table::new(Rules::north_american(), shoe, vec![player], 10_000_000).unwrap();
        let mut acts = 0u64;
        for _ in 0..rounds {
            table
                .play_round(&mut |e: &TableEvent| {
                    acts += u64::from(matches!(e, TableEvent::Asked { kind: Decision::Act, .. }));
                })
                .unwrap();
        }
        (table.players()[0].stats, acts)
    };
    let (keyed, acts) = play(Box::new(wasm));
    assert_eq!((keyed, acts), play(native()));
    let called = profile.lock().unwrap().used[Decision::Act as usize].len() as u64;
    assert!(called * 10 < acts, "at most one act in ten asked of the bot: {called} of {acts}");
}

#[test]
fn a_declaration_the_contract_refuses_is_named_at_load() {
    let sandbox = Sandbox::new(Limits::default()).unwrap();
    let refused = |wat: String, says: &str| {
        let e = sandbox.load("keyed.wat", wat.as_bytes()).unwrap_err().to_string();
        assert!(e.contains(says), "{e}");
    };
    // A bot that reads events (no `pitboss_wants_events`) may not key.
    let reads =
        KEYED.replace(r#"(func (export "pitboss_wants_events") (param $variant i32) (result i32) i32.const 0)"#, "");
    refused(reads, "pitboss_decision_key(0, 4) = 0 names a key under a rule set where the bot reads events");
    refused(KEYED.replace("(then i32.const 0)", "(then i32.const 8192)"), "= 8192 names a part that does not exist");
    refused(
        KEYED.replace("(param $kind i32) (result i32)", "(param $kind i32) (param $more i32) (result i32)"),
        "export `pitboss_decision_key` has the wrong type",
    );
    refused(
        KEYED.replace(
            "(if (result i32) (i32.eq (local.get $kind) (i32.const 4)) (then i32.const 0) (else i32.const -1))",
            "i32.const 0",
        ),
        "pitboss_decision_key(0, 0) = 0 names a key for observe",
    );
}
