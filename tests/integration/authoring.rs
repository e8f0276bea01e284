//! Writing bots: `pitboss new` scaffolds a crate that builds and passes
//! `pitboss check`; the C, WAT and Zig bots of the guide (`sdk/README.md`)
//! build and play. A missing compiler skips loudly, never silently.

use std::path::{Path, PathBuf};
use std::process::Command;

use pitboss_engine::{Player, Rules, Shoe, Table};
use pitboss_tests::boxed;

fn examples() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../sdk/examples"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitboss-authoring-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Loads a bot, checks it, and plays 2,000 rounds of every rule set with it.
fn check_and_play(path: &Path) {
    let sandbox = pitboss_cli::sandbox().unwrap();
    let report = pitboss_cli::check::check(path, &pitboss_cli::check::Plan::every_rule_set(&sandbox).unwrap());
    assert!(report.passed, "{}", report.render());
    let module = sandbox.load_file(path).unwrap();
    let players: Vec<Box<dyn Player + Send>> = vec![boxed(module.instantiate().unwrap())];
    let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 9), players, 100_000).unwrap();
    for _ in 0..2_000 {
        table.play_round(&mut ()).unwrap();
    }
    assert_eq!(table.seats()[0].stats.rounds, 2_000);
}

fn skip(what: &str, why: &str) {
    eprintln!("\n!!! SKIPPED: {what}: {why}. `bash scripts/setup` installs it.\n");
}

#[test]
fn pitboss_new_scaffolds_a_bot_that_builds_and_passes_check() {
    let dir = scratch("new");
    let created = pitboss_cli::new::scaffold("my-bot", &dir).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--quiet"])
        .current_dir(&created)
        .env_remove("CARGO_TARGET_DIR")
        .status()
        .unwrap();
    assert!(status.success(), "the scaffolded crate builds");
    check_and_play(&pitboss_cli::new::wasm_of(&created, "my-bot"));
    let again = pitboss_cli::new::scaffold("my-bot", &dir).unwrap_err().to_string();
    assert!(again.contains("already exists"), "{again}");
    let bad = pitboss_cli::new::scaffold("My Bot", &dir).unwrap_err().to_string();
    assert!(bad.contains("no good crate name"), "{bad}");
}

#[test]
fn the_wat_bot_of_the_guide_plays() {
    check_and_play(&examples().join("wat/bot.wat"));
}

#[test]
fn the_c_bot_of_the_guide_builds_with_clang_and_plays() {
    let out = scratch("c").join("bot.wasm");
    let built = Command::new("clang")
        .args(["--target=wasm32", "-O2", "-nostdlib", "-Wl,--no-entry", "-o"])
        .arg(&out)
        .arg(examples().join("c/bot.c"))
        .status();
    match built {
        Err(e) => return skip("the C bot", &format!("clang cannot run ({e})")),
        Ok(s) => assert!(s.success(), "clang failed on sdk/examples/c/bot.c"),
    }
    check_and_play(&out);
}

#[test]
fn the_zig_bot_of_the_guide_builds_and_plays() {
    let out = scratch("zig").join("bot.wasm");
    let has_zig = Command::new("python3").args(["-m", "ziglang", "version"]).output().is_ok_and(|o| o.status.success());
    if !has_zig {
        return skip("the Zig bot", "`python3 -m ziglang` is not installed");
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
