//! Who is slow: each wasm bot's fuel a decision and its share of the
//! run's decision fuel, in the results file (the same bytes from a single
//! run and from merged shards, checked by `verify`), in `pitboss run`'s
//! printout and in the report; builtins read "native".

use std::path::{Path, PathBuf};

use pitboss_tests::{pitboss, wasm_path};
use serde_json::Value;

/// A league of an expensive bot (`burner.wat`, a loop every call), two
/// cheap ones and a builtin, at one table; written into `dir` beside
/// copies of the WAT bots.
fn league(dir: &Path) -> PathBuf {
    for bot in ["burner.wat", "minimal.wat"] {
        std::fs::copy(Path::new(tests_dir!()).join("bots").join(bot), dir.join(bot)).unwrap();
    }
    std::fs::copy(wasm_path("basic"), dir.join("basic.wasm")).unwrap();
    let path = dir.join("league.toml");
    let text = r#"name = "Who is slow"
variant = "north-american"
rounds = 1500
sessions = 4
seed = 55
bankroll = 100000
format = "table"

[[bot]]
name = "burner"
path = "burner.wat"

[[bot]]
name = "minimal"
path = "minimal.wat"

[[bot]]
name = "basic"
path = "basic.wasm"

[[bot]]
name = "native"
builtin = "basic"
"#;
    std::fs::write(&path, text).unwrap();
    path
}

fn ok(ran: &pitboss_tests::Ran, what: &str) {
    assert_eq!(ran.code, Some(0), "{what}: {}\n{}", ran.stdout, ran.stderr);
}

fn standing<'a>(results: &'a Value, name: &str) -> &'a Value {
    let all = results["standings"].as_array().unwrap();
    all.iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("no {name} in the standings"))
}

