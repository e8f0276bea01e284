//! Hostile paths and failing writes, through the `pitboss` command: every
//! input that is not a regular file or is over its cap is refused in one
//! line without hanging, bot folders skip such entries with a warning, and
//! every output appears whole or the command fails.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use pitboss_tests::{Ran, pitboss, pitboss_with, wasm_path};

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    pitboss_tests::scratch("files", name)
}

fn fifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path for the call's duration.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo {}", path.display());
}

fn symlink(target: impl AsRef<Path>, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

/// A file of `mib` MiB that takes no disk space.
fn sparse(path: &Path, mib: u64) {
    std::fs::File::create(path).unwrap().set_len(mib << 20).unwrap();
}

/// A small league of builtins (plus `extra` bot entries).
fn league(dir: &Path, name: &str, extra: &str) -> PathBuf {
    let path = dir.join(name);
    let text = format!(
        "name = \"f\"\nvariant = \"north-american\"\nrounds = 300\nsessions = 2\nseed = 3\nbankroll = 1000\n\n\
         [[bot]]\nbuiltin = \"basic\"\n\n[[bot]]\nbuiltin = \"mimic-dealer\"\n{extra}"
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn ok(ran: &Ran) {
    assert_eq!(ran.code, Some(0), "{ran:?}");
}

/// A failure whose whole error output is the one line `message`.
fn refused(ran: &Ran, message: &str) {
    assert_eq!(ran.code, Some(1), "{ran:?}");
    assert_eq!(ran.stderr, format!("pitboss: error: {message}\n"), "{ran:?}");
}

/// Entries of `dir` that are temp files of ours.
fn temps(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') && n.ends_with(".tmp"))
        .collect()
}

#[test]
fn fifos_devices_and_files_over_their_cap_are_refused_in_one_line() {
    let dir = scratch("inputs");
    fifo(&dir.join("pipe"));
    symlink("/dev/zero", &dir.join("zero"));
    let not_regular = |kind: &str, path: &str, what: &str| {
        format!("{kind} {path:?} is not a regular file ({what}); Pitboss reads only regular files")
    };
    // (kind, the command with FILE for the hostile file, its size over the cap, the cap)
    let cases: [(&str, &[&str], u64, u64); 8] = [
        ("bot file", &["play", "--bot", "FILE", "--rounds", "10"], 65, 64),
        ("league file", &["run", "FILE"], 2, 1),
        ("season file", &["season", "FILE"], 2, 1),
        ("shoe file", &["play", "--bot", "builtin:basic", "--shoe", "FILE"], 5, 4),
        ("results file", &["replay", "FILE", "--round", "1"], 257, 256),
        ("results file", &["report", "FILE", "-o", "r.html"], 257, 256),
        ("shard file", &["merge", "FILE"], 257, 256),
        ("bot file", &["check", "FILE"], 65, 64),
    ];
    for (kind, command, size, cap) in cases {
        sparse(&dir.join("big"), size);
        let expected = [
            ("pipe", not_regular(kind, "pipe", "a FIFO")),
            ("zero", not_regular(kind, "zero", "a character device")),
            ("big", format!("{kind} \"big\" is {size} MiB; the cap for a {kind} is {cap} MiB")),
        ];
        for (file, message) in expected {
            // `play` names a bot file as it resolves it: `./FILE`.
            let given = if command[0] == "play" && kind == "bot file" { format!("./{file}") } else { file.into() };
            let message = message.replace(&format!("\"{file}\""), &format!("{given:?}"));
            let args: Vec<&str> = command.iter().map(|a| if *a == "FILE" { file } else { a }).collect();
            let ran = pitboss(&dir, &args);
            if command[0] == "check" {
                assert_eq!(ran.code, Some(1), "{ran:?}");
                assert_eq!(ran.stdout, format!("{file}: FAILED: {message}\n"), "{ran:?}");
            } else {
                refused(&ran, &message);
            }
        }
    }
    // A league naming a FIFO as a bot file is refused too.
    let path = league(&dir, "l.toml", "\n[[bot]]\nname = \"p\"\npath = \"pipe\"\n");
    let ran = pitboss(&dir, &["run", path.to_str().unwrap()]);
    assert_eq!(ran.code, Some(1), "{ran:?}");
    assert!(
        ran.stderr
            .ends_with(&format!("{}\n", not_regular("bot file", &dir.join("pipe").display().to_string(), "a FIFO"))),
        "{ran:?}"
    );
    assert_eq!(ran.stderr.lines().count(), 1, "{ran:?}");
}

#[test]
fn a_bot_folder_or_glob_skips_what_is_not_a_regular_file_with_a_warning() {
    let dir = scratch("folder");
    let subs = dir.join("subs");
    std::fs::create_dir(&subs).unwrap();
    std::fs::copy(wasm_path("basic"), subs.join("good.wasm")).unwrap();
    symlink(subs.join("good.wasm"), &subs.join("linked.wasm"));
    symlink("/dev/zero", &subs.join("zero.wasm"));
    fifo(&subs.join("pipe.wasm"));
    symlink(subs.join("gone"), &subs.join("dangling.wasm"));
    std::fs::create_dir(subs.join("folder.wasm")).unwrap();
    for entry in ["folder = \"subs\"", "path = \"subs/*.wasm\""] {
        let path = league(&dir, "l.toml", &format!("\n[[bot]]\n{entry}\n"));
        let ran = pitboss(&dir, &["run", path.to_str().unwrap()]);
        ok(&ran);
        assert!(ran.stdout.contains("│ good ") && ran.stdout.contains("│ linked "), "{ran:?}");
        let warn = |name: &str, what: &str| {
            format!("pitboss: warning: skipped {:?}: {what}, not a regular file\n", subs.join(name))
        };
        let expected = [
            warn("dangling.wasm", "a dangling symlink"),
            warn("folder.wasm", "a folder"),
            warn("pipe.wasm", "a FIFO"),
            warn("zero.wasm", "a character device"),
        ]
        .concat();
        assert_eq!(ran.stderr, expected, "{entry}");
    }
}

#[test]
fn a_failed_write_fails_the_command() {
    let dir = scratch("full");
    let path = league(&dir, "l.toml", "");
    let league = path.to_str().unwrap();
    ok(&pitboss(&dir, &["run", league, "--json", "results.json"]));
    let ran = pitboss(&dir, &["replay", "results.json", "--round", "2", "--log", "/dev/full"]);
    refused(&ran, "cannot write \"/dev/full\": No space left on device (os error 28)");
    for flag in ["--json", "--csv"] {
        let ran = pitboss(&dir, &["run", league, flag, "/dev/full"]);
        refused(&ran, "cannot write \"/dev/full\": No space left on device (os error 28)");
    }
    let ran = pitboss(&dir, &["report", "results.json", "-o", "/dev/full"]);
    refused(&ran, "cannot write \"/dev/full\": No space left on device (os error 28)");
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let ran = pitboss_with(&dir, &["run", league], Stdio::from(full));
    refused(&ran, "cannot write to standard output: No space left on device (os error 28)");
    assert!(temps(&dir).is_empty(), "{:?}", temps(&dir));
}

#[test]
fn planted_symlinks_at_temp_names_or_the_target_are_never_followed() {
    let dir = scratch("planted");
    let path = league(&dir, "l.toml", "");
    let victim = dir.join("victim");
    std::fs::write(&victim, "precious").unwrap();
    // The fixed temp names Pitboss used to write through, and a symlink
    // standing where the hand history goes.
    for planted in [".x.json.tmp", ".x.csv.tmp", ".r.html.tmp", ".h.jsonl.tmp", "h.jsonl"] {
        symlink(&victim, &dir.join(planted));
    }
    ok(&pitboss(&dir, &["run", path.to_str().unwrap(), "--json", "x.json", "--csv", "x.csv"]));
    ok(&pitboss(&dir, &["report", "x.json", "-o", "r.html"]));
    ok(&pitboss(&dir, &["replay", "x.json", "--round", "1", "--log", "h.jsonl"]));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let results: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("x.json")).unwrap()).unwrap();
    assert_eq!(results["name"], "f");
    assert!(std::fs::read_to_string(dir.join("x.csv")).unwrap().starts_with("rank,bot,"));
    assert!(std::fs::read_to_string(dir.join("r.html")).unwrap().trim_end().ends_with("</html>"));
    let history = std::fs::read_to_string(dir.join("h.jsonl")).unwrap();
    assert_eq!(history.lines().filter(|l| l.contains("\"round-start\"")).count(), 300);
    assert!(!dir.join("h.jsonl").is_symlink(), "the symlink was replaced, not followed");
    let mut left = temps(&dir);
    left.sort();
    assert_eq!(left, [".h.jsonl.tmp", ".r.html.tmp", ".x.csv.tmp", ".x.json.tmp"], "only the planted ones");
}

#[test]
fn concurrent_runs_writing_the_same_json_all_succeed() {
    let dir = scratch("concurrent");
    let path = league(&dir, "l.toml", "");
    let league = path.to_str().unwrap().to_string();
    let runs: Vec<_> = (0..4)
        .map(|_| {
            let (dir, league) = (dir.clone(), league.clone());
            std::thread::spawn(move || pitboss(&dir, &["run", &league, "--json", "same.json", "--csv", "same.csv"]))
        })
        .collect();
    for run in runs {
        ok(&run.join().unwrap());
    }
    let text = std::fs::read_to_string(dir.join("same.json")).unwrap();
    let results: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(results["session_count"], 2);
    assert!(text.ends_with("}\n"));
    assert!(temps(&dir).is_empty(), "{:?}", temps(&dir));
}

#[test]
fn a_write_into_a_missing_or_read_only_folder_fails_and_leaves_no_temp_file() {
    let dir = scratch("folders");
    let path = league(&dir, "l.toml", "");
    let league = path.to_str().unwrap();
    let ran = pitboss(&dir, &["run", league, "--json", "missing/x.json"]);
    assert_eq!(ran.code, Some(1), "{ran:?}");
    assert!(ran.stderr.starts_with("pitboss: error: cannot write \"missing/x.json\": No such file"), "{ran:?}");
    let ran = pitboss(&dir, &["run", league, "--json", "/proc/x.json"]);
    assert_eq!(ran.code, Some(1), "{ran:?}");
    assert!(ran.stderr.starts_with("pitboss: error: cannot write \"/proc/x.json\""), "{ran:?}");
    // A folder without write permission (which binds only a user without
    // the privilege to ignore it).
    use std::os::unix::fs::PermissionsExt;
    let locked = dir.join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(locked.join("probe"), "").is_err() {
        let ran = pitboss(&dir, &["run", league, "--csv", "locked/x.csv"]);
        assert_eq!(ran.code, Some(1), "{ran:?}");
        assert!(ran.stderr.contains("cannot write \"locked/x.csv\": Permission denied"), "{ran:?}");
    } else {
        eprintln!("(the read-only folder case is skipped: this user writes anywhere)");
        std::fs::remove_file(locked.join("probe")).unwrap();
    }
    assert!(temps(&dir).is_empty() && temps(&locked).is_empty());
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn dev_stdout_and_a_fifo_are_written_in_place() {
    let dir = scratch("in-place");
    let path = league(&dir, "l.toml", "");
    let league = path.to_str().unwrap();
    // Standard output redirected to a regular file: `/dev/stdout` then
    // leads to a regular file, and must still not get a temp file in /dev.
    let stdout = std::fs::File::create(dir.join("stdout.txt")).unwrap();
    ok(&pitboss_with(&dir, &["run", league, "--json", "/dev/stdout"], Stdio::from(stdout)));
    let text = std::fs::read_to_string(dir.join("stdout.txt")).unwrap();
    let json = text.find("{\n").expect("the JSON after the standings");
    assert!(text[..json].contains("mimic-dealer"), "{text}");
    let results: serde_json::Value = serde_json::from_str(&text[json..]).unwrap();
    assert_eq!(results["name"], "f");
    let in_dev: Vec<String> = std::fs::read_dir("/dev")
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".stdout"))
        .collect();
    assert!(in_dev.is_empty(), "{in_dev:?}");
    assert!(Path::new("/dev/stdout").exists());

    let pipe = dir.join("pipe.json");
    fifo(&pipe);
    let reader = std::thread::spawn(move || std::fs::read_to_string(pipe).unwrap());
    ok(&pitboss(&dir, &["run", league, "--json", "pipe.json"]));
    let results: serde_json::Value = serde_json::from_str(&reader.join().unwrap()).unwrap();
    assert_eq!(results["session_count"], 2);
    assert!(temps(&dir).is_empty(), "{:?}", temps(&dir));
}
