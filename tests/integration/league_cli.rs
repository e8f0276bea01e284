//! League files through the command's library: ranking, errors that name
//! file, line and column, rule overrides, class leagues over a folder,
//! sessions, replays, seasons, shards, and the analysis of a league's rules.

use std::path::{Path, PathBuf};

use pitboss_engine::{Rules, Shoe, Table, derive_seed};
use pitboss_league::{league, transcript};
use pitboss_results::output;
use pitboss_tests::wasm_path;

use super::cli::temp;

const LEAGUE: &str = r#"
name = "Test league"
variant = "north-american"
rounds = 3000
seed = 5
bankroll = 10000
format = "solo"

[[bot]]
name = "mimic-dealer"
builtin = "mimic-dealer"

[[bot]]
name = "basic-wasm"
path = "BASIC"

[[bot]]
name = "basic-native"
builtin = "basic"
"#;

#[test]
fn a_league_ranks_by_balance_and_solo_tables_share_the_shoe() {
    let text = LEAGUE.replace("BASIC", &wasm_path("basic").display().to_string());
    let path = temp("league.toml", &text);
    let file = pitboss_league::file::parse(&path).unwrap();
    let sandbox = pitboss_league::sandbox().unwrap();
    let result = league::run(&file, &path, &sandbox).unwrap();
    let balances: Vec<i64> = result.standings.iter().map(|s| s.result.balance).collect();
    assert!(balances.windows(2).all(|w| w[0] >= w[1]), "{balances:?}");
    let by_name = |n: &str| result.standings.iter().find(|s| s.result.name == n).unwrap().result.clone();
    // Duplicate format: the wasm and native builds of one strategy, dealt
    // the same shoe, end with the very same chips.
    assert_eq!(by_name("basic-wasm").balance, by_name("basic-native").balance);
    assert_eq!(result, league::run(&file, &path, &sandbox).unwrap(), "a rerun is identical");
}

