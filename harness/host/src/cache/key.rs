//! The key that signs cache files, and the checks that it and the cache
//! folders are private to this user: owned by them, writable by no one
//! else, the key readable by no one else, a plain file of [`KEY_LEN`]
//! bytes, outside the cache folder. A missing key is created.

use std::fs::{DirBuilder, OpenOptions, Permissions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use super::config::{KEY_LEN, Unusable};

/// Creates `path` (mode 0700, with any missing parents) unless it exists,
/// and checks that it is a folder only this user can write.
pub(super) fn private_folder(path: &Path, euid: u32) -> Result<(), Unusable> {
    let io = |e: std::io::Error| Unusable::Io { path: path.to_path_buf(), kind: e.kind() };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => {
            DirBuilder::new().recursive(true).mode(0o700).create(path).map_err(io)?
        }
        _ => {}
    }
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_dir() {
        return Err(Unusable::NotAFolder { path: path.to_path_buf() });
    }
    folder_fit(path, meta.uid(), meta.mode(), euid)
}

/// Whether a folder with this owner and mode is fit for user `euid`: its
/// own, and writable by no one else.
fn folder_fit(path: &Path, owner: u32, mode: u32, euid: u32) -> Result<(), Unusable> {
    if owner != euid {
        return Err(Unusable::OwnedByOther { path: path.to_path_buf(), owner, euid });
    }
    if mode & 0o022 != 0 {
        return Err(Unusable::WritableByOthers { path: path.to_path_buf(), mode });
    }
    Ok(())
}

/// Whether a key file with this owner and mode is fit for user `euid`:
/// its own, and neither readable nor writable by anyone else.
fn key_fit(path: &Path, owner: u32, mode: u32, euid: u32) -> Result<(), Unusable> {
    if owner != euid {
        return Err(Unusable::OwnedByOther { path: path.to_path_buf(), owner, euid });
    }
    if mode & 0o077 != 0 {
        return Err(Unusable::KeyExposed { path: path.to_path_buf(), mode });
    }
    Ok(())
}

/// The key in `path`, created first if missing; refused when unfit (see
/// the module docs) or inside `cache_dir`.
pub(super) fn load_key(path: &Path, cache_dir: &Path, euid: u32) -> Result<[u8; KEY_LEN], Unusable> {
    let io = |e: std::io::Error| Unusable::Io { path: path.to_path_buf(), kind: e.kind() };
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    private_folder(folder, euid)?;
    let (folder_real, cache_real) = (folder.canonicalize().map_err(io)?, cache_dir.canonicalize().map_err(io)?);
    if folder_real.starts_with(&cache_real) {
        return Err(Unusable::KeyInside { path: path.to_path_buf() });
    }
    if std::fs::symlink_metadata(path).is_err_and(|e| e.kind() == ErrorKind::NotFound) {
        create_key(path, folder)?;
    }
    let file = OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path).map_err(
        |e| match e.raw_os_error() {
            Some(libc::ELOOP) => Unusable::KeyNotAFile { path: path.to_path_buf() },
            _ => io(e),
        },
    )?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(Unusable::KeyNotAFile { path: path.to_path_buf() });
    }
    key_fit(path, meta.uid(), meta.mode(), euid)?;
    if meta.len() != KEY_LEN as u64 {
        return Err(Unusable::KeyLength { path: path.to_path_buf(), len: meta.len() });
    }
    let mut key = [0; KEY_LEN];
    (&file).read_exact(&mut key).map_err(io)?;
    Ok(key)
}

