//! The languages a bot is written in, declared once (`languages!`): one
//! row each says what `pitboss new --lang` takes, the file a bot of the
//! language is handed to Pitboss as (its ending says how it runs: as
//! WebAssembly, a binary module or text, or as source that a runtime
//! built into Pitboss runs), the endings of its source files, and the
//! `[limits]` it needs beyond the sandbox's defaults.
//!
//! Everything that asks "is this file a bot, and how is it run" reads
//! this table: the scaffold (`pitboss-scaffold`), a league's folders and
//! globs (`pitboss-league`), the host that picks a source bot's runtime
//! (`pitboss-host`). Adding a language is one row here plus its
//! behaviour: the scaffold's templates (its `match`es on [`Lang`] are
//! exhaustive, so the compiler names each one) and, for a language run
//! from source, a [`Runtime`] the host maps to its module (again an
//! exhaustive `match`). `tests` below fails on a file of the harness that
//! spells a bot file's ending itself.

/// A runtime built into Pitboss that runs bots from their source: one
/// WebAssembly module each, embedded in `pitboss-host`, that takes a
/// bot's source through two exports (sdk/ABI.md, "Bots from source").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Runtime {
    /// CPython 3.11 with `pitboss.py` (`harness/host/python/`).
    Python,
    /// QuickJS with `pitboss.js` (`harness/host/javascript/`).
    JavaScript,
}

impl Runtime {
    /// Every runtime, in the order of their languages' rows.
    pub const ALL: [Runtime; 2] = [Runtime::Python, Runtime::JavaScript];

    /// Its position in [`Runtime::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The language it runs.
    pub fn lang(self) -> Lang {
        // Every runtime has its row: `tests::each_runtime_runs_one_language`.
        Lang::ALL.into_iter().find(|l| l.runtime() == Some(self)).unwrap_or(Lang::ALL[0])
    }

    /// How messages name it: "the Python runtime".
    pub fn title(self) -> &'static str {
        self.lang().title()
    }

    /// The ending of the source files it runs (`py`).
    pub fn ending(self) -> &'static str {
        self.lang().bot_ending()
    }

    /// The media type of a source it runs, as an upload says it.
    pub fn media_type(self) -> &'static str {
        match self {
            Runtime::Python => "text/x-python",
            Runtime::JavaScript => "text/javascript",
        }
    }

    /// The runtime that runs the bot file `name` (a path), if it is source.
    pub fn of(name: &str) -> Option<Runtime> {
        let ending = ending(name)?;
        Lang::ALL.into_iter().find(|l| l.bot_ending() == ending).and_then(Lang::runtime)
    }
}

/// One language's row.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The language.
    pub lang: Lang,
    /// The name `--lang` takes.
    pub id: &'static str,
    /// Other names `--lang` takes.
    pub aliases: &'static [&'static str],
    /// Its name in prose.
    pub title: &'static str,
    /// The line `pitboss new --help` shows for it (its doc comment).
    pub help: &'static str,
    /// The ending of the file its bot is handed to Pitboss as: `wasm` for
    /// a compiled module, else what Pitboss reads as it is (`wat`, `py`).
    pub bot: &'static str,
    /// The runtime that runs its bot file, when that is source.
    pub runtime: Option<Runtime>,
    /// The endings of its source files (a scaffold's module older than
    /// one of them is stale).
    pub sources: &'static [&'static str],
    /// The `[limits]` its bot needs beyond the sandbox's defaults, as a
    /// league file writes them (TOML with comments; empty when the
    /// defaults do).
    pub limits: &'static str,
    /// What a compiled module of it needs where its bot file is source
    /// (Python compiled by py2wasm); `None`: [`Row::limits`].
    pub module_limits: Option<&'static str>,
}

/// What a row leaves out: a language compiled to a `.wasm` that the
/// sandbox's defaults admit.
const COMPILED: Row = Row {
    lang: Lang::Rust,
    id: "",
    aliases: &[],
    title: "",
    help: "",
    bot: "wasm",
    runtime: None,
    sources: &[],
    limits: "",
    module_limits: None,
};