#[test]
fn every_league_file_we_ship_runs() {
    let dir = PathBuf::from(concat!(tests_dir!(), "/../leagues"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    let sandbox = pitboss_league::sandbox().unwrap();
    for path in files {
        let mut file = pitboss_league::file::parse(&path).unwrap_or_else(|e| panic!("{e:#}"));
        if file.bots.iter().any(|b| b.folder.is_some()) {
            // A submissions folder (class.toml) is filled by scripts/class-demo;
            // a_class_league_over_a_folder_… runs that shape.
            continue;
        }
        file.rounds = 500;
        let result = league::run(&file, &path, &sandbox).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(result.standings.len(), file.bots.len(), "{}", path.display());
        assert!(result.standings.iter().all(|s| s.result.faults == 0), "{}", path.display());
    }
}

#[test]
fn league_file_errors_name_file_line_and_column() {
    let path = temp("bad-key.toml", &LEAGUE.replace("seed = 5", "seed = 5\nsede = 6"));
    let e = format!("{:#}", pitboss_league::file::parse(&path).unwrap_err());
    assert!(e.starts_with(&format!("{}:6:1: unknown field `sede`", path.display())), "{e}");

    let path = temp("bad-type.toml", &LEAGUE.replace("rounds = 3000", "rounds = \"many\""));
    let e = format!("{:#}", pitboss_league::file::parse(&path).unwrap_err());
    assert!(e.starts_with(&format!("{}:4:10:", path.display())), "{e}");

    let path = temp("missing-bot.toml", &LEAGUE.replace("BASIC", "nowhere/basic.wasm"));
    let file = pitboss_league::file::parse(&path).unwrap();
    let e = format!("{:#}", league::run(&file, &path, &pitboss_league::sandbox().unwrap()).unwrap_err());
    assert!(e.contains("bot `basic-wasm`") && e.contains("nowhere/basic.wasm does not exist"), "{e}");
}

#[test]
fn rule_overrides_apply_and_impossible_ones_point_at_the_value() {
    let base = LEAGUE.replace("path = \"BASIC\"", "builtin = \"basic\"");
    let with = |rules: &str| format!("{base}\n[rules]\n{rules}\n");
    let lines = base.lines().count() + 3; // the first line under [rules]

    let path = temp("odd-unit.toml", &with("min_bet = 1\nbet_unit = 1"));
    let e = format!("{:#}", pitboss_league::file::parse(&path).unwrap_err());
    let expected =
        format!("{}:{}:12: rule `bet_unit`: 1 does not make a 3:2 blackjack payout whole", path.display(), lines + 1);
    assert!(e.starts_with(&expected), "{e}\nwanted {expected}");

    let path = temp("typo-rule.toml", &with("decs = 2"));
    let e = format!("{:#}", pitboss_league::file::parse(&path).unwrap_err());
    assert!(e.starts_with(&format!("{}:{lines}:1: unknown field `decs`", path.display())), "{e}");

    let path = temp("bad-insurance.toml", &with("insurance = \"sometimes\""));
    let e = format!("{:#}", pitboss_league::file::parse(&path).unwrap_err());
    assert!(e.contains(":13: rule `insurance`: `sometimes` is not one of never, ace, ace-or-ten"), "{e}");

    // A valid override changes play: one deck, hit soft 17, no surrender.
    let sandbox = pitboss_league::sandbox().unwrap();
    let plain = temp("plain.toml", &base);
    let custom =
        temp("custom.toml", &with("decks = 1\ncut_card = 20\ndealer_hits_soft_17 = true\nlate_surrender = false"));
    let a = league::run(&pitboss_league::file::parse(&plain).unwrap(), &plain, &sandbox).unwrap();
    let b = league::run(&pitboss_league::file::parse(&custom).unwrap(), &custom, &sandbox).unwrap();
    assert_ne!(a.standings, b.standings);
}

#[test]
fn the_rules_text_is_generated_from_the_rules_in_force() {
    use pitboss_engine::Rules;
    let text = |r: &Rules| r.describe().join("\n");
    let na = Rules::north_american();
    assert!(text(&na).contains("dealer: stands on soft 17"));
    assert!(text(&Rules { dealer_hits_soft_17: true, ..na.clone() }).contains("dealer: hits soft 17"));
    assert!(text(&Rules::swedish()).contains("the dealer wins equal totals up to 19"));
    assert!(text(&Rules::danish()).contains("two cards totalling 9, 10, 11 (aces 1), never on a soft hand"));
    assert!(text(&Rules { banker: pitboss_engine::Banker::Rotate, ..Rules::norwegian_home() }).contains("rotates"));
    for variant in pitboss_sdk::Variant::ALL {
        let rules = Rules::for_variant(variant);
        assert!(text(&rules).starts_with(&format!("rule set: {}", variant.id())));
    }
}

/// A league over a folder of 30 bot files (copies of our bots, as a class
/// would submit them), in the table format with four sessions.
fn class_league(dir: &std::path::Path, sessions: u64) -> PathBuf {
    class_league_of(dir, sessions, 400)
}

fn class_league_of(dir: &std::path::Path, sessions: u64, rounds: u64) -> PathBuf {
    pitboss_tests::class_submissions(dir);
    let league = format!(
        "name = \"class\"\nvariant = \"north-american\"\nrounds = {rounds}\nsessions = {sessions}\nseed = 9\nbankroll = 100000\nformat = \"table\"\n\n[[bot]]\nfolder = \"submissions\"\n"
    );
    let path = dir.join("class.toml");
    std::fs::write(&path, league).unwrap();
    path
}

#[test]
fn a_class_league_over_a_folder_is_identical_for_any_thread_count() {
    let dir = std::env::temp_dir().join(format!("pitboss-class-{}", std::process::id()));
    let path = class_league(&dir, 4);
    let file = pitboss_league::file::parse(&path).unwrap();
    let sandbox = pitboss_league::sandbox().unwrap();
    let (one, results_one) = league::run_with(&file, &path, &sandbox, Some(1), &|_| ()).unwrap();
    let (two, results_two) = league::run_with(&file, &path, &sandbox, Some(2), &|_| ()).unwrap();
    assert_eq!(one.standings.len(), 30);
    assert_eq!(one, two);
    assert_eq!(serde_json::to_string(&results_one).unwrap(), serde_json::to_string(&results_two).unwrap());
    assert_eq!(results_one.bots.len(), 30);
    assert!(results_one.bots.iter().all(|b| b.sha256.as_ref().is_some_and(|h| h.len() == 64)));
    assert_eq!(results_one.sessions.len(), 4);
    let csv = pitboss_results::output::standings_csv(&one.standings);
    assert_eq!(csv.lines().count(), 31);
    assert!(csv.starts_with(
        "rank,bot,status,final_chips,net_chips,rounds_played,ev_pct,ev_ci95_low_pct,ev_ci95_high_pct,faults,broke_sessions,ahead_of_next,luck_ev_pct,luck_ev_ci95_low_pct,luck_ev_ci95_high_pct,vs_next_on,vs_next\n"
    ));
}

#[test]
fn one_session_plays_its_tables_in_parallel_with_identical_results() {
    // A single session spanning several blocks of rounds: its five tables
    // play on threads, and the per-round sums are merged in order.
    let dir = std::env::temp_dir().join(format!("pitboss-class1-{}", std::process::id()));
    let path = class_league_of(&dir, 1, 5_000);
    let file = pitboss_league::file::parse(&path).unwrap();
    let sandbox = pitboss_league::sandbox().unwrap();
    let (_, one) = league::run_with(&file, &path, &sandbox, Some(1), &|_| ()).unwrap();
    let (_, two) = league::run_with(&file, &path, &sandbox, Some(2), &|_| ()).unwrap();
    assert_eq!(serde_json::to_string(&one).unwrap(), serde_json::to_string(&two).unwrap());
    // Each table alone, replayed round by round, ends where the league says.
    let session = &one.sessions[0];
    let rules = Rules::north_american();
    let seating = pitboss_league::session::rotated_seating(30, rules.max_players(), 0);
    let bots: Vec<String> = session.bots.iter().map(|b| b.name.clone()).collect();
    let seeded = derive_seed(9, 0);
    for seats in &seating {
        let players = seats
            .iter()
            .map(|&b| {
                let file = dir.join("submissions").join(format!("{}.wasm", bots[b]));
                pitboss_league::bots::Bot::resolve(&file.to_string_lossy(), Path::new(""), &sandbox)
                    .unwrap()
                    .player()
                    .unwrap()
            })
            .collect();
        let mut table = Table::new(rules.clone(), Shoe::seeded(6, rules.cut_card, seeded), players, 100_000).unwrap();
        table.set_fault_limit(100);
        for _ in 0..5_000 {
            table.play_round(&mut ()).unwrap();
        }
        for (seat, &b) in table.players().iter().zip(seats) {
            assert_eq!(seat.balance - 100_000, session.bots[b].net, "{}", bots[b]);
            assert_eq!(*session.bots[b].series.last().unwrap(), session.bots[b].net);
        }
    }
}

#[test]
fn confidence_intervals_and_paired_significance_match_known_cases() {
    use pitboss_engine::Stats;
    use pitboss_results::BotResult;
    // Bot 0 nets ±2 alternately: mean 0, standard deviation 2 per round.
    // Bot 1 nets exactly bot 0's result plus 1: far better, perfectly paired.
    // Bot 2 nets exactly what bot 0 nets: no difference at all.
    let n = 10_000;
    let mut stats = vec![Stats::default(); 3];
    let mut pairs = [0i128; 9];
    for r in 0..n {
        let x = if r % 2 == 0 { 2 } else { -2 };
        let nets = [x, x + 1, x];
        for i in 0..3 {
            stats[i].add_round(2, nets[i]);
            for j in 0..3 {
                pairs[i * 3 + j] += nets[i] as i128 * nets[j] as i128;
            }
        }
    }
    let results: Vec<BotResult> =
        (0..3).map(|i| BotResult::new(format!("bot{i}"), &stats[i], 1000 + stats[i].net as i64, 1000, false)).collect();
    let cross = |i: usize, j: usize| pitboss_results::pairs::Cross::Exact(pairs[i * 3 + j]);
    let standings = pitboss_results::standings::rank_with_intervals(results, &stats, &cross, n);
    assert_eq!(standings[0].result.name, "bot1");
    // EV per chip staked: ±2 on a stake of 2 is ±1 a chip, so the 95 %
    // half-width is 1.96 / sqrt(n) (with the n/(n−1) correction), in %.
    let expected = 1.96 / (n as f64).sqrt() * (n as f64 / (n as f64 - 1.0)).sqrt() * 100.0;
    let bot0 = standings.iter().find(|s| s.result.name == "bot0").unwrap();
    assert!((bot0.ev_ci95_pct - expected).abs() < 1e-9, "{} vs {expected}", bot0.ev_ci95_pct);
    assert_eq!(standings[0].ahead_of_next, Some(true), "+1 every round is significant");
    assert_eq!(standings[1].ahead_of_next, Some(false), "identical results are not");
    assert_eq!(standings[2].ahead_of_next, None);
}

#[test]
fn replay_reprints_a_logged_round_and_refuses_a_tampered_bot() {
    use pitboss_league::replay::{ReplayRequest, replay};
    let dir = std::env::temp_dir().join(format!("pitboss-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(wasm_path("basic"), dir.join("a.wasm")).unwrap();
    std::fs::copy(wasm_path("hilo"), dir.join("b.wasm")).unwrap();
    let league_text = "name = \"r\"\nvariant = \"north-american\"\nrounds = 50\nsessions = 2\nseed = 4\nbankroll = 1000\nformat = \"table\"\n\n[[bot]]\npath = \"a.wasm\"\n\n[[bot]]\npath = \"b.wasm\"\n";
    let path = dir.join("r.toml");
    std::fs::write(&path, league_text).unwrap();
    let file = pitboss_league::file::parse(&path).unwrap();
    let sandbox = pitboss_league::sandbox().unwrap();
    let (_, results) = league::run_with(&file, &path, &sandbox, Some(1), &|_| ()).unwrap();
    let results_path = dir.join("results.json");
    output::write_json(&results_path, &results).unwrap();

    // The same round, logged while the session is played from scratch
    // (session 1 rotates the seats: b.wasm sits first).
    let rules = pitboss_engine::Rules::north_american();
    let bots = [
        (
            "b".to_string(),
            pitboss_league::bots::Bot::resolve(&dir.join("b.wasm").to_string_lossy(), Path::new(""), &sandbox).unwrap(),
        ),
        (
            "a".to_string(),
            pitboss_league::bots::Bot::resolve(&dir.join("a.wasm").to_string_lossy(), Path::new(""), &sandbox).unwrap(),
        ),
    ];
    let players = bots.iter().map(|(_, b)| b.player().unwrap()).collect();
    let shoe = Shoe::seeded(6, 78, derive_seed(4, 1));
    let mut table = Table::new(rules, shoe, players, 1000).unwrap();
    table.set_fault_limit(100);
    let mut logged = Vec::new();
    {
        let mut transcript = transcript::Transcript::new(&mut logged);
        for round in 1..=7u64 {
            if round == 7 {
                table.play_round(&mut transcript).unwrap();
            } else {
                table.play_round(&mut ()).unwrap();
            }
        }
    }
    let mut out = Vec::new();
    let log = dir.join("history.jsonl");
    let request = ReplayRequest {
        results: results_path.clone(),
        bots: None,
        session: 1,
        round: 7,
        table: 0,
        only_box: None,
        log: Some(log.clone()),
        raised: Vec::new(),
    };
    replay(&request, &mut out).unwrap();
    let history = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<serde_json::Value> = history.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.iter().filter(|l| l["event"] == "round-start").count(), 50, "the whole session");
    assert!(lines.iter().all(|l| l["round"].as_u64().is_some_and(|r| (1..=50).contains(&r))));
    let cards_in_round_7 = lines.iter().filter(|l| l["round"] == 7 && l["event"] == "card").count();
    let out_cards = String::from_utf8(out.clone()).unwrap().matches(": dealt ").count()
        - String::from_utf8(out.clone()).unwrap().matches("dealer: dealt").count();
    assert_eq!(cards_in_round_7, out_cards, "the log and the printout agree on round 7");
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("seat 0: b\nseat 1: a\n"), "{out}");
    let body: String = out.lines().skip(3).map(|l| format!("{l}\n")).collect();
    assert_eq!(body, String::from_utf8(logged).unwrap());

    // A different bot file under the same name is refused.
    std::fs::copy(wasm_path("random"), dir.join("a.wasm")).unwrap();
    let e = format!("{:#}", replay(&request, &mut Vec::new()).unwrap_err());
    assert!(e.contains("bot `a`") && e.contains("is not the file that played"), "{e}");
}

#[test]
fn a_season_ranks_by_total_net_with_each_leagues_rank() {
    let base = LEAGUE.replace("path = \"BASIC\"", "builtin = \"basic\"").replace("rounds = 3000", "rounds = 2000");
    let a = temp("season-a.toml", &base);
    let b =
        temp("season-b.toml", &base.replace("seed = 5", "seed = 6").replace("name = \"Test league\"", "name = \"B\""));
    let season = temp(
        "season.toml",
        &format!("name = \"S\"\nleagues = [{:?}, {:?}]\n", a.file_name().unwrap(), b.file_name().unwrap()),
    );
    let result = pitboss_league::season::run(&season, Some(1)).unwrap();
    assert_eq!(result.leagues.len(), 2);
    for row in &result.standings {
        let nets: i64 = result
            .leagues
            .iter()
            .map(|l| l.standings.iter().find(|s| s.result.name == row.name).unwrap().result.net)
            .sum();
        assert_eq!(row.net, nets, "{}", row.name);
        assert!(row.league_ranks.iter().all(Option::is_some));
    }
    assert!(result.standings.windows(2).all(|w| w[0].net >= w[1].net));
    let text = pitboss_league::season::table(&result);
    assert!(text.contains("total net") && text.contains("Test league") && text.contains("B"), "{text}");
}

#[test]
fn sharded_and_merged_results_are_the_single_run_byte_for_byte() {
    let dir = std::env::temp_dir().join(format!("pitboss-shards-{}", std::process::id()));
    let path = class_league(&dir, 5);
    let file = pitboss_league::file::parse(&path).unwrap();
    let sandbox = pitboss_league::sandbox().unwrap();
    let (_, single) = league::run_with(&file, &path, &sandbox, Some(2), &|_| ()).unwrap();
    let mut parts = Vec::new();
    for i in 0..3 {
        let shard = pitboss_league::shard::run_shard(&path, (i, 3), Some(1)).unwrap();
        let part = dir.join(format!("part{i}.json"));
        output::write_json(&part, &shard).unwrap();
        parts.push(part);
    }
    let (_, merged) = pitboss_league::shard::merge(&parts).unwrap();
    assert_eq!(serde_json::to_string_pretty(&merged).unwrap(), serde_json::to_string_pretty(&single).unwrap());
    let e = format!("{:#}", pitboss_league::shard::merge(&parts[..2]).unwrap_err());
    assert!(e.contains("some are missing or doubled"), "{e}");
    assert!(pitboss_league::shard::parse_shard("3/3").is_err());
}

#[test]
fn bench_measures_a_positive_rate_for_every_rule_set() {
    let bot = pitboss_league::bots::Bot::builtin("basic").unwrap();
    for variant in pitboss_sdk::Variant::ALL {
        let rate = pitboss_league::bench::measure(&bot, variant, 2_000, 2).unwrap();
        assert!(rate > 0.0 && rate.is_finite(), "{variant:?}: {rate}");
    }
}

#[test]
fn faults_of_a_player_with_several_boxes_land_on_that_player() {
    // Swedish tables let a player hold two boxes: faults name the box,
    // results the player (this used to index past the fault logs).
    let league = temp(
        "two-boxes.toml",
        &format!(
            r#"name = "two boxes"
variant = "swedish"
rounds = 300
sessions = 2
seed = 5
bankroll = 10000
format = "table"
fault_limit = 0
[[bot]]
name = "basic"
path = "{}"
[[bot]]
name = "garbage"
path = "{}"
[rules]
boxes_per_player = 2
"#,
            wasm_path("basic").display(),
            Path::new(tests_dir!()).join("bots/hostile/garbage.wat").display()
        ),
    );
    let file = pitboss_league::file::parse(&league).unwrap();
    let sandbox = pitboss_league::sandbox().unwrap();
    let (result, results) = league::run_with(&file, &league, &sandbox, None, &|_| ()).unwrap();
    let garbage = result.standings.iter().find(|s| s.result.name == "garbage").unwrap();
    let basic = result.standings.iter().find(|s| s.result.name == "basic").unwrap();
    assert!(garbage.result.faults > 0);
    assert_eq!(garbage.result.tally.faults[pitboss_engine::FaultKind::Illegal], garbage.result.faults);
    assert_eq!(garbage.result.fault_log.len() as u64, garbage.result.faults.min(100));
    assert_eq!(basic.result.faults, 0);
    assert!(basic.result.fault_log.is_empty());
    // Both boxes' bets are the player's decisions.
    assert_eq!(basic.result.tally.decisions[pitboss_sdk::Decision::Bet], 2 * 300 * 2);
    // The session array and the session count are separate keys.
    let path = temp("two-boxes.json", "");
    output::write_json(&path, &results).unwrap();
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["sessions"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["session_count"], 2);
    assert_eq!(v["series_rounds"].as_array().map(Vec::len), Some(200));
}

#[test]
fn pitboss_strategy_prints_the_analysis_of_the_rules_a_league_plays() {
    use pitboss_tests::pitboss;
    let dir = temp("strategy-league.toml", "").parent().unwrap().to_path_buf();
    let default = pitboss(&dir, &["strategy", "north-american"]);
    assert_eq!(default.code, Some(0), "{}", default.stderr);
    let rules = Rules::north_american();
    assert_eq!(default.stdout, pitboss_strategy::render(&pitboss_strategy::analyze(&rules).unwrap()));
    assert!(default.stdout.contains("EV off the top") && default.stdout.contains("\nhard "), "{}", default.stdout);
    // A league without late surrender: its own chart, no surrender in it.
    std::fs::write(
        dir.join("strategy-league.toml"),
        "name = \"no surrender\"\nvariant = \"north-american\"\nrounds = 10\nseed = 1\nbankroll = 1000\n\n[rules]\nlate_surrender = false\n\n[[bot]]\nname = \"basic\"\nbuiltin = \"basic\"\n",
    )
    .unwrap();
    let league = pitboss(&dir, &["strategy", "north-american", "--league", "strategy-league.toml"]);
    assert_eq!(league.code, Some(0), "{}", league.stderr);
    let no_surrender = Rules { late_surrender: false, ..rules };
    assert_eq!(league.stdout, pitboss_strategy::render(&pitboss_strategy::analyze(&no_surrender).unwrap()));
    assert_ne!(league.stdout, default.stdout);
    let json = pitboss(&dir, &["strategy", "north-american", "--json"]);
    assert!(serde_json::from_str::<serde_json::Value>(&json.stdout).is_ok(), "{}", json.stdout);
    let wrong = pitboss(&dir, &["strategy", "danish", "--league", "strategy-league.toml"]);
    assert!(
        wrong.code == Some(1) && wrong.stderr.contains("its variant is north-american, not danish"),
        "{}",
        wrong.stderr
    );
}

#[test]
fn bench_reports_a_leagues_bot_rounds_per_cpu_second() {
    use pitboss_tests::pitboss;
    let league = temp(
        "bench-league.toml",
        "name = \"bench\"\nvariant = \"north-american\"\nrounds = 3000\nseed = 1\nbankroll = 100000\nformat = \"table\"\n\n[[bot]]\nbuiltin = \"basic\"\n\n[[bot]]\nname = \"basic 2\"\nbuiltin = \"basic\"\n",
    );
    let (basic, hilo) = (wasm_path("basic"), wasm_path("hilo"));
    let args = ["bench", "--rounds", "1000", "--repeat", "1", "--basic", basic.to_str().unwrap()];
    let ran = pitboss(
        league.parent().unwrap(),
        &[&args[..], &["--hilo", hilo.to_str().unwrap(), "--league", "bench-league.toml"]].concat(),
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let line = ran.stdout.lines().find(|l| l.contains("bot-rounds per CPU second")).unwrap_or_default();
    // Two bots at one table for 3,000 rounds: 6,000 bot-rounds.
    assert!(line.contains("league `bench`, 1 thread  (6000 bot-rounds in "), "{}", ran.stdout);
    let rate: f64 = line.split_whitespace().next().unwrap().parse().unwrap();
    assert!(rate > 0.0, "{line}");
}

/// A league measures luck-adjusted EVs unless it says `luck = false`:
/// they are in the results file (each session's sums, each bot's EV and
/// interval, the parts not corrected), in the standings table beside the
/// chips and in the CSV, and `verify` reproduces them byte for byte.
#[test]
fn a_league_reports_luck_adjusted_evs_beside_the_chips_and_verifies_them() {
    let text = r#"
name = "Luck"
variant = "swedish"
rounds = 4000
sessions = 2
seed = 9
bankroll = 1000000
format = "table"

[[bot]]
name = "basic"
builtin = "basic"

[[bot]]
name = "never-bust"
builtin = "never-bust"
"#;
    let sandbox = pitboss_league::sandbox().unwrap();
    let path = temp("luck.toml", text);
    let file = pitboss_league::file::parse(&path).unwrap();
    let (result, results) = league::run_with(&file, &path, &sandbox, Some(1), &|_| ()).unwrap();
    assert!(results.league.parsed.luck);
    for s in &result.standings {
        let (ev, ci) = (s.luck_ev_pct.unwrap(), s.luck_ci95_pct.unwrap());
        assert!((ev - s.ev_pct).abs() <= s.ev_ci95_pct + ci, "{}: {ev} vs {}", s.result.name, s.ev_pct);
        assert!(ci * 4.0 < s.ev_ci95_pct, "{}: ± {ci} vs ± {}", s.result.name, s.ev_ci95_pct);
    }
    assert!(results.sessions.iter().all(|s| s.bots.iter().all(|b| b.luck.is_some())));
    let parts = result.luck_uncorrected.clone().unwrap();
    assert!(parts.iter().any(|p| p.contains("insurance")), "{parts:?}");
    let table = pitboss_cli::tables::standings_table(&result.standings);
    assert!(table.contains("luck-adjusted EV %"), "{table}");
    assert!(pitboss_cli::tables::standings_notes(&result).contains("Not corrected"));
    let csv = output::standings_csv(&result.standings);
    assert!(csv.lines().next().unwrap().ends_with(",luck_ev_pct,luck_ev_ci95_low_pct,luck_ev_ci95_high_pct"));
    let json = temp("luck-results.json", "");
    output::write_json(&json, &results).unwrap();
    let req = pitboss_league::verify::VerifyRequest { results: json, bots: None, sessions: None, threads: Some(2) };
    let verdict = pitboss_league::verify::verify(&req, &|_| (), &|_| ()).unwrap();
    assert!(matches!(verdict, pitboss_league::verify::Verdict::Identical(_)), "{verdict:?}");

    // Off: none of it, and the table and CSV are as they always were.
    let path = temp("no-luck.toml", &text.replace("format = \"table\"", "format = \"table\"\nluck = false"));
    let file = pitboss_league::file::parse(&path).unwrap();
    let (off, results) = league::run_with(&file, &path, &sandbox, Some(1), &|_| ()).unwrap();
    assert!(!results.league.parsed.luck && off.luck_uncorrected.is_none());
    assert!(off.standings.iter().all(|s| s.luck_ev_pct.is_none() && s.result.luck_ev.is_none()));
    assert!(!pitboss_cli::tables::standings_table(&off.standings).contains("luck"));
    assert!(!output::standings_csv(&off.standings).contains("luck"));
    let bytes = serde_json::to_string(&results).unwrap();
    assert!(!bytes.contains("\"luck"), "no luck field in results without it");
    // The chips are the same either way.
    let chips = |r: &pitboss_results::LeagueResult| r.standings.iter().map(|s| s.result.balance).collect::<Vec<_>>();
    assert_eq!(chips(&result), chips(&off));
}
