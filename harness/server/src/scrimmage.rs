//! Scrimmages: an entrant's active bot against opponents they choose —
//! other entrants who allow it (a setting of theirs) or built-in bots —
//! on any league of the competition, for a bounded number of rounds,
//! queued behind official runs. The worker plays one whenever no run is
//! queued, in the order asked; an entrant has at most one queued or
//! playing at a time and asks for at most `[scrimmages] per_hour` an
//! hour, so nobody can crowd the queue. Opponents' bots are the modules
//! active when asked, fixed then.
//!
//! A scrimmage's files go to `DIR/scrimmages/N/` like a run's league
//! folder (league file, `bots/`, results, report, public copies without
//! log lines); the entrant who asked reads the public copies and replays
//! its rounds, the organiser reads everything.
//!
//! **Invariant:** a scrimmage is `done` only once every file is written;
//! one found `running` at start is played again.

use axum::http::StatusCode;
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::db::{Db, Entrant, now};
use crate::error::Error;
use crate::state::{App, Failure};

/// The built-in bots one may play against, by their `builtin:` names.
pub const BUILTINS: [&str; 5] = ["basic", "hilo", "mimic-dealer", "never-bust", "random"];
/// Most opponents in one scrimmage.
pub const MAX_OPPONENTS: usize = 7;

/// What an entrant asks for.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ask {
    /// The league whose rules and format are played, from 1.
    pub league: usize,
    pub rounds: u64,
    /// Entrant names, or `builtin:NAME`.
    pub opponents: Vec<String>,
}

/// A bot at a scrimmage: its name and its module's SHA-256 (`None`: a
/// built-in bot, whose name is `builtin:NAME`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    pub name: String,
    pub sha256: Option<String>,
}

/// A scrimmage as its entrant sees it.
#[derive(Clone, Debug, Serialize)]
pub struct Scrimmage {
    pub id: i64,
    pub entrant: String,
    pub created: u64,
    /// From 1.
    pub league: usize,
    pub rounds: u64,
    /// The entrant's bot first, then the opponents.
    pub seats: Vec<Seat>,
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    pub error: Option<String>,
    /// When done: the standings rows (rank, name, status, EV …).
    pub standings: Option<Value>,
    /// Seconds from being asked for to starting to play.
    pub waited: Option<u64>,
}

/// Checks `ask` of `who` and queues it (blocking): its id, or why not.
pub fn ask(app: &App, who: &Entrant, ask: &Ask) -> Result<Result<i64, Failure>, Error> {
    let refuse = |status: StatusCode, text: String| Ok(Err(Failure::new(status, text)));
    let policy = app.competition.scrimmages;
    let leagues = app.competition.leagues.len();
    if policy.per_hour == 0 {
        return refuse(StatusCode::FORBIDDEN, "this competition has no scrimmages ([scrimmages] per_hour = 0)".into());
    }
    if !(1..=leagues).contains(&ask.league) {
        return refuse(StatusCode::BAD_REQUEST, format!("league {} is not 1 to {leagues}", ask.league));
    }
    if !(1..=policy.max_rounds).contains(&ask.rounds) {
        return refuse(StatusCode::BAD_REQUEST, format!("rounds {} is not 1 to {}", ask.rounds, policy.max_rounds));
    }
    if ask.opponents.is_empty() || ask.opponents.len() > MAX_OPPONENTS {
        return refuse(StatusCode::BAD_REQUEST, format!("choose 1 to {MAX_OPPONENTS} opponents"));
    }
    let Some((_, own)) = app.db.active_submission(who.id)? else {
        return refuse(StatusCode::CONFLICT, "you have no bot that passed its check yet".into());
    };
    let mut seats = vec![Seat { name: who.name.clone(), sha256: Some(own) }];
    for name in &ask.opponents {
        let seat = match opponent(&app.db, who, name)? {
            Ok(seat) => seat,
            Err(why) => return refuse(StatusCode::BAD_REQUEST, why),
        };
        if seats.iter().any(|s| s.name == seat.name) {
            return refuse(StatusCode::BAD_REQUEST, format!("`{}` is named twice", seat.name));
        }
        seats.push(seat);
    }
    let asked = Asked { entrant: who.id, league: ask.league, rounds: ask.rounds, seats: &seats };
    Ok(match app.db.queue_scrimmage(&asked, policy.per_hour)? {
        Ok(id) => Ok(id),
        Err(NotQueued::Pending) => {
            Err(Failure::new(StatusCode::CONFLICT, "your previous scrimmage has not finished yet"))
        }
        Err(NotQueued::Hourly) => Err(Failure::busy(
            StatusCode::TOO_MANY_REQUESTS,
            format!("at most {} scrimmages an hour; try later", policy.per_hour),
            600,
        )),
    })
}

