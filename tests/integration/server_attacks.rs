//! `pitboss serve` tried as an attacker would, on loopback, each attack
//! bounded in sockets and seconds: idle and slow-header sockets, bodies
//! sent before auth, a flood of uploads, registrations and guessed
//! tokens, private logs in public files, a debounce put off for ever,
//! raced hourly limits, and what a kill leaves behind.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::server::{Server, agent, bytes, call, competition, logging_bot, login, scratch, wait_for_run};

/// A competition file as [`competition`] writes it, with `extra` TOML
/// added (tables after the league, keys before it via `top`).
fn competition_with(dir: &Path, entrants: &[&str], rounds: u64, top: &str, extra: &str) -> std::path::PathBuf {
    let path = competition(dir, entrants, rounds, 10);
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replacen("[uploads]", &format!("{top}[uploads]"), 1);
    std::fs::write(&path, format!("{text}{extra}")).unwrap();
    path
}

fn connect(url: &str) -> TcpStream {
    let stream = TcpStream::connect(url.trim_start_matches("http://")).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    stream
}

/// Reads until the server closes `stream` or `secs` pass; what it sent,
/// and whether it closed.
fn read_until_closed(stream: &mut TcpStream, secs: u64) -> (String, bool) {
    stream.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while Instant::now() < deadline {
        match stream.read(&mut buf) {
            Ok(0) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), true),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), false)
}

