//! `pitboss report`: the HTML page's content, its hand viewer's data
//! against `pitboss replay --log`, and the page in headless Chromium.

use std::path::{Path, PathBuf};

use pitboss_league::league;
use pitboss_league::replay::{ReplayRequest, replay};
use pitboss_report::{ReportRequest, write_report};
use pitboss_results::output::write_json;
use pitboss_tests::artifacts;
use pitboss_tests::wasm_path;
use pitboss_tests::webdriver::Browser;
use serde_json::Value;

fn dir(name: &str) -> PathBuf {
    pitboss_tests::scratch("report", name)
}

/// Runs `league` and writes its results.json next to it.
fn run(league_path: &Path) -> PathBuf {
    let file = pitboss_league::file::parse(league_path).unwrap();
    let sandbox = pitboss_league::sandbox().unwrap();
    let (_, results) = league::run_with(&file, league_path, &sandbox, None, &|_| ()).unwrap();
    let out = league_path.with_file_name("results.json");
    write_json(&out, &results).unwrap();
    out
}

/// The JSON the page hands its viewer.
fn hand_data(html: &str) -> Value {
    let start = html.find(r#"<script type="application/json" id="hand-data">"#).expect("hand data") + 47;
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end].replace("<\\/", "</")).unwrap()
}

