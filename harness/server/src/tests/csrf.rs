//! Every page's POST is refused without its CSRF token or with a wrong
//! one, before it does anything, and passes with the right one; the list
//! of pages is checked against the routes, so a new POST page is tested
//! (and, taking its form through `crate::csrf`, cannot forget the check).

use axum::body::Body;
use axum::http::{Method, StatusCode, header};

use super::{Site, request};

/// Who posts a page's form.
#[derive(Clone, Copy, Debug)]
enum By {
    Entrant,
    Organiser,
    /// No session yet: the login and registration forms.
    Fresh,
}

/// Every page that takes a POST: its path, who posts it, its other
/// fields, and what the right token gets (a page, a redirect or a
/// refusal of the fields, never 403).
/// A page's POST: path, who, other fields, status with the right token.
type Post = (&'static str, By, &'static [(&'static str, &'static str)], u16);

const POSTS: [Post; 15] = [
    ("/logout", By::Entrant, &[], 303),
    ("/me/activate", By::Entrant, &[("id", "999")], 404),
    ("/me/upload", By::Entrant, &[], 400),
    ("/me/try", By::Entrant, &[("source", "x"), ("rounds", "0")], 400),
    ("/me/submit", By::Entrant, &[("source", " ")], 400),
    ("/me/scrimmages", By::Entrant, &[("rounds", "10")], 400),
    ("/me/scrimmages/allow", By::Entrant, &[("allow", "yes")], 303),
    ("/admin/entrants", By::Organiser, &[("name", "zed")], 200),
    ("/admin/entrant", By::Organiser, &[("name", "alice"), ("action", "disable")], 200),
    ("/admin/runs", By::Organiser, &[], 200),
    ("/admin/final", By::Organiser, &[], 200),
    ("/admin/publish", By::Organiser, &[], 200),
    ("/admin/runs/1/verify", By::Organiser, &[("sessions", "all")], 404),
    ("/login", By::Fresh, &[("token", "not-a-token")], 401),
    ("/register", By::Fresh, &[("name", "yann"), ("invite_code", "letmein-2026")], 200),
];

/// The paths of the routes with a POST that are pages (not `/api/`),
/// read from `routes.rs`.
fn page_posts() -> Vec<String> {
    include_str!("../routes.rs")
        .lines()
        .filter(|l| l.contains(".route(\"") && l.contains("post("))
        .filter_map(|l| l.split('"').nth(1))
        .filter(|p| !p.starts_with("/api/"))
        .map(|p| p.replace("{id}", "1"))
        .collect()
}

/// A multipart body of these text fields (the upload form).
fn multipart(fields: &[(&str, &str)]) -> (String, Body) {
    let mut body = String::new();
    for (name, value) in fields {
        body.push_str(&format!("--XyZ\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"));
    }
    body.push_str("--XyZ--\r\n");
    ("multipart/form-data; boundary=XyZ".into(), Body::from(body))
}

/// Posts `path`'s form with `csrf` (none: without the field) as `by`.
async fn post(
    site: &Site,
    alice: &str,
    path: &str,
    by: By,
    fields: &[(&str, &str)],
    csrf: Option<&str>,
) -> super::Answered {
    let (cookie, own) = match by {
        By::Entrant => site.session(Some(alice)),
        By::Organiser => site.session(None),
        By::Fresh => {
            let page = site.get(path, &[]).await;
            let cookie = page.header(header::SET_COOKIE).split(';').next().unwrap().to_string();
            let token = page.body.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap();
            (cookie, token.to_string())
        }
    };
    let token = csrf.map(|c| if c == "RIGHT" { own.clone() } else { c.to_string() });
    let mut all: Vec<(&str, &str)> = fields.to_vec();
    if let Some(t) = &token {
        all.push(("csrf", t));
    }
    let headers = [("cookie", cookie.as_str()), ("origin", "http://localhost")];
    if path == "/me/upload" {
        let (kind, body) = multipart(&all);
        let mut headers = headers.to_vec();
        headers.push(("content-type", &kind));
        return site.send(request(Method::POST, path, &headers, body)).await;
    }
    site.post_form(path, &headers, &all).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_post_is_refused_without_its_csrf_token_and_passes_with_it() {
    let listed: Vec<&str> = POSTS.iter().map(|p| p.0).collect();
    let mut routed = page_posts();
    routed.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(sorted, routed, "every page POST of routes.rs is listed here");

    for (path, by, fields, right) in POSTS {
        // A fresh site per page: logging out, disabling, registering
        // change what the next would see.
        let site = Site::new();
        let alice = site.entrant("alice");
        for csrf in [None, Some("forged")] {
            let answer = post(&site, &alice, path, by, fields, csrf).await;
            assert_eq!(answer.status, StatusCode::FORBIDDEN, "{path} with {csrf:?}: {}", answer.body);
            assert!(answer.body.contains("CSRF token is missing or wrong"), "{path}: {}", answer.body);
        }
        let answer = post(&site, &alice, path, by, fields, Some("RIGHT")).await;
        assert_eq!(answer.status.as_u16(), right, "{path} with its token: {}", answer.body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_form_changes_nothing() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let disable = [("name", "alice"), ("action", "disable")];
    let answer = post(&site, &alice, "/admin/entrant", By::Organiser, &disable, Some("forged")).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert!(!site.app.db.entrants().unwrap()[0].disabled, "a forged form disables no one");
    let answer = post(&site, &alice, "/admin/entrant", By::Organiser, &disable, Some("RIGHT")).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(site.app.db.entrants().unwrap()[0].disabled, "the page's own form does");
    // A forged login form counts against the address like a failed login:
    // past the limit, 429.
    let mut statuses = Vec::new();
    for _ in 0..40 {
        statuses
            .push(post(&site, &alice, "/login", By::Fresh, &[("token", "x")], Some("forged")).await.status.as_u16());
    }
    assert_eq!(statuses[0], 403);
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_check_looks_the_session_up_once_and_counts_one_request() {
    // Ten requests a minute: ten posts pass, each counted once though two
    // extractors (who, and the form's token) read the session.
    let site = Site::with(&super::COMPETITION.replace("[[league]]", "[server]\nrequests_per_minute = 10\n[[league]]"));
    let alice = site.entrant("alice");
    let (cookie, csrf) = site.session(Some(&alice));
    let mut statuses = Vec::new();
    for _ in 0..11 {
        let fields = [("csrf", csrf.as_str()), ("allow", "yes")];
        statuses.push(site.post_form("/me/scrimmages/allow", &[("cookie", &cookie)], &fields).await.status.as_u16());
    }
    assert_eq!(statuses[..10], [303; 10], "{statuses:?}");
    assert_eq!(statuses[10], 429, "the eleventh is over the rate: {statuses:?}");
}
