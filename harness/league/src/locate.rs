//! Finding the bot files a results file names, wherever it has moved: by
//! file name next to the results file, then in the folders the league's
//! own `[[bot]]` entries name (taken relative to the results file's
//! folder, which is right when the results sit beside the league file),
//! then by SHA-256 among the regular files of `--bots DIR`, whatever their
//! names. A file is taken only when its SHA-256 is the one recorded: a
//! name never decides which bytes run.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use pitboss_host::{Sandbox, files, lang};
use rayon::prelude::*;

use crate::bots::sha256_hex;
use crate::bots::{Bot, NamedBots};
use crate::file::LeagueFile;
use crate::roster::wildcard;
use pitboss_results::BotSource;

/// Checks that `recorded` is what the league's `[[bot]]` entries expand
/// to, in league order: builtins by name, single files by name and file
/// name, and each glob or folder as one or more files named by their
/// stems. A results file whose bot list was edited is refused here.
pub fn check_listing(league: &LeagueFile, recorded: &[BotSource]) -> std::result::Result<(), String> {
    let stem = |f: &str| Path::new(f).file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let base = |p: &str| Path::new(p).file_name().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    // reach[j]: the entries so far can expand to exactly recorded[..j].
    let mut reach = vec![false; recorded.len() + 1];
    reach[0] = true;
    for entry in &league.bots {
        let mut next = vec![false; recorded.len() + 1];
        for j in (0..recorded.len()).filter(|&j| reach[j]) {
            let fits = |r: &BotSource, name: &str, file: &str, wasm: bool| {
                r.name == name && r.file == file && r.sha256.is_some() == wasm
            };
            match (&entry.path, &entry.folder, &entry.builtin) {
                (_, _, Some(b)) => {
                    let file = format!("builtin:{b}");
                    let name = entry.name.clone().unwrap_or_else(|| file.clone());
                    next[j + 1] |= fits(&recorded[j], &name, &file, false);
                }
                (Some(p), _, _) if !p.contains('*') => {
                    let file = base(p);
                    let name = entry.name.clone().unwrap_or_else(|| stem(&file));
                    next[j + 1] |= fits(&recorded[j], &name, &file, true);
                }
                (path, _, _) => {
                    // A glob's files match it; a folder's have a bot's ending.
                    let matches = |file: &str| match path {
                        Some(p) => wildcard(&base(p), file),
                        None => lang::is_bot_file(file),
                    };
                    for (k, r) in recorded[j..].iter().enumerate() {
                        if !(matches(&r.file) && fits(r, &stem(&r.file), &r.file, true)) {
                            break;
                        }
                        next[j + k + 1] = true;
                    }
                }
            }
        }
        reach = next;
    }
    if reach[recorded.len()] {
        Ok(())
    } else {
        Err("its list of bots (names, files, builtins) is not what the league's [[bot]] entries make".into())
    }
}

