//! Loading a bot: compile once, check the ABI contract (imports,
//! exports, version), then instantiate per table.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use pitboss_sdk::Variant;
use pitboss_sdk::abi::{ABI_VERSION, BUFFER_LEN, MIN_ABI_VERSION};
use sha2::{Digest, Sha256};
use wasmtime::{Config, Engine, ExternType, FuncType, Instance, Linker, Memory, Module, Store, TypedFunc, ValType};

use crate::cache::{CacheConfig, CacheUnused, ModuleCache, Origin};
use crate::limits::{Limits, TICK_MS};
use crate::runtime::Booted;
use crate::snapshot::Snapshot;
use crate::store::StoreState;
use pitboss_files::lang::Runtime;

/// Why a bot cannot play. Each message is one line for the bot's author.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{name}: cannot read: {source}")]
    Read {
        /// The bot.
        name: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not a valid WebAssembly module.
    #[error("{name}: not a valid WebAssembly module: {detail}")]
    NotWasm {
        /// The bot.
        name: String,
        /// What wasmtime said.
        detail: String,
    },
    /// The module breaks the ABI contract.
    #[error("{name}: {problem}")]
    Contract {
        /// The bot.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// A source bot was refused by its runtime: its syntax, an import
    /// outside the runtime's library, or an exception while it ran.
    #[error("{}", source_refusal(.name, .detail))]
    Source {
        /// The bot (its path).
        name: String,
        /// `LINE:COL: what`, `LINE: what` or `what`.
        detail: String,
    },
    /// Instantiation or a start-up call failed.
    #[error("{name}: failed to start: {detail}")]
    Startup {
        /// The bot.
        name: String,
        /// What went wrong.
        detail: String,
    },
}

/// `NAME:LINE:COL: what` where the runtime gave a place, else `NAME: what`.
fn source_refusal(name: &str, detail: &str) -> String {
    if detail.starts_with(|c: char| c.is_ascii_digit()) {
        format!("{name}:{detail}")
    } else {
        format!("{name}: {detail}")
    }
}

/// One wasmtime engine with the deterministic configuration and the host
/// functions bots may import. Create one per run and load every bot with it.
#[derive(Clone)]
pub struct Sandbox {
    engine: Engine,
    shared: Arc<Shared>,
    limits: Limits,
    cache: ModuleCache,
}

/// What every clone of a sandbox shares.
struct Shared {
    linker: Linker<StoreState>,
    /// Each runtime, started the first time a source bot of it loads.
    runtimes: [OnceLock<Result<Arc<Booted>, String>>; Runtime::ALL.len()],
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox").field("limits", &self.limits).finish()
    }
}

/// The one host function of the bot ABI: `pitboss.log(ptr, len)`. Bots may
/// import it for debugging; the text is kept within caps (`botlog`).
const LOG_MODULE: &str = "pitboss";
const LOG_NAME: &str = "log";

impl Sandbox {
    /// A sandbox enforcing `limits`.
    pub fn new(limits: Limits) -> Result<Sandbox, wasmtime::Error> {
        let (reservation, guard) = memory_layout(limits.memory_bytes).map_err(wasmtime::Error::msg)?;
        let mut config = Config::new();
        config
            .consume_fuel(true)
            .epoch_interruption(true)
            .cranelift_nan_canonicalization(true)
            .wasm_relaxed_simd(false)
            .wasm_shared_everything_threads(false)
            .wasm_multi_memory(false)
            .memory_reservation(reservation)
            .memory_guard_size(guard)
            .memory_reservation_for_growth(0)
            .max_wasm_stack(limits.stack_bytes);
        let engine = Engine::new(&config)?;
        start_watchdog(&engine);
        let mut linker = Linker::new(&engine);
        linker.func_wrap(LOG_MODULE, LOG_NAME, crate::botlog::log)?;
        crate::wasi::add_to_linker(&mut linker)?;
        let shared = Arc::new(Shared { linker, runtimes: [const { OnceLock::new() }; Runtime::ALL.len()] });
        Ok(Sandbox { engine, shared, limits, cache: ModuleCache::default() })
    }

