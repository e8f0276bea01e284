//! `pitboss new NAME [--lang LANG]`: scaffolds a bot in Rust, C, Zig,
//! AssemblyScript, WAT, Python or Go, each with a build script, a five-line
//! README and a practice league (a library of its own: bot authoring, not
//! competitions).
//!
//! Everything it writes is compiled into the binary: the template bots
//! (`templates/`), the ABI, and for Rust and Python the SDK's own source, written beside the bot as a
//! path dependency (`pitboss-sdk/`). So an installed `pitboss`, or a copy
//! handed to a student, scaffolds bots that build offline and never point
//! into the checkout it was built from.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// A language `pitboss new` scaffolds: a row of the language table, whose
/// scaffold's files this crate writes.
pub use pitboss_files::lang::Lang;

/// `--lang`'s parser: every language's id (and aliases) from the language
/// table, each with its help line.
pub fn lang_parser() -> impl clap::builder::TypedValueParser<Value = Lang> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = Lang::ALL.map(|lang| PossibleValue::new(lang.id()).aliases(lang.row().aliases).help(lang.help()));
    // The parser passes only the names it lists, each a language's.
    PossibleValuesParser::new(values).map(|id| Lang::from_id(&id).unwrap_or(Lang::ALL[0]))
}

/// The template every Rust bot starts from.
const RUST_TEMPLATE: &str = include_str!("../../../bots/template/src/lib.rs");

/// The same bot in the other languages: the guide's tested examples.
const C_BOT: &str = include_str!("../../../sdk/examples/c/bot.c");
const ZIG_BOT: &str = include_str!("../../../sdk/examples/zig/bot.zig");
const AS_BOT: &str = include_str!("../../../sdk/examples/assemblyscript/bot.ts");
const WAT_BOT: &str = include_str!("../../../sdk/examples/wat/bot.wat");

/// The AssemblyScript compiler every scaffold pins, so a bot builds the
/// same next year.
pub const ASSEMBLYSCRIPT_VERSION: &str = "0.28.20";

/// The byte-level contract, written into every scaffold.
const ABI: &str = include_str!("../../../sdk/ABI.md");

/// The Python SDK, written beside a Python bot so its tests run natively
/// (`python3 test_bot.py`); the runtime that plays it has its own copy.
const PYTHON_SDK: &str = include_str!("../../../sdk/python/pitboss.py");

/// The JavaScript SDK, likewise for a JavaScript bot (`node test_bot.js`).
const JAVASCRIPT_SDK: &str = include_str!("../../../sdk/javascript/pitboss.js");

/// The SDK's manifest, whose `[features]` the written SDK keeps.
const SDK_MANIFEST: &str = include_str!("../../../sdk/Cargo.toml");

/// The SDK's source files, written into a Rust bot as `pitboss-sdk/src/`.
/// A unit test checks this lists every file in `sdk/src`.
const SDK_SOURCES: [(&str, &str); 8] = [
    ("lib.rs", include_str!("../../../sdk/src/lib.rs")),
    ("abi.rs", include_str!("../../../sdk/src/abi.rs")),
    ("card.rs", include_str!("../../../sdk/src/card.rs")),
    ("heap.rs", include_str!("../../../sdk/src/heap.rs")),
    ("key.rs", include_str!("../../../sdk/src/key.rs")),
    ("rules_block.rs", include_str!("../../../sdk/src/rules_block.rs")),
    ("strategy.rs", include_str!("../../../sdk/src/strategy.rs")),
    ("view.rs", include_str!("../../../sdk/src/view.rs")),
];

/// One file of a scaffold: its path in the bot's folder, its text, and
/// whether it is a script to run.
struct File {
    path: String,
    text: String,
    executable: bool,
}

impl File {
    fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        File { path: path.into(), text: text.into(), executable: false }
    }

    fn script(path: &str, text: String) -> Self {
        File { path: path.into(), text, executable: true }
    }
}

/// Creates the bot `name` in language `lang` inside `parent`; returns its
/// folder.
pub fn scaffold(name: &str, parent: &Path, lang: Lang) -> Result<PathBuf> {
    let valid = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && name.starts_with(|c: char| c.is_ascii_lowercase());
    if !valid {
        bail!("`{name}` is no good bot name: use lower-case letters, digits, - and _, starting with a letter");
    }
    let dir = parent.join(name);
    if dir.exists() {
        bail!("{} already exists", dir.display());
    }
    // `create_dir`, not `_all`, for the bot's folder: it must be new, and
    // so is every file in it (created exclusively, never through a symlink).
    std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    std::fs::create_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for file in files(name, lang) {
        let path = dir.join(&file.path);
        if let Some(sub) = Path::new(&file.path).parent().filter(|p| !p.as_os_str().is_empty()) {
            let sub = dir.join(sub);
            if !sub.exists() {
                std::fs::create_dir_all(&sub).with_context(|| format!("cannot create {}", sub.display()))?;
            }
        }
        create_new(&path, &file.text, file.executable)?;
    }
    Ok(dir)
}

