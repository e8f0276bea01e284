//! The WASI subset: each call's deterministic behaviour, bots built as
//! reactors, refusal of every other WASI import, and hostile WASI bots
//! (log floods, clock spinning, huge `random_get`, `proc_exit` loops)
//! contained like any other.

use pitboss_engine::{Fault, FaultKind, Rules, Shoe, Table, TableEvent};
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
        assert!(
            e.contains(&format!("imports `wasi_snapshot_preview1.{name}`, which the bot ABI does not offer")),
            "{e}"
        );
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
    assert!(
        logs.iter().all(|l| l.len() < 1100 && l.starts_with("[log cut: the latest 1 KiB of the decision kept]")),
        "{logs:?}"
    );

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

/// `pitboss_preinit` sets a non-exported global, grows memory and reads
/// `random_get` (seed 0's stream); each `BET` checks the first two (and
/// that a page the start-up left zero is zero), logs the bytes, and at an
/// instance's second bet writes over both pages and traps: a restart must
/// undo those writes.
fn preinit_bot(start_up: &str) -> String {
    bot(
        r#"(call $is (global.get $g) (i32.const 42))
           (call $is (i32.load (i32.const 70000)) (i32.const 7))
           (call $hex (i32.const 512) (i32.const 16))
           (call $is (i32.load (i32.const 100000)) (i32.const 0))
           (global.set $n (i32.add (global.get $n) (i32.const 1)))
           (if (i32.eq (global.get $n) (i32.const 2))
             (then (i32.store (i32.const 70000) (i32.const 8))
                   (i32.store (i32.const 100000) (i32.const 9))
                   unreachable))"#,
        &format!(
            r#"(global $g (mut i32) (i32.const 0))
               (global $n (mut i32) (i32.const 0))
               (func (export "{start_up}")
                 (call $is (call $random_get (i32.const 512) (i32.const 16)) (i32.const 0))
                 (global.set $g (i32.const 42))
                 (drop (memory.grow (i32.const 2)))
                 (i32.store (i32.const 70000) (i32.const 7)))"#
        ),
    )
}

#[test]
fn a_start_up_snapshot_is_taken_once_and_every_instance_and_restart_starts_from_it() {
    let wat = preinit_bot("pitboss_preinit");
    let (logs, faults) = play(&wat, 1, 20);
    assert_eq!(faults.len(), 10, "every second bet of each instance traps: {faults:?}");
    assert_eq!(logs.len(), 20);
    assert!(logs.iter().all(|l| *l == logs[0]), "every instance starts from the one snapshot: {logs:?}");
    let (other_seed, _) = play(&wat, 2, 4);
    assert_eq!(other_seed[0], logs[0], "taken with seed 0's stream, whatever the table's seed");
    // The same start-up in `_initialize` runs in every instance, with its
    // own seed.
    let per_instance = preinit_bot("_initialize");
    assert_ne!(play(&per_instance, 1, 1).0, play(&per_instance, 2, 1).0);

    let spins = wat.replace("(global.set $g (i32.const 42))", "(loop $l (br $l))");
    let e = refusal(&spins);
    assert!(e.contains("start-up fuel cap: 10000000") && e.contains("fuel_for_startup"), "{e}");
    let grows = wat.replace(
        "(drop (memory.grow (i32.const 2)))",
        "(drop (memory.grow (i32.const 2))) (drop (table.grow $t (ref.null func) (i32.const 1)))",
    );
    let grows = grows.replace("(global $g", "(table $t 1 funcref) (global $g");
    let e = refusal(&grows);
    assert!(e.contains("exports `pitboss_preinit` but uses `table.grow`"), "{e}");
}