    /// This sandbox, keeping compiled modules in `dir` with the key file
    /// and size cap the environment names ([`CacheConfig::from_env`]) — or,
    /// with `None`, in memory only. A folder or key unfit for use is no
    /// error: modules are then kept in memory only, and
    /// [`Sandbox::cache_unused`] says why.
    pub fn with_cache_dir(mut self, dir: Option<PathBuf>) -> Sandbox {
        self.cache = match dir.map(CacheConfig::from_env) {
            None => ModuleCache::default(),
            Some(Ok(config)) => ModuleCache::open(&config),
            Some(Err(unused)) => ModuleCache::unused(unused),
        };
        self
    }

    /// This sandbox, keeping compiled modules as `config` says (see
    /// [`Sandbox::with_cache_dir`]).
    pub fn with_cache(mut self, config: &CacheConfig) -> Sandbox {
        self.cache = ModuleCache::open(config);
        self
    }

    /// The folder compiled modules are kept in, if one is in use.
    pub fn cache_dir(&self) -> Option<&Path> {
        self.cache.dir()
    }

    /// Why the cache folder asked for is not used, if it is not: one line
    /// for the caller to print once per run.
    pub fn cache_unused(&self) -> Option<&CacheUnused> {
        self.cache.unused_reason()
    }

    /// The limits every instance gets.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Reads and loads the bot at `path` (a regular file of at most
    /// [`crate::files::BOT_CAP`] bytes); its name is the file stem.
    pub fn load_file(&self, path: &Path) -> Result<BotModule, LoadError> {
        let name = path.display().to_string();
        let bytes = crate::files::read_regular(path, crate::files::Kind::Bot)
            .map_err(|e| LoadError::Read { name: name.clone(), source: e.without_path() })?;
        self.load(&name, &bytes)
    }

    /// Compiles `bytes` (binary wasm, or WAT text) and checks the ABI
    /// contract; then instantiates it once to check the version export and
    /// the buffer. A `name` with a source ending of the language table
    /// (`bot.py`) is a bot's source, which its runtime runs
    /// ([`Sandbox::load_source`]).
    pub fn load(&self, name: &str, bytes: &[u8]) -> Result<BotModule, LoadError> {
        self.load_traced(name, bytes).map(|(bot, _)| bot)
    }

