//! The `pitboss` command's library: same seed → byte-identical results,
//! stacked shoe files, one-line errors for bad input, every rule set.

use std::path::{Path, PathBuf};

use pitboss_engine::{Rules, Shoe, Table, TableEvent, derive_seed};
use pitboss_league::PlayOptions;
use pitboss_results::{BotResult, output};
use pitboss_tests::{Script, boxed, wasm_path};

pub(crate) fn temp(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitboss-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn opts(bots: &[&str], rounds: u64, seed: u64) -> PlayOptions {
    PlayOptions {
        variant: "north-american".into(),
        bots: bots.iter().map(|b| b.to_string()).collect(),
        rounds: Some(rounds),
        seed,
        shoe: None,
        bankroll: 100_000,
        transcript: false,
        fault_limit: 100,
        limits: Default::default(),
        tally: true,
    }
}

fn json_of(o: &PlayOptions, file: &str) -> Vec<u8> {
    let (report, _) = pitboss_league::play(o, &mut std::io::sink()).unwrap();
    let path = temp(file, "");
    output::write_json(&path, &report).unwrap();
    std::fs::read(path).unwrap()
}

#[test]
fn the_same_seed_gives_byte_identical_results() {
    let wasm = wasm_path("basic").display().to_string();
    let o = opts(&[&wasm, "builtin:mimic-dealer", "builtin:basic"], 20_000, 99);
    let a = json_of(&o, "a.json");
    let b = json_of(&o, "b.json");
    assert_eq!(a, b);
    let text = String::from_utf8(a).unwrap();
    assert!(text.contains("\"name\": \"basic\"") && text.contains("\"name\": \"builtin:mimic-dealer\""), "{text}");
}

/// `pitboss play` without `--json` does not count the tallies (nothing
/// reads them): the same cards, chips, statistics and faults, the
/// tallies left at zero; with `--json` they are counted as in a league.
#[test]
fn play_counts_the_tallies_only_when_they_are_written() {
    let garbage = Path::new(tests_dir!()).join("bots/hostile/garbage.wat").display().to_string();
    let counted = opts(&["builtin:basic", &garbage, "builtin:random"], 3_000, 5);
    let (with, _) = pitboss_league::play(&counted, &mut std::io::sink()).unwrap();
    let (without, _) = pitboss_league::play(&PlayOptions { tally: false, ..counted }, &mut std::io::sink()).unwrap();
    assert!(with.table.bots[1].faults > 0 && !with.table.bots[1].fault_log.is_empty(), "the garbage bot faults");
    for (w, o) in with.table.bots.iter().zip(&without.table.bots) {
        assert!(w.tally.decisions[pitboss_sdk::Decision::Bet] >= w.rounds.max(1), "{}: asked its bets", w.name);
        assert_eq!(w.tally.net(), w.net, "{}: the tally adds up to the net", w.name);
        assert_eq!(o.tally, pitboss_results::tally::Tally::default(), "{}: not counted", o.name);
        assert_eq!(BotResult { tally: w.tally, ..o.clone() }, *w, "{}: all else the same", w.name);
    }
    assert_eq!((with.table.rounds, with.table.house), (without.table.rounds, without.table.house));
}

#[test]
fn a_different_seed_gives_different_cards() {
    let first_cards = |seed: u64| {
        let rules = Rules::north_american();
        let shoe = Shoe::seeded(rules.decks, rules.cut_card, derive_seed(seed, 0));
        let mut table = Table::new(rules, shoe, vec![boxed(Script::new(2, &[]))], 1_000).unwrap();
        let mut cards = Vec::new();
        for _ in 0..5 {
            table
                .play_round(&mut |e: &TableEvent| {
                    if let TableEvent::Card { card, .. } | TableEvent::DealerCard { card, .. } = e {
                        cards.push(*card);
                    }
                })
                .unwrap();
        }
        cards
    };
    assert_eq!(first_cards(1), first_cards(1));
    assert_ne!(first_cards(1), first_cards(2));
    let o1 = json_of(&opts(&["builtin:basic"], 5_000, 1), "s1.json");
    let o2 = json_of(&opts(&["builtin:basic"], 5_000, 2), "s2.json");
    assert_ne!(o1, o2);
}

#[test]
fn a_stacked_shoe_file_plays_the_worked_example_then_stops_cleanly() {
    let mut o = opts(&["builtin:basic"], 0, 0);
    o.rounds = None;
    o.shoe = Some(PathBuf::from(concat!(tests_dir!(), "/shoes/double-eleven.shoe")));
    let (report, _) = pitboss_league::play(&o, &mut std::io::sink()).unwrap();
    assert_eq!(report.table.rounds, 1);
    assert_eq!(report.table.bots[0].net, 4, "basic doubles 11 against a ten: 8 come back");
    let why = report.table.stopped.expect("the shoe ran out");
    assert!(why.contains("stacked shoe ran out") && why.contains("round 2 was void"), "{why}");
    assert_eq!(report.seed, None);
}

#[test]
fn a_typo_in_a_shoe_file_is_reported_with_file_line_and_column() {
    let path = temp("typo.shoe", "# two rounds\nA K 9 7\n6 T 5 X 8\n");
    let mut o = opts(&["builtin:basic"], 1, 0);
    o.shoe = Some(path.clone());
    let e = format!("{:#}", pitboss_league::play(&o, &mut std::io::sink()).unwrap_err());
    assert_eq!(e, format!("{}: line 3, column 7: `X` is not a card (use A 2 3 4 5 6 7 8 9 T J Q K)", path.display()));
}

#[test]
fn an_unknown_variant_and_an_unknown_builtin_are_named() {
    let mut o = opts(&["builtin:basic"], 1, 0);
    o.variant = "klondike".into();
    let e = format!("{:#}", pitboss_league::play(&o, &mut std::io::sink()).unwrap_err());
    assert!(e.contains("unknown rule set `klondike`"), "{e}");
    let e = format!("{:#}", pitboss_league::play(&opts(&["builtin:genius"], 1, 0), &mut std::io::sink()).unwrap_err());
    assert!(e.contains("unknown builtin bot `genius`"), "{e}");
}

#[test]
fn every_rule_set_plays_from_the_command_line_library() {
    for variant in ["north-american", "swedish", "danish", "norwegian-home"] {
        let mut o = opts(&["builtin:basic", "builtin:mimic-dealer"], 2_000, 4);
        o.variant = variant.into();
        let (report, _) = pitboss_league::play(&o, &mut std::io::sink()).unwrap();
        assert_eq!(report.table.rounds, 2_000, "{variant}");
        assert!(
            report.table.bots.iter().all(|b| b.faults == 0 && b.rounds > 1_000),
            "{variant}: {:?}",
            report.table.bots
        );
    }
}

/// `pitboss run` on a terminal (a pseudo-terminal from util-linux's
/// `script`, as a user's): the bar's rate is a whole number of rounds a
/// second, its estimate whole seconds and sane for a run of seconds, and
/// the standings say they rank by final chips. Six million rounds (about
/// 2 s alone) so the bar has seen half a second of rounds, the least it
/// measures a rate from, even on a loaded machine.
#[test]
fn pitboss_run_on_a_terminal_shows_a_whole_rate_a_sane_estimate_and_how_it_ranks() {
    let dir = std::env::temp_dir().join(format!("pitboss-tests-{}-pace", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let league = format!(
        "name = \"pace\"\nvariant = \"north-american\"\nrounds = 6000000\nsessions = 1\nseed = 3\n\
         bankroll = 100000000\nformat = \"solo\"\n[[bot]]\nname = \"basic\"\npath = \"{}\"\n",
        wasm_path("basic").display()
    );
    std::fs::write(dir.join("league.toml"), league).unwrap();
    let command = format!("{} run league.toml --threads 1", pitboss_tests::pitboss_bin().display());
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(&dir)
        .env("TERM", "xterm")
        .env("PITBOSS_CACHE_DIR", "off")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("util-linux's `script` runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Ranked by final chips, highest first"), "{text}");
    // Each frame of the bar ends in `RATE rounds/s  ETA LEFT`.
    let frames: Vec<(&str, &str)> = text
        .split(['\r', '\n'])
        .filter_map(|f| {
            let (rate, rest) = f.split_once(" rounds/s  ETA ")?;
            Some((rate.rsplit("rounds  ").next()?, rest.split("  ").next()?.trim()))
        })
        .collect();
    let measured: Vec<&(&str, &str)> = frames.iter().filter(|(rate, _)| *rate != "--").collect();
    assert!(!measured.is_empty(), "no frame showed a rate: {frames:?}");
    for (rate, eta) in measured {
        assert!(rate.chars().all(|c| c.is_ascii_digit() || c == ','), "a whole number: {rate}");
        let secs: u64 = match eta.strip_suffix('s').and_then(|e| e.split_once("m ")) {
            Some((m, s)) => m.parse::<u64>().unwrap() * 60 + s.parse::<u64>().unwrap(),
            None => eta.strip_suffix('s').and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("ETA {eta}")),
        };
        assert!(secs <= 60, "a run of seconds is not {eta} from its end: {frames:?}");
    }
}
