//! The test tiers hold: every `#[ignore]` names one of the four heavy
//! tiers (so `bash scripts/test` knows it), no test skips itself when a
//! tool is missing (it fails instead), and the README's test command runs
//! every tier and fails when one of them did not run.

use std::path::{Path, PathBuf};

/// The reasons an `#[ignore]` may give: the tiers.
const TIERS: [&str; 4] = ["needs chromium", "needs slurm", "needs toolchains", "soak"];

fn repo() -> PathBuf {
    Path::new(tests_dir!()).parent().expect("tests/ sits in the repository").to_path_buf()
}

/// Every `.rs` file under `dir` (no `target/`).
fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && path.file_name().is_some_and(|n| n != "target") {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

fn sources() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for dir in ["harness", "sdk", "bots", "tests"] {
        rust_files(&repo().join(dir), &mut files);
    }
    files.into_iter().map(|f| (f.clone(), std::fs::read_to_string(&f).unwrap())).collect()
}

/// The ignore attributes of `text` that name no tier, and the lines that
/// skip a test with a message instead of failing it.
fn offences(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        // Written in pieces, so this file's own lines are not matches.
        if line.starts_with(concat!("#[", "ignore")) {
            let reason = line.split('"').nth(1).unwrap_or("");
            if !TIERS.contains(&reason) {
                found.push(format!("line {}: `{line}` names no tier ({TIERS:?})", n + 1));
            }
        }
        if line.contains(concat!("SKIP", "PED")) {
            found.push(format!("line {}: `{line}` skips a test instead of failing it", n + 1));
        }
    }
    found
}

#[test]
fn every_ignored_test_names_its_tier_and_none_skips_itself() {
    let mut bad = Vec::new();
    let mut tiered = 0;
    for (path, text) in sources() {
        tiered += text.lines().filter(|l| l.trim().starts_with(concat!("#[", "ignore = \""))).count();
        bad.extend(offences(&text).into_iter().map(|o| format!("{}: {o}", path.display())));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(tiered >= 20, "only {tiered} heavy tests found: have the tiers moved?");
}

#[test]
fn the_offences_are_found() {
    let text = concat!("#[", "ignore]\nfn a() {}\n#[", "ignore = \"slow\"]\n#[", "ignore = \"soak\"]\n");
    assert_eq!(offences(text).len(), 2, "{:?}", offences(text));
    let skip = concat!("eprintln!(\"!!! SKIP", "PED: no clang\");");
    assert_eq!(offences(skip).len(), 1);
}

#[test]
fn the_test_command_runs_every_tier_and_fails_when_one_did_not_run() {
    let ci = std::fs::read_to_string(repo().join(".ci/run")).unwrap();
    assert!(ci.contains("bash scripts/test"), ".ci/run runs the README's test command:\n{ci}");
    let script = std::fs::read_to_string(repo().join("scripts/test")).unwrap();
    assert!(script.contains("cargo test --release --workspace -- --include-ignored"), "{script}");
    assert!(script.contains("0 ignored; [0-9]+ measured; 0 filtered out"), "the run must fail on an ignored test");
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(readme.contains("bash scripts/test"), "README names the test command");
    // scripts/tiers finds each tier's tests (the names scripts/test checks).
    for tier in ["chromium", "slurm", "toolchains", "soak"] {
        let out = std::process::Command::new("bash").arg(repo().join("scripts/tiers")).arg(tier).output().unwrap();
        assert!(out.status.success(), "scripts/tiers {tier}: {}", String::from_utf8_lossy(&out.stderr));
        let names = String::from_utf8_lossy(&out.stdout);
        assert!(names.lines().count() >= 1, "no {tier} test found");
        assert!(names.lines().all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')));
    }
}
