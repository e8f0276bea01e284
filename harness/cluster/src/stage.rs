//! Staging a league on shared storage: its league file and every bot file
//! it names copied under `WORKDIR/pitboss-ID/tree/`, each at its own
//! absolute path below `tree/` (so every relative path in the league
//! file resolves there exactly as it does here, `..` included, and the
//! results a shard writes are byte for byte those of a local run), and the
//! `pitboss` binary under `bin/`. `ID` is the SHA-256 of the league's text
//! and its bots' bytes: the same league stages to the same folder.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};

/// A staged league.
#[derive(Clone, Debug)]
pub struct Staged {
    /// `WORKDIR/pitboss-ID`.
    pub dir: PathBuf,
    /// The league file's copy.
    pub league: PathBuf,
    /// The `pitboss` binary's copy.
    pub bin: PathBuf,
    /// Where shard `I` writes `part-I.json`.
    pub out: PathBuf,
    /// Where shard `I`'s Slurm output goes (`shard-I.out`, `shard-I.err`).
    pub logs: PathBuf,
}

impl Staged {
    /// Shard `index`'s file.
    pub fn part(&self, index: u64) -> PathBuf {
        self.out.join(format!("part-{index}.json"))
    }

    /// Shard `index`'s error log.
    pub fn log(&self, index: u64) -> PathBuf {
        self.logs.join(format!("shard-{index}.err"))
    }
}

/// `path` below `tree`, at its absolute place.
fn mirrored(tree: &Path, path: &Path) -> Result<PathBuf> {
    let absolute = path.canonicalize().with_context(|| format!("cannot find {}", path.display()))?;
    Ok(tree.join(absolute.strip_prefix("/").unwrap_or(&absolute)))
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    std::fs::copy(from, to).with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
    Ok(())
}

/// Stages the league at `league` (and the `pitboss` binary at `pitboss`)
/// under `workdir`, which must be storage every node sees. Earlier shard
/// files of the same league are removed, unless `resuming` (following a
/// job submitted before a restart, whose shard files they are).
pub fn stage(league: &Path, workdir: &Path, pitboss: &Path, resuming: bool) -> Result<Staged> {
    let file = pitboss_league::file::parse(league)?;
    let base = league.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let bots = pitboss_league::roster::bot_files(&file, base)?;
    let mut hash = Sha256::new();
    hash.update(file.text.as_bytes());
    for bot in &bots {
        let bytes = std::fs::read(bot).with_context(|| format!("cannot read bot file {}", bot.display()))?;
        hash.update(Sha256::digest(&bytes));
    }
    let id: String = hash.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect();
    if !workdir.is_dir() {
        bail!("--workdir {} is not a folder (it must be storage every node of the cluster sees)", workdir.display());
    }
    let dir = workdir.canonicalize()?.join(format!("pitboss-{id}"));
    let tree = dir.join("tree");
    let staged = Staged {
        league: mirrored(&tree, league)?,
        bin: dir.join("bin").join("pitboss"),
        out: dir.join("out"),
        logs: dir.join("logs"),
        dir,
    };
    copy(league, &staged.league)?;
    for bot in &bots {
        copy(bot, &mirrored(&tree, bot)?)?;
    }
    if !(resuming && staged.bin.is_file()) {
        copy(pitboss, &staged.bin)?;
    }
    if staged.out.exists() && !resuming {
        std::fs::remove_dir_all(&staged.out)?;
    }
    for folder in [&staged.out, &staged.logs] {
        std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    }
    Ok(staged)
}