    /// [`Sandbox::load`], also saying whether the module was compiled, or
    /// found in memory or in the cache folder.
    pub fn load_traced(&self, name: &str, bytes: &[u8]) -> Result<(BotModule, Origin), LoadError> {
        if let Some(runtime) = Runtime::of(name) {
            return self.load_source_traced(runtime, name, bytes);
        }
        let not_wasm = |detail: String| LoadError::NotWasm { name: name.to_string(), detail: one_line(&detail) };
        let contract = |problem: String| LoadError::Contract { name: name.to_string(), problem };
        let binary = match wat::Detect::from_bytes(bytes) {
            wat::Detect::Unknown => {
                return Err(not_wasm("neither a WebAssembly binary nor WAT text".into()));
            }
            _ => wat::parse_bytes(bytes).map_err(|e| not_wasm(wat_error(&e)))?,
        };
        if let Some(problem) = crate::inspect::refusal(&binary, &self.limits).map_err(not_wasm)? {
            return Err(contract(problem));
        }
        // A module with a start-up snapshot is compiled with its mutable
        // globals exported, so the snapshot can hold them.
        let prepared = crate::snapshot::prepare(&binary).map_err(|e| contract(crate::text::excerpt(&e, 300)))?;
        let compiled = prepared.as_ref().map_or(&binary[..], |p| &p.binary[..]);
        let compiling = || crate::cache::compile_notice(name, compiled.len());
        let (module, origin) =
            self.cache.get(&self.engine, compiled, &compiling).map_err(|e| not_wasm(format!("{e:#}")))?;
        for import in module.imports() {
            if let Some(problem) = import_problem(&import) {
                return Err(contract(problem));
            }
        }
        let wanted: [(&str, &[ValType], &[ValType]); 3] = [
            ("pitboss_abi_version", &[], &[ValType::I32]),
            ("pitboss_buffer", &[], &[ValType::I32]),
            ("pitboss_decide", &[ValType::I32], &[ValType::I64]),
        ];
        for (export, params, results) in wanted {
            match module.get_export(export) {
                Some(ExternType::Func(f)) if same_sig(&f, params, results) => {}
                Some(_) => return Err(contract(format!("export `{export}` has the wrong type (see sdk/ABI.md)"))),
                None => return Err(contract(format!("does not export `{export}`; is it a Pitboss bot?"))),
            }
        }
        if let Some(ExternType::Func(f)) = module.get_export(crate::snapshot::PREINIT)
            && !same_sig(&f, &[], &[])
        {
            return Err(contract(format!("export `{}` has the wrong type (see sdk/ABI.md)", crate::snapshot::PREINIT)));
        }
        // The optional exports of ABI v2 to v5.
        let (one, two): (&[ValType], &[ValType]) = (&[ValType::I32], &[ValType::I32, ValType::I32]);
        let (i32_, i64_): (&[ValType], &[ValType]) = (&[ValType::I32], &[ValType::I64]);
        for (export, params, result) in [
            (crate::keys::WANTS_EVENTS, one, i32_),
            (crate::keys::DEFAULTS, one, i32_),
            (crate::keys::DECISION_KEY, two, i32_),
            (crate::keys::COUNT, one, i64_),
        ] {
            match module.get_export(export) {
                Some(ExternType::Func(f)) if same_sig(&f, params, result) => {}
                None => {}
                Some(_) => return Err(contract(format!("export `{export}` has the wrong type (see sdk/ABI.md)"))),
            }
        }
        if !matches!(module.get_export("memory"), Some(ExternType::Memory(_))) {
            return Err(contract("does not export its `memory`".to_string()));
        }
        let digest = Sha256::digest(&binary).into();
        let mut bot = BotModule {
            name: name.into(),
            module,
            kept: Arc::new(Kept { digest, snapshot: None }),
            sandbox: self.clone(),
        };
        if let Some(prepared) = prepared {
            let snapshot = Some(bot.preinitialise(&prepared.globals)?);
            bot.kept = Arc::new(Kept { digest, snapshot });
        }
        bot.start(0)?;
        Ok((bot, origin))
    }
}

impl Sandbox {
    /// Loads the Python bot `name` from its `source`, whatever its file
    /// name (`load` takes a `.py` name for source).
    pub fn load_python(&self, name: &str, source: &[u8]) -> Result<BotModule, LoadError> {
        self.load_source(Runtime::Python, name, source)
    }

    /// Loads the bot `name` from its `source`, run by `runtime`, whatever
    /// its file name (`load` picks the runtime by the name's ending).
    pub fn load_source(&self, runtime: Runtime, name: &str, source: &[u8]) -> Result<BotModule, LoadError> {
        self.load_source_traced(runtime, name, source).map(|(bot, _)| bot)
    }

    /// Loads the bot `name` from its `source` (sdk/ABI.md, "Bots from
    /// source"): the runtime, started once per sandbox, is handed the
    /// source, which it checks and runs under the start-up fuel; what that
    /// leaves is the bot's start-up snapshot. The origin is the runtime
    /// module's.
    fn load_source_traced(&self, which: Runtime, name: &str, source: &[u8]) -> Result<(BotModule, Origin), LoadError> {
        if source.len() > self.limits.module_bytes {
            return Err(LoadError::Contract {
                name: name.to_string(),
                problem: format!(
                    "its source is {} KiB; the cap is {} KiB: {}",
                    source.len().div_ceil(1024),
                    self.limits.module_bytes >> 10,
                    crate::limits::Raisable::ModuleMib.how_to_raise()
                ),
            });
        }
        let runtime = self.runtime(which).map_err(|detail| LoadError::Startup {
            name: name.to_string(),
            detail: format!("the {} runtime cannot start: {detail}", which.title()),
        })?;
        let digest = crate::runtime::source_digest(which, &runtime.digest, source);
        let mut bot = BotModule {
            name: name.into(),
            module: runtime.module.clone(),
            kept: Arc::new(Kept { digest, snapshot: None }),
            sandbox: self.clone(),
        };
        let snapshot = Some(bot.load_source(which, &runtime, source)?);
        bot.kept = Arc::new(Kept { digest, snapshot });
        bot.start(0)?;
        Ok((bot, runtime.origin))
    }

