//! Staging a league on shared storage: its league file and every bot file
//! it names copied under `WORKDIR/pitboss-RANDOM/tree/`, each at its own
//! absolute path below `tree/` (so every relative path in the league
//! file resolves there exactly as it does here, `..` included, and the
//! results a shard writes are byte for byte those of a local run), and the
//! `pitboss` binary under `bin/`.
//!
//! Shared storage is hostile: another user may own the work folder's
//! neighbours, guess names and plant links. So the staged folder is one
//! this run creates itself, under a name nobody can guess (16 random
//! bytes), private (0700, created with `mkdir`, which fails on anything
//! already there, a link included), checked after creation (a folder,
//! owned by this user, writable by nobody else); every file in it is
//! created new (`O_EXCL | O_NOFOLLOW`), and the batch script checks the
//! SHA-256 of the binary, the league and every bot on the node before it
//! runs them ([`Staged::manifest`]). A folder staged before a restart is
//! taken again only when it still passes those checks ([`reopen`]).

use std::fs::{DirBuilder, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};

/// The most bytes one staged file may have (the binary is the largest).
pub const MAX_FILE: u64 = 1 << 30;

/// A staged league.
#[derive(Clone, Debug)]
pub struct Staged {
    /// `WORKDIR/pitboss-RANDOM`.
    pub dir: PathBuf,
    /// The league file's copy.
    pub league: PathBuf,
    /// The `pitboss` binary's copy.
    pub bin: PathBuf,
    /// Where shard `I` writes `part-I.json`.
    pub out: PathBuf,
    /// Where shard `I`'s Slurm output goes (`shard-I.out`, `shard-I.err`).
    pub logs: PathBuf,
    /// Every staged file (binary, league, bots) with its SHA-256 in hex:
    /// what the batch script checks on the node before running anything.
    pub manifest: Vec<(PathBuf, String)>,
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

/// A private folder: 0700, created new (never an existing one or a link).
fn private_dir(path: &Path) -> Result<()> {
    DirBuilder::new().mode(0o700).create(path).with_context(|| format!("cannot create {}", path.display()))
}

/// `path`'s folders below `root` (which exists), each created private.
fn private_dirs(root: &Path, path: &Path) -> Result<()> {
    let below = path.strip_prefix(root).with_context(|| format!("{} is outside {}", path.display(), root.display()))?;
    let mut at = root.to_path_buf();
    for part in below.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.is_dir() && !m.file_type().is_symlink() => {}
            Ok(_) => bail!("{} is in the way of the staged folder (not a folder of its own)", at.display()),
            Err(_) => private_dir(&at)?,
        }
    }
    Ok(())
}

use pitboss_files::hex;

/// Reads at most [`MAX_FILE`] bytes of `path`.
fn read(path: &Path) -> Result<Vec<u8>> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1).read_to_end(&mut bytes).with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > MAX_FILE {
        bail!("{} is over {} MiB: not staged", path.display(), MAX_FILE >> 20);
    }
    Ok(bytes)
}

/// Copies `from` to the new file `to` (its folders made private first)
/// with `mode`; returns the SHA-256 of what was written.
fn copy(root: &Path, from: &Path, to: &Path, mode: u32) -> Result<String> {
    let bytes = read(from)?;
    if let Some(parent) = to.parent() {
        private_dirs(root, parent)?;
    }
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .custom_flags(libc::O_NOFOLLOW)
        .open(to)
        .with_context(|| format!("cannot create {} (it must not exist yet)", to.display()))?;
    file.write_all(&bytes).and_then(|()| file.sync_all()).with_context(|| format!("cannot write {}", to.display()))?;
    Ok(hex(&Sha256::digest(&bytes)))
}

/// Checks that `dir` is a private folder of this user: a folder (not a
/// link), owned by the effective user, writable by nobody else.
pub fn check_private(dir: &Path) -> Result<()> {
    let meta = std::fs::symlink_metadata(dir).with_context(|| format!("cannot find {}", dir.display()))?;
    if meta.file_type().is_symlink() || !meta.is_dir() {
        bail!("{} is not a folder of its own (a link or a file): refused", dir.display());
    }
    let me = effective_uid();
    if meta.uid() != me {
        bail!("{} belongs to user {}, not to this user ({me}): refused", dir.display(), meta.uid());
    }
    if meta.permissions().mode() & 0o077 != 0 {
        bail!(
            "{} is open to other users (mode {:o}, not 700): refused",
            dir.display(),
            meta.permissions().mode() & 0o777
        );
    }
    Ok(())
}

/// This process's effective user id: the owner of the files it creates.
fn effective_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// 16 random bytes in hex: a staged folder's name nobody can guess.
fn random_name() -> Result<String> {
    let mut bytes = [0u8; 16];
    File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .context("cannot read /dev/urandom for the staged folder's name")?;
    Ok(hex(&bytes))
}

/// The league's file and bots, with their SHA-256s.
fn inputs(league: &Path) -> Result<Vec<PathBuf>> {
    let file = pitboss_league::file::parse(league)?;
    let base = league.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    pitboss_league::roster::bot_files(&file, base)
}

/// Where everything of a league staged in `dir` goes (no manifest yet).
fn layout(dir: &Path, league: &Path) -> Result<Staged> {
    Ok(Staged {
        league: mirrored(&dir.join("tree"), league)?,
        bin: dir.join("bin").join("pitboss"),
        out: dir.join("out"),
        logs: dir.join("logs"),
        dir: dir.to_path_buf(),
        manifest: Vec::new(),
    })
}

