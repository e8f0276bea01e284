//! What an imported run's replay proved, and more of it on the
//! organiser's asking. An import replays a random sample of k of its S
//! sessions (`crate::import`); a forgery of f sessions escapes it only if
//! none of the f is drawn, with probability C(S−f, k) / C(S, k) (drawing
//! without replacement; for f = 1, (S − k) / S). The import's answer and
//! the organiser's page say so, and the page's form replays more sessions
//! (chosen at random among those not yet replayed) or all of them, which
//! compares the whole file byte for byte. A difference found later is
//! shown on the page in one line; the run stays recorded for the
//! organiser to judge.
//!
//! **Invariant:** the sessions listed as replayed were replayed and found
//! identical; nothing else is claimed.

use std::collections::BTreeMap;

use rusqlite::{OptionalExtension, params};

use crate::db::Db;
use crate::error::Error;

/// The probability that a uniform sample of `k` of `sessions` sessions
/// (without replacement) draws none of `forged` forged ones:
/// C(S−f, k) / C(S, k) = Π_{i<k} (S − f − i) / (S − i).
pub fn missed(sessions: u64, k: u64, forged: u64) -> f64 {
    if forged == 0 {
        return 1.0;
    }
    if k >= sessions || forged + k > sessions {
        return 0.0;
    }
    (0..k).map(|i| (sessions - forged - i) as f64 / (sessions - i) as f64).product()
}

/// What replaying `k` of `sessions` sessions proved, in one sentence:
/// the chance a forgery of 1, a tenth and a quarter of the sessions
/// would have been missed.
pub fn proved(sessions: u64, k: u64) -> String {
    if k >= sessions {
        return format!("every one of the {sessions} session(s) was replayed: no forged session was missed");
    }
    format!("{k} of {sessions} sessions replayed: {}", odds(sessions, k))
}

/// "a forgery of 1 session would have been missed with probability
/// 0.96, of 10 with 0.65, of 25 with 0.31" for a sample of `k` of
/// `sessions` (`k` < `sessions`).
pub fn odds(sessions: u64, k: u64) -> String {
    let mut sizes = vec![1, sessions.div_ceil(10), sessions.div_ceil(4)];
    sizes.dedup();
    let odds: Vec<String> = sizes
        .iter()
        .map(|&f| match f {
            1 => format!("1 session would have been missed with probability {:.2}", missed(sessions, k, 1)),
            f => format!("of {f} with {:.2}", missed(sessions, k, f)),
        })
        .collect();
    format!("a forgery of {}", odds.join(", "))
}

/// An imported run's verification.
#[derive(Clone, Debug)]
pub struct Verification {
    /// The league's folder in the run (`league-K`).
    pub folder: String,
    /// The league's sessions.
    pub sessions: u64,
    /// Sessions replayed and found identical, ascending.
    pub replayed: Vec<u64>,
    /// `proved`, `replaying` (more asked for) or `differs`.
    pub state: String,
    /// Why it differs, or why more could not be replayed.
    pub note: Option<String>,
}

impl Verification {
    /// The page's line.
    pub fn line(&self) -> String {
        let proved = proved(self.sessions, self.replayed.len() as u64);
        match (self.state.as_str(), &self.note) {
            ("replaying", _) => format!("{proved}; replaying more…"),
            (_, Some(note)) => format!("{proved}; then: {note}"),
            _ => format!("{proved}."),
        }
    }
}

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(i64, Verification)> {
    let replayed: String = r.get(3)?;
    Ok((
        r.get(0)?,
        Verification {
            folder: r.get(1)?,
            sessions: r.get::<_, i64>(2)?.max(0) as u64,
            replayed: serde_json::from_str(&replayed).unwrap_or_default(),
            state: r.get(4)?,
            note: r.get(5)?,
        },
    ))
}

impl Db {
    /// Records what run `run`'s import (or a later replay) proved.
    pub fn set_verification(&self, run: i64, v: &Verification) -> Result<(), Error> {
        let conn = self.lock();
        conn.execute(
            "INSERT OR REPLACE INTO verifications (run, folder, sessions, replayed, state, note)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![run, v.folder, v.sessions as i64, serde_json::to_string(&v.replayed)?, v.state, v.note],
        )?;
        Ok(())
    }

    /// Run `run`'s verification, if it was imported.
    pub fn verification(&self, run: i64) -> Result<Option<Verification>, Error> {
        let conn = self.lock();
        let sql = "SELECT run, folder, sessions, replayed, state, note FROM verifications WHERE run = ?1";
        Ok(conn.query_row(sql, [run], row).optional()?.map(|(_, v)| v))
    }

    /// Every imported run's verification, by run.
    pub fn verifications(&self) -> Result<BTreeMap<i64, Verification>, Error> {
        let conn = self.lock();
        let mut stmt = conn.prepare("SELECT run, folder, sessions, replayed, state, note FROM verifications")?;
        let rows = stmt.query_map([], row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chance_of_missing_a_forgery_is_drawn_without_replacement() {
        // One forged session: missed unless drawn, (S − k) / S.
        assert!((missed(100, 4, 1) - 0.96).abs() < 1e-12);
        assert!((missed(10, 3, 1) - 0.7).abs() < 1e-12);
        // C(98, 4) / C(100, 4) for two.
        assert!((missed(100, 4, 2) - (96.0 * 95.0) / (100.0 * 99.0)).abs() < 1e-12);
        assert_eq!(missed(10, 10, 1), 0.0, "every session replayed");
        assert_eq!(missed(10, 8, 3), 0.0, "more forged than left out");
        assert_eq!(
            proved(100, 4),
            "4 of 100 sessions replayed: a forgery of 1 session would have been missed with probability 0.96, \
             of 10 with 0.65, of 25 with 0.31"
        );
        assert_eq!(
            proved(2, 1),
            "1 of 2 sessions replayed: a forgery of 1 session would have been missed with probability 0.50"
        );
        assert!(proved(2, 2).starts_with("every one of the 2"));
    }
}
