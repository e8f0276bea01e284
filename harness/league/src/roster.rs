//! A league's bots: its entries expanded (files, folders, globs) into
//! named, loaded bots, with what was left out and why.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pitboss_host::{Sandbox, files, lang};
use rayon::prelude::*;

use crate::bots::{Bot, NamedBots};
use crate::file::*;
use pitboss_results::BotSource;
/// A league's `[[bot]]` entries, expanded.
pub(crate) struct Expanded {
    /// The bots, in league order.
    pub bots: NamedBots,
    /// Where each came from, with the hash of the bytes it was compiled from.
    pub sources: Vec<BotSource>,
    /// Folder and glob entries left out.
    pub skipped: Vec<Skipped>,
}

/// Expands the `[[bot]]` entries (a path, a glob like `subs/*.wasm`, a
/// folder of bot files of any ending the language table lists, or a builtin) into named bots, and records where each came from.
pub(crate) fn expand_bots(league: &LeagueFile, base: &Path, sandbox: &Sandbox) -> Result<Expanded> {
    let (pending, skipped) = pending_bots(league, base)?;
    check_names(&pending)?;
    let mut bots = Vec::new();
    let mut sources = Vec::new();
    for (name, bot, source) in load(&pending, sandbox)? {
        bots.push((name, bot));
        sources.push(source);
    }
    Ok(Expanded { bots, sources, skipped })
}

/// The bot files `league`'s entries name (globs and folders expanded,
/// builtins left out), in league order, relative paths taken from
/// `base`; nothing is read or compiled.
pub fn bot_files(league: &LeagueFile, base: &Path) -> Result<Vec<PathBuf>> {
    let (pending, _) = pending_bots(league, base)?;
    Ok(pending
        .into_iter()
        .filter_map(|p| match p {
            Pending::File(_, path) => Some(path),
            Pending::Builtin(..) => None,
        })
        .collect())
}

/// A bot of the league, in league order, before its file is compiled.
enum Pending {
    Builtin(String, Box<Bot>, BotSource),
    File(String, PathBuf),
}

/// Every bot the entries name, in league order, with the folder and glob
/// entries left out.
fn pending_bots(league: &LeagueFile, base: &Path) -> Result<(Vec<Pending>, Vec<Skipped>)> {
    let mut pending = Vec::new();
    let mut skipped = Vec::new();
    let mut matching = |pattern: &Path| -> Result<Vec<PathBuf>> {
        let (files, left_out) = glob(pattern)?;
        skipped.extend(left_out);
        Ok(files)
    };
    for entry in &league.bots {
        let label =
            entry.name.clone().unwrap_or_else(|| entry.path.clone().or(entry.folder.clone()).unwrap_or_default());
        let files: Vec<PathBuf> = match (&entry.path, &entry.folder, &entry.builtin) {
            (_, _, Some(b)) => {
                let name = entry.name.clone().unwrap_or_else(|| format!("builtin:{b}"));
                let bot = Bot::builtin(b).with_context(|| format!("bot `{label}`"))?;
                let source =
                    BotSource { name: name.clone(), file: format!("builtin:{b}"), sha256: None, runtime: None };
                pending.push(Pending::Builtin(name, Box::new(bot), source));
                continue;
            }
            (Some(p), _, _) if p.contains('*') => matching(&base.join(p)).with_context(|| format!("bot `{label}`"))?,
            (Some(p), _, _) => vec![base.join(p)],
            (_, Some(f), _) => {
                // A folder of submissions: every file with a bot's ending
                // in the language table (modules, WAT text, source).
                let mut files = Vec::new();
                for ending in lang::bot_endings() {
                    let pattern = base.join(f).join(format!("*.{ending}"));
                    files.extend(matching(&pattern).with_context(|| format!("bot `{label}`"))?);
                }
                files.sort();
                files
            }
            _ => bail!("bot `{label}` needs exactly one of `path`, `folder` or `builtin`"),
        };
        if files.is_empty() {
            bail!("bot `{label}`: no bot files match");
        }
        let single = files.len() == 1 && entry.path.as_ref().is_some_and(|p| !p.contains('*'));
        for file in files {
            let name = match (&entry.name, single) {
                (Some(n), true) => n.clone(),
                _ => file.file_stem().map_or(label.clone(), |s| s.to_string_lossy().into_owned()),
            };
            pending.push(Pending::File(name, file));
        }
        if pending.len() > MAX_BOTS {
            bail!("bot `{label}`: the league would have over {MAX_BOTS} bots");
        }
    }
    Ok((pending, skipped))
}

