//! ABI version 4's decision keys: a bot that declares what its answer
//! depends on is asked each distinct key once a session and is otherwise
//! answered with what it said, deterministically; `basic.wasm`, which
//! declares its act's key, plays exactly as the native `basic`; version
//! 5's true count: `hilo.wasm`, which reads events and keys its acts and
//! insurance by its count, plays exactly as `hilo` asked every decision;
//! version 6: its bet keyed too (by whether others were dealt the round
//! before), it still does, even at a table of counters that sit out
//! together; a declaration the contract refuses is named at load.

use std::hash::{DefaultHasher, Hash, Hasher};

use pitboss_engine::{Native, Player, Rules, Shoe, Stats, Table, TableEvent};
use pitboss_host::{Limits, Sandbox};
use pitboss_sdk::{Decision, Variant};

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

/// Every event of `rounds` rounds at a table of `rules` seating `players`
/// (a shoe seeded with `seed`), hashed in order; the players' stats; the
/// acts asked.
fn played(rules: Rules, players: Vec<Box<dyn Player + Send>>, rounds: u64, seed: u64) -> (u64, Vec<Stats>, u64) {
    let shoe = Shoe::seeded(rules.decks, rules.cut_card, seed);
    let mut table = Table::new(rules, shoe, players, 100_000).unwrap();
    let (mut hash, mut acts) = (DefaultHasher::new(), 0);
    for _ in 0..rounds {
        let mut rec = |e: &TableEvent| {
            format!("{e:?}").hash(&mut hash);
            acts += u64::from(matches!(e, TableEvent::Asked { kind: Decision::Act, .. }));
        };
        table.play_round(&mut rec).unwrap();
    }
    (hash.finish(), table.players().iter().map(|p| p.stats).collect(), acts)
}

#[test]
fn hilo_wasm_keys_by_its_true_count_and_plays_exactly_as_hilo_asked_every_decision() {
    let sandbox = Sandbox::new(Limits::default()).unwrap();
    let hilo = sandbox.load_file(&pitboss_tests::wasm_path("hilo")).unwrap();
    let basic = || pitboss_league::bots::Bot::builtin("basic").unwrap().player_seeded(0).unwrap();
    let random = |seed| pitboss_league::bots::Bot::builtin("random").unwrap().player_seeded(seed).unwrap();
    for variant in Variant::ALL {
        let rules = Rules::for_variant(variant);
        // Two counters with others between them: cards dealt to other
        // boxes (its bets read them), splits, insurance, reshuffles.
        let table = |keyed: bool, profile: &mut Vec<_>| -> Vec<Box<dyn Player + Send>> {
            let mut counter = |i| -> Box<dyn Player + Send> {
                if keyed {
                    let mut wasm = hilo.instantiate_seeded(i).unwrap();
                    profile.push(wasm.profile());
                    Box::new(wasm)
                } else {
                    Box::new(Native::unkeyed(hilo::HiLo::default()))
                }
            };
            let seats = usize::from(rules.boxes / rules.boxes_per_player).min(4);
            let mut players = vec![counter(0), basic(), random(3), counter(1)];
            players.truncate(seats.max(2));
            players
        };
        let rounds = 3_000;
        let mut profiles = Vec::new();
        let keyed = played(rules.clone(), table(true, &mut profiles), rounds, 17);
        let asked = played(rules.clone(), table(false, &mut Vec::new()), rounds, 17);
        assert_eq!(keyed, asked, "{variant:?}: every event and chip");
        let calls: usize = profiles.iter().map(|p| p.lock().unwrap().used[Decision::Act as usize].len()).sum();
        let acts = keyed.2;
        if variant == Variant::NorwegianHome {
            continue; // a single deck shuffled every round: no keys
        }
        assert!(calls as u64 * 3 < acts, "{variant:?}: {calls} acts called of {acts} decisions");
    }
}

#[test]
fn a_table_of_counters_keyed_by_their_bet_sits_out_together_and_plays_on_as_if_asked() {
    // Three `hilo`s alone: at a bad count all sit out (each saw the others
    // dealt the round before), then nobody was dealt, so all bet again.
    // Keyed, the round that dealt nothing must reach them too, or they
    // would each keep sitting out, and the count would never move again.
    let sandbox = Sandbox::new(Limits::default()).unwrap();
    let hilo = sandbox.load_file(&pitboss_tests::wasm_path("hilo")).unwrap();
    let rules = Rules::north_american();
    let rounds = 20_000;
    let mut profiles = Vec::new();
    let mut keyed: Vec<Box<dyn Player + Send>> = Vec::new();
    for i in 0..3 {
        let mut wasm = hilo.instantiate_seeded(i).unwrap();
        profiles.push(wasm.profile());
        keyed.push(Box::new(wasm));
    }
    let asked = (0..3).map(|_| Box::new(Native::unkeyed(hilo::HiLo::default())) as Box<dyn Player + Send>).collect();
    let result = played(rules.clone(), keyed, rounds, 23);
    assert_eq!(result, played(rules.clone(), asked, rounds, 23), "every event and chip");
    // Rounds nobody played happened, and ended.
    let mut table = Table::new(
        rules.clone(),
        Shoe::seeded(rules.decks, rules.cut_card, 23),
        (0..3).map(|_| Box::new(Native::unkeyed(hilo::HiLo::default())) as Box<dyn Player + Send>).collect(),
        100_000,
    )
    .unwrap();
    let mut empty = 0;
    for _ in 0..rounds {
        let mut staked = false;
        table
            .play_round(&mut |e: &TableEvent| {
                staked |= matches!(e, TableEvent::Asked { kind: Decision::Bet, answer: Some(a), .. } if *a > 0);
            })
            .unwrap();
        empty += u64::from(!staked);
    }
    assert!(empty > 10, "{empty} rounds nobody played");
    assert!(result.1.iter().all(|s| s.rounds > rounds / 2), "never frozen: {:?}", result.1);
    // Its bet is answered from its key, mostly: few calls.
    let bets: usize = profiles.iter().map(|p| p.lock().unwrap().used[Decision::Bet as usize].len()).sum();
    assert!(bets * 5 < 3 * rounds as usize, "{bets} bets called of {}", 3 * rounds);
}

