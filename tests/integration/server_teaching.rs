//! `docs/teaching.md` followed as written: its competition file, its
//! `pitboss serve` line (the systemd unit's too) with a relative data
//! folder, students registered by the page and by its `curl`, a Python,
//! Rust, C and Go bot made, built, checked and submitted by its students'
//! commands (the Python one also through `/me`), the deadline, the final
//! run and publishing by its `curl`s, and its export
//! (the grades CSV with every student and the final run's bundle, verified), and its backup restored
//! into another folder. The blocks the test runs are marked
//! `<!-- test: NAME -->` in the guide, and every line of the guide that
//! runs `pitboss` is in one of them.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::server::{agent, call, html, login, scratch, wait_for_run};
use crate::server_teacher::Served;

/// The guide's address of the server, replaced in what the test runs by
/// the loopback one.
const SITE: &str = "https://pitboss.example.edu";

fn repo() -> PathBuf {
    PathBuf::from(concat!(tests_dir!(), "/.."))
}

fn guide() -> String {
    std::fs::read_to_string(repo().join("docs/teaching.md")).unwrap()
}

/// The fenced block right after `<!-- test: NAME -->`, without its fences.
fn block(doc: &str, name: &str) -> String {
    let marker = format!("<!-- test: {name} -->");
    let after = doc.split(&marker).nth(1).unwrap_or_else(|| panic!("docs/teaching.md has no `{marker}`"));
    let mut lines = after.lines().skip_while(|l| l.trim().is_empty());
    let fence = lines.next().unwrap_or_default();
    assert!(fence.starts_with("```"), "`{marker}` is not followed by a fenced block: {fence}");
    lines.take_while(|l| !l.starts_with("```")).map(|l| format!("{l}\n")).collect()
}

/// The lines of the guide's fenced blocks that run `pitboss` (the word
/// `pitboss` followed by one of its subcommands, anywhere in the line:
/// after `sudo -u pitboss` too).
fn pitboss_lines(doc: &str) -> Vec<String> {
    use clap::CommandFactory;
    let commands: Vec<String> =
        pitboss_cli::Cli::command().get_subcommands().map(|c| c.get_name().to_string()).collect();
    let mut found = Vec::new();
    let mut fenced = false;
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let runs = words.windows(2).any(|w| w[0].ends_with("pitboss") && commands.iter().any(|c| c == w[1]));
        if fenced && runs && !line.trim_start().starts_with('#') {
            found.push(line.trim().to_string());
        }
    }
    found
}

/// Runs `script` with `sh -eu` in `dir`, `pitboss` on the PATH and `env`
/// set, the guide's address replaced by `url`; returns what it printed.
fn sh(dir: &Path, script: &str, url: &str, env: &[(&str, &str)]) -> String {
    let bin = pitboss_tests::pitboss_bin();
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("sh")
        .args(["-eu", "-c", &script.replace(SITE, url)])
        .current_dir(dir)
        .env("PATH", path)
        .env("SERVER", url)
        .env("PITBOSS_CACHE_DIR", "off")
        // One target folder for every Rust bot built by the tests.
        .env("CARGO_TARGET_DIR", std::env::temp_dir().join("pitboss-authoring-target"))
        .envs(env.iter().copied())
        .output()
        .expect("sh runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the guide's block failed in {}:\n{script}\n{stdout}\n{stderr}", dir.display());
    stdout.into_owned()
}

/// The value of `key = "…"` in a TOML text.
fn quoted(text: &str, key: &str) -> String {
    let line = text.lines().find(|l| l.starts_with(&format!("{key} = \""))).unwrap_or_else(|| panic!("no {key}"));
    line.split('"').nth(1).unwrap().to_string()
}

