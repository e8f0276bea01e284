//! Every JSON answer's shape (its keys, and the values a client reads),
//! and the API's refusals in one line each.

use axum::http::{Method, StatusCode, header};
use serde_json::Value;

use super::{Site, keys, wasm};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_answer_their_verdict_and_list_only_ones_own() {
    let site = Site::new();
    let (alice, bob) = (site.entrant("alice"), site.entrant("bob"));

    let passed = site.upload(&alice, "basic.wasm", wasm("basic")).await;
    assert_eq!(passed.status, StatusCode::CREATED, "{}", passed.body);
    let verdict = passed.json();
    assert_eq!(keys(&verdict), ["id", "outcome", "report", "score", "sha256", "verdict", "waited_ms"]);
    assert_eq!((verdict["id"].as_i64(), verdict["outcome"].as_str()), (Some(1), Some("passed")));
    assert_eq!(verdict["sha256"].as_str().map(str::len), Some(64));

    let failed = site.upload(&alice, "junk.wasm", b"\0asm junk".to_vec()).await;
    assert_eq!(failed.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", failed.body);
    assert_eq!(failed.json()["outcome"], "failed");

    let list = site.get_as("/api/submissions", &alice).await;
    assert_eq!(list.status, StatusCode::OK);
    let list = list.json();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 2, "newest first: {list:?}");
    assert_eq!(
        keys(&list[1]),
        ["active", "created", "file_name", "id", "outcome", "report", "score", "sha256", "size", "verdict"]
    );
    assert_eq!((list[0]["file_name"].as_str(), list[1]["active"].as_bool()), (Some("junk.wasm"), Some(true)));

    let one = site.get_as("/api/submissions/1", &alice).await;
    assert_eq!((one.status, one.json()["id"].as_i64()), (StatusCode::OK, Some(1)));
    // Another's submission is not found, as if it did not exist.
    let theirs = site.get_as("/api/submissions/1", &bob).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND);
    assert_eq!(theirs.json()["error"], "no such submission of yours");
    assert!(site.get_as("/api/submissions", &bob).await.json().as_array().unwrap().is_empty());

    let chosen = site.call(Method::POST, "/api/submissions/1/activate", Some(&alice), None).await;
    assert_eq!((chosen.status, chosen.json()), (StatusCode::OK, serde_json::json!({ "active": 1 })));
    let not_passed = site.call(Method::POST, "/api/submissions/2/activate", Some(&alice), None).await;
    assert_eq!(not_passed.status, StatusCode::NOT_FOUND);
    assert_eq!(not_passed.json()["error"], "no such submission of yours that passed its check");

    let me = site.get_as("/api/me", &alice).await.json();
    assert_eq!(keys(&me), ["active", "faults", "logs", "name", "status"]);
    assert_eq!(keys(&me["active"]), ["id", "sha256"]);
    assert_eq!((me["name"].as_str(), me["active"]["id"].as_i64()), (Some("alice"), Some(1)));
    assert_eq!(site.get_as("/api/me", &bob).await.json()["active"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organisers_controls_answer_in_json() {
    let site = Site::new();
    let admin = site.admin.clone();
    let call = |method: Method, path: &'static str, json: Option<&'static str>| {
        let (site, admin) = (&site, admin.clone());
        async move { site.call(method, path, Some(&admin), json).await }
    };

    let added = call(Method::POST, "/api/entrants", Some(r#"{"name":"carol"}"#)).await;
    assert_eq!(added.status, StatusCode::CREATED, "{}", added.body);
    assert_eq!(keys(&added.json()), ["name", "token"]);
    let taken = call(Method::POST, "/api/entrants", Some(r#"{"name":"Carol"}"#)).await;
    assert_eq!(
        (taken.status, taken.json()["error"].as_str()),
        (StatusCode::CONFLICT, Some("there is already an entrant named `Carol`"))
    );
    let bad = call(Method::POST, "/api/entrants", Some(r#"{"name":"a b"}"#)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);

    let list = call(Method::GET, "/api/entrants", None).await.json();
    assert_eq!(keys(&list[0]), ["active", "disabled", "last_seen", "name"]);
    assert_eq!((list[0]["name"].as_str(), list[0]["disabled"].as_bool()), (Some("carol"), Some(false)));

    for (path, done) in [
        ("/api/entrants/carol/disable", "disable"),
        ("/api/entrants/carol/enable", "enable"),
        ("/api/entrants/carol/token", "newtoken"),
    ] {
        let answer = site.call(Method::POST, path, Some(&admin), None).await;
        assert_eq!((answer.status, answer.json()["done"].as_str()), (StatusCode::OK, Some(done)), "{path}");
    }
    let token = site.call(Method::POST, "/api/entrants/carol/token", Some(&admin), None).await.json();
    assert_eq!(keys(&token), ["done", "name", "token"]);
    let removed = call(Method::DELETE, "/api/entrants/carol", None).await;
    assert_eq!((removed.status, removed.json()["done"].as_str()), (StatusCode::OK, Some("remove")));
    let gone = call(Method::DELETE, "/api/entrants/carol", None).await;
    assert_eq!((gone.status, gone.json()["error"].as_str()), (StatusCode::NOT_FOUND, Some("no such entrant")));

    let run = call(Method::POST, "/api/runs", None).await;
    assert_eq!((run.status, run.json()), (StatusCode::ACCEPTED, serde_json::json!({ "run": 1 })));
    let runs = site.get("/api/runs", &[]).await.json();
    assert_eq!(keys(&runs[0]), ["created", "error", "finished", "id", "reason", "state"]);
    assert_eq!((runs[0]["state"].as_str(), runs[0]["reason"].as_str()), (Some("queued"), Some("on demand")));
    // The final run takes the place of a run still queued.
    let last = call(Method::POST, "/api/runs/final", None).await;
    assert_eq!((last.status, last.json()), (StatusCode::ACCEPTED, serde_json::json!({ "run": 1, "final": true })));
    let again = call(Method::POST, "/api/runs/final", None).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.json()["error"], "the final run is already queued, running or done");
    // Not finished: no bundle.
    let bundle = call(Method::GET, "/api/runs/1/bundle.tar", None).await;
    assert_eq!((bundle.status, bundle.json()["error"].as_str()), (StatusCode::NOT_FOUND, Some("no such finished run")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn self_registration_takes_the_invite_code() {
    let site = Site::new();
    let register = |body: &'static str| site.call(Method::POST, "/api/register", None, Some(body));
    let wrong = register(r#"{"name":"yann","invite_code":"nope"}"#).await;
    assert_eq!((wrong.status, wrong.json()["error"].as_str()), (StatusCode::FORBIDDEN, Some("wrong invite code")));
    let none = register(r#"{"name":"yann"}"#).await;
    assert_eq!(none.status, StatusCode::FORBIDDEN);
    let right = register(r#"{"name":"yann","invite_code":"letmein-2026"}"#).await;
    assert_eq!(right.status, StatusCode::CREATED, "{}", right.body);
    assert_eq!(keys(&right.json()), ["name", "token"]);
    let token = right.json()["token"].as_str().unwrap().to_string();
    assert_eq!(site.get_as("/api/me", &token).await.json()["name"], "yann");
    let taken = register(r#"{"name":"yann","invite_code":"letmein-2026"}"#).await;
    assert_eq!(taken.status, StatusCode::CONFLICT);

    let closed = Site::with(&super::COMPETITION.replace("invite_code = \"letmein-2026\"\n", ""));
    let refused = closed.call(Method::POST, "/api/register", None, Some(r#"{"name":"yann","invite_code":"x"}"#)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(refused.json()["error"], "this competition has no self-registration");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_runs_standings_files_replays_and_coaching_in_json() {
    let (site, alice, bob) = Site::played().await;

    let board = site.get("/api/leaderboard", &[]).await.json();
    assert_eq!(keys(&board), ["competition", "final", "latest", "runs"]);
    assert_eq!((board["competition"].as_str(), board["final"].clone()), (Some("Class"), Value::Null));
    let latest = &board["latest"];
    assert_eq!(keys(latest), ["bots", "entrants", "final_run", "finished", "leagues", "overall", "run"]);
    let league = &latest["leagues"][0];
    assert_eq!(
        keys(league),
        ["folder", "fuel_per_decision", "luck_uncorrected", "name", "rounds", "rows", "sessions", "variant"]
    );
    assert_eq!((league["folder"].as_str(), league["rows"].as_array().map(Vec::len)), (Some("league-1"), Some(2)));
    assert_eq!(
        keys(&league["rows"][0]),
        [
            "cost",
            "ev_ci95_pct",
            "ev_pct",
            "faults",
            "luck_ci95_pct",
            "luck_ev_pct",
            "mark",
            "name",
            "net",
            "rank",
            "status"
        ]
    );
    assert_eq!(keys(&latest["overall"][0]), ["name", "net", "points", "rank"]);

    let csv = site.get("/api/leaderboard.csv", &[]).await;
    assert_eq!(csv.header(header::CONTENT_TYPE), "text/csv; charset=utf-8");
    let lines: Vec<&str> = csv.body.lines().collect();
    assert_eq!(lines[0], "run,league,rank,entrant,status,net,ev_pct,ev_ci95_pct,faults,luck_ev_pct,luck_ci95_pct");
    assert_eq!(lines.len(), 3, "{}", csv.body);
    assert!(lines[1..].iter().all(|l| l.starts_with("1,Main,")), "{}", csv.body);

    let me = site.get_as("/api/me", &alice).await.json();
    let status = &me["status"][0];
    assert_eq!((status["run"].as_i64(), status["folder"].as_str()), (Some(1), Some("league-1")));
    assert_eq!(status["state"], "played");

    let replay = site.get_as("/api/runs/1/league-1/replay?session=0&table=0&round=1", &bob).await;
    assert_eq!(replay.status, StatusCode::OK, "{}", replay.body);
    let replay = replay.json();
    assert_eq!(
        keys(&replay),
        [
            "banker_game",
            "command",
            "events",
            "folder",
            "league",
            "own_seat",
            "per",
            "round",
            "run",
            "seats",
            "seed",
            "session",
            "session_seed",
            "shared",
            "table",
            "transcript",
            "variant"
        ]
    );
    let shared =
        "pitboss replay --server http://localhost --token $TOKEN --run 1 --league 1 --session 0 --table 0 --round 1";
    assert_eq!((replay["command"].as_str(), replay["shared"].as_bool()), (Some(shared), Some(true)));
    let nobody = site.get("/api/runs/1/league-1/replay?session=0&table=0&round=1", &[]).await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED);

    let coach = site.get_as("/api/runs/1/league-1/coach", &alice).await;
    assert_eq!(coach.status, StatusCode::OK, "{}", coach.body);
    assert!(coach.json().is_object() && coach.json().get("error").is_none(), "{}", coach.body);
    let unnamed = site.get_as("/api/runs/1/league-1/coach", &site.admin).await;
    assert_eq!(
        (unnamed.status, unnamed.json()["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("name the bot: ?bot=NAME"))
    );

    let mine = site.get_as("/api/runs/1/league-1/mine.tar", &alice).await;
    assert_eq!(mine.status, StatusCode::OK);
    assert_eq!(mine.header(header::CONTENT_TYPE), "application/x-tar");
    assert!(mine.header(header::CONTENT_DISPOSITION).contains("run-1-league-1-alice.tar"));
    let organisers = site.get_as("/api/runs/1/league-1/mine.tar", &site.admin).await;
    assert_eq!(organisers.status, StatusCode::FORBIDDEN);

    let bundle = site.get_as("/api/runs/1/bundle.tar", &site.admin).await;
    assert_eq!((bundle.status, bundle.header(header::CONTENT_TYPE)), (StatusCode::OK, "application/x-tar"));
    assert!(bundle.body.contains("run-1/league-1/results.json"), "the tar names its files");
    assert_eq!(site.get_as("/api/runs/1/bundle.tar", &alice).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scrimmages_are_asked_for_listed_and_allowed_in_json() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let allow = site.call(Method::POST, "/api/me/allow-scrimmages", Some(&alice), Some(r#"{"allow":true}"#)).await;
    assert_eq!((allow.status, allow.json()), (StatusCode::OK, serde_json::json!({ "allow": true })));

    let ask = r#"{"league":1,"rounds":10,"opponents":["builtin:basic"]}"#;
    let no_bot = site.call(Method::POST, "/api/scrimmages", Some(&alice), Some(ask)).await;
    assert!(no_bot.status.is_client_error(), "{}", no_bot.body);
    assert!(no_bot.json()["error"].is_string());

    let passed = site.upload(&alice, "basic.wasm", wasm("basic")).await;
    assert_eq!(passed.status, StatusCode::CREATED);
    let queued = site.call(Method::POST, "/api/scrimmages", Some(&alice), Some(ask)).await;
    assert_eq!(queued.status, StatusCode::ACCEPTED, "{}", queued.body);
    assert_eq!(queued.json(), serde_json::json!({ "scrimmage": 1, "state": "queued" }));
    let far = r#"{"league":9,"rounds":10,"opponents":["builtin:basic"]}"#;
    let refused = site.call(Method::POST, "/api/scrimmages", Some(&alice), Some(far)).await;
    assert_eq!(
        (refused.status, refused.json()["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("league 9 is not 1 to 1"))
    );

    let list = site.get_as("/api/scrimmages", &alice).await.json();
    assert_eq!(
        keys(&list[0]),
        ["created", "entrant", "error", "id", "league", "rounds", "seats", "standings", "state", "waited"]
    );
    assert_eq!((list[0]["id"].as_i64(), list[0]["state"].as_str()), (Some(1), Some("queued")));
    let unplayed = site.get_as("/api/scrimmages/1/replay?session=0&table=0&round=1", &alice).await;
    assert_eq!(unplayed.status, StatusCode::NOT_FOUND, "{}", unplayed.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_passing_upload_is_scored_against_basic_and_the_page_says_so() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let verdict = site.upload(&alice, "basic.wasm", wasm("basic")).await.json();
    let score = &verdict["score"];
    assert_eq!(
        keys(score),
        [
            "basic_ev_pct",
            "ci95_pct",
            "ev_pct",
            "league",
            "of",
            "rank_if_active",
            "rounds",
            "status",
            "vs_basic_ci95",
            "vs_basic_per_100_rounds"
        ]
    );
    assert_eq!(score["league"], "Main");
    // Basic against basic on the same cards: no difference at all.
    assert_eq!(score["vs_basic_per_100_rounds"].as_f64(), Some(0.0), "{score}");
    assert_eq!(site.get_as("/api/submissions/1", &alice).await.json()["score"], *score, "kept with the submission");
    let (cookie, _) = site.session(Some(&alice));
    let me = site.get("/me", &[("cookie", &cookie)]).await;
    assert!(
        me.body.contains("Score on Main (") && me.body.contains("rounds against basic on the same cards"),
        "{}",
        me.body
    );

    let unscored = Site::with(&super::COMPETITION.replace("[[league]]", "[uploads]\nscore_rounds = 0\n[[league]]"));
    let bob = unscored.entrant("bob");
    let plain = unscored.upload(&bob, "basic.wasm", wasm("basic")).await.json();
    assert!(plain.get("score").is_none(), "no score without score_rounds: {plain}");
    let compare = unscored.get_as("/api/submissions/compare?a=1&b=2", &bob).await;
    assert_eq!(compare.status, StatusCode::NOT_FOUND);
    assert_eq!(compare.json()["error"], "this competition has no comparisons (score_rounds = 0)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entrant_over_their_request_rate_is_told_to_slow_down() {
    let site = Site::with(&super::COMPETITION.replace("[[league]]", "[server]\nrequests_per_minute = 10\n[[league]]"));
    let alice = site.entrant("alice");
    let mut last = None;
    for _ in 0..14 {
        last = Some(site.get_as("/api/me", &alice).await);
    }
    let last = last.unwrap();
    assert_eq!(last.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(last.json()["error"], "too many requests; slow down");
    assert!(last.header(header::RETRY_AFTER).parse::<u64>().is_ok_and(|s| s >= 1));
    // Public answers ask no one's rate.
    assert_eq!(site.get("/api/leaderboard", &[]).await.status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organiser_sees_when_each_entrant_was_last_seen_and_what_plays() {
    let site = Site::new();
    let alice = site.entrant("alice");
    site.entrant("bob");
    let list = || site.call(Method::GET, "/api/entrants", Some(&site.admin), None);
    let before = list().await.json();
    assert_eq!((before[0]["last_seen"].clone(), before[1]["last_seen"].clone()), (Value::Null, Value::Null));
    let verdict = site.upload(&alice, "basic.wasm", wasm("basic")).await.json();
    let after = list().await.json();
    let seen = |name: &str| after.as_array().unwrap().iter().find(|e| e["name"] == name).unwrap().clone();
    assert!(seen("alice")["last_seen"].as_u64().is_some_and(|t| t >= crate::db::now() - 60), "{after}");
    assert_eq!(seen("bob")["last_seen"], Value::Null, "bob made no request");
    assert_eq!(seen("alice")["active"], serde_json::json!({ "id": 1, "sha256": verdict["sha256"] }));
    assert_eq!(seen("bob")["active"], Value::Null);
}