    /// A runtime, compiled (or found in the compile cache) and started
    /// the first time it is asked for; the same for every clone.
    fn runtime(&self, which: Runtime) -> Result<Arc<Booted>, String> {
        self.shared.runtimes[which.index()].get_or_init(|| self.start_runtime(which).map(Arc::new)).clone()
    }

    fn start_runtime(&self, which: Runtime) -> Result<Booted, String> {
        let binary = crate::runtime::module(which);
        let prepared = crate::snapshot::prepare(binary)?.ok_or("it does not export pitboss_preinit")?;
        let title = format!("the {} runtime", which.title());
        let compiling = || crate::cache::compile_notice(&title, prepared.binary.len());
        let (module, origin) =
            self.cache.get(&self.engine, &prepared.binary, &compiling).map_err(|e| format!("{e:#}"))?;
        let digest: [u8; 32] = Sha256::digest(binary).into();
        let bare = || -> Result<(Store<StoreState>, Instance), String> {
            let state = StoreState::new(self.limits, crate::wasi::WasiState::new(0, &digest));
            let mut store = Store::new(&self.engine, state);
            store.limiter(|s| s);
            crate::wasi::refuel(&mut store, crate::runtime::BOOT_FUEL).map_err(|e| e.to_string())?;
            store.set_epoch_deadline(crate::runtime::BOOT_WALL_MS.div_ceil(TICK_MS));
            let instance = self.shared.linker.instantiate(&mut store, &module).map_err(|e| trap_text(&e))?;
            Ok((store, instance))
        };
        let (mut store, instance) = bare()?;
        for name in ["_initialize", crate::snapshot::PREINIT] {
            if let Some(init) = instance.get_func(&mut store, name)
                && let Err(e) = init.typed::<(), ()>(&store).and_then(|f| f.call(&mut store, ()))
            {
                let cap = store.data().cap_text();
                let (_, text) = store.data_mut().log.take_both();
                return Err(crate::botlog::with_cause(cap.unwrap_or_else(|| trap_text(&e)), &text));
            }
        }
        let fuel = crate::runtime::BOOT_FUEL - crate::wasi::fuel_left(&store);
        let (mut fresh_store, fresh) = bare()?;
        let boot = Snapshot::take((&mut store, &instance), (&mut fresh_store, &fresh), &prepared.globals, fuel, None)?;
        Ok(Booted { module, globals: prepared.globals, boot, digest, origin })
    }
}

impl BotModule {
    /// Hands `source` to an instance of the runtime started from its boot
    /// snapshot, which checks and runs it under the start-up fuel, and
    /// keeps what that leaves (the bot's start-up snapshot).
    fn load_source(&self, which: Runtime, runtime: &Booted, source: &[u8]) -> Result<Snapshot, LoadError> {
        use crate::runtime::{LOAD, RESERVE};
        let (mut store, instance) = self.instantiate_bare(0)?;
        runtime.boot.restore(&mut store, &instance).map_err(|d| self.startup(d))?;
        let len = i32::try_from(source.len()).map_err(|_| self.startup("the source is too large".into()))?;
        let at = match instance.get_typed_func::<i32, i32>(&mut store, RESERVE).and_then(|f| f.call(&mut store, len)) {
            Ok(at) => at,
            Err(e) => return Err(self.failed(&mut store, &e)),
        };
        let memory = instance.get_memory(&mut store, "memory").ok_or_else(|| self.startup("no memory".into()))?;
        if at == 0 || memory.write(&mut store, at as u32 as usize, source).is_err() {
            return Err(self.startup(format!("the {} runtime has no room for {len} bytes of source", which.title())));
        }
        let status = match instance.get_typed_func::<(), i32>(&mut store, LOAD).and_then(|f| f.call(&mut store, ())) {
            Ok(status) => status,
            Err(e) => return Err(self.failed(&mut store, &e)),
        };
        if status != 0 {
            let (_, text) = store.data_mut().log.take_both();
            let line = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("the source was refused");
            return Err(LoadError::Source { name: self.name.to_string(), detail: crate::text::excerpt(line, 2000) });
        }
        let fuel = self.sandbox.limits.fuel_for_startup - crate::wasi::fuel_left(&store);
        let (mut fresh_store, fresh) = self.instantiate_bare(0)?;
        // Sharing the runtime's chunks: a bot keeps only what its source changed.
        let base = Some(&runtime.boot);
        Snapshot::take((&mut store, &instance), (&mut fresh_store, &fresh), &runtime.globals, fuel, base)
            .map_err(|d| self.startup(d))
    }
}