/// Each file staged, from where to where: the binary, the league, then
/// each bot file once (a file named twice is staged once).
fn copies(staged: &Staged, league: &Path, pitboss: &Path, bots: &[PathBuf]) -> Result<Vec<(PathBuf, PathBuf)>> {
    let mut pairs = vec![(pitboss.to_path_buf(), staged.bin.clone()), (league.to_path_buf(), staged.league.clone())];
    let tree = staged.dir.join("tree");
    for bot in bots {
        let to = mirrored(&tree, bot)?;
        if !pairs.iter().any(|(_, p)| *p == to) {
            pairs.push((bot.clone(), to));
        }
    }
    Ok(pairs)
}

/// Stages the league at `league` (and the `pitboss` binary at `pitboss`)
/// in a new private folder under `workdir`, which must be storage every
/// node sees.
pub fn stage(league: &Path, workdir: &Path, pitboss: &Path) -> Result<Staged> {
    let bots = inputs(league)?;
    if !workdir.is_dir() {
        bail!("--workdir {} is not a folder (it must be storage every node of the cluster sees)", workdir.display());
    }
    let dir = workdir.canonicalize()?.join(format!("pitboss-{}", random_name()?));
    for path in std::iter::once(league).chain(bots.iter().map(PathBuf::as_path)) {
        if path.canonicalize().is_ok_and(|p| p.to_string_lossy().contains(['\n', '\r', '\\'])) {
            bail!("{} has a line break or a backslash in its path: it cannot be staged", path.display());
        }
    }
    private_dir(&dir)?;
    check_private(&dir)?;
    let mut staged = layout(&dir, league)?;
    for (from, to) in copies(&staged, league, pitboss, &bots)? {
        let mode = if to == staged.bin { 0o700 } else { 0o600 };
        let sha = copy(&staged.dir, &from, &to, mode)?;
        staged.manifest.push((to, sha));
    }
    for folder in [&staged.out, &staged.logs] {
        private_dir(folder)?;
    }
    Ok(staged)
}

/// The folder `dir`, staged before a restart for the same league and
/// binary: taken again only while it is still a private folder of this
/// user and every staged file is byte for byte the league's, its bots'
/// and the binary's; anything else is an error (stage anew).
pub fn reopen(dir: &Path, league: &Path, pitboss: &Path) -> Result<Staged> {
    check_private(dir)?;
    for sub in ["tree", "bin", "out", "logs"] {
        check_private(&dir.join(sub))?;
    }
    let mut staged = layout(dir, league)?;
    for (from, to) in copies(&staged, league, pitboss, &inputs(league)?)? {
        let meta = std::fs::symlink_metadata(&to).with_context(|| format!("cannot find {}", to.display()))?;
        if !meta.is_file() || meta.uid() != effective_uid() {
            bail!("{} is not a file this user staged: refused", to.display());
        }
        let (want, have) = (hex(&Sha256::digest(read(&from)?)), hex(&Sha256::digest(read(&to)?)));
        if want != have {
            bail!("{} differs from {}: refused", to.display(), from.display());
        }
        staged.manifest.push((to, have));
    }
    Ok(staged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        pitboss_testkit::scratch("stage", name)
    }

    fn league(dir: &Path) -> PathBuf {
        std::fs::write(dir.join("bot.wat"), "(module)").unwrap();
        let text = "name = \"L\"\nvariant = \"north-american\"\nrounds = 10\nseed = 1\nbankroll = 1000\n\
                    [[bot]]\nname = \"b\"\npath = \"bot.wat\"\n[[bot]]\nname = \"c\"\npath = \"bot.wat\"\n";
        std::fs::write(dir.join("league.toml"), text).unwrap();
        std::fs::write(dir.join("pitboss"), "#!/bin/sh\n").unwrap();
        dir.join("league.toml")
    }

    #[test]
    fn each_staging_is_a_new_private_folder_with_a_manifest() {
        let dir = scratch("new");
        let league = league(&dir);
        let work = dir.join("work");
        std::fs::create_dir(&work).unwrap();
        std::fs::set_permissions(&work, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let a = stage(&league, &work, &dir.join("pitboss")).unwrap();
        let b = stage(&league, &work, &dir.join("pitboss")).unwrap();
        assert_ne!(a.dir, b.dir, "a name nobody can guess, new each time");
        for staged in [&a, &b] {
            check_private(&staged.dir).unwrap();
            let mode = std::fs::metadata(&staged.bin).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700);
            assert_eq!(staged.manifest.len(), 3, "binary, league, one bot file: {:?}", staged.manifest);
            let sha = hex(&Sha256::digest(b"(module)"));
            assert!(staged.manifest.iter().any(|(p, h)| p.ends_with("bot.wat") && *h == sha));
        }
        // Taken again while untouched; refused once a staged file changed.
        reopen(&a.dir, &league, &dir.join("pitboss")).unwrap();
        std::fs::write(&a.bin, "#!/bin/sh\nevil\n").unwrap();
        let err = reopen(&a.dir, &league, &dir.join("pitboss")).unwrap_err().to_string();
        assert!(err.contains("differs"), "{err}");
    }

    #[test]
    fn a_folder_open_to_others_or_a_link_is_refused() {
        let dir = scratch("open");
        let open = dir.join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        let err = check_private(&open).unwrap_err().to_string();
        assert!(err.contains("open to other users"), "{err}");
        let link = dir.join("link");
        std::os::unix::fs::symlink(&open, &link).unwrap();
        let err = check_private(&link).unwrap_err().to_string();
        assert!(err.contains("not a folder of its own"), "{err}");
    }
}
