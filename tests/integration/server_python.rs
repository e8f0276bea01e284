//! `pitboss serve` takes Python bots as source: the scaffold's `bot.py`
//! uploaded to a competition with default settings (no `[uploads]`, no
//! `[limits]`) passes its check, is scored, plays the official run (and
//! verifies from the bundle), a scrimmage, a replay and a coaching; its source reads on its page (escaped, in
//! the site's layout) for its entrant and the organiser only, and comes in
//! `mine.tar`; a syntax error is refused naming `bot.py:LINE:COL`.

use std::process::Command;

use pitboss_tests::pitboss;

use crate::server::{Server, agent, bytes, call, html, login, scratch, unpack_bundle, wait_for_run};

#[test]
fn a_python_bots_source_is_uploaded_scored_played_and_read_on_its_page() {
    let dir = scratch("python");
    let made = pitboss(&dir, &["new", "x", "--lang", "python"]);
    assert_eq!(made.code, Some(0), "{}{}", made.stdout, made.stderr);
    // A line the page must escape, and one that shows it is this source.
    let source = std::fs::read_to_string(dir.join("x/bot.py")).unwrap() + "\n# shown on its page: <b>&amp;</b>\n";
    std::fs::write(dir.join("x/bot.py"), &source).unwrap();
    // Default settings: no [uploads], no [limits], the default score_rounds.
    let comp = dir.join("competition.toml");
    std::fs::write(
        &comp,
        "name = \"Py cup\"\n[entrants]\nnames = [\"alice\", \"bob\"]\n[[league]]\nname = \"Main\"\n\
         variant = \"north-american\"\nrounds = 500\nsessions = 2\nseed = 5\nbankroll = 1000000\n",
    )
    .unwrap();
    let server = Server::start(&comp, &dir.join("data"));
    let (url, admin, alice, bob) =
        (server.url.clone(), server.token("admin"), server.token("alice"), server.token("bob"));

    // Uploaded by the API as bot.py: passed and scored.
    let (status, verdict) =
        call("POST", &format!("{url}/api/submissions?name=bot.py"), Some(&alice), Some(source.as_bytes()));
    assert_eq!(status, 201, "{verdict}");
    assert_eq!(verdict["outcome"], "passed", "{verdict}");
    let line = verdict["verdict"].as_str().unwrap();
    assert!(line.starts_with("OK") && line.contains("bot.py") && !line.contains("modules/"), "{verdict}");
    assert!(verdict["score"]["ev_pct"].is_number(), "scored: {verdict}");
    let id = verdict["id"].as_i64().unwrap();
    // The same bytes under a name that is neither .wasm nor .py: refused.
    let (status, refused) =
        call("POST", &format!("{url}/api/submissions?name=bot.txt"), Some(&bob), Some(source.as_bytes()));
    assert_eq!(status, 422, "{refused}");
    assert!(refused["verdict"].as_str().unwrap().contains("nor a bot's source"), "{refused}");

    // A syntax error is refused naming the line, by `pitboss submit`.
    std::fs::create_dir_all(dir.join("typo")).unwrap();
    let typo = "import pitboss\n\ndef act(view)\n    return 'stand'\n";
    std::fs::write(dir.join("typo/bot.py"), typo).unwrap();
    let sent = pitboss(&dir, &["submit", "typo/bot.py", "--server", &url, "--token", &bob]);
    assert_eq!(sent.code, Some(1), "{}{}", sent.stdout, sent.stderr);
    assert!(sent.stdout.contains("bot.py:3:14: SyntaxError"), "{}{}", sent.stdout, sent.stderr);
    assert!(!sent.stdout.contains("modules/"), "no server path: {}", sent.stdout);
    let (status, _) = call("POST", &format!("{url}/api/submissions"), Some(&bob), Some(&bytes("basic")));
    assert_eq!(status, 201);

    // The official run: the Python bot in the standings; the bundle
    // carries its source and verifies byte for byte.
    let (status, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    assert_eq!(status, 202, "{run}");
    let run = run["run"].as_i64().unwrap();
    wait_for_run(&url, run, "done", 300);
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    let rows = &board["latest"]["leagues"][0]["rows"];
    let names: Vec<&str> = rows.as_array().unwrap().iter().filter_map(|r| r["name"].as_str()).collect();
    assert!(names.contains(&"alice") && names.contains(&"bob"), "{board}");
    let sha = verdict["sha256"].as_str().unwrap();
    let elsewhere = dir.join("bundle");
    unpack_bundle(&url, &admin, run, &elsewhere);
    let kept = std::fs::read_to_string(elsewhere.join(format!("run-{run}/league-1/bots/{sha}.py"))).unwrap();
    assert_eq!(kept, source);
    let verified = pitboss(&elsewhere, &["verify", &format!("run-{run}/league-1/results.json")]);
    assert_eq!(verified.code, Some(0), "{}{}", verified.stdout, verified.stderr);
    assert!(verified.stdout.contains("identical, byte for byte"), "{}", verified.stdout);

    // A round of the run replayed by the server, alice's coaching, and a
    // scrimmage: all run her source.
    let replay = format!("{url}/api/runs/{run}/league-1/replay?session=0&table=0&round=1");
    let (status, round) = call("GET", &replay, Some(&alice), None);
    assert_eq!(status, 200, "{round}");
    assert!(round["transcript"].as_str().unwrap().contains("alice"), "{round}");
    // The coaching page answers at once with the rounds played of 50,000
    // and refreshes itself until the report is there; the report names
    // the league and the file alice uploaded, no path of the server's.
    let cookie = login(&url, &alice);
    let coach_page = format!("{url}/runs/{run}/league-1/coach");
    let started = std::time::Instant::now();
    let mut looks = 0;
    let coached = loop {
        let mut page = agent().get(&coach_page).header("Cookie", &cookie).call().unwrap();
        assert_eq!(page.status().as_u16(), 200);
        let refresh = page.headers().get("refresh").map(|v| v.to_str().unwrap().to_string());
        let body = page.body_mut().read_to_string().unwrap();
        looks += 1;
        if !body.contains("id=\"coach-progress\"") {
            break body;
        }
        assert_eq!(refresh.as_deref(), Some("2"), "{body}");
        assert!(body.contains("Playing the rounds of alice's bot: ") && body.contains(" / 50,000 rounds"), "{body}");
        assert!(started.elapsed().as_secs() < 300, "{body}");
        std::thread::sleep(std::time::Duration::from_secs(2));
    };
    assert!(looks > 1, "50,000 rounds are not played in the page's first moment: {coached}");
    assert!(coached.contains("League <strong>Main</strong>: every decision of your bot over 50,000 rounds"));
    assert!(coached.contains("--bot bot.py ") && coached.contains("--only-round "), "{coached}");
    assert!(!coached.contains("modules/") && !coached.contains("alice.py"), "{coached}");
    let (status, coach) = call("GET", &format!("{url}/api/runs/{run}/league-1/coach"), Some(&alice), None);
    assert!(status == 200 && coach.get("error").is_none(), "{status} {coach}");
    assert_eq!(coach["bots"][0]["rounds"], 50_000, "{coach}");
    let ask = serde_json::json!({ "league": 1, "rounds": 200, "opponents": ["builtin:basic"] });
    let (status, queued) =
        call("POST", &format!("{url}/api/scrimmages"), Some(&alice), Some(ask.to_string().as_bytes()));
    assert_eq!(status, 202, "{queued}");
    let started = std::time::Instant::now();
    let scrimmage = loop {
        let (_, list) = call("GET", &format!("{url}/api/scrimmages"), Some(&alice), None);
        let s = list.as_array().unwrap().iter().find(|s| s["id"] == queued["scrimmage"]).cloned().unwrap();
        if s["state"] == "done" || s["state"] == "failed" {
            break s;
        }
        assert!(started.elapsed().as_secs() < 120, "{s}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(scrimmage["state"], "done", "{scrimmage}");
    assert!(scrimmage["standings"].to_string().contains("\"alice\""), "{scrimmage}");

    // mine.tar holds alice's source.
    let mut answer = agent()
        .get(&format!("{url}/api/runs/{run}/league-1/mine.tar"))
        .header("Authorization", &format!("Bearer {alice}"))
        .call()
        .unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    std::fs::write(dir.join("mine.tar"), answer.body_mut().read_to_vec().unwrap()).unwrap();
    let listed = Command::new("tar").args(["-tf", "mine.tar"]).current_dir(&dir).output().unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(listed.contains(&format!("run-{run}/league-1/bots/{sha}.py")), "{listed}");

    // The source on its page: linked from /me, escaped, for alice and the
    // organiser only.
    let page = format!("/submissions/{id}/source");
    assert!(html(&url, &cookie, "/me").contains(&format!("href=\"{page}\"")));
    let shown = html(&url, &cookie, &page);
    assert!(shown.contains("<nav>") && shown.contains("def "), "{shown}");
    assert!(shown.contains("# shown on its page: &lt;b&gt;&amp;amp;&lt;/b&gt;"), "escaped: {shown}");
    let organiser = login(&url, &admin);
    assert!(html(&url, &organiser, &page).contains("&lt;b&gt;&amp;amp;&lt;/b&gt;"));
    assert!(html(&url, &organiser, "/admin/submissions").contains(&format!("href=\"{page}\"")));
    let theirs = agent().get(&format!("{url}{page}")).header("Cookie", &login(&url, &bob)).call().unwrap();
    assert_eq!(theirs.status().as_u16(), 404, "not bob's to read");
    let nobody = agent().get(&format!("{url}{page}")).call().unwrap();
    assert_eq!(nobody.status().as_u16(), 303, "to the login page");

    // The upload form takes a .py file too.
    let me = html(&url, &cookie, "/me");
    assert!(me.contains("accept=\".wasm,.py,.js\""), "{me}");
    let csrf = me.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap();
    let mut form = format!(
        "--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{csrf}\r\n--XyZ\r\nContent-Disposition: \
         form-data; name=\"bot\"; filename=\"bot.py\"\r\nContent-Type: text/x-python\r\n\r\n"
    )
    .into_bytes();
    form.extend(source.as_bytes());
    form.extend(b"# sent by the form\n\r\n--XyZ--\r\n");
    let answer = agent()
        .post(&format!("{url}/me/upload"))
        .header("Cookie", &cookie)
        .header("Content-Type", "multipart/form-data; boundary=XyZ")
        .send(&form[..])
        .unwrap();
    assert_eq!(answer.status().as_u16(), 303);
    let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(&alice), None);
    assert_eq!((&subs[0]["file_name"], &subs[0]["outcome"]), (&"bot.py".into(), &"passed".into()), "{subs}");
}
