//! `pitboss coach` end to end on a real wasm bot: the report, its JSON,
//! byte-identical reruns (on any thread count), the replay command it names, and one-line
//! errors for every out-of-range number; under a league file, its limits;
//! the coach section of `pitboss report --coach`, in headless Chromium.

use std::path::{Path, PathBuf};

use pitboss_results::coach::figures::{self, FIGURES};
use pitboss_tests::artifacts;
use pitboss_tests::webdriver::Browser;
use pitboss_tests::{pitboss, wasm_path};

fn dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pitboss-coach-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(wasm_path("never_bust"), dir.join("never-bust.wasm")).unwrap();
    dir
}

#[test]
fn coach_values_a_wasm_bot_and_names_where_it_gives_ev_away() {
    let dir = dir();
    let args = ["coach", "never-bust.wasm", "--variant", "danish", "--rounds", "3000", "--seed", "5"];
    let ran = pitboss(&dir, &[&args[..], &["--json", "a.json"]].concat());
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("a.json")).unwrap()).unwrap();
    let bot = &json["bots"][0];
    assert!(bot["luck_adjusted"]["ev"].is_number() && bot["luck_adjusted"]["ci95"].as_f64() < bot["ci95"].as_f64());
    for key in ["rounds", "ev", "ci95", "ev_given_away", "ev_optimal"] {
        assert!(bot[key].is_number(), "{key} in {bot}");
    }
    assert_eq!(bot["rounds"], 3000);
    let (ev, given, optimal, ci) =
        (bot["ev"].as_f64(), bot["ev_given_away"].as_f64(), bot["ev_optimal"].as_f64(), bot["ci95"].as_f64());
    let (ev, given, optimal, ci) = (ev.unwrap(), given.unwrap(), optimal.unwrap(), ci.unwrap());
    assert!(given > 2.0 && (ev + given - optimal).abs() <= ci, "{ev} + {given} vs {optimal} ± {ci}");
    // Standing on stiff hands is where never-bust loses: the first
    // situation says so, with a command that shows the round.
    let top = &bot["situations"][0];
    assert_eq!(
        (top["decision"].as_str(), top["choice"].as_str(), top["best"].as_str()),
        (Some("play"), Some("stand"), Some("hit"))
    );
    let round = top["example_round"].as_u64().unwrap();
    let replay = top["replay"].as_str().unwrap();
    assert!(replay.ends_with(&format!("--seed 5 --only-round {round}")), "{replay}");
    assert!(ran.stdout.contains("EV given away") && ran.stdout.contains(replay), "{}", ran.stdout);
    // Each figure says what it means in plain words, and a row resting on
    // few hands says so.
    for words in ["what it won", "what better choices would have won", "the luck of the cards taken out"] {
        assert!(ran.stdout.contains(words), "{words}: {}", ran.stdout);
    }
    // Every figure of the coach's one list is in the JSON and has its line
    // of text, with its value and its plain words.
    let c: pitboss_results::coach::Coached = serde_json::from_value(bot.clone()).unwrap();
    for f in FIGURES {
        for key in f.keys() {
            assert!(figures::lookup(bot, key).is_some_and(serde_json::Value::is_number), "{key} in {bot}");
        }
        let line =
            ran.stdout.lines().find(|l| l.trim_start().starts_with(f.label)).unwrap_or_else(|| panic!("{}", f.label));
        assert!(line.contains(&f.show(&c)) && line.contains(f.what), "{}: {line}", f.label);
    }
    let few: Vec<u64> =
        bot["situations"].as_array().unwrap().iter().filter_map(|s| s["count"].as_u64().filter(|&n| n < 30)).collect();
    assert!(!few.is_empty(), "3,000 rounds leave some of the top rows on few hands");
    assert_eq!(ran.stdout.matches("too few to be sure of").count(), few.len(), "{}", ran.stdout);
    assert!(ran.stdout.contains(&format!("only {} hand", few[0])), "{}", ran.stdout);
    // The replay command plays the same match and prints that round alone.
    let shown = pitboss(&dir, &replay.split(' ').skip(1).collect::<Vec<_>>());
    assert_eq!(shown.code, Some(0), "{}", shown.stderr);
    assert_only_round(&shown.stdout, round);
    // Same inputs, same bytes, on one thread as on every core; no
    // progress bar where standard error is not a terminal.
    let again = pitboss(&dir, &[&args[..], &["--json", "b.json", "--threads", "1"]].concat());
    assert_eq!(again.stdout, ran.stdout);
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
    assert_eq!(std::fs::read(dir.join("a.json")).unwrap(), std::fs::read(dir.join("b.json")).unwrap());
}

