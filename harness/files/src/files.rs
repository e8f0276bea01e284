//! The files Pitboss is handed, read and written safely: every input is a
//! regular file under a size cap, and every output appears whole or not
//! at all.
//!
//! A path is user input. One pointing at `/dev/zero` would be read until
//! memory runs out and a FIFO would block forever, so [`read_regular`]
//! opens without blocking, looks at what it opened (a symlink to a
//! regular file is fine; anything else is refused in one line) and reads
//! at most the cap of its [`Kind`], even from a file that grows meanwhile.
//!
//! [`Output`] writes through a temp file with a fresh random name, created
//! exclusively beside the target (so a planted symlink is never followed),
//! removed on any error, and renamed over the target only once every byte
//! is written, flushed and synced. A target that exists and is not a
//! regular file (a FIFO, `/dev/full`), or any target in `/dev` or `/proc`
//! (`/dev/stdout`), is written directly, appending. Every write error is
//! kept and reported, so a full disk is never a silent success.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// One mebibyte.
pub const MIB: u64 = 1 << 20;
/// The cap for a bot file (`.wasm` or `.wat`): 64 MiB, ample for any
/// strategy and its tables.
pub const BOT_CAP: u64 = 64 * MIB;
/// The cap for a league file: 1 MiB of TOML.
pub const LEAGUE_CAP: u64 = MIB;
/// The cap for a season file: 1 MiB of TOML.
pub const SEASON_CAP: u64 = MIB;
/// The cap for a stacked shoe file: 4 MiB, far more cards than any shoe.
pub const SHOE_CAP: u64 = 4 * MIB;
/// The cap for a results or shard file: 256 MiB of JSON.
pub const RESULTS_CAP: u64 = 256 * MIB;
/// The cap for a coach report (`pitboss coach --json`): 8 MiB, ample for
/// its most bots with their most situations.
pub const COACH_CAP: u64 = 8 * MIB;

/// What a file is for, which decides its cap and how messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A bot module ([`BOT_CAP`]).
    Bot,
    /// A league file ([`LEAGUE_CAP`]).
    League,
    /// A season file ([`SEASON_CAP`]).
    Season,
    /// A stacked shoe ([`SHOE_CAP`]).
    Shoe,
    /// A league's results ([`RESULTS_CAP`]).
    Results,
    /// One shard of a league's results ([`RESULTS_CAP`]).
    Shard,
    /// A coach report ([`COACH_CAP`]).
    Coach,
}

impl Kind {
    /// The most bytes Pitboss reads of a file of this kind.
    pub const fn cap(self) -> u64 {
        match self {
            Kind::Bot => BOT_CAP,
            Kind::League => LEAGUE_CAP,
            Kind::Season => SEASON_CAP,
            Kind::Shoe => SHOE_CAP,
            Kind::Results | Kind::Shard => RESULTS_CAP,
            Kind::Coach => COACH_CAP,
        }
    }

    /// How messages name it: "league file".
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Bot => "bot file",
            Kind::League => "league file",
            Kind::Season => "season file",
            Kind::Shoe => "shoe file",
            Kind::Results => "results file",
            Kind::Shard => "shard file",
            Kind::Coach => "coach file",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a file could not be read or written. Each message is one line and
/// shows the path quoted, with control bytes escaped. The underlying error
/// is part of the message (and so not also a `source()`, which would print
/// it twice in a chain).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Opening or reading failed.
    #[error("cannot read {kind} {path:?}: {error}")]
    Read {
        /// What the file is for.
        kind: Kind,
        /// The path, as given.
        path: PathBuf,
        /// The I/O error.
        error: io::Error,
    },
    /// A FIFO, a device, a folder, a socket: nothing Pitboss reads.
    #[error("{kind} {path:?} is not a regular file ({found}); Pitboss reads only regular files")]
    NotRegular {
        /// What the file is for.
        kind: Kind,
        /// The path, as given.
        path: PathBuf,
        /// What it is instead, e.g. "a FIFO".
        found: &'static str,
    },
    /// Larger than the cap of its kind.
    #[error("{kind} {path:?} is {}", over_cap(*.kind, *.size))]
    TooLarge {
        /// What the file is for.
        kind: Kind,
        /// The path, as given.
        path: PathBuf,
        /// Its size; `None` when it grew past the cap while being read.
        size: Option<u64>,
    },
    /// Text expected, other bytes found.
    #[error("{kind} {path:?} is not UTF-8 text: {error}")]
    NotText {
        /// What the file is for.
        kind: Kind,
        /// The path, as given.
        path: PathBuf,
        /// Where the text goes wrong.
        error: std::str::Utf8Error,
    },
    /// Creating, writing, flushing, syncing or renaming an output failed.
    #[error("cannot write {path:?}: {error}")]
    Write {
        /// The target, as given.
        path: PathBuf,
        /// The I/O error.
        error: io::Error,
    },
}