/// A scrimmage to queue.
struct Asked<'a> {
    entrant: i64,
    league: usize,
    rounds: u64,
    seats: &'a [Seat],
}

/// Why a scrimmage was not queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NotQueued {
    /// The entrant has one queued or playing.
    Pending,
    /// The entrant asked for `per_hour` in the last hour.
    Hourly,
}

/// The opponent `name` names for `who`: a built-in bot, or an enabled
/// entrant who allows scrimmages and has an active bot.
fn opponent(db: &Db, who: &Entrant, name: &str) -> Result<Result<Seat, String>, Error> {
    if let Some(builtin) = name.strip_prefix("builtin:") {
        return Ok(match BUILTINS.contains(&builtin) {
            true => Ok(Seat { name: format!("builtin:{builtin}"), sha256: None }),
            false => Err(format!("`{}` is not one of the built-in bots {}", excerpt(name), BUILTINS.join(", "))),
        });
    }
    let Some(e) = db.entrant_by_name(name)?.filter(|e| !e.disabled && e.id != who.id) else {
        return Ok(Err(format!("`{}` is no other entrant", excerpt(name))));
    };
    if !db.allows_scrimmages(e.id)? {
        return Ok(Err(format!("{} does not allow scrimmages", e.name)));
    }
    Ok(match db.active_submission(e.id)? {
        Some((_, sha)) => Ok(Seat { name: e.name, sha256: Some(sha) }),
        None => Err(format!("{} has no bot that passed its check", e.name)),
    })
}

fn excerpt(text: &str) -> String {
    pitboss_host::text::excerpt(text, 40)
}

const COLUMNS: &str = "s.id, e.name, s.created, s.league, s.rounds, s.seats, s.state, s.error, s.standings, s.started";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Scrimmage> {
    let created = r.get::<_, i64>(2)?.max(0) as u64;
    let seats: String = r.get(5)?;
    Ok(Scrimmage {
        id: r.get(0)?,
        entrant: r.get(1)?,
        created,
        league: r.get::<_, i64>(3)?.max(1) as usize,
        rounds: r.get::<_, i64>(4)?.max(0) as u64,
        seats: serde_json::from_str(&seats).unwrap_or_default(),
        state: r.get(6)?,
        error: r.get(7)?,
        standings: r.get::<_, Option<String>>(8)?.and_then(|j| serde_json::from_str(&j).ok()),
        waited: r.get::<_, Option<i64>>(9)?.map(|s| (s.max(0) as u64).saturating_sub(created)),
    })
}

impl Db {
    /// Whether entrant `id` lets others scrimmage against their bot.
    pub fn allows_scrimmages(&self, id: i64) -> Result<bool, Error> {
        let sql = "SELECT allow FROM scrimmage_settings WHERE entrant = ?1";
        Ok(self.lock().query_row(sql, [id], |r| r.get::<_, i64>(0)).optional()?.is_some_and(|a| a != 0))
    }

    /// Sets whether entrant `id` lets others scrimmage against their bot.
    pub fn allow_scrimmages(&self, id: i64, allow: bool) -> Result<(), Error> {
        self.lock().execute(
            "INSERT INTO scrimmage_settings (entrant, allow) VALUES (?1, ?2)
             ON CONFLICT(entrant) DO UPDATE SET allow = excluded.allow",
            params![id, i64::from(allow)],
        )?;
        Ok(())
    }

    /// The enabled entrants other than `id` who allow scrimmages and have
    /// an active bot, by name.
    pub fn scrimmage_opponents(&self, id: i64) -> Result<Vec<String>, Error> {
        let mut out = Vec::new();
        for e in self.entrants()? {
            if e.id != id && !e.disabled && self.allows_scrimmages(e.id)? && self.active_submission(e.id)?.is_some() {
                out.push(e.name);
            }
        }
        Ok(out)
    }

