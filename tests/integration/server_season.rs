//! Every page of a class's season, walked in headless Chromium at a
//! laptop's 1280 px and a phone's 390 px: nothing may scroll sideways —
//! not the page, and not a part of it (a table in its scroller) — and a
//! PNG of each whole page at each width goes to
//! `target/screenshots/season-walk/PAGE-WIDTH.png` for people to look at.
//!
//! The season is built the cheap way, by API: three entrants, one with a
//! long file name and faults, two finished runs (a rank history), a third
//! run held up by a slow bot (its progress shown) with a scrimmage queued
//! behind it, then the final run and its publication. The pages are the
//! table [`PAGES`]: a page is one line there.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pitboss_tests::artifacts;
use pitboss_tests::webdriver::Browser;
use serde_json::{Value, json};

use crate::server::{Server, bytes, call, competition, login, scratch, wait_for_run};
use crate::server_status::late_trapper;

/// When in the season a page is seen.
#[derive(Clone, Copy, PartialEq, Debug)]
enum When {
    /// The third run playing, a scrimmage queued behind it.
    Running,
    /// Three runs finished, the scrimmage played.
    Season,
    /// The final run finished, its reports not yet published.
    Final,
    /// The final run's reports published.
    Published,
}

/// Who looks at a page.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Who {
    Nobody,
    /// The entrant with the long file name, faults and the scrimmage.
    Alice,
    Organiser,
}

/// A page of the walk: its screenshot's name, when and by whom it is
/// seen, its path (`{run}`: the latest finished run before the final
/// one; `{coached}`: the run whose coaching was asked first; `{a}`, `{b}`:
/// alice's two submissions; `{scrimmage}`: hers), and what it shows once
/// it is ready (a CSS selector; a page that refreshes itself is waited
/// for).
struct Page {
    name: &'static str,
    when: When,
    who: Who,
    path: &'static str,
    shows: &'static str,
    /// Whether its parts must fit too: false for a report, whose wide
    /// tables may scroll in their frames (pitboss-report's layout, which
    /// its own test walks at 390 px).
    parts: bool,
}

const fn page(name: &'static str, when: When, who: Who, path: &'static str, shows: &'static str) -> Page {
    Page { name, when, who, path, shows, parts: true }
}

const fn report(name: &'static str, when: When, who: Who, path: &'static str) -> Page {
    Page { name, when, who, path, shows: "h1", parts: false }
}

use When::{Final, Published, Running, Season};
use Who::{Alice, Nobody, Organiser};

/// Every page of the season, in the order walked.
const PAGES: &[Page] = &[
    page("leaderboard-running", Running, Nobody, "/", "span.progress"),
    page("scrimmage-queued", Running, Alice, "/me/scrimmages", "#scrimmage-refresh"),
    page("organiser-running", Running, Organiser, "/admin", "span.progress"),
    page("login", Season, Nobody, "/login", "#token"),
    page("register", Season, Nobody, "/register", "h1"),
    page("download", Season, Nobody, "/download", "#sha256"),
    page("leaderboard", Season, Nobody, "/", "svg.history"),
    page("me", Season, Alice, "/me", "table.faults"),
    page("compare", Season, Alice, "/me/compare?a={a}&b={b}", "#difference"),
    page("coach", Season, Alice, "/runs/{coached}/league-1/coach", "#coach table"),
    page("replay", Season, Alice, "/runs/{run}/league-1/replay?session=0&table=0&round=1", "#felt"),
    page("scrimmage", Season, Alice, "/me/scrimmages", ".submission table"),
    page("scrimmage-replay", Season, Alice, "/scrimmages/{scrimmage}/replay?session=0&table=0&round=1", "#felt"),
    report("scrimmage-report", Season, Alice, "/scrimmages/{scrimmage}/report.html"),
    page("organiser", Season, Organiser, "/admin", "#entrants td.cost span"),
    page("similarity", Season, Organiser, "/admin/similarity", "#similarity-bots"),
    page("submissions", Season, Organiser, "/admin/submissions", "#log"),
    page("verdicts", Season, Organiser, "/admin/submissions?entrant=alice&outcome=passed", "#log"),
    report("report", Season, Organiser, "/runs/{run}/league-1/report.html"),
    page("organiser-final", Final, Organiser, "/admin", "#publish"),
    page("leaderboard-final", Final, Nobody, "/", "#final"),
    page("organiser-published", Published, Organiser, "/admin", "#published"),
    page("leaderboard-published", Published, Nobody, "/", "#final"),
];