/// Declares [`Lang`] (a variant per row, in order), [`Lang::ALL`] and
/// [`ROWS`].
macro_rules! languages {
    ($(
        $(#[doc = $doc:literal])+
        $variant:ident { $($field:ident: $value:expr),* $(,)? }
    )*) => {
        /// A language bots are written in (one row of [`ROWS`] each).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Lang {
            $($(#[doc = $doc])+ $variant,)*
        }

        impl Lang {
            /// Every language, in the order the guide presents them.
            pub const ALL: [Lang; [$(Lang::$variant),*].len()] = [$(Lang::$variant),*];
        }

        /// Every language's row, in [`Lang::ALL`]'s order.
        pub const ROWS: [Row; Lang::ALL.len()] = [
            $(Row { lang: Lang::$variant, help: concat!($($doc),+), $($field: $value,)* ..COMPILED },)*
        ];
    };
}

languages! {
    /// Rust with the Pitboss SDK (`cargo test` natively, `./build.sh` for wasm).
    Rust { id: "rust", title: "Rust", sources: &["rs"] }
    /// C, built with clang and wasm-ld.
    C { id: "c", title: "C", sources: &["c", "h"] }
    /// Zig (`zig`, or `python3 -m ziglang` from PyPI).
    Zig { id: "zig", title: "Zig", sources: &["zig"] }
    /// AssemblyScript, installed into the bot's folder by npm.
    AssemblyScript { id: "assemblyscript", aliases: &["as"], title: "AssemblyScript", sources: &["ts"] }
    /// Hand-written WebAssembly text: no build step.
    Wat { id: "wat", title: "WAT", bot: "wat", sources: &["wat"] }
    /// Python 3.11: `bot.py` as it is, run by the Python runtime built
    /// into Pitboss (no build step).
    Python {
        id: "python",
        title: "Python",
        bot: "py",
        runtime: Some(Runtime::Python),
        sources: &["py"],
        module_limits: Some(include_str!("lang/limits-py2wasm.toml")),
    }
    /// Go 1.24 or later for GOOS=wasip1 (the deterministic WASI subset).
    Go { id: "go", title: "Go", sources: &["go"], limits: include_str!("lang/limits-go.toml") }
    /// JavaScript: `bot.js` as it is, run by the JavaScript runtime
    /// (QuickJS) built into Pitboss (no build step).
    JavaScript {
        id: "javascript",
        aliases: &["js"],
        title: "JavaScript",
        bot: "js",
        runtime: Some(Runtime::JavaScript),
        sources: &["js"],
    }
}

impl Lang {
    /// Its row.
    pub const fn row(self) -> &'static Row {
        &ROWS[self as usize]
    }

    /// The name `--lang` takes.
    pub const fn id(self) -> &'static str {
        self.row().id
    }

    /// The language's name in prose.
    pub const fn title(self) -> &'static str {
        self.row().title
    }

    /// The line `pitboss new --help` shows for it: its doc comment on one
    /// line, without its final full stop (as clap shows a doc comment).
    pub fn help(self) -> String {
        let line = self.row().help.split_whitespace().collect::<Vec<_>>().join(" ");
        line.strip_suffix('.').map_or(line.clone(), str::to_string)
    }

    /// The ending of the file its bot is handed to Pitboss as.
    pub const fn bot_ending(self) -> &'static str {
        self.row().bot
    }

    /// Whether its bot is a module built from its source (a build step).
    pub fn is_compiled(self) -> bool {
        self.bot_ending() == COMPILED.bot
    }

    /// The runtime that runs its bot from source, if it is one.
    pub const fn runtime(self) -> Option<Runtime> {
        self.row().runtime
    }

    /// The `[limits]` its bot needs beyond the sandbox's defaults (empty
    /// when the defaults do).
    pub const fn league_limits(self) -> &'static str {
        self.row().limits
    }

    /// The `[limits]` a compiled module of the language needs, where the
    /// defaults refuse it: the scaffold's bot, and for Python the module
    /// `sdk/python/build.py` makes with py2wasm (the scaffold's `bot.py`
    /// runs from source under the defaults). What a competition's leagues
    /// admit from their defaults.
    pub const fn module_limits(self) -> &'static str {
        match self.row().module_limits {
            Some(limits) => limits,
            None => self.row().limits,
        }
    }

    /// The language `--lang` names `id` (or one of its aliases).
    pub fn from_id(id: &str) -> Option<Lang> {
        ROWS.iter().find(|r| r.id == id || r.aliases.contains(&id)).map(|r| r.lang)
    }
}

/// The endings of the files Pitboss takes as a bot (`wasm`, `wat`, `py`,
/// …), each once, in row order: what a league's `folder` takes.
pub fn bot_endings() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for row in &ROWS {
        if !out.contains(&row.bot) {
            out.push(row.bot);
        }
    }
    out
}

