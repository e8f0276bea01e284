//! JavaScript bots from source (`bot.js`): the JavaScript runtime
//! (QuickJS) built into `pitboss` runs them with nothing else installed —
//! `pitboss new --lang javascript`, `check` and `run` in a fresh HOME;
//! refusals naming `bot.js:LINE:COL`; a league of JavaScript, Python and
//! wasm bots (one drawing on `Math.random`) that verifies byte for byte;
//! another runtime refused in one line. And the runtime itself rebuilt
//! from the pinned QuickJS, compared byte for byte.

use std::path::Path;
use std::process::Command;

use crate::python_source::{Student, scratch};
use pitboss_tests::wasm_path;

#[test]
fn a_javascript_bot_from_pitboss_new_needs_nothing_but_pitboss() {
    let student = Student::new("js-new");
    let work = student.home.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let (said, _, _) = student.ok(&work, &["new", "x", "--lang", "javascript"]);
    assert!(said.contains("a bot in JavaScript") && said.contains("check bot.js"), "{said}");
    assert!(!said.contains("build.sh"), "{said}");
    let bot = work.join("x");
    for file in ["bot.js", "test_bot.js", "pitboss.js", "league.toml", "README.md"] {
        assert!(bot.join(file).is_file(), "{file}");
    }
    assert!(!bot.join("build.sh").exists());
    let league = std::fs::read_to_string(bot.join("league.toml")).unwrap();
    assert!(league.contains("path = \"bot.js\"") && !league.contains("[limits]"), "{league}");

    // The runtime is small (under 1 MiB): its first compile needs no notice.
    let (checked, _, took) = student.ok(&work, &["check", "x/bot.js"]);
    assert!(checked.contains("x/bot.js: OK") && checked.contains("x: a JavaScript bot"), "{checked}");
    eprintln!("javascript from source: first check {:.2} s", took.as_secs_f64());
    let (standings, _, _) = student.ok(&bot, &["run", "league.toml"]);
    assert!(standings.contains(" x ") && standings.contains("basic strategy"), "{standings}");
}

#[test]
fn a_syntax_error_and_an_exception_at_load_are_refused_naming_the_place() {
    let student = Student::new("js-refusals");
    let dir = student.home.clone();
    std::fs::write(
        dir.join("typo.js"),
        "class B extends pitboss.Bot {\n  act(r) { return 0 }\n  bet(r) { return r.min; }}}\n",
    )
    .unwrap();
    std::fs::write(dir.join("crash.js"), "const table = {};\nfunction look() {\n  return table.a.b;\n}\nlook();\n")
        .unwrap();
    std::fs::write(dir.join("silent.js"), "const unused = 1;\n").unwrap();
    std::fs::write(dir.join("json.js"), "const table = JSON.parse('{\"a\": ');\n").unwrap();
    std::fs::write(dir.join("deep.js"), "function f(n) { return f(n + 1) + 1; }\nf(0);\n").unwrap();

    let line = |stdout: &str, file: &str| stdout.lines().find(|l| l.contains(file)).unwrap_or_default().to_string();
    let (ok, stdout, _, _) = student.pitboss(&dir, &["check", "typo.js"]);
    assert!(!ok && line(&stdout, "typo.js").contains("typo.js:3:28: SyntaxError: "), "{stdout}");
    let (ok, stdout, _, _) = student.pitboss(&dir, &["check", "crash.js"]);
    let crash = line(&stdout, "crash.js");
    assert!(!ok && crash.contains("crash.js:3: TypeError: cannot read property 'b' of undefined"), "{stdout}");
    // A SyntaxError of JSON.parse is an exception while the file runs.
    let (ok, stdout, _, _) = student.pitboss(&dir, &["check", "json.js"]);
    assert!(!ok && line(&stdout, "json.js").contains("json.js:1: SyntaxError: unexpected end of input"), "{stdout}");
    // A runaway recursion: QuickJS's own stack check, the same anywhere,
    // at the line of the outermost call that has one.
    let (ok, stdout, _, _) = student.pitboss(&dir, &["check", "deep.js"]);
    assert!(!ok && line(&stdout, "deep.js").contains("deep.js:2: InternalError: stack overflow"), "{stdout}");
    let (ok, stdout, _, _) = student.pitboss(&dir, &["check", "silent.js"]);
    assert!(!ok && line(&stdout, "silent.js").contains("the bot never calls pitboss.play(bot)"), "{stdout}");

    // The same refusal stops a league before any round, naming the file.
    std::fs::write(dir.join("l.toml"), "name = \"l\"\nvariant = \"north-american\"\nrounds = 10\nseed = 1\nbankroll = 1000\nformat = \"solo\"\n\n[[bot]]\npath = \"typo.js\"\n").unwrap();
    let (ok, _, stderr, _) = student.pitboss(&dir, &["run", "l.toml"]);
    assert!(!ok && stderr.contains("typo.js:3:28: SyntaxError"), "{stderr}");
}