#[test]
fn the_expensive_bot_shows_its_fuel_and_share_in_results_merge_verify_and_report() {
    let dir = pitboss_tests::scratch("cost", "slow");
    league(&dir);
    let ran = pitboss(&dir, &["run", "league.toml", "--json", "results.json", "--threads", "2"]);
    ok(&ran, "run");
    let text = std::fs::read_to_string(dir.join("results.json")).unwrap();
    let results: Value = serde_json::from_str(&text).unwrap();

    // The results file: each wasm bot's decisions and their fuel, in the
    // standings and in every session; the builtin has none.
    let fuel = |name: &str| standing(&results, name)["cost"]["fuel"].as_u64();
    let (burner, minimal, basic) = (fuel("burner").unwrap(), fuel("minimal").unwrap(), fuel("basic").unwrap());
    assert!(standing(&results, "native").get("cost").is_none(), "a builtin has no cost");
    let total = burner + minimal + basic;
    assert!(burner * 2 > total, "the burner's share: {burner} of {total}");
    assert!(burner > minimal && burner > basic);
    let b = &standing(&results, "burner")["cost"];
    let (decisions, max) = (b["decisions"].as_u64().unwrap(), b["fuel_max"].as_u64().unwrap());
    let mean = burner / decisions;
    assert!((20_000..200_000).contains(&mean), "burner's mean {mean} fuel a decision");
    assert!(max >= mean && max < 1_000_000, "burner's largest decision {max}");
    let per_session: u64 = results["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s["bots"].as_array().unwrap().iter().find(|b| b["name"] == "burner").unwrap()["cost"]["fuel"]
                .as_u64()
                .unwrap()
        })
        .sum();
    assert_eq!(per_session, burner, "the standings' fuel is the sessions' sum");

    // The printout: a row a bot, the burner's share marked, the builtin native.
    let share = (1000 * burner + total / 2) / total;
    let printed: Vec<&str> = ran.stdout.lines().filter(|l| l.contains("fuel/decision")).collect();
    assert_eq!(printed.len(), 1, "{}", ran.stdout);
    let burner_row = ran
        .stdout
        .lines()
        .rfind(|l| l.contains(" burner "))
        .unwrap_or_else(|| panic!("no burner row: {}", ran.stdout))
        .to_string();
    assert!(burner_row.contains("(most)"), "{burner_row}");
    assert!(burner_row.contains(&format!("{}.{} %", share / 10, share % 10)), "{burner_row}: not {share} ‰");
    let native_row = ran.stdout.lines().rfind(|l| l.contains(" native ")).unwrap().to_string();
    assert!(native_row.contains("native") && native_row.contains("—"), "{native_row}");

    // Shards merged: the same bytes, costs included.
    for i in 0..2 {
        let (shard, part) = (format!("{i}/2"), format!("part-{i}.json"));
        ok(&pitboss(&dir, &["run", "league.toml", "--shard", &shard, "--json", &part, "--threads", "1"]), "shard");
    }
    ok(&pitboss(&dir, &["merge", "part-0.json", "part-1.json", "--json", "merged.json"]), "merge");
    assert_eq!(std::fs::read_to_string(dir.join("merged.json")).unwrap(), text, "merged shards differ");

    // A shard whose fuel does not add up is refused by merge.
    let part = std::fs::read_to_string(dir.join("part-0.json")).unwrap();
    let mut bad: Value = serde_json::from_str(&part).unwrap();
    let edited = edit_first_cost(&mut bad, |c| c["fuel_max"] = Value::from(c["fuel"].as_u64().unwrap() + 1));
    assert!(edited, "no cost in the shard file");
    std::fs::write(dir.join("bad-0.json"), serde_json::to_string(&bad).unwrap()).unwrap();
    let ran = pitboss(&dir, &["merge", "bad-0.json", "part-1.json", "--json", "bad.json"]);
    assert_ne!(ran.code, Some(0), "{}", ran.stdout);
    assert!(ran.stderr.contains("fuel does not add up"), "{}", ran.stderr);

    // verify re-runs the league and compares the costs too.
    let ran = pitboss(&dir, &["verify", "results.json"]);
    ok(&ran, "verify");
    let mut tampered = results.clone();
    let fuel = &mut tampered["standings"].as_array_mut().unwrap().iter_mut().find(|s| s["name"] == "burner").unwrap()["cost"]
        ["fuel"];
    *fuel = Value::from(burner - 1);
    let mut bytes = serde_json::to_string_pretty(&tampered).unwrap();
    bytes.push('\n');
    std::fs::write(dir.join("tampered.json"), bytes).unwrap();
    let ran = pitboss(&dir, &["verify", "tampered.json"]);
    assert_ne!(ran.code, Some(0), "{}", ran.stdout);
    assert!(format!("{}{}", ran.stdout, ran.stderr).contains("cost.fuel"), "{}\n{}", ran.stdout, ran.stderr);

    // The report: a cost section, the burner's row marked, the builtin native.
    ok(&pitboss(&dir, &["report", "results.json", "-o", "report.html"]), "report");
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let section = &html[html.find(r#"<section id="cost">"#).expect("a cost section")..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(section.contains("Cost of decisions") && section.contains("1,000,000"), "{section}");
    let hog = &section[section.find(r#"<tr class="hog""#).expect("a marked row")..];
    assert!(hog[..hog.find("</tr>").unwrap()].contains("burner"), "{section}");
    assert_eq!(section.matches(r#"class="hog""#).count(), 1, "{section}");
    assert!(section.contains("native"), "{section}");
}

/// Applies `f` to the first bot's cost of the first session in a shard
/// file that has one; whether one was found.
fn edit_first_cost(shard: &mut Value, f: impl Fn(&mut Value)) -> bool {
    let Some(sessions) = shard["sessions"].as_array_mut() else { return false };
    for s in sessions {
        for b in s["bots"].as_array_mut().into_iter().flatten() {
            if b.get("cost").is_some() {
                f(&mut b["cost"]);
                return true;
            }
        }
    }
    false
}

#[test]
fn results_of_builtins_alone_have_no_cost_and_print_none() {
    let dir = pitboss_tests::scratch("cost", "builtins");
    let text = "name = \"natives\"\nvariant = \"north-american\"\nrounds = 200\nseed = 1\nbankroll = 1000\n\n[[bot]]\nname = \"a\"\nbuiltin = \"basic\"\n\n[[bot]]\nname = \"b\"\nbuiltin = \"hilo\"\n";
    std::fs::write(dir.join("league.toml"), text).unwrap();
    let ran = pitboss(&dir, &["run", "league.toml", "--json", "results.json"]);
    ok(&ran, "run");
    assert!(!ran.stdout.contains("fuel/decision"), "{}", ran.stdout);
    assert!(!std::fs::read_to_string(dir.join("results.json")).unwrap().contains("\"cost\""));
}