impl FileError {
    /// The error as an [`io::Error`] whose message leaves the path out, for
    /// callers whose own message already names the file.
    pub fn without_path(self) -> io::Error {
        match self {
            FileError::Read { error, .. } | FileError::Write { error, .. } => error,
            FileError::NotRegular { found, .. } => io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{found}, not a regular file; Pitboss reads only regular files"),
            ),
            FileError::TooLarge { kind, size, .. } => {
                io::Error::new(io::ErrorKind::FileTooLarge, format!("it is {}", over_cap(kind, size)))
            }
            FileError::NotText { error, .. } => io::Error::new(io::ErrorKind::InvalidData, error),
        }
    }
}

/// "12 MiB; the cap for a league file is 1 MiB". A `size` of `None` is a
/// file that grew past the cap while being read.
fn over_cap(kind: Kind, size: Option<u64>) -> String {
    let cap = mib(kind.cap());
    let size = size.map_or_else(|| format!("more than {cap}"), mib);
    format!("{size}; the cap for a {kind} is {cap}")
}

/// A size for people: whole mebibytes exactly, else "more than N MiB", so
/// a file one byte over a cap never reads as equal to it.
fn mib(n: u64) -> String {
    if n.is_multiple_of(MIB) && n > 0 {
        format!("{} MiB", n / MIB)
    } else if n >= MIB {
        format!("more than {} MiB", n / MIB)
    } else {
        format!("{n} bytes")
    }
}

/// What a file is, for a refusal: "a FIFO", "a folder".
pub fn describe(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else if file_type.is_symlink() {
        "a symlink"
    } else if file_type.is_file() {
        "a regular file"
    } else {
        "an unusual file"
    }
}

/// Opens `path` for reading without waiting for a FIFO's writer or taking
/// a terminal as the controlling one.
fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// Reads the regular file at `path` (symlinks followed), at most
/// `kind.cap()` bytes. Anything else — a FIFO, a device, a folder, a
/// socket — and anything larger is refused without blocking or reading it.
pub fn read_regular(path: &Path, kind: Kind) -> Result<Vec<u8>, FileError> {
    let read_error = |error| FileError::Read { kind, path: path.to_path_buf(), error };
    let not_regular = |found| FileError::NotRegular { kind, path: path.to_path_buf(), found };
    // A look before opening names a socket (which cannot be opened) for
    // what it is; the look at the opened file below is the one that counts.
    let before = std::fs::metadata(path).map_err(read_error)?;
    if !before.is_file() {
        return Err(not_regular(describe(before.file_type())));
    }
    let file = open_nonblocking(path).map_err(read_error)?;
    let meta = file.metadata().map_err(read_error)?;
    if !meta.is_file() {
        return Err(not_regular(describe(meta.file_type())));
    }
    let cap = kind.cap();
    if meta.len() > cap {
        return Err(FileError::TooLarge { kind, path: path.to_path_buf(), size: Some(meta.len()) });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    (&file).take(cap + 1).read_to_end(&mut bytes).map_err(read_error)?;
    if bytes.len() as u64 > cap {
        return Err(FileError::TooLarge { kind, path: path.to_path_buf(), size: None });
    }
    Ok(bytes)
}

/// [`read_regular`] for text: the file's bytes as UTF-8.
pub fn read_text(path: &Path, kind: Kind) -> Result<String, FileError> {
    let bytes = read_regular(path, kind)?;
    String::from_utf8(bytes).map_err(|e| FileError::NotText { kind, path: path.to_path_buf(), error: e.utf8_error() })
}

/// An output being written: a temp file renamed over the target by
/// [`Output::finish`], or the target itself when that is not a regular
/// file. Dropped without `finish` (an error on the way), the temp file is
/// removed and the target is untouched.
pub struct Output {
    path: PathBuf,
    sink: Sink,
    /// The first write error; every later write fails with it too, and
    /// `finish` reports it even if the writer's user ignored it.
    error: Option<io::Error>,
}

enum Sink {
    Temp(BufWriter<tempfile::NamedTempFile>),
    Direct(BufWriter<File>),
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output").field("path", &self.path).finish()
    }
}