fn small_league(d: &Path) -> PathBuf {
    let path = d.join("league.toml");
    let text = format!(
        r#"name = "Report <test>"
variant = "north-american"
rounds = 3000
sessions = 2
seed = 11
bankroll = 100000
format = "table"
fault_limit = 50

[[bot]]
name = "basic"
path = "{}"

[[bot]]
name = "hilo"
path = "{}"

[[bot]]
name = "sometimes <b>x</b>"
path = "{}"
"#,
        wasm_path("basic").display(),
        wasm_path("hilo").display(),
        Path::new(tests_dir!()).join("bots/hostile/sometimes.wat").display()
    );
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_report_is_self_contained_and_shows_every_part() {
    let d = dir("content");
    let results = run(&small_league(&d));
    let out = d.join("report.html");
    let req = ReportRequest { results: results.clone(), session: 1, opening_rounds: 3 };
    let warning = write_report(&req, &out).unwrap();
    assert_eq!(warning, None);
    let html = std::fs::read_to_string(&out).unwrap();

    // Nothing fetched from anywhere.
    for needle in ["http://", "https://", "<link", " src="] {
        assert!(!html.contains(needle), "the page refers to `{needle}`");
    }
    // Names are escaped wherever they appear.
    assert!(!html.contains("<b>x</b>"));
    assert!(html.contains("sometimes &lt;b&gt;x&lt;/b&gt;"));
    // Standings, both charts, per-bot play, faults.
    assert!(html.matches("<tr").count() >= 3 * 3);
    assert!(html.contains(r#"aria-label="EV, % of the initial stakes""#));
    assert_eq!(html.matches(r#"<g class="bar""#).count(), 3);
    // One balance chart for the sum and one per session, a line per bot.
    assert_eq!(html.matches(r#"<figure class="series""#).count(), 3);
    assert_eq!(html.matches(r#"<polyline class="line""#).count(), 9);
    let faults = &html[html.find(r#"<section id="faults">"#).unwrap()..];
    assert!(faults.contains("<details class=\"fault\">") && faults.contains("sometimes &lt;b&gt;"), "the faulting bot");
    assert!(
        faults.contains("— replay: <code>pitboss replay results.json --session 0 --table 0 --round "),
        "each fault names its replay"
    );
    assert!(faults.contains("trap"), "faults by kind");
    assert!(html.contains("Decisions by kind"));
    // Where each bot won and lost: a row per bot, a column per up card;
    // every settled hand is counted under the up card it faced.
    let heat = &html[html.find(r#"<table class="heat">"#).expect("the heat map")..];
    let heat = &heat[..heat.find("</table>").unwrap()];
    assert_eq!(heat.matches("<th>").count(), 10);
    assert_eq!(heat.matches("<tr>").count(), 1 + 3);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    for s in v["standings"].as_array().unwrap() {
        let hands: u64 = s["tally"]["hands"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
        let by_up: u64 =
            s["tally"]["by-dealer-up"].as_array().unwrap().iter().map(|u| u["hands"].as_u64().unwrap()).sum();
        assert_eq!(hands, by_up, "{}", s["name"]);
        assert!(hands > 0);
    }
    the_viewer_shows_what_replay_logs(&d, &html, results);
}

/// The viewer's rounds in `html`, the report of session 1 of the results
/// at `results`, are exactly what `pitboss replay --log` writes.
fn the_viewer_shows_what_replay_logs(d: &std::path::Path, html: &str, results: std::path::PathBuf) {
    let data = hand_data(html);
    assert_eq!(data["session"], 1);
    let rounds = data["rounds"].as_array().unwrap();
    assert!(rounds.len() >= 4, "deciding hands and opening rounds: {}", rounds.len());
    let first = &rounds[0];
    let (table, round) = (first["table"].as_u64().unwrap() as usize, first["round"].as_u64().unwrap());
    let log = d.join("session.jsonl");
    let req = ReplayRequest {
        results,
        bots: None,
        session: 1,
        round: 1,
        table,
        only_box: None,
        log: Some(log.clone()),
        raised: Vec::new(),
    };
    replay(&req, std::io::sink()).unwrap();
    let logged: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["round"] == round)
        .map(|mut v| {
            v.as_object_mut().unwrap().remove("round");
            v
        })
        .collect();
    let shown: Vec<Value> = first["events"]
        .as_array()
        .unwrap()
        .iter()
        .cloned()
        .map(|mut v| {
            v.as_object_mut().unwrap().remove("round");
            v
        })
        .collect();
    assert_eq!(shown, logged, "round {round} of table {table}");
    // The first round is the session's largest swing.
    assert!(first["label"].as_str().unwrap().contains("swing"));
}

#[test]
fn a_changed_bot_file_does_not_touch_the_report_but_replay_refuses_it() {
    let d = dir("tampered");
    let league_path = small_league(&d);
    // Play a copy of hilo under a name of its own (a file of the same name
    // and hash anywhere replay looks would do as well), then change it.
    let copy = d.join("my-hilo.wasm");
    std::fs::copy(wasm_path("hilo"), &copy).unwrap();
    let text = std::fs::read_to_string(&league_path)
        .unwrap()
        .replace(&wasm_path("hilo").display().to_string(), "my-hilo.wasm");
    std::fs::write(&league_path, text).unwrap();
    let results = run(&league_path);
    std::fs::copy(wasm_path("basic"), &copy).unwrap();
    // The report reads the results file alone: its hands were stored.
    let out = d.join("report.html");
    let req = ReportRequest { results: results.clone(), session: 0, opening_rounds: 2 };
    assert_eq!(write_report(&req, &out).unwrap(), None);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(hand_data(&html)["rounds"].as_array().is_some_and(|r| !r.is_empty()));
    // Replaying needs the bot that played.
    let req = ReplayRequest {
        results,
        bots: None,
        session: 0,
        round: 1,
        table: 0,
        only_box: None,
        log: None,
        raised: Vec::new(),
    };
    let e = format!("{:#}", replay(&req, std::io::sink()).unwrap_err());
    assert!(e.contains("my-hilo.wasm is not the file that played"), "{e}");
}

#[test]
fn a_file_that_is_not_a_results_file_is_refused_in_one_line() {
    let d = dir("bad");
    let path = d.join("results.json");
    std::fs::write(&path, r#"{"name": "x"}"#).unwrap();
    let req = ReportRequest { results: path.clone(), session: 0, opening_rounds: 1 };
    let e = format!("{:#}", write_report(&req, &d.join("r.html")).unwrap_err());
    assert!(e.contains("results.json:1:") && e.contains("not a Pitboss results file"), "{e}");
    assert!(!e.contains('\n'), "{e}");
    assert!(!d.join("r.html").exists());
}

/// A small league of two builtin bots, with `luck = false` or without.
fn luck_league(d: &Path, luck: bool) -> PathBuf {
    let path = d.join("league.toml");
    let text = format!(
        "name = \"Luck\"\nvariant = \"north-american\"\nrounds = 400\nsessions = 2\nseed = 3\nbankroll = 100000\n{}\
         [[bot]]\nname = \"basic\"\nbuiltin = \"basic\"\n\n[[bot]]\nname = \"random\"\nbuiltin = \"random\"\n",
        if luck { "" } else { "luck = false\n" }
    );
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_standings_show_the_luck_adjusted_ev_only_when_the_league_measures_it() {
    for luck in [true, false] {
        let d = dir(if luck { "luck" } else { "no-luck" });
        let results = run(&luck_league(&d, luck));
        let out = d.join("report.html");
        write_report(&ReportRequest { results: results.clone(), session: 0, opening_rounds: 1 }, &out).unwrap();
        let html = std::fs::read_to_string(&out).unwrap();
        let standings = &html[html.find(r#"<section id="standings">"#).unwrap()..];
        let standings = &standings[..standings.find("</section>").unwrap()];
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
        if !luck {
            assert!(v["standings"][0].get("luck_ev_pct").is_none(), "luck = false measures none");
            assert!(!standings.contains("uck-adjusted"), "no luck column nor note without figures: {standings}");
            continue;
        }
        // The header explains itself; each bot's figure ± its interval
        // beside its EV, as results.json has it; the note names what
        // stays uncorrected.
        assert!(
            standings.contains(r#"<th class="luck" title="Luck-adjusted EV: the chips less the luck"#),
            "{standings}"
        );
        for s in v["standings"].as_array().unwrap() {
            let (ev, ci) = (s["luck_ev_pct"].as_f64().unwrap(), s["luck_ci95_pct"].as_f64().unwrap());
            let ev_cell =
                format!("{:+.3} % ± {:.3}</td>", s["ev_pct"].as_f64().unwrap(), s["ev_ci95_pct"].as_f64().unwrap());
            let cell = format!("{ev_cell}<td class=\"n luck\">{ev:+.3}\u{a0}% ±\u{a0}{ci:.3}</td>");
            assert!(standings.contains(&cell), "{cell} in {standings}");
        }
        let uncorrected: Vec<&str> =
            v["luck_uncorrected"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
        assert!(!uncorrected.is_empty());
        let note = format!("Not corrected (their luck stays in): {}.", uncorrected.join(", "));
        assert!(standings.contains(&note), "{note} in {standings}");
    }
}

/// The class competition example (leagues/class.toml: 30 submitted bot
/// files, 6 sessions), with fewer rounds.
fn class_league(d: &Path) -> PathBuf {
    pitboss_tests::class_submissions(d);
    let class = Path::new(tests_dir!()).join("../leagues/class.toml");
    let text = std::fs::read_to_string(class).unwrap();
    assert!(text.contains("rounds = 100000") && text.contains(r#"folder = "../target/class/submissions""#));
    let text = text.replace("rounds = 100000", "rounds = 20000").replace("../target/class/submissions", "submissions");
    let path = d.join("class.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
#[ignore = "needs chromium"]
fn the_class_report_opens_in_chromium_and_its_hand_viewer_steps() {
    pitboss_tests::webdriver::require();
    let d = dir("class");
    let results = run(&class_league(&d));
    let page = d.join("report.html");
    assert_eq!(write_report(&ReportRequest { results, session: 0, opening_rounds: 5 }, &page).unwrap(), None);
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 1024 * 1024, "a 30-bot report should stay small: {size} bytes");

    let browser = Browser::start(1280, 1000).unwrap();
    browser.open(&page).unwrap();
    // Standings: a row per bot.
    assert_eq!(browser.count("#standings tbody tr:not(.group)").unwrap(), 30);
    assert!(browser.text("#standings").unwrap().contains("student"));
    // Charts drawn: EV bars and a line per bot in the visible balance chart.
    assert_eq!(browser.count("#ev svg g.bar").unwrap(), 30);
    assert_eq!(browser.count("figure.series:not([hidden]) polyline").unwrap(), 30);
    let visible = |b: &Browser| {
        b.script("return [...document.querySelectorAll('figure.series')].filter(f => f.offsetHeight > 0).map(f => f.dataset.session)")
            .unwrap()
    };
    assert_eq!(visible(&browser), serde_json::json!(["all"]));
    browser
        .script(
            "const s = document.getElementById('series-pick'); s.value = '3'; s.dispatchEvent(new Event('change'));",
        )
        .unwrap();
    assert_eq!(visible(&browser), serde_json::json!(["3"]));
    browser
        .script(
            "const s = document.getElementById('series-pick'); s.value = 'all'; s.dispatchEvent(new Event('change'));",
        )
        .unwrap();

    // The hand viewer steps forward card by card.
    assert!(browser.count("#round-pick option").unwrap() >= 5);
    assert_eq!(browser.count("#felt .card").unwrap(), 0);
    assert!(browser.text("#counter").unwrap().starts_with("event 0 of"));
    let mut cards = 0;
    for step in 1..=40 {
        browser.click("#next").unwrap();
        assert!(browser.text("#counter").unwrap().starts_with(&format!("event {step} of")));
        let now = browser.count("#felt .card").unwrap();
        assert!(now >= cards, "cards never disappear when stepping forward");
        cards = now;
        if cards >= 3 {
            break;
        }
    }
    assert!(cards >= 3, "three cards on the felt after stepping");
    browser.click("#end").unwrap();
    assert!(browser.text("#caption").unwrap().contains("ends"));
    // Every hand and the dealer's cards with their total, in the transcripts' words.
    let totals =
        browser.script("return Array.from(document.querySelectorAll('#felt .total')).map(e => e.textContent)").unwrap();
    let totals: Vec<&str> = totals.as_array().unwrap().iter().filter_map(|t| t.as_str()).collect();
    assert!(totals.len() >= 2, "{totals:?}");
    assert!(
        totals.iter().all(|t| t.starts_with("hard ")
            || t.starts_with("soft ")
            || t.starts_with("bust ")
            || *t == "blackjack"
            || t.parse::<u32>().is_ok()),
        "{totals:?}"
    );
    browser.click("#prev").unwrap();
    assert!(!browser.text("#caption").unwrap().contains("ends"));
    browser.click("#end").unwrap();

    // For people to look at: the whole page, its top, the hand viewer.
    let save = |name: &str, png: Vec<u8>| {
        assert!(png.starts_with(b"\x89PNG"), "{name} is a PNG");
        let path = artifacts().join(name);
        std::fs::write(&path, png).unwrap();
        eprintln!("screenshot: {}", path.display());
    };
    browser.script("window.scrollTo(0, 0)").unwrap();
    browser.resize(1280, 1900).unwrap();
    save("class-report-top.png", browser.screenshot().unwrap());
    let height = browser.script("return document.documentElement.scrollHeight").unwrap().as_u64().unwrap();
    browser.resize(1280, height.clamp(800, 8000) as u32 + 140).unwrap();
    browser.script("window.scrollTo(0, 0)").unwrap();
    save("class-report.png", browser.screenshot().unwrap());
    save("class-report-balances.png", browser.element_screenshot("#balances").unwrap());
    save("class-report-hands.png", browser.element_screenshot("#hands").unwrap());
    std::fs::copy(&page, artifacts().join("class-report.html")).unwrap();
}
