//! The compiled-module cache: kept on disk between runs, but trusted only
//! under the user's key. Every test sets up one hostile folder of its own:
//! swapped files, an old-format file, a FIFO, a symlink, a folder or key
//! others can touch. The `pitboss` command's side (the one warning, the
//! environment variables) runs in a child process with its own environment.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use pitboss_engine::{Rules, Shoe, Stats, Table};
use pitboss_host::{BotModule, CacheConfig, Limits, Origin, Sandbox};
use pitboss_tests::{boxed, wasm_path};

/// A fresh folder for one test, holding `cache/` and `config/cache.key`.
fn scratch(name: &str) -> PathBuf {
    pitboss_tests::scratch("cache", name)
}

fn config(scratch: &Path) -> CacheConfig {
    CacheConfig::new(scratch.join("cache"), scratch.join("config/cache.key"))
}

/// A new run: a new engine with the cache of `config`.
fn run(config: &CacheConfig) -> Sandbox {
    let sandbox = Sandbox::new(Limits::default()).unwrap().with_cache(config);
    assert_eq!(sandbox.cache_unused(), None);
    sandbox
}

fn load(sandbox: &Sandbox, bot: &str) -> (BotModule, Origin) {
    sandbox.load_traced(bot, &std::fs::read(wasm_path(bot)).unwrap()).unwrap()
}

/// Compiles `bot` into the cache of `config`; returns its new file.
fn store(config: &CacheConfig, bot: &str) -> PathBuf {
    let before = cache_files(&config.dir);
    assert_eq!(load(&run(config), bot).1, Origin::Compiled);
    let mut new: Vec<_> = cache_files(&config.dir).into_iter().filter(|f| !before.contains(f)).collect();
    assert_eq!(new.len(), 1, "{new:?}");
    new.remove(0)
}

/// Every file under `dir` (none if it does not exist), sorted.
fn cache_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten() {
        let path = entry.unwrap().path();
        if path.is_dir() { out.extend(cache_files(&path)) } else { out.push(path) }
    }
    out.sort();
    out
}

/// How a bot fares over 3,000 seeded rounds: its balance and statistics.
fn plays(bot: &BotModule) -> (i64, Stats) {
    let players = vec![boxed(bot.instantiate().unwrap())];
    let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 7), players, 10_000_000).unwrap();
    for _ in 0..3_000 {
        table.play_round(&mut ()).unwrap();
    }
    (table.players()[0].balance, table.players()[0].stats)
}

#[test]
fn compiled_modules_are_shared_in_a_run_and_kept_on_disk_between_runs() {
    let config = config(&scratch("kept"));
    let first = run(&config);
    let (fresh, origin) = load(&first, "basic");
    assert_eq!(origin, Origin::Compiled);
    assert_eq!(load(&first, "basic").1, Origin::Memory, "an identical file shares it");
    let cached = cache_files(&config.dir);
    assert_eq!(cached.len(), 1, "{cached:?}");
    assert!(cached[0].to_string_lossy().contains(env!("CARGO_PKG_VERSION")), "kept by Pitboss version");

    // A new run (a new engine) reads it back, and it plays exactly alike.
    let (from_disk, origin) = load(&run(&config), "basic");
    assert_eq!(origin, Origin::Disk);
    assert_eq!(plays(&fresh), plays(&from_disk));

    // A damaged file is compiled afresh and replaced: garbage, and a
    // single flipped byte deep in the code.
    let good = std::fs::read(&cached[0]).unwrap();
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x40;
    for damaged in [b"not a module".to_vec(), flipped] {
        std::fs::write(&cached[0], damaged).unwrap();
        assert_eq!(load(&run(&config), "basic").1, Origin::Compiled);
        assert_eq!(std::fs::read(&cached[0]).unwrap(), good, "replaced");
    }
    assert_eq!(load(&run(&config), "basic").1, Origin::Disk);

    // A folder that cannot be made is no error, only a reason.
    let blocked = CacheConfig { dir: cached[0].clone(), ..config.clone() };
    let sandbox = Sandbox::new(Limits::default()).unwrap().with_cache(&blocked);
    assert!(sandbox.cache_unused().is_some() && sandbox.cache_dir().is_none());
    assert_eq!(load(&sandbox, "basic").1, Origin::Compiled);
}

