//! Tokens and browser sessions: random secrets shown once, stored only as
//! their SHA-256; a session is a cookie (HttpOnly, SameSite=Strict) whose
//! every form carries the session's CSRF token.

use sha2::{Digest, Sha256};

use crate::Error;

/// Name of the session cookie.
pub const COOKIE: &str = "pitboss_session";
/// How long a browser session lasts, in seconds (12 hours).
pub const SESSION_SECS: u64 = 12 * 3600;

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

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The token of an `Authorization: Bearer TOKEN` header value.
pub fn bearer(header: &str) -> Option<&str> {
    let token = header.strip_prefix("Bearer ")?.trim();
    (!token.is_empty()).then_some(token)
}

/// The session id in a `Cookie` header value.
pub fn session_cookie(header: &str) -> Option<&str> {
    header.split(';').map(str::trim).find_map(|kv| kv.strip_prefix(COOKIE)?.strip_prefix('='))
}

/// Compares two secrets in time independent of where they differ.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_parse() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearer "), None);
        assert_eq!(session_cookie("a=b; pitboss_session=xyz; c=d"), Some("xyz"));
        assert_eq!(session_cookie("pitboss_sessionx=1"), None);
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "ab"));
        assert_eq!(new_secret("pb_").unwrap().len(), 67);
    }
}