impl Output {
    /// Starts writing `path`: creates a uniquely named temp file
    /// `.NAME.XXXXXX.tmp` exclusively in its folder — or, for a target
    /// written in place (see `in_place`), opens the target to append.
    pub fn create(path: &Path) -> Result<Output, FileError> {
        let fail = |error| FileError::Write { path: path.to_path_buf(), error };
        let sink = if in_place(path) {
            let file = std::fs::OpenOptions::new().append(true).open(path).map_err(fail)?;
            Sink::Direct(BufWriter::new(file))
        } else {
            let name =
                path.file_name().ok_or_else(|| fail(io::Error::new(io::ErrorKind::InvalidInput, "not a file name")))?;
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let mut prefix = std::ffi::OsString::from(".");
            prefix.push(name);
            prefix.push(".");
            let mut builder = tempfile::Builder::new();
            builder.prefix(&prefix).suffix(".tmp");
            #[cfg(unix)]
            {
                // What `File::create` would give (the umask applies), not
                // the temp file's private default.
                use std::os::unix::fs::PermissionsExt;
                builder.permissions(std::fs::Permissions::from_mode(0o666));
            }
            Sink::Temp(BufWriter::new(builder.tempfile_in(dir).map_err(fail)?))
        };
        Ok(Output { path: path.to_path_buf(), sink, error: None })
    }

    /// Flushes, syncs and renames the temp file over the target (or
    /// flushes the target written directly). Any write error met on the
    /// way, even one a writer ignored, is returned instead, and the temp
    /// file removed.
    pub fn finish(self) -> Result<(), FileError> {
        let Output { path, sink, error } = self;
        let fail = |error| FileError::Write { path: path.clone(), error };
        if let Some(e) = error {
            return Err(fail(e));
        }
        match sink {
            Sink::Direct(mut out) => out.flush().map_err(fail),
            Sink::Temp(out) => {
                let temp = out.into_inner().map_err(|e| fail(e.into_error()))?;
                temp.as_file().sync_all().map_err(fail)?;
                temp.persist(&path).map(drop).map_err(|e| fail(e.error))
            }
        }
    }

    fn writer(&mut self) -> &mut dyn Write {
        match &mut self.sink {
            Sink::Temp(w) => w,
            Sink::Direct(w) => w,
        }
    }

    /// Runs one write step, keeping its first error.
    fn step<T>(&mut self, op: impl FnOnce(&mut dyn Write) -> io::Result<T>) -> io::Result<T> {
        if let Some(e) = &self.error {
            return Err(copy(e));
        }
        op(self.writer()).inspect_err(|e| self.error = Some(copy(e)))
    }
}

/// Whether `path` is written in place rather than through a temp file:
/// when it exists and is not a regular file (a device, a FIFO), or when
/// its folder is in `/dev` or `/proc`, where no temp file belongs —
/// `/dev/stdout` is a symlink to a regular file when standard output is
/// redirected to one, and renaming over it would replace the symlink.
fn in_place(path: &Path) -> bool {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::metadata(path).is_ok_and(|m| !m.is_file())
        || std::fs::canonicalize(dir).is_ok_and(|d| d.starts_with("/dev") || d.starts_with("/proc"))
}