/// What is wrong with an import, if anything: it must be `pitboss.log`
/// or a function of the WASI subset, with its type.
fn import_problem(import: &wasmtime::ImportType<'_>) -> Option<String> {
    let (module, name) = (import.module(), import.name());
    let wanted = match (module, name) {
        (LOG_MODULE, LOG_NAME) => Some((vec![ValType::I32, ValType::I32], vec![])),
        (crate::wasi::MODULE, _) => crate::wasi::signature(name),
        _ => None,
    };
    let Some((params, results)) = wanted else {
        return Some(format!(
            "imports `{module}.{name}`, which the bot ABI does not offer (only `pitboss.log` and the WASI subset of sdk/ABI.md)"
        ));
    };
    match import.ty() {
        ExternType::Func(f) if same_sig(&f, &params, &results) => None,
        _ => Some(format!("imports `{module}.{name}` with the wrong type (see sdk/ABI.md)")),
    }
}

/// Squeezes a multi-line message onto one short line, control bytes
/// escaped.
fn one_line(text: &str) -> String {
    crate::text::excerpt(&text.split_whitespace().collect::<Vec<_>>().join(" "), 300)
}

/// A WAT syntax error as its message and position, without the source
/// line the parser quotes: the "bot" may be any text file, and its
/// contents are not ours to print.
fn wat_error(e: &wat::Error) -> String {
    let text = e.to_string();
    let mut lines = text.lines();
    let message = lines.next().unwrap_or_default();
    let place = lines.find_map(|l| l.trim().strip_prefix("--> ")).map(|loc| loc.rsplitn(3, ':').collect::<Vec<_>>());
    match place.as_deref() {
        Some([col, line, ..]) => format!("WAT text, line {line}, column {col}: {message}"),
        _ => format!("WAT text: {message}"),
    }
}

/// Guard pages after each bot's memory where address space is capped.
const GUARD_BYTES: u64 = 64 << 10;

/// Address space (`ulimit -v`) from which each bot instance may reserve
/// a whole 32-bit memory and its guards (8 GiB): thousands of instances.
const ROOMY_ADDRESS_SPACE: u64 = 16 << 40;

/// Address space reserved (and at once released) to check that a league's
/// worth of whole-memory instances fits: 128 of them.
const PROBE_BYTES: usize = 1 << 40;

/// How much address space each bot's memory reserves, and its guard.
///
/// Where the address space is unlimited (or huge) and a trial reservation
/// of [`PROBE_BYTES`] succeeds: 4 GiB and a 2 GiB guard, wasmtime's
/// defaults, so compiled bots need no bounds checks (guard pages catch
/// every stray access; 4-8 % fewer instructions a round). Under `ulimit
/// -v`, or where the trial fails (an emulator, a sanitizer): only what the
/// memory cap allows and a small guard, so a league of many tables fits;
/// bounds checks are then explicit. `PITBOSS_RESERVE=whole` or `cap`
/// forces one or the other. Either way an access outside memory traps at
/// the same instruction and fuel is counted alike, so results do not
/// depend on it.
fn memory_layout(memory_bytes: usize) -> Result<(u64, u64), String> {
    let whole = (1 << 32, 2 << 30);
    let cap = (memory_bytes as u64, GUARD_BYTES);
    let wanted = std::env::var_os("PITBOSS_RESERVE");
    Ok(match wanted.as_ref().map(|w| w.to_str()) {
        Some(Some("whole")) => whole,
        Some(Some("cap")) => cap,
        None | Some(Some("auto" | "")) => {
            if roomy() {
                whole
            } else {
                cap
            }
        }
        Some(_) => {
            let shown = crate::text::excerpt(&wanted.unwrap_or_default().to_string_lossy(), 40);
            return Err(format!("PITBOSS_RESERVE is {shown:?}: it must be whole, cap or auto"));
        }
    })
}