    /// Queues `asked` unless its entrant has a scrimmage queued or
    /// playing, or asked for `per_hour` in the last hour: the checks and
    /// the insert in one transaction under the connection's lock, so asks
    /// at once cannot pass the checks together.
    fn queue_scrimmage(&self, asked: &Asked<'_>, per_hour: u64) -> Result<Result<i64, NotQueued>, Error> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let id = asked.entrant;
        let count = |sql: &str, p: &[&dyn rusqlite::ToSql]| tx.query_row(sql, p, |r| r.get::<_, i64>(0));
        let pending =
            count("SELECT COUNT(*) FROM scrimmages WHERE entrant = ?1 AND state IN ('queued', 'running')", &[&id])?;
        let since = now().saturating_sub(3600) as i64;
        let lately = count("SELECT COUNT(*) FROM scrimmages WHERE entrant = ?1 AND created >= ?2", &[&id, &since])?;
        if pending > 0 {
            return Ok(Err(NotQueued::Pending));
        }
        if lately.max(0) as u64 >= per_hour {
            return Ok(Err(NotQueued::Hourly));
        }
        tx.execute(
            "INSERT INTO scrimmages (entrant, created, league, rounds, seats, state) VALUES (?1, ?2, ?3, ?4, ?5, 'queued')",
            params![id, now() as i64, asked.league as i64, asked.rounds as i64, serde_json::to_string(asked.seats)?],
        )?;
        let queued = tx.last_insert_rowid();
        tx.commit()?;
        Ok(Ok(queued))
    }

    /// Scrimmage `id` as its entrant `entrant` (or, with `None`, the
    /// organiser) sees it.
    pub fn scrimmage(&self, id: i64, entrant: Option<i64>) -> Result<Option<Scrimmage>, Error> {
        let sql = format!(
            "SELECT {COLUMNS} FROM scrimmages s JOIN entrants e ON e.id = s.entrant WHERE s.id = ?1 AND (?2 IS NULL OR s.entrant = ?2)"
        );
        Ok(self.lock().query_row(&sql, params![id, entrant], row).optional()?)
    }

    /// Entrant `id`'s latest scrimmages, newest first (at most 50).
    pub fn scrimmages_of(&self, id: i64) -> Result<Vec<Scrimmage>, Error> {
        let conn = self.lock();
        let sql = format!(
            "SELECT {COLUMNS} FROM scrimmages s JOIN entrants e ON e.id = s.entrant WHERE s.entrant = ?1 ORDER BY s.id DESC LIMIT 50"
        );
        let mut stmt = conn.prepare(&sql)?;
        let rows = stmt.query_map([id], row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Takes the oldest queued scrimmage, marking it running.
    pub fn start_next_scrimmage(&self) -> Result<Option<Scrimmage>, Error> {
        let sql = format!(
            "SELECT {COLUMNS} FROM scrimmages s JOIN entrants e ON e.id = s.entrant WHERE s.state = 'queued' ORDER BY s.id LIMIT 1"
        );
        let conn = self.lock();
        let next = conn.query_row(&sql, [], row).optional()?;
        if let Some(s) = &next {
            let set = "UPDATE scrimmages SET state = 'running', started = ?2 WHERE id = ?1";
            conn.execute(set, params![s.id, now() as i64])?;
        }
        Ok(next)
    }

    /// Ends a scrimmage: done with its standings, or failed with why.
    pub fn finish_scrimmage(&self, id: i64, outcome: Result<&Value, &str>) -> Result<(), Error> {
        let (state, standings, error) = match outcome {
            Ok(s) => ("done", Some(s.to_string()), None),
            Err(e) => ("failed", None, Some(e)),
        };
        self.lock().execute(
            "UPDATE scrimmages SET state = ?2, standings = ?3, error = ?4 WHERE id = ?1",
            params![id, state, standings, error],
        )?;
        Ok(())
    }

    /// Scrimmages found playing at start (the server was killed) are
    /// queued again.
    pub fn requeue_scrimmages(&self) -> Result<usize, Error> {
        let sql = "UPDATE scrimmages SET state = 'queued', started = NULL WHERE state = 'running'";
        Ok(self.lock().execute(sql, [])?)
    }
}