/// What the bot's build script makes, or for WAT the source itself: the
/// file to check and put in a league, relative to the bot's folder.
pub fn bot_file(name: &str, lang: Lang) -> String {
    if lang.is_compiled() { format!("{name}.{}", lang.bot_ending()) } else { source_file(name, lang) }
}

/// The file holding the strategy, relative to the bot's folder.
fn source_file(name: &str, lang: Lang) -> String {
    match lang {
        Lang::Rust => "src/lib.rs".into(),
        Lang::C => format!("{name}.c"),
        Lang::Zig => format!("{name}.zig"),
        Lang::AssemblyScript => format!("{name}.ts"),
        Lang::Wat => format!("{name}.wat"),
        Lang::Python => "bot.py".into(),
        Lang::Go => format!("{name}.go"),
        Lang::JavaScript => "bot.js".into(),
    }
}

/// The commands that take a new bot at `dir` to a league, one per line
/// with a comment, `pitboss` standing for how to call this program.
pub fn next_steps(dir: &Path, name: &str, lang: Lang, pitboss: &str) -> Vec<String> {
    let file = bot_file(name, lang);
    let mut steps = vec![(format!("cd {}", dir.display()), String::new())];
    let build = match lang {
        Lang::Rust => {
            steps.push(("cargo test".into(), "the strategy's unit tests, natively".into()));
            Some(format!("builds {file} (cargo, wasm32-unknown-unknown)"))
        }
        Lang::C => Some(format!("builds {file} (clang, wasm-ld)")),
        Lang::Zig => Some(format!("builds {file} (zig)")),
        Lang::AssemblyScript => Some(format!("builds {file} (npm installs AssemblyScript the first time)")),
        Lang::Wat => None,
        Lang::Python => {
            steps.push(("python3 test_bot.py".into(), "its unit tests, natively (any Python 3)".into()));
            None
        }
        Lang::Go => Some(format!("builds {file} (go, GOOS=wasip1)")),
        Lang::JavaScript => {
            steps.push(("node test_bot.js".into(), "its unit tests, natively (any Node.js)".into()));
            None
        }
    };
    if let Some(comment) = build {
        steps.push(("./build.sh".into(), comment));
    }
    // A bot over the default caps (Go's runtime): its league raises them,
    // for every command that loads it.
    let limits = if lang.league_limits().is_empty() { "" } else { " --league league.toml" };
    steps.push((format!("{pitboss} check {file}{limits}"), "validates it and shows its fuel".into()));
    let play = format!("{pitboss} play --bot {file}{limits} --rounds 20 --transcript");
    steps.push((play, "every card, decision and log line".into()));
    steps.push((format!("{pitboss} run league.toml"), "plays it against two built-in bots".into()));
    let width = steps.iter().map(|(command, _)| command.len()).max().unwrap_or(0);
    steps
        .into_iter()
        .map(|(command, comment)| if comment.is_empty() { command } else { format!("{command:width$}  # {comment}") })
        .collect()
}

/// How to call this program in the next steps: `pitboss` when that name
/// on `PATH` is this very binary, else its full path.
pub fn command_name() -> String {
    let Ok(exe) = std::env::current_exe().and_then(|p| p.canonicalize()) else { return "pitboss".into() };
    let on_path = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|p| p.join("pitboss").canonicalize().is_ok_and(|found| found == exe))
    });
    if on_path { "pitboss".into() } else { exe.display().to_string() }
}

