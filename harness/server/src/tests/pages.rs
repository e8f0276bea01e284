//! Every page: its status and what it must show, before any run and
//! after one, to anyone, an entrant and the organiser; and the security
//! headers every answer carries.

use std::time::{Duration, Instant};

use axum::http::{StatusCode, header};

use super::{Answered, COMPETITION, Site, wasm};

/// `answer` is a 200 page holding every one of `texts`.
fn shows(answer: &Answered, what: &str, texts: &[&str]) {
    assert_eq!(answer.status, StatusCode::OK, "{what}: {}", answer.body);
    assert!(answer.header(header::CONTENT_TYPE).starts_with("text/html"), "{what}: {:?}", answer.headers);
    for text in texts {
        assert!(answer.body.contains(text), "{what} lacks {text:?}:\n{}", answer.body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn before_any_run_every_page_says_so() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let (entrant, csrf) = site.session(Some(&alice));
    let (organiser, admin_csrf) = site.session(None);

    let board = site.get("/", &[]).await;
    shows(
        &board,
        "/",
        &["<h1>Class</h1>", "id=\"no-run\"", "No run has finished yet.", "href=\"/login\"", "/api/leaderboard.csv"],
    );
    assert!(!board.body.contains("Rank history"), "no history without runs");

    let login = site.get("/login", &[]).await;
    shows(&login, "/login", &["Log in to Class", "name=\"csrf\"", "name=\"token\"", "href=\"/register\""]);
    assert!(login.header(header::SET_COOKIE).starts_with("pitboss_form="), "{:?}", login.headers);
    let register = site.get("/register", &[]).await;
    shows(&register, "/register", &["Register for Class", "name=\"invite_code\"", "name=\"name\""]);

    let me = site.get("/me", &[("cookie", &entrant)]).await;
    shows(
        &me,
        "/me",
        &[
            "<h1>alice</h1>",
            "id=\"upload\"",
            &format!("value=\"{csrf}\""),
            "accept=\".wasm,.py,.js\"",
            "No run has finished with your bot yet.",
            "None yet.",
            "None recorded.",
            "None in the stored hands.",
            "My bot (alice)",
        ],
    );
    assert!(!me.body.contains("id=\"compare\""), "no comparing without two passing submissions");

    let scrimmages = site.get("/me/scrimmages", &[("cookie", &entrant)]).await;
    shows(&scrimmages, "/me/scrimmages", &["<h1>Scrimmages</h1>", "builtin:basic", "may not", "Allow it", "None yet."]);

    let admin = site.get("/admin", &[("cookie", &organiser)]).await;
    shows(
        &admin,
        "/admin",
        &[
            "<h1>Organiser</h1>",
            "Entrants (1 of at most",
            "id=\"entrant-alice\"",
            "none",
            "never",
            &admin_csrf,
            "Run now",
        ],
    );
    let log = site.get("/admin/submissions", &[("cookie", &organiser)]).await;
    shows(&log, "/admin/submissions", &["Submission log", "0 upload(s)"]);

    // Nothing of a run that did not happen.
    for path in
        ["/runs/1/league-1/report.html", "/runs/1/league-1/replay?session=0&table=0&round=1", "/runs/1/league-1/coach"]
    {
        let answer = site.get(path, &[("cookie", &entrant)]).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}: {}", answer.body);
    }
    assert_eq!(site.get("/nowhere", &[]).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_competition_without_an_invite_code_has_no_registration_page() {
    let site = Site::with(&COMPETITION.replace("invite_code = \"letmein-2026\"\n", ""));
    let register = site.get("/register", &[]).await;
    assert_eq!(register.status, StatusCode::NOT_FOUND);
    assert!(register.body.contains("This competition has no self-registration."), "{}", register.body);
    let login = site.get("/login", &[]).await;
    assert!(!login.body.contains("href=\"/register\""), "{}", login.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_run_every_page_shows_it() {
    let (site, alice, _bob) = Site::played().await;
    let (entrant, _) = site.session(Some(&alice));
    let (organiser, _) = site.session(None);

    let board = site.get("/", &[]).await;
    shows(
        &board,
        "/",
        &[
            "Run 1, finished",
            "2 bots",
            "<h2>Main</h2>",
            "north-american",
            "alice",
            "bob",
            "EV %",
            "id=\"runs\"",
            "/runs/1/league-1/report.html",
            "/runs/1/league-1/results.json",
        ],
    );
    assert!(!board.body.contains("id=\"no-run\""));

    let me = site.get("/me", &[("cookie", &entrant)]).await;
    shows(
        &me,
        "/me",
        &[
            "id=\"sub-1\"",
            "basic.wasm",
            "ACTIVE",
            "in run 1 — rank",
            "of 2 by final chips",
            "/runs/1/league-1/coach",
            "/runs/1/league-1/replay",
            "/api/runs/1/league-1/mine.tar",
            "Faults in the run",
        ],
    );
    let run_1 = site.get("/me?run=1", &[("cookie", &entrant)]).await;
    shows(&run_1, "/me?run=1", &["in run 1 — rank"]);

    let admin = site.get("/admin", &[("cookie", &organiser)]).await;
    shows(&admin, "/admin", &["Entrants (2 of at most", "Main: #", "/api/runs/1/bundle.tar", "league-1 report"]);
    let log = site.get("/admin/submissions", &[("cookie", &organiser)]).await;
    shows(&log, "/admin/submissions", &["2 upload(s)", "basic.wasm", "never_bust.wasm", "passed"]);
    let passed = site.get("/admin/submissions?outcome=failed", &[("cookie", &organiser)]).await;
    shows(&passed, "/admin/submissions?outcome=failed", &["0 upload(s)"]);

    let replay = site.get("/runs/1/league-1/replay?session=0&table=0&round=1", &[("cookie", &entrant)]).await;
    shows(&replay, "replay", &["alice"]);
    let coach = site.get("/runs/1/league-1/coach", &[("cookie", &entrant)]).await;
    shows(&coach, "coach", &["alice"]);

    // Public reports: anyone reads the public copies, which hold no log
    // lines; the report sets its own policy (its script runs).
    let report = site.get("/runs/1/league-1/report.html", &[]).await;
    shows(&report, "report", &["alice", "bob"]);
    assert!(report.header(header::CONTENT_SECURITY_POLICY).contains("script-src 'unsafe-inline'"));
    let results = site.get("/runs/1/league-1/results.json", &[]).await;
    assert_eq!(results.status, StatusCode::OK);
    let results = results.json();
    assert_eq!((results["schema_version"].as_u64(), results["bots"].as_array().map(Vec::len)), (Some(2), Some(2)));
    assert!(results["standings"].is_array(), "{results}");
    let league = site.get("/runs/1/league-1/league.toml", &[]).await;
    assert!(league.status == StatusCode::OK && league.body.contains("[[bot]]"), "{}", league.body);
    assert_eq!(site.get("/runs/1/league-1/secret.txt", &[]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(site.get("/runs/1/league-9x/report.html", &[]).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_security_headers() {
    let site = Site::new();
    for path in ["/", "/login", "/api/leaderboard", "/nowhere"] {
        let answer = site.get(path, &[]).await;
        let csp = answer.header(header::CONTENT_SECURITY_POLICY);
        assert!(csp.contains("default-src 'none'") && csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("script-src"), "{path}: pages run no script: {csp}");
        assert_eq!(answer.header(header::X_FRAME_OPTIONS), "DENY", "{path}");
        assert_eq!(answer.header(header::X_CONTENT_TYPE_OPTIONS), "nosniff", "{path}");
        assert_eq!(answer.header(header::REFERRER_POLICY), "same-origin", "{path}");
        assert_eq!(answer.header(header::CACHE_CONTROL), "no-store", "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organisers_forms_do_what_they_say() {
    let site = Site::new();
    site.entrant("alice");
    let (organiser, csrf) = site.session(None);
    let post = |path: &'static str, fields: Vec<(&'static str, String)>| {
        let (organiser, csrf) = (organiser.clone(), csrf.clone());
        let site = &site;
        async move {
            let mut all: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            all.push(("csrf", &csrf));
            site.post_form(path, &[("cookie", &organiser)], &all).await
        }
    };
    let added = post("/admin/entrants", vec![("name", "zed".into())]).await;
    shows(&added, "add", &["Entrant zed's token (shown once)", "id=\"token\"", "id=\"entrant-zed\""]);
    let again = post("/admin/entrants", vec![("name", "ZED".into())]).await;
    shows(&again, "add again", &["there is already an entrant named `ZED`"]);
    let bad = post("/admin/entrants", vec![("name", "no spaces".into())]).await;
    shows(&bad, "a bad name", &["is not an entrant name"]);

    let disabled = post("/admin/entrant", vec![("name", "zed".into()), ("action", "disable".into())]).await;
    shows(&disabled, "disable", &["Entrant zed: disable done.", "DISABLED", "Enable"]);
    let token = post("/admin/entrant", vec![("name", "zed".into()), ("action", "token".into())]).await;
    shows(&token, "new token", &["Entrant zed's new token (shown once)"]);
    let ask = post("/admin/entrant", vec![("name", "zed".into()), ("action", "remove".into())]).await;
    shows(&ask, "remove, asked", &["Remove zed?", "id=\"confirm-remove\"", "name=\"confirm\" value=\"yes\""]);
    assert!(site.app.db.has_entrant("zed").unwrap(), "asking removes no one");
    let removed =
        post("/admin/entrant", vec![("name", "zed".into()), ("action", "remove".into()), ("confirm", "yes".into())])
            .await;
    shows(&removed, "remove", &["Entrant zed: remove done."]);
    assert!(!site.app.db.has_entrant("zed").unwrap());
    let nobody = post("/admin/entrant", vec![("name", "zed".into()), ("action", "enable".into())]).await;
    shows(&nobody, "no such entrant", &["No such entrant."]);
    let what = post("/admin/entrant", vec![("name", "alice".into()), ("action", "promote".into())]).await;
    assert_eq!(what.status, StatusCode::BAD_REQUEST);
    assert!(what.body.contains("No such action: disable, enable, remove or token."), "{}", what.body);

    let run = post("/admin/runs", vec![]).await;
    shows(&run, "run now", &["Run 1 queued."]);
    // The final run takes the place of the run still queued.
    let before_deadline = post("/admin/final", vec![]).await;
    shows(&before_deadline, "final", &["Final run 1 queued"]);
    let twice = post("/admin/final", vec![]).await;
    shows(&twice, "final again", &["the final run is already queued, running or done"]);
    let verify = post("/admin/runs/1/verify", vec![("sessions", "many".into())]).await;
    assert_eq!(verify.status, StatusCode::BAD_REQUEST);
    assert!(verify.body.contains("sessions: a number from 1, or `all`"), "{}", verify.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entrants_forms_do_what_they_say() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let (cookie, csrf) = site.session(Some(&alice));
    let headers = [("cookie", cookie.as_str())];

    let allow = site.post_form("/me/scrimmages/allow", &headers, &[("csrf", &csrf), ("allow", "yes")]).await;
    assert_eq!((allow.status, allow.header(header::LOCATION)), (StatusCode::SEE_OTHER, "/me/scrimmages"));
    assert!(site.app.db.allows_scrimmages(site.app.db.entrants().unwrap()[0].id).unwrap());
    let page = site.get("/me/scrimmages", &headers).await;
    shows(&page, "allowed", &["Others may play", "Stop allowing it"]);

    // No passing bot yet: a scrimmage is refused in words on the page.
    let ask = [("csrf", csrf.as_str()), ("league", "1"), ("rounds", "10"), ("opponent", "builtin:basic")];
    let refused = site.post_form("/me/scrimmages", &headers, &ask).await;
    assert!(refused.status.is_client_error(), "{}", refused.body);
    assert!(refused.body.contains("<h1>Scrimmages</h1>"), "{}", refused.body);

    let none = site.post_form("/me/activate", &headers, &[("csrf", &csrf), ("id", "1")]).await;
    assert_eq!(none.status, StatusCode::NOT_FOUND);
    assert!(none.body.contains("No such submission of yours that passed its check."));

    let out = site.post_form("/logout", &headers, &[("csrf", &csrf)]).await;
    assert_eq!((out.status, out.header(header::LOCATION)), (StatusCode::SEE_OTHER, "/"));
    assert!(out.header(header::SET_COOKIE).contains("Max-Age=0"));
    let after = site.get("/me", &headers).await;
    assert_eq!((after.status, after.header(header::LOCATION)), (StatusCode::SEE_OTHER, "/login"), "the session ended");
    // A stale page's "Log out" without a session goes to the front page.
    let stale = site.post_form("/logout", &headers, &[("csrf", &csrf)]).await;
    assert_eq!((stale.status, stale.header(header::LOCATION)), (StatusCode::SEE_OTHER, "/"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logging_in_and_registering_by_the_forms() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let form = |path: &'static str| {
        let site = &site;
        async move {
            let page = site.get(path, &[]).await;
            let cookie = page.header(header::SET_COOKIE).split(';').next().unwrap().to_string();
            let csrf = page.body.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
            (cookie, csrf)
        }
    };
    let (cookie, csrf) = form("/login").await;
    let headers = [("cookie", cookie.as_str()), ("origin", "http://localhost")];
    let wrong = site.post_form("/login", &headers, &[("csrf", &csrf), ("token", "pbe_nope")]).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.body.contains("That token is not known here."), "{}", wrong.body);
    let right = site.post_form("/login", &headers, &[("csrf", &csrf), ("token", &alice)]).await;
    assert_eq!((right.status, right.header(header::LOCATION)), (StatusCode::SEE_OTHER, "/me"));
    let session = right.header(header::SET_COOKIE);
    assert!(
        session.starts_with("pitboss_session=") && session.contains("HttpOnly") && session.contains("SameSite=Strict")
    );
    let session = session.split(';').next().unwrap().to_string();
    shows(
        &site.get("/me", &[("cookie", &session)]).await,
        "/me after login",
        &["<h1>alice</h1>", "href=\"/download/bot.py\""],
    );
    // From another site's page: refused, whatever the token.
    let elsewhere = [("cookie", cookie.as_str()), ("origin", "https://evil.example")];
    let forged = site.post_form("/login", &elsewhere, &[("csrf", &csrf), ("token", &alice)]).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    // The organiser's token logs in to their page.
    let admin = site.post_form("/login", &headers, &[("csrf", &csrf), ("token", &site.admin)]).await;
    assert_eq!(admin.header(header::LOCATION), "/admin");

    let (cookie, csrf) = form("/register").await;
    let headers = [("cookie", cookie.as_str()), ("origin", "http://localhost")];
    let code =
        site.post_form("/register", &headers, &[("csrf", &csrf), ("name", "yann"), ("invite_code", "nope")]).await;
    assert_eq!(code.status, StatusCode::FORBIDDEN);
    assert!(code.body.contains("Wrong invite code."), "{}", code.body);
    let fields = [("csrf", csrf.as_str()), ("name", "yann"), ("invite_code", "letmein-2026")];
    let proxied = [("cookie", cookie.as_str()), ("origin", "https://localhost"), ("x-forwarded-proto", "https")];
    let welcome = site.post_form("/register", &proxied, &fields).await;
    shows(&welcome, "registered", &["Welcome, yann", "id=\"token\"", "shown only this once", "class=\"copy\""]);
    // The token once, its command line with the address the browser used
    // (the proxy's https), and a session: yann lands logged in.
    let token = welcome.body.split("id=\"token\">").nth(1).unwrap().split('<').next().unwrap();
    let line = format!("pitboss submit --server https://localhost --token {token} bot.wasm");
    assert!(token.starts_with("pbe_") && welcome.body.contains(&line), "{line}: {}", welcome.body);
    assert!(welcome.body.contains("href=\"/me\">My bot (yann)"), "the navigation knows yann: {}", welcome.body);
    assert!(welcome.header(header::CONTENT_SECURITY_POLICY).contains("script-src 'self'"), "the copy script runs");
    let session = welcome.header(header::SET_COOKIE);
    assert!(session.starts_with("pitboss_session=") && session.contains("HttpOnly") && session.contains("; Secure"));
    let session = session.split(';').next().unwrap().to_string();
    shows(&site.get("/me", &[("cookie", &session)]).await, "/me after registering", &["<h1>yann</h1>"]);
    let script = site.get("/copy.js", &[]).await;
    assert!(script.status == StatusCode::OK && script.body.contains("clipboard"), "{}", script.body);
    let taken = site.post_form("/register", &headers, &fields).await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
    assert!(taken.body.contains("there is already an entrant named `yann`"), "{}", taken.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scrimmages_are_asked_for_on_their_page_and_coaching_is_for_who_played() {
    let (site, alice, bob) = Site::played().await;
    let (cookie, csrf) = site.session(Some(&alice));
    let ask = [("csrf", csrf.as_str()), ("league", "1"), ("rounds", "10"), ("opponent", "builtin:basic")];
    let asked = site.post_form("/me/scrimmages", &[("cookie", &cookie)], &ask).await;
    assert_eq!((asked.status, asked.header(header::LOCATION)), (StatusCode::SEE_OTHER, "/me/scrimmages"));
    let page = site.get("/me/scrimmages", &[("cookie", &cookie)]).await;
    shows(&page, "/me/scrimmages", &["id=\"scrimmage-1\"", "queued", "league 1 · 10 rounds"]);
    let (bobs, _) = site.session(Some(&bob));
    let others = site.get("/me/scrimmages", &[("cookie", &bobs)]).await;
    assert!(!others.body.contains("id=\"scrimmage-1\""), "alice's, not bob's: {}", others.body);

    // Someone registered after the run did not play in it.
    let late = site.entrant("late");
    let coach = site.get_as("/api/runs/1/league-1/coach", &late).await;
    assert_eq!(
        (coach.status, coach.json()["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("your bot did not play in this run"))
    );
    let mine = site.get_as("/api/runs/1/league-1/mine.tar", &late).await;
    assert_eq!(mine.status, StatusCode::NOT_FOUND);
    let (organiser, _) = site.session(None);
    let replay = site.get("/runs/1/league-1/replay?session=0&table=0&round=1", &[("cookie", &organiser)]).await;
    shows(&replay, "the organiser's replay", &["href=\"/admin\""]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_scrimmage_page_refreshes_itself_until_the_scrimmage_is_played() {
    let (site, alice, _bob) = Site::played().await;
    let (cookie, csrf) = site.session(Some(&alice));
    let refresh = header::HeaderName::from_static("refresh");
    let none = site.get("/me/scrimmages", &[("cookie", &cookie)]).await;
    assert_eq!(none.header(refresh.clone()), "", "nothing to wait for");
    let ask = [("csrf", csrf.as_str()), ("league", "1"), ("rounds", "10"), ("opponent", "builtin:basic")];
    let asked = site.post_form("/me/scrimmages", &[("cookie", &cookie)], &ask).await;
    assert_eq!(asked.status, StatusCode::SEE_OTHER, "{}", asked.body);
    let queued = site.get("/me/scrimmages", &[("cookie", &cookie)]).await;
    shows(&queued, "a queued scrimmage", &["queued", "id=\"scrimmage-refresh\""]);
    assert_eq!(queued.header(refresh.clone()), "3", "{:?}", queued.headers);
    site.work_until(|db| db.scrimmage(1, None).unwrap().is_some_and(|s| s.state == "done")).await;
    let done = site.get("/me/scrimmages", &[("cookie", &cookie)]).await;
    shows(&done, "a played scrimmage", &["done", "builtin:basic"]);
    assert_eq!(done.header(refresh), "", "stops once played: {:?}", done.headers);
    assert!(!done.body.contains("scrimmage-refresh"), "{}", done.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organisers_table_names_each_active_bot_by_its_file_escaped_and_shortened() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let long = "<b>alices-blackjack-bot-for-the-class-competition-final-version-2.wasm";
    let answer = site.upload(&alice, long, wasm("basic")).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    let (organiser, _) = site.session(None);
    let admin = site.get("/admin", &[("cookie", &organiser)]).await;
    let row = admin.body.split("id=\"entrant-alice\"").nth(1).unwrap_or("").split("</tr>").next().unwrap_or("");
    assert!(row.contains("#1 &lt;b&gt;alices-blackj…-version-2.wasm</span>"), "shortened: {row}");
    assert!(
        row.contains(
            "title=\"#1 &lt;b&gt;alices-blackjack-bot-for-the-class-competition-final-version-2.wasm (SHA-256 "
        ),
        "whole in its title: {row}"
    );
    assert!(!row.contains("<b>"), "escaped: {row}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_cookie_behind_https_is_secure() {
    let site = Site::new();
    let alice = site.entrant("alice");
    let form = site.get("/login", &[]).await;
    let cookie = form.header(header::SET_COOKIE).split(';').next().unwrap().to_string();
    let csrf = form.body.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    let headers = [("cookie", cookie.as_str()), ("x-forwarded-proto", "https")];
    let login = site.post_form("/login", &headers, &[("csrf", &csrf), ("token", &alice)]).await;
    assert_eq!(login.status, StatusCode::SEE_OTHER, "{}", login.body);
    assert!(login.header(header::SET_COOKIE).ends_with("; Secure"), "{:?}", login.headers);
    let plain = site.post_form("/login", &[("cookie", &cookie)], &[("csrf", &csrf), ("token", &alice)]).await;
    assert!(!plain.header(header::SET_COOKIE).contains("Secure"), "{:?}", plain.headers);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_coaching_page_shows_its_progress_then_names_the_league_the_few_hands_and_the_students_own_file() {
    let (site, alice, _bob) = Site::played().await;
    let (entrant, _) = site.session(Some(&alice));
    let started = Instant::now();
    let coached = loop {
        let page = site.get("/runs/1/league-1/coach", &[("cookie", &entrant)]).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        assert!(page.body.contains("Coach · run 1 · league-1"), "{}", page.body);
        if !page.body.contains("id=\"coach-progress\"") {
            assert_eq!(page.header(header::HeaderName::from_static("refresh")), "", "a coaching shown stays");
            break page;
        }
        // Still playing: the rounds so far of all, and the page refreshes itself.
        assert_eq!(page.header(header::HeaderName::from_static("refresh")), "2");
        assert!(page.body.contains("Playing the rounds of alice's bot: ") && page.body.contains(" / 2,000 rounds"));
        assert!(started.elapsed() < Duration::from_secs(300), "{}", page.body);
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let body = &coached.body;
    assert!(body.contains("League <strong>Main</strong>: every decision of your bot over 2,000 rounds"), "{body}");
    assert!(body.contains("where each bot gives EV away") && body.contains("For card counters"), "{body}");
    // Every figure of the coach's one list has its row, with its plain words.
    for f in pitboss_results::coach::figures::FIGURES {
        let row = format!(r#"<th class="l" scope="row">{}</th>"#, f.label);
        assert!(body.contains(&row) && body.contains(f.what), "{}: {body}", f.label);
    }
    // Under exactly the rows met fewer than 30 times, the note.
    let json = site.get_as("/api/runs/1/league-1/coach", &alice).await.json();
    let few = json["bots"][0]["situations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["count"].as_u64().is_some_and(|n| n < 30));
    assert_eq!(body.matches(": too few to be sure of.").count(), few.count(), "{body}");
    // See it: the file alice uploaded (basic.wasm), no path of the server's.
    let commands: Vec<&str> = body.split("<code>pitboss play ").skip(1).collect();
    assert!(!commands.is_empty(), "{body}");
    for command in commands {
        let command = command.split("</code>").next().unwrap();
        assert!(command.contains("--bot basic.wasm ") && command.contains("--only-round "), "{command}");
        assert!(!command.contains("alice.wasm") && !command.contains(&*site.dir.to_string_lossy()), "{command}");
    }
    // Played once: the page shows the kept coaching at once.
    let again = site.get("/runs/1/league-1/coach", &[("cookie", &entrant)]).await;
    assert!(!again.body.contains("coach-progress") && again.body.contains("League <strong>Main</strong>"));
}