#[test]
fn idle_and_slow_header_sockets_are_closed_and_past_the_cap_turned_away() {
    let dir = scratch("sockets");
    let comp = competition_with(&dir, &["alice"], 300, "", "[server]\nmax_connections = 41\nheader_timeout_secs = 2\n");
    let server = Server::start(&comp, &dir.join("data"));
    let url = server.url.clone();
    let start = Instant::now();
    let mut idle: Vec<TcpStream> = (0..40).map(|_| connect(&url)).collect();
    // A slow sender, the 41st: a header line every 300 ms never finishes
    // its head.
    let mut slow = connect(&url);
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    let slow_closed = std::thread::spawn(move || {
        let t = Instant::now();
        for i in 0..40 {
            std::thread::sleep(Duration::from_millis(300));
            if slow.write_all(format!("X-Slow-{i}: y\r\n").as_bytes()).is_err() {
                return t.elapsed();
            }
        }
        t.elapsed()
    });
    // The 42nd to 61st: answered 503 with Retry-After at once, and closed.
    for _ in 0..20 {
        let (said, closed) = read_until_closed(&mut connect(&url), 5);
        assert!(said.starts_with("HTTP/1.1 503") && said.contains("Retry-After"), "{said}");
        assert!(closed, "a connection past the cap is closed");
    }
    for socket in &mut idle {
        let (said, closed) = read_until_closed(socket, 8);
        assert!(closed, "an idle socket is closed after header_timeout_secs (2 s), sent {said:?}");
    }
    let held = start.elapsed();
    assert!(held < Duration::from_secs(10), "idle sockets held {held:?}");
    let slow_held = slow_closed.join().unwrap();
    assert!(
        slow_held > Duration::from_millis(1500) && slow_held < Duration::from_secs(8),
        "a slow-header socket held {slow_held:?} (of 12 s it tried; the timeout is 2 s)"
    );
    // Everyone else gets in again.
    let (status, _) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    assert_eq!(status, 200);
    // An idle keep-alive connection is closed too.
    let mut kept = connect(&url);
    kept.write_all(b"GET /api/runs HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let (said, closed) = read_until_closed(&mut kept, 8);
    assert!(said.starts_with("HTTP/1.1 200") && closed, "answered, then closed when idle: {said}");
    eprintln!("sockets: 40 idle closed within {held:?}; a slow-header socket within {slow_held:?}");
}

/// Sends an upload's head (and `first` body bytes) and leaves the rest
/// unsent.
fn start_upload(url: &str, token: Option<&str>, length: usize, first: usize) -> TcpStream {
    let mut stream = connect(url);
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let head = format!("POST /api/submissions HTTP/1.1\r\nHost: x\r\n{auth}Content-Length: {length}\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(&vec![0u8; first]).unwrap();
    stream
}

/// The status line and `Retry-After` of an answer read from `stream`.
fn answer(stream: &mut TcpStream, secs: u64) -> String {
    let (said, _) = read_until_closed(stream, secs);
    said.lines().take_while(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
}

#[test]
fn bodies_wait_for_auth_and_uploads_are_bounded_per_entrant_and_in_all() {
    let dir = scratch("bodies");
    let comp = competition_with(&dir, &["alice", "bob", "carol"], 300, "", "[server]\nuploads_at_once = 2\n");
    let server = Server::start(&comp, &dir.join("data"));
    let url = server.url.clone();
    let (alice, bob, carol) = (server.token("alice"), server.token("bob"), server.token("carol"));

    // No token: 401 from the head alone, the 1 MiB body never sent; 2 MiB,
    // over any upload's limit: 413 or 401, the body never read either.
    let t = Instant::now();
    let head = answer(&mut start_upload(&url, None, 1 << 20, 0), 5);
    assert!(head.starts_with("HTTP/1.1 401"), "{head}");
    let head = answer(&mut start_upload(&url, Some("pbe_guess"), 1 << 20, 0), 5);
    assert!(head.starts_with("HTTP/1.1 401"), "{head}");
    let head = answer(&mut start_upload(&url, None, 2 << 20, 0), 5);
    assert!(head.starts_with("HTTP/1.1 413") || head.starts_with("HTTP/1.1 401"), "{head}");
    // A token but a body over the limit: 413 from Content-Length alone.
    let head = answer(&mut start_upload(&url, Some(&alice), 64 << 20, 0), 5);
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    assert!(t.elapsed() < Duration::from_secs(5), "refused without waiting for bodies");

    // One upload in flight an entrant: the second is 429 with Retry-After.
    let held_alice = start_upload(&url, Some(&alice), 100_000, 10);
    std::thread::sleep(Duration::from_millis(300));
    let refused = agent()
        .post(&format!("{url}/api/submissions"))
        .header("Authorization", &format!("Bearer {alice}"))
        .send(&bytes("basic")[..])
        .unwrap();
    assert_eq!(refused.status().as_u16(), 429);
    assert!(refused.headers().get("retry-after").is_some());
    // Two in all (uploads_at_once = 2): a third entrant's is 503.
    let held_bob = start_upload(&url, Some(&bob), 100_000, 10);
    std::thread::sleep(Duration::from_millis(300));
    let busy = agent()
        .post(&format!("{url}/api/submissions"))
        .header("Authorization", &format!("Bearer {carol}"))
        .send(&bytes("basic")[..])
        .unwrap();
    assert_eq!(busy.status().as_u16(), 503);
    assert!(busy.headers().get("retry-after").is_some());
    // Abandoned uploads free their slots.
    drop((held_alice, held_bob));
    let start = Instant::now();
    loop {
        let (status, verdict) = call("POST", &format!("{url}/api/submissions"), Some(&carol), Some(&bytes("basic")));
        if status == 201 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "slots never freed: {status} {verdict}");
        std::thread::sleep(Duration::from_millis(200));
    }
    // Nothing was recorded for the abandoned or refused uploads.
    let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(&alice), None);
    assert_eq!(subs.as_array().unwrap().len(), 0, "{subs}");
}

#[test]
fn public_files_hold_no_log_lines_and_every_answer_has_security_headers() {
    let dir = scratch("public");
    let comp = competition(&dir, &["alice", "bob"], 300, 10);
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let secret = "alice's secret: count \u{1b}[2J then hit";
    let (status, _) =
        call("POST", &format!("{url}/api/submissions"), Some(&server.token("alice")), Some(&logging_bot(secret)));
    assert_eq!(status, 201);
    let (status, _) =
        call("POST", &format!("{url}/api/submissions"), Some(&server.token("bob")), Some(&bytes("basic")));
    assert_eq!(status, 201);
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let id = run["run"].as_i64().unwrap();
    wait_for_run(&url, id, "done", 300);

    let fetch = |path: &str, token: Option<&str>| {
        let mut request = agent().get(&format!("{url}{path}"));
        if let Some(t) = token {
            request = request.header("Authorization", &format!("Bearer {t}"));
        }
        let mut answer = request.call().unwrap();
        let headers = answer.headers().clone();
        let body = answer.body_mut().with_config().limit(64 << 20).read_to_string().unwrap();
        (answer.status().as_u16(), headers, body)
    };
    for file in ["results.json", "report.html"] {
        let path = format!("/runs/{id}/league-1/{file}");
        let (status, headers, public) = fetch(&path, None);
        assert_eq!(status, 200, "{path}");
        assert!(!public.contains("alice's secret"), "an anonymous reader sees a bot's log lines in {file}");
        let (_, _, own) = fetch(&path, Some(&admin));
        assert!(own.contains("alice's secret"), "the organiser's {file} keeps them");
        if file == "report.html" {
            let csp = headers.get("content-security-policy").unwrap().to_str().unwrap();
            assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'unsafe-inline'"), "{csp}");
        }
    }
    let public: Value = serde_json::from_str(&fetch(&format!("/runs/{id}/league-1/results.json"), None).2).unwrap();
    assert_eq!(public["standings"].as_array().map(Vec::len), Some(2), "standings stay public");
    assert!(!public.to_string().contains(r#""event":"log""#), "no log event in the public results");

    for path in ["/", "/login", "/api/leaderboard", "/api/runs"] {
        let (_, headers, _) = fetch(path, None);
        let header = |name: &str| headers.get(name).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        assert_eq!(header("x-frame-options"), "DENY", "{path}");
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
        assert!(header("content-security-policy").contains("frame-ancestors 'none'"), "{path}");
    }
    // Control characters from a bot's log reach pages escaped.
    let page = crate::server::html(&url, &login(&url, &server.token("alice")), "/me");
    assert!(!page.contains('\u{1b}') && page.contains("\\u{1b}[2J"), "the escape byte is shown escaped");
}

#[test]
fn a_registration_flood_meets_the_cap_and_guessing_meets_429() {
    let dir = scratch("flood");
    let server_conf = "[server]\nregistrations_per_hour = 3\nlogins_per_minute = 4\nbad_tokens_per_minute = 4\n";
    let comp = competition_with(&dir, &["alice"], 300, "", server_conf);
    let text = std::fs::read_to_string(&comp)
        .unwrap()
        .replace("[entrants]\n", "[entrants]\ninvite_code = \"c0de-2026\"\nmax = 3\n");
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin, alice) = (server.url.clone(), server.token("admin"), server.token("alice"));
    let register = |name: &str| {
        let body = format!(r#"{{"name":"{name}","invite_code":"c0de-2026"}}"#);
        call("POST", &format!("{url}/api/register"), None, Some(body.as_bytes()))
    };
    assert_eq!(register("r1").0, 201);
    assert_eq!(register("r2").0, 201);
    let (status, full) = register("r3");
    assert_eq!(status, 403, "the cap ([entrants] max = 3): {full}");
    assert!(full["error"].as_str().unwrap().contains("most entrants"), "{full}");
    let flood = agent()
        .post(&format!("{url}/api/register"))
        .header("Content-Type", "application/json")
        .send(&br#"{"name":"r4","invite_code":"c0de-2026"}"#[..])
        .unwrap();
    assert_eq!(flood.status().as_u16(), 429, "a 4th registration within the hour from one address");
    assert!(flood.headers().get("retry-after").is_some());
    let (status, _) = call("POST", &format!("{url}/api/entrants"), Some(&admin), Some(br#"{"name":"r5"}"#));
    assert_eq!(status, 403, "the organiser meets the cap too");

    // The organiser disables, re-enables, gives a new token, removes.
    let entrant =
        |name: &str, what: &str| call("POST", &format!("{url}/api/entrants/{name}/{what}"), Some(&admin), None);
    assert_eq!(entrant("ALICE", "disable").0, 200, "names are found whatever their letter case");
    assert_eq!(call("GET", &format!("{url}/api/me"), Some(&alice), None).0, 403, "a disabled entrant's token");
    assert_eq!(entrant("alice", "enable").0, 200);
    assert_eq!(call("GET", &format!("{url}/api/me"), Some(&alice), None).0, 200);
    let (_, rotated) = entrant("alice", "token");
    let new = rotated["token"].as_str().unwrap().to_string();
    assert_eq!(call("GET", &format!("{url}/api/me"), Some(&new), None).0, 200);
    let (status, list) = call("GET", &format!("{url}/api/entrants"), Some(&admin), None);
    assert_eq!((status, list.as_array().map(Vec::len)), (200, Some(3)), "{list}");
    let removed = agent()
        .delete(&format!("{url}/api/entrants/r2"))
        .header("Authorization", &format!("Bearer {admin}"))
        .call()
        .unwrap();
    assert_eq!(removed.status().as_u16(), 200);
    let (status, _) = call("POST", &format!("{url}/api/entrants"), Some(&admin), Some(br#"{"name":"r5"}"#));
    assert_eq!(status, 201, "a place freed");

    // Logins: 4 a minute from one address.
    let statuses: Vec<u16> = (0..5)
        .map(|_| {
            agent().post(&format!("{url}/login")).send_form([("token", "x"), ("csrf", "y")]).unwrap().status().as_u16()
        })
        .collect();
    assert_eq!(statuses, [403, 403, 403, 403, 429], "the 5th login attempt in a minute");
    // Guessed tokens: the old one now counts as a guess.
    let guesses: Vec<u16> = (0..5)
        .map(|i| call("GET", &format!("{url}/api/me"), Some(if i == 0 { &alice } else { "pbe_guess" }), None).0)
        .collect();
    assert_eq!(guesses, [401, 401, 401, 401, 429], "the 5th wrong token in a minute");
    let (status, _) = call("GET", &format!("{url}/api/me"), Some(&new), None);
    assert_eq!(status, 200, "a right token is let in whatever its address guessed");
}

/// `(status, body)` of `GET path` with a `Cookie` header.
fn get_with_cookie(url: &str, path: &str, cookie: &str) -> (u16, String) {
    let mut answer = agent().get(&format!("{url}{path}")).header("Cookie", cookie).call().unwrap();
    (answer.status().as_u16(), answer.body_mut().read_to_string().unwrap_or_default())
}

#[test]
fn wrong_tokens_never_lock_out_right_ones_and_stale_cookies_are_no_guesses() {
    let dir = scratch("lockout");
    let comp = competition_with(&dir, &["alice", "bob"], 300, "", "[server]\nbad_tokens_per_minute = 3\n");
    let server = Server::start(&comp, &dir.join("data"));
    let (url, alice, bob) = (server.url.clone(), server.token("alice"), server.token("bob"));
    let me = |token: &str| call("GET", &format!("{url}/api/me"), Some(token), None).0;

    // A stale session cookie (logged out) sent again and again is no
    // guess: the page is shown as to anyone, never 429.
    let cookie = login(&url, &bob);
    let (_, page) = get_with_cookie(&url, "/me", &cookie);
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().to_string();
    let out = agent().post(&format!("{url}/logout")).header("Cookie", &cookie).send_form([("csrf", csrf.as_str())]);
    assert_eq!(out.unwrap().status().as_u16(), 303);
    for _ in 0..10 {
        let (status, page) = get_with_cookie(&url, "/", &cookie);
        assert_eq!(status, 200, "a stale cookie shows the page as to anyone: {page}");
        assert_eq!(get_with_cookie(&url, "/me", &cookie).0, 303, "and /me sends to the login");
    }
    assert_eq!(me("pbe_wrong"), 401, "ten stale cookies counted as no guess");

    // A flood of wrong tokens from the address: its guesses meet 429...
    let guesses: Vec<u16> = (0..10).map(|_| me("pbe_wrong")).collect();
    assert_eq!(guesses.iter().filter(|&&s| s == 429).count(), 8, "{guesses:?}");
    // ...but a right token from the same address is let in, by the API,
    // by the login form and by its session cookie.
    assert_eq!(me(&alice), 200, "a right token after the flood");
    let cookie = login(&url, &alice);
    let (status, page) = get_with_cookie(&url, "/me", &cookie);
    assert_eq!(status, 200, "a right session after the flood: {page}");
    assert!(page.contains("alice"), "{page}");
    let (status, upload) = call("POST", &format!("{url}/api/submissions"), Some(&alice), Some(&bytes("basic")));
    assert_eq!(status, 201, "an upload with a right token after the flood: {upload}");
    assert_eq!(me("pbe_wrong"), 429, "while wrong tokens are still refused");
}

#[test]
fn a_stream_of_changes_cannot_put_off_the_run_and_refusals_are_capped() {
    let dir = scratch("debounce");
    let comp = competition_with(&dir, &["alice", "bob"], 300, "", "[server]\nrefused_per_hour = 3\n");
    let text = std::fs::read_to_string(&comp).unwrap().replace("[uploads]", "[runs]\ndebounce_secs = 3\n[uploads]");
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, alice) = (server.url.clone(), server.token("alice"));
    let upload = |token: &str, body: &[u8]| call("POST", &format!("{url}/api/submissions"), Some(token), Some(body));
    let first = upload(&alice, &bytes("basic")).1["id"].as_i64().unwrap();
    let second = upload(&alice, &bytes("hilo")).1["id"].as_i64().unwrap();
    assert_eq!(upload(&server.token("bob"), &bytes("basic")).0, 201);
    // Re-activating every 500 ms for 8 s: a run is queued 3 s after the
    // first change, not put off.
    let start = Instant::now();
    let mut queued_after = None;
    while start.elapsed() < Duration::from_secs(8) {
        for id in [first, second] {
            let (status, _) = call("POST", &format!("{url}/api/submissions/{id}/activate"), Some(&alice), None);
            assert_eq!(status, 200);
            std::thread::sleep(Duration::from_millis(250));
        }
        let (_, runs) = call("GET", &format!("{url}/api/runs"), None, None);
        if queued_after.is_none() && !runs.as_array().unwrap().is_empty() {
            queued_after = Some(start.elapsed());
        }
    }
    let queued_after = queued_after.expect("a run was queued while the changes went on");
    assert!(queued_after < Duration::from_secs(6), "queued {queued_after:?} after the first change");

    // Refusals: 3 an hour are recorded, then 429, nothing recorded.
    let statuses: Vec<u16> = (0..5).map(|_| upload(&alice, b"not wasm at all").0).collect();
    assert_eq!(statuses, [422, 422, 422, 429, 429]);
    let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(&alice), None);
    let refused = subs.as_array().unwrap().iter().filter(|s| s["outcome"] == "refused").count();
    assert_eq!(refused, 3, "{subs}");
}

#[test]
fn uploads_at_once_cannot_race_the_hourly_limit() {
    let dir = scratch("race");
    let comp = competition(&dir, &["alice"], 300, 2);
    let server = Server::start(&comp, &dir.join("data"));
    let (url, alice) = (server.url.clone(), server.token("alice"));
    let bots = ["basic", "hilo", "random", "never_bust", "mimic_dealer", "template"];
    let racers: Vec<_> = bots
        .iter()
        .map(|bot| {
            let (url, token, body) = (url.clone(), alice.clone(), bytes(bot));
            std::thread::spawn(move || call("POST", &format!("{url}/api/submissions"), Some(&token), Some(&body)).0)
        })
        .collect();
    let statuses: Vec<u16> = racers.into_iter().map(|r| r.join().unwrap()).collect();
    assert!(statuses.iter().all(|s| [201, 422, 429].contains(s)), "{statuses:?}");
    let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(&alice), None);
    let checked = subs.as_array().unwrap().iter().filter(|s| s["outcome"] != "refused").count();
    assert!(checked <= 2, "per_hour = 2 let {checked} through: {subs}");
}

#[test]
fn the_data_folder_is_private_and_a_restart_clears_what_a_kill_left() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = scratch("private");
    let comp = competition(&dir, &["alice"], 300, 10);
    let data = dir.join("data");
    let server = Server::start(&comp, &data);
    let (url, alice, admin) = (server.url.clone(), server.token("alice"), server.token("admin"));
    let (_, good) = call("POST", &format!("{url}/api/submissions"), Some(&alice), Some(&bytes("basic")));
    let (status, _) = call("POST", &format!("{url}/api/submissions"), Some(&alice), Some(b"\0asm\x01\0\0\0"));
    assert_eq!(status, 422);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&data), 0o700);
    assert_eq!(mode(&data.join("pitboss.db")), 0o600);
    let modules: Vec<_> = std::fs::read_dir(data.join("modules")).unwrap().map(|e| e.unwrap().path()).collect();
    let kept = format!("{}.wasm", good["sha256"].as_str().unwrap());
    assert_eq!(modules.len(), 1, "the failed module is not kept: {modules:?}");
    assert!(modules[0].ends_with(&kept) && mode(&modules[0]) == 0o600, "{modules:?}");

    // A run that fails shows no server path to the public.
    std::fs::write(&modules[0], b"\0asm\x01\0\0\0 broken on disk").unwrap();
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let id = run["run"].as_i64().unwrap();
    let start = Instant::now();
    let error = loop {
        let (_, runs) = call("GET", &format!("{url}/api/runs"), None, None);
        let this = runs.as_array().unwrap().iter().find(|r| r["id"] == id).cloned().unwrap();
        if this["state"] == "failed" {
            break this["error"].as_str().unwrap().to_string();
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{runs}");
        std::thread::sleep(Duration::from_millis(100));
    };
    let root = data.canonicalize().unwrap().display().to_string();
    assert!(!error.contains(&root) && !error.contains(&data.display().to_string()), "{error}");
    assert!(!data.join("runs").join(id.to_string()).exists(), "a failed run leaves no folder");
    server.kill9();

    // What a kill mid-check or mid-import leaves: gone at the next start.
    std::fs::write(data.join("modules").join(format!("{}.wasm", "ab".repeat(32))), b"orphan").unwrap();
    std::fs::write(data.join("modules").join(".tmp-upload-1"), b"half").unwrap();
    std::fs::create_dir_all(data.join("runs/.import-1-2/league-1")).unwrap();
    std::fs::create_dir_all(data.join("runs/99/league-1")).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    let server = Server::start(&comp, &data);
    let left: Vec<_> = std::fs::read_dir(data.join("modules")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, [std::ffi::OsString::from(&kept)], "only the passed module is kept");
    assert!(!data.join("runs/.import-1-2").exists() && !data.join("runs/99").exists());
    assert_eq!(mode(&data), 0o700, "an older, open folder is made private");
    drop(server);
}

#[test]
fn pitboss_standings_shows_a_hostile_servers_names_escaped() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let body = serde_json::json!({
        "competition": "Cup\u{1b}[2J",
        "latest": {"run": 1, "leagues": [{"name": "Main\u{1b}]0;title\u{7}", "variant": "x", "rows": [
            {"rank": 1, "name": "evil\u{1b}[31mred", "status": "", "ev_pct": 1.0, "ev_ci95_pct": 0.5, "mark": "", "faults": 0}
        ]}], "overall": []}
    })
    .to_string();
    let served = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut buf = [0u8; 4096];
        let _ = stream.read(&mut buf);
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
    });
    let dir = scratch("hostile-standings");
    let ran = pitboss_tests::pitboss(&dir, &["standings", "--server", &url]);
    served.join().unwrap();
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(!ran.stdout.contains('\u{1b}') && !ran.stdout.contains('\u{7}'), "{:?}", ran.stdout);
    assert!(ran.stdout.contains("evil\\u{1b}[31mred"), "{}", ran.stdout);
}
