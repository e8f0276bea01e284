//! The student's editor on `/me`: a Python bot written in the browser,
//! **Try** (checked as an upload, played against `basic` on a chosen
//! league, a round's transcript; no submission made) and **Submit** (an
//! upload of `bot.py`). On the socket: a syntax error's verdict, a bot
//! that loops forever stopped by its fuel, a good bot's score and
//! transcript, the CSRF check, the bounds, and that a Try makes no
//! submission. In headless Chromium at 1280 and 390 px: a
//! student writes a bot with a `KeyError`, sees it named with its line,
//! fixes it, sees a score, submits it and sees its score on the page.

use std::time::Duration;

use pitboss_tests::artifacts;
use pitboss_tests::webdriver::Browser;
use serde_json::json;

use crate::server::{Server, agent, call, html, login, scratch, wait_for};

/// A competition with default settings and two leagues to choose from.
fn two_leagues(dir: &std::path::Path) -> std::path::PathBuf {
    let comp = dir.join("competition.toml");
    std::fs::write(
        &comp,
        "name = \"Editor cup\"\n[entrants]\nnames = [\"alice\", \"bob\"]\n\
         [[league]]\nname = \"Main\"\nvariant = \"north-american\"\nrounds = 500\nsessions = 2\nseed = 5\nbankroll = 1000000\n\
         [[league]]\nname = \"Nordic\"\nvariant = \"swedish\"\nrounds = 500\nsessions = 1\nseed = 6\nbankroll = 1000000\n",
    )
    .unwrap();
    comp
}

/// The server with a compile cache of its own, as a server has: the
/// Python runtime is compiled once, not for every check, play and replay.
fn start(dir: &std::path::Path) -> Server {
    let (cache, key) = (dir.join("cache"), dir.join("cache.key"));
    Server::start_with(
        &two_leagues(dir),
        &dir.join("data"),
        &[("PITBOSS_CACHE_DIR", &cache), ("PITBOSS_CACHE_KEY", &key)],
    )
}