#[test]
fn two_bots_files_swapped_each_bot_still_plays_as_itself() {
    let config = config(&scratch("swap"));
    let basic = store(&config, "basic");
    let never_bust = store(&config, "never_bust");
    let (a, b) = (std::fs::read(&basic).unwrap(), std::fs::read(&never_bust).unwrap());
    std::fs::write(&basic, &b).unwrap();
    std::fs::write(&never_bust, &a).unwrap();

    let sandbox = run(&config);
    let memory_only = Sandbox::new(Limits::default()).unwrap();
    for (bot, file, own) in [("basic", &basic, &a), ("never_bust", &never_bust, &b)] {
        let (module, origin) = load(&sandbox, bot);
        assert_eq!(origin, Origin::Compiled, "{bot}: the other bot's file is not trusted");
        assert_eq!(plays(&module), plays(&load(&memory_only, bot).0), "{bot} plays as itself");
        assert_eq!(&std::fs::read(file).unwrap(), own, "{bot}: its own file is back");
    }
    // The swap would have mattered: the two bots play differently.
    assert_ne!(plays(&load(&memory_only, "basic").0), plays(&load(&memory_only, "never_bust").0));
}

#[test]
fn an_old_format_file_with_a_plain_sha256_trailer_is_recompiled() {
    let config = config(&scratch("old-format"));
    let file = store(&config, "basic");
    let good = std::fs::read(&file).unwrap();
    // The format before the MAC: the module, then its own SHA-256.
    let module = &good[..good.len() - 32];
    std::fs::write(&file, module).unwrap();
    let hex = pitboss_league::bots::sha256_hex(module);
    let sum = (0..64).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap());
    std::fs::write(&file, module.iter().copied().chain(sum).collect::<Vec<u8>>()).unwrap();
    assert_eq!(load(&run(&config), "basic").1, Origin::Compiled);
    assert_eq!(std::fs::read(&file).unwrap(), good, "replaced");
}

#[test]
fn a_fifo_or_a_symlink_to_dev_zero_planted_as_an_entry_is_recompiled_without_waiting() {
    let config = config(&scratch("fifo"));
    let file = store(&config, "basic");
    for plant in ["fifo", "symlink"] {
        std::fs::remove_file(&file).unwrap();
        if plant == "fifo" {
            assert!(Command::new("mkfifo").arg(&file).status().unwrap().success());
        } else {
            std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
        }
        let (tx, rx) = mpsc::channel();
        let config = config.clone();
        std::thread::spawn(move || tx.send(load(&run(&config), "basic").1).unwrap());
        let origin = rx.recv_timeout(Duration::from_secs(120)).unwrap_or_else(|_| panic!("hung on a {plant}"));
        assert_eq!(origin, Origin::Compiled, "{plant}");
        assert!(std::fs::symlink_metadata(&file).unwrap().is_file(), "replaced by a plain file");
    }
}

#[test]
fn a_folder_others_can_write_is_not_used() {
    let config = config(&scratch("world-writable"));
    let file = store(&config, "basic");
    std::fs::set_permissions(&config.dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let sandbox = Sandbox::new(Limits::default()).unwrap().with_cache(&config);
    let why = sandbox.cache_unused().expect("refused").to_string();
    assert!(why.contains("it is writable by others (mode 0777)"), "{why}");
    assert_eq!(sandbox.cache_dir(), None, "so a second sandbox made from this one has none either");
    assert_eq!(load(&sandbox, "basic").1, Origin::Compiled, "the file there is not read");
    assert_eq!(load(&sandbox, "never_bust").1, Origin::Compiled);
    assert_eq!(cache_files(&config.dir), [file], "nor is anything written");
}

/// The `pitboss` command's side of the cache, run in a child process of
/// this test binary (see [`cli`]); does nothing in the parent's test run.
#[test]
fn cli_child() {
    if std::env::var_os("PITBOSS_TEST_CACHE_CHILD").is_none() {
        return;
    }
    // As a replay with a league's `[limits]` does: two sandboxes.
    for _ in 0..2 {
        let sandbox = pitboss_league::sandbox().unwrap();
        if let Some(why) = pitboss_league::cache_warning(&sandbox) {
            eprintln!("pitboss: warning: {why}");
        }
        for bot in ["basic", "never_bust"] {
            let (_, origin) = load(&sandbox, bot);
            eprintln!("{bot}: {origin:?}");
        }
    }
}

/// Runs [`cli_child`] with the environment `env` (nothing else of the
/// cache's environment inherited); returns what it wrote to stderr.
fn cli(env: &[(&str, &Path)]) -> String {
    let mut child = Command::new(std::env::current_exe().unwrap());
    child.args(["--exact", "cache::cli_child", "--nocapture", "--test-threads=1"]);
    for var in ["PITBOSS_CACHE_DIR", "PITBOSS_CACHE_KEY", "PITBOSS_CACHE_MAX_MIB", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"]
    {
        child.env_remove(var);
    }
    let out = child.env("PITBOSS_TEST_CACHE_CHILD", "1").envs(env.iter().copied()).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}\n{}", String::from_utf8_lossy(&out.stdout));
    stderr
}

fn warnings(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.starts_with("pitboss: warning:")).collect()
}