/// Hits on a coin Math.random tosses, when it may: its decisions depend
/// on the seat's random stream.
const COIN: &str = r#"class Coin extends pitboss.Bot {
  act(r) {
    const [best] = r.total();
    if (best < 12 && r.can(pitboss.HIT)) return pitboss.HIT;
    return best < 17 && Math.random() < 0.5 && r.can(pitboss.HIT) ? pitboss.HIT : pitboss.STAND;
  }
}
pitboss.play(new Coin());
"#;

/// A league's folder of a JavaScript bot (the scaffold's), a Python bot
/// (the scaffold's) and a wasm bot, and a JavaScript bot on Math.random
/// by a glob, no [limits]: it runs, and `verify` plays it again byte for
/// byte; a results file naming another JavaScript runtime is refused in
/// one line.
#[test]
fn a_league_of_javascript_python_and_wasm_bots_runs_under_default_limits_and_verifies() {
    let student = Student::new("js-league");
    let dir = student.home.join("league");
    std::fs::create_dir_all(dir.join("bots")).unwrap();
    std::fs::create_dir_all(dir.join("coins")).unwrap();
    student.ok(&student.home, &["new", "jsbot", "--lang", "javascript"]);
    student.ok(&student.home, &["new", "pybot", "--lang", "python"]);
    std::fs::copy(student.home.join("jsbot/bot.js"), dir.join("bots/jsbot.js")).unwrap();
    std::fs::copy(student.home.join("pybot/bot.py"), dir.join("bots/pybot.py")).unwrap();
    std::fs::copy(wasm_path("basic"), dir.join("bots/basic-wasm.wasm")).unwrap();
    std::fs::write(dir.join("coins/coin.js"), COIN).unwrap();
    let league = "name = \"mixed\"\nvariant = \"north-american\"\nrounds = 2000\nsessions = 2\nseed = 5\nbankroll = 100000\n\
                  format = \"solo\"\n\n[[bot]]\nfolder = \"bots\"\n\n[[bot]]\npath = \"coins/*.js\"\n";
    std::fs::write(dir.join("mixed.toml"), league).unwrap();
    let (standings, _, _) = student.ok(&dir, &["run", "mixed.toml", "--json", "mixed.json"]);
    for name in ["jsbot", "pybot", "basic-wasm", "coin"] {
        assert!(standings.contains(name), "{name}: {standings}");
    }
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("mixed.json")).unwrap()).unwrap();
    let bots = results["bots"].as_array().unwrap();
    let files: Vec<&str> = bots.iter().map(|b| b["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["basic-wasm.wasm", "jsbot.js", "pybot.py", "coin.js"], "{files:?}");
    let js = pitboss_host::runtime_sha256(pitboss_host::lang::Runtime::JavaScript);
    assert_eq!(bots[1]["runtime"], js);
    assert_eq!(bots[2]["runtime"], pitboss_host::python_runtime_sha256());
    assert!(bots[0].get("runtime").is_none());
    let source = std::fs::read(dir.join("coins/coin.js")).unwrap();
    assert_eq!(bots[3]["sha256"], pitboss_league::bots::sha256_hex(&source));
    for standing in results["standings"].as_array().unwrap() {
        assert_eq!(standing["faults"], 0, "{standing}");
    }

    let (verified, _, _) = student.ok(&dir, &["verify", "mixed.json"]);
    assert!(verified.contains("verified: 2 session(s) identical, byte for byte"), "{verified}");

    // Another runtime: refused in one line, before any round.
    let text = std::fs::read_to_string(dir.join("mixed.json")).unwrap();
    std::fs::write(dir.join("other.json"), text.replace(js, &"0".repeat(64))).unwrap();
    let (ok, _, stderr, _) = student.pitboss(&dir, &["verify", "other.json"]);
    assert!(!ok && stderr.contains("was run by the JavaScript runtime 0000000000000000…"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

/// The runtime kept in the repository is what its script builds from the
/// pinned QuickJS (the `quickjs` source distribution on PyPI) with clang
/// and wasi-libc, byte for byte: its sources (runtime.c, pitboss.js, the
/// patch) and the binary agree.
#[test]
#[ignore = "needs toolchains"]
fn the_javascript_runtime_rebuilds_byte_for_byte() {
    let repo = Path::new(tests_dir!()).join("..");
    let out = scratch("js-rebuild").join("runtime.wasm");
    let status = Command::new("bash").arg(repo.join("scripts/build-js-runtime")).arg(&out).status().unwrap();
    assert!(status.success(), "scripts/build-js-runtime failed (scripts/setup installs clang and wasi-libc)");
    let built = std::fs::read(&out).unwrap();
    let kept = std::fs::read(repo.join("harness/host/javascript/runtime.wasm")).unwrap();
    assert!(
        built == kept,
        "the rebuilt runtime ({} bytes) differs from harness/host/javascript/runtime.wasm ({} bytes): run \
         scripts/build-js-runtime and commit what it writes",
        built.len(),
        kept.len()
    );
    let licence = std::fs::read_to_string(out.with_file_name("LICENSE-QuickJS.txt")).unwrap();
    let kept = std::fs::read_to_string(repo.join("harness/host/javascript/LICENSE-QuickJS.txt")).unwrap();
    assert_eq!(licence, kept);
    assert!(licence.contains("Fabrice Bellard") && licence.contains("Permission is hereby granted"), "{licence}");
}
