//! `pitboss serve`: the real binary on a free loopback port with a fresh
//! data folder; uploads and verdicts, access control, CSRF, a run, the
//! leaderboard, the bundle verified, and a kill -9 mid-run (a burst of
//! uploads during a run is in `server_soak.rs`).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use pitboss_tests::{pitboss, pitboss_bin, wasm_path};
use serde_json::{Value, json};

/// A server this test started; killed when dropped.
pub struct Server {
    child: Child,
    pub url: String,
    /// Lines printed at start: `admin token: …`, `entrant NAME: …`.
    pub printed: Vec<String>,
}

impl Server {
    /// The server's open descriptors now, and its peak resident memory so
    /// far in KiB (Linux's `/proc`).
    pub fn resources(&self) -> (usize, u64) {
        let proc = format!("/proc/{}", self.pid());
        let fds = std::fs::read_dir(format!("{proc}/fd")).map_or(0, |d| d.count());
        let status = std::fs::read_to_string(format!("{proc}/status")).unwrap_or_default();
        let hwm = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).unwrap_or("0");
        (fds, hwm.trim().trim_end_matches("kB").trim().parse().unwrap_or(0))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `pitboss serve COMPETITION --data DATA` on a free port and
    /// waits for its address.
    pub fn start(competition: &Path, data: &Path) -> Server {
        Server::start_with(competition, data, &[])
    }