/// Waits up to two minutes for `css` to contain `text` (a Try checks and
/// plays before its page loads).
fn wait_long(browser: &Browser, css: &str, text: &str) {
    let start = std::time::Instant::now();
    while !browser.text(css).is_ok_and(|t| t.contains(text)) {
        let at = browser.script("return location.href + ' ' + document.body.innerText").unwrap_or_default();
        assert!(start.elapsed() < Duration::from_secs(120), "no `{text}` in `{css}`: {at}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A bot whose first decision looks up a key its table does not hold.
const KEY_ERROR: &str = "import pitboss\nfrom pitboss import HIT, STAND\n\nPLAYS = {\"hard\": HIT}\n\n\n\
class MyBot(pitboss.Bot):\n    def act(self, r):\n        best, soft = r.total()\n        \
return PLAYS[\"soft\" if soft else \"hard-\" + str(best)]\n\n\npitboss.play(MyBot())\n";

/// The same bot, fixed.
fn fixed() -> String {
    KEY_ERROR.replace("PLAYS[\"soft\" if soft else \"hard-\" + str(best)]", "HIT if best < 17 else STAND")
}

/// The CSRF token of `/me`'s forms.
fn csrf_of(page: &str) -> String {
    page.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().to_string()
}

/// Posts the editor's form to `path`: the status, the `Location` and the page.
fn post(url: &str, cookie: &str, path: &str, form: &[(&str, &str)]) -> (u16, String, String) {
    let mut answer =
        agent().post(&format!("{url}{path}")).header("Cookie", cookie).send_form(form.iter().copied()).unwrap();
    let location = answer.headers().get("location").map(|l| l.to_str().unwrap().to_string()).unwrap_or_default();
    (answer.status().as_u16(), location, answer.body_mut().read_to_string().unwrap())
}

#[test]
fn try_checks_and_plays_the_editors_source_without_a_submission_and_submit_uploads_it() {
    let dir = scratch("editor");
    let server = start(&dir);
    let (url, alice) = (server.url.clone(), server.token("alice"));
    let cookie = login(&url, &alice);
    let me = html(&url, &cookie, "/me");
    assert!(me.contains("<textarea id=\"source\" name=\"source\""), "{me}");
    assert!(me.contains("class MyBot(pitboss.Bot)"), "the scaffold's bot.py to start from: {me}");
    assert!(me.contains("<option value=\"2\">Nordic</option>"), "a league to choose: {me}");
    let csrf = csrf_of(&me);

    // A syntax error is named by its line and column, as an upload's.
    let typo = "import pitboss\n\ndef act(view)\n    return 'stand'\n";
    let (status, _, page) = post(&url, &cookie, "/me/try", &[("csrf", &csrf), ("source", typo), ("rounds", "100")]);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Failed its check") && page.contains("bot.py:3:14: SyntaxError"), "{page}");
    assert!(!page.contains("tries/") && !page.contains(&dir.display().to_string()), "no server path: {page}");

    // A bot that never answers is stopped by its fuel, as any bot, and
    // told it is looping, at the line where its loop was.
    let forever = fixed().replace("best, soft = r.total()", "while True:\n            pass");
    let line = forever.lines().position(|l| l.trim() == "pass").unwrap() + 1;
    let started = std::time::Instant::now();
    let (status, _, page) = post(&url, &cookie, "/me/try", &[("csrf", &csrf), ("source", &forever)]);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Failed its check") && page.contains("an endless loop?"), "{page}");
    let at = format!("(Python was at bot.py line {line})");
    let near = format!("(Python was at bot.py line {})", line - 1);
    assert!(page.contains(&at) || page.contains(&near), "{at}: {page}");
    eprintln!("a Try of a bot that loops forever: {:.1} s", started.elapsed().as_secs_f64());

    // A good bot, with the browser's line ends, on the second league: its
    // score against basic and round 1's transcript.
    let good = fixed().replace('\n', "\r\n");
    let form = [("csrf", csrf.as_str()), ("source", &good), ("league", "2"), ("rounds", "200")];
    let (status, _, page) = post(&url, &cookie, "/me/try", &form);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Passed its check"), "{page}");
    assert!(page.contains("Score on Nordic (200 rounds against basic on the same cards): EV "), "{page}");
    assert!(page.contains("chips per 100 rounds against basic"), "{page}");
    assert!(page.contains("Try · Nordic — session 0, table 0, round 1") && page.contains("seat 0: bot.py"), "{page}");
    assert!(page.contains("<option value=\"2\" selected>Nordic</option>"), "the editor keeps the choice: {page}");
    assert!(page.contains("HIT if best &lt; 17 else STAND") && !page.contains("\r"), "{page}");
    // Another round of that Try.
    let round = html(&url, &cookie, "/me/try?round=150");
    assert!(round.contains("round 150") && round.contains("seat 0: bot.py"), "{round}");
    let outside = agent().get(&format!("{url}/me/try?round=201")).header("Cookie", &cookie).call().unwrap();
    assert_eq!(outside.status().as_u16(), 200);

    // Bounded: at most 2,000 rounds, a league of the competition.
    for (field, value) in [("rounds", "2001"), ("rounds", "0"), ("league", "3")] {
        let (status, _, page) = post(&url, &cookie, "/me/try", &[("csrf", &csrf), ("source", &good), (field, value)]);
        assert_eq!(status, 400, "{field} = {value}: {page}");
        assert!(page.contains("must be a whole number from 1 to"), "{page}");
    }
    let long = good.clone() + &"#".repeat(256 << 10);
    let (status, _, page) = post(&url, &cookie, "/me/try", &[("csrf", &csrf), ("source", &long)]);
    assert_eq!(status, 400, "{page}");
    assert!(page.contains("over its limit of 256 KiB"), "{page}");
    // Without the session's token, nothing is tried.
    for form in [vec![("source", good.as_str())], vec![("source", good.as_str()), ("csrf", "forged")]] {
        let (status, _, page) = post(&url, &cookie, "/me/try", &form);
        assert_eq!(status, 403, "{page}");
        assert!(page.contains("CSRF token is missing or wrong"), "{page}");
    }
    let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(&alice), None);
    assert_eq!(subs, json!([]), "a Try makes no submission");

    // Submit: the editor's text uploaded as bot.py, to its verdict on /me.
    let marked = good.clone() + "# submitted from the editor\r\n";
    let (status, location, _) = post(&url, &cookie, "/me/submit", &[("csrf", &csrf), ("source", &marked)]);
    assert_eq!(status, 303);
    let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(&alice), None);
    assert_eq!((&subs[0]["file_name"], &subs[0]["outcome"]), (&json!("bot.py"), &json!("passed")), "{subs}");
    assert!(subs[0]["score"]["ev_pct"].is_number(), "scored: {subs}");
    assert_eq!(location, format!("/me#sub-{}", subs[0]["id"]));
    let me = html(&url, &cookie, "/me");
    assert!(me.contains("Score on Main") && me.contains("# submitted from the editor"), "prefilled with it: {me}");
    let id = subs[0]["id"].as_i64().unwrap();
    let source = html(&url, &cookie, &format!("/submissions/{id}/source"));
    assert!(source.contains("# submitted from the editor") && !source.contains('\r'), "{source}");

    // The line numbers and the editor's keys are the server's own files,
    // and the page lets only the server's own script run.
    let lines = agent().get(&format!("{url}/editor/lines.svg")).call().unwrap();
    assert_eq!(lines.headers().get("content-type").unwrap(), "image/svg+xml");
    let script = agent().get(&format!("{url}/editor/editor.js")).call().unwrap();
    assert!(script.headers().get("content-type").unwrap().to_str().unwrap().starts_with("text/javascript"));
    let page = agent().get(&format!("{url}/me")).header("Cookie", &cookie).call().unwrap();
    let policy = page.headers().get("content-security-policy").unwrap().to_str().unwrap();
    assert!(policy.ends_with("; script-src 'self'") && policy.starts_with("default-src 'none'"), "{policy}");
}

/// Whether the page fits `width` with nothing scrolling sideways, and a
/// screenshot of it as `NAME.png`.
fn fits(browser: &Browser, name: &str) {
    let wide = browser.script("return document.documentElement.clientWidth").unwrap();
    assert!(wide == json!(1280) || wide == json!(390), "laid out {wide} px wide");
    let fits = browser.script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth");
    let what = browser.script("return location.pathname").unwrap();
    assert_eq!(fits.unwrap(), json!(true), "{what} overflows sideways ({name})");
    std::fs::write(artifacts().join(format!("{name}.png")), browser.screenshot().unwrap()).unwrap();
}

/// Replaces the editor's text (as typing all of it would).
fn write_source(browser: &Browser, text: &str) {
    let set = format!("document.querySelector('#source').value = {}; return true", json!(text));
    browser.script(&set).unwrap();
}

#[test]
#[ignore = "needs chromium"]
fn a_student_writes_tries_fixes_and_submits_a_python_bot_in_chromium() {
    pitboss_tests::webdriver::require();
    let dir = scratch("editor-browser");
    let server = start(&dir);
    let (url, alice) = (server.url.clone(), server.token("alice"));
    for (width, height, suffix) in [(1280, 900, ""), (390, 844, "-phone")] {
        let browser = Browser::start(width, height).unwrap();
        browser.phone_width(width, height).unwrap();
        browser.goto(&format!("{url}/login")).unwrap();
        browser.type_into("#token", &alice).unwrap();
        browser.click("#login").unwrap();
        wait_for(&browser, "h1", "alice");
        fits(&browser, &format!("editor{suffix}"));
        // The editor's keys: Enter keeps the indent, four more after a
        // colon; Tab indents.
        write_source(&browser, "class A:");
        browser.type_into("#source", "\u{E007}x\u{E007}\u{E004}y").unwrap();
        let typed = browser.script("return document.querySelector('#source').value").unwrap();
        assert_eq!(typed, json!("class A:\n    x\n        y"), "Enter and Tab in the editor");
        // The bot with the KeyError: tried, the error named with its line.
        write_source(&browser, KEY_ERROR);
        browser.type_into("#source", "\n# tried from the browser\n").unwrap();
        browser.click("#try").unwrap();
        wait_long(&browser, "#try-verdict", "Failed its check");
        let first = browser.text("#try-where").unwrap();
        assert!(first.contains("bot.py line 10, in act: KeyError: 'hard-"), "{first}");
        let report = browser.text("#try-report").unwrap();
        assert!(report.contains("KeyError: 'hard-") && report.contains("line 10, in act"), "{report}");
        fits(&browser, &format!("editor-keyerror{suffix}"));
        // Fixed in the editor the Try's page holds, tried again: a score.
        let kept = browser.script("return document.querySelector('#source').value").unwrap();
        assert!(kept.as_str().unwrap().contains("# tried from the browser"), "the Try's page keeps the text: {kept}");
        write_source(&browser, &fixed());
        browser.click("#try").unwrap();
        wait_long(&browser, "#try-verdict", "Passed its check");
        assert!(browser.text("#try-score").unwrap().contains("chips per 100 rounds against basic"));
        assert!(browser.text("#try-transcript").unwrap().contains("seat 0: bot.py"));
        fits(&browser, &format!("editor-score{suffix}"));
        // Submitted: its verdict and score on the student's page.
        browser.click("#send-source").unwrap();
        wait_long(&browser, ".submission .score", "Score on Main");
        assert!(browser.text(".submission").unwrap().contains("bot.py"));
        fits(&browser, &format!("editor-submitted{suffix}"));
    }
    let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(&alice), None);
    assert_eq!(subs.as_array().unwrap().len(), 2, "one submission per Submit, none per Try: {subs}");
}
