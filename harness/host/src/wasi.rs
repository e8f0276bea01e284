//! A deterministic, capability-free subset of WASI preview 1
//! (`wasi_snapshot_preview1`), so a bot built by any toolchain that targets
//! WASI can play. Nothing here reaches the outside world: stdout and stderr
//! are the bot's log (`botlog`), the clock is virtual (fuel consumed, never
//! wall time), `random_get` is a PRNG seeded by the host, there are no
//! arguments, environment, files or sockets. Every call costs fuel, so a
//! loop of calls runs out like any other loop. `sdk/ABI.md`, "WASI subset",
//! documents each call.

use sha2::{Digest, Sha256};
use wasmtime::{Caller, Linker, Memory, ValType};

use crate::botlog::HasLog;

/// The WASI module name.
pub(crate) const MODULE: &str = "wasi_snapshot_preview1";

/// Fuel every WASI call costs, on top of any per-byte charge.
pub const WASI_FUEL_PER_CALL: u64 = 100;
/// Most bytes one `random_get` call may ask for; more is `EINVAL`.
pub const RANDOM_PER_CALL: u32 = 64 << 10;
/// Most iovecs one `fd_write` call may pass; more is `EINVAL`.
const IOVECS_PER_CALL: u32 = 1024;
/// Most subscriptions one `poll_oneoff` call may pass; more is `EINVAL`.
const SUBSCRIPTIONS_PER_CALL: u32 = 64;

/// WASI error numbers used here.
const SUCCESS: i32 = 0;
const EBADF: i32 = 8;
const EFAULT: i32 = 21;
const EINVAL: i32 = 28;
const ENOTSUP: i32 = 58;
const ESPIPE: i32 = 70;
const ENOTCAPABLE: i32 = 76;

/// The subset: each function's name and type, `i` for i32 and `I` for
/// i64 (parameters, results).
pub(crate) const SUBSET: &[(&str, &str, &str)] = &[
    ("args_get", "ii", "i"),
    ("args_sizes_get", "ii", "i"),
    ("environ_get", "ii", "i"),
    ("environ_sizes_get", "ii", "i"),
    ("clock_res_get", "ii", "i"),
    ("clock_time_get", "iIi", "i"),
    ("fd_write", "iiii", "i"),
    ("fd_read", "iiii", "i"),
    ("fd_close", "i", "i"),
    ("fd_seek", "iIii", "i"),
    ("fd_fdstat_get", "ii", "i"),
    ("fd_fdstat_set_flags", "ii", "i"),
    ("fd_filestat_get", "ii", "i"),
    ("fd_prestat_get", "ii", "i"),
    ("fd_prestat_dir_name", "iii", "i"),
    ("fd_sync", "i", "i"),
    ("path_open", "iiiiiIIii", "i"),
    ("random_get", "ii", "i"),
    ("proc_exit", "i", ""),
    ("sched_yield", "", "i"),
    ("poll_oneoff", "iiii", "i"),
];

/// The types of a subset function, if `name` is one.
pub(crate) fn signature(name: &str) -> Option<(Vec<ValType>, Vec<ValType>)> {
    let types = |s: &str| s.chars().map(|c| if c == 'I' { ValType::I64 } else { ValType::I32 }).collect();
    SUBSET.iter().find(|(n, ..)| *n == name).map(|(_, p, r)| (types(p), types(r)))
}

/// One instance's WASI state: the virtual clock and the random stream.
/// Carried across a trap's restart, so neither runs backwards.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WasiState {
    /// Fuel consumed by the calls that have ended.
    consumed: u64,
    /// Fuel the current call was given.
    given: u64,
    /// The random stream's key (from the seed and the module's hash).
    key: u64,
    /// Bytes of the random stream handed out so far.
    position: u64,
}

impl WasiState {
    /// A state whose random stream is keyed by `seed` and the module's
    /// SHA-256 `digest`.
    pub(crate) fn new(seed: u64, digest: &[u8; 32]) -> WasiState {
        let mut h = Sha256::new();
        h.update(b"pitboss wasi random_get\0");
        h.update(seed.to_le_bytes());
        h.update(digest);
        let out = h.finalize();
        let key = u64::from_le_bytes(out[..8].try_into().expect("8 bytes"));
        WasiState { key, ..WasiState::default() }
    }

    /// Keeps the clock and random position of `old` (a trapped instance
    /// whose call has ended with `left` fuel unspent).
    pub(crate) fn carry(&mut self, old: &WasiState, left: u64) {
        self.consumed = self.consumed.saturating_add(old.consumed.saturating_add(old.given.saturating_sub(left)));
        self.position = old.position;
        self.key = old.key;
    }
}

