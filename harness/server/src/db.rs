//! The server's state in SQLite (`DIR/pitboss.db`, WAL mode): entrants
//! with hashed tokens, every submission with its verdict, browser
//! sessions, and runs. Each write is one transaction, so a `kill -9`
//! loses nothing that was answered.
//!
//! **Invariant:** no token or session id is stored, only its SHA-256.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::error::Error;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entrants (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    created INTEGER NOT NULL,
    chosen INTEGER,
    disabled INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY,
    entrant INTEGER NOT NULL REFERENCES entrants(id),
    created INTEGER NOT NULL,
    file_name TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT,
    outcome TEXT NOT NULL,
    verdict TEXT NOT NULL,
    report TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS entrants_by_name_nocase ON entrants(name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS submissions_by_entrant ON submissions(entrant, created);
CREATE TABLE IF NOT EXISTS sessions (
    id_hash TEXT PRIMARY KEY,
    entrant INTEGER,
    csrf TEXT NOT NULL,
    expires INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS seen (
    entrant INTEGER PRIMARY KEY,
    at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS scores (
    submission INTEGER PRIMARY KEY,
    json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS scrimmages (id INTEGER PRIMARY KEY, entrant INTEGER NOT NULL, created INTEGER NOT NULL,
    league INTEGER NOT NULL, rounds INTEGER NOT NULL, seats TEXT NOT NULL, state TEXT NOT NULL, started INTEGER,
    error TEXT, standings TEXT);
CREATE TABLE IF NOT EXISTS scrimmage_settings (entrant INTEGER PRIMARY KEY, allow INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS verifications (run INTEGER PRIMARY KEY, folder TEXT NOT NULL,
    sessions INTEGER NOT NULL, replayed TEXT NOT NULL, state TEXT NOT NULL, note TEXT);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    state TEXT NOT NULL,
    reason TEXT NOT NULL,
    created INTEGER NOT NULL,
    started INTEGER,
    finished INTEGER,
    error TEXT,
    summary TEXT
);
";

/// What became of an upload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Checked and passed: it may play.
    Passed,
    /// Checked and failed (refused at load, or faulted).
    Failed,
    /// Refused before checking: not wasm, too big, over the rate, past
    /// the deadline.
    Refused,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::Refused => "refused",
        }
    }

    fn from_str(text: &str) -> Outcome {
        match text {
            "passed" => Outcome::Passed,
            "failed" => Outcome::Failed,
            _ => Outcome::Refused,
        }
    }
}

/// An entrant.
#[derive(Clone, Debug, Serialize)]
pub struct Entrant {
    pub id: i64,
    pub name: String,
    /// Disabled by the organiser: their token is refused and their bot
    /// plays in no run until re-enabled.
    pub disabled: bool,
    /// Unix seconds of registration (a run finished before it cannot
    /// hold their bot).
    #[serde(skip)]
    pub created: u64,
}

/// An entrant's active bot, as a run plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveBot {
    /// The entrant's id: who the bot is, whatever the name.
    pub entrant: i64,
    pub name: String,
    pub sha256: String,
}

/// The `meta` key of the final run's id.
const FINAL_RUN: &str = "final_run";

/// The `meta` key of the run whose reports the organiser published.
const PUBLISHED_RUN: &str = "published_run";

/// The `meta` key of the highest entrant id ever given: ids are never
/// given twice, so a name removed and registered again is a new
/// entrant, and nothing stored under the old id is theirs.
const LAST_ENTRANT_ID: &str = "last_entrant_id";

/// The columns [`entrant_row`] reads, in its order.
const ENTRANT: &str = "id, name, disabled, created";

fn entrant_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Entrant> {
    Ok(Entrant {
        id: r.get(0)?,
        name: r.get(1)?,
        disabled: r.get::<_, i64>(2)? != 0,
        created: r.get::<_, i64>(3)?.max(0) as u64,
    })
}

/// Why an entrant could not be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotAdded {
    /// The name is taken (letter case aside).
    Taken,
    /// The competition has its most entrants.
    Full,
}