/// An equal error (io::Error is not `Clone`).
fn copy(e: &io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(code) => io::Error::from_raw_os_error(code),
        None => io::Error::new(e.kind(), e.to_string()),
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.step(|w| w.write(buf))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.step(|w| w.write_all(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.step(|w| w.flush())
    }
}

/// Writes `path` through an [`Output`]: whatever `write` writes appears
/// whole at `path`, or (on any error, `write`'s own included) the target
/// is untouched and no temp file is left.
pub fn write_atomic(path: &Path, write: impl FnOnce(&mut Output) -> io::Result<()>) -> Result<(), FileError> {
    let mut out = Output::create(path)?;
    if let Err(error) = write(&mut out) {
        return Err(FileError::Write { path: path.to_path_buf(), error });
    }
    out.finish()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn fifo(path: &Path) {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path for the call's duration.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn a_regular_file_and_a_symlink_to_one_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.toml");
        std::fs::write(&file, "name = 1\n").unwrap();
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_text(&file, Kind::League).unwrap(), "name = 1\n");
        assert_eq!(read_regular(&link, Kind::League).unwrap(), b"name = 1\n");
    }

    #[test]
    fn fifos_devices_folders_and_sockets_are_refused_in_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("pipe.toml");
        fifo(&pipe);
        let zero = dir.path().join("zero.wasm");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let socket = dir.path().join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let cases = [
            (&pipe, Kind::League, "league file", "(a FIFO)"),
            (&zero, Kind::Bot, "bot file", "(a character device)"),
            (&dir.path().to_path_buf(), Kind::Season, "season file", "(a folder)"),
            (&socket, Kind::Shoe, "shoe file", "(a socket)"),
        ];
        for (path, kind, name, found) in cases {
            let e = read_regular(path, kind).unwrap_err().to_string();
            assert!(e.starts_with(&format!("{name} {path:?} is not a regular file {found};")), "{e}");
            assert!(e.ends_with("Pitboss reads only regular files") && !e.contains('\n'), "{e}");
        }
        let e = read_regular(&dir.path().join("missing"), Kind::Results).unwrap_err().to_string();
        assert!(e.starts_with("cannot read results file") && e.contains("No such file"), "{e}");
    }

    #[test]
    fn a_file_over_its_cap_is_refused_naming_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.toml");
        let file = File::create(&big).unwrap();
        file.set_len(12 * MIB).unwrap();
        let e = read_regular(&big, Kind::League).unwrap_err().to_string();
        assert_eq!(e, format!("league file {big:?} is 12 MiB; the cap for a league file is 1 MiB"));
        file.set_len(LEAGUE_CAP + 1).unwrap();
        let e = read_regular(&big, Kind::Season).unwrap_err().to_string();
        assert!(e.ends_with("is more than 1 MiB; the cap for a season file is 1 MiB"), "{e}");
        file.set_len(LEAGUE_CAP).unwrap();
        assert_eq!(read_regular(&big, Kind::League).unwrap().len() as u64, LEAGUE_CAP);
        let caps = [Kind::Bot, Kind::League, Kind::Season, Kind::Shoe, Kind::Results, Kind::Shard].map(Kind::cap);
        assert_eq!(caps, [64 * MIB, MIB, MIB, 4 * MIB, 256 * MIB, 256 * MIB]);
    }

    #[test]
    fn paths_are_quoted_with_control_bytes_escaped_and_bad_text_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join("a\nb\x1b[31m.toml");
        std::fs::write(&odd, [0xff, 0xfe]).unwrap();
        let e = read_text(&odd, Kind::League).unwrap_err().to_string();
        assert!(e.contains(r#"a\nb\u{1b}[31m.toml""#) && !e.contains('\n') && !e.contains('\x1b'), "{e}");
        assert!(e.contains("is not UTF-8 text"), "{e}");
    }

    #[test]
    fn an_output_appears_whole_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("x.json");
        std::fs::write(&target, "old").unwrap();
        write_atomic(&target, |w| w.write_all(b"new\n")).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new\n");
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode();
        File::create(dir.path().join("plain")).unwrap();
        assert_eq!(mode(&target), mode(&dir.path().join("plain")), "the umask's mode, not a temp file's 0600");
        std::fs::remove_file(dir.path().join("plain")).unwrap();
        let failed = write_atomic(&target, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("the writer gave up"))
        });
        let e = failed.unwrap_err().to_string();
        assert_eq!(e, format!("cannot write {target:?}: the writer gave up"));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new\n", "untouched");
        assert_eq!(leftovers(dir.path()), ["x.json"]);
    }

    #[test]
    fn a_planted_temp_symlink_is_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        std::os::unix::fs::symlink(&victim, dir.path().join(".x.json.tmp")).unwrap();
        write_atomic(&dir.path().join("x.json"), |w| w.write_all(b"{}\n")).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(std::fs::read_to_string(dir.path().join("x.json")).unwrap(), "{}\n");
        assert_eq!(leftovers(dir.path()), [".x.json.tmp", "victim", "x.json"]);
    }

    #[test]
    fn a_full_device_fails_even_when_the_writer_ignores_errors() {
        let mut out = Output::create(Path::new("/dev/full")).unwrap();
        for _ in 0..10_000 {
            let _ = writeln!(out, "an event");
        }
        let e = out.finish().unwrap_err().to_string();
        assert!(e.starts_with("cannot write \"/dev/full\": No space left on device"), "{e}");
    }

    #[test]
    fn devices_fifos_and_anything_in_dev_are_written_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("pipe");
        fifo(&pipe);
        assert!(in_place(&pipe) && in_place(Path::new("/dev/null")) && in_place(Path::new("/dev/stdout")));
        assert!(in_place(Path::new("/proc/self/fd/1")) && !in_place(&dir.path().join("x.json")));
        let reader = std::thread::spawn(move || std::fs::read_to_string(pipe).unwrap());
        write_atomic(&dir.path().join("pipe"), |w| w.write_all(b"through the pipe")).unwrap();
        assert_eq!(reader.join().unwrap(), "through the pipe");
        write_atomic(Path::new("/dev/null"), |w| w.write_all(b"gone")).unwrap();
        assert_eq!(leftovers(dir.path()), ["pipe"]);
    }

    #[test]
    fn a_missing_or_read_only_folder_fails_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let e = write_atomic(&dir.path().join("no/x.json"), |w| w.write_all(b"{}")).unwrap_err().to_string();
        assert!(e.contains("x.json") && e.contains("No such file"), "{e}");
        let e = write_atomic(Path::new("/proc/x.json"), |w| w.write_all(b"{}")).unwrap_err().to_string();
        assert!(e.starts_with("cannot write \"/proc/x.json\""), "{e}");
        assert!(write_atomic(Path::new(""), |w| w.write_all(b"{}")).is_err());
        assert!(leftovers(dir.path()).is_empty());
    }
}