/// Store data that holds a [`WasiState`] (and, for stdout and stderr, a
/// log): what the subset's host functions work on. The store's
/// `StoreState` is the one.
pub(crate) trait HasWasi: HasLog {
    /// The instance's WASI state.
    fn wasi(&self) -> &WasiState;
    /// The instance's WASI state, to change.
    fn wasi_mut(&mut self) -> &mut WasiState;
}

/// Sets the store's fuel for a new call, first counting what the previous
/// call consumed into the virtual clock.
pub(crate) fn refuel<T: HasWasi>(store: &mut wasmtime::Store<T>, fuel: u64) -> wasmtime::Result<()> {
    let left = store.get_fuel()?;
    let w = store.data_mut().wasi_mut();
    w.consumed = w.consumed.saturating_add(w.given.saturating_sub(left));
    w.given = fuel;
    store.set_fuel(fuel)
}

/// Whether `module` reads the virtual clock: only then must each call's
/// fuel be counted ([`refuel`]), which the hot per-decision path of every
/// other bot skips.
pub(crate) fn reads_clock(module: &wasmtime::Module) -> bool {
    module.imports().any(|i| i.module() == MODULE && i.name() == "clock_time_get")
}

/// Fuel the store has left (its current call's).
pub(crate) fn fuel_left<T: HasWasi>(store: &wasmtime::Store<T>) -> u64 {
    store.get_fuel().unwrap_or(0)
}

/// The virtual time in nanoseconds: one per unit of fuel this instance
/// (and the ones it replaced) has consumed.
fn now<T: HasWasi>(caller: &Caller<'_, T>) -> u64 {
    let w = caller.data().wasi();
    let left = caller.get_fuel().unwrap_or(0);
    w.consumed.saturating_add(w.given.saturating_sub(left))
}

