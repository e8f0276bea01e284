//! A class's season walked in headless Chromium, as a student and as the
//! organiser, at 1280 px and at a phone's 390 px: open a faulting round
//! from the faults table and step it in the viewer, read the coach on
//! one's bot, compare two submissions, play a scrimmage, read the
//! dashboard, freeze a final run.
//! Every page must fit its width (nothing overflowing sideways); the
//! screenshots go to `target/test-artifacts/` (docs/server.md shows them).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use pitboss_tests::artifacts;
use pitboss_tests::webdriver::Browser;
use serde_json::json;

use crate::server::{Server, bytes, call, competition, scratch, wait_for, wait_for_run};
use crate::server_status::late_trapper;

/// The widths walked: a laptop's and a phone's.
const WIDTHS: [(u32, u32, &str); 2] = [(1280, 900, ""), (390, 844, "-phone")];

/// Checks the page fits the window's width at both widths, saving a
/// screenshot `NAME.png` / `NAME-phone.png` of each.
fn at_both_widths(browser: &Browser, name: &str) {
    for (w, h, suffix) in WIDTHS {
        // A headless window stops at 500 px: a phone's width is emulated.
        if w < 500 {
            browser.phone_width(w, h).unwrap()
        } else {
            browser.window_width().unwrap()
        }
        std::thread::sleep(Duration::from_millis(200));
        let fits = browser.script("return document.documentElement.scrollWidth <= window.innerWidth + 1").unwrap();
        let what = browser.script("return location.pathname").unwrap();
        assert_eq!(fits, json!(true), "{what} overflows sideways at {w} px");
        std::fs::write(artifacts().join(format!("{name}{suffix}.png")), browser.screenshot().unwrap()).unwrap();
    }
    browser.window_width().unwrap();
}

fn log_in(browser: &Browser, url: &str, token: &str, heading: &str) {
    browser.goto(&format!("{url}/login")).unwrap();
    browser.type_into("#token", token).unwrap();
    browser.click("#login").unwrap();
    wait_for(browser, "h1", heading);
}

