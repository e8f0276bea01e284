//! Sharded leagues: `pitboss run --shard I/N` plays the sessions with
//! `s % N == I` and writes everything needed to merge them exactly;
//! `pitboss merge` checks the shards belong together and assembles the
//! very results file a single run writes. Integers that may pass 2^53
//! travel as decimal strings, so no JSON reader can round them. A shard
//! file embeds the league like a results file (and shares its record
//! types), so merging needs no league file either.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pitboss_host::files;
use pitboss_results::{LeagueResult, ResultsFile, SCHEMA_VERSION, SessionResult};

use crate::league::{self};
pub use pitboss_results::shard::ShardFile;

/// Parses "I/N" (0 ≤ I < N).
pub fn parse_shard(text: &str) -> Result<(u64, u64)> {
    let parsed = text.split_once('/').and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((i, n)) if n > 0 && i < n => Ok((i, n)),
        _ => bail!("--shard `{text}` is not I/N with 0 <= I < N (e.g. 0/4)"),
    }
}

/// Runs one shard of the league at `path`.
pub fn run_shard(path: &Path, shard: (u64, u64), threads: Option<usize>) -> Result<ShardFile> {
    let league = crate::file::parse(path)?;
    let sandbox = crate::sandbox()?;
    let played = league::run_sessions(&league, path, &sandbox, threads, &|_| (), Some(shard))?;
    Ok(ShardFile {
        schema_version: SCHEMA_VERSION,
        shard: format!("{}/{}", shard.0, shard.1),
        league: league.record()?,
        bots: played.sources,
        sessions: played.sessions,
        skipped: played.skipped,
    })
}

/// Merges shard files into the results of a single run. The league is the
/// one the shards embed: no league file is read.
pub fn merge(files: &[PathBuf]) -> Result<(LeagueResult, ResultsFile)> {
    let mut shards = Vec::new();
    for f in files {
        let text = files::read_text(f, files::Kind::Shard)?;
        let shard: ShardFile =
            serde_json::from_str(&text).with_context(|| format!("{} is not a Pitboss shard file", f.display()))?;
        if shard.schema_version != SCHEMA_VERSION {
            bail!(
                "{} is a shard of results schema {}; this Pitboss merges schema {SCHEMA_VERSION}: re-run the shard",
                f.display(),
                shard.schema_version
            );
        }
        shards.push((f, shard));
    }
    let Some((first_path, first)) = shards.first() else { bail!("no shard files given") };
    for (f, s) in &shards[1..] {
        if s.league != first.league || s.bots != first.bots {
            bail!("{} and {} come from different leagues or bot files", first_path.display(), f.display());
        }
    }
    let embedded = &first.league;
    let league = crate::file::embedded(embedded, &first_path.display().to_string())?;
    let mut sessions: Vec<SessionResult> = shards.iter().flat_map(|(_, s)| s.sessions.iter().cloned()).collect();
    for s in &sessions {
        s.check(&embedded.parsed, first.bots.len())
            .map_err(|why| anyhow::anyhow!("session {} of the shards does not add up: {why}", s.session))?;
    }
    sessions.sort_by_key(|s| s.session);
    let expected: Vec<u64> = (0..league.sessions).collect();
    let got: Vec<u64> = sessions.iter().map(|s| s.session).collect();
    if got != expected {
        bail!(
            "the shards hold sessions {got:?}, but the league has sessions 0..{}: some are missing or doubled",
            league.sessions
        );
    }
    // A resolved league's shards play up to the cap; the merge keeps the
    // sessions a single run plays, up to the look that resolves it.
    let stop = league::stop_point(&league, &first.bots, &sessions)?;
    sessions.truncate(stop);
    league::assemble(&league, first.bots.clone(), &sessions)
}
