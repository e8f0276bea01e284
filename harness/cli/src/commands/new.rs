//! `pitboss new`: a bot's folder scaffolded in the language asked for.

use std::path::PathBuf;

use anyhow::Result;
use pitboss_scaffold::{Lang, command_name, lang_parser, next_steps, scaffold};

/// Scaffold a new bot: its source, a build script, a README and a practice league.
#[derive(clap::Args)]
pub struct Args {
    /// The bot's name, e.g. mybot (its folder, and its wasm file's stem).
    name: String,
    /// Where to create its folder.
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// The language to write it in.
    #[arg(long, value_parser = lang_parser(), default_value = Lang::Rust.id())]
    lang: Lang,
}

/// Writes the folder and prints the next steps.
pub fn run(args: Args) -> Result<()> {
    let Args { name, dir, lang } = args;
    let created = scaffold(&name, &dir, lang)?;
    out!("created {}, a bot in {}; next:", created.display(), lang.title());
    for step in next_steps(&created, &name, lang, &command_name()) {
        out!("  {step}");
    }
    Ok(())
}
