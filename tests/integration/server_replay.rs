//! Any round of a competition run, replayed by the server: an entrant
//! gets every round of their own tables with only their own bot's log
//! lines, `pitboss replay --server` prints exactly what `pitboss replay`
//! prints from the organiser's bundle, the entrant's own download
//! replays their solo table locally, and with `public_reports = false`
//! another's table is the organiser's alone.

use std::path::Path;

use serde_json::json;

use crate::server::{Server, agent, call, html, logging_bot, login, scratch, unpack_bundle, wait_for_run};

/// Two leagues: everyone at one table, then each bot at its own.
fn two_leagues(dir: &Path, public: bool) -> std::path::PathBuf {
    let league = |name: &str, format: &str| {
        format!(
            "[[league]]\nname = \"{name}\"\nvariant = \"north-american\"\nformat = \"{format}\"\nrounds = 300\n\
             sessions = 2\nseed = 11\nbankroll = 1000000\n"
        )
    };
    let text = format!(
        "name = \"Replay cup\"\npublic_reports = {public}\n[uploads]\nmax_kib = 512\nper_hour = 10\n\
         [entrants]\nnames = [\"alice\", \"bob\", \"carol\"]\n{}{}",
        league("Shared", "table"),
        league("Alone", "solo")
    );
    let path = dir.join("competition.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Starts a server, uploads alice's and bob's logging bots, plays a run.
fn played(name: &str, public: bool) -> (std::path::PathBuf, Server, i64) {
    let dir = scratch(name);
    let comp = two_leagues(&dir, public);
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    for (who, says) in [("alice", "alice-thinks"), ("bob", "bob-secret")] {
        let (status, verdict) =
            call("POST", &format!("{url}/api/submissions"), Some(&server.token(who)), Some(&logging_bot(says)));
        assert_eq!(status, 201, "{verdict}");
    }
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let id = run["run"].as_i64().unwrap();
    wait_for_run(&url, id, "done", 300);
    (dir, server, id)
}

fn replay_url(url: &str, id: i64, league: u32, session: u64, table: usize, round: u64) -> String {
    format!("{url}/api/runs/{id}/league-{league}/replay?session={session}&table={table}&round={round}")
}

#[test]
fn an_entrant_replays_any_round_of_their_tables_and_the_terminal_shows_what_the_bundle_shows() {
    let (dir, server, id) = played("replay", true);
    let (url, admin, alice) = (server.url.clone(), server.token("admin"), server.token("alice"));

    // A shared table: alice sees every box's actions but only her own logs.
    let (status, mine) = call("GET", &replay_url(&url, id, 1, 1, 0, 250), Some(&alice), None);
    assert_eq!(status, 200, "{mine}");
    let transcript = mine["transcript"].as_str().unwrap();
    assert!(transcript.contains("alice-thinks") && !transcript.contains("bob-secret"), "{transcript}");
    assert_eq!(mine["seats"].as_array().unwrap().len(), 2, "{mine}");
    assert!(transcript.contains("-- round 250") && transcript.contains("box 1"), "every box's play: {transcript}");
    assert!(mine["events"].as_array().unwrap().iter().any(|e| e["event"] == "settled"), "{mine}");
    // Shared: bob's module stays on the server, so the command asks it.
    let command =
        format!("pitboss replay --server {url} --token $TOKEN --run {id} --league 1 --session 1 --table 0 --round 250");
    assert_eq!((mine["command"].as_str(), &mine["shared"]), (Some(command.as_str()), &json!(true)), "{mine}");
    let words: Vec<String> = command.replace("$TOKEN", &alice).split(' ').skip(1).map(String::from).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let ran = pitboss_tests::pitboss(&dir, &words);
    assert_eq!(ran.code, Some(0), "the command offered works: {}", ran.stderr);
    assert!(ran.stdout.contains("-- round 250") && ran.stdout.contains("alice-thinks"), "{}", ran.stdout);
    let (_, all) = call("GET", &replay_url(&url, id, 1, 1, 0, 250), Some(&admin), None);
    assert!(all["transcript"].as_str().unwrap().contains("bob-secret"), "the organiser sees every log");

    // The organiser's terminal and the bundle agree byte for byte.
    let bundle = dir.join("bundle");
    unpack_bundle(&url, &admin, id, &bundle);
    let results = format!("run-{id}/league-1/results.json");
    let local =
        pitboss_tests::pitboss(&bundle, &["replay", &results, "--session", "1", "--table", "0", "--round", "250"]);
    assert_eq!(local.code, Some(0), "{}", local.stderr);
    let args = ["--run", &id.to_string(), "--league", "1", "--session", "1", "--table", "0", "--round", "250"];
    let remote = |token: &str| {
        let mut all = vec!["replay", "--server", &url, "--token", token];
        all.extend(args);
        pitboss_tests::pitboss(&dir, &all)
    };
    let ran = remote(&admin);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(ran.stdout, local.stdout, "pitboss replay --server prints what pitboss replay prints");
    assert_eq!(remote(&alice).stdout.replace("alice-thinks", ""), strip_log_lines_of(&local.stdout, "bob-secret"));

    // Alice's solo table: the server, the bundle and her own download agree.
    let results = format!("run-{id}/league-2/results.json");
    let seating = alone_table(&bundle.join(&results), "alice");
    let local = pitboss_tests::pitboss(
        &bundle,
        &["replay", &results, "--session", "0", "--table", &seating.to_string(), "--round", "7"],
    );
    assert_eq!(local.code, Some(0), "{}", local.stderr);
    let table = seating.to_string();
    let ran = pitboss_tests::pitboss(
        &dir,
        &[
            "replay",
            "--server",
            &url,
            "--token",
            &alice,
            "--run",
            &id.to_string(),
            "--league",
            "2",
            "--table",
            &table,
            "--round",
            "7",
        ],
    );
    assert_eq!((ran.code, &ran.stdout), (Some(0), &local.stdout), "{}", ran.stderr);
    let own = dir.join("own");
    std::fs::create_dir_all(&own).unwrap();
    let mut answer = agent()
        .get(&format!("{url}/api/runs/{id}/league-2/mine.tar"))
        .header("Authorization", &format!("Bearer {alice}"))
        .call()
        .unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    std::fs::write(own.join("mine.tar"), answer.body_mut().read_to_vec().unwrap()).unwrap();
    assert!(std::process::Command::new("tar").args(["-xf", "mine.tar"]).current_dir(&own).status().unwrap().success());
    let wasm = std::fs::read_dir(own.join(format!("run-{id}/league-2/bots"))).unwrap().count();
    assert_eq!(wasm, 1, "her own module only");
    let ran = pitboss_tests::pitboss(&own, &["replay", &results, "--table", &table, "--round", "7"]);
    assert_eq!((ran.code, &ran.stdout), (Some(0), &local.stdout), "{}", ran.stderr);
    let other = 1 - seating;
    let ran = pitboss_tests::pitboss(&own, &["replay", &results, "--table", &other.to_string(), "--round", "7"]);
    assert_ne!(ran.code, Some(0), "bob's module is not in her download");
    assert!(ran.stderr.contains("bob") && ran.stderr.contains("--bots"), "{}", ran.stderr);

    // The page: the round in the hand viewer, under the report's policy.
    let cookie = login(&url, &alice);
    let path = format!("/runs/{id}/league-1/replay?session=1&table=0&round=250");
    let page = html(&url, &cookie, &path);
    assert!(page.contains(r#"id="felt""#) && page.contains("alice-thinks") && !page.contains("bob-secret"), "{page}");
    assert!(page.contains("Session seed") && page.contains("pitboss replay --server"), "{page}");
    assert!(page.contains("a shared table: 2 bots"), "{page}");
    let seat = mine["seats"].as_array().unwrap().iter().position(|n| n == "alice").unwrap();
    assert!(page.contains(&format!("<span class=\"own\">seat {seat}: alice (you)</span>")), "{page}");
    assert!(page.contains(&format!("<span class=\"own\">box {seat}: ")), "her box's lines marked: {page}");
    assert!(page.contains("<nav>") && page.contains("My bot (alice)"), "the site's navigation: {page}");
    let alone = format!("/runs/{id}/league-2/replay?session=0&table={table}&round=7");
    let alone = html(&url, &cookie, &alone);
    assert!(alone.contains("pitboss replay results.json --session 0") && alone.contains("alone at its table"));
    let me = html(&url, &cookie, "/me");
    assert!(me.contains(&format!(r#"action="/runs/{id}/league-1/replay""#)) && me.contains("mine.tar"), "{me}");

    // Refusals, each in one line.
    for (token, at, want) in [
        (None, replay_url(&url, id, 1, 0, 0, 1), 401),
        (Some(&alice), replay_url(&url, id, 1, 0, 0, 301), 404),
        (Some(&alice), replay_url(&url, id, 1, 2, 0, 1), 404),
        (Some(&alice), replay_url(&url, id, 1, 0, 3, 1), 404),
        (Some(&alice), replay_url(&url, id, 9, 0, 0, 1), 404),
        (Some(&alice), replay_url(&url, id + 1, 1, 0, 0, 1), 404),
        (Some(&alice), format!("{url}/api/runs/{id}/league-1/replay?session=x&table=0&round=1"), 400),
    ] {
        let (status, why) = call("GET", &at, token.map(String::as_str), None);
        assert_eq!(status, want, "{at}: {why}");
    }
    let (status, why) =
        call("GET", &format!("{url}/api/runs/{id}/league-2/mine.tar"), Some(&server.token("carol")), None);
    assert_eq!(status, 404, "carol did not play: {why}");
}

#[test]
fn with_private_reports_an_entrant_replays_only_tables_they_sat_at() {
    let (dir, server, id) = played("replay-private", false);
    let (url, alice) = (server.url.clone(), server.token("alice"));
    let results = dir.join(format!("data/runs/{id}/league-2/results.json"));
    let seat = alone_table(&results, "alice");
    let (status, _) = call("GET", &replay_url(&url, id, 2, 0, seat, 3), Some(&alice), None);
    assert_eq!(status, 200);
    let (status, why) = call("GET", &replay_url(&url, id, 2, 0, 1 - seat, 3), Some(&alice), None);
    assert_eq!(status, 403, "{why}");
    assert!(why["error"].as_str().unwrap().contains("did not sit at this table"), "{why}");
    let (status, _) = call("GET", &replay_url(&url, id, 2, 0, 1 - seat, 3), Some(&server.token("admin")), None);
    assert_eq!(status, 200, "the organiser replays every table");
}

/// The table of the solo league's first session where `name` sits.
fn alone_table(results: &Path, name: &str) -> usize {
    let results: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(results).unwrap()).unwrap();
    // Solo: one table per bot, in league order.
    results["bots"].as_array().unwrap().iter().position(|b| b["name"] == name).unwrap()
}

/// `transcript` without the log lines that hold `secret`.
fn strip_log_lines_of(transcript: &str, secret: &str) -> String {
    let kept: Vec<&str> = transcript.lines().filter(|l| !l.contains(secret)).collect();
    let mut out = kept.join("\n");
    out.push('\n');
    out.replace("alice-thinks", "")
}
