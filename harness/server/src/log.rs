//! The organiser's submission log: every entrant's uploads, newest
//! first, filtered by entrant and outcome.

use rusqlite::params;
use serde::Serialize;

use crate::db::Db;
use crate::error::Error;

/// One upload in the log.
#[derive(Clone, Debug, Serialize)]
pub struct LogRow {
    pub entrant: String,
    pub id: i64,
    /// Unix seconds.
    pub created: u64,
    pub file_name: String,
    /// `passed`, `failed` or `refused`.
    pub outcome: String,
    /// The verdict's first line.
    pub verdict: String,
    /// The whole verdict (with several leagues, a line for each).
    pub full_verdict: String,
}

impl Db {
    /// At most `limit` uploads, newest first, of one entrant (letter case
    /// aside) and one outcome where given.
    pub fn submission_log(
        &self,
        entrant: Option<&str>,
        outcome: Option<&str>,
        limit: u32,
    ) -> Result<Vec<LogRow>, Error> {
        let conn = self.lock();
        let mut stmt = conn.prepare(
            "SELECT e.name, s.id, s.created, s.file_name, s.outcome, s.verdict
             FROM submissions s JOIN entrants e ON e.id = s.entrant
             WHERE (?1 IS NULL OR e.name = ?1 COLLATE NOCASE) AND (?2 IS NULL OR s.outcome = ?2)
             ORDER BY s.id DESC LIMIT ?3",
        )?;
        let rows = stmt.query_map(params![entrant, outcome, limit], |r| {
            let verdict: String = r.get(5)?;
            Ok(LogRow {
                entrant: r.get(0)?,
                id: r.get(1)?,
                created: r.get::<_, i64>(2)? as u64,
                file_name: r.get(3)?,
                outcome: r.get(4)?,
                verdict: verdict.lines().next().unwrap_or("").to_string(),
                full_verdict: verdict,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