#[test]
#[ignore = "needs chromium"]
fn a_season_walked_in_chromium_as_a_student_and_as_the_organiser() {
    pitboss_tests::webdriver::require();
    let dir = scratch("season-browser");
    let comp = competition(&dir, &["alice", "bob"], 12_000, 10);
    let deadline = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() + 40;
    let when = std::process::Command::new("date")
        .args(["-u", "-d", &format!("@{deadline}"), "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .unwrap()
        .stdout;
    let text = std::fs::read_to_string(&comp)
        .unwrap()
        .replace("bankroll = 1000000\n", "bankroll = 1000000\nfault_limit = 5\n")
        .replacen(
            "[uploads]",
            &format!("deadline = \"{}\"\n[uploads]\nscore_rounds = 4000", String::from_utf8_lossy(&when).trim()),
            1,
        )
        + "[scrimmages]\nmax_rounds = 2000\n";
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin, alice, bob) =
        (server.url.clone(), server.token("admin"), server.token("alice"), server.token("bob"));
    for (token, module) in [(&alice, bytes("basic")), (&alice, late_trapper()), (&bob, bytes("hilo"))] {
        let (status, verdict) = call("POST", &format!("{url}/api/submissions"), Some(token), Some(&module));
        assert_eq!(status, 201, "{verdict}");
    }
    let (status, _) = call("POST", &format!("{url}/api/me/allow-scrimmages"), Some(&bob), Some(br#"{"allow": true}"#));
    assert_eq!(status, 200);
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    wait_for_run(&url, run["run"].as_i64().unwrap(), "done", 300);

    let browser = Browser::start(1280, 900).unwrap();
    log_in(&browser, &url, &alice, "alice");
    wait_for(&browser, ".banner", "disqualified");
    at_both_widths(&browser, "season-status");
    // The faulting round, one click from the faults table, in the viewer.
    browser.click("table.faults a.replay").unwrap();
    wait_for(&browser, "h1", "round");
    browser.click("#end").unwrap();
    wait_for(&browser, "#caption", "Round");
    assert!(browser.count("#felt .card").unwrap() >= 3, "cards on the felt");
    assert!(browser.text("pre.transcript").unwrap().contains("FAULT in"), "the fault in the transcript");
    at_both_widths(&browser, "season-replay");
    // The coach: where her bot of that run gives EV away.
    browser.goto(&format!("{url}/me")).unwrap();
    browser.click("a.coach").unwrap();
    // It plays 50,000 rounds: the page shows how far and refreshes itself.
    let coaching = Instant::now();
    while !browser.text("#coach").is_ok_and(|t| t.contains("where each bot gives EV away")) {
        assert!(coaching.elapsed() < Duration::from_secs(240), "the coaching never showed");
        std::thread::sleep(Duration::from_millis(500));
    }
    assert!(browser.count("#coach table tr").unwrap() >= 2, "the top situations");
    at_both_widths(&browser, "season-coach");
    // Two submissions compared on the same cards.
    browser.goto(&format!("{url}/me")).unwrap();
    browser.click("#compare button").unwrap();
    wait_for(&browser, "#difference", "chips per 100 rounds");
    at_both_widths(&browser, "season-compare");
    // A scrimmage against bob and a built-in bot.
    browser.goto(&format!("{url}/me/scrimmages")).unwrap();
    browser.click(r#"input[value="bob"]"#).unwrap();
    browser.click(r#"input[value="builtin:hilo"]"#).unwrap();
    browser.click("#scrimmage button").unwrap();
    let start = Instant::now();
    while !browser.text(".state").is_ok_and(|s| s == "done") {
        assert!(start.elapsed() < Duration::from_secs(120), "the scrimmage did not finish");
        std::thread::sleep(Duration::from_millis(300));
        browser.goto(&format!("{url}/me/scrimmages")).unwrap();
    }
    assert!(browser.text(".submission table").unwrap().contains("builtin:hilo"));
    at_both_widths(&browser, "season-scrimmage");
    drop(browser);

    // The organiser: the dashboard, then the final run after the deadline.
    let browser = Browser::start(1280, 900).unwrap();
    log_in(&browser, &url, &admin, "Organiser");
    let entrants = browser.text("#entrants").unwrap();
    assert!(entrants.contains("Last seen") && entrants.contains("Main: #2 DQ"), "{entrants}");
    at_both_widths(&browser, "season-dashboard");
    while SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() <= deadline {
        std::thread::sleep(Duration::from_millis(250));
    }
    browser.click("button#final").unwrap();
    wait_for(&browser, "h1", "Organiser");
    // The click may return before the run is queued: find it by its reason.
    let start = Instant::now();
    let last = loop {
        let (_, runs) = call("GET", &format!("{url}/api/runs"), None, None);
        if let Some(id) =
            runs.as_array().unwrap().iter().find(|r| r["reason"] == "final").and_then(|r| r["id"].as_i64())
        {
            break id;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no final run queued: {runs}");
        std::thread::sleep(Duration::from_millis(200));
    };
    wait_for_run(&url, last, "done", 300);
    browser.goto(&format!("{url}/")).unwrap();
    wait_for(&browser, "#final", "Final standings");
    at_both_widths(&browser, "season-final");
    // Frozen: the organiser's page has no run buttons, and says the
    // reports are out (this competition's are public all along).
    browser.goto(&format!("{url}/admin")).unwrap();
    wait_for(&browser, "#published", "Published");
    assert_eq!(browser.count("button#run").unwrap() + browser.count("button#final").unwrap(), 0, "frozen");
    at_both_widths(&browser, "season-published");
    // The binary the server runs, for students to install.
    browser.goto(&format!("{url}/download")).unwrap();
    wait_for(&browser, "h1", "Download pitboss");
    at_both_widths(&browser, "season-download");
}
