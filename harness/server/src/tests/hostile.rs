//! Hostile and unlucky callers, in-process: rate limits that say when to
//! come back, the entrant cap, removed and disabled entrants, nonsense in
//! paths and queries, and internal errors that reach the log but never
//! the client (nor the data folder's path).

use axum::body::Body;
use axum::http::{Method, StatusCode, header};

use super::{COMPETITION, Site, keys, request, wasm};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_tokens_meet_429_with_a_time_to_come_back_and_right_ones_still_pass() {
    let site = Site::with(&COMPETITION.replace("[[league]]", "[server]\nbad_tokens_per_minute = 3\n[[league]]"));
    let alice = site.entrant("alice");
    let mut statuses = Vec::new();
    for k in 0..6 {
        statuses.push(site.get_as("/api/me", &format!("pbe_guess{k}")).await);
    }
    assert_eq!(statuses[0].status, StatusCode::UNAUTHORIZED);
    let refused = statuses.last().unwrap();
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{}", refused.body);
    assert_eq!(refused.json()["error"], "too many wrong tokens or codes from your address; try later");
    let wait: u64 = refused.header(header::RETRY_AFTER).parse().unwrap();
    assert!((1..=61).contains(&wait), "Retry-After: {wait}");
    // A right token is let in whatever its address did.
    assert_eq!(site.get_as("/api/me", &alice).await.status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_an_hour_are_capped_in_the_verdict() {
    let site = Site::with(&COMPETITION.replace("[[league]]", "[uploads]\nper_hour = 1\n[[league]]"));
    let alice = site.entrant("alice");
    assert_eq!(site.upload(&alice, "basic.wasm", wasm("basic")).await.status, StatusCode::CREATED);
    let second = site.upload(&alice, "basic.wasm", wasm("basic")).await;
    assert_eq!(second.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(second.json()["verdict"], "refused: over the limit of 1 uploads an hour; try again later");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_entrant_cap_holds_for_every_way_in() {
    let site = Site::with(&COMPETITION.replace("[entrants]", "[entrants]\nmax = 1"));
    let full = "this competition has its most entrants (1); the organiser may raise [entrants] max";
    let first = site.call(Method::POST, "/api/register", None, Some(r#"{"name":"ann","invite_code":"letmein-2026"}"#));
    assert_eq!(first.await.status, StatusCode::CREATED);
    let api = site.call(Method::POST, "/api/register", None, Some(r#"{"name":"ben","invite_code":"letmein-2026"}"#));
    let api = api.await;
    assert_eq!((api.status, api.json()["error"].as_str()), (StatusCode::FORBIDDEN, Some(full)));
    let by_organiser = site.call(Method::POST, "/api/entrants", Some(&site.admin), Some(r#"{"name":"ben"}"#)).await;
    assert_eq!((by_organiser.status, by_organiser.json()["error"].as_str()), (StatusCode::FORBIDDEN, Some(full)));
    let (organiser, csrf) = site.session(None);
    let page = site.post_form("/admin/entrants", &[("cookie", &organiser)], &[("csrf", &csrf), ("name", "ben")]).await;
    assert!(page.status == StatusCode::OK && page.body.contains(full), "{}", page.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_entrants_token_and_a_disabled_entrants_session_stop_working() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let (cookie, _) = site.session(Some(&alice));
    let admin = site.admin.clone();
    site.call(Method::POST, "/api/entrants/alice/disable", Some(&admin), None).await;
    let page = site.get("/me", &[("cookie", &cookie)]).await;
    assert_eq!((page.status, page.header(header::LOCATION)), (StatusCode::SEE_OTHER, "/login"));
    site.call(Method::POST, "/api/entrants/alice/enable", Some(&admin), None).await;
    // Disabling ended the session: enabled again, they log in again.
    assert_eq!(site.get("/me", &[("cookie", &cookie)]).await.status, StatusCode::SEE_OTHER);
    assert_eq!(site.get_as("/api/me", &alice).await.status, StatusCode::OK, "their token works again");
    let (cookie, _) = site.session(Some(&alice));
    assert_eq!(site.get("/me", &[("cookie", &cookie)]).await.status, StatusCode::OK);

    let rotated = site.call(Method::POST, "/api/entrants/alice/token", Some(&admin), None).await.json();
    let new = rotated["token"].as_str().unwrap().to_string();
    assert_eq!(site.get_as("/api/me", &alice).await.status, StatusCode::UNAUTHORIZED, "the old token");
    assert_eq!(site.get("/me", &[("cookie", &cookie)]).await.status, StatusCode::SEE_OTHER, "and its sessions");
    assert_eq!(site.get_as("/api/me", &new).await.status, StatusCode::OK);

    site.call(Method::DELETE, "/api/entrants/alice", Some(&admin), None).await;
    assert_eq!(site.get_as("/api/me", &new).await.status, StatusCode::UNAUTHORIZED);
    let again = site.entrant("alice");
    let me = site.get_as("/api/me", &again).await.json();
    assert_eq!((me["active"].clone(), me["status"].as_array().map(Vec::len)), (serde_json::Value::Null, Some(0)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nonsense_in_paths_queries_and_bodies_is_refused_not_obeyed() {
    let (site, alice, _bob) = Site::played().await;
    let (cookie, csrf) = site.session(Some(&alice));
    // Paths.
    for path in [
        "/runs/abc/league-1/report.html",
        "/runs/1/league-1/../../pitboss.db",
        "/runs/1/..%2F..%2Fpitboss.db/report.html",
        "/runs/99/league-1/report.html",
        "/runs/1/league-0001234/report.html",
        "/api/submissions/-1",
        "/api/submissions/99999999999999999999",
        "/scrimmages/1/results.json",
    ] {
        let answer = site.get(path, &[("cookie", &cookie), ("authorization", &format!("Bearer {alice}"))]).await;
        assert!(answer.status.is_client_error(), "{path}: {} {}", answer.status, answer.body);
        assert!(!answer.body.contains("SQLite") && !answer.body.contains(&site.dir.display().to_string()), "{path}");
    }
    // Queries: a round that does not exist, numbers out of range.
    for query in [
        "session=99&table=0&round=1",
        "session=0&table=99&round=1",
        "session=0&table=0&round=0",
        "session=0&table=0&round=999999",
        "session=-1&table=0&round=1",
        "session=0&table=0",
    ] {
        let answer = site.get_as(&format!("/api/runs/1/league-1/replay?{query}"), &alice).await;
        assert!(answer.status.is_client_error(), "{query}: {} {}", answer.status, answer.body);
    }
    // Bodies: JSON that is not the shape, a form that is not a form.
    let admin = site.admin.clone();
    for body in ["{", "[]", r#"{"name":7}"#, r#"{"nom":"x"}"#] {
        let answer = site.call(Method::POST, "/api/entrants", Some(&admin), Some(body)).await;
        assert!(answer.status.is_client_error(), "{body}: {}", answer.status);
    }
    let scrimmage = site.call(Method::POST, "/api/scrimmages", Some(&alice), Some(r#"{"league":1}"#)).await;
    assert!(scrimmage.status.is_client_error());
    let not_a_form = request(
        Method::POST,
        "/me/activate",
        &[("cookie", &cookie), ("content-type", "text/plain")],
        Body::from(format!("csrf={csrf}&id=1")),
    );
    assert_eq!(site.send(not_a_form).await.status, StatusCode::FORBIDDEN, "no token read from a non-form body");
    let not_a_number = site.post_form("/me/activate", &[("cookie", &cookie)], &[("csrf", &csrf), ("id", "one")]).await;
    assert!(not_a_number.status.is_client_error(), "{}", not_a_number.body);
    assert!(site.app.db.submissions(1).unwrap().iter().any(|s| s.active), "nothing changed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_internal_error_reaches_the_log_not_the_client() {
    let (site, alice, _bob) = Site::played().await;
    // A run's results file spoiled behind the server's back: a replay
    // cannot read it.
    let results = site.dir.join("runs/1/league-1/results.json");
    std::fs::write(&results, "{ not json").unwrap();
    let answer = site.get_as("/api/runs/1/league-1/replay?session=0&table=0&round=1", &alice).await;
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR, "{}", answer.body);
    assert_eq!(keys(&answer.json()), ["error"]);
    assert_eq!(answer.json()["error"], "internal error; the organiser can see it in the server's log");
    assert!(!answer.body.contains(&site.dir.display().to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_runs_error_is_shown_without_the_servers_paths() {
    let site = Site::new();
    let (alice, bob) = (site.entrant("alice"), site.entrant("bob"));
    for (token, bot) in [(&alice, "basic"), (&bob, "never_bust")] {
        assert_eq!(site.upload(token, &format!("{bot}.wasm"), wasm(bot)).await.status, StatusCode::CREATED);
    }
    // The stored modules go missing: the run cannot copy its bots.
    for entry in std::fs::read_dir(crate::paths::modules(&site.dir)).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    let queued = site.call(Method::POST, "/api/runs", Some(&site.admin), None).await.json();
    let id = queued["run"].as_i64().unwrap();
    site.work_until(|db| db.run_state(id).unwrap().is_some_and(|s| s == "done" || s == "failed")).await;
    let runs = site.get("/api/runs", &[]).await.json();
    assert_eq!(runs[0]["state"], "failed", "{runs}");
    let error = runs[0]["error"].as_str().unwrap();
    assert!(!error.is_empty() && !error.contains(&site.dir.display().to_string()), "{error}");
    let board = site.get("/", &[]).await;
    assert!(board.body.contains("No run has finished yet."), "a failed run shows no standings");
    assert!(!board.body.contains(&site.dir.display().to_string()));
}

/// Guesses `count` wrong tokens with `headers` added: the last status.
async fn guesses(site: &Site, count: usize, headers: &[(&str, &str)]) -> StatusCode {
    let mut last = StatusCode::OK;
    for k in 0..count {
        let bearer = format!("Bearer pbe_guess{k}");
        let mut all = vec![("authorization", bearer.as_str())];
        all.extend_from_slice(headers);
        last = site.get("/api/me", &all).await.status;
    }
    last
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_the_forwarded_address_is_the_client_only_when_told() {
    let limits = "[server]\nbad_tokens_per_minute = 2\nforwarded_for = true\n[[league]]";
    let proxied = Site::with(&COMPETITION.replace("[[league]]", limits));
    // The last entry is the one the proxy added; what the client wrote
    // before it is not believed.
    let from = |ip: &'static str| [("x-forwarded-for", ip)];
    assert_eq!(guesses(&proxied, 5, &from("9.9.9.9, 10.0.0.1")).await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(guesses(&proxied, 1, &from("10.0.0.2")).await, StatusCode::UNAUTHORIZED, "another client");
    assert_eq!(guesses(&proxied, 1, &from("10.0.0.2, 10.0.0.1")).await, StatusCode::TOO_MANY_REQUESTS);

    // Without `forwarded_for`, the header is anyone's to write: ignored,
    // every request is the peer's.
    let direct = Site::with(&COMPETITION.replace("[[league]]", "[server]\nbad_tokens_per_minute = 2\n[[league]]"));
    assert_eq!(guesses(&direct, 5, &from("10.0.0.1")).await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(guesses(&direct, 1, &from("10.0.0.2")).await, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registrations_from_one_address_are_capped_an_hour() {
    let site = Site::with(&COMPETITION.replace("[[league]]", "[server]\nregistrations_per_hour = 2\n[[league]]"));
    let mut statuses = Vec::new();
    for name in ["ann", "ben", "cid"] {
        let body = format!(r#"{{"name":"{name}","invite_code":"letmein-2026"}}"#);
        let answer = site.send(super::request(
            Method::POST,
            "/api/register",
            &[("content-type", "application/json")],
            Body::from(body),
        ));
        let answer = answer.await;
        statuses.push((answer.status, answer.json()["error"].as_str().map(String::from)));
    }
    assert_eq!(statuses[..2], [(StatusCode::CREATED, None), (StatusCode::CREATED, None)]);
    let too_many = Some("too many registrations from your address; try later".to_string());
    assert_eq!(statuses[2], (StatusCode::TOO_MANY_REQUESTS, too_many));
    assert!(!site.app.db.has_entrant("cid").unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_upload_at_a_time_an_entrant() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let id = site.app.db.entrants().unwrap()[0].id;
    // An upload of theirs still being checked holds their slot.
    let held = site.app.guards.upload_slot(id).unwrap();
    let second = site.upload(&alice, "basic.wasm", wasm("basic")).await;
    assert_eq!(second.status, StatusCode::TOO_MANY_REQUESTS, "{}", second.body);
    assert_eq!(second.json()["error"], "one upload at a time: your previous upload is still being checked");
    assert!(second.header(header::RETRY_AFTER).parse::<u64>().is_ok());
    assert!(site.get_as("/api/submissions", &alice).await.json().as_array().unwrap().is_empty(), "nothing recorded");
    drop(held);
    assert_eq!(site.upload(&alice, "basic.wasm", wasm("basic")).await.status, StatusCode::CREATED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_submissions_source_page_is_its_senders_and_the_organisers() {
    let site = Site::new();
    let (alice, bob) = (site.entrant("alice"), site.entrant("bob"));
    assert_eq!(site.upload(&alice, "basic.wasm", wasm("basic")).await.status, StatusCode::CREATED);
    let (own, _) = site.session(Some(&alice));
    let page = site.get("/submissions/1/source", &[("cookie", &own)]).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("Submission #1: basic.wasm") && page.body.contains("Sent by alice"), "{}", page.body);
    assert!(page.body.contains("No source to show"), "a wasm module is no text: {}", page.body);
    assert!(page.body.contains("href=\"/me#sub-1\""), "{}", page.body);
    let (organiser, _) = site.session(None);
    let theirs = site.get("/submissions/1/source", &[("cookie", &organiser)]).await;
    assert!(theirs.body.contains("href=\"/admin/submissions?entrant=alice\""), "{}", theirs.body);
    let (other, _) = site.session(Some(&bob));
    for (who, path) in [(&other, "/submissions/1/source"), (&own, "/submissions/9/source")] {
        let refused = site.get(path, &[("cookie", who)]).await;
        assert_eq!(refused.status, StatusCode::NOT_FOUND, "{path}");
        assert!(refused.body.contains("No such submission of yours."), "{}", refused.body);
    }
    let nobody = site.get("/submissions/1/source", &[]).await;
    assert_eq!((nobody.status, nobody.header(header::LOCATION)), (StatusCode::SEE_OTHER, "/login"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_a_spreadsheet_would_run_is_written_as_text_in_the_csv() {
    let site = Site::new();
    let (alice, minus) = (site.entrant("alice"), site.entrant("-1_2"));
    for (token, bot) in [(&alice, "basic"), (&minus, "never_bust")] {
        assert_eq!(site.upload(token, &format!("{bot}.wasm"), wasm(bot)).await.status, StatusCode::CREATED);
    }
    site.play_run().await;
    let csv = site.get("/api/leaderboard.csv", &[]).await;
    assert!(csv.body.lines().any(|l| l.contains(",'-1_2,")), "{}", csv.body);
    assert!(!csv.body.lines().any(|l| l.contains(",-1_2,")), "{}", csv.body);
    assert_eq!(csv.header(header::CONTENT_DISPOSITION), "attachment; filename=\"standings.csv\"");
}

/// A request body that never sends a byte.
struct Never;

impl hyper::body::Body for Never {
    type Data = axum::body::Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        std::task::Poll::Pending
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_never_comes_is_answered_408_and_changes_nothing() {
    let site = Site::with(&COMPETITION.replace("[[league]]", "[server]\nrequest_timeout_secs = 5\n[[league]]"));
    let alice = site.entrant("alice");
    let (cookie, _) = site.session(Some(&alice));
    let started = std::time::Instant::now();
    let stalled = request(
        Method::POST,
        "/me/activate",
        &[("cookie", &cookie), ("content-type", "application/x-www-form-urlencoded")],
        Body::new(Never),
    );
    let answer = site.send(stalled).await;
    assert_eq!(answer.status, StatusCode::REQUEST_TIMEOUT);
    let took = started.elapsed().as_secs_f64();
    assert!((4.9..15.0).contains(&took), "after request_timeout_secs: {took:.1} s");
    // The same for an upload's body, whose slot comes back.
    let bearer = format!("Bearer {alice}");
    let upload = request(Method::POST, "/api/submissions", &[("authorization", &bearer)], Body::new(Never));
    assert_eq!(site.send(upload).await.status, StatusCode::REQUEST_TIMEOUT);
    assert_eq!(site.upload(&alice, "basic.wasm", wasm("basic")).await.status, StatusCode::CREATED, "the slot is free");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_submission_log_filters_by_entrant_and_outcome() {
    let site = Site::new();
    let (alice, bob) = (site.entrant("alice"), site.entrant("bob"));
    assert_eq!(site.upload(&alice, "basic.wasm", wasm("basic")).await.status, StatusCode::CREATED);
    assert_eq!(site.upload(&bob, "junk.wasm", b"\0asm junk".to_vec()).await.status, StatusCode::UNPROCESSABLE_ENTITY);
    let (organiser, _) = site.session(None);
    let log = |query: &'static str| {
        let (site, organiser) = (&site, organiser.clone());
        async move { site.get(&format!("/admin/submissions{query}"), &[("cookie", &organiser)]).await.body }
    };
    let all = log("").await;
    assert!(all.contains("2 upload(s)") && all.contains("basic.wasm") && all.contains("junk.wasm"), "{all}");
    let bobs = log("?entrant=bob").await;
    assert!(bobs.contains("1 upload(s)") && bobs.contains("junk.wasm") && !bobs.contains("basic.wasm"), "{bobs}");
    let failed = log("?outcome=failed").await;
    assert!(failed.contains("1 upload(s)") && failed.contains("junk.wasm"), "{failed}");
    let nonsense = log("?outcome=%3Cscript%3E").await;
    assert!(nonsense.contains("2 upload(s)") && !nonsense.contains("<script>"), "an unknown outcome filters nothing");
}