/// Loads `wat` as a bot: its refusal, if refused.
fn refusal(wat: &str) -> Option<String> {
    let sandbox = Sandbox::new(Limits::default()).unwrap();
    sandbox.load("keyed.wat", wat.as_bytes()).err().map(|e| e.to_string())
}

/// Asserts that `wat` is refused, saying `says`.
fn refused(wat: String, says: &str) {
    let e = refusal(&wat).expect("refused");
    assert!(e.contains(says), "{e}");
}

#[test]
fn a_declaration_the_contract_refuses_is_named_at_load() {
    // A bot that reads events (no `pitboss_wants_events`) may not key.
    let reads =
        KEYED.replace(r#"(func (export "pitboss_wants_events") (param $variant i32) (result i32) i32.const 0)"#, "");
    refused(reads, "pitboss_decision_key(0, 4) = 0 names a key under a rule set where the bot reads events");
    refused(KEYED.replace("(then i32.const 0)", "(then i32.const 32768)"), "= 32768 names a part that does not exist");
    refused(
        KEYED.replace("(then i32.const 0)", "(then i32.const 8192)"),
        "= 8192 names the true count, but pitboss_count(0) names no count",
    );
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

/// `keyed.wat` as version 5, reading events, with a Hi-Lo count and the
/// extra exports `more`.
fn counter(more: &str) -> String {
    KEYED
        .replace(
            "i32.const 4)\n  (func (export \"pitboss_buffer\")",
            "i32.const 5)\n  (func (export \"pitboss_buffer\")",
        )
        .replace(
            r#"(func (export "pitboss_wants_events") (param $variant i32) (result i32) i32.const 0)"#,
            &format!(
                r#"(func (export "pitboss_count") (param $variant i32) (result i64) i64.const 0xf00011111f) {more}"#
            ),
        )
}

#[test]
fn a_counter_keys_only_while_its_bet_brings_the_events_and_names_a_true_count_only_with_a_count() {
    // Reads events, keys its act by the true count, is asked its bet: loads.
    let counts = counter("").replace("(then i32.const 0)", "(then i32.const 8192)");
    assert_eq!(refusal(&counts), None);
    // ...but not with its bet keyed, or left to the default; nor with a
    // count that does not fit, or an export of the wrong type.
    let bet_keyed = "(else (select (i32.const 0) (i32.const -1) (i32.eq (local.get $kind) (i32.const 1))))";
    let bet_defaulted = r#"(func (export "pitboss_defaults") (param i32) (result i32) i32.const 2)"#;
    for (wat, says) in [
        (
            counts.replace("(else i32.const -1)", bet_keyed),
            "pitboss_decision_key(0, 1) = 0 keys the bet of a bot that reads events",
        ),
        (counter(bet_defaulted), "leaves its bet to the default (pitboss_defaults)"),
        (counts.replace("0xf00011111f", "0x10000000000"), "pitboss_count(0) = 0x10000000000 sets a bit above bit 39"),
        (
            counts.replace("(then i32.const 8192)", "(then i32.const 24576)"),
            "pitboss_decision_key(0, 4) = 24576 names others dealt (bit 14), a part of ABI version 6",
        ),
        (
            counts.replace("(result i64) i64.const 0xf00011111f", "(result i32) i32.const 1"),
            "export `pitboss_count` has the wrong type",
        ),
    ] {
        refused(wat, says);
    }
    // Version 6 keys its bet (and names others dealt), but still may not
    // leave it to the default: some question must come every round.
    let v6 = |wat: String| {
        wat.replace(
            "i32.const 5)\n  (func (export \"pitboss_buffer\")",
            "i32.const 6)\n  (func (export \"pitboss_buffer\")",
        )
    };
    let bet_keyed_v6 = v6(counts.replace(
        "(else i32.const -1)",
        &bet_keyed.replace("i32.const 0) (i32.const -1)", "i32.const 16384) (i32.const -1)"),
    ));
    assert_ne!(bet_keyed_v6, counts);
    assert_eq!(refusal(&bet_keyed_v6), None);
    refused(v6(counter(bet_defaulted)), "leaves its bet to the default (pitboss_defaults)");
}