/// The widths walked: a laptop's window, and a phone's (laid out by
/// device emulation: a headless window stops at 500 px).
const WIDTHS: [u32; 2] = [1280, 390];

/// The file name alice gives her faulting bot: longer than any table
/// cell should be.
const LONG_NAME: &str = "alices-blackjack-bot-for-the-class-competition-final-version-2-really-final.wasm";

/// A bot that spins 150,000 loop turns a decision (within the default
/// fuel) and stands: a run with it plays long enough to be seen running
/// (some 20 s on 2 busy cores; walking the pages of a running run takes
/// under 4 s).
fn slow_bot() -> Vec<u8> {
    wat::parse_str(
        r#"(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (local $i i32)
    (local.set $i (i32.const 150000))
    (loop $spin (br_if $spin (local.tee $i (i32.sub (local.get $i) (i32.const 1)))))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))"#,
    )
    .unwrap()
}

/// Where the screenshots go.
fn shots() -> PathBuf {
    let dir = artifacts().parent().unwrap().join("screenshots/season-walk");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What scrolls sideways on the page now: the page itself, or (where
/// `parts`) any element that scrolls its overflow (a table in its
/// scroller; not an editor's text area, whose lines are code).
const OVERFLOWS: &str = r#"
const parts = arguments[0];
const over = [];
const page = document.documentElement.scrollWidth;
if (page > window.innerWidth) over.push(`the page (${page} px in ${window.innerWidth})`);
for (const e of document.querySelectorAll('body *')) {
  const x = getComputedStyle(e).overflowX;
  if ((x === 'auto' || x === 'scroll') && e.scrollWidth > e.clientWidth + 1 && parts
      && e.tagName !== 'TEXTAREA') {
    const id = e.id ? '#' + e.id : '';
    const classes = typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\s+/).join('.') : '';
    const inner = e.firstElementChild ? ' holding ' + e.firstElementChild.tagName.toLowerCase()
      + (e.firstElementChild.id ? '#' + e.firstElementChild.id : '')
      + (typeof e.firstElementChild.className === 'string' && e.firstElementChild.className ? '.' + e.firstElementChild.className.trim().split(/\s+/).join('.') : '') : '';
    over.push(`${e.tagName.toLowerCase()}${id}${classes}${inner} (${e.scrollWidth} px in ${e.clientWidth})`);
  }
}
return over;"#;

/// The season's walker: one browser, logged in as one visitor at a time.
struct Walker {
    browser: Browser,
    url: String,
    tokens: [(Who, String); 2],
    who: Option<Who>,
    values: Vec<(&'static str, String)>,
    overflowing: Vec<String>,
}

impl Walker {
    fn visit_as(&mut self, who: Who) {
        if self.who == Some(who) {
            return;
        }
        if self.who.is_some() {
            self.browser.forget_cookies().unwrap();
        }
        if let Some((_, token)) = self.tokens.iter().find(|(w, _)| *w == who) {
            self.browser.goto(&format!("{}/login", self.url)).unwrap();
            self.browser.type_into("#token", token).unwrap();
            self.browser.click("#login").unwrap();
            let start = Instant::now();
            while self.browser.script("return location.pathname").unwrap() == "/login" {
                assert!(start.elapsed() < Duration::from_secs(20), "{who:?} not logged in");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        self.who = Some(who);
    }

    /// Walks the pages seen `when`, at both widths.
    fn walk(&mut self, when: When) {
        for p in PAGES.iter().filter(|p| p.when == when) {
            self.visit_as(p.who);
            let mut path = p.path.to_string();
            for (key, value) in &self.values {
                path = path.replace(&format!("{{{key}}}"), value);
            }
            self.browser.window_width().unwrap();
            self.browser.goto(&format!("{}{path}", self.url)).unwrap();
            // The coaching plays 50,000 rounds: its page refreshes itself
            // until they are done.
            let start = Instant::now();
            while self.browser.count(p.shows).unwrap_or(0) == 0 {
                let text = self.browser.script("return document.body.innerText").unwrap_or_default();
                assert!(
                    start.elapsed() < Duration::from_secs(300),
                    "{} ({path}) never showed `{}`: {text}",
                    p.name,
                    p.shows
                );
                std::thread::sleep(Duration::from_millis(300));
            }
            for width in WIDTHS {
                if width < 500 {
                    self.browser.phone_width(width, 844).unwrap();
                } else {
                    self.browser.window_width().unwrap();
                }
                std::thread::sleep(Duration::from_millis(200));
                let inner = again(|| self.browser.script("return window.innerWidth"));
                assert_eq!(inner, json!(width), "laid out {width} px wide");
                let over = again(|| self.browser.script_with(OVERFLOWS, json!([p.parts])));
                for o in over.as_array().unwrap() {
                    self.overflowing.push(format!("{} ({path}) at {width} px: {}", p.name, o.as_str().unwrap_or("")));
                }
                let png = again(|| self.browser.page_screenshot());
                std::fs::write(shots().join(format!("{}-{width}.png", p.name)), png).unwrap();
            }
        }
    }
}

/// `look`'s answer, asked again once a second later if it fails (a page
/// that refreshes itself may be reloading).
fn again<T>(look: impl Fn() -> Result<T, String>) -> T {
    look().unwrap_or_else(|_| {
        std::thread::sleep(Duration::from_secs(1));
        look().unwrap()
    })
}

/// `(status, JSON)` of a POST with a JSON body.
fn post_json(url: &str, token: &str, body: &Value) -> (u16, Value) {
    call("POST", url, Some(token), Some(body.to_string().as_bytes()))
}

/// Uploads `module` as `name` for `token`; its submission id.
fn upload(url: &str, token: &str, name: &str, module: &[u8]) -> i64 {
    let (status, verdict) = call("POST", &format!("{url}/api/submissions?name={name}"), Some(token), Some(module));
    assert_eq!(status, 201, "{name}: {verdict}");
    verdict["id"].as_i64().unwrap()
}

/// Queues a run and waits until it is done; its id.
fn run(url: &str, admin: &str) -> i64 {
    let (status, run) = call("POST", &format!("{url}/api/runs"), Some(admin), None);
    assert_eq!(status, 202, "{run}");
    let id = run["run"].as_i64().unwrap();
    wait_for_run(url, id, "done", 300);
    id
}

#[test]
#[ignore = "needs chromium"]
fn every_page_of_a_season_fits_1280_and_390_px_in_chromium() {
    pitboss_tests::webdriver::require();
    let started = Instant::now();
    let dir = scratch("season-walk");
    let comp = competition(&dir, &["alice", "bob", "carol"], 20_000, 20);
    let text = std::fs::read_to_string(&comp)
        .unwrap()
        .replacen("[uploads]", "public_reports = false\n[runs]\nthreads = 1\n[uploads]", 1)
        .replacen("[entrants]\n", "[entrants]\ninvite_code = \"walk-the-season\"\n", 1)
        .replacen("per_hour = 20\n", "per_hour = 20\nscore_rounds = 2000\n", 1)
        + "[scrimmages]\nmax_rounds = 2000\n";
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin, alice, bob, carol) =
        (server.url.clone(), server.token("admin"), server.token("alice"), server.token("bob"), server.token("carol"));
    let a = upload(&url, &alice, "alice-basic.wasm", &bytes("basic"));
    let b = upload(&url, &alice, LONG_NAME, &late_trapper());
    upload(&url, &bob, "hilo.wasm", &bytes("hilo"));
    let carols = upload(&url, &carol, "carol.wasm", &bytes("basic"));
    let (status, _) = post_json(&format!("{url}/api/me/allow-scrimmages"), &bob, &json!({ "allow": true }));
    assert_eq!(status, 200);
    let coached = run(&url, &admin);
    // The coaching plays while the season goes on (the page asks once).
    crate::server::html(&url, &login(&url, &alice), &format!("/runs/{coached}/league-1/coach"));
    run(&url, &admin);

    // A slow bot holds the third run up: its progress is shown, and
    // alice's scrimmage waits behind it.
    upload(&url, &carol, "carol-slow.wasm", &slow_bot());
    let (status, third) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    assert_eq!(status, 202, "{third}");
    let third = third["run"].as_i64().unwrap();
    let ask = json!({ "league": 1, "rounds": 2000, "opponents": ["bob", "builtin:hilo"] });
    let (status, scrimmage) = post_json(&format!("{url}/api/scrimmages"), &alice, &ask);
    assert_eq!(status, 202, "{scrimmage}");
    let scrimmage = scrimmage["scrimmage"].as_i64().unwrap();
    let start = Instant::now();
    loop {
        let (_, runs) = call("GET", &format!("{url}/api/runs"), None, None);
        let r = runs.as_array().unwrap().iter().find(|r| r["id"] == third).cloned().unwrap();
        assert_ne!(r["state"], "done", "run {third} finished before it was seen running");
        if r["progress"]["done"].as_u64().unwrap_or(0) > 0 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "run {third} never ran: {r}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let built = started.elapsed();

    let mut walker = Walker {
        browser: Browser::start(1280, 900).unwrap(),
        url: url.clone(),
        tokens: [(Alice, alice.clone()), (Organiser, admin.clone())],
        who: None,
        values: vec![
            ("run", third.to_string()),
            ("coached", coached.to_string()),
            ("a", a.to_string()),
            ("b", b.to_string()),
            ("scrimmage", scrimmage.to_string()),
        ],
        overflowing: Vec::new(),
    };
    let running = Instant::now();
    walker.walk(Running);
    let running = running.elapsed();
    let (_, runs) = call("GET", &format!("{url}/api/runs"), None, None);
    let still = runs.as_array().unwrap().iter().any(|r| r["id"] == third && r["state"] == "running");
    assert!(still, "run {third} finished while the running pages were walked: make its slow bot slower");

    wait_for_run(&url, third, "done", 600);
    let start = Instant::now();
    loop {
        let (_, list) = call("GET", &format!("{url}/api/scrimmages"), Some(&alice), None);
        let s = list.as_array().unwrap().iter().find(|s| s["id"] == scrimmage).cloned().unwrap();
        if s["state"] == "done" {
            break;
        }
        assert_ne!(s["state"], "failed", "{s}");
        assert!(start.elapsed() < Duration::from_secs(300), "scrimmage {scrimmage} unfinished: {s}");
        std::thread::sleep(Duration::from_millis(200));
    }
    // The slow bot plays no more: carol's first bot again.
    let (status, v) = call("POST", &format!("{url}/api/submissions/{carols}/activate"), Some(&carol), None);
    assert_eq!(status, 200, "{v}");
    walker.walk(Season);

    let (status, last) = call("POST", &format!("{url}/api/runs/final"), Some(&admin), None);
    assert_eq!(status, 202, "{last}");
    wait_for_run(&url, last["run"].as_i64().unwrap(), "done", 300);
    walker.walk(Final);
    let (status, v) = call("POST", &format!("{url}/api/runs/final/publish"), Some(&admin), None);
    assert_eq!(status, 200, "{v}");
    walker.walk(Published);

    let pages: Vec<&str> = PAGES.iter().map(|p| p.name).collect();
    eprintln!(
        "season walk: {} pages at {WIDTHS:?} px in {:.0} s ({:.0} s building the season, {:.1} s walking \
         the running pages): {}",
        pages.len(),
        started.elapsed().as_secs_f64(),
        built.as_secs_f64(),
        running.as_secs_f64(),
        pages.join(", ")
    );
    assert!(walker.overflowing.is_empty(), "sideways scrolling:\n{}", walker.overflowing.join("\n"));
}
