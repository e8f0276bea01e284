//! Secrets: tokens and session ids made from the operating system's
//! randomness, kept only as their SHA-256, compared in constant time.

use sha2::{Digest, Sha256};

use crate::error::Error;

/// A fresh secret: `prefix` and 32 random bytes in hex.
pub fn new_secret(prefix: &str) -> Result<String, Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| Error::Io(std::io::Error::other(format!("no randomness: {e}"))))?;
    Ok(format!("{prefix}{}", hex(&bytes)))
}

/// The SHA-256 of a secret, in hex: what the database keeps.
pub fn hash(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

pub use pitboss_files::hex;

/// Compares two secrets in time independent of where they differ.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