/// Finds, checks and compiles every bot `recorded` names, in order, for
/// the results file at `results` (see the module's doc for where it
/// looks). `league` is the league embedded in it. With `only`, just the
/// bots it lists are looked for; the others are [`Bot::Absent`].
pub fn bots(
    results: &Path,
    recorded: &[BotSource],
    league: &LeagueFile,
    bots_dir: Option<&Path>,
    sandbox: &Sandbox,
    only: Option<&[usize]>,
) -> Result<NamedBots> {
    let folders = folders(results, league);
    let mut by_hash: Option<HashMap<String, PathBuf>> = None;
    /// A recorded bot, found: a builtin, or a file, its bytes and the
    /// runtime of its source, if it is one (by its recorded name: `--bots
    /// DIR` may hold it under another).
    enum Found<'a> {
        Builtin(&'a str),
        File(PathBuf, Vec<u8>, Option<lang::Runtime>),
        NotLooked,
    }
    let mut found: Vec<(String, Found<'_>)> = Vec::with_capacity(recorded.len());
    for (k, source) in recorded.iter().enumerate() {
        if only.is_some_and(|only| !only.contains(&k)) {
            found.push((source.name.clone(), Found::NotLooked));
            continue;
        }
        let Some(expected) = &source.sha256 else {
            let builtin = source.file.strip_prefix("builtin:").unwrap_or(&source.file);
            found.push((source.name.clone(), Found::Builtin(builtin)));
            continue;
        };
        if Path::new(&source.file).file_name().is_none_or(|f| f != source.file.as_str()) {
            bail!("bot `{}`: `{}` is not a plain file name", source.name, source.file);
        }
        let runs = lang::Runtime::of(&source.file);
        if let Some(runs) = runs
            && let Some(recorded) = source.runtime.as_deref()
            && recorded != pitboss_host::runtime_sha256(runs)
        {
            bail!(
                "bot `{}` ({}) was run by the {} runtime {}…, this pitboss has {}…: use the pitboss that ran it",
                source.name,
                source.file,
                runs.title(),
                recorded.chars().take(16).collect::<String>(),
                &pitboss_host::runtime_sha256(runs)[..16]
            );
        }
        let (mut hit, mismatch) = by_name(&folders, &source.file, expected)?;
        if hit.is_none()
            && let Some(dir) = bots_dir
        {
            let index = match &mut by_hash {
                Some(index) => index,
                None => by_hash.insert(index_by_hash(dir)?),
            };
            if let Some(path) = index.get(expected) {
                let bytes = files::read_regular(path, files::Kind::Bot)?;
                // Read again: the file may have changed since it was indexed.
                if sha256_hex(&bytes) == *expected {
                    hit = Some((path.clone(), bytes));
                }
            }
        }
        match (hit, mismatch) {
            (Some((path, bytes)), _) => found.push((source.name.clone(), Found::File(path, bytes, runs))),
            (None, Some((path, actual))) => bail!(
                "bot `{}`: {} is not the file that played (SHA-256 {actual}, recorded {expected}); pass --bots DIR \
                 with the file that played (found by its SHA-256, whatever its name)",
                source.name,
                path.display()
            ),
            (None, None) => bail!(
                "bot `{}`: {} (SHA-256 {}…) is not next to {}{}; pass --bots DIR with the file that played (found by \
                 its SHA-256, whatever its name)",
                source.name,
                source.file,
                expected.chars().take(16).collect::<String>(),
                results.display(),
                bots_dir.map_or(String::new(), |d| format!(" nor in {}", d.display()))
            ),
        }
    }
    // Compile in parallel, take the results in league order.
    found
        .into_par_iter()
        .map(|(name, found)| match found {
            Found::Builtin(builtin) => Ok((name, Bot::builtin(builtin)?)),
            Found::File(path, bytes, runs) => {
                let name_shown = path.display().to_string();
                let module = match runs {
                    Some(runtime) => sandbox.load_source(runtime, &name_shown, &bytes)?,
                    None => sandbox.load(&name_shown, &bytes)?,
                };
                Ok((name, Bot::Wasm(module)))
            }
            Found::NotLooked => Ok((name, Bot::Absent)),
        })
        .collect()
}

/// The first file named `file` in `folders` whose SHA-256 is `expected`
/// (with its bytes), and otherwise the first of that name that differs
/// (with its hash), for the message.
#[expect(clippy::type_complexity)]
fn by_name(
    folders: &[PathBuf],
    file: &str,
    expected: &str,
) -> Result<(Option<(PathBuf, Vec<u8>)>, Option<(PathBuf, String)>)> {
    let mut mismatch = None;
    for dir in folders {
        let path = dir.join(file);
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let bytes = files::read_regular(&path, files::Kind::Bot)?;
        let actual = sha256_hex(&bytes);
        if actual == expected {
            return Ok((Some((path, bytes)), mismatch));
        }
        mismatch.get_or_insert((path, actual));
    }
    Ok((None, mismatch))
}

/// Where to look for a bot file by name: the results file's folder, then
/// the folders of the league's own entries taken relative to it.
fn folders(results: &Path, league: &LeagueFile) -> Vec<PathBuf> {
    let here = results.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut out = vec![here.to_path_buf()];
    for entry in &league.bots {
        let dir = match (&entry.path, &entry.folder) {
            (Some(p), _) => here.join(p).parent().map(Path::to_path_buf),
            (_, Some(f)) => Some(here.join(f)),
            _ => None,
        };
        if let Some(dir) = dir
            && !out.contains(&dir)
        {
            out.push(dir);
        }
    }
    out
}

/// The regular files of `dir` by the SHA-256 of their bytes (files Pitboss
/// would not read as a bot, over its size cap, are left out).
fn index_by_hash(dir: &Path) -> Result<HashMap<String, PathBuf>> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| anyhow::anyhow!("cannot read --bots folder {}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    // The first file by name wins among identical ones, whatever the disk's order.
    paths.sort();
    let mut index = HashMap::new();
    for path in paths {
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        if let Ok(bytes) = files::read_regular(&path, files::Kind::Bot) {
            index.entry(sha256_hex(&bytes)).or_insert(path);
        }
    }
    Ok(index)
}