/// A submission, as its entrant sees it.
#[derive(Clone, Debug, Serialize)]
pub struct Submission {
    pub id: i64,
    /// Unix seconds.
    pub created: u64,
    pub file_name: String,
    pub size: u64,
    pub sha256: Option<String>,
    pub outcome: Outcome,
    /// One line per league, or the refusal.
    pub verdict: String,
    /// The full `pitboss check` report per league (text).
    pub report: String,
    /// A passing submission's score ([`crate::scores`]), or why it has
    /// none.
    pub score: Option<serde_json::Value>,
    /// Whether this is the bot that plays.
    pub active: bool,
}

/// A submission to record.
pub struct NewSubmission<'a> {
    pub entrant: i64,
    pub file_name: &'a str,
    pub size: u64,
    pub sha256: Option<&'a str>,
    pub outcome: Outcome,
    pub verdict: &'a str,
    pub report: &'a str,
}

/// A run's row.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    pub id: i64,
    /// `queued`, `running`, `done`, `failed`.
    pub state: String,
    pub reason: String,
    pub created: u64,
    pub finished: Option<u64>,
    pub error: Option<String>,
}

/// The database, one connection behind a lock (every query is short; the
/// long work, checks and runs, happens outside it).
pub struct Db {
    conn: Mutex<Connection>,
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl Db {
    /// Opens (creating) `DIR/pitboss.db` in WAL mode with the schema.
    pub fn open(dir: &Path) -> Result<Db, Error> {
        let conn = Connection::open(dir.join(crate::paths::DB_FILES[0]))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // Before the schema: its index needs the column on older files.
        let has_table: bool = conn
            .query_row("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'entrants'", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| n > 0)?;
        let has_disabled = has_table && conn.prepare("SELECT disabled FROM entrants LIMIT 0").is_ok();
        if has_table && !has_disabled {
            conn.execute_batch("ALTER TABLE entrants ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;")?;
        }
        conn.execute_batch(SCHEMA)?;
        Ok(Db { conn: Mutex::new(conn) })
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic elsewhere never leaves a half-done transaction (each is
        // one statement or committed whole), so a poisoned lock is usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A value of the `meta` table.
    pub fn meta(&self, key: &str) -> Result<Option<String>, Error> {
        Ok(self.lock().query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0)).optional()?)
    }

    /// Sets a value of the `meta` table.
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), Error> {
        self.lock().execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)", [key, value])?;
        Ok(())
    }

    /// Adds an entrant unless the name is taken (letter case aside) or
    /// the competition already has `max` entrants; one transaction, so
    /// registrations at once cannot pass the cap together. The id is new
    /// (above every id ever given, removed entrants' included): a name
    /// removed may be registered again, as someone else.
    pub fn add_entrant(&self, name: &str, token_hash: &str, max: u64) -> Result<Result<i64, NotAdded>, Error> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let taken: i64 =
            tx.query_row("SELECT COUNT(*) FROM entrants WHERE name = ?1 COLLATE NOCASE", [name], |r| r.get(0))?;
        if taken > 0 {
            return Ok(Err(NotAdded::Taken));
        }
        let count: i64 = tx.query_row("SELECT COUNT(*) FROM entrants", [], |r| r.get(0))?;
        if count as u64 >= max {
            return Ok(Err(NotAdded::Full));
        }
        let id: i64 = tx.query_row(
            "SELECT MAX(COALESCE((SELECT MAX(id) FROM entrants), 0),
                        COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?1), 0)) + 1",
            [LAST_ENTRANT_ID],
            |r| r.get(0),
        )?;
        tx.execute(
            "INSERT INTO entrants (id, name, token_hash, created) VALUES (?1, ?2, ?3, ?4)",
            params![id, name, token_hash, now() as i64],
        )?;
        tx.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
            params![LAST_ENTRANT_ID, id.to_string()],
        )?;
        tx.commit()?;
        Ok(Ok(id))
    }

    /// Whether an entrant of this name exists (letter case aside).
    pub fn has_entrant(&self, name: &str) -> Result<bool, Error> {
        Ok(self.entrant_by_name(name)?.is_some())
    }

    /// The entrant of this name (letter case aside).
    pub fn entrant_by_name(&self, name: &str) -> Result<Option<Entrant>, Error> {
        let sql = format!("SELECT {ENTRANT} FROM entrants WHERE name = ?1 COLLATE NOCASE");
        Ok(self.lock().query_row(&sql, [name], entrant_row).optional()?)
    }

    /// The entrant whose token hashes to `token_hash`.
    pub fn entrant_by_token(&self, token_hash: &str) -> Result<Option<Entrant>, Error> {
        let sql = format!("SELECT {ENTRANT} FROM entrants WHERE token_hash = ?1");
        Ok(self.lock().query_row(&sql, [token_hash], entrant_row).optional()?)
    }

    /// Disables or re-enables an entrant; false when there is none.
    pub fn set_disabled(&self, id: i64, disabled: bool) -> Result<bool, Error> {
        let conn = self.lock();
        let done = conn.execute("UPDATE entrants SET disabled = ?2 WHERE id = ?1", params![id, i64::from(disabled)])?;
        if disabled {
            conn.execute("DELETE FROM sessions WHERE entrant = ?1", [id])?;
        }
        Ok(done == 1)
    }

    /// Gives an entrant a new token (the old one stops working at once,
    /// and so do their browser sessions).
    pub fn set_token(&self, id: i64, token_hash: &str) -> Result<bool, Error> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let done = tx.execute("UPDATE entrants SET token_hash = ?2 WHERE id = ?1", params![id, token_hash])?;
        tx.execute("DELETE FROM sessions WHERE entrant = ?1", [id])?;
        tx.commit()?;
        Ok(done == 1)
    }

    /// Removes an entrant, their submissions and sessions (finished runs
    /// keep their files, which stay theirs: a later entrant of the same
    /// name has another id and sees none of them); returns the SHA-256
    /// of their modules.
    pub fn remove_entrant(&self, id: i64) -> Result<Vec<String>, Error> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let shas: Vec<String> = {
            let mut stmt =
                tx.prepare("SELECT DISTINCT sha256 FROM submissions WHERE entrant = ?1 AND sha256 IS NOT NULL")?;
            stmt.query_map([id], |r| r.get(0))?.collect::<Result<_, _>>()?
        };
        tx.execute("DELETE FROM scores WHERE submission IN (SELECT id FROM submissions WHERE entrant = ?1)", [id])?;
        tx.execute("DELETE FROM submissions WHERE entrant = ?1", [id])?;
        tx.execute("DELETE FROM sessions WHERE entrant = ?1", [id])?;
        tx.execute("DELETE FROM seen WHERE entrant = ?1", [id])?;
        for table in ["scrimmages", "scrimmage_settings"] {
            tx.execute(&format!("DELETE FROM {table} WHERE entrant = ?1"), [id])?;
        }
        // Its id is never given again (see [`LAST_ENTRANT_ID`]).
        tx.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, CAST(MAX(?2,
                COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?1), 0)) AS TEXT))",
            params![LAST_ENTRANT_ID, id],
        )?;
        tx.execute("DELETE FROM entrants WHERE id = ?1", [id])?;
        tx.commit()?;
        Ok(shas)
    }

    /// Whether any passed submission is of the module with this SHA-256.
    pub fn module_in_use(&self, sha256: &str) -> Result<bool, Error> {
        let n: i64 = self.lock().query_row(
            "SELECT COUNT(*) FROM submissions WHERE sha256 = ?1 AND outcome = 'passed'",
            [sha256],
            |r| r.get(0),
        )?;
        Ok(n > 0)
    }

    /// Every entrant, by name.
    pub fn entrants(&self) -> Result<Vec<Entrant>, Error> {
        let conn = self.lock();
        let mut stmt = conn.prepare(&format!("SELECT {ENTRANT} FROM entrants ORDER BY name"))?;
        let rows = stmt.query_map([], entrant_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records a submission; returns its id.
    pub fn add_submission(&self, s: &NewSubmission<'_>) -> Result<i64, Error> {
        let conn = self.lock();
        conn.execute(
            "INSERT INTO submissions (entrant, created, file_name, size, sha256, outcome, verdict, report)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                s.entrant,
                now() as i64,
                s.file_name,
                s.size as i64,
                s.sha256,
                s.outcome.as_str(),
                s.verdict,
                s.report
            ],
        )?;
        Ok(conn.last_insert_rowid())
    }

    /// Uploads an entrant made since `since`: `(checked, refused)`.
    pub fn uploads_since(&self, entrant: i64, since: u64) -> Result<(u64, u64), Error> {
        let (checked, refused): (i64, i64) = self.lock().query_row(
            "SELECT COALESCE(SUM(outcome != 'refused'), 0), COALESCE(SUM(outcome = 'refused'), 0)
             FROM submissions WHERE entrant = ?1 AND created >= ?2",
            params![entrant, since as i64],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok((checked as u64, refused as u64))
    }

    /// An entrant's submissions, newest first, the active one marked.
    pub fn submissions(&self, entrant: i64) -> Result<Vec<Submission>, Error> {
        let active = self.active_submission(entrant)?;
        let conn = self.lock();
        let mut stmt = conn.prepare(
            "SELECT id, created, file_name, size, sha256, outcome, verdict, report, scores.json FROM submissions
             LEFT JOIN scores ON scores.submission = submissions.id WHERE entrant = ?1 ORDER BY id DESC",
        )?;
        let rows = stmt.query_map([entrant], |r| {
            let id: i64 = r.get(0)?;
            Ok(Submission {
                id,
                created: r.get::<_, i64>(1)? as u64,
                file_name: r.get(2)?,
                size: r.get::<_, i64>(3)? as u64,
                sha256: r.get(4)?,
                outcome: Outcome::from_str(&r.get::<_, String>(5)?),
                verdict: r.get(6)?,
                report: r.get(7)?,
                score: r.get::<_, Option<String>>(8)?.and_then(|j| serde_json::from_str(&j).ok()),
                active: active.as_ref().is_some_and(|(a, _)| *a == id),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The submission that plays for `entrant`: the one they chose (if it
    /// passed), else their latest that passed; its id and SHA-256.
    pub fn active_submission(&self, entrant: i64) -> Result<Option<(i64, String)>, Error> {
        let conn = self.lock();
        let chosen = conn
            .query_row(
                "SELECT s.id, s.sha256 FROM entrants e JOIN submissions s ON s.id = e.chosen
                 WHERE e.id = ?1 AND s.outcome = 'passed' AND s.entrant = e.id",
                [entrant],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if chosen.is_some() {
            return Ok(chosen);
        }
        Ok(conn
            .query_row(
                "SELECT id, sha256 FROM submissions WHERE entrant = ?1 AND outcome = 'passed' ORDER BY id DESC LIMIT 1",
                [entrant],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    /// Makes submission `id` the entrant's active one; false when it is
    /// not theirs or did not pass.
    pub fn choose(&self, entrant: i64, id: i64) -> Result<bool, Error> {
        let done = self.lock().execute(
            "UPDATE entrants SET chosen = ?2 WHERE id = ?1 AND EXISTS
             (SELECT 1 FROM submissions WHERE id = ?2 AND entrant = ?1 AND outcome = 'passed')",
            params![entrant, id],
        )?;
        Ok(done == 1)
    }

    /// Every entrant with an active bot, but the disabled, by name.
    pub fn active_bots(&self) -> Result<Vec<ActiveBot>, Error> {
        let mut out = Vec::new();
        for e in self.entrants()?.into_iter().filter(|e| !e.disabled) {
            if let Some((_, sha256)) = self.active_submission(e.id)? {
                out.push(ActiveBot { entrant: e.id, name: e.name, sha256 });
            }
        }
        Ok(out)
    }

    /// Stores a browser session (by the hash of its id).
    pub fn add_session(&self, id_hash: &str, entrant: Option<i64>, csrf: &str, expires: u64) -> Result<(), Error> {
        let conn = self.lock();
        conn.execute("DELETE FROM sessions WHERE expires < ?1", [now() as i64])?;
        conn.execute(
            "INSERT INTO sessions (id_hash, entrant, csrf, expires) VALUES (?1, ?2, ?3, ?4)",
            params![id_hash, entrant, csrf, expires as i64],
        )?;
        Ok(())
    }

    /// A live session: its entrant (`None`: the organiser) and CSRF token.
    pub fn session(&self, id_hash: &str) -> Result<Option<(Option<i64>, String)>, Error> {
        Ok(self
            .lock()
            .query_row(
                "SELECT entrant, csrf FROM sessions WHERE id_hash = ?1 AND expires >= ?2",
                params![id_hash, now() as i64],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    /// Ends a session.
    pub fn end_session(&self, id_hash: &str) -> Result<(), Error> {
        self.lock().execute("DELETE FROM sessions WHERE id_hash = ?1", [id_hash])?;
        Ok(())
    }

    /// An entrant by id.
    pub fn entrant(&self, id: i64) -> Result<Option<Entrant>, Error> {
        let sql = format!("SELECT {ENTRANT} FROM entrants WHERE id = ?1");
        Ok(self.lock().query_row(&sql, [id], entrant_row).optional()?)
    }

    /// The final run's id, once the organiser has asked for it.
    pub fn final_run(&self) -> Result<Option<i64>, Error> {
        Ok(self.meta(FINAL_RUN)?.and_then(|v| v.parse::<i64>().ok()))
    }

    /// The final run, once it has finished: no run is queued after it and
    /// the leaderboard shows it for good.
    pub fn frozen(&self) -> Result<Option<i64>, Error> {
        let Some(id) = self.final_run()? else { return Ok(None) };
        Ok((self.run_state(id)?.as_deref() == Some("done")).then_some(id))
    }

    /// The run whose reports the organiser published (the final run),
    /// if they did.
    pub fn published(&self) -> Result<Option<i64>, Error> {
        Ok(self.meta(PUBLISHED_RUN)?.and_then(|v| v.parse::<i64>().ok()))
    }

    /// Records that run `id`'s reports are published.
    pub fn publish(&self, id: i64) -> Result<(), Error> {
        self.set_meta(PUBLISHED_RUN, &id.to_string())
    }

    /// Queues the final run (the queued run becomes it, if one is
    /// queued); `None` when a final run is queued, running or done (one
    /// that failed may be queued again).
    pub fn queue_final_run(&self) -> Result<Option<i64>, Error> {
        if let Some(id) = self.final_run()?
            && self.run_state(id)?.as_deref() != Some("failed")
        {
            return Ok(None);
        }
        let id = self.queue_run("final")?;
        self.lock().execute("UPDATE runs SET reason = 'final' WHERE id = ?1", [id])?;
        self.set_meta(FINAL_RUN, &id.to_string())?;
        Ok(Some(id))
    }

    /// Queues a run unless one is already queued; returns the queued id.
    pub fn queue_run(&self, reason: &str) -> Result<i64, Error> {
        let conn = self.lock();
        let queued: Option<i64> =
            conn.query_row("SELECT id FROM runs WHERE state = 'queued' LIMIT 1", [], |r| r.get(0)).optional()?;
        if let Some(id) = queued {
            return Ok(id);
        }
        conn.execute(
            "INSERT INTO runs (state, reason, created) VALUES ('queued', ?1, ?2)",
            params![reason, now() as i64],
        )?;
        Ok(conn.last_insert_rowid())
    }

    /// Records a run played elsewhere as done, in one transaction:
    /// `place(id)` puts its files in place and returns its summary (JSON);
    /// if it fails, nothing is recorded.
    pub fn add_done_run(&self, reason: &str, place: impl FnOnce(i64) -> Result<String, Error>) -> Result<i64, Error> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let t = now() as i64;
        tx.execute(
            "INSERT INTO runs (state, reason, created, started, finished) VALUES ('importing', ?1, ?2, ?2, ?2)",
            params![reason, t],
        )?;
        let id = tx.last_insert_rowid();
        let summary = place(id)?;
        tx.execute("UPDATE runs SET state = 'done', summary = ?2 WHERE id = ?1", params![id, summary])?;
        tx.commit()?;
        Ok(id)
    }

    /// Runs left `running` by a killed server go back to the queue.
    pub fn requeue_interrupted(&self) -> Result<Vec<i64>, Error> {
        let conn = self.lock();
        let mut stmt = conn.prepare("SELECT id FROM runs WHERE state = 'running'")?;
        let ids: Vec<i64> = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
        conn.execute("UPDATE runs SET state = 'queued', started = NULL WHERE state = 'running'", [])?;
        Ok(ids)
    }

    /// Whether a run is queued (a playing scrimmage gives way to it).
    pub fn has_queued_run(&self) -> Result<bool, Error> {
        let sql = "SELECT EXISTS (SELECT 1 FROM runs WHERE state = 'queued')";
        Ok(self.lock().query_row(sql, [], |r| r.get::<_, i64>(0))? != 0)
    }

    /// Takes the oldest queued run, marking it running.
    pub fn start_next_run(&self) -> Result<Option<i64>, Error> {
        let conn = self.lock();
        let id: Option<i64> = conn
            .query_row("SELECT id FROM runs WHERE state = 'queued' ORDER BY id LIMIT 1", [], |r| r.get(0))
            .optional()?;
        if let Some(id) = id {
            conn.execute("UPDATE runs SET state = 'running', started = ?2 WHERE id = ?1", params![id, now() as i64])?;
        }
        Ok(id)
    }

    /// Ends a run: done with its summary (JSON), or failed with why.
    pub fn finish_run(&self, id: i64, outcome: Result<&str, &str>) -> Result<(), Error> {
        let (state, summary, error) = match outcome {
            Ok(summary) => ("done", Some(summary), None),
            Err(why) => ("failed", None, Some(why)),
        };
        self.lock().execute(
            "UPDATE runs SET state = ?2, finished = ?3, summary = ?4, error = ?5 WHERE id = ?1",
            params![id, state, now() as i64, summary, error],
        )?;
        Ok(())
    }

    /// Runs, newest first (at most `limit`).
    pub fn runs(&self, limit: u32) -> Result<Vec<Run>, Error> {
        let conn = self.lock();
        let mut stmt =
            conn.prepare("SELECT id, state, reason, created, finished, error FROM runs ORDER BY id DESC LIMIT ?1")?;
        let rows = stmt.query_map([limit], |r| {
            Ok(Run {
                id: r.get(0)?,
                state: r.get(1)?,
                reason: r.get(2)?,
                created: r.get::<_, i64>(3)? as u64,
                finished: r.get::<_, Option<i64>>(4)?.map(|t| t as u64),
                error: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A run's state, if it exists.
    pub fn run_state(&self, id: i64) -> Result<Option<String>, Error> {
        Ok(self.lock().query_row("SELECT state FROM runs WHERE id = ?1", [id], |r| r.get(0)).optional()?)
    }

    /// The latest finished run: its id and summary (JSON).
    pub fn latest_done(&self) -> Result<Option<(i64, String)>, Error> {
        if let Some(id) = self.frozen()? {
            let conn = self.lock();
            let sql = "SELECT id, summary FROM runs WHERE id = ?1 AND state = 'done'";
            return Ok(conn.query_row(sql, [id], |r| Ok((r.get(0)?, r.get(1)?))).optional()?);
        }
        Ok(self
            .lock()
            .query_row("SELECT id, summary FROM runs WHERE state = 'done' ORDER BY id DESC LIMIT 1", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?)
    }
}
