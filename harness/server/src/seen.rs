//! When each entrant was last seen: the time of their latest request by
//! token or browser session, kept to the minute (a request writes only
//! when the stored time is a minute old or more), for the organiser's
//! page.

use std::collections::BTreeMap;

use rusqlite::params;

use crate::db::Db;
use crate::error::Error;

/// How stale the stored time may get before a request updates it, in
/// seconds.
pub const GRAIN_SECS: u64 = 60;

impl Db {
    /// Entrant `id` made a request at `now` (Unix seconds).
    pub fn touch(&self, id: i64, now: u64) -> Result<(), Error> {
        self.lock().execute(
            "INSERT INTO seen (entrant, at) VALUES (?1, ?2)
             ON CONFLICT(entrant) DO UPDATE SET at = excluded.at WHERE excluded.at >= seen.at + ?3",
            params![id, now as i64, GRAIN_SECS as i64],
        )?;
        Ok(())
    }

    /// The summary of run `id` if it finished (blocking).
    pub fn done_summary(&self, id: i64) -> Result<Option<String>, Error> {
        use rusqlite::OptionalExtension;
        let sql = "SELECT summary FROM runs WHERE id = ?1 AND state = 'done'";
        Ok(self.lock().query_row(sql, [id], |r| r.get(0)).optional()?)
    }

    /// Every entrant's last request, by id (Unix seconds).
    pub fn last_seen(&self) -> Result<BTreeMap<i64, u64>, Error> {
        let conn = self.lock();
        let mut stmt = conn.prepare("SELECT entrant, at FROM seen")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?.max(0) as u64)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_moves_the_time_once_a_minute_at_most() {
        let dir = pitboss_testkit::scratch("seen", "touch");
        let db = Db::open(&dir).unwrap();
        let id = db.add_entrant("ann", "h", 10).unwrap().unwrap();
        assert!(db.last_seen().unwrap().is_empty());
        db.touch(id, 1_000).unwrap();
        db.touch(id, 1_030).unwrap();
        assert_eq!(db.last_seen().unwrap()[&id], 1_000, "within the minute: unchanged");
        db.touch(id, 1_060).unwrap();
        assert_eq!(db.last_seen().unwrap()[&id], 1_060);
        db.remove_entrant(id).unwrap();
        assert!(db.last_seen().unwrap().is_empty(), "removed with the entrant");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