/// Whether this process may reserve [`PROBE_BYTES`] of address space.
fn roomy() -> bool {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit only writes the struct it is given.
    let known = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    if !known || (limit.rlim_cur != libc::RLIM_INFINITY && limit.rlim_cur < ROOMY_ADDRESS_SPACE) {
        return false;
    }
    let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE;
    // SAFETY: a fresh inaccessible mapping, touching no existing memory,
    // unmapped at once below.
    let at = unsafe { libc::mmap(std::ptr::null_mut(), PROBE_BYTES, libc::PROT_NONE, flags, -1, 0) };
    if at == libc::MAP_FAILED {
        return false;
    }
    // SAFETY: exactly the mapping made above.
    unsafe { libc::munmap(at, PROBE_BYTES) };
    true
}

/// Advances the engine's epoch every [`TICK_MS`] on a background thread,
/// so a call that runs past its wall-clock deadline is interrupted. The
/// thread ends when the engine is dropped. Fuel, not this, is the
/// deterministic limit; the watchdog is only a backstop.
fn start_watchdog(engine: &Engine) {
    let weak = engine.weak();
    std::thread::Builder::new()
        .name("pitboss-watchdog".into())
        .spawn(move || {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(TICK_MS));
                match weak.upgrade() {
                    Some(engine) => engine.increment_epoch(),
                    None => return,
                }
            }
        })
        .expect("spawn the watchdog thread");
}

fn same_sig(f: &FuncType, params: &[ValType], results: &[ValType]) -> bool {
    let p: Vec<ValType> = f.params().collect();
    let r: Vec<ValType> = f.results().collect();
    p.len() == params.len()
        && r.len() == results.len()
        && p.iter().zip(params).all(|(a, b)| ValType::eq(a, b))
        && r.iter().zip(results).all(|(a, b)| ValType::eq(a, b))
}

/// A compiled bot, ready to be instantiated at any number of tables.
/// Cheap to clone.
#[derive(Clone)]
pub struct BotModule {
    name: Arc<str>,
    module: Module,
    kept: Arc<Kept>,
    sandbox: Sandbox,
}

/// What a loaded module keeps besides its code.
struct Kept {
    /// SHA-256 of the binary module: part of the WASI random seed.
    digest: [u8; 32],
    /// What `pitboss_preinit` left, for a module that exports it: every
    /// instance starts from it (`snapshot`).
    snapshot: Option<Snapshot>,
}

impl std::fmt::Debug for BotModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotModule").field("name", &self.name).finish()
    }
}

impl BotModule {
    /// The bot's name (its path, as given).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its start-up snapshot, if it has one.
    pub(crate) fn snapshot_state(&self) -> Option<&Snapshot> {
        self.kept.snapshot.as_ref()
    }

    /// For a module with a start-up snapshot (`pitboss_preinit`,
    /// sdk/ABI.md): the fuel its start-up used, once, and the bytes of
    /// memory each new instance is given instead.
    pub fn snapshot(&self) -> Option<(u64, usize)> {
        self.kept.snapshot.as_ref().map(|s| (s.fuel, s.kept_bytes()))
    }

