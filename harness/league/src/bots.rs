//! Bot specifications on the command line and in league files: a `.wasm`
//! path, or `builtin:NAME` for a strategy compiled into the harness.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pitboss_engine::{Native, Player};
use pitboss_host::{BotModule, Sandbox, files};

/// The strategies compiled into `pitboss`, by name.
pub const BUILTINS: [&str; 6] = ["basic", "hilo", "random", "mimic-dealer", "never-bust", "template"];

/// How to make the missing bot file `path`: its folder's `./build.sh`
/// (a `pitboss new` scaffold), `bash scripts/build-bots` (our bots, under
/// a Cargo target folder), or a general word.
pub(crate) fn build_hint(path: &Path) -> String {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if dir.join("build.sh").is_file() {
        format!("build it with ./build.sh in {}", dir.display())
    } else if path.components().any(|c| c.as_os_str() == "wasm32-unknown-unknown") {
        "build the bots with `bash scripts/build-bots`".to_string()
    } else {
        "build it first, or check the path".to_string()
    }
}

/// Source files of a bot scaffolded by `pitboss new` (`build.sh` beside
/// the module) newer than the module at `path`: the first such file, so a
/// command can warn that the module is stale. Looks at the module's folder,
/// its `src/`, `assembly/` and `pitboss-sdk/` (a Python scaffold's SDK is
/// compiled in), at most 1,000 entries each; `None` for any other bot.
pub fn newer_source(path: &Path) -> Option<PathBuf> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.join("build.sh").is_file() {
        return None;
    }
    let built = std::fs::metadata(path).and_then(|m| m.modified()).ok()?;
    let sources = pitboss_host::lang::source_endings();
    let listed = |d: PathBuf| std::fs::read_dir(d).into_iter().flatten().flatten().take(1_000);
    let entries = listed(dir.to_path_buf())
        .chain(listed(dir.join("src")))
        .chain(listed(dir.join("assembly")))
        .chain(listed(dir.join("pitboss-sdk")));
    entries.map(|e| e.path()).find(|p| {
        let source = p.extension().and_then(|x| x.to_str()).is_some_and(|x| sources.contains(&x))
            || p.file_name().is_some_and(|n| n == "Cargo.toml");
        let newer = || std::fs::metadata(p).and_then(|m| m.modified()).is_ok_and(|t| t > built);
        p.file_name() != path.file_name() && source && p.is_file() && newer()
    })
}

/// Bots with their display names, in seat (or league) order.
pub type NamedBots = Vec<(String, Bot)>;

/// A bot ready to be seated: a compiled wasm module or a builtin.
#[derive(Clone, Debug)]
pub enum Bot {
    /// A WebAssembly bot, compiled once.
    Wasm(BotModule),
    /// A native strategy compiled into the harness.
    Builtin(&'static str),
    /// A bot whose file was not loaded because it does not sit at the
    /// table being replayed ([`crate::replay::Replayable::open_table`]);
    /// seating it is an error.
    Absent,
}

impl Bot {
    /// Resolves `spec`: `builtin:NAME`, or a path to a `.wasm` (or `.wat`)
    /// file, relative to `base`.
    pub fn resolve(spec: &str, base: &Path, sandbox: &Sandbox) -> Result<Bot> {
        if let Some(name) = spec.strip_prefix("builtin:") {
            return Bot::builtin(name);
        }
        let path: PathBuf = base.join(spec);
        Bot::wasm_file(&path, sandbox).map(|(bot, _)| bot)
    }

    /// Reads the wasm (or WAT) bot at `path` — a regular file of at most
    /// [`files::BOT_CAP`] bytes — and compiles it; also returns the
    /// SHA-256 (hex) of the very bytes compiled, so a recorded hash always
    /// names the bot that played.
    pub fn wasm_file(path: &Path, sandbox: &Sandbox) -> Result<(Bot, String)> {
        if !path.exists() {
            bail!("bot file {} does not exist ({})", path.display(), build_hint(path));
        }
        let bytes = files::read_regular(path, files::Kind::Bot)?;
        let module = sandbox.load(&path.display().to_string(), &bytes)?;
        Ok((Bot::Wasm(module), crate::bots::sha256_hex(&bytes)))
    }

    /// The builtin called `name`.
    pub fn builtin(name: &str) -> Result<Bot> {
        match BUILTINS.iter().find(|b| **b == name) {
            Some(b) => Ok(Bot::Builtin(b)),
            None => bail!("unknown builtin bot `{name}` (known: {})", BUILTINS.join(", ")),
        }
    }

    /// A fresh player for one table, its WASI `random_get` seeded with 0.
    pub fn player(&self) -> Result<Box<dyn Player + Send>> {
        self.player_seeded(0)
    }

    /// A fresh player for one table whose WASI `random_get` stream is
    /// keyed by `seed` (see [`seat_seed`]) and the bot's own hash.
    pub fn player_seeded(&self, seed: u64) -> Result<Box<dyn Player + Send>> {
        Ok(match self {
            Bot::Wasm(module) => {
                Box::new(module.instantiate_seeded(seed).with_context(|| format!("bot {}", module.name()))?)
            }
            Bot::Builtin("basic") => Box::new(Native::new(basic::Basic::default())),
            Bot::Builtin("hilo") => Box::new(Native::new(hilo::HiLo::default())),
            Bot::Builtin("random") => Box::new(Native::new(random::Random::default())),
            Bot::Builtin("template") => Box::new(Native::new(template::MyBot)),
            Bot::Builtin("mimic-dealer") => Box::new(Native::new(mimic_dealer::Mimic)),
            Bot::Builtin("never-bust") => Box::new(Native::new(never_bust::NeverBust)),
            Bot::Builtin(other) => bail!("builtin `{other}` has no strategy"),
            Bot::Absent => bail!("this bot's file was not loaded: it does not sit at the table being replayed"),
        })
    }

    /// A short default display name: the file stem, or `builtin:NAME`.
    pub fn default_name(&self) -> String {
        match self {
            Bot::Wasm(m) => {
                Path::new(m.name()).file_stem().map_or(m.name().to_string(), |s| s.to_string_lossy().into())
            }
            Bot::Builtin(b) => format!("builtin:{b}"),
            Bot::Absent => "absent".to_string(),
        }
    }
}

/// The WASI random seed of the player in seat `seat` of a table dealt from
/// `seed` (a session's or a match's) whose seats hold `seats` (indices of
/// the league's bots): each seat of each table of each session gets its own
/// stream, the same on every machine and thread count.
pub fn seat_seed(seed: u64, seats: &[usize], seat: usize) -> u64 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let h = seats.iter().fold(mix(seed), |h, &b| mix(h ^ b as u64));
    mix(h ^ (seat as u64).wrapping_mul(0x100_0000_01b3))
}

/// SHA-256 of some bytes, hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    pitboss_files::hex(&Sha256::digest(bytes))
}
