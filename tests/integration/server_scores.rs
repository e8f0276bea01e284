//! A score for every passing submission (EV, the paired difference from
//! `basic` on the same cards, rank-if-active) and two of one's
//! submissions compared on the same cards, by API, page and
//! `pitboss submissions`.

use crate::server::{Server, bytes, call, competition, html, login, scratch, wait_for_run};

#[test]
fn every_passing_submission_is_scored_against_basic_and_two_can_be_compared() {
    let dir = scratch("scores");
    let comp = competition(&dir, &["alice", "bob"], 2_000, 10);
    let text =
        std::fs::read_to_string(&comp).unwrap().replace("per_hour = 10\n", "per_hour = 10\nscore_rounds = 6000\n");
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin, alice, bob) =
        (server.url.clone(), server.token("admin"), server.token("alice"), server.token("bob"));
    let upload = |token: &str, bot: &str| {
        let (status, verdict) = call("POST", &format!("{url}/api/submissions"), Some(token), Some(&bytes(bot)));
        assert_eq!(status, 201, "{verdict}");
        verdict
    };

    // basic.wasm plays exactly as the built-in basic: no difference at all.
    let first = upload(&alice, "basic");
    let score = &first["score"];
    assert_eq!(score["rounds"], 6000, "{first}");
    assert_eq!((score["vs_basic_per_100_rounds"].as_f64(), score["vs_basic_ci95"].as_f64()), (Some(0.0), Some(0.0)));
    assert_eq!(score["ev_pct"], score["basic_ev_pct"]);
    assert_eq!((score["rank_if_active"].as_u64(), score["of"].as_u64()), (Some(1), Some(1)), "no run yet");
    // random loses to basic on the same cards, beyond luck.
    let second = upload(&alice, "random");
    let score = &second["score"];
    let (diff, ci) = (score["vs_basic_per_100_rounds"].as_f64().unwrap(), score["vs_basic_ci95"].as_f64().unwrap());
    assert!(diff < 0.0 && ci > 0.0 && -diff > ci, "{second}");
    let (a, b) = (first["id"].as_i64().unwrap(), second["id"].as_i64().unwrap());

    let compare = |token: Option<&str>, a: i64, b: i64| {
        call("GET", &format!("{url}/api/submissions/compare?a={a}&b={b}"), token, None)
    };
    let (status, d) = compare(Some(&alice), a, b);
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["rounds"], 6000);
    assert_eq!(d["sides"][0]["name"], format!("#{a}"));
    let (diff, ci) = (d["diff_per_100_rounds"].as_f64().unwrap(), d["diff_ci95"].as_f64().unwrap());
    assert!(diff > ci && ci > 0.0, "basic ahead of random beyond luck: {d}");
    assert!((diff + score["vs_basic_per_100_rounds"].as_f64().unwrap()).abs() < 1e-9, "the same duel: {d}");
    let (_, flipped) = compare(Some(&alice), b, a);
    assert!((flipped["diff_per_100_rounds"].as_f64().unwrap() + diff).abs() < 1e-9, "{flipped}");
    assert_eq!(compare(Some(&alice), a, a).0, 400);
    assert_eq!(compare(None, a, b).0, 401);
    let theirs = upload(&bob, "hilo")["id"].as_i64().unwrap();
    let (status, why) = compare(Some(&alice), a, theirs);
    assert_eq!(status, 404, "another's submission is not hers to compare: {why}");
    assert_eq!(compare(Some(&bob), a, theirs).0, 404);

    // The page, the form on /me, and the terminal.
    let cookie = login(&url, &alice);
    let me = html(&url, &cookie, "/me");
    assert!(me.contains("Score on Main (6000 rounds against basic") && me.contains(r#"id="compare""#), "{me}");
    let page = html(&url, &cookie, &format!("/me/compare?a={a}&b={b}"));
    assert!(page.contains(&format!("#{a} is ahead of #{b}, beyond luck")), "{page}");
    let ran = pitboss_tests::pitboss(&dir, &["submissions", "--server", &url, "--token", &alice]);
    assert_eq!(ran.stdout.matches("score: EV").count(), 2, "{}", ran.stdout);

    // After a run, rank-if-active places a new submission among the others.
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    wait_for_run(&url, run["run"].as_i64().unwrap(), "done", 300);
    // The coach on her bot of that run: random gives a lot away.
    let coach = format!("{url}/api/runs/{}/league-1/coach", run["run"]);
    let (status, coached) = call("GET", &coach, Some(&alice), None);
    assert_eq!(status, 200, "{coached}");
    let bot = &coached["bots"][0];
    assert!(
        (1..=5000).contains(&bot["rounds"].as_u64().unwrap()),
        "at most 5,000 rounds (fewer once broke): {coached}"
    );
    assert!(bot["ev_given_away"].as_f64().unwrap() > 1.0, "random gives EV away: {bot}");
    assert!(!bot["situations"].as_array().unwrap().is_empty(), "{bot}");
    assert_eq!(call("GET", &coach, Some(&alice), None).1, coached, "kept beside the run, played once");
    assert_eq!(call("GET", &coach, Some(&admin), None).0, 400, "the organiser names the bot");
    let (status, theirs) = call("GET", &format!("{coach}?bot=bob"), Some(&admin), None);
    assert_eq!((status, theirs["bots"][0]["bot"].is_string()), (200, true), "{theirs}");
    let page = html(&url, &cookie, &format!("/runs/{}/league-1/coach", run["run"]));
    assert!(page.contains("given away"), "{page}");
    let third = upload(&alice, "basic");
    assert_eq!(third["score"]["of"], 2, "bob's bot and hers: {third}");
    assert_eq!(third["score"]["ev_pct"], first["score"]["ev_pct"], "the same cards every time");
}
