//! Scrimmages: an entrant's bot against opponents who allow it and
//! built-in bots, on a league's rules, queued behind the official runs,
//! bounded and fair, with results, report and replays for its entrant
//! alone (other bots' logs withheld).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::server::{Server, agent, call, competition, html, logging_bot, login, scratch, wait_for_run};

fn post_json(url: &str, token: &str, body: &Value) -> (u16, Value) {
    call("POST", url, Some(token), Some(body.to_string().as_bytes()))
}

/// Waits until `token`'s scrimmage `id` has finished; returns it.
fn wait_done(url: &str, token: &str, id: i64) -> Value {
    let start = Instant::now();
    loop {
        let (_, list) = call("GET", &format!("{url}/api/scrimmages"), Some(token), None);
        let s = list.as_array().unwrap().iter().find(|s| s["id"] == id).cloned().unwrap();
        if s["state"] == "done" || s["state"] == "failed" {
            return s;
        }
        assert!(start.elapsed() < Duration::from_secs(300), "scrimmage {id} unfinished: {s}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn an_entrant_scrimmages_against_who_allows_it_behind_the_official_runs() {
    let dir = scratch("scrimmage");
    let comp = competition(&dir, &["alice", "bob", "carol"], 12_000, 10);
    let text = std::fs::read_to_string(&comp).unwrap() + "[scrimmages]\nmax_rounds = 3000\nper_hour = 3\n";
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let (alice, bob, carol) = (server.token("alice"), server.token("bob"), server.token("carol"));
    for (token, says) in [(&alice, "alice-thinks"), (&bob, "bob-secret"), (&carol, "carol-says")] {
        let (status, v) = call("POST", &format!("{url}/api/submissions"), Some(token), Some(&logging_bot(says)));
        assert_eq!(status, 201, "{v}");
    }
    let ask = |token: &str, body: Value| post_json(&format!("{url}/api/scrimmages"), token, &body);
    let vs = |opponents: Value| json!({ "league": 1, "rounds": 2000, "opponents": opponents });

    // Only opponents who allow it, and sane requests.
    let (status, why) = ask(&alice, vs(json!(["bob"])));
    assert_eq!(status, 400, "bob has not allowed it: {why}");
    assert!(why["error"].as_str().unwrap().contains("does not allow"), "{why}");
    let (status, _) = post_json(&format!("{url}/api/me/allow-scrimmages"), &bob, &json!({ "allow": true }));
    assert_eq!(status, 200);
    for (body, want) in [
        (json!({ "league": 1, "rounds": 0, "opponents": ["bob"] }), 400),
        (json!({ "league": 1, "rounds": 3001, "opponents": ["bob"] }), 400),
        (json!({ "league": 2, "rounds": 10, "opponents": ["bob"] }), 400),
        (json!({ "league": 1, "rounds": 10, "opponents": [] }), 400),
        (json!({ "league": 1, "rounds": 10, "opponents": ["builtin:nope"] }), 400),
        (json!({ "league": 1, "rounds": 10, "opponents": ["alice"] }), 400),
        (json!({ "league": 1, "rounds": 10, "opponents": ["bob", "BOB"] }), 400),
        (json!({ "league": 1, "rounds": 10, "opponents": vec!["builtin:basic"; 8] }), 400),
        (json!({ "league": 1, "rounds": 10, "opponents": ["bob"], "extra": 1 }), 422),
    ] {
        let (status, why) = ask(&alice, body.clone());
        assert_eq!(status, want, "{body}: {why}");
    }

    // Behind an official run: queued, and one at a time per entrant.
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let (status, queued) = ask(&alice, vs(json!(["BOB", "builtin:random"])));
    assert_eq!(status, 202, "{queued}");
    let id = queued["scrimmage"].as_i64().unwrap();
    let (status, why) = ask(&alice, vs(json!(["builtin:hilo"])));
    assert_eq!(status, 409, "the first is still queued: {why}");
    wait_for_run(&url, run["run"].as_i64().unwrap(), "done", 300);
    let done = wait_done(&url, &alice, id);
    assert_eq!(done["state"], "done", "{done}");
    let names: Vec<&str> = done["standings"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 3, "{done}");
    assert!(names.contains(&"alice") && names.contains(&"bob") && names.contains(&"builtin:random"), "{done}");

    // Its files and rounds: hers, without the others' logs; the organiser's in full.
    let get = |token: &str, path: &str| {
        let mut answer =
            agent().get(&format!("{url}{path}")).header("Authorization", &format!("Bearer {token}")).call().unwrap();
        (answer.status().as_u16(), answer.body_mut().read_to_string().unwrap_or_default())
    };
    let (status, report) = get(&alice, &format!("/scrimmages/{id}/report.html"));
    assert_eq!(status, 200);
    assert!(report.contains("Scrimmage") && !report.contains("bob-secret"), "the public copy");
    assert_eq!(get(&carol, &format!("/scrimmages/{id}/report.html")).0, 404, "not carol's");
    assert!(get(&admin, &format!("/scrimmages/{id}/report.html")).1.contains("bob-secret"), "the organiser's copy");
    let (status, round) =
        call("GET", &format!("{url}/api/scrimmages/{id}/replay?session=0&table=0&round=5"), Some(&alice), None);
    assert_eq!(status, 200, "{round}");
    let transcript = round["transcript"].as_str().unwrap();
    assert!(transcript.contains("alice-thinks") && !transcript.contains("bob-secret"), "{transcript}");
    assert_eq!(round["scrimmage"], id);
    let (status, _) =
        call("GET", &format!("{url}/api/scrimmages/{id}/replay?session=0&table=0&round=5"), Some(&carol), None);
    assert_eq!(status, 404);

    // The page, and its form; then the hourly bound.
    let cookie = login(&url, &alice);
    let page = html(&url, &cookie, "/me/scrimmages");
    assert!(page.contains(&format!("Scrimmage {id}")) && page.contains(r#"value="bob""#), "{page}");
    assert!(!page.contains(r#"value="carol""#), "carol has not allowed it: {page}");
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    let answer = agent()
        .post(&format!("{url}/me/scrimmages"))
        .header("Cookie", &cookie)
        .send_form([
            ("csrf", csrf.as_str()),
            ("league", "1"),
            ("rounds", "500"),
            ("opponent", "builtin:hilo"),
            ("opponent", "bob"),
        ])
        .unwrap();
    assert_eq!(answer.status().as_u16(), 303);
    let second = wait_done(&url, &alice, id + 1);
    assert_eq!(second["seats"].as_array().unwrap().len(), 3, "{second}");
    let (status, third) = ask(&alice, vs(json!(["builtin:basic"])));
    assert_eq!(status, 202, "{third}");
    wait_done(&url, &alice, third["scrimmage"].as_i64().unwrap());
    let (status, why) = ask(&alice, vs(json!(["builtin:basic"])));
    assert_eq!(status, 429, "three an hour: {why}");
}

#[test]
fn asks_at_once_queue_one_scrimmage_an_entrant() {
    let dir = scratch("scrimmage-race");
    let names = ["ann", "ben", "cat", "dan"];
    let comp = competition(&dir, &names, 1_000, 10);
    let text = std::fs::read_to_string(&comp).unwrap() + "[scrimmages]\nmax_rounds = 1000000\nper_hour = 20\n";
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let url = server.url.clone();
    let tokens: Vec<String> = names.iter().map(|n| server.token(n)).collect();
    for token in &tokens {
        let bot = pitboss_tests::wasm_path("basic");
        let (status, v) =
            call("POST", &format!("{url}/api/submissions"), Some(token), Some(&std::fs::read(bot).unwrap()));
        assert_eq!(status, 201, "{v}");
    }
    // Ten asks at once from each entrant, all forty together, each on a
    // connection opened beforehand and sent at one barrier: long
    // scrimmages, so the first is still queued or playing when the rest
    // arrive.
    let body = json!({ "league": 1, "rounds": 1_000_000, "opponents": ["builtin:basic"] }).to_string();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(tokens.len() * 10));
    let asks: Vec<_> = tokens
        .iter()
        .flat_map(|t| std::iter::repeat_n(t.clone(), 10))
        .map(|token| {
            let (url, body, barrier) = (url.clone(), body.clone(), barrier.clone());
            std::thread::spawn(move || {
                let agent = agent();
                let auth = format!("Bearer {token}");
                let warm = agent.get(&format!("{url}/api/scrimmages")).header("Authorization", &auth).call();
                assert_eq!(warm.unwrap().status().as_u16(), 200);
                barrier.wait();
                let mut answer = agent
                    .post(&format!("{url}/api/scrimmages"))
                    .header("Authorization", &auth)
                    .header("Content-Type", "application/json")
                    .send(body.as_bytes())
                    .unwrap();
                let text = answer.body_mut().read_to_string().unwrap_or_default();
                (token, (answer.status().as_u16(), Value::String(text)))
            })
        })
        .collect();
    let answers: Vec<(String, (u16, Value))> = asks.into_iter().map(|h| h.join().unwrap()).collect();
    for token in &tokens {
        let mine: Vec<u16> = answers.iter().filter(|(t, _)| t == token).map(|(_, (s, _))| *s).collect();
        assert_eq!(mine.iter().filter(|&&s| s == 202).count(), 1, "one scrimmage at a time: {mine:?}");
        assert!(mine.iter().all(|&s| s == 202 || s == 409), "the rest are 409: {mine:?}");
        let (_, list) = call("GET", &format!("{url}/api/scrimmages"), Some(token), None);
        assert_eq!(list.as_array().unwrap().len(), 1, "one queued: {list}");
    }
}

/// A bot that spins `spins` times at every decision (slow, within the
/// default fuel), bets the minimum and stands.
fn slow_bot(spins: u32) -> Vec<u8> {
    let wat = format!(
        r#"(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (local $n i32)
    (local.set $n (i32.const {spins}))
    (block $done (loop $spin
      (br_if $done (i32.eqz (local.get $n)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $spin)))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))"#
    );
    wat::parse_str(wat).expect("the slow bot assembles")
}

#[test]
fn an_upload_and_an_official_run_go_before_comparisons_and_a_long_scrimmage() {
    let dir = scratch("fair-share");
    let comp = competition(&dir, &["ann", "ben", "cat", "dan"], 300, 20);
    let text = std::fs::read_to_string(&comp).unwrap().replace("[uploads]\n", "[uploads]\nscore_rounds = 10000\n")
        + "[scrimmages]\nmax_rounds = 1000000\nper_hour = 5\n";
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let upload = |token: &str, module: &[u8]| {
        let (status, v) = call("POST", &format!("{url}/api/submissions"), Some(token), Some(module));
        assert_eq!(status, 201, "{v}");
        v["id"].as_i64().unwrap()
    };
    // Two entrants with two slow bots each, one with a slow bot to
    // scrimmage with.
    let comparers: Vec<_> = ["ann", "ben"]
        .iter()
        .enumerate()
        .map(|(i, who)| {
            let (token, url) = (server.token(who), url.clone());
            std::thread::spawn(move || {
                let ids: Vec<i64> = (0..2)
                    .map(|k| {
                        let module = slow_bot(60_000 + 2 * i as u32 + k);
                        let (status, v) = call("POST", &format!("{url}/api/submissions"), Some(&token), Some(&module));
                        assert_eq!(status, 201, "{v}");
                        v["id"].as_i64().unwrap()
                    })
                    .collect();
                (token, ids)
            })
        })
        .collect();
    upload(&server.token("cat"), &slow_bot(60_100));
    let comparers: Vec<(String, Vec<i64>)> = comparers.into_iter().map(|h| h.join().unwrap()).collect();

    // A 1,000,000-round scrimmage plays; both entrants compare their
    // slow bots.
    let (status, asked) = post_json(
        &format!("{url}/api/scrimmages"),
        &server.token("cat"),
        &json!({ "league": 1, "rounds": 1_000_000, "opponents": ["builtin:basic"] }),
    );
    assert_eq!(status, 202, "{asked}");
    let comparing: Vec<_> = comparers
        .into_iter()
        .map(|(token, ids)| {
            let url = url.clone();
            std::thread::spawn(move || {
                let ask = format!("{url}/api/submissions/compare?a={}&b={}", ids[0], ids[1]);
                call("GET", &ask, Some(&token), None)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));

    // An honest upload is answered at once...
    let start = Instant::now();
    let (status, verdict) = call(
        "POST",
        &format!("{url}/api/submissions"),
        Some(&server.token("dan")),
        Some(&crate::server::bytes("basic")),
    );
    let took = start.elapsed();
    assert_eq!(status, 201, "{verdict}");
    assert!(took < Duration::from_secs(2), "the honest upload took {took:?} behind the comparisons: {verdict}");
    assert!(verdict["waited_ms"].as_u64().is_some(), "the answer says how long it waited: {verdict}");
    eprintln!("the honest upload: answered in {took:?}, waited {} ms for a slot", verdict["waited_ms"]);

    // ...and an official run starts while the scrimmage was playing.
    let start = Instant::now();
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let id = run["run"].as_i64().unwrap();
    loop {
        let (_, runs) = call("GET", &format!("{url}/api/runs"), None, None);
        let state = runs.as_array().unwrap().iter().find(|r| r["id"] == id).map(|r| r["state"].clone());
        if state.as_ref().and_then(Value::as_str) != Some("queued") {
            eprintln!("the official run started {:?} after it was asked for", start.elapsed());
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "run {id} still queued after 5 s behind the scrimmage");
        std::thread::sleep(Duration::from_millis(100));
    }
    wait_for_run(&url, id, "done", 300);
    let (_, list) = call("GET", &format!("{url}/api/scrimmages"), Some(&server.token("cat")), None);
    let state = list[0]["state"].as_str().unwrap().to_string();
    assert!(state == "queued" || state == "running", "the scrimmage gave way and waits to play again: {list}");
    for h in comparing {
        let (status, d) = h.join().unwrap();
        assert_eq!(status, 200, "the comparisons still finish: {d}");
    }
}