#[test]
fn coach_refuses_out_of_range_numbers_and_the_banker_game_in_one_line() {
    let dir = dir();
    for (args, flag) in [
        (&["--rounds", "0"][..], "--rounds"),
        (&["--rounds", "10000001"][..], "--rounds"),
        (&["--bankroll", "0"][..], "--bankroll"),
        (&["--top", "1001"][..], "--top"),
        (&["--threads", "0"][..], "--threads"),
        (&["--seed", "18446744073709551616"][..], "--seed"),
        (&["--variant", "nowhere"][..], "--variant"),
    ] {
        let ran = pitboss(&dir, &[&["coach", "never-bust.wasm"][..], args].concat());
        assert_eq!(ran.code, Some(2).filter(|_| flag != "--variant").or(Some(1)), "{args:?}: {}", ran.stderr);
        let first = ran.stderr.lines().next().unwrap_or_default();
        assert!(first.contains(flag), "{args:?}: {}", ran.stderr);
    }
    let banker = pitboss(&dir, &["coach", "never-bust.wasm", "--variant", "norwegian-home", "--rounds", "10"]);
    assert_eq!(banker.code, Some(1));
    assert_eq!(banker.stderr.lines().count(), 1, "{}", banker.stderr);
    assert!(banker.stderr.contains("dealer games only"), "{}", banker.stderr);
}

/// `--league` coaches as a server does (`pitboss_coach::coach_league`):
/// the league's `[limits]` hold (a 1 MiB memory cap refuses a Rust bot in
/// one line), and without them its bankroll and seed are used.
#[test]
fn coach_under_a_league_applies_its_limits_bankroll_and_seed() {
    let dir = dir();
    let league = "name = \"class\"\nvariant = \"danish\"\nrounds = 100\nseed = 5\nbankroll = 100000\n\n\
                  [[bot]]\npath = \"never-bust.wasm\"\n";
    std::fs::write(dir.join("plain.toml"), league).unwrap();
    std::fs::write(dir.join("capped.toml"), league.replace("[[bot]]", "[limits]\nmemory_mib = 1\n\n[[bot]]")).unwrap();
    let capped = pitboss(&dir, &["coach", "never-bust.wasm", "--league", "capped.toml", "--rounds", "50"]);
    assert_eq!(capped.code, Some(1), "{}", capped.stdout);
    assert_eq!(capped.stderr.lines().count(), 1, "{}", capped.stderr);
    assert!(capped.stderr.contains("the cap is 1024 KiB"), "{}", capped.stderr);
    let plain = pitboss(&dir, &["coach", "never-bust.wasm", "--league", "plain.toml", "--rounds", "300"]);
    assert_eq!(plain.code, Some(0), "{}", plain.stderr);
    assert!(plain.stdout.contains("--seed 5 --bankroll 100000 --only-round"), "{}", plain.stdout);
    assert!(!plain.stdout.contains("--league"), "no limits to carry: {}", plain.stdout);
    // A league that sets limits (as a Python or Go bot's league.toml
    // raises them): each "see it" command carries it, names the bot as
    // given, and prints just its round.
    std::fs::create_dir_all(dir.join("bots")).unwrap();
    std::fs::copy(dir.join("never-bust.wasm"), dir.join("bots/nb.wasm")).unwrap();
    std::fs::write(dir.join("limits.toml"), league.replace("[[bot]]", "[limits]\nmemory_mib = 32\n\n[[bot]]")).unwrap();
    let limited = pitboss(&dir, &["coach", "bots/nb.wasm", "--league", "limits.toml", "--rounds", "300"]);
    assert_eq!(limited.code, Some(0), "{}", limited.stderr);
    let see = limited.stdout.lines().find_map(|l| l.trim().strip_prefix("see it: ")).expect("a see-it command");
    assert!(see.contains("--bot bots/nb.wasm --seed 5 --bankroll 100000 --league limits.toml --only-round "), "{see}");
    let round: u64 = see.rsplit(' ').next().unwrap().parse().unwrap();
    let shown = pitboss(&dir, &see.split(' ').skip(1).collect::<Vec<_>>());
    assert_eq!(shown.code, Some(0), "{see}: {}", shown.stderr);
    assert_only_round(&shown.stdout, round);
}

/// `stdout` is round `round`'s transcript and nothing else.
fn assert_only_round(stdout: &str, round: u64) {
    let heads: Vec<&str> = stdout.lines().filter(|l| l.starts_with("-- round ")).collect();
    assert_eq!(heads, [format!("-- round {round}")], "{stdout}");
    let body = stdout.lines().skip_while(|l| l.starts_with("shuffle")).skip(1);
    assert!(
        body.clone().count() >= 4
            && body.clone().all(|l| ["box ", "dealer", "shuffle"].iter().any(|p| l.starts_with(p))),
        "{stdout}"
    );
    assert!(!stdout.contains("EV"), "no results table: {stdout}");
}