/// Registers the subset on `linker`.
pub(crate) fn add_to_linker<T: HasWasi>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    let m = MODULE;
    linker.func_wrap(m, "args_get", |c: Caller<'_, T>, _: i32, _: i32| nothing(c))?;
    linker.func_wrap(m, "environ_get", |c: Caller<'_, T>, _: i32, _: i32| nothing(c))?;
    linker.func_wrap(m, "args_sizes_get", sizes)?;
    linker.func_wrap(m, "environ_sizes_get", sizes)?;
    linker.func_wrap(m, "clock_res_get", clock_res_get)?;
    linker.func_wrap(m, "clock_time_get", clock_time_get)?;
    linker.func_wrap(m, "fd_write", fd_write)?;
    linker.func_wrap(m, "fd_read", |c: Caller<'_, T>, _: i32, _: i32, _: i32, _: i32| refuse(c, EBADF))?;
    linker.func_wrap(m, "fd_close", |c: Caller<'_, T>, _: i32| refuse(c, EBADF))?;
    linker.func_wrap(m, "fd_seek", |c: Caller<'_, T>, fd: i32, _: i64, _: i32, _: i32| {
        refuse(c, if is_std(fd) { ESPIPE } else { EBADF })
    })?;
    linker.func_wrap(m, "fd_fdstat_get", fd_fdstat_get)?;
    linker.func_wrap(m, "fd_fdstat_set_flags", |c: Caller<'_, T>, fd: i32, _: i32| {
        refuse(c, if is_std(fd) { ENOTCAPABLE } else { EBADF })
    })?;
    linker.func_wrap(m, "fd_filestat_get", |c: Caller<'_, T>, fd: i32, _: i32| {
        refuse(c, if is_std(fd) { ENOTCAPABLE } else { EBADF })
    })?;
    linker.func_wrap(m, "fd_prestat_get", |c: Caller<'_, T>, _: i32, _: i32| refuse(c, EBADF))?;
    linker.func_wrap(m, "fd_prestat_dir_name", |c: Caller<'_, T>, _: i32, _: i32, _: i32| refuse(c, EBADF))?;
    linker
        .func_wrap(m, "fd_sync", |c: Caller<'_, T>, fd: i32| refuse(c, if is_std(fd) { ENOTCAPABLE } else { EBADF }))?;
    linker.func_wrap(
        m,
        "path_open",
        |c: Caller<'_, T>, _: i32, _: i32, _: i32, _: i32, _: i32, _: i64, _: i64, _: i32, _: i32| refuse(c, EBADF),
    )?;
    linker.func_wrap(m, "random_get", random_get)?;
    linker.func_wrap(m, "proc_exit", proc_exit)?;
    linker.func_wrap(m, "sched_yield", |c: Caller<'_, T>| refuse(c, SUCCESS))?;
    linker.func_wrap(m, "poll_oneoff", poll_oneoff)?;
    Ok(())
}

/// stdin, stdout or stderr: they exist (as the log), but cannot be
/// seeked, synced or reconfigured.
fn is_std(fd: i32) -> bool {
    (0..=2).contains(&fd)
}

/// Charges the per-call fuel and answers `errno`.
fn refuse<T: HasWasi>(mut caller: Caller<'_, T>, errno: i32) -> wasmtime::Result<i32> {
    crate::botlog::charge(&mut caller, WASI_FUEL_PER_CALL)?;
    Ok(errno)
}

/// `args_get` / `environ_get`: there is nothing to write.
fn nothing<T: HasWasi>(caller: Caller<'_, T>) -> wasmtime::Result<i32> {
    refuse(caller, SUCCESS)
}

fn memory<T: HasWasi>(caller: &mut Caller<'_, T>) -> Option<Memory> {
    caller.get_export("memory").and_then(|e| e.into_memory())
}

/// Writes `bytes` at `ptr` of the bot's memory; false if out of bounds.
fn write<T: HasWasi>(caller: &mut Caller<'_, T>, ptr: i32, bytes: &[u8]) -> bool {
    write_at(caller, u64::from(ptr as u32), bytes)
}

/// [`write`] at an address that may lie past 4 GiB (and so out of bounds).
fn write_at<T: HasWasi>(caller: &mut Caller<'_, T>, at: u64, bytes: &[u8]) -> bool {
    match (memory(caller), usize::try_from(at)) {
        (Some(m), Ok(at)) => m.write(caller, at, bytes).is_ok(),
        _ => false,
    }
}

/// Reads `N` bytes at `ptr`, if in bounds.
fn read<const N: usize, T: HasWasi>(caller: &mut Caller<'_, T>, ptr: u64) -> Option<[u8; N]> {
    let m = memory(caller)?;
    let mut out = [0u8; N];
    m.read(&*caller, usize::try_from(ptr).ok()?, &mut out).ok()?;
    Some(out)
}

/// `args_sizes_get` / `environ_sizes_get`: zero entries, zero bytes.
fn sizes<T: HasWasi>(mut caller: Caller<'_, T>, count: i32, bytes: i32) -> wasmtime::Result<i32> {
    crate::botlog::charge(&mut caller, WASI_FUEL_PER_CALL)?;
    let ok = write(&mut caller, count, &0u32.to_le_bytes()) && write(&mut caller, bytes, &0u32.to_le_bytes());
    Ok(if ok { SUCCESS } else { EFAULT })
}

/// Clock ids: realtime, monotonic, process and thread CPU time — all the
/// one virtual clock.
fn known_clock(id: i32) -> bool {
    (0..=3).contains(&id)
}

fn clock_res_get<T: HasWasi>(mut caller: Caller<'_, T>, id: i32, out: i32) -> wasmtime::Result<i32> {
    crate::botlog::charge(&mut caller, WASI_FUEL_PER_CALL)?;
    if !known_clock(id) {
        return Ok(EINVAL);
    }
    Ok(if write(&mut caller, out, &1u64.to_le_bytes()) { SUCCESS } else { EFAULT })
}

fn clock_time_get<T: HasWasi>(mut caller: Caller<'_, T>, id: i32, _precision: i64, out: i32) -> wasmtime::Result<i32> {
    crate::botlog::charge(&mut caller, WASI_FUEL_PER_CALL)?;
    if !known_clock(id) {
        return Ok(EINVAL);
    }
    let t = now(&caller);
    Ok(if write(&mut caller, out, &t.to_le_bytes()) { SUCCESS } else { EFAULT })
}

/// `fd_write`: stdout and stderr append to the bot's log, within its caps;
/// everything asked for counts as written.
fn fd_write<T: HasWasi>(mut caller: Caller<'_, T>, fd: i32, iovs: i32, count: i32, out: i32) -> wasmtime::Result<i32> {
    crate::botlog::charge(&mut caller, WASI_FUEL_PER_CALL)?;
    if fd != 1 && fd != 2 {
        return Ok(EBADF);
    }
    let count = count as u32;
    if count > IOVECS_PER_CALL {
        return Ok(EINVAL);
    }
    let mut spans = Vec::with_capacity(count as usize);
    let mut total: u64 = 0;
    for i in 0..u64::from(count) {
        let Some(iov) = read::<8, _>(&mut caller, u64::from(iovs as u32) + 8 * i) else {
            return Ok(EFAULT);
        };
        let ptr = u32::from_le_bytes(iov[..4].try_into().expect("4 bytes"));
        let len = u32::from_le_bytes(iov[4..].try_into().expect("4 bytes"));
        total += u64::from(len);
        spans.push((ptr, len));
    }
    crate::botlog::charge(&mut caller, total)?;
    crate::botlog::append(&mut caller, &spans);
    let written = u32::try_from(total).unwrap_or(u32::MAX);
    Ok(if write(&mut caller, out, &written.to_le_bytes()) { SUCCESS } else { EFAULT })
}

/// `fd_fdstat_get`: stdout and stderr are write-only character devices
/// (so C's stdio buffers them by line); stdin and every other fd is bad.
fn fd_fdstat_get<T: HasWasi>(mut caller: Caller<'_, T>, fd: i32, out: i32) -> wasmtime::Result<i32> {
    crate::botlog::charge(&mut caller, WASI_FUEL_PER_CALL)?;
    if fd != 1 && fd != 2 {
        return Ok(EBADF);
    }
    let mut stat = [0u8; 24];
    stat[0] = 2; // filetype: character device
    stat[8..16].copy_from_slice(&64u64.to_le_bytes()); // rights: fd_write
    Ok(if write(&mut caller, out, &stat) { SUCCESS } else { EFAULT })
}

/// Byte `i` of the random stream keyed by `key`: counter-mode SplitMix64.
fn stream_block(key: u64, block: u64) -> [u8; 8] {
    let mut z = key.wrapping_add(block.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)).to_le_bytes()
}

/// `random_get`: the next `len` bytes of the instance's random stream.
fn random_get<T: HasWasi>(mut caller: Caller<'_, T>, ptr: i32, len: i32) -> wasmtime::Result<i32> {
    crate::botlog::charge(&mut caller, WASI_FUEL_PER_CALL)?;
    let len = len as u32;
    if len > RANDOM_PER_CALL {
        return Ok(EINVAL);
    }
    crate::botlog::charge(&mut caller, u64::from(len))?;
    let WasiState { key, position, .. } = *caller.data().wasi();
    let bytes: Vec<u8> =
        (position..position + u64::from(len)).map(|i| stream_block(key, i / 8)[(i % 8) as usize]).collect();
    if !write(&mut caller, ptr, &bytes) {
        return Ok(EFAULT);
    }
    caller.data_mut().wasi_mut().position += u64::from(len);
    Ok(SUCCESS)
}

/// `proc_exit`: ends the instance like a trap, the code in the fault.
fn proc_exit<T: HasWasi>(mut caller: Caller<'_, T>, code: i32) -> wasmtime::Result<()> {
    crate::botlog::charge(&mut caller, WASI_FUEL_PER_CALL)?;
    Err(ProcExit(code).into())
}

/// The error `proc_exit` ends an instance with.
#[derive(Debug, thiserror::Error)]
#[error("proc_exit({0})")]
pub(crate) struct ProcExit(i32);

/// `poll_oneoff`: every clock subscription fires at once (a sleep takes no
/// virtual time beyond the call's fuel); every fd subscription is answered
/// `ENOTSUP`. Costs the call's fuel plus 100 per subscription.
fn poll_oneoff<T: HasWasi>(
    mut caller: Caller<'_, T>,
    subs: i32,
    events: i32,
    n: i32,
    out: i32,
) -> wasmtime::Result<i32> {
    crate::botlog::charge(&mut caller, WASI_FUEL_PER_CALL)?;
    let n = n as u32;
    if n == 0 || n > SUBSCRIPTIONS_PER_CALL {
        return Ok(EINVAL);
    }
    crate::botlog::charge(&mut caller, WASI_FUEL_PER_CALL * u64::from(n))?;
    for i in 0..u64::from(n) {
        let Some(sub) = read::<48, _>(&mut caller, u64::from(subs as u32) + 48 * i) else {
            return Ok(EFAULT);
        };
        let tag = sub[8];
        let mut event = [0u8; 32];
        event[..8].copy_from_slice(&sub[..8]); // userdata
        let errno = if tag == 0 { SUCCESS } else { ENOTSUP };
        event[8..10].copy_from_slice(&(errno as u16).to_le_bytes());
        event[10] = tag;
        if !write_at(&mut caller, u64::from(events as u32) + 32 * i, &event) {
            return Ok(EFAULT);
        }
    }
    Ok(if write(&mut caller, out, &n.to_le_bytes()) { SUCCESS } else { EFAULT })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_random_stream_does_not_depend_on_how_it_is_read() {
        let whole: Vec<u8> = (0..20u64).map(|i| stream_block(7, i / 8)[(i % 8) as usize]).collect();
        assert_eq!(&whole[..8], &stream_block(7, 0));
        assert_ne!(stream_block(7, 0), stream_block(8, 0));
    }

    #[test]
    fn every_subset_function_has_a_type() {
        for (name, ..) in SUBSET {
            assert!(signature(name).is_some());
        }
        assert!(signature("sock_accept").is_none());
    }
}