    /// [`Server::start`] with more environment variables.
    pub fn start_with(competition: &Path, data: &Path, env: &[(&str, &Path)]) -> Server {
        let child = Command::new(pitboss_bin())
            .args(["serve", &competition.display().to_string(), "--data", &data.display().to_string()])
            .args(["--listen", "127.0.0.1:0"])
            .env("PITBOSS_CACHE_DIR", "off")
            .envs(env.iter().map(|(k, v)| (*k, *v)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn pitboss serve");
        // Owned at once, so a failed start still kills it.
        let mut server = Server { child, url: String::new(), printed: Vec::new() };
        let (tx, rx) = mpsc::channel();
        let stdout = server.child.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = rx.recv_timeout(left).expect("pitboss serve printed its address within 60 s");
            if let Some(url) = line.strip_prefix("listening on ") {
                server.url = url.to_string();
                return server;
            }
            server.printed.push(line);
        }
    }

    /// The token printed for `who` (`admin` or an entrant's name).
    pub fn token(&self, who: &str) -> String {
        let prefix = if who == "admin" { "admin token: ".to_string() } else { format!("entrant {who}: ") };
        self.printed.iter().find_map(|l| l.strip_prefix(&prefix)).unwrap_or_else(|| panic!("no token for {who}")).into()
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGTERM and waits for the exit status.
    pub fn terminate(mut self) -> std::process::ExitStatus {
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "the server ignored SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills the server with SIGKILL.
    pub fn kill9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP agent that returns error statuses as answers and follows no
/// redirects (cookies are read from the first answer).
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// `(status, JSON)` of a request with an optional bearer token and body.
pub fn call(method: &str, url: &str, token: Option<&str>, body: Option<&[u8]>) -> (u16, Value) {
    let agent = agent();
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut answer = match (method, body) {
        ("GET", _) => {
            let mut r = agent.get(url);
            if let Some(a) = &auth {
                r = r.header("Authorization", a);
            }
            r.call()
        }
        (_, body) => {
            let mut r = agent.post(url);
            if let Some(a) = &auth {
                r = r.header("Authorization", a);
            }
            match body {
                Some(b) if b.starts_with(b"{") => r.header("Content-Type", "application/json").send(b),
                Some(b) => r.send(b),
                None => r.send_empty(),
            }
        }
    }
    .expect("the server answers");
    let status = answer.status().as_u16();
    let text = answer.body_mut().read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// A fresh scratch folder.
pub fn scratch(name: &str) -> PathBuf {
    pitboss_tests::scratch("server", name)
}

/// A competition file in `dir` with these entrants, rounds per session,
/// and uploads an hour.
pub fn competition(dir: &Path, entrants: &[&str], rounds: u64, per_hour: u64) -> PathBuf {
    let names: Vec<String> = entrants.iter().map(|n| format!("\"{n}\"")).collect();
    let text = format!(
        "name = \"Test cup\"\n[uploads]\nmax_kib = 512\nper_hour = {per_hour}\n[entrants]\nnames = [{}]\n\
         [[league]]\nname = \"Main\"\nvariant = \"north-american\"\nrounds = {rounds}\nsessions = 2\nseed = 5\n\
         bankroll = 1000000\n",
        names.join(", ")
    );
    let path = dir.join("competition.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Waits until run `id` is in `state` (panics after `secs`).
pub fn wait_for_run(url: &str, id: i64, state: &str, secs: u64) {
    let start = Instant::now();
    loop {
        let (_, runs) = call("GET", &format!("{url}/api/runs"), None, None);
        let now = runs.as_array().and_then(|rs| rs.iter().find(|r| r["id"] == id)).map(|r| r["state"].clone());
        if now.as_ref().and_then(Value::as_str) == Some(state) {
            return;
        }
        assert_ne!(now.as_ref().and_then(Value::as_str), Some("failed"), "run {id} failed: {runs}");
        assert!(start.elapsed() < Duration::from_secs(secs), "run {id} not {state} after {secs} s: {runs}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

pub fn bytes(bot: &str) -> Vec<u8> {
    std::fs::read(wasm_path(bot)).unwrap()
}

/// The smallest wasm module: loads nowhere as a bot (no exports).
const EMPTY_MODULE: &[u8] = b"\0asm\x01\0\0\0";

#[test]
fn entrants_upload_get_verdicts_see_only_their_own_and_a_run_is_verified() {
    let dir = scratch("api");
    let comp = competition(&dir, &["alice", "bob"], 2_000, 3);
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let (alice, bob) = (server.token("alice"), server.token("bob"));

    // Entrants: by the command beside the running server, and by the API.
    let ran = pitboss(&dir, &["serve", "competition.toml", "--data", "data", "--add-entrant", "carol"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let carol = ran.stdout.trim().strip_prefix("entrant carol: ").expect("carol's token").to_string();
    let (status, body) = call("POST", &format!("{url}/api/entrants"), Some(&admin), Some(br#"{"name":"dave"}"#));
    assert_eq!(status, 201, "{body}");
    assert!(body["token"].as_str().unwrap().starts_with("pbe_"));
    let (status, _) = call("POST", &format!("{url}/api/entrants"), Some(&alice), Some(br#"{"name":"eve"}"#));
    assert_eq!(status, 403, "an entrant cannot add entrants");
    let (status, _) = call("POST", &format!("{url}/api/entrants"), Some(&admin), Some(br#"{"name":"dave"}"#));
    assert_eq!(status, 409, "a taken name is refused");
    let (status, _) = call("GET", &format!("{url}/api/submissions"), Some("pbe_wrong"), None);
    assert_eq!(status, 401, "a wrong token is refused");
    let (status, _) = call("GET", &format!("{url}/api/submissions"), None, None);
    assert_eq!(status, 401, "no token is refused");

    // Uploads: a good bot, then bad ones, each with its reason.
    let upload =
        |token: &str, body: &[u8]| call("POST", &format!("{url}/api/submissions?name=x.wasm"), Some(token), Some(body));
    let (status, good) = upload(&alice, &bytes("basic"));
    assert_eq!(status, 201, "{good}");
    assert_eq!(good["outcome"], "passed");
    assert!(good["verdict"].as_str().unwrap().starts_with("OK"), "{good}");
    assert!(good["report"].as_str().unwrap().contains("fuel median"), "the per-decision table: {good}");
    let (status, bad) = upload(&alice, b"hello, not wasm");
    assert_eq!((status, bad["outcome"].as_str()), (422, Some("refused")));
    assert!(bad["verdict"].as_str().unwrap().contains("not a WebAssembly module"), "{bad}");
    let mut big = b"\0asm\x01\0\0\0".to_vec();
    big.resize(600 << 10, 0);
    let (_, bad) = upload(&alice, &big);
    assert!(bad["verdict"].as_str().unwrap().contains("over this competition's limit"), "{bad}");
    let (status, bad) = upload(&alice, EMPTY_MODULE);
    assert_eq!((status, bad["outcome"].as_str()), (422, Some("failed")), "{bad}");
    assert!(bad["verdict"].as_str().unwrap().starts_with("FAIL"), "{bad}");
    // The same failing file again is not checked again (nor counted).
    let (_, again) = upload(&alice, EMPTY_MODULE);
    let said = format!("you already uploaded this exact file (#{}): it failed", bad["id"]);
    assert!(again["verdict"].as_str().unwrap().contains(&said), "{again}");
    let (_, _) = upload(&alice, b"\0asm\x01\0\0\0\0\x02\x01x");
    let (_, bad) = upload(&alice, &bytes("basic"));
    assert!(bad["verdict"].as_str().unwrap().contains("uploads an hour"), "the rate: {bad}");

    // bob submits from the terminal; carol too.
    let bot = wasm_path("hilo").display().to_string();
    let ran = pitboss(&dir, &["submit", "--server", &url, "--token", &bob, &bot]);
    assert_eq!(ran.code, Some(0), "{}{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("passed") && ran.stdout.contains("fuel median"), "{}", ran.stdout);
    let ran = pitboss(
        &dir,
        &["submit", "--server", &url, "--token", &carol, &dir.join("competition.toml").display().to_string()],
    );
    assert_eq!(ran.code, Some(1), "a refused upload fails: {}", ran.stdout);
    assert!(ran.stdout.contains("not a WebAssembly module"), "{}", ran.stdout);

    // Every upload recorded; nobody sees or changes another's.
    let (_, mine) = call("GET", &format!("{url}/api/submissions"), Some(&alice), None);
    assert_eq!(mine.as_array().unwrap().len(), 7, "{mine}");
    let alice_good = good["id"].as_i64().unwrap();
    let (status, _) = call("GET", &format!("{url}/api/submissions/{alice_good}"), Some(&bob), None);
    assert_eq!(status, 404, "bob cannot read alice's submission");
    let (status, _) = call("POST", &format!("{url}/api/submissions/{alice_good}/activate"), Some(&bob), None);
    assert_eq!(status, 404, "bob cannot make alice's submission his");
    let (_, bobs) = call("GET", &format!("{url}/api/submissions"), Some(&bob), None);
    assert!(bobs.as_array().unwrap().iter().all(|s| s["sha256"] != good["sha256"]), "{bobs}");
    let (status, _) = call("GET", &format!("{url}/api/runs/1/bundle.tar"), Some(&bob), None);
    assert_eq!(status, 403, "the bundle (everyone's bots) is the organiser's");

    csrf_is_checked(&url, &alice);
    malformed_requests_are_refused(&url, &admin);

    // A run, the leaderboard, and the bundle verified elsewhere.
    let (status, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    assert_eq!(status, 202, "{run}");
    let id = run["run"].as_i64().unwrap();
    wait_for_run(&url, id, "done", 300);
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    let names: Vec<&str> =
        board["latest"]["leagues"][0]["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2, "{board}");
    assert!(names.contains(&"alice") && names.contains(&"bob"), "{board}");
    let ran = pitboss(&dir, &["standings", "--server", &url]);
    assert!(ran.stdout.contains("alice") && ran.stdout.contains("bob"), "{}{}", ran.stdout, ran.stderr);
    let (status, me) = call("GET", &format!("{url}/api/me"), Some(&alice), None);
    assert_eq!((status, me["faults"][0]["total"].as_u64()), (200, Some(0)), "{me}");
    bundle_verifies(&url, &admin, id, &dir);

    assert!(server.terminate().success(), "SIGTERM ends the server cleanly");
}

/// Page forms need the session's CSRF token; an API token is not a
/// session.
fn csrf_is_checked(url: &str, token: &str) {
    let (form_cookie, form_csrf) = login_form(url);
    let without = agent().post(&format!("{url}/login")).send_form([("token", token)]).unwrap();
    assert_eq!(without.status().as_u16(), 403, "a login without the form's token is refused");
    let forged = agent()
        .post(&format!("{url}/login"))
        .header("Cookie", &form_cookie)
        .header("Origin", "http://evil.example")
        .send_form([("token", token), ("csrf", &form_csrf)])
        .unwrap();
    assert_eq!(forged.status().as_u16(), 403, "a login posted from another site is refused");
    let cookie = login(url, token);
    let mut page = agent().get(&format!("{url}/me")).header("Cookie", &cookie).call().unwrap();
    let html = page.body_mut().read_to_string().unwrap();
    let csrf = html.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().to_string();
    let post = |form: Vec<(&str, &str)>| {
        agent().post(&format!("{url}/me/activate")).header("Cookie", &cookie).send_form(form).unwrap().status().as_u16()
    };
    assert_eq!(post(vec![("csrf", "forged"), ("id", "1")]), 403, "a forged CSRF token is refused");
    assert_eq!(post(vec![("csrf", &csrf), ("id", "1")]), 303, "the page's own token is accepted");
    let answer = agent().post(&format!("{url}/me/activate")).send_form([("csrf", csrf.as_str()), ("id", "1")]).unwrap();
    assert_eq!(answer.status().as_u16(), 303, "no session: to the login page");
    assert_eq!(answer.headers().get("location").unwrap(), "/login");
}

/// Malformed requests are answered with a 4xx, never a crash.
fn malformed_requests_are_refused(url: &str, admin: &str) {
    for (method, path, body) in [
        ("POST", "/api/entrants", Some(&b"{not json"[..])),
        ("POST", "/api/entrants", Some(&b"{\"name\": \"../../etc\"}"[..])),
        ("GET", "/api/submissions/not-a-number", None),
        ("GET", "/runs/1/..%2f..%2fpitboss.db/results.json", None),
        ("GET", "/runs/1/league-1/pitboss.db", None),
        ("POST", "/login", Some(&b"\xff\xfe"[..])),
    ] {
        let (status, body) = call(method, &format!("{url}{path}"), Some(admin), body);
        assert!((400..500).contains(&status), "{method} {path}: {status} {body}");
    }
    let (status, _) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    assert_eq!(status, 200, "still serving");
}

/// Downloads run `id`'s bundle as the organiser and unpacks it in `to`.
pub fn unpack_bundle(url: &str, admin: &str, id: i64, to: &Path) {
    let mut answer = agent()
        .get(&format!("{url}/api/runs/{id}/bundle.tar"))
        .header("Authorization", &format!("Bearer {admin}"))
        .call()
        .unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    let tar = answer.body_mut().with_config().limit(64 << 20).read_to_vec().unwrap();
    std::fs::create_dir_all(to).unwrap();
    std::fs::write(to.join("run.tar"), tar).unwrap();
    assert!(Command::new("tar").args(["-xf", "run.tar"]).current_dir(to).status().unwrap().success());
}

/// The organiser downloads the run's bundle; `pitboss verify` re-runs it
/// from another folder, byte for byte.
fn bundle_verifies(url: &str, admin: &str, id: i64, dir: &Path) {
    let elsewhere = dir.join("elsewhere");
    unpack_bundle(url, admin, id, &elsewhere);
    let results = format!("run-{id}/league-1/results.json");
    assert!(elsewhere.join(format!("run-{id}/league-1/report.html")).is_file());
    let ran = pitboss(&elsewhere, &["verify", &results]);
    assert_eq!(ran.code, Some(0), "{}{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("identical, byte for byte"), "{}", ran.stdout);
}

#[test]
fn a_server_killed_mid_run_redoes_the_run_and_loses_nothing() {
    let dir = scratch("crash");
    let comp = competition(&dir, &["alice", "bob"], 400_000, 10);
    let data = dir.join("data");
    let server = Server::start(&comp, &data);
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let (s1, _) = call("POST", &format!("{url}/api/submissions"), Some(&alice), Some(&bytes("basic")));
    let (s2, _) = call("POST", &format!("{url}/api/submissions"), Some(&bob), Some(&bytes("hilo")));
    let (s3, _) = call("POST", &format!("{url}/api/submissions"), Some(&bob), Some(b"junk"));
    assert_eq!((s1, s2, s3), (201, 201, 422));
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let id = run["run"].as_i64().unwrap();
    wait_for_run(&url, id, "running", 60);
    std::thread::sleep(Duration::from_millis(300));
    server.kill9();

    let server = Server::start(&comp, &data);
    assert!(server.printed.iter().all(|l| !l.contains("token")), "no token is printed twice: {:?}", server.printed);
    let url = server.url.clone();
    wait_for_run(&url, id, "done", 600);
    let (_, bobs) = call("GET", &format!("{url}/api/submissions"), Some(&bob), None);
    let outcomes: Vec<&str> = bobs.as_array().unwrap().iter().map(|s| s["outcome"].as_str().unwrap()).collect();
    assert_eq!(outcomes, ["refused", "passed"], "every upload and verdict kept: {bobs}");
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    assert_eq!(board["latest"]["run"], json!(id), "{board}");
    assert_eq!(board["latest"]["leagues"][0]["rows"].as_array().unwrap().len(), 2);
}

#[test]
#[ignore = "needs chromium"]
fn an_entrant_logs_in_uploads_through_the_form_and_sees_the_leaderboard_in_chromium() {
    use pitboss_tests::webdriver::Browser;
    pitboss_tests::webdriver::require();
    let dir = scratch("browser");
    let comp = competition(&dir, &["alice", "bob"], 2_000, 10);
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let (status, _) = call("POST", &format!("{url}/api/submissions"), Some(&server.token("bob")), Some(&bytes("hilo")));
    assert_eq!(status, 201);

    let browser = Browser::start(1100, 900).unwrap();
    browser.goto(&format!("{url}/login")).unwrap();
    browser.type_into("#token", &server.token("alice")).unwrap();
    browser.click("#login").unwrap();
    wait_for(&browser, "h1", "alice");
    let bot = wasm_path("basic").canonicalize().unwrap();
    browser.type_into("#bot", &bot.display().to_string()).unwrap();
    browser.click("#send").unwrap();
    wait_for(&browser, ".submission", "basic.wasm");
    let verdict = browser.text(".submission.passed .verdict").unwrap();
    assert!(verdict.starts_with("OK"), "{verdict}");
    assert!(browser.text(".submission.passed").unwrap().contains("ACTIVE"));
    let artifacts = pitboss_tests::artifacts();
    std::fs::write(artifacts.join("server-entrant.png"), browser.screenshot().unwrap()).unwrap();

    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    wait_for_run(&url, run["run"].as_i64().unwrap(), "done", 300);
    // 390 px for real: a headless window stops at 500 px.
    browser.phone_width(390, 844).unwrap();
    browser.goto(&format!("{url}/")).unwrap();
    let standings = browser.text("table.standings").unwrap();
    assert!(standings.contains("alice") && standings.contains("bob"), "{standings}");
    let wide = browser.script("return document.documentElement.scrollWidth <= window.innerWidth + 1").unwrap();
    assert_eq!(wide, json!(true), "the leaderboard fits a phone's width");
    // The luck-adjusted column is a compact cell on a phone: its interval
    // wraps under the figure.
    let luck = browser.script("return document.querySelector('table.standings th.luck').offsetWidth").unwrap();
    assert!(luck.as_u64().is_some_and(|w| w <= 80), "the luck-adjusted column is {luck} px wide at 390 px");
    std::fs::write(artifacts.join("server-leaderboard-phone.png"), browser.screenshot().unwrap()).unwrap();
    browser.goto(&format!("{url}/me")).unwrap();
    wait_for(&browser, ".banner", "by final chips");
    let wide = browser.script("return document.documentElement.scrollWidth <= window.innerWidth + 1").unwrap();
    assert_eq!(wide, json!(true), "an entrant's page, status banner and verdicts fit a phone's width");
    std::fs::write(artifacts.join("server-entrant-phone.png"), browser.screenshot().unwrap()).unwrap();
}

/// Waits up to 20 s for the first `css` element to contain `text` (a
/// click may return before the page it submits has loaded).
pub fn wait_for(browser: &pitboss_tests::webdriver::Browser, css: &str, text: &str) {
    let start = Instant::now();
    loop {
        if browser.text(css).is_ok_and(|t| t.contains(text)) {
            return;
        }
        let at = browser.script("return location.href + ' ' + document.body.innerText").unwrap_or_default();
        assert!(start.elapsed() < Duration::from_secs(20), "no `{text}` in `{css}`: {at}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A bot that logs `text` at every decision, bets the minimum and stands.
pub fn logging_bot(text: &str) -> Vec<u8> {
    let data: String = text.bytes().map(|b| format!("\\{b:02x}")).collect();
    let wat = format!(
        r#"(module
  (import "pitboss" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 8192) "{data}")
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (call $log (i32.const 8192) (i32.const {len}))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))"#,
        len = text.len()
    );
    wat::parse_str(wat).expect("the logging bot assembles")
}

/// A browser session's cookie for `token` (`name=value`).
pub fn login(url: &str, token: &str) -> String {
    let (form_cookie, csrf) = login_form(url);
    let answer = agent()
        .post(&format!("{url}/login"))
        .header("Cookie", &form_cookie)
        .send_form([("token", token), ("csrf", &csrf)])
        .unwrap();
    assert_eq!(answer.status().as_u16(), 303);
    let cookie = answer.headers().get("set-cookie").unwrap().to_str().unwrap();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    cookie.split(';').next().unwrap().to_string()
}

/// The login form's cookie (`name=value`) and the CSRF token in the form.
pub fn login_form(url: &str) -> (String, String) {
    let mut page = agent().get(&format!("{url}/login")).call().unwrap();
    let cookie = page.headers().get("set-cookie").unwrap().to_str().unwrap().split(';').next().unwrap().to_string();
    let html = page.body_mut().read_to_string().unwrap();
    let csrf = html.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().to_string();
    (cookie, csrf)
}

/// The HTML of `path` for a browser session.
pub fn html(url: &str, cookie: &str, path: &str) -> String {
    let mut page = agent().get(&format!("{url}{path}")).header("Cookie", cookie).call().unwrap();
    assert_eq!(page.status().as_u16(), 200);
    page.body_mut().read_to_string().unwrap()
}

#[test]
fn an_entrant_sees_their_own_bots_log_lines_from_the_latest_run_and_nobody_else_does() {
    let dir = scratch("logs");
    let comp = competition(&dir, &["alice", "bob"], 300, 10);
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let said = "alice thinks <b>hit</b> & stands";
    let (status, verdict) = call("POST", &format!("{url}/api/submissions"), Some(&alice), Some(&logging_bot(said)));
    assert_eq!(status, 201, "{verdict}");
    let (status, _) = call("POST", &format!("{url}/api/submissions"), Some(&bob), Some(&bytes("basic")));
    assert_eq!(status, 201);
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    wait_for_run(&url, run["run"].as_i64().unwrap(), "done", 300);

    // The API: alice's lines, capped, each placed in its session and round.
    let (_, me) = call("GET", &format!("{url}/api/me"), Some(&alice), None);
    let logs = &me["logs"][0];
    assert_eq!(logs["league"], "Main", "{me}");
    let first = logs["first"].as_array().unwrap();
    assert!(logs["total"].as_u64().unwrap() > 20, "every decision logs: {me}");
    assert_eq!(first.len(), 20, "at most 20 lines a league: {me}");
    assert!(first.iter().all(|l| l["text"] == said && l["round"].as_u64().unwrap() >= 1), "{me}");
    let (_, theirs) = call("GET", &format!("{url}/api/me"), Some(&bob), None);
    assert_eq!(theirs["logs"][0]["total"], 0, "bob's bot logs nothing and he sees none of alice's: {theirs}");
    assert!(!theirs.to_string().contains("alice thinks"), "{theirs}");

    // The page: escaped, and only on alice's.
    let page = html(&url, &login(&url, &alice), "/me");
    assert!(page.contains("alice thinks &lt;b&gt;hit&lt;/b&gt; &amp; stands"), "escaped on alice's page: {page}");
    assert!(!page.contains("<b>hit"), "never as markup");
    let page = html(&url, &login(&url, &bob), "/me");
    assert!(!page.contains("alice thinks") && page.contains("None in the stored hands."), "{page}");
}

#[test]
fn the_leaderboard_shows_luck_adjusted_evs_where_the_league_measures_them() {
    let dir = scratch("luck");
    let comp = competition(&dir, &["alice", "bob"], 300, 10);
    // A second league with `luck = false`: its table has no such column.
    let text = std::fs::read_to_string(&comp).unwrap()
        + "[[league]]\nname = \"Plain\"\nvariant = \"north-american\"\nrounds = 300\nsessions = 2\nseed = 6\n\
           bankroll = 1000000\nluck = false\n";
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    for (who, bot) in [("alice", "basic"), ("bob", "hilo")] {
        let (status, verdict) =
            call("POST", &format!("{url}/api/submissions"), Some(&server.token(who)), Some(&bytes(bot)));
        assert_eq!(status, 201, "{verdict}");
    }
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    wait_for_run(&url, run["run"].as_i64().unwrap(), "done", 300);

    // The JSON: each row of the league with luck carries the figure and
    // its interval, and the league what stays uncorrected; the other none.
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    let (main, plain) = (&board["latest"]["leagues"][0], &board["latest"]["leagues"][1]);
    assert_eq!((main["name"].as_str(), plain["name"].as_str()), (Some("Main"), Some("Plain")), "{board}");
    let rows = main["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{board}");
    assert!(
        rows.iter().all(|r| r["luck_ev_pct"].is_f64() && r["luck_ci95_pct"].as_f64().is_some_and(|c| c > 0.0)),
        "{board}"
    );
    assert!(main["luck_uncorrected"].as_array().is_some_and(|p| !p.is_empty()), "{board}");
    let plain_rows = plain["rows"].as_array().unwrap();
    assert!(plain_rows.iter().all(|r| r.get("luck_ev_pct").is_none() && r.get("luck_ci95_pct").is_none()), "{board}");
    assert!(plain.get("luck_uncorrected").is_none(), "{board}");

    // The page: the column beside the EV in Main's table only, each cell
    // the JSON's figure ± interval, and the note under it.
    let page = html(&url, &login(&url, &server.token("alice")), "/");
    let (main_page, plain_page) = page.split_once("<h2>Plain</h2>").expect("the second league's table");
    assert_eq!(main_page.matches("<th class=\"luck\"").count(), 1, "{page}");
    assert!(main_page.contains("title=\"Luck-adjusted EV: the chips less the luck"), "{page}");
    for r in rows {
        let ev = format!("{:+.2} ±\u{a0}{:.2}</td>", r["ev_pct"].as_f64().unwrap(), r["ev_ci95_pct"].as_f64().unwrap());
        let luck =
            format!("{:+.2} ±\u{a0}{:.2}", r["luck_ev_pct"].as_f64().unwrap(), r["luck_ci95_pct"].as_f64().unwrap());
        let cell = format!("{ev}<td class=\"num luck\">{luck}</td>");
        assert!(main_page.contains(&cell), "{cell} in {page}");
    }
    assert!(main_page.contains("Not corrected (their luck stays in):"), "{page}");
    let plain_table = &plain_page[..plain_page.find("</table>").unwrap()];
    assert!(!plain_table.contains("luck") && !plain_page.contains("Not corrected"), "{page}");

    // The CSV: the two fields at the end of each row, empty in Plain's.
    let mut csv = agent().get(&format!("{url}/api/leaderboard.csv")).call().unwrap();
    let csv = csv.body_mut().read_to_string().unwrap();
    assert!(
        csv.starts_with("run,league,rank,entrant,status,net,ev_pct,ev_ci95_pct,faults,luck_ev_pct,luck_ci95_pct\n")
    );
    for r in rows {
        let end = format!(",{:.4},{:.4}", r["luck_ev_pct"].as_f64().unwrap(), r["luck_ci95_pct"].as_f64().unwrap());
        assert!(csv.lines().any(|l| l.contains(",Main,") && l.ends_with(&end)), "{end} in {csv}");
    }
    assert!(csv.lines().filter(|l| l.contains(",Plain,")).all(|l| l.ends_with(",,")), "{csv}");
    // `pitboss standings --server`: the figure on Main's rows only.
    let ran = pitboss(&dir, &["standings", "--server", &url]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let (main_out, plain_out) = ran.stdout.split_once("Plain (").expect("both leagues");
    let luck = format!(
        "luck-adjusted {:+.2} ± {:.2}",
        rows[0]["luck_ev_pct"].as_f64().unwrap(),
        rows[0]["luck_ci95_pct"].as_f64().unwrap()
    );
    assert!(main_out.contains(&luck) && !plain_out.contains("luck-adjusted"), "{luck} in {}", ran.stdout);
}

#[test]
fn an_upload_whose_decision_key_is_not_true_fails_its_check_with_the_request_and_both_answers() {
    let dir = scratch("keys");
    let comp = competition(&dir, &["alice"], 1_000, 10);
    let server = Server::start(&comp, &dir.join("data"));
    let (url, alice) = (server.url.clone(), server.token("alice"));
    // Declares one answer to every act, then answers hit once and stand
    // after: a league would play it keyed, hitting every hand.
    let wat = std::fs::read_to_string(concat!(tests_dir!(), "/bots/keyed.wat")).unwrap();
    let body = wat::parse_str(&wat).unwrap();
    let (status, bad) = call("POST", &format!("{url}/api/submissions?name=keyed.wasm"), Some(&alice), Some(&body));
    assert_eq!((status, bad["outcome"].as_str()), (422, Some("failed")), "{bad}");
    let verdict = bad["verdict"].as_str().unwrap();
    assert!(verdict.starts_with("FAIL"), "{bad}");
    assert!(verdict.contains("its act key (no part: one answer to every request) is not true: in round "), "{bad}");
    assert!(verdict.contains(" it answered stand (hand ") && verdict.contains("answered hit to the same key"), "{bad}");
    assert!(bad["report"].as_str().unwrap().contains("key the act by every part of the request it reads"), "{bad}");
    // hilo keys its acts and insurance by its true count, truly: it passes.
    let (status, good) =
        call("POST", &format!("{url}/api/submissions?name=hilo.wasm"), Some(&alice), Some(&bytes("hilo")));
    assert_eq!((status, good["outcome"].as_str()), (201, Some("passed")), "{good}");
}