    /// A fresh instance, started and checked against the ABI contract (see
    /// `BotModule::instantiate_seeded`, which makes it a `WasmPlayer`): a
    /// reactor's `_initialize` is called, or the start-up snapshot given.
    pub(crate) fn start(&self, seed: u64) -> Result<Started, LoadError> {
        let (mut store, instance) = self.instantiate_bare(seed)?;
        match &self.kept.snapshot {
            Some(snapshot) => snapshot.restore(&mut store, &instance).map_err(|d| self.startup(d))?,
            None => self.initialise(&mut store, &instance, false)?,
        }
        self.checked(store, instance)
    }

    /// A new store (WASI stream keyed by `seed`, start-up fuel) with an
    /// instance in it on which nothing has been called.
    fn instantiate_bare(&self, seed: u64) -> Result<(Store<StoreState>, Instance), LoadError> {
        let state = StoreState::new(self.sandbox.limits, crate::wasi::WasiState::new(seed, &self.kept.digest));
        let mut store = wasmtime::Store::new(&self.sandbox.engine, state);
        store.limiter(|s| s);
        crate::wasi::refuel(&mut store, self.sandbox.limits.fuel_for_startup)
            .map_err(|e| self.startup(e.to_string()))?;
        store.set_epoch_deadline(self.sandbox.limits.deadline_ticks());
        match self.sandbox.shared.linker.instantiate(&mut store, &self.module) {
            Ok(instance) => Ok((store, instance)),
            Err(e) => Err(self.failed(&mut store, &e)),
        }
    }

    /// Calls a reactor's `_initialize`, and `pitboss_preinit` too when
    /// `preinit` (the start-up a snapshot keeps).
    fn initialise(&self, store: &mut Store<StoreState>, instance: &Instance, preinit: bool) -> Result<(), LoadError> {
        let names: &[&str] = if preinit { &["_initialize", crate::snapshot::PREINIT] } else { &["_initialize"] };
        for name in names {
            if let Some(init) = instance.get_func(&mut *store, name)
                && let Err(e) = init.typed::<(), ()>(&*store).and_then(|f| f.call(&mut *store, ()))
            {
                return Err(self.failed(store, &e));
            }
        }
        Ok(())
    }

    /// Starts the module once with seed 0 (`_initialize`, then
    /// `pitboss_preinit`) and keeps what that changed (`snapshot`).
    fn preinitialise(&self, globals: &[String]) -> Result<Snapshot, LoadError> {
        let (mut store, instance) = self.instantiate_bare(0)?;
        self.initialise(&mut store, &instance, true)?;
        let fuel = self.sandbox.limits.fuel_for_startup - crate::wasi::fuel_left(&store);
        let (mut fresh_store, fresh) = self.instantiate_bare(0)?;
        Snapshot::take((&mut store, &instance), (&mut fresh_store, &fresh), globals, fuel, None)
            .map_err(|d| self.startup(d))
    }

    fn startup(&self, detail: String) -> LoadError {
        LoadError::Startup { name: self.name.to_string(), detail }
    }

    /// Why a start-up call failed: the cap it hit, or the trap, with what
    /// the bot wrote while failing.
    fn failed(&self, store: &mut Store<StoreState>, e: &wasmtime::Error) -> LoadError {
        let limits = store.data().limits;
        let message = match (store.data().cap_text(), e.downcast_ref::<wasmtime::Trap>()) {
            (Some(cap), _) => cap,
            (None, Some(wasmtime::Trap::OutOfFuel)) => {
                let raise = crate::limits::Raisable::FuelForStartup.how_to_raise();
                format!("{} (start-up fuel cap: {}; {raise})", trap_text(e), limits.fuel_for_startup)
            }
            _ => trap_text(e),
        };
        // What it wrote while failing to start says why.
        let (_, text) = store.data_mut().log.take_both();
        self.startup(crate::botlog::with_cause(message, &text))
    }

