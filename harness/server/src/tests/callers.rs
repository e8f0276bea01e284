//! Who may call what: the API by bearer token only, pages by session
//! cookie only, each handler's extractor naming who it admits.

use axum::http::{Method, StatusCode, header};

use super::Site;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_takes_bearer_tokens_and_names_who_it_admits() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let needed = "a valid token is needed: Authorization: Bearer TOKEN";

    let none = site.call(Method::GET, "/api/me", None, None).await;
    assert_eq!((none.status, none.json()["error"].as_str()), (StatusCode::UNAUTHORIZED, Some(needed)));
    let wrong = site.get_as("/api/me", "pbe_not-a-token").await;
    assert_eq!((wrong.status, wrong.json()["error"].as_str()), (StatusCode::UNAUTHORIZED, Some(needed)));
    assert_eq!(site.get_as("/api/me", &alice).await.status, StatusCode::OK);

    // A session cookie is never a caller of the API (no other site can
    // make a browser call it).
    let (cookie, _) = site.session(Some(&alice));
    let by_cookie = site.get("/api/me", &[("cookie", &cookie)]).await;
    assert_eq!(by_cookie.status, StatusCode::UNAUTHORIZED);

    // The organiser's controls refuse an entrant; an entrant's refuse the
    // organiser.
    let refused = site.get_as("/api/entrants", &alice).await;
    assert_eq!(
        (refused.status, refused.json()["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("only the organiser may do this"))
    );
    let no_bot = site.get_as("/api/me", &site.admin).await;
    assert_eq!(no_bot.status, StatusCode::FORBIDDEN);
    assert_eq!(no_bot.json()["error"], "the organiser's token has no bot; use an entrant's");
    assert_eq!(site.get_as("/api/entrants", &site.admin).await.status, StatusCode::OK);

    // A disabled entrant's token stops working.
    let off = site.call(Method::POST, "/api/entrants/alice/disable", Some(&site.admin), None).await;
    assert_eq!((off.status, off.json()["done"].as_str()), (StatusCode::OK, Some("disable")));
    let disabled = site.get_as("/api/me", &alice).await;
    assert_eq!(disabled.status, StatusCode::FORBIDDEN);
    assert_eq!(disabled.json()["error"], "the organiser has disabled this entrant");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_take_sessions_and_send_everyone_else_where_they_belong() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let (entrant, _) = site.session(Some(&alice));
    let (organiser, _) = site.session(None);
    let go = |status: StatusCode, to: &str| (status, to.to_string());
    let at = |a: &super::Answered| (a.status, a.header(header::LOCATION).to_string());

    assert_eq!(at(&site.get("/me", &[]).await), go(StatusCode::SEE_OTHER, "/login"));
    assert_eq!(at(&site.get("/me", &[("cookie", &organiser)]).await), go(StatusCode::SEE_OTHER, "/admin"));
    assert_eq!(site.get("/me", &[("cookie", &entrant)]).await.status, StatusCode::OK);
    assert_eq!(at(&site.get("/admin", &[]).await), go(StatusCode::SEE_OTHER, "/login"));
    let refused = site.get("/admin", &[("cookie", &entrant)]).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(refused.json()["error"], "only the organiser may see this page");
    assert_eq!(site.get("/admin", &[("cookie", &organiser)]).await.status, StatusCode::OK);
    // A bearer token is no session: the page sends it to log in.
    let by_token = site.get_as("/me", &alice).await;
    assert_eq!(at(&by_token), go(StatusCode::SEE_OTHER, "/login"));
    // A stale cookie is no guess: the leaderboard shows as to anyone.
    let stale = site.get("/", &[("cookie", "pitboss_session=stale")]).await;
    assert_eq!(stale.status, StatusCode::OK);
    assert!(stale.body.contains("href=\"/login\""), "{}", stale.body);
}
