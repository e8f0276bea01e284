//! An entrant's status first: a banner per league of the latest run
//! (played, broke, disqualified and why, not in the run), their faults as
//! a table, the leaderboard saying what it ranks by, and the organiser's
//! page with each entrant's active bot, last upload and the runs' reports.

use crate::server::{Server, bytes, call, competition, html, login, scratch, wait_for_run};

/// A bot that bets the minimum and stands, until its 20,001st decision of
/// a session: from then on every answer is illegal. A check (2,000 rounds)
/// never gets there; a long session does.
pub fn late_trapper() -> Vec<u8> {
    wat::parse_str(
        r#"(module
  (memory (export "memory") 1)
  (global $n (mut i32) (i32.const 0))
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (global.set $n (i32.add (global.get $n) (i32.const 1)))
    (if (i32.gt_u (global.get $n) (i32.const 20000)) (then (return (i64.const 999))))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))"#,
    )
    .expect("the trapper assembles")
}

#[test]
fn a_disqualified_entrant_sees_why_first_and_the_organiser_sees_every_entrants_state() {
    let dir = scratch("status");
    let comp = competition(&dir, &["alice", "bob", "carol"], 12_000, 10);
    let text = std::fs::read_to_string(&comp)
        .unwrap()
        .replace("bankroll = 1000000\n", "bankroll = 1000000\nfault_limit = 5\n");
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let (status, verdict) = call("POST", &format!("{url}/api/submissions"), Some(&alice), Some(&late_trapper()));
    assert_eq!(status, 201, "the check does not reach the trap: {verdict}");
    assert_eq!(call("POST", &format!("{url}/api/submissions"), Some(&bob), Some(&bytes("basic"))).0, 201);
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let id = run["run"].as_i64().unwrap();
    wait_for_run(&url, id, "done", 300);

    let (_, me) = call("GET", &format!("{url}/api/me"), Some(&alice), None);
    let status = &me["status"][0];
    assert_eq!((status["state"].as_str(), status["run"].as_i64()), (Some("disqualified"), Some(id)), "{me}");
    assert!(status["why"]["round"].as_u64().unwrap() > 2_000, "the round it was disqualified at: {me}");
    assert!(!status["why"]["message"].as_str().unwrap().is_empty(), "{me}");
    let page = html(&url, &login(&url, &alice), "/me");
    assert!(page.contains(r#"class="banner dq""#) && page.contains("Disqualified at <a"), "{page}");
    // The round that disqualified her, one click away, replayed.
    let link = page.split(r#"Disqualified at <a class="replay" href=""#).nth(1).unwrap().split('"').next().unwrap();
    let round = html(&url, &login(&url, &alice), &link.replace("&amp;", "&"));
    assert!(round.contains("FAULT in bet (illegal)") && round.contains(r#"id="felt""#), "{round}");
    assert!(
        page.contains(r#"<table class="faults">"#) && page.contains("<td>illegal</td>"),
        "faults as a table: {page}"
    );
    let page = html(&url, &login(&url, &bob), "/me");
    assert!(page.contains(r#"class="banner passed""#) && page.contains("rank 1 of 2 by final chips"), "{page}");
    assert_eq!(page.matches("<svg class=\"chips\"").count(), 1, "his chips over the rounds: {page}");
    assert_eq!(
        page.split("<svg class=\"chips\"").nth(1).unwrap().split("</svg>").next().unwrap().matches("<polyline").count(),
        2,
        "a line per session"
    );
    let page = html(&url, &login(&url, &server.token("carol")), "/me");
    assert!(page.contains("not in run") || page.contains("No run has finished with your bot"), "{page}");

    let board = html(&url, "x=y", "/");
    assert!(board.contains("Ranked by final chips"), "the leaderboard says what it ranks by");
    assert!(board.contains(&format!("/runs/{id}/league-1/report.html")), "each run links its report");
    let mut csv = crate::server::agent().get(&format!("{url}/api/leaderboard.csv")).call().unwrap();
    assert_eq!(csv.status().as_u16(), 200);
    let csv = csv.body_mut().read_to_string().unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0], "run,league,rank,entrant,status,net,ev_pct,ev_ci95_pct,faults,luck_ev_pct,luck_ci95_pct",
        "{csv}"
    );
    assert!(lines[1].starts_with(&format!("{id},Main,1,bob,,")) && lines[2].contains(",alice,DQ,"), "{csv}");
    let ran = pitboss_tests::pitboss(&dir, &["submissions", "--server", &url, "--token", &alice]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(
        ran.stdout.starts_with("#1 ") && ran.stdout.contains("passed") && ran.stdout.contains("ACTIVE"),
        "{}",
        ran.stdout
    );
    let ran = pitboss_tests::pitboss(&dir, &["standings", "--server", &url]);
    assert!(ran.stdout.contains("ranked by final chips") && ran.stdout.contains(" chips "), "{}", ran.stdout);

    let organiser = login(&url, &admin);
    let page = html(&url, &organiser, "/admin");
    for shown in [
        "entrant-alice",
        "entrant-carol",
        "never",
        "passed",
        "league-1 report",
        "Main: #2 DQ, ",
        "Main: #1, 0 fault(s)",
    ] {
        assert!(page.contains(shown), "the organiser's page shows {shown}: {page}");
    }
    let log = html(&url, &organiser, "/admin/submissions");
    assert!(log.contains("<td>alice</td>") && log.contains("<td>bob</td>"), "{log}");
    let log = html(&url, &organiser, "/admin/submissions?entrant=ALICE&outcome=passed");
    assert!(log.contains("<td>alice</td>") && !log.contains("<td>bob</td>") && log.contains("1 upload(s)"), "{log}");
    let (status, _) = call("GET", &format!("{url}/admin/submissions"), Some(&alice), None);
    assert_eq!(status, 303, "an entrant's token is no session: to the login page");

    // A second run: the leaderboard draws each league's rank history.
    assert!(!html(&url, "x=y", "/").contains("Rank history"), "no chart of a single run");
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    wait_for_run(&url, run["run"].as_i64().unwrap(), "done", 300);
    let board = html(&url, "x=y", "/");
    assert!(board.contains("Rank history") && board.contains(r#"<svg class="history""#), "{board}");
    // A line per entrant who played (a path, broken only where its
    // entrant missed a run), and each in the legend below.
    assert_eq!(board.matches("<path d=\"M").count(), 2, "a line per entrant who played: {board}");
    assert_eq!(board.matches("<ul class=\"lines\"><li>").count(), 1, "the legend: {board}");
    let cookie = login(&url, &bob);
    let first = html(&url, &cookie, &format!("/me?run={id}"));
    assert!(first.contains(r#"id="run-pick""#) && first.contains(&format!("in run {id} ")), "an earlier run: {first}");
    assert!(board.contains("<title>alice</title>") && board.contains("<title>bob</title>"), "{board}");
    std::fs::write(pitboss_tests::artifacts().join("server-rank-history.html"), &board).unwrap();
}

#[test]
fn a_final_run_after_the_deadline_freezes_the_standings() {
    let dir = scratch("final");
    let comp = competition(&dir, &["alice", "bob"], 300, 10);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let deadline = now + 25;
    let out =
        std::process::Command::new("date").args(["-u", "-d", &format!("@{deadline}"), "+%Y-%m-%dT%H:%M:%SZ"]).output();
    let when = String::from_utf8(out.unwrap().stdout).unwrap();
    let text = std::fs::read_to_string(&comp).unwrap().replacen(
        "[uploads]",
        &format!("deadline = \"{}\"\n[uploads]", when.trim()),
        1,
    );
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    for (who, bot) in [("alice", "basic"), ("bob", "hilo")] {
        let (status, verdict) =
            call("POST", &format!("{url}/api/submissions"), Some(&server.token(who)), Some(&bytes(bot)));
        assert_eq!(status, 201, "{verdict}");
    }
    let (status, early) = call("POST", &format!("{url}/api/runs/final"), Some(&admin), None);
    assert_eq!(status, 409, "not before the deadline: {early}");
    let (status, _) = call("POST", &format!("{url}/api/runs/final"), Some(&server.token("alice")), None);
    assert_eq!(status, 403, "the organiser's alone");
    while std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() <= deadline {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let (status, run) = call("POST", &format!("{url}/api/runs/final"), Some(&admin), None);
    assert_eq!(status, 202, "{run}");
    let id = run["run"].as_i64().unwrap();
    assert_eq!(call("POST", &format!("{url}/api/runs/final"), Some(&admin), None).0, 409, "once");
    wait_for_run(&url, id, "done", 300);
    let (status, refused) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    assert_eq!(status, 409, "nothing after the final run: {refused}");
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    assert_eq!((board["final"].as_i64(), board["latest"]["run"].as_i64()), (Some(id), Some(id)), "{board}");
    assert_eq!(board["latest"]["final_run"], true, "{board}");
    let page = html(&url, "x=y", "/");
    assert!(page.contains("Final standings"), "{page}");
}
