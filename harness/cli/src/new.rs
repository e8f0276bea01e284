//! `pitboss new NAME`: scaffolds a bot crate outside this repository,
//! depending on this checkout's SDK, built for wasm32 by default.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The template bot every new crate starts from.
const TEMPLATE: &str = include_str!("../../../bots/template/src/lib.rs");

/// This checkout's SDK, as the scaffolded crate's path dependency.
fn sdk_path() -> Result<PathBuf> {
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sdk");
    sdk.canonicalize().with_context(|| format!("the SDK is not at {} any more", sdk.display()))
}

/// Creates the crate `name` inside `parent`; returns its folder.
pub fn scaffold(name: &str, parent: &Path) -> Result<PathBuf> {
    let valid = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && name.starts_with(|c: char| c.is_ascii_lowercase());
    if !valid {
        bail!("`{name}` is no good crate name: use lower-case letters, digits, - and _, starting with a letter");
    }
    let dir = parent.join(name);
    if dir.exists() {
        bail!("{} already exists", dir.display());
    }
    let sdk = sdk_path()?;
    let lib = name.replace('-', "_");
    // `create_dir`, not `_all`: the crate's folder must be new, and so is
    // every file in it (created exclusively, never through a symlink).
    std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    std::fs::create_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for sub in ["src", ".cargo"] {
        std::fs::create_dir(dir.join(sub)).with_context(|| format!("cannot create {}", dir.join(sub).display()))?;
    }
    let manifest = format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2024"

[lib]
name = "{lib}"
crate-type = ["cdylib", "rlib"]

[dependencies]
pitboss-sdk = {{ path = "{sdk}" }}

[profile.release]
opt-level = "s"

# Not part of any enclosing workspace.
[workspace]
"#,
        sdk = sdk.display()
    );
    create_new(&dir.join("Cargo.toml"), &manifest)?;
    create_new(
        &dir.join(".cargo/config.toml"),
        "# Bots are WebAssembly: build for wasm32 unless told otherwise.\n[build]\ntarget = \"wasm32-unknown-unknown\"\n",
    )?;
    let source =
        TEMPLATE.replacen("`template`: the smallest complete Pitboss bot", &format!("`{name}`: a Pitboss bot"), 1);
    create_new(&dir.join("src/lib.rs"), &source)?;
    create_new(&dir.join(".gitignore"), "/target\n")?;
    Ok(dir)
}

/// Writes a file that must not exist yet, checking every step.
fn create_new(path: &Path, text: &str) -> Result<()> {
    let write = || -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(path)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()
    };
    write().with_context(|| format!("cannot write {}", path.display()))
}

/// Where `cargo build --release` puts the bot of the crate at `dir`.
pub fn wasm_of(dir: &Path, name: &str) -> PathBuf {
    dir.join("target/wasm32-unknown-unknown/release").join(format!("{}.wasm", name.replace('-', "_")))
}
