//! `pitboss serve`: a league exported from a run's bundle, played as
//! shards and merged with the real binary, imported back as a finished
//! run (and a foreign results file refused); forged, partial and swapped
//! runs refused by the import's proof; self-registration with the invite
//! code, by the API and by the page.

use std::path::{Path, PathBuf};

use pitboss_tests::{Ran, pitboss};
use serde_json::Value;

use crate::server::{Server, agent, bytes, call, competition, html, login, scratch, unpack_bundle, wait_for_run};

/// A server whose entrants alice (basic) and bob (hilo) played run 1 of a
/// two-session league; that league exported from the run's bundle, played
/// as two shards and merged into `results.json` in the returned folder.
fn played_as_shards(dir: &Path) -> (Server, i64, PathBuf) {
    let comp = competition(dir, &["alice", "bob"], 300, 10);
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let (s1, _) = call("POST", &format!("{url}/api/submissions"), Some(&server.token("alice")), Some(&bytes("basic")));
    let (s2, _) = call("POST", &format!("{url}/api/submissions"), Some(&server.token("bob")), Some(&bytes("hilo")));
    assert_eq!((s1, s2), (201, 201));
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let first = run["run"].as_i64().unwrap();
    wait_for_run(&url, first, "done", 300);

    let cluster = dir.join("cluster");
    unpack_bundle(&url, &admin, first, &cluster);
    let league = cluster.join(format!("run-{first}/league-1"));
    for i in 0..2 {
        let ran = pitboss(
            &league,
            &["run", "league.toml", "--shard", &format!("{i}/2"), "--json", &format!("shard-{i}.json")],
        );
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    }
    let ran = pitboss(&league, &["merge", "shard-0.json", "shard-1.json", "--json", "results.json"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    (server, first, league)
}

/// `pitboss serve competition.toml --data data --import-run FILE --league
/// K` in `dir`, with `more` arguments.
fn import(dir: &Path, file: &str, k: &str, more: &[&str]) -> Ran {
    let mut args = vec!["serve", "competition.toml", "--data", "data", "--import-run", file, "--league", k];
    args.extend(more);
    pitboss(dir, &args)
}

#[test]
fn a_league_played_as_shards_elsewhere_is_imported_and_a_foreign_one_refused() {
    let dir = scratch("import");
    let (server, first, league) = played_as_shards(&dir);
    let (url, admin) = (server.url.clone(), server.token("admin"));

    // Imported beside the running server: on the leaderboard and in the
    // history, after every session was replayed (two, fewer than the
    // sample of four).
    let results = league.join("results.json").display().to_string();
    let import_k = |file: &str, k: &str| import(&dir, file, k, &[]);
    let ran = import_k(&results, "1");
    assert_eq!(ran.code, Some(0), "{}{}", ran.stdout, ran.stderr);
    let id = first + 1;
    assert_eq!(
        ran.stdout.trim(),
        format!("imported run {id}: league 1 (`Main`), 2 bots; all 2 session(s) replayed, identical byte for byte")
    );
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    assert_eq!(board["latest"]["run"], id, "{board}");
    assert_eq!(board["latest"]["leagues"][0]["rows"].as_array().unwrap().len(), 2, "{board}");
    let imported = board["runs"].as_array().unwrap().iter().find(|r| r["id"] == id).unwrap().clone();
    assert_eq!(imported["state"], "done", "{board}");
    assert!(imported["reason"].as_str().unwrap().starts_with("imported results.json"), "{imported}");
    let (status, report) = call("GET", &format!("{url}/runs/{id}/league-1/report.html"), Some(&admin), None);
    assert_eq!(status, 200, "the report was written: {report}");
    let ran = pitboss(&dir, &["verify", &format!("data/runs/{id}/league-1/results.json")]);
    assert!(ran.stdout.contains("identical, byte for byte"), "{}{}", ran.stdout, ran.stderr);

    // Refused with a one-line reason: another league's results, a league
    // the competition lacks, one shard alone.
    let text = std::fs::read_to_string(league.join("league.toml")).unwrap();
    std::fs::write(league.join("other.toml"), text.replace("seed = 5", "seed = 6")).unwrap();
    let ran = pitboss(&league, &["run", "other.toml", "--json", "other.json"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let other = league.join("other.json").display().to_string();
    for (file, k, why) in [
        (other.as_str(), "1", "not a run of league 1 (`Main`) of this competition: it embeds league `Main` (seed 6"),
        (results.as_str(), "2", "this competition has no league 2"),
        (&league.join("shard-0.json").display().to_string(), "1", "shard"),
    ] {
        let ran = import_k(file, k);
        assert_ne!(ran.code, Some(0), "{file} was imported");
        assert_eq!(ran.stderr.trim().lines().count(), 1, "one line: {}", ran.stderr);
        assert!(ran.stderr.contains(why), "{why}: {}", ran.stderr);
    }
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    assert_eq!(board["latest"]["run"], id, "nothing recorded by a refusal: {board}");
    let left: Vec<_> = std::fs::read_dir(dir.join("data/runs")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 2, "no staging folder left behind: {left:?}");
}

#[test]
fn forged_partial_and_swapped_runs_are_refused_by_the_import_in_one_line() {
    let dir = scratch("import-forged");
    let (server, first, league) = played_as_shards(&dir);
    let url = server.url.clone();

    // The league played with a subset of the entrants, with their modules
    // swapped, and with a stranger.
    let text = std::fs::read_to_string(league.join("league.toml")).unwrap();
    let paths: Vec<&str> = text.lines().filter(|l| l.starts_with("path = ")).collect();
    assert_eq!(paths.len(), 2, "{text}");
    let swapped = text.replacen(paths[0], "@", 1).replacen(paths[1], paths[0], 1).replacen('@', paths[1], 1);
    let subset = text[..text.find("\n[[bot]]\nname = \"bob\"").unwrap()].to_string();
    let stranger = format!("{text}\n[[bot]]\nname = \"carol\"\nbuiltin = \"basic\"\n");
    let mut cases: Vec<(String, Vec<&str>, &str)> = Vec::new();
    for (name, league_text, why) in [
        ("subset", subset, "entrant `bob`'s active bot did not play"),
        ("swapped", swapped, "not entrant `alice`'s active module"),
        ("stranger", stranger, "bot `carol` is not an enabled entrant"),
    ] {
        std::fs::write(league.join(format!("{name}.toml")), league_text).unwrap();
        let ran = pitboss(&league, &["run", &format!("{name}.toml"), "--json", &format!("{name}.json")]);
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
        cases.push((league.join(format!("{name}.json")).display().to_string(), vec![], why));
    }

    // The genuine results edited: a derived figure alone; every session's
    // net shifted with its balance samples, tally and standings so that
    // the file adds up; the chips wagered cut to make the EV a hundredfold.
    let genuine: Value = serde_json::from_str(&std::fs::read_to_string(league.join("results.json")).unwrap()).unwrap();
    let forge = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut v = genuine.clone();
        edit(&mut v);
        let path = league.join(name);
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        path.display().to_string()
    };
    let tally = forge("tally.json", &|v| *v.pointer_mut("/standings/0/tally/hands/win").unwrap() = (1_000_000).into());
    let shifted = forge("shifted.json", &shift_every_session_of_the_leader);
    let cheap = forge("cheap.json", &|v| {
        let top = &mut v["standings"][0];
        let wagered = top["wagered"].as_i64().unwrap() / 100;
        set_ev(top, wagered);
    });
    let added = "its figures do not add up: standings[0].tally.hands.win: 1000000 in the file";
    cases.push((tally, vec![], added));
    cases.push((shifted.clone(), vec!["--verify-sessions", "1"], "differs from its replay: sessions["));
    cases.push((shifted, vec!["--verify-all"], "differs from its replay: sessions["));
    cases.push((cheap, vec!["--verify-sessions", "1"], "but the 1 replayed session(s) alone bet"));
    for (file, more, why) in &cases {
        let ran = import(&dir, file, "1", more);
        assert_ne!(ran.code, Some(0), "{file} was imported: {}", ran.stdout);
        assert_eq!(ran.stderr.trim().lines().count(), 1, "one line: {}", ran.stderr);
        assert!(ran.stderr.contains(why), "{file}: {why}: {}", ran.stderr);
    }
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    assert_eq!(board["latest"]["run"], first, "nothing recorded by a refusal: {board}");

    // The genuine file passes a sample of one session, drawn at random.
    let results = league.join("results.json").display().to_string();
    let ran = import(&dir, &results, "1", &["--verify-sessions", "1"]);
    assert_eq!(ran.code, Some(0), "{}{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("(1 of 2, chosen at random) replayed, identical"), "{}", ran.stdout);
    let left: Vec<_> = std::fs::read_dir(dir.join("data/runs")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 2, "no staging folder left behind: {left:?}");
}

/// Adds 50 chips to the leading bot's net in every session, with its last
/// balance sample and its tally (hands against an ace), and the sums to
/// its standing: a file that adds up, but not what was played.
fn shift_every_session_of_the_leader(v: &mut Value) {
    let leader = v["standings"][0]["name"].clone();
    let i = v["bots"].as_array().unwrap().iter().position(|b| b["name"] == leader).unwrap();
    let add = |x: &mut Value, d: i64| *x = (x.as_i64().unwrap() + d).into();
    let sessions = v["sessions"].as_array().unwrap().len() as i64;
    for s in v["sessions"].as_array_mut().unwrap() {
        let b = &mut s["bots"][i];
        add(&mut b["net"], 50);
        add(b["series"].as_array_mut().unwrap().last_mut().unwrap(), 50);
        add(&mut b["tally"]["by-dealer-up"][0]["net"], 50);
    }
    let top = &mut v["standings"][0];
    for field in ["net", "balance"] {
        add(&mut top[field], 50 * sessions);
    }
    add(&mut top["tally"]["by-dealer-up"][0]["net"], 50 * sessions);
    let wagered = top["wagered"].as_i64().unwrap();
    set_ev(top, wagered);
}

/// Sets a standing's chips wagered, and its EV to match (as Pitboss
/// computes it: net over wagered).
fn set_ev(standing: &mut Value, wagered: i64) {
    let ev = standing["net"].as_i64().unwrap() as f64 / wagered as f64;
    standing["wagered"] = wagered.into();
    standing["ev"] = ev.into();
    standing["ev_pct"] = (ev * 100.0).into();
}

#[test]
fn anyone_with_the_invite_code_registers_by_the_api_or_the_page_and_gets_a_token_once() {
    let dir = scratch("register");
    let comp = competition(&dir, &["alice"], 300, 10);
    let text =
        std::fs::read_to_string(&comp).unwrap().replace("[entrants]\n", "[entrants]\ninvite_code = \"letmein-2026\"\n");
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let url = server.url.clone();
    let register = |body: &str| call("POST", &format!("{url}/api/register"), None, Some(body.as_bytes()));

    // The API.
    let (status, body) = register(r#"{"name":"zoe","invite_code":"letmein-2026"}"#);
    assert_eq!(status, 201, "{body}");
    let token = body["token"].as_str().unwrap().to_string();
    let (status, me) = call("GET", &format!("{url}/api/me"), Some(&token), None);
    assert_eq!((status, me["name"].as_str()), (200, Some("zoe")), "the new token works: {me}");
    assert_eq!(register(r#"{"name":"mallory","invite_code":"guess"}"#).0, 403, "a wrong code is refused");
    assert_eq!(register(r#"{"name":"mallory"}"#).0, 403, "no code is refused");
    assert_eq!(register(r#"{"name":"zoe","invite_code":"letmein-2026"}"#).0, 409, "a taken name is refused");
    assert_eq!(register(r#"{"name":"ZOE","invite_code":"letmein-2026"}"#).0, 409, "in any letter case");
    assert_eq!(register(r#"{"name":"<script>","invite_code":"letmein-2026"}"#).0, 400, "a bad name is refused");

    // The page: a form whose CSRF token rides in a SameSite=Strict cookie.
    let mut form = agent().get(&format!("{url}/register")).call().unwrap();
    assert_eq!(form.status().as_u16(), 200);
    let cookie = form.headers().get("set-cookie").unwrap().to_str().unwrap().to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    let cookie = cookie.split(';').next().unwrap().to_string();
    let page = form.body_mut().read_to_string().unwrap();
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().to_string();
    let post = |csrf: &str, name: &str, code: &str| {
        let mut answer = agent()
            .post(&format!("{url}/register"))
            .header("Cookie", &cookie)
            .send_form([("csrf", csrf), ("name", name), ("invite_code", code)])
            .unwrap();
        (answer.status().as_u16(), answer.body_mut().read_to_string().unwrap())
    };
    assert_eq!(post("forged", "yann", "letmein-2026").0, 403, "a forged CSRF token is refused");
    assert_eq!(post(&csrf, "yann", "nope").0, 403, "a wrong code is refused");
    let (status, page) = post(&csrf, "yann", "letmein-2026");
    assert_eq!(status, 200, "{page}");
    let token = page.split("id=\"token\">").nth(1).and_then(|s| s.split('<').next()).unwrap().to_string();
    assert!(token.starts_with("pbe_"), "{page}");
    let me = html(&url, &login(&url, &token), "/me");
    assert!(me.contains("<h1>yann</h1>"), "the shown token logs in: {me}");
    let (status, page) = post(&csrf, "yann", "letmein-2026");
    assert!(status == 409 && page.contains("already an entrant named"), "{status} {page}");
}

#[test]
fn an_import_says_what_its_sample_proved_and_the_organiser_replays_the_rest_on_the_page() {
    let dir = scratch("import-sample");
    let (server, first, league) = played_as_shards(&dir);
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let results = league.join("results.json").display().to_string();
    let ran = import(&dir, &results, "1", &["--verify-sessions", "1"]);
    assert_eq!(ran.code, Some(0), "{}{}", ran.stdout, ran.stderr);
    let id = first + 1;
    let said = "(1 of 2, chosen at random) replayed, identical: a forgery of 1 session would have been missed \
                with probability 0.50; replay more with --verify-sessions N or --verify-all";
    assert!(ran.stdout.contains(said), "{}", ran.stdout);

    // The organiser's page says the same and replays the rest when asked.
    let cookie = login(&url, &admin);
    let page = html(&url, &cookie, "/admin");
    let line = "1 of 2 sessions replayed: a forgery of 1 session would have been missed with probability 0.50.";
    assert!(page.contains(line), "{page}");
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().to_string();
    let ask = |sessions: &str| {
        let form = [("csrf", csrf.as_str()), ("sessions", sessions)];
        let answer = agent().post(&format!("{url}/admin/runs/{id}/verify")).header("Cookie", &cookie).send_form(form);
        answer.unwrap().status().as_u16()
    };
    assert_eq!(ask("lots"), 400, "a number or `all`");
    assert_eq!(ask("all"), 303);
    let start = std::time::Instant::now();
    loop {
        let page = html(&url, &cookie, "/admin");
        if page.contains("every one of the 2 session(s) was replayed: no forged session was missed") {
            assert!(!page.contains(&format!("action=\"/admin/runs/{id}/verify\"")), "nothing left to ask for");
            break;
        }
        assert!(!page.contains("then: "), "a genuine run replays identical: {page}");
        assert!(start.elapsed().as_secs() < 120, "never replayed: {page}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}
