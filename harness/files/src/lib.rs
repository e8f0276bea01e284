//! Files as hostile input, for every crate that reads or writes one
//! without needing the wasm sandbox: a user-named file is read through
//! [`files::read_regular`] (regular files only, a size cap per
//! [`files::Kind`], opened without blocking), every result is written
//! through [`files::Output`] (a uniquely named temp file renamed into
//! place), and outside text shown to people goes through
//! [`text::excerpt`]. `pitboss-host` re-exports both modules, so
//! `pitboss_host::files` is this crate's. [`lang`] is the table of the
//! languages bots are written in: which file endings are bots, and how
//! each is run.

pub mod files;
pub mod lang;
pub mod text;

/// Bytes as lowercase hex (a digest's usual spelling): the one copy the
/// harness uses, for module digests, cache keys, secrets and staging.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
