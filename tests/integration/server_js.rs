//! `pitboss serve` takes JavaScript bots as source as it takes Python
//! ones: the scaffold's `bot.js` uploaded to a competition with default
//! settings (no `[uploads]`, no `[limits]`) through the API and the `/me`
//! form passes its check, is kept as `modules/HASH.js` (the bytes cannot
//! tell JavaScript from Python: the upload's name does), is scored, and
//! reads on its page; a syntax error is refused naming `bot.js:LINE:COL`.

use pitboss_tests::pitboss;

use crate::server::{Server, agent, call, html, login, scratch};

#[test]
fn a_javascript_bots_source_is_uploaded_kept_as_js_scored_and_read_on_its_page() {
    let dir = scratch("javascript");
    let made = pitboss(&dir, &["new", "x", "--lang", "javascript"]);
    assert_eq!(made.code, Some(0), "{}{}", made.stdout, made.stderr);
    let source = std::fs::read_to_string(dir.join("x/bot.js")).unwrap() + "\n// shown on its page: <b>&amp;</b>\n";
    let comp = dir.join("competition.toml");
    std::fs::write(
        &comp,
        "name = \"Js cup\"\n[entrants]\nnames = [\"alice\", \"bob\"]\n[[league]]\nname = \"Main\"\n\
         variant = \"north-american\"\nrounds = 500\nsessions = 2\nseed = 5\nbankroll = 1000000\n",
    )
    .unwrap();
    let data = dir.join("data");
    let server = Server::start(&comp, &data);
    let (url, alice, bob) = (server.url.clone(), server.token("alice"), server.token("bob"));

    // Uploaded by the API as bot.js: passed, kept as HASH.js, scored.
    let (status, verdict) =
        call("POST", &format!("{url}/api/submissions?name=bot.js"), Some(&alice), Some(source.as_bytes()));
    assert_eq!(status, 201, "{verdict}");
    assert_eq!(verdict["outcome"], "passed", "{verdict}");
    let line = verdict["verdict"].as_str().unwrap();
    assert!(line.starts_with("OK") && line.contains("bot.js") && !line.contains("modules/"), "{verdict}");
    assert!(verdict["score"]["ev_pct"].is_number(), "scored: {verdict}");
    let (id, sha) = (verdict["id"].as_i64().unwrap(), verdict["sha256"].as_str().unwrap());
    assert_eq!(std::fs::read_to_string(data.join(format!("modules/{sha}.js"))).unwrap(), source);
    assert!(!data.join(format!("modules/{sha}.py")).exists() && !data.join(format!("modules/{sha}.wasm")).exists());
    // Neither a module nor a source's name: refused, naming both endings.
    let (status, refused) =
        call("POST", &format!("{url}/api/submissions?name=bot.txt"), Some(&bob), Some(source.as_bytes()));
    assert_eq!(status, 422, "{refused}");
    assert!(refused["verdict"].as_str().unwrap().contains("ends in .py or .js"), "{refused}");

    // A syntax error is refused naming the line and column, by `pitboss submit`.
    std::fs::create_dir_all(dir.join("typo")).unwrap();
    let typo = "class B extends pitboss.Bot {\n  act(r) { return 0 }\n  bet(r) { return r.min; }}}\n";
    std::fs::write(dir.join("typo/bot.js"), typo).unwrap();
    let sent = pitboss(&dir, &["submit", "typo/bot.js", "--server", &url, "--token", &bob]);
    assert_eq!(sent.code, Some(1), "{}{}", sent.stdout, sent.stderr);
    assert!(sent.stdout.contains("bot.js:3:28: SyntaxError"), "{}{}", sent.stdout, sent.stderr);
    assert!(!sent.stdout.contains("modules/"), "no server path: {}", sent.stdout);

    // The source on its page, linked from /me and escaped.
    let page = format!("/submissions/{id}/source");
    let cookie = login(&url, &alice);
    let me = html(&url, &cookie, "/me");
    assert!(me.contains(&format!("href=\"{page}\"")), "{me}");
    let shown = html(&url, &cookie, &page);
    assert!(shown.contains("<nav>") && shown.contains("pitboss.play"), "{shown}");
    assert!(shown.contains("// shown on its page: &lt;b&gt;&amp;amp;&lt;/b&gt;"), "escaped: {shown}");

    // The upload form offers and takes a .js file.
    assert!(me.contains("accept=\".wasm,.py,.js\"") && me.contains("bot.js"), "{me}");
    let csrf = me.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap();
    let mut form = format!(
        "--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{csrf}\r\n--XyZ\r\nContent-Disposition: \
         form-data; name=\"bot\"; filename=\"bot.js\"\r\nContent-Type: text/javascript\r\n\r\n"
    )
    .into_bytes();
    form.extend(source.as_bytes());
    form.extend(b"// sent by the form\n\r\n--XyZ--\r\n");
    let answer = agent()
        .post(&format!("{url}/me/upload"))
        .header("Cookie", &cookie)
        .header("Content-Type", "multipart/form-data; boundary=XyZ")
        .send(&form[..])
        .unwrap();
    assert_eq!(answer.status().as_u16(), 303);
    let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(&alice), None);
    assert_eq!((&subs[0]["file_name"], &subs[0]["outcome"]), (&"bot.js".into(), &"passed".into()), "{subs}");
    let kept: Vec<_> = std::fs::read_dir(data.join("modules")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(kept.len() == 2 && kept.iter().all(|f| f.to_string_lossy().ends_with(".js")), "{kept:?}");
}