/// Every file of a new bot.
fn files(name: &str, lang: Lang) -> Vec<File> {
    let mut files = vec![
        File::new("README.md", readme(name, lang)),
        File::new("league.toml", league(name, lang)),
        File::new("ABI.md", ABI),
    ];
    let built = bot_file(name, lang);
    if let Some(commands) = build_commands(name, lang) {
        files.push(File::script("build.sh", script(&built, &commands)));
    }
    let ignored = match lang {
        Lang::Rust => format!("/target\n/{built}\n"),
        Lang::Zig => format!("/{built}\n/{built}.o\n/.zig-cache/\n"),
        Lang::AssemblyScript => format!("/{built}\n/node_modules/\n"),
        Lang::C | Lang::Go => format!("/{built}\n"),
        Lang::Wat => String::new(), // the source is the bot
        Lang::Python => "__pycache__/\n".into(),
        Lang::JavaScript => String::new(), // the source is the bot
    };
    if !ignored.is_empty() {
        files.push(File::new(".gitignore", ignored));
    }
    let example = match lang {
        Lang::Rust => {
            files.extend(rust_files(name));
            return files;
        }
        Lang::C => C_BOT,
        Lang::Zig => ZIG_BOT,
        Lang::AssemblyScript => {
            files.push(File::new("package.json", package_json(name)));
            AS_BOT
        }
        Lang::Wat => WAT_BOT,
        Lang::Python => {
            files.extend(python_files(name));
            return files;
        }
        Lang::JavaScript => {
            files.extend(javascript_files(name));
            return files;
        }
        Lang::Go => {
            files.push(File::new("go.mod", fill(include_str!("../templates/go.mod.in"), &[("name", name)])));
            files.push(File::new(
                source_file(name, lang),
                fill(include_str!("../templates/bot.go.in"), &[("name", name)]),
            ));
            return files;
        }
    };
    // The examples call themselves `bot.*` and their contract `sdk/ABI.md`.
    let mut text = example.replace("sdk/ABI.md", "ABI.md");
    for ext in lang.row().sources.iter().copied().chain(pitboss_files::lang::bot_endings()) {
        text = text.replace(&format!("bot.{ext}"), &format!("{name}.{ext}"));
    }
    files.push(File::new(source_file(name, lang), text));
    files
}

/// What `build.sh` runs to make the bot's wasm file; `None` for WAT,
/// which Pitboss reads as it is.
fn build_commands(name: &str, lang: Lang) -> Option<String> {
    let template = match lang {
        Lang::Rust => include_str!("../templates/build-rust.sh.in"),
        Lang::C => include_str!("../templates/build-c.sh.in"),
        Lang::Zig => include_str!("../templates/build-zig.sh.in"),
        Lang::AssemblyScript => include_str!("../templates/build-assemblyscript.sh.in"),
        Lang::Go => include_str!("../templates/build-go.sh.in"),
        Lang::Wat | Lang::Python | Lang::JavaScript => return None,
    };
    let built = bot_file(name, lang);
    Some(fill(template, &[("name", name), ("lib", &name.replace('-', "_")), ("built", &built)]))
}

/// A Rust bot's own files: its manifest, the template as `src/lib.rs`, and
/// the SDK beside it.
fn rust_files(name: &str) -> Vec<File> {
    let lib = name.replace('-', "_");
    let manifest = fill(include_str!("../templates/Cargo.toml.in"), &[("name", name), ("lib", &lib)]);
    // The template's first lines say what the template is; a new bot says
    // what it is instead.
    let body = RUST_TEMPLATE.split_once("\n//!\n").map_or(RUST_TEMPLATE, |(_, rest)| rest);
    let source = format!("//! `{name}`: a Pitboss bot, made by `pitboss new` from the template.\n//!\n{body}")
        .replace("`sdk/ABI.md`", "`ABI.md`");
    let mut files = vec![
        File::new("Cargo.toml", manifest),
        File::new("src/lib.rs", source),
        File::new("pitboss-sdk/Cargo.toml", sdk_manifest()),
    ];
    files.extend(SDK_SOURCES.iter().map(|(file, text)| File::new(format!("pitboss-sdk/src/{file}"), *text)));
    files
}

/// The scaffold's `bot.py` for a bot called `name` (also what the
/// competition server's editor starts from).
pub fn python_bot(name: &str) -> String {
    fill(include_str!("../templates/bot.py.in"), &[("name", name)])
}

/// A Python bot's own files: the template, its unit tests, and the SDK
/// beside them for the tests.
fn python_files(name: &str) -> Vec<File> {
    vec![
        File::new(source_file(name, Lang::Python), python_bot(name)),
        File::new("test_bot.py", fill(include_str!("../templates/test_bot.py.in"), &[("name", name)])),
        File::new("pitboss.py", PYTHON_SDK),
    ]
}

/// A JavaScript bot's own files: the template, its unit tests, and the
/// SDK beside them for the tests.
fn javascript_files(name: &str) -> Vec<File> {
    vec![
        File::new(source_file(name, Lang::JavaScript), fill(include_str!("../templates/bot.js.in"), &[("name", name)])),
        File::new("test_bot.js", fill(include_str!("../templates/test_bot.js.in"), &[("name", name)])),
        File::new("pitboss.js", JAVASCRIPT_SDK),
    ]
}