/// Two bots may not share a name: says which files clash, before
/// compiling anything.
fn check_names(pending: &[Pending]) -> Result<()> {
    let named = |p: &Pending| match p {
        Pending::Builtin(name, _, source) => (name.clone(), source.file.clone()),
        Pending::File(name, file) => (name.clone(), file.display().to_string()),
    };
    for (i, p) in pending.iter().enumerate() {
        let (name, source) = named(p);
        if let Some((_, first)) = pending[..i].iter().map(named).find(|(n, _)| *n == name) {
            bail!("two bots are named `{name}`: {first} and {source} (give one a `name`, or rename a file)");
        }
    }
    Ok(())
}

/// Compiles the files in parallel (a league of 30 submissions starts in
/// about half the time on two cores), then takes the results in league
/// order, so the report never depends on which thread finished first.
/// Every bot that cannot play is reported at once, one line each, so an
/// organiser fixes a class's submissions in one pass.
fn load(pending: &[Pending], sandbox: &Sandbox) -> Result<Vec<(String, Bot, BotSource)>> {
    let loaded: Vec<Result<(String, Bot, BotSource)>> = pending
        .par_iter()
        .map(|p| match p {
            Pending::Builtin(name, bot, source) => Ok((name.clone(), (**bot).clone(), source.clone())),
            Pending::File(name, file) => {
                let (bot, sha256) = Bot::wasm_file(file, sandbox).with_context(|| format!("bot `{name}`"))?;
                // The file's name only: a path as typed would make the
                // results depend on where the league was run from.
                let file_name = file.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned());
                let runtime = lang::Runtime::of(&file_name).map(|r| pitboss_host::runtime_sha256(r).to_string());
                let source = BotSource { name: name.clone(), file: file_name, sha256: Some(sha256), runtime };
                Ok((name.clone(), bot, source))
            }
        })
        .collect();
    let failed: Vec<String> = loaded
        .iter()
        .filter_map(|r| r.as_ref().err())
        .map(|e| pitboss_host::text::excerpt(&format!("{e:#}"), 500))
        .collect();
    match failed.len() {
        0 => {}
        1 => bail!("{}", failed[0]),
        n => bail!("{n} of {} bots cannot play:\n  {}", loaded.len(), failed.join("\n  ")),
    }
    Ok(loaded.into_iter().flatten().collect())
}

/// The regular files matching `pattern`, whose last component may hold
/// `*` wildcards, sorted by name so the order never depends on the disk;
/// and the matching entries left out as not regular files (symlinks are
/// followed; nothing is opened, so a FIFO cannot block).
fn glob(pattern: &Path) -> Result<(Vec<PathBuf>, Vec<Skipped>)> {
    let dir = pattern.parent().unwrap_or(Path::new("."));
    let wanted = pattern.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read folder {}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        if !wildcard(&wanted, &name) {
            continue;
        }
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => out.push(path),
            Ok(meta) => skipped.push(Skipped { path, found: files::describe(meta.file_type()).to_string() }),
            Err(e) if path.is_symlink() && e.kind() == std::io::ErrorKind::NotFound => {
                skipped.push(Skipped { path, found: "a dangling symlink".to_string() })
            }
            Err(e) => skipped.push(Skipped { path, found: format!("unreadable ({e})") }),
        }
    }
    out.sort();
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((out, skipped))
}

/// Does `name` match `pattern`, where `*` matches any run of characters?
pub(crate) fn wildcard(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || !name[first.len()..].ends_with(last) || name.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}