#[test]
fn the_command_keeps_modules_under_the_key_its_environment_names() {
    let dir = scratch("cli");
    let (cache, key) = (dir.join("cache"), dir.join("keys/cache.key"));
    let stderr = cli(&[("PITBOSS_CACHE_DIR", &cache), ("PITBOSS_CACHE_KEY", &key)]);
    assert_eq!(warnings(&stderr), Vec::<&str>::new(), "{stderr}");
    assert!(stderr.contains("basic: Compiled\nnever_bust: Compiled\nbasic: Disk\nnever_bust: Disk"), "{stderr}");
    let key_mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
    assert_eq!((std::fs::metadata(&key).unwrap().len(), key_mode), (32, 0o600));
}

#[test]
fn the_command_warns_once_and_compiles_when_the_folder_is_writable_by_others() {
    let dir = scratch("cli-world-writable");
    let (cache, key) = (dir.join("cache"), dir.join("keys/cache.key"));
    std::fs::create_dir(&cache).unwrap();
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    let stderr = cli(&[("PITBOSS_CACHE_DIR", &cache), ("PITBOSS_CACHE_KEY", &key)]);
    let expected = format!(
        "pitboss: warning: compile cache {} not used: it is writable by others (mode 0777); compiling every bot",
        cache.display()
    );
    assert_eq!(warnings(&stderr), [expected.as_str()], "{stderr}");
    assert_eq!(stderr.matches("Compiled").count(), 4, "{stderr}");
    assert!(!key.exists(), "no key made for a cache not used");
}

#[test]
fn the_command_warns_once_and_compiles_when_the_key_is_readable_by_others() {
    let dir = scratch("cli-key");
    let (cache, key) = (dir.join("cache"), dir.join("keys/cache.key"));
    cli(&[("PITBOSS_CACHE_DIR", &cache), ("PITBOSS_CACHE_KEY", &key)]);
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let stderr = cli(&[("PITBOSS_CACHE_DIR", &cache), ("PITBOSS_CACHE_KEY", &key)]);
    let warned = warnings(&stderr);
    assert_eq!(warned.len(), 1, "{stderr}");
    assert!(warned[0].contains(&format!("its key {} is readable or writable by others (mode 0644", key.display())));
    assert_eq!(stderr.matches("Compiled").count(), 4, "the modules kept there are not read: {stderr}");
}

#[test]
fn the_command_refuses_a_size_cap_out_of_range() {
    let dir = scratch("cli-cap");
    let (cache, key) = (dir.join("cache"), dir.join("keys/cache.key"));
    let stderr =
        cli(&[("PITBOSS_CACHE_DIR", &cache), ("PITBOSS_CACHE_KEY", &key), ("PITBOSS_CACHE_MAX_MIB", Path::new("0"))]);
    assert_eq!(warnings(&stderr).len(), 1, "{stderr}");
    assert!(stderr.contains("PITBOSS_CACHE_MAX_MIB=\"0\" is not a whole number from 1 to 1048576"), "{stderr}");
    assert!(!cache.exists());
}

#[test]
fn a_large_modules_compile_is_announced_and_a_cached_one_is_not() {
    // A Python bot's first `check` compiles for seconds: it says so, once.
    let dir = scratch("notice");
    let minimal = std::fs::read_to_string(concat!(tests_dir!(), "/bots/minimal.wat")).unwrap();
    let data = "a".repeat(pitboss_host::COMPILE_NOTICE_BYTES);
    let memory = r#"(memory (export "memory") 1)"#;
    assert!(minimal.contains(memory));
    let big =
        minimal.replace(memory, &format!("(memory (export \"memory\") 20)\n  (data (i32.const 4096) \"{data}\")"));
    std::fs::write(dir.join("big.wat"), big).unwrap();
    std::fs::copy(concat!(tests_dir!(), "/bots/minimal.wat"), dir.join("small.wat")).unwrap();
    let check = |bot: &str| {
        let out = Command::new(pitboss_tests::pitboss_bin())
            .args(["check", bot])
            .current_dir(&dir)
            .env("PITBOSS_CACHE_DIR", dir.join("cache"))
            .env("PITBOSS_CACHE_KEY", dir.join("cache.key"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
        String::from_utf8(out.stderr).unwrap()
    };
    let first = check("big.wat");
    assert!(
        first.starts_with(
            "pitboss: compiling big.wat (1.0 MiB of wasm; about two seconds of CPU a MiB, once: later runs"
        ),
        "{first}"
    );
    assert!(!check("big.wat").contains("compiling"), "found in the compile cache");
    assert!(!check("small.wat").contains("compiling"), "a small module compiles in no time");
}
