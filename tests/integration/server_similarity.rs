//! The organiser's similarity check through `pitboss serve` on loopback:
//! a module uploaded by two entrants is flagged as identical; a renamed
//! copy of a Python bot with one decision changed is flagged as deciding
//! alike, with the evidence; the Rust `basic` and a textbook basic written
//! apart in Python are said to both play basic, not flagged; and an
//! entrant may not look.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::server::{Server, agent, bytes, call, competition, html, login, scratch};

#[test]
fn the_similarity_check_flags_a_copied_module_and_a_renamed_copy_and_not_two_bots_playing_basic() {
    let dir = scratch("similarity");
    let comp = competition(&dir, &["alice", "bob", "carol", "dave", "erin"], 200, 10);
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin) = (server.url.clone(), server.token("admin"));
    let quirky = std::fs::read_to_string(concat!(tests_dir!(), "/bots/python/quirky.py")).unwrap();
    // Renamed, reworded, and one decision changed: soft 19 against a ten
    // is hit.
    let copy = quirky
        .replace("A student's own strategy", "My strategy")
        .replace("Quirky", "Mine")
        .replace("HIT if best < 19 and", "HIT if (best < 19 or (best == 19 and up == 10)) and");
    assert_ne!(copy.matches("Mine").count(), 0);
    assert!(copy.contains("best == 19 and up == 10"));
    let textbook = std::fs::read(concat!(tests_dir!(), "/bots/python/textbook_basic.py")).unwrap();
    for (who, name, body) in [
        ("alice", "quirky.py", quirky.as_bytes().to_vec()),
        ("bob", "mine.py", quirky.as_bytes().to_vec()),
        ("carol", "bot.py", copy.into_bytes()),
        ("dave", "basic.wasm", bytes("basic")),
        ("erin", "bot.py", textbook),
    ] {
        let (status, verdict) =
            call("POST", &format!("{url}/api/submissions?name={name}"), Some(&server.token(who)), Some(&body));
        assert_eq!((status, verdict["outcome"].as_str()), (201, Some("passed")), "{who}: {verdict}");
    }

    // The organiser's page, linked from the dashboard, refreshes itself
    // until every module has played its fingerprint.
    let cookie = login(&url, &admin);
    assert!(html(&url, &cookie, "/admin").contains("href=\"/admin/similarity\""));
    let started = Instant::now();
    let page = loop {
        let page = html(&url, &cookie, "/admin/similarity");
        if !page.contains("similarity-progress") {
            break page;
        }
        assert!(started.elapsed() < Duration::from_secs(300), "not done after 300 s: {page}");
        std::thread::sleep(Duration::from_millis(500));
    };
    eprintln!("four modules fingerprinted in {:.1} s", started.elapsed().as_secs_f64());
    for text in
        ["Identical module: ", "alice, bob", "Both play basic (expected, not evidence): dave and erin", "soft 19 v 10"]
    {
        assert!(page.contains(text), "the page lacks {text:?}: {page}");
    }
    assert!(page.contains("alice and carol") || page.contains("carol and alice"), "{page}");

    // The same as JSON: the one pair flagged, with its evidence.
    let (status, json) = call("GET", &format!("{url}/api/similarity"), Some(&admin), None);
    assert_eq!(status, 200, "{json}");
    assert_eq!(json["identical"][0][1], serde_json::json!(["alice", "bob"]), "{json}");
    let alike = json["alike"].as_array().unwrap();
    assert_eq!(alike.len(), 1, "one pair decides alike: {json}");
    let pair = &alike[0];
    let mut names: Vec<&str> = pair["names"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["alice", "carol"]);
    let (departures, agreed) = (pair["departures"].as_u64().unwrap(), pair["departures_agreed"].as_u64().unwrap());
    assert!(departures >= 20 && agreed < departures && agreed * 100 >= 90 * departures, "{pair}");
    // Everything but the changed decision (soft 19 against a ten, with two
    // cards or three) agreed.
    assert!(departures - agreed <= 2 && pair["compared"].as_u64() > Some(departures), "{pair}");
    let changed = pair["examples"].as_array().unwrap();
    assert!(changed.iter().all(|e| e["basic"].is_string()) && changed[0]["answers"][0] == changed[0]["answers"][1]);
    let apart = changed.iter().find(|e| e["answers"][0] != e["answers"][1]).expect("the changed decision shown");
    assert!(apart["situation"].as_str().unwrap().starts_with("soft 19") && apart["basic"] == "stand", "{apart}");
    let mut basic: Vec<&str> = json["both_basic"][0].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    basic.sort_unstable();
    assert_eq!((json["both_basic"].as_array().unwrap().len(), basic), (1, vec!["dave", "erin"]), "{json}");
    for bot in json["bots"].as_array().unwrap() {
        assert!(bot["note"].is_null() && bot["situations"].as_u64().unwrap() > 300, "{bot}");
    }

    // A second look reads the kept fingerprints: at once.
    let again = Instant::now();
    let (status, _) = call("GET", &format!("{url}/api/similarity"), Some(&admin), None);
    assert!(status == 200 && again.elapsed() < Duration::from_secs(5), "{:?}", again.elapsed());

    // An entrant sees none of it.
    let dave = server.token("dave");
    let student = login(&url, &dave);
    let refused = agent().get(&format!("{url}/admin/similarity")).header("Cookie", &student).call().unwrap();
    assert_eq!(refused.status().as_u16(), 403);
    let (status, _) = call("GET", &format!("{url}/api/similarity"), Some(&dave), None);
    assert!(status == 401 || status == 403, "{status}");
}