/// The written SDK's manifest: this Pitboss's version, the SDK's features.
fn sdk_manifest() -> String {
    let features = SDK_MANIFEST.split_once("\n[features]\n").map_or("", |(_, rest)| {
        rest.find("\n[").map_or(rest, |end| &rest[..end + 1]) // up to the next section
    });
    let template = include_str!("../templates/sdk-Cargo.toml.in");
    // The features end with their own newline.
    let template = template.strip_suffix('\n').unwrap_or(template);
    fill(template, &[("version", env!("CARGO_PKG_VERSION")), ("features", features)])
}

/// A build script: stops at the first failure, runs from the bot's folder,
/// and ends by naming what it built.
fn script(built: &str, body: &str) -> String {
    fill(include_str!("../templates/build.sh.in"), &[("built", built), ("body", body)])
}

/// The bot's five-line README.
fn readme(name: &str, lang: Lang) -> String {
    let file = bot_file(name, lang);
    let source = source_file(name, lang);
    let build = match lang {
        Lang::Rust => format!("`cargo test` runs its tests natively and `./build.sh` builds `{file}`."),
        Lang::C => format!("`./build.sh` builds `{file}` with clang and wasm-ld (Debian: `apt install clang lld`)."),
        Lang::Zig => {
            format!("`./build.sh` builds `{file}` with `zig`, or `python3 -m ziglang` (`pip install ziglang`).")
        }
        Lang::AssemblyScript => {
            format!(
                "`./build.sh` builds `{file}`; its first run installs AssemblyScript {ASSEMBLYSCRIPT_VERSION} with npm."
            )
        }
        Lang::Wat => "there is no build step: Pitboss reads WebAssembly text as it is.".to_string(),
        Lang::Python => {
            "there is no build step: Pitboss runs it as it is; `python3 test_bot.py` runs its tests.".to_string()
        }
        Lang::Go => format!("`./build.sh` builds `{file}` with Go 1.24 or later (GOOS=wasip1)."),
        Lang::JavaScript => {
            "there is no build step: Pitboss runs it as it is; `node test_bot.js` runs its tests.".to_string()
        }
    };
    let contract = match lang {
        Lang::Rust => "`pitboss-sdk/` is the SDK, written by `pitboss new` (it builds offline); `ABI.md` the contract.",
        Lang::Python => {
            "`pitboss.py` is the SDK (override a `Bot`'s methods), here for the tests; `ABI.md` the contract."
        }
        Lang::JavaScript => {
            "`pitboss.js` is the SDK (extend `pitboss.Bot`), here for the tests; `ABI.md` the contract."
        }
        Lang::C | Lang::Zig | Lang::AssemblyScript | Lang::Wat | Lang::Go => {
            "`ABI.md` is the contract the bot implements, byte by byte."
        }
    };
    // A bot over the default caps (Go's runtime): its league raises them.
    let limits = if lang.league_limits().is_empty() { "" } else { " --league league.toml" };
    format!(
        "# {name}: a Pitboss bot in {}\n\n\
         The strategy is `{source}`; {build}\n\
         {contract}\n\
         `pitboss check {file}{limits}` validates it; `pitboss run league.toml` plays it against two built-in bots.\n",
        lang.title()
    )
}

/// A practice league: the new bot and two of Pitboss's own, built in, each
/// alone against the dealer on the same cards.
fn league(name: &str, lang: Lang) -> String {
    let limits = lang.league_limits();
    fill(include_str!("../templates/league.toml.in"), &[("name", name), ("file", &bot_file(name, lang))]) + limits
}

/// The AssemblyScript bot's npm manifest: the compiler, pinned.
fn package_json(name: &str) -> String {
    fill(include_str!("../templates/package.json.in"), &[("name", name), ("version", ASSEMBLYSCRIPT_VERSION)])
}

/// A template with each `{key}` replaced by its value (other braces, as in
/// `${CARGO_TARGET_DIR:-target}` or TOML's inline tables, stay).
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(template.to_string(), |text, (key, value)| text.replace(&format!("{{{key}}}"), value))
}