/// Whether the file `name` (a path) has the ending of a bot file.
pub fn is_bot_file(name: &str) -> bool {
    ending(name).is_some_and(|e| ROWS.iter().any(|r| r.bot == e))
}

/// The endings of every language's source files, each once.
pub fn source_endings() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for ending in ROWS.iter().flat_map(|r| r.sources) {
        if !out.contains(ending) {
            out.push(ending);
        }
    }
    out
}

/// The ending of the file `name` (a path), without its dot.
fn ending(name: &str) -> Option<&str> {
    std::path::Path::new(name).extension().and_then(|e| e.to_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    #[test]
    fn rows_are_in_order_and_ids_unique() {
        for (i, row) in ROWS.iter().enumerate() {
            assert_eq!(row.lang, Lang::ALL[i]);
            assert!(!row.id.is_empty() && !row.title.is_empty() && !row.help.trim().is_empty(), "{row:?}");
            assert!(!row.sources.is_empty(), "{}: name its source files' endings", row.id);
            assert_eq!(Lang::from_id(row.id), Some(row.lang));
            for alias in row.aliases {
                assert_eq!(Lang::from_id(alias), Some(row.lang));
            }
            let names = |r: &Row| std::iter::once(r.id).chain(r.aliases.iter().copied()).collect::<Vec<_>>();
            for other in &ROWS[..i] {
                assert!(
                    names(row).iter().all(|n| !names(other).contains(n)),
                    "{} and {} share a name",
                    row.id,
                    other.id
                );
            }
        }
        assert_eq!(Lang::from_id("cobol"), None);
    }

    #[test]
    fn each_runtime_runs_one_language_and_each_ending_runs_one_way() {
        for runtime in Runtime::ALL {
            let langs: Vec<Lang> = Lang::ALL.into_iter().filter(|l| l.runtime() == Some(runtime)).collect();
            assert_eq!(langs.len(), 1, "{runtime:?} runs {langs:?}");
            assert_eq!(Runtime::ALL[runtime.index()], runtime);
            assert_eq!(Runtime::of(&format!("bots/x.{}", runtime.ending())), Some(runtime));
        }
        for row in &ROWS {
            // Languages sharing an ending (every compiled one: `wasm`) run alike.
            for other in ROWS.iter().filter(|o| o.bot == row.bot) {
                assert_eq!(other.runtime, row.runtime, "{} and {} share .{}", row.id, other.id, row.bot);
            }
            // A source bot is its own source file; a compiled one is not.
            assert_eq!(row.runtime.is_some(), row.sources.contains(&row.bot) && row.bot != "wat", "{}", row.id);
            assert!(is_bot_file(&format!("a/b.{}", row.bot)));
        }
        assert_eq!(Runtime::of("bot.wasm"), None);
        assert!(!is_bot_file("notes.txt") && !is_bot_file("wasm"));
    }

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Spots that spell a bot file's ending themselves instead of asking
    /// this table, each with why it may for now.
    const LEFT: [(&str, &str); 0] = [];

    /// Every string literal in the harness's code (tests left out) that
    /// is a bot file's ending (`"py"`), a pattern of one (`"*.py"`) or an
    /// ending with its dot (`".py"`) is a list of languages written by
    /// hand: it fails here, naming the file, unless it is in [`LEFT`].
    #[test]
    fn no_file_of_the_harness_spells_a_bot_ending_itself() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        rust_files(&root.join("harness"), &mut files);
        let this = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lang.rs").canonicalize().unwrap();
        let mut found = Vec::new();
        for file in files {
            if file.canonicalize().unwrap() == this || file.components().any(|c| c.as_os_str() == "tests") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            // Code only: a crate's unit tests sit at the bottom of its file.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            let shown = file.strip_prefix(&root).unwrap_or(&file).display().to_string();
            for ending in bot_endings() {
                for spelt in [format!("\"{ending}\""), format!("\"*.{ending}\""), format!("\".{ending}\"")] {
                    let left = LEFT.iter().any(|(f, s)| *f == shown && *s == spelt);
                    if code.contains(&spelt) && !left {
                        found.push(format!("{shown}: {spelt}"));
                    }
                }
            }
        }
        assert!(found.is_empty(), "ask pitboss_files::lang instead of spelling a bot's ending:\n{}", found.join("\n"));
    }
}
