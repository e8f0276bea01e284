//! Honest standings: EV over each bot's own rounds, bots out of play
//! (broke, disqualified) ranked apart and never compared with bots in
//! play, a disqualification that holds for the whole league whatever the
//! threads or shards, a legend and a verdict in words, a warning where
//! seating has not yet rotated fairly, and a season rule that never
//! rewards skipping a league.

use std::path::{Path, PathBuf};

use pitboss_league::league::{self};
use pitboss_results::Status;
use pitboss_tests::pitboss;

fn dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitboss-standings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A bot that bets the minimum in even rounds and sits out odd ones.
const HALF_TIMER: &str = r#"(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (if (result i64) (i32.and (i32.load (i32.const 1036)) (i32.const 1))
        (then (i64.const 0))
        (else (i64.load (i32.const 1056)))))
      (else (i64.const 0)))))"#;

/// Five bots, three sessions: one sits out half its rounds, one goes
/// broke, one is disqualified in session 0.
fn mixed_league(d: &Path) -> PathBuf {
    std::fs::write(d.join("half.wat"), HALF_TIMER).unwrap();
    let looping = PathBuf::from(concat!(tests_dir!(), "/bots/hostile/loop-decide.wat"));
    let text = format!(
        "name = \"mixed\"\nvariant = \"north-american\"\nrounds = 3000\nsessions = 3\nseed = 11\nbankroll = 2000\n\
         fault_limit = 5\nformat = \"table\"\n\
         [[bot]]\nname = \"basic\"\nbuiltin = \"basic\"\n\
         [[bot]]\nname = \"hilo\"\nbuiltin = \"hilo\"\n\
         [[bot]]\nname = \"half\"\npath = \"half.wat\"\n\
         [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n\
         [[bot]]\nname = \"looper\"\npath = \"{}\"\n",
        looping.display()
    );
    let path = d.join("mixed.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn broke_disqualified_and_sitting_out_bots_are_ranked_honestly() {
    let d = dir();
    let path = mixed_league(&d);
    let file = pitboss_league::file::parse(&path).unwrap();
    let sandbox = pitboss_league::sandbox().unwrap();
    let (result, results) = league::run_with(&file, &path, &sandbox, Some(2), &|_| ()).unwrap();
    let by = |name: &str| result.standings.iter().find(|s| s.result.name == name).unwrap();

    // EV is over each bot's own rounds: the half-timer bet in about half.
    let half = by("half");
    assert!(half.result.rounds < 3 * 3000 * 6 / 10 && half.result.rounds > 3 * 3000 * 4 / 10, "{}", half.result.rounds);
    let own = half.result.net as f64 / half.result.wagered as f64 * 100.0;
    assert!((half.ev_pct - own).abs() < 1e-9, "{} vs {own}", half.ev_pct);

    // Out of play: ranked below every bot in play, never compared.
    assert_eq!(by("random").status, Status::Broke, "{:?}", by("random").result);
    assert_eq!(by("looper").status, Status::Disqualified);
    let statuses: Vec<Status> = result.standings.iter().map(|s| s.status).collect();
    assert_eq!(statuses, [Status::Active, Status::Active, Status::Active, Status::Broke, Status::Disqualified]);
    assert!(result.standings[2].ahead_of_next.is_none(), "no mark between the last bot in play and a broke one");
    assert!(result.standings[3..].iter().all(|s| s.ahead_of_next.is_none()));
    assert!(result.standings[..2].iter().all(|s| s.ahead_of_next.is_some()));

    // The disqualification holds for the rest of the league.
    let looper = result.standings.iter().position(|s| s.result.name == "looper").unwrap();
    let index = results.bots.iter().position(|b| b.name == "looper").unwrap();
    assert!(results.sessions[0].bots[index].disqualified);
    for s in &results.sessions[1..] {
        let b = &s.bots[index];
        assert!(b.after_dq && b.net == 0 && b.series.iter().all(|&v| v == 0), "session {}", s.session);
    }
    assert_eq!(result.standings[looper].result.net, results.sessions[0].bots[index].net);
    assert_eq!(result.standings[looper].result.balance, 3 * 2000 + results.sessions[0].bots[index].net);

    // Three sessions for five bots: the seating has not rotated fairly.
    assert_eq!(result.warnings.len(), 1);
    assert!(result.warnings[0].contains("multiple of 5 sessions"), "{}", result.warnings[0]);

    // The JSON says all of it.
    let json = serde_json::to_value(&results).unwrap();
    let statuses: Vec<&str> =
        json["standings"].as_array().unwrap().iter().map(|s| s["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["active", "active", "active", "broke", "disqualified"]);
    assert!(json["warnings"][0].as_str().unwrap().contains("multiple of 5"));

    // CSV: the status column, the EV in percent.
    let csv = pitboss_results::output::standings_csv(&result.standings);
    assert!(csv.lines().nth(4).unwrap().contains(",random,broke,"), "{csv}");
    assert!(csv.lines().nth(5).unwrap().contains(",looper,disqualified,"), "{csv}");
}

#[test]
fn the_command_prints_the_legend_the_verdict_and_the_warning() {
    let d = dir().join("cli");
    std::fs::create_dir_all(&d).unwrap();
    let path = mixed_league(&d);
    let page = d.join("report.html");
    let ran = pitboss(&d, &["run", path.to_str().unwrap(), "--json", "results.json", "--csv", "standings.csv"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let out = &ran.stdout;
    assert!(
        out.contains("EV % of stake (± 95 %)") && out.contains("net chips") && out.contains("rounds played"),
        "{out}"
    );
    // Three sessions with luck: the marks read the luck-adjusted results.
    assert!(out.contains(pitboss_results::standings::LUCK_VS_NEXT), "{out}");
    assert!(
        out.contains(" leads; by luck-adjusted results its lead over ") && out.contains("significant at 95 %."),
        "{out}"
    );
    assert!(out.contains("warning: seating rotates"), "{out}");
    assert!(out.contains("4 broke") && out.contains("5 DQ"), "{out}");

    let ran = pitboss(&d, &["report", "results.json", "-o", page.to_str().unwrap()]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("significant at 95 %.</p>") && html.contains(r#"<p class="warning">Warning: seating"#));
    assert!(html.contains("Broke in every session they played") && html.contains("Disqualified at the fault limit"));
    assert_eq!(html.matches(r#"<g class="bar out""#).count(), 2, "the out-of-play bars are marked");
}

#[test]
fn a_disqualification_is_the_same_for_any_threads_and_shards() {
    let d = dir().join("shards");
    std::fs::create_dir_all(&d).unwrap();
    let path = mixed_league(&d);
    let run = |args: &[&str]| {
        let ran = pitboss(&d, args);
        assert_eq!(ran.code, Some(0), "{args:?}: {}", ran.stderr);
    };
    let p = path.to_str().unwrap();
    run(&["run", p, "--threads", "1", "--json", "one.json"]);
    run(&["run", p, "--threads", "2", "--json", "two.json"]);
    run(&["run", p, "--shard", "0/2", "--json", "part0.json"]);
    run(&["run", p, "--shard", "1/2", "--json", "part1.json"]);
    run(&["merge", "part0.json", "part1.json", "--json", "merged.json"]);
    let one = std::fs::read(d.join("one.json")).unwrap();
    assert_eq!(one, std::fs::read(d.join("two.json")).unwrap());
    assert_eq!(one, std::fs::read(d.join("merged.json")).unwrap());
    assert!(String::from_utf8_lossy(&one).contains("\"after_dq\": true"));
}

#[test]
fn a_season_never_rewards_skipping_a_league() {
    let d = dir().join("season");
    std::fs::create_dir_all(&d).unwrap();
    let league = |name: &str, bots: &[(&str, &str)]| {
        let mut text = format!(
            "name = \"{name}\"\nvariant = \"north-american\"\nrounds = 4000\nseed = 5\nbankroll = 10000\nformat = \"solo\"\n"
        );
        for (bot, builtin) in bots {
            text.push_str(&format!("[[bot]]\nname = \"{bot}\"\nbuiltin = \"{builtin}\"\n"));
        }
        std::fs::write(d.join(format!("{name}.toml")), text).unwrap();
    };
    // "once" wins the one league it enters by a mile (basic against two
    // bots that lose fast); "steady" plays all four and wins three.
    league("l1", &[("once", "basic"), ("steady", "never-bust"), ("other", "mimic-dealer")]);
    for name in ["l2", "l3", "l4"] {
        league(name, &[("steady", "basic"), ("other", "never-bust")]);
    }
    std::fs::write(
        d.join("season.toml"),
        "name = \"s\"\nleagues = [\"l1.toml\", \"l2.toml\", \"l3.toml\", \"l4.toml\"]\n",
    )
    .unwrap();
    let season = pitboss_league::season::run(&d.join("season.toml"), Some(1)).unwrap();
    let names: Vec<&str> = season.standings.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names[0], "steady", "{:?}", season.standings);
    let once = season.standings.iter().find(|r| r.name == "once").unwrap();
    let steady = &season.standings[0];
    assert_eq!(once.points, 3, "won a league of three");
    assert!(steady.points > 3 * 2, "{}", steady.points);
    assert_eq!(once.league_ranks, [Some(1), None, None, None]);
    assert!(pitboss_league::season::table(&season).contains("Points: in each league"));
}

#[test]
fn merge_replays_a_sample_and_refuses_a_shard_shifted_consistently() {
    let d = dir().join("merge-verify");
    std::fs::create_dir_all(&d).unwrap();
    let league = "name = \"m\"\nvariant = \"north-american\"\nrounds = 500\nsessions = 4\nseed = 3\nbankroll = 10000\n\
                  format = \"solo\"\n[[bot]]\nname = \"basic\"\nbuiltin = \"basic\"\n[[bot]]\nname = \"hilo\"\nbuiltin = \"hilo\"\n";
    std::fs::write(d.join("m.toml"), league).unwrap();
    let run = |args: &[&str]| pitboss(&d, args);
    for i in 0..2 {
        let ran = run(&["run", "m.toml", "--shard", &format!("{i}/2"), "--json", &format!("part{i}.json")]);
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    }
    let ran = run(&["merge", "part0.json", "part1.json", "--json", "merged.json", "--verify-sessions", "1"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(ran.stdout.contains("verified: session(s)") && ran.stdout.contains("(1 of 4;"), "{}", ran.stdout);
    // One bot's net shifted with its integer sum and last balance sample:
    // every check of the shard still adds up, so only a replay finds it.
    let text = std::fs::read_to_string(d.join("part0.json")).unwrap();
    let mut shard: serde_json::Value = serde_json::from_str(&text).unwrap();
    let bot = &mut shard["sessions"][0]["bots"][0];
    let net = bot["net"].as_i64().unwrap() + 50;
    bot["net"] = net.into();
    bot["stats"][2] = net.to_string().into();
    *bot["series"].as_array_mut().unwrap().last_mut().unwrap() = net.into();
    std::fs::write(d.join("forged.json"), serde_json::to_string(&shard).unwrap()).unwrap();
    let ran = run(&["merge", "forged.json", "part1.json", "--json", "forged-merged.json"]);
    assert_eq!(ran.code, Some(0), "without a replay the shift goes through: {}", ran.stderr);
    let ran = run(&["merge", "forged.json", "part1.json", "--json", "forged-merged.json", "--verify-sessions", "4"]);
    assert_eq!(ran.code, Some(1), "{}", ran.stdout);
    assert!(ran.stderr.contains("a merged session differs from its replay: sessions[0].bots[0].net"), "{}", ran.stderr);
}

#[test]
fn a_league_of_more_bots_than_are_paired_keeps_each_tables_pairs_and_merges_alike() {
    // Over `PAIRED_BOTS` bots a session sums only the pairs that share a
    // table; shards carry those sums, merge checks them, and the result is
    // the single run's byte for byte.
    let d = dir().join("many");
    std::fs::create_dir_all(&d).unwrap();
    let n = pitboss_results::pairs::PAIRED_BOTS + 6;
    let mut text =
        "name = \"many\"\nvariant = \"north-american\"\nrounds = 300\nsessions = 2\nseed = 8\nbankroll = 10000\nformat = \"table\"\n"
            .to_string();
    for i in 0..n {
        let builtin = ["basic", "hilo", "never-bust", "mimic-dealer"][i % 4];
        text.push_str(&format!("[[bot]]\nname = \"b{i:02}\"\nbuiltin = \"{builtin}\"\n"));
    }
    std::fs::write(d.join("many.toml"), text).unwrap();
    let run = |args: &[&str]| {
        let ran = pitboss(&d, args);
        assert_eq!(ran.code, Some(0), "{args:?}: {}", ran.stderr);
    };
    run(&["run", "many.toml", "--threads", "2", "--json", "one.json"]);
    run(&["run", "many.toml", "--shard", "0/2", "--json", "part0.json"]);
    run(&["run", "many.toml", "--shard", "1/2", "--json", "part1.json"]);
    let shard: serde_json::Value = serde_json::from_slice(&std::fs::read(d.join("part0.json")).unwrap()).unwrap();
    let kept = shard["sessions"][0]["pairs"].as_array().unwrap().len();
    // 70 bots at tables of at most 7: ten tables of seven.
    assert_eq!(kept, 10 * 7 * 7, "each table's block, not {n} × {n}");
    run(&["merge", "part0.json", "part1.json", "--json", "merged.json", "--verify-sessions", "1"]);
    let one = std::fs::read(d.join("one.json")).unwrap();
    assert_eq!(one, std::fs::read(d.join("merged.json")).unwrap());
    let results: serde_json::Value = serde_json::from_slice(&one).unwrap();
    let tested = results["standings"].as_array().unwrap().iter().filter(|s| !s["ahead_of_next"].is_null()).count();
    assert!(tested > n / 2, "the standings still test each bot against the next: {tested}");
    // A shard whose paired sums were cut is refused, naming the session.
    let mut cut = shard.clone();
    cut["sessions"][0]["pairs"].as_array_mut().unwrap().pop();
    std::fs::write(d.join("cut.json"), serde_json::to_string(&cut).unwrap()).unwrap();
    let ran = pitboss(&d, &["merge", "cut.json", "part1.json", "--json", "cut-merged.json"]);
    assert_eq!(ran.code, Some(1), "{}", ran.stdout);
    assert!(ran.stderr.contains("does not add up") && ran.stderr.contains("paired sums"), "{}", ran.stderr);
}