/// `competition.toml` in `dir` with the line starting with `key = `
/// changed to `line`, as the guide says to edit it.
fn edit(dir: &Path, key: &str, line: &str) {
    let path = dir.join("competition.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.lines().position(|l| l.starts_with(&format!("{key} = "))).unwrap_or_else(|| panic!("no {key}"));
    let lines: Vec<&str> = text.lines().enumerate().map(|(i, l)| if i == at { line } else { l }).collect();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
}

/// Registers `name` by the browser's form at `/register` (the CSRF
/// token in the page and its cookie, as a browser sends them); returns
/// the token the page shows.
fn register_by_page(url: &str, name: &str, code: &str) -> String {
    let mut form = agent().get(&format!("{url}/register")).call().unwrap();
    assert_eq!(form.status().as_u16(), 200);
    let cookie = form.headers().get("set-cookie").unwrap().to_str().unwrap().split(';').next().unwrap().to_string();
    let page = form.body_mut().read_to_string().unwrap();
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().to_string();
    let mut answer = agent()
        .post(&format!("{url}/register"))
        .header("Cookie", &cookie)
        .send_form([("csrf", csrf.as_str()), ("name", name), ("invite_code", code)])
        .unwrap();
    let page = answer.body_mut().read_to_string().unwrap();
    assert_eq!(answer.status().as_u16(), 200, "{page}");
    page.split("id=\"token\">").nth(1).and_then(|s| s.split('<').next()).unwrap().to_string()
}

/// Uploads `file` through the `/me` form of the browser session `cookie`.
fn upload_by_page(url: &str, cookie: &str, file: &Path) {
    let me = html(url, cookie, "/me");
    let csrf = me.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();
    let mut form = format!(
        "--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{csrf}\r\n--XyZ\r\nContent-Disposition: \
         form-data; name=\"bot\"; filename=\"{name}\"\r\nContent-Type: text/x-python\r\n\r\n"
    )
    .into_bytes();
    form.extend(std::fs::read(file).unwrap());
    form.extend(b"\r\n--XyZ--\r\n");
    let answer = agent()
        .post(&format!("{url}/me/upload"))
        .header("Cookie", cookie)
        .header("Content-Type", "multipart/form-data; boundary=XyZ")
        .send(&form[..])
        .unwrap();
    assert_eq!(answer.status().as_u16(), 303, "the form answers with the student's page");
}

#[test]
#[ignore = "needs toolchains"]
fn the_teaching_guide_from_its_competition_file_to_the_exported_standings() {
    let doc = guide();
    let dir = scratch("teaching");
    let class = dir.join("srv");
    std::fs::create_dir_all(&class).unwrap();

    // 2. The competition file the guide shows is the one beside it.
    let file = std::fs::read_to_string(repo().join("docs/teaching/competition.toml")).unwrap();
    assert_eq!(block(&doc, "competition file"), file, "docs/teaching.md shows docs/teaching/competition.toml");
    std::fs::write(class.join("competition.toml"), &file).unwrap();
    // The teacher sets their own deadline: the guide's may have passed.
    edit(&class, "deadline", "deadline = \"2999-12-31T23:59:00Z\"");

    // 3 and 4. The `pitboss serve` line, by hand and in the systemd unit
    // (whose folder is `class`), with a relative data folder.
    let serve = block(&doc, "serve");
    let line = serve.lines().find(|l| l.contains("pitboss serve")).unwrap();
    let args: Vec<&str> = line.split("pitboss serve").nth(1).unwrap().split_whitespace().collect();
    let unit = block(&doc, "systemd");
    let exec = unit.lines().find_map(|l| l.strip_prefix("ExecStart=")).unwrap();
    let unit_args: Vec<&str> = exec.split("pitboss serve").nth(1).unwrap().split_whitespace().collect();
    assert_eq!(args, unit_args, "the service runs what step 3 tried");
    assert!(unit.contains("WorkingDirectory=/srv/pitboss") && serve.contains("cd /srv/pitboss"), "{serve}{unit}");
    let data = args.iter().position(|a| *a == "--data").map(|i| args[i + 1]).unwrap();
    assert!(Path::new(data).is_relative(), "the guide's data folder is relative: {data}");
    // Any free port: tests run side by side.
    let mut start_args = vec!["serve"];
    start_args.extend(args.iter().map(|&a| if a.starts_with("127.0.0.1:") { "127.0.0.1:0" } else { a }));
    let start = || Served::with_args(&class, &start_args);
    let server = start();
    let (url, admin) = (server.url.clone(), server.token("admin"));
    assert!(!server.log().contains("warning"), "the guide's file starts without a warning: {}", server.log());
    assert!(class.join(data).join("pitboss.db").is_file(), "the data folder is where the guide says");

    // 6. Students register: one by the page, three by the guide's curl.
    let code = quoted(&file, "invite_code");
    let mut tokens = vec![("ann", register_by_page(&url, "ann", &code))];
    let register = block(&doc, "register");
    let home = |name: &str| {
        let d = dir.join("home").join(name);
        std::fs::create_dir_all(&d).unwrap();
        d
    };
    for name in ["ben", "cat", "dan"] {
        let said = sh(&home(name), &register.replace("\"ben\"", &format!("\"{name}\"")), &url, &[]);
        let answer: Value = serde_json::from_str(said.trim()).unwrap_or_else(|_| panic!("{said}"));
        assert_eq!(answer["name"], name, "{said}");
        tokens.push((name, answer["token"].as_str().unwrap().to_string()));
    }
    let token = |name: &str| tokens.iter().find(|(n, _)| *n == name).unwrap().1.clone();

    // 7. ann follows the Python start, then uploads a better bot.py on
    // her page; ben, cat and dan build theirs in Rust, C and Go.
    let said = sh(&home("ann"), &block(&doc, "student python"), &url, &[("TOKEN", &token("ann"))]);
    assert!(said.contains("bot.py: OK") && said.contains("submission 1 passed"), "{said}");
    let bot = home("ann").join("mybot/bot.py");
    let source = std::fs::read_to_string(&bot).unwrap();
    std::fs::write(&bot, format!("{source}\n# Tried on the server's page.\n")).unwrap();
    let cookie = login(&url, &token("ann"));
    upload_by_page(&url, &cookie, &bot);
    let wasm = block(&doc, "student wasm");
    assert!(wasm.contains("--lang rust"), "{wasm}");
    for (name, lang) in [("ben", "rust"), ("cat", "c"), ("dan", "go")] {
        let script = wasm.replace("--lang rust", &format!("--lang {lang}"));
        let said = sh(&home(name), &script, &url, &[("TOKEN", &token(name))]);
        assert!(said.contains("mybot.wasm: OK"), "{lang}: {said}");
    }
    // Every upload passed and has a score.
    for (name, token) in &tokens {
        let (_, subs) = call("GET", &format!("{url}/api/submissions"), Some(token), None);
        let subs = subs.as_array().cloned().unwrap_or_default();
        assert_eq!(subs.len(), if *name == "ann" { 2 } else { 1 }, "{name}: {subs:?}");
        for s in &subs {
            assert_eq!(s["outcome"], "passed", "{name}: {s}");
            assert!(s["score"]["ev_pct"].is_f64(), "{name}'s upload is scored: {s}");
        }
    }
    let me = html(&url, &cookie, "/me");
    assert!(me.contains("bot.py"), "{me}");

    // 9. The deadline passes (the teacher closes early: an edit and a
    // restart): uploads close, and the guide's curl asks for the final run.
    server.stop();
    edit(&class, "deadline", "deadline = \"2020-01-01T00:00:00Z\"");
    let server = start();
    let url = server.url.clone();
    let (status, late) = call("POST", &format!("{url}/api/submissions"), Some(&token("ben")), Some(b"x"));
    assert!(status >= 400 && late.to_string().contains("deadline"), "{status} {late}");
    let said = sh(&dir, &block(&doc, "final run"), &url, &[("ADMIN", &admin)]);
    let asked: Value = serde_json::from_str(said.trim()).unwrap_or_else(|_| panic!("{said}"));
    let run = asked["run"].as_i64().unwrap();
    assert_eq!(asked["final"], true, "{said}");
    wait_for_run(&url, run, "done", 600);
    let report = format!("/runs/{run}/league-1/report.html");
    assert_eq!(agent().get(&format!("{url}{report}")).call().unwrap().status().as_u16(), 403, "not published yet");

    // 10. Publishing: frozen, `/admin` has no run buttons but the
    // publish one, and the guide's curl publishes without a restart.
    assert!(file.contains("\npublic_reports = false\n"), "the guide's file starts unpublished");
    let admin_page = html(&url, &login(&url, &admin), "/admin");
    assert!(!admin_page.contains("id=\"run\"") && !admin_page.contains("id=\"final\""), "{admin_page}");
    assert!(admin_page.contains("Publish the final report"), "{admin_page}");
    let said = sh(&dir, &block(&doc, "publish"), &url, &[("ADMIN", &admin)]);
    let published: Value = serde_json::from_str(said.trim()).unwrap_or_else(|_| panic!("{said}"));
    assert_eq!((published["run"].as_i64(), published["published"].as_bool()), (Some(run), Some(true)), "{said}");
    let mut page = agent().get(&format!("{url}{report}")).call().unwrap();
    assert_eq!(page.status().as_u16(), 200, "published: everyone opens the final report");
    assert!(page.body_mut().read_to_string().unwrap().contains("ann"));
    let mut board = agent().get(&format!("{url}/")).call().unwrap();
    let board = board.body_mut().read_to_string().unwrap();
    assert!(board.contains("Final standings") && board.contains(&report), "{board}");

    // 11. The export: the grades with every student (eve registered
    // and never uploaded), and the final run's bundle, verified.
    let said = sh(&home("eve"), &register.replace("\"ben\"", "\"eve\""), &url, &[]);
    assert!(said.contains("\"eve\""), "{said}");
    let out = dir.join("grades");
    std::fs::create_dir_all(&out).unwrap();
    let run_text = run.to_string();
    let said = sh(&out, &block(&doc, "export"), &url, &[("ADMIN", &admin), ("RUN", &run_text)]);
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let mut rows = csv.lines();
    let header = "run,final,overall_rank,entrant,points,net,status,ev_pct,ev_ci95_pct,luck_ev_pct,luck_ci95_pct,\
                  faults,uploads,passed,last_upload";
    assert_eq!(rows.next(), Some(header), "{csv}");
    let rows: Vec<Vec<&str>> = rows.map(|r| r.split(',').collect()).collect();
    assert_eq!(rows.len(), 5, "one row per registered student: {csv}");
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    for (name, _) in &tokens {
        let row = rows.iter().find(|r| r[3] == *name).unwrap_or_else(|| panic!("{name} in {csv}"));
        assert_eq!((row[0], row[1]), (run_text.as_str(), "yes"), "the final run's: {csv}");
        let overall = board["latest"]["overall"].as_array().unwrap().iter().find(|o| o["name"] == *name).unwrap();
        assert_eq!(row[2].parse::<u64>().ok(), overall["rank"].as_u64(), "{name}'s rank overall: {csv}");
        assert_eq!(row[4].parse::<u64>().ok(), overall["points"].as_u64(), "{name}'s season points: {csv}");
        assert!(row[7].parse::<f64>().is_ok() && row[8].parse::<f64>().is_ok(), "EV ± interval: {csv}");
        // ann uploaded twice; ben's second was the late one, refused.
        let uploads = match *name {
            "ann" => ("2", "2"),
            "ben" => ("2", "1"),
            _ => ("1", "1"),
        };
        assert_eq!((row[12], row[13]), uploads, "{name}'s uploads and those that passed: {csv}");
    }
    let eve = rows.iter().find(|r| r[3] == "eve").unwrap_or_else(|| panic!("eve in {csv}"));
    assert_eq!((eve[6], eve[7], eve[12]), ("no passing bot", "", "0"), "{csv}");
    assert!(said.contains("verified") || said.contains("identical"), "pitboss verify: {said}");

    // 12. The backup of the stopped server, restored into another folder
    // (a new VM's): the final standings and the admin token come back.
    server.stop();
    let machine = |block: &str, folder: &Path| {
        // `systemctl` is the test's to play; each `tar` runs as written.
        let mut tars = String::new();
        for line in block.lines().filter(|l| !l.trim().is_empty()) {
            match line.strip_prefix("sudo tar ") {
                Some(rest) => tars += &format!("tar {}\n", rest.replace("/srv/pitboss", &folder.display().to_string())),
                None => assert!(line.starts_with("sudo systemctl "), "a line of the guide's backup: {line}"),
            }
        }
        assert!(!tars.is_empty(), "{block}");
        sh(&dir, &tars, &url, &[]);
    };
    machine(&block(&doc, "backup"), &class);
    let restored = dir.join("restored");
    std::fs::create_dir_all(&restored).unwrap();
    machine(&block(&doc, "restore"), &restored);
    let server = Served::with_args(&restored, &start_args);
    let url = server.url.clone();
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    assert_eq!(board["final"], run, "the final standings come back: {board}");
    let (status, entrants) = call("GET", &format!("{url}/api/entrants"), Some(&admin), None);
    assert_eq!((status, entrants.as_array().map(Vec::len)), (200, Some(5)), "{entrants}");

    // Every line of the guide that runs `pitboss` was run here.
    let ran: String =
        ["serve", "systemd", "student python", "student wasm", "export"].iter().map(|b| block(&doc, b)).collect();
    let lines = pitboss_lines(&doc);
    assert!(lines.len() >= 10, "found only {lines:?}");
    for line in lines {
        assert!(ran.lines().any(|l| l.trim() == line), "docs/teaching.md runs `{line}` where no test does");
    }
    drop(server);
}
