//! `pitboss serve`: who owns what is the entrant, not the name. After the
//! organiser removes `bob`, whoever registers `bob` again (by the invite
//! code, or the organiser adding the name) is someone else: none of old
//! bob's module (`mine.tar`), log lines (replays, `/me`) or coaching is
//! theirs, and their own later runs are.

use serde_json::Value;

use crate::server::{Server, agent, bytes, call, html, logging_bot, login, scratch, wait_for_run};

const SECRET: &str = "old-bob-secret";

/// What the holder of `token` gets of run `run`: mine.tar's status and
/// bytes, `/api/me`, a replay of the first round, the coaching's status,
/// and the `/me` page.
struct Seen {
    tar: (u16, Vec<u8>),
    me: Value,
    replay: Value,
    coach: u16,
    page: String,
}

fn seen(url: &str, token: &str, run: i64) -> Seen {
    let mut answer = agent()
        .get(&format!("{url}/api/runs/{run}/league-1/mine.tar"))
        .header("Authorization", &format!("Bearer {token}"))
        .call()
        .unwrap();
    let tar = (answer.status().as_u16(), answer.body_mut().read_to_vec().unwrap());
    let (_, me) = call("GET", &format!("{url}/api/me"), Some(token), None);
    let replay_url = format!("{url}/api/runs/{run}/league-1/replay?session=0&table=0&round=1");
    let (status, replay) = call("GET", &replay_url, Some(token), None);
    assert_eq!(status, 200, "everyone replays a public table: {replay}");
    let (coach, _) = call("GET", &format!("{url}/api/runs/{run}/league-1/coach"), Some(token), None);
    let page = html(url, &login(url, token), &format!("/me?run={run}"));
    Seen { tar, me, replay, coach, page }
}

/// Asserts the holder of `token` (a new `bob`) sees nothing of old bob's
/// in run `run`.
fn sees_nothing_of_old_bob(url: &str, token: &str, run: i64, old_module: &[u8], who: &str) {
    let s = seen(url, token, run);
    assert_eq!(s.tar.0, 404, "{who}: old bob's mine.tar is not theirs");
    let module_found = s.tar.1.windows(old_module.len()).any(|w| w == old_module);
    assert!(!module_found, "{who}: old bob's module is not in their download");
    assert!(!s.me.to_string().contains(SECRET), "{who}: /api/me holds none of old bob's log lines: {}", s.me);
    // `/api/me` shows the latest run: where it is this one, theirs is not in it.
    if s.me["status"][0]["run"] == run {
        assert_eq!(s.me["status"][0]["state"], "not in the run", "{who}: {}", s.me);
    }
    let transcript = s.replay["transcript"].as_str().unwrap();
    assert!(!transcript.contains(SECRET), "{who}: a replay shows old bob's log lines to the new bob: {transcript}");
    assert_eq!(s.coach, 404, "{who}: old bob's coaching is not theirs");
    assert!(!s.page.contains(SECRET), "{who}: /me shows none of old bob's lines");
}

#[test]
fn a_name_removed_and_registered_again_inherits_nothing_of_the_removed_entrant() {
    let dir = scratch("identities");
    let text = "name = \"Identity cup\"\n[uploads]\nmax_kib = 512\nper_hour = 10\n\
        [entrants]\nnames = [\"alice\"]\ninvite_code = \"c0de-2026\"\n\
        [[league]]\nname = \"Main\"\nvariant = \"north-american\"\nrounds = 200\nsessions = 1\nseed = 5\n\
        bankroll = 1000000\n";
    let comp = dir.join("competition.toml");
    std::fs::write(&comp, text).unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin, alice) = (server.url.clone(), server.token("admin"), server.token("alice"));
    let register = || {
        let (status, answer) =
            call("POST", &format!("{url}/api/register"), None, Some(br#"{"name":"bob","invite_code":"c0de-2026"}"#));
        assert_eq!(status, 201, "{answer}");
        answer["token"].as_str().unwrap().to_string()
    };
    let upload = |token: &str, module: &[u8]| {
        let (status, verdict) = call("POST", &format!("{url}/api/submissions"), Some(token), Some(module));
        assert_eq!(status, 201, "{verdict}");
    };
    let run = || {
        let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
        let id = run["run"].as_i64().unwrap();
        wait_for_run(&url, id, "done", 300);
        id
    };
    let remove = || {
        let removed = agent()
            .delete(&format!("{url}/api/entrants/bob"))
            .header("Authorization", &format!("Bearer {admin}"))
            .call()
            .unwrap();
        assert_eq!(removed.status().as_u16(), 200);
    };

    // Old bob plays a run with a bot that logs a secret.
    let old_bob = register();
    let old_module = logging_bot(SECRET);
    upload(&alice, &bytes("basic"));
    upload(&old_bob, &old_module);
    let first = run();
    let before = seen(&url, &old_bob, first);
    assert_eq!(before.tar.0, 200, "old bob downloads his own files");
    assert!(before.tar.1.windows(old_module.len()).any(|w| w == old_module.as_slice()));
    assert!(before.me.to_string().contains(SECRET), "old bob sees his lines: {}", before.me);
    assert!(before.replay["transcript"].as_str().unwrap().contains(SECRET));
    assert_eq!(before.coach, 200);

    // Removed; `bob` registered again by whoever has the invite code.
    remove();
    let new_bob = register();
    sees_nothing_of_old_bob(&url, &new_bob, first, &old_module, "bob registered again");

    // The new bob's own run is his.
    upload(&new_bob, &bytes("basic"));
    let second = run();
    let own = seen(&url, &new_bob, second);
    assert_eq!(own.tar.0, 200, "the new bob downloads his own run's files");
    assert!(!own.tar.1.windows(old_module.len()).any(|w| w == old_module.as_slice()));
    assert_eq!(own.me["status"][0]["state"], "played", "{}", own.me);
    sees_nothing_of_old_bob(&url, &new_bob, first, &old_module, "bob registered again, after his own run");

    // The same when the organiser adds the name again.
    remove();
    let (status, added) = call("POST", &format!("{url}/api/entrants"), Some(&admin), Some(br#"{"name":"bob"}"#));
    assert_eq!(status, 201, "{added}");
    let added = added["token"].as_str().unwrap().to_string();
    sees_nothing_of_old_bob(&url, &added, first, &old_module, "bob added again by the organiser");
    let (status, _) = call("GET", &format!("{url}/api/runs/{second}/league-1/mine.tar"), Some(&added), None);
    assert_eq!(status, 404, "nor the second bob's run");

    // The organiser's page does not give old bob's result to the new bob.
    let page = html(&url, &login(&url, &admin), "/admin");
    let row = page.split("id=\"entrant-bob\"").nth(1).and_then(|r| r.split("</tr>").next()).unwrap_or_default();
    assert!(!row.contains("Main: #"), "the re-added bob has no latest result: {row}");
    // Alice still has hers.
    assert_eq!(seen(&url, &alice, first).tar.0, 200);
}
