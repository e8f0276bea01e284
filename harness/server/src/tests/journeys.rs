//! Whole journeys through the router, in-process: an entrant's (upload by
//! the page's form, choose a bot, read how it did, take their files
//! home) and the organiser's (two leagues and the overall table, the
//! bundle, coaching a named bot, replaying more of an imported run).

use std::io::Read;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};

use super::{COMPETITION, Site, keys, request, wasm};
use crate::verification::Verification;

/// The names of the files in an uncompressed tar.
fn tar_names(bytes: &[u8]) -> Vec<String> {
    let mut archive = tar::Archive::new(bytes);
    let mut names: Vec<String> =
        archive.entries().unwrap().map(|e| e.unwrap().path().unwrap().display().to_string()).collect();
    names.sort();
    names
}

/// A multipart upload form: the token and the file.
fn upload_form(csrf: &str, name: &str, bytes: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{csrf}\r\n--XyZ\r\n\
         Content-Disposition: form-data; name=\"bot\"; filename=\"{name}\"\r\nContent-Type: application/wasm\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(b"\r\n--XyZ--\r\n");
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entrant_uploads_by_the_form_chooses_a_bot_and_takes_their_files_home() {
    let site = Site::new();
    let (alice, bob) = (site.entrant("alice"), site.entrant("bob"));
    let (cookie, csrf) = site.session(Some(&alice));
    let send = |name: &str, bytes: Vec<u8>| {
        let headers = [("cookie", cookie.as_str()), ("content-type", "multipart/form-data; boundary=XyZ")];
        request(Method::POST, "/me/upload", &headers, Body::from(upload_form(&csrf, name, &bytes)))
    };
    for (k, bot) in ["basic", "never_bust"].iter().enumerate() {
        let answer = site.send(send(&format!("{bot}.wasm"), wasm(bot))).await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.body);
        assert_eq!(answer.header(header::LOCATION), format!("/me#sub-{}", k + 1));
    }
    let junk = site.send(send("junk.wasm", b"\0asm junk".to_vec())).await;
    assert_eq!(junk.header(header::LOCATION), "/me#sub-3", "a failed upload is recorded with its verdict");
    let me = site.get("/me", &[("cookie", &cookie)]).await;
    for text in ["id=\"sub-1\"", "id=\"sub-2\"", "class=\"submission failed\" id=\"sub-3\"", "Play this one", "ACTIVE"]
    {
        assert!(me.body.contains(text), "/me lacks {text}: {}", me.body);
    }

    // The latest passing upload plays; the form chooses the first again.
    let active = |site: &Site| site.app.db.submissions(1).unwrap().into_iter().find(|s| s.active).map(|s| s.id);
    assert_eq!(active(&site), Some(2));
    let chosen = site.post_form("/me/activate", &[("cookie", &cookie)], &[("csrf", &csrf), ("id", "1")]).await;
    assert_eq!((chosen.status, chosen.header(header::LOCATION)), (StatusCode::SEE_OTHER, "/me"));
    assert_eq!(active(&site), Some(1));
    let failed = site.post_form("/me/activate", &[("cookie", &cookie)], &[("csrf", &csrf), ("id", "3")]).await;
    assert_eq!(failed.status, StatusCode::NOT_FOUND, "a failed upload cannot play");

    assert_eq!(site.upload(&bob, "never_bust.wasm", wasm("never_bust")).await.status, StatusCode::CREATED);
    site.play_run().await;
    let me = site.get_as("/api/me", &alice).await.json();
    assert_eq!(
        keys(&me["status"][0]),
        ["ev_pct", "faults", "folder", "league", "net", "of", "rank", "run", "state", "why"]
    );
    assert_eq!((me["status"][0]["of"].as_u64(), me["status"][0]["league"].as_str()), (Some(2), Some("Main")));
    assert_eq!(keys(&me["faults"][0]), ["first", "folder", "league", "run", "total"]);
    assert_eq!(keys(&me["logs"][0]), ["first", "league", "total"]);

    let mine = site.get_as("/api/runs/1/league-1/mine.tar", &alice).await;
    assert_eq!(mine.status, StatusCode::OK);
    let bytes = mine.bytes;
    let names = tar_names(&bytes);
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(&names[1..], ["run-1/league-1/league.toml", "run-1/league-1/results.json"]);
    assert!(names[0].starts_with("run-1/league-1/bots/") && names[0].ends_with(".wasm"), "{names:?}");
    let mut archive = tar::Archive::new(bytes.as_slice());
    let mut module = Vec::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        if entry.path().unwrap().to_string_lossy().contains("/bots/") {
            entry.read_to_end(&mut module).unwrap();
        }
    }
    assert_eq!(module, wasm("basic"), "their own module, the one that played");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_leagues_rank_overall_and_the_organiser_takes_the_whole_run() {
    let second = "[[league]]\nname = \"Euro\"\nvariant = \"swedish\"\nrounds = 100\nseed = 2\nbankroll = 1000\n";
    let site = Site::with(&format!("{COMPETITION}{second}"));
    let (alice, bob) = (site.entrant("alice"), site.entrant("bob"));
    for (token, bot) in [(&alice, "basic"), (&bob, "never_bust")] {
        assert_eq!(site.upload(token, &format!("{bot}.wasm"), wasm(bot)).await.status, StatusCode::CREATED);
    }
    site.play_run().await;
    let board = site.get("/", &[]).await;
    for text in ["<h2>Overall</h2>", "id=\"overall\"", "<h2>Main</h2>", "<h2>Euro</h2>", "/runs/1/league-2/report.html"]
    {
        assert!(board.body.contains(text), "/ lacks {text}: {}", board.body);
    }
    let api = site.get("/api/leaderboard", &[]).await.json();
    let overall = api["latest"]["overall"].as_array().unwrap();
    assert_eq!(overall.len(), 2);
    assert_eq!(overall[0]["rank"], 1);
    let csv = site.get("/api/leaderboard.csv", &[]).await;
    assert_eq!(csv.body.lines().count(), 5, "a row per league and bot: {}", csv.body);
    assert!(csv.body.contains(",Euro,"), "{}", csv.body);

    let bundle = site.get_as("/api/runs/1/bundle.tar", &site.admin).await;
    assert_eq!(bundle.header(header::CONTENT_DISPOSITION), "attachment; filename=\"run-1.tar\"");
    let names = tar_names(&bundle.bytes);
    for file in ["league.toml", "results.json", "report.html", "public/results.json", "public/report.html"] {
        for league in ["league-1", "league-2"] {
            let name = format!("run-1/{league}/{file}");
            assert!(names.contains(&name), "the bundle lacks {name}: {names:?}");
        }
    }
    assert_eq!(names.iter().filter(|n| n.contains("/bots/") && n.ends_with(".wasm")).count(), 4, "{names:?}");

    let (organiser, _) = site.session(None);
    let coached = site.get("/runs/1/league-2/coach?bot=bob", &[("cookie", &organiser)]).await;
    assert_eq!(coached.status, StatusCode::OK, "{}", coached.body);
    assert!(coached.body.contains("Coach · run 1 · league-2"), "{}", coached.body);
    let json = site.get_as("/api/runs/1/league-1/coach?bot=alice", &site.admin).await;
    assert_eq!(json.status, StatusCode::OK);
    assert!(json.json().get("error").is_none(), "{}", json.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organiser_replays_more_of_an_imported_runs_sessions_from_the_page() {
    let (site, _alice, _bob) = Site::played().await;
    // Run 1 as an import would have recorded it: one of its sessions
    // proved by replay, the rest not yet.
    let recorded =
        Verification { folder: "league-1".into(), sessions: 2, replayed: vec![0], state: "proved".into(), note: None };
    site.app.db.set_verification(1, &recorded).unwrap();
    let (organiser, csrf) = site.session(None);
    let admin = site.get("/admin", &[("cookie", &organiser)]).await;
    assert!(admin.body.contains("id=\"verified-1\""), "{}", admin.body);
    assert!(admin.body.contains(&recorded.line()), "{}", admin.body);
    assert!(admin.body.contains("action=\"/admin/runs/1/verify\""), "a form offers the rest: {}", admin.body);

    let asked = site
        .post_form("/admin/runs/1/verify", &[("cookie", &organiser)], &[("csrf", &csrf), ("sessions", "all")])
        .await;
    assert_eq!((asked.status, asked.header(header::LOCATION)), (StatusCode::SEE_OTHER, "/admin"));
    let started = std::time::Instant::now();
    let done = loop {
        let v = site.app.db.verification(1).unwrap().unwrap();
        if v.state != "replaying" || started.elapsed().as_secs() > 120 {
            break v;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    // The whole file replayed and compared: a run the worker played is
    // what its replay makes.
    assert_eq!(done.state, "proved", "{done:?}");
    assert_eq!(done.replayed, [0], "{done:?}");
    let nothing =
        site.post_form("/admin/runs/7/verify", &[("cookie", &organiser)], &[("csrf", &csrf), ("sessions", "2")]).await;
    assert_eq!(nothing.status, StatusCode::NOT_FOUND);
    assert!(nothing.body.contains("no such imported run"), "{}", nothing.body);
}