/// Writes a file that must not exist yet, checking every step.
fn create_new(path: &Path, text: &str, executable: bool) -> Result<()> {
    let write = || -> std::io::Result<()> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(if executable { 0o755 } else { 0o644 });
        }
        #[cfg(not(unix))]
        let _ = executable;
        let mut file = options.open(path)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()
    };
    write().with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_what_lang_takes() {
        let command = clap::Command::new("new").arg(clap::Arg::new("lang").long("lang").value_parser(lang_parser()));
        for lang in Lang::ALL {
            for id in std::iter::once(lang.id()).chain(lang.row().aliases.iter().copied()) {
                let matches = command.clone().try_get_matches_from(["new", "--lang", id]).unwrap();
                assert_eq!(matches.get_one::<Lang>("lang"), Some(&lang), "{id}");
            }
        }
        assert!(command.try_get_matches_from(["new", "--lang", "cobol"]).is_err());
    }

    /// Each row's scaffold hands Pitboss a file with the row's bot ending,
    /// written from a source with one of its source endings; a build
    /// script exactly where the bot is compiled; and a league whose
    /// `[limits]` are the row's.
    #[test]
    fn every_scaffold_is_what_its_row_says() {
        for lang in Lang::ALL {
            let bot = bot_file("lucky7", lang);
            assert!(bot.ends_with(&format!(".{}", lang.bot_ending())), "{lang:?}: {bot}");
            let source = source_file("lucky7", lang);
            let ending = Path::new(&source).extension().unwrap().to_str().unwrap();
            assert!(lang.row().sources.contains(&ending), "{lang:?}: {source}");
            let files = files("lucky7", lang);
            assert!(files.iter().any(|f| f.path == source), "{lang:?}: no {source}");
            assert_eq!(files.iter().any(|f| f.path == "build.sh"), lang.is_compiled(), "{lang:?}");
            assert!(files.iter().any(|f| f.path == bot) != lang.is_compiled(), "{lang:?}: {bot}");
            assert!(league("lucky7", lang).ends_with(lang.league_limits()), "{lang:?}");
        }
    }

    #[test]
    fn setup_caches_the_assemblyscript_the_scaffolds_pin() {
        let setup = include_str!("../../../scripts/setup");
        assert!(setup.contains(&format!("assemblyscript@{ASSEMBLYSCRIPT_VERSION}")));
    }

    #[test]
    fn every_sdk_source_file_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sdk/src");
        let mut on_disk: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        on_disk.sort();
        let mut embedded: Vec<String> = SDK_SOURCES.iter().map(|(f, _)| f.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk, "list every sdk/src file in SDK_SOURCES");
    }

    #[test]
    fn the_written_sdk_keeps_the_features_and_nothing_points_elsewhere() {
        let manifest = sdk_manifest();
        assert!(manifest.contains("\n[features]\n") && manifest.contains("\nalloc = []\n"), "{manifest}");
        assert!(!manifest.contains("workspace"), "{manifest}");
        for lang in Lang::ALL {
            for file in files("my-bot", lang) {
                assert!(!file.text.contains(env!("CARGO_MANIFEST_DIR")), "{} points into the checkout", file.path);
                assert!(!file.text.contains("path = \"/"), "{} has an absolute path", file.path);
            }
        }
    }

    #[test]
    fn every_language_gets_a_readme_a_league_and_a_way_to_build() {
        for lang in Lang::ALL {
            let files = files("lucky7", lang);
            let has = |path: &str| files.iter().any(|f| f.path == path);
            assert!(has("README.md") && has("league.toml") && has("ABI.md"), "{lang:?}");
            assert_eq!(has("build.sh"), lang.is_compiled(), "{lang:?}");
            let readme = &files.iter().find(|f| f.path == "README.md").unwrap().text;
            assert_eq!(readme.lines().count(), 5, "{readme}");
            // The examples' own names and paths were rewritten (the SDKs
            // and the ABI are written as they are).
            let written = |f: &&File| {
                f.path.starts_with("pitboss-sdk/") || ["ABI.md", "pitboss.py", "pitboss.js"].contains(&&*f.path)
            };
            for file in files.iter().filter(|f| !written(f)) {
                for stale in ["bot.wasm", "bot.c", "bot.zig", "bot.ts", "bot.wat", "sdk/ABI", "sdk/examples"] {
                    assert!(!file.text.contains(stale), "{}: {stale} in {}", file.path, file.text);
                }
            }
        }
        let lib = files("my-bot", Lang::Rust).into_iter().find(|f| f.path == "src/lib.rs").unwrap().text;
        assert!(lib.starts_with("//! `my-bot`: a Pitboss bot") && lib.contains("impl Strategy for"), "{lib}");
    }
}