    /// The ABI contract of an initialised instance: its version, optional
    /// answers, buffer and `pitboss_decide`.
    fn checked(&self, mut store: Store<StoreState>, instance: Instance) -> Result<Started, LoadError> {
        let startup = |detail: String| self.startup(detail);
        let why = |store: &mut Store<StoreState>, e: wasmtime::Error| self.failed(store, &e);
        let version = match instance
            .get_typed_func::<(), i32>(&mut store, "pitboss_abi_version")
            .and_then(|f| f.call(&mut store, ()))
        {
            Ok(v) => v,
            Err(e) => return Err(why(&mut store, e)),
        };
        if !(MIN_ABI_VERSION..=ABI_VERSION).contains(&(version as u32)) {
            return Err(LoadError::Contract {
                name: self.name.to_string(),
                problem: format!(
                    "speaks bot ABI version {version}, this Pitboss speaks versions {MIN_ABI_VERSION} to {ABI_VERSION}: rebuild it with pitboss-sdk {}",
                    env!("CARGO_PKG_VERSION")
                ),
            });
        }
        let (wants_events, defaults) = match crate::keys::optional_answers(&mut store, &instance, version) {
            Ok(answers) => answers,
            Err(e) => return Err(why(&mut store, e)),
        };
        let keys = crate::keys::declared(&mut store, &instance, version, (wants_events, &defaults))
            .map_err(|e| why(&mut store, e))?;
        if let Some(problem) = crate::keys::defaults_problem(&defaults).or(keys.as_ref().err().cloned()) {
            return Err(LoadError::Contract { name: self.name.to_string(), problem });
        }
        let buffer =
            match instance.get_typed_func::<(), i32>(&mut store, "pitboss_buffer").and_then(|f| f.call(&mut store, ()))
            {
                Ok(b) => b,
                Err(e) => return Err(why(&mut store, e)),
            };
        let memory = instance.get_memory(&mut store, "memory").ok_or_else(|| startup("no memory".into()))?;
        let start = buffer as u32 as usize;
        if start.checked_add(BUFFER_LEN).is_none_or(|end| end > memory.data_size(&store)) {
            return Err(LoadError::Contract {
                name: self.name.to_string(),
                problem: format!("pitboss_buffer() = {start} leaves no room for {BUFFER_LEN} bytes in its memory"),
            });
        }
        let decide =
            instance.get_typed_func::<i32, i64>(&mut store, "pitboss_decide").map_err(|e| startup(trap_text(&e)))?;
        let reads_clock = crate::wasi::reads_clock(&self.module);
        let abi_version = version as u32;
        let keys = keys.unwrap_or_default();
        Ok(Started {
            store,
            instance,
            memory,
            decide,
            buffer: start,
            reads_clock,
            wants_events,
            defaults,
            keys,
            abi_version,
        })
    }
}

/// A started instance of a [`BotModule`], checked against the ABI contract:
/// what a `WasmPlayer` is made of.
pub(crate) struct Started {
    pub(crate) store: Store<StoreState>,
    pub(crate) instance: Instance,
    pub(crate) memory: Memory,
    pub(crate) decide: TypedFunc<i32, i64>,
    /// Where the exchange buffer starts in `memory`.
    pub(crate) buffer: usize,
    /// The module imports the WASI clock.
    pub(crate) reads_clock: bool,
    /// Bit `v` set: the bot reads events under the rule set of code `v`.
    pub(crate) wants_events: u8,
    /// ABI v3: the decisions it leaves to their default under the rule set
    /// of code `v` (`pitboss_defaults` bits).
    pub(crate) defaults: [u32; Variant::ALL.len()],
    /// ABI v4: the parts of each decision's key (`pitboss_decision_key`);
    /// v5: the weights of its count (`pitboss_count`).
    pub(crate) keys: crate::keys::Declared,
    /// The ABI version the module speaks (`MIN_ABI_VERSION..=ABI_VERSION`).
    pub(crate) abi_version: u32,
}

/// One line describing a wasmtime error or trap.
pub(crate) fn trap_text(e: &wasmtime::Error) -> String {
    if let Some(exit) = e.downcast_ref::<crate::wasi::ProcExit>() {
        return exit.to_string();
    }
    match e.downcast_ref::<wasmtime::Trap>() {
        Some(trap) => trap.to_string(),
        // The rest of the chain may quote the module's own (hostile) names.
        None => crate::text::excerpt(format!("{e:#}").lines().next().unwrap_or_default(), 300),
    }
}