/// A league of basic and never-bust, its results, and each bot coached
/// under it: `pitboss report --coach A --coach B` adds the coach section.
fn coached_report(dir: &Path) -> PathBuf {
    std::fs::copy(wasm_path("basic"), dir.join("basic.wasm")).unwrap();
    let league = "name = \"coached\"\nvariant = \"north-american\"\nrounds = 2000\nseed = 4\nbankroll = 100000\n\n\
                  [[bot]]\npath = \"basic.wasm\"\n\n[[bot]]\npath = \"never-bust.wasm\"\n";
    std::fs::write(dir.join("coached.toml"), league).unwrap();
    let ran = pitboss(dir, &["run", "coached.toml", "--json", "results.json"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    for bot in ["basic", "never-bust"] {
        let json = format!("{bot}.json");
        let args = ["coach", &format!("{bot}.wasm"), "--league", "coached.toml", "--rounds", "3000", "--json", &json];
        let ran = pitboss(dir, &args);
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    }
    let args = ["report", "results.json", "--coach", "basic.json", "--coach", "never-bust.json", "-o", "coached.html"];
    let ran = pitboss(dir, &args);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    dir.join("coached.html")
}

#[test]
fn coach_report_shows_each_bots_figures_and_top_situations_and_refuses_a_bad_coach_file() {
    let dir = dir();
    let html = std::fs::read_to_string(coached_report(&dir)).unwrap();
    let section = &html[html.find(r#"<section class="coach" id="coach">"#).expect("a coach section")..];
    let section = &section[..section.find("</section>").unwrap()];
    assert_eq!(section.matches("<h3>").count(), 2, "a block per bot");
    for needle in ["luck-adjusted EV", "optimal EV", "EV given away", "play: hard 12 v T", "pitboss play --variant"] {
        assert!(section.contains(needle), "{needle}");
    }
    // Every figure of the coach's one list has its row, in each bot's block.
    for f in FIGURES {
        let row = format!(r#"<th class="l" scope="row">{}</th>"#, f.label);
        assert_eq!(section.matches(&row).count(), 2, "{}", f.label);
        assert_eq!(section.matches(f.what).count(), 2, "{}", f.what);
    }
    // A coach file is hostile input: refused in one line naming the field.
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("basic.json")).unwrap()).unwrap();
    json["bots"][0]["luck_adjusted"]["ci95"] = serde_json::json!(-1.0);
    std::fs::write(dir.join("bad.json"), json.to_string()).unwrap();
    let ran = pitboss(&dir, &["report", "results.json", "--coach", "bad.json", "-o", "bad.html"]);
    assert_eq!(ran.code, Some(1));
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
    assert!(ran.stderr.contains("bad.json: bots[0].luck_adjusted.ci95 = -1"), "{}", ran.stderr);
    assert!(!dir.join("bad.html").exists());
}

#[test]
#[ignore = "needs chromium"]
fn coach_report_section_fits_1280_and_390_px_in_chromium() {
    pitboss_tests::webdriver::require();
    let dir = dir();
    let page = coached_report(&dir);
    let browser = Browser::start(1280, 1000).unwrap();
    browser.open(&page).unwrap();
    assert_eq!(browser.count("#coach h3").unwrap(), 2);
    assert!(browser.count("#coach table.situations tr.sit").unwrap() >= 2);
    for width in [1280, 390] {
        browser.resize(width, 1000).unwrap();
        // What sticks out past the window's right edge, if anything.
        let wide = browser
            .script(
                "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > \
                 window.innerWidth + 1 && !e.closest('.scroll')).slice(0, 5).map(e => e.tagName + '.' + e.className + \
                 '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right))",
            )
            .unwrap();
        let fits = browser.script("return document.documentElement.scrollWidth <= window.innerWidth + 1").unwrap();
        assert_eq!(fits, serde_json::json!(true), "the report overflows sideways at {width} px: {wide}");
        let inner = browser
            .script("const s = document.getElementById('coach'); return s.scrollWidth <= s.clientWidth + 1")
            .unwrap();
        assert_eq!(inner, serde_json::json!(true), "the coach section overflows sideways at {width} px");
        let png = browser.element_screenshot("#coach").unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        let path = artifacts().join(format!("coach-report-{width}.png"));
        std::fs::write(&path, png).unwrap();
        eprintln!("screenshot: {}", path.display());
    }
}