/// Writes a new random key to `path` (mode 0600) unless another process
/// has just done so; theirs is then read instead.
fn create_key(path: &Path, folder: &Path) -> Result<(), Unusable> {
    let io = |e: std::io::Error| Unusable::Io { path: path.to_path_buf(), kind: e.kind() };
    let mut key = [0; KEY_LEN];
    getrandom::fill(&mut key).map_err(|_| Unusable::NoRandomness)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".cache.key.")
        .permissions(Permissions::from_mode(0o600))
        .tempfile_in(folder)
        .map_err(io)?;
    tmp.write_all(&key).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    match tmp.persist_noclobber(path) {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io(e.error)),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::testkit::{Scratch, chmod, origin, reason, wasm};
    use super::*;
    use crate::cache::{CacheConfig, ModuleCache, Origin};
    use wasmtime::Engine;

    #[test]
    fn folders_and_keys_are_judged_by_owner_and_mode() {
        let p = Path::new("/x");
        assert_eq!(folder_fit(p, 1000, 0o40700, 1000), Ok(()));
        assert_eq!(folder_fit(p, 1000, 0o40755, 1000), Ok(()), "others may read");
        assert!(matches!(folder_fit(p, 1000, 0o40770, 1000), Err(Unusable::WritableByOthers { .. })));
        assert!(matches!(folder_fit(p, 1000, 0o41777, 1000), Err(Unusable::WritableByOthers { .. })));
        assert!(matches!(folder_fit(p, 0, 0o40700, 1000), Err(Unusable::OwnedByOther { owner: 0, euid: 1000, .. })));
        assert!(matches!(folder_fit(p, 1000, 0o40700, 0), Err(Unusable::OwnedByOther { .. })), "not even for root");
        assert_eq!(key_fit(p, 1000, 0o100600, 1000), Ok(()));
        assert_eq!(key_fit(p, 1000, 0o100400, 1000), Ok(()));
        for mode in [0o100640, 0o100604, 0o100620, 0o100602, 0o100644] {
            assert!(matches!(key_fit(p, 1000, mode, 1000), Err(Unusable::KeyExposed { .. })), "{mode:o}");
        }
        assert!(matches!(key_fit(p, 1001, 0o100600, 1000), Err(Unusable::OwnedByOther { .. })));
    }

    #[test]
    fn a_folder_others_can_write_is_not_used() {
        let s = Scratch::new();
        let config = s.config();
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
        chmod(&config.dir, 0o777);
        assert_eq!(reason(&config), Unusable::WritableByOthers { path: config.dir.clone(), mode: 0o40777 });
        let why = ModuleCache::open(&config).unused_reason().unwrap().to_string();
        assert_eq!(
            why,
            format!(
                "compile cache {} not used: it is writable by others (mode 0777); compiling every bot",
                config.dir.display()
            )
        );
        let cache = ModuleCache::open(&config);
        assert_eq!(
            cache.get(&Engine::default(), &wasm(1), &|| ()).unwrap().1,
            Origin::Compiled,
            "the file is not read"
        );
        chmod(&config.dir, 0o700);
        chmod(&s.version_dir(), 0o770);
        assert!(matches!(reason(&config), Unusable::WritableByOthers { path, .. } if path == s.version_dir()));
    }

    #[test]
    fn an_unfit_key_turns_the_cache_off() {
        let s = Scratch::new();
        let config = s.config();
        assert_eq!(origin(&config, &wasm(1)), Origin::Compiled);
        chmod(&config.key, 0o644);
        assert_eq!(reason(&config), Unusable::KeyExposed { path: config.key.clone(), mode: 0o100644 });
        assert!(ModuleCache::open(&config).unused_reason().unwrap().to_string().contains("mode 0644; it must be 0600"));
        chmod(&config.key, 0o600);

        std::fs::write(&config.key, [7; 31]).unwrap();
        assert_eq!(reason(&config), Unusable::KeyLength { path: config.key.clone(), len: 31 });
        std::fs::remove_file(&config.key).unwrap();

        let real = s.root.path().join("real.key");
        std::fs::write(&real, [7; KEY_LEN]).unwrap();
        chmod(&real, 0o600);
        std::os::unix::fs::symlink(&real, &config.key).unwrap();
        assert_eq!(reason(&config), Unusable::KeyNotAFile { path: config.key.clone() });
        std::fs::remove_file(&config.key).unwrap();

        chmod(config.key.parent().unwrap(), 0o777);
        assert!(matches!(reason(&config), Unusable::WritableByOthers { .. }));
        chmod(config.key.parent().unwrap(), 0o700);

        let inside = CacheConfig { key: config.dir.join("keys/cache.key"), ..config.clone() };
        assert_eq!(reason(&inside), Unusable::KeyInside { path: inside.key.clone() });
        assert!(!inside.key.exists(), "not created there");
    }
}
