//! A competition over time, in-process: runs after runs (the rank
//! history), the final run freezing the standings, the deadline, private
//! reports, comparing two submissions, a scrimmage played by the worker,
//! and uploads over the size limits refused in words.

use axum::body::Body;
use axum::http::{Method, StatusCode, header};

use super::{COMPETITION, Site, keys, request, wasm};

/// `COMPETITION` with `line` added before its league.
fn competition_with(line: &str) -> String {
    COMPETITION.replace("[entrants]", &format!("{line}\n[entrants]"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_after_runs_draw_a_history_and_the_final_run_freezes_them() {
    let (site, alice, _bob) = Site::played().await;
    assert_eq!(site.play_run().await, 2);
    // An entrant picks which run their page shows.
    let (cookie, _) = site.session(Some(&alice));
    let me = site.get("/me", &[("cookie", &cookie)]).await;
    assert!(me.body.contains("id=\"run-pick\"") && me.body.contains("in run 2 — rank"), "{}", me.body);
    let first = site.get("/me?run=1", &[("cookie", &cookie)]).await;
    assert!(first.body.contains("in run 1 — rank") && !first.body.contains("in run 2"), "{}", first.body);
    let runs = site.get("/api/runs", &[]).await.json();
    let states: Vec<(i64, &str)> =
        runs.as_array().unwrap().iter().map(|r| (r["id"].as_i64().unwrap(), r["state"].as_str().unwrap())).collect();
    assert_eq!(states, [(2, "done"), (1, "done")], "newest first");
    assert!(runs[0]["finished"].as_u64().is_some_and(|f| f >= runs[0]["created"].as_u64().unwrap()));
    let board = site.get("/", &[]).await;
    assert!(board.body.contains("Rank history"), "two runs draw a history: {}", board.body);
    assert!(board.body.contains("Run 2, finished"), "{}", board.body);
    let api = site.get("/api/leaderboard", &[]).await.json();
    assert_eq!((api["latest"]["run"].as_i64(), api["runs"].as_array().map(Vec::len)), (Some(2), Some(2)));

    // No deadline: the final run may be queued at once, and once played
    // nothing follows it.
    let last = site.call(Method::POST, "/api/runs/final", Some(&site.admin), None).await;
    assert_eq!(last.json(), serde_json::json!({ "run": 3, "final": true }));
    site.work_until(|db| db.run_state(3).unwrap().as_deref() == Some("done")).await;
    let board = site.get("/", &[]).await;
    assert!(board.body.contains("id=\"final\"") && board.body.contains("Final standings"), "{}", board.body);
    let api = site.get("/api/leaderboard", &[]).await.json();
    assert_eq!((api["final"].as_i64(), api["latest"]["final_run"].as_bool()), (Some(3), Some(true)));
    let frozen = "the final run has finished: the standings are frozen";
    let more = site.call(Method::POST, "/api/runs", Some(&site.admin), None).await;
    assert_eq!((more.status, more.json()["error"].as_str()), (StatusCode::CONFLICT, Some(frozen)));
    let (organiser, csrf) = site.session(None);
    let page = site.post_form("/admin/runs", &[("cookie", &organiser)], &[("csrf", &csrf)]).await;
    assert!(page.body.contains(frozen), "{}", page.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deadline_closes_uploads_and_opens_the_final_run() {
    let past = Site::with(&competition_with("deadline = \"2020-01-01T00:00:00Z\""));
    let alice = past.entrant("alice");
    let late = past.upload(&alice, "basic.wasm", wasm("basic")).await;
    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", late.body);
    assert_eq!(late.json()["outcome"], "refused");
    assert_eq!(late.json()["verdict"], "refused: the submission deadline (2020-01-01 00:00:00 UTC) has passed");
    let board = past.get("/", &[]).await;
    assert!(board.body.contains("Submissions close 2020-01-01 00:00:00 UTC."), "{}", board.body);
    let last = past.call(Method::POST, "/api/runs/final", Some(&past.admin), None).await;
    assert_eq!(last.status, StatusCode::ACCEPTED, "after the deadline: {}", last.body);

    let future = Site::with(&competition_with("deadline = \"2999-01-01T00:00:00Z\""));
    let early = future.call(Method::POST, "/api/runs/final", Some(&future.admin), None).await;
    assert_eq!(early.status, StatusCode::CONFLICT);
    assert_eq!(early.json()["error"], "the final run comes after the deadline (2999-01-01 00:00:00 UTC)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_reports_are_the_organisers() {
    let site = Site::with(&COMPETITION.replace("public_reports = true", "public_reports = false"));
    let (alice, bob) = (site.entrant("alice"), site.entrant("bob"));
    for (token, bot) in [(&alice, "basic"), (&bob, "never_bust")] {
        assert_eq!(site.upload(token, &format!("{bot}.wasm"), wasm(bot)).await.status, StatusCode::CREATED);
    }
    site.play_run().await;
    let (entrant, _) = site.session(Some(&alice));
    let (organiser, _) = site.session(None);
    let for_organiser = "this competition's reports are for the organiser";
    for who in [vec![], vec![("cookie", entrant.as_str())]] {
        let answer = site.get("/runs/1/league-1/report.html", &who).await;
        assert_eq!((answer.status, answer.json()["error"].as_str()), (StatusCode::FORBIDDEN, Some(for_organiser)));
    }
    // A browser following the link gets the same refusal as a page of the
    // site: its navigation, the words, a way on; the API stays JSON.
    let html = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    let page = site.get("/runs/1/league-1/report.html", &[("cookie", &entrant), ("accept", html)]).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(page.header(header::CONTENT_TYPE).starts_with("text/html"), "{:?}", page.headers);
    for text in [for_organiser, "<nav", "href=\"/me\"", "<h1>Forbidden</h1>", "Log out"] {
        assert!(page.body.contains(text), "the refusal page lacks {text:?}: {}", page.body);
    }
    let stranger = site.get("/runs/1/league-1/report.html", &[("accept", html)]).await;
    assert!(stranger.status == StatusCode::FORBIDDEN && stranger.body.contains("href=\"/login\""), "{}", stranger.body);
    let api = site.get("/api/runs/1/league-1/replay?session=0&table=0&round=1", &[("accept", html)]).await;
    assert!(api.header(header::CONTENT_TYPE).starts_with("application/json"), "{}: {}", api.status, api.body);
    let own = site.get("/runs/1/league-1/results.json", &[("cookie", &organiser)]).await;
    assert_eq!(own.status, StatusCode::OK);
    let by_token = site.get_as("/runs/1/league-1/results.json", &site.admin).await;
    assert_eq!(by_token.status, StatusCode::OK, "the organiser's token reads them too");
    let board = site.get("/", &[]).await;
    assert!(!board.body.contains("report.html"), "no report links for anyone: {}", board.body);
    let theirs = site.get("/", &[("cookie", &organiser)]).await;
    assert!(theirs.body.contains("/runs/1/league-1/report.html"), "{}", theirs.body);
    // The league file is no secret: a signed-in entrant reads it (the
    // coach page's --league links to it), by session or token; no one else.
    let league = site.get("/runs/1/league-1/league.toml", &[("cookie", &entrant)]).await;
    assert!(league.status == StatusCode::OK && league.body.contains("north-american"), "{}", league.body);
    assert_eq!(site.get_as("/runs/1/league-1/league.toml", &bob).await.status, StatusCode::OK);
    let nobody = site.get("/runs/1/league-1/league.toml", &[]).await;
    assert_eq!((nobody.status, nobody.json()["error"].as_str()), (StatusCode::FORBIDDEN, Some(for_organiser)));
    // An entrant still replays a table they sat at.
    let replay = site.get_as("/api/runs/1/league-1/replay?session=0&table=0&round=1", &alice).await;
    assert_eq!(replay.status, StatusCode::OK, "{}", replay.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_submissions_compare_on_the_same_cards() {
    let site = Site::new();
    let (alice, bob) = (site.entrant("alice"), site.entrant("bob"));
    for bot in ["basic", "never_bust"] {
        assert_eq!(site.upload(&alice, &format!("{bot}.wasm"), wasm(bot)).await.status, StatusCode::CREATED);
    }
    let duel = site.get_as("/api/submissions/compare?a=1&b=2", &alice).await;
    assert_eq!(duel.status, StatusCode::OK, "{}", duel.body);
    let duel = duel.json();
    assert!(["diff_ci95", "diff_per_100_rounds", "rounds", "sides"].iter().all(|k| keys(&duel).contains(k)), "{duel}");
    assert_eq!((duel["sides"][0]["name"].as_str(), duel["sides"][1]["name"].as_str()), (Some("#1"), Some("#2")));
    let same = site.get_as("/api/submissions/compare?a=1&b=1", &alice).await;
    assert_eq!(
        (same.status, same.json()["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("pick two different submissions"))
    );
    let theirs = site.get_as("/api/submissions/compare?a=1&b=2", &bob).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND);
    assert_eq!(theirs.json()["error"], "both must be passing submissions of yours");

    let (cookie, _) = site.session(Some(&alice));
    let page = site.get("/me/compare?a=1&b=2", &[("cookie", &cookie)]).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("Submission #1 against #2") && page.body.contains("id=\"difference\""), "{}", page.body);
    let me = site.get("/me", &[("cookie", &cookie)]).await;
    assert!(me.body.contains("id=\"compare\""), "two passing submissions offer a comparison");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrimmage_is_played_by_the_worker_and_read_by_its_entrant_only() {
    let site = Site::new();
    let (alice, bob) = (site.entrant("alice"), site.entrant("bob"));
    for (token, bot) in [(&alice, "basic"), (&bob, "never_bust")] {
        assert_eq!(site.upload(token, &format!("{bot}.wasm"), wasm(bot)).await.status, StatusCode::CREATED);
    }
    let ask = r#"{"league":1,"rounds":20,"opponents":["bob"]}"#;
    let not_allowed = site.call(Method::POST, "/api/scrimmages", Some(&alice), Some(ask)).await;
    assert!(not_allowed.status.is_client_error(), "bob has not allowed it: {}", not_allowed.body);
    site.call(Method::POST, "/api/me/allow-scrimmages", Some(&bob), Some(r#"{"allow":true}"#)).await;
    let queued = site.call(Method::POST, "/api/scrimmages", Some(&alice), Some(ask)).await;
    assert_eq!(queued.status, StatusCode::ACCEPTED, "{}", queued.body);
    let id = queued.json()["scrimmage"].as_i64().unwrap();
    site.work_until(|db| db.scrimmage(id, None).unwrap().is_some_and(|s| s.state == "done" || s.state == "failed"))
        .await;

    let list = site.get_as("/api/scrimmages", &alice).await.json();
    assert_eq!(list[0]["state"], "done", "{list}");
    let names: Vec<&str> = list[0]["seats"].as_array().unwrap().iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, ["alice", "bob"]);
    assert_eq!(list[0]["standings"].as_array().map(Vec::len), Some(2));

    let replay = site.get_as(&format!("/api/scrimmages/{id}/replay?session=0&table=0&round=1"), &alice).await;
    assert_eq!(replay.status, StatusCode::OK, "{}", replay.body);
    assert_eq!(replay.json()["scrimmage"].as_i64(), Some(id));
    let (cookie, _) = site.session(Some(&alice));
    let page = site.get(&format!("/scrimmages/{id}/replay?session=0&table=0&round=1"), &[("cookie", &cookie)]).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let report = site.get(&format!("/scrimmages/{id}/report.html"), &[("cookie", &cookie)]).await;
    assert_eq!(report.status, StatusCode::OK);
    assert!(report.body.contains("bob"));
    let mine = site.get("/me/scrimmages", &[("cookie", &cookie)]).await;
    assert!(mine.body.contains(&format!("id=\"scrimmage-{id}\"")) && mine.body.contains("done"), "{}", mine.body);

    // Bob played in it but did not ask for it: it is not his to read.
    let (bobs, _) = site.session(Some(&bob));
    let other = site.get(&format!("/scrimmages/{id}/report.html"), &[("cookie", &bobs)]).await;
    assert_eq!(other.status, StatusCode::NOT_FOUND, "{}", other.body);
    assert!(site.get_as("/api/scrimmages", &bob).await.json().as_array().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_over_the_limits_are_refused_in_words() {
    let site = Site::with(&COMPETITION.replace("[[league]]", "[uploads]\nmax_kib = 1\n[[league]]"));
    let alice = site.entrant("alice");
    let size = (1 << 10) + (64 << 10) + 1;
    let big = |path: &str, headers: &[(&str, &str)]| {
        let length = size.to_string();
        let mut all = headers.to_vec();
        all.push(("content-length", &length));
        request(Method::POST, path, &all, Body::from(vec![b'x'; size]))
    };
    let bearer = format!("Bearer {alice}");
    let api = site.send(big("/api/submissions?name=big.wasm", &[("authorization", &bearer)])).await;
    assert_eq!(api.status, StatusCode::PAYLOAD_TOO_LARGE);
    let why = format!(
        "this upload is 66 KiB ({size} bytes), over this competition's limit of 1 KiB (`max_kib = 1` under [uploads] \
         in the competition file, the organiser's)"
    );
    assert_eq!(keys(&api.json()), ["error", "id", "outcome", "verdict"]);
    assert_eq!((api.json()["error"].as_str(), api.json()["outcome"].as_str()), (Some(why.as_str()), Some("refused")));
    let log = site.get_as("/api/submissions", &alice).await.json();
    assert_eq!((log[0]["file_name"].as_str(), log[0]["outcome"].as_str()), (Some("big.wasm"), Some("refused")));

    let (cookie, _) = site.session(Some(&alice));
    let page =
        site.send(big("/me/upload", &[("cookie", &cookie), ("content-type", "multipart/form-data; boundary=X")])).await;
    assert_eq!(page.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(page.body.contains("id=\"too-big\"") && page.body.contains(&why), "{}", page.body);

    // Without a Content-Length (sent in chunks), stopped at the limit as
    // it comes: the same words but for the size, in the site's layout.
    let chunked = |path: &str, headers: &[(&str, &str)]| {
        request(Method::POST, path, headers, Body::new(Chunked(size / 1024 + 1)))
    };
    let limit = "over this competition's limit of 1 KiB (`max_kib = 1` under [uploads] in the competition file";
    let api = site.send(chunked("/api/submissions?name=big.wasm", &[("authorization", &bearer)])).await;
    assert_eq!(api.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(api.json()["error"].as_str().unwrap().contains(limit), "{}", api.body);
    let form = [("cookie", cookie.as_str()), ("content-type", "multipart/form-data; boundary=X")];
    let page = site.send(chunked("/me/upload", &form)).await;
    assert_eq!(page.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(page.body.contains("id=\"too-big\"") && page.body.contains(limit), "{}", page.body);
    assert!(page.body.contains("<nav>") && page.body.contains("My bot (alice)"), "in the layout: {}", page.body);

    // Anyone else's oversized body: refused before it is read.
    let nobody = site.send(big("/api/submissions", &[])).await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED);
    let admin = format!("Bearer {}", site.admin);
    let small =
        site.send(big("/api/entrants", &[("authorization", &admin), ("content-type", "application/json")])).await;
    assert_eq!(small.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", small.body);
    assert_eq!(site.get("/", &[]).await.header(header::CACHE_CONTROL), "no-store");
}

/// A body of this many 1 KiB chunks whose length is not known before
/// (as one sent without a `Content-Length`).
struct Chunked(usize);

impl hyper::body::Body for Chunked {
    type Data = axum::body::Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        if self.0 == 0 {
            return std::task::Poll::Ready(None);
        }
        self.0 -= 1;
        std::task::Poll::Ready(Some(Ok(hyper::body::Frame::data(vec![b'x'; 1024].into()))))
    }
}
