//! The organiser's similarity page: two entrants with the same module are
//! flagged as identical, each bot's agreement with basic is listed, the
//! fingerprints are kept, and no entrant may look.

use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};

use super::{Answered, Site, wasm};

/// The page once every fingerprint is played (it refreshes itself until
/// then).
async fn worked_out(site: &Site, cookie: &str) -> Answered {
    let started = Instant::now();
    loop {
        let page = site.get("/admin/similarity", &[("cookie", cookie)]).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        if !page.body.contains("similarity-progress") {
            return page;
        }
        assert_eq!(page.header(axum::http::HeaderName::from_static("refresh")), "2");
        assert!(started.elapsed() < Duration::from_secs(120), "still playing: {}", page.body);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organiser_sees_identical_modules_and_each_bots_agreement_with_basic_and_entrants_do_not() {
    let site = Site::new();
    let (alice, bob, carol) = (site.entrant("alice"), site.entrant("bob"), site.entrant("carol"));
    for (token, bot) in [(&alice, "basic"), (&bob, "basic"), (&carol, "never_bust")] {
        let answer = site.upload(token, &format!("{bot}.wasm"), wasm(bot)).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    }
    let (organiser, _) = site.session(None);
    let admin = site.get("/admin", &[("cookie", &organiser)]).await;
    assert!(admin.body.contains("href=\"/admin/similarity\""), "linked from the dashboard: {}", admin.body);

    let page = worked_out(&site, &organiser).await;
    for text in
        ["Identical module: ", "alice, bob", "the league <strong>Main</strong>", "No pair decides alike", "plays basic"]
    {
        assert!(page.body.contains(text), "lacks {text:?}: {}", page.body);
    }
    let json = site.call(Method::GET, "/api/similarity", Some(&site.admin), None).await;
    assert_eq!(json.status, StatusCode::OK, "{}", json.body);
    let json = json.json();
    assert_eq!(json["identical"][0][1], serde_json::json!(["alice", "bob"]), "{json}");
    let bots = json["bots"].as_array().unwrap();
    let row = |name: &str| bots.iter().find(|b| b["name"] == name).unwrap().clone();
    assert_eq!(
        (row("alice")["plays_basic"].as_bool(), row("carol")["plays_basic"].as_bool()),
        (Some(true), Some(false))
    );
    assert!(row("carol")["situations"].as_u64().unwrap() > 100, "{json}");
    assert_eq!(json["unlike"], 1, "basic against never-bust: {json}");
    // One fingerprint per module, kept.
    let kept = std::fs::read_dir(site.dir.join("similarity")).unwrap().count();
    assert_eq!(kept, 2);

    // An entrant gets no look, by page or by API.
    let (entrant, _) = site.session(Some(&alice));
    let refused = site.get("/admin/similarity", &[("cookie", &entrant)]).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert!(!refused.body.contains("carol"));
    let refused = site.call(Method::GET, "/api/similarity", Some(&alice), None).await;
    assert!(refused.status == StatusCode::FORBIDDEN || refused.status == StatusCode::UNAUTHORIZED, "{}", refused.body);
    let anonymous = site.get("/admin/similarity", &[]).await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER, "to the login: {}", anonymous.body);
}
