//! A score for every passing submission, and two of one's submissions
//! compared, both as duels on the competition's first league
//! (`pitboss_league::duel`: its rules and limits, duplicate shoes from its
//! seed, `[uploads] score_rounds` rounds).
//!
//! A **score** is the submission's EV with its 95 % interval, `basic`'s
//! EV on the same cards, the paired difference from `basic` (chips per
//! 100 rounds, with its interval), and its rank-if-active: where that EV
//! would place it among the other entrants' EVs in that league of the
//! latest finished run. It is played when the upload passes and stored
//! with the submission. A **comparison** plays two of one's passing
//! submissions on the same cards when asked (`GET
//! /api/submissions/compare?a=ID&b=ID`, or `/me/compare`), after a check
//! slot and with one in flight per entrant, like a replay (the handlers
//! are in `compare`).

use std::path::Path;

use axum::http::StatusCode;
use pitboss_league::duel::{Duel, duel};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::db::{Db, Entrant};
use crate::error::Error;
use crate::paths::module_path;
use crate::state::{App, Failure, Shared};
use crate::worker::Summary;

impl Db {
    /// Stores submission `id`'s score (or why it has none).
    pub fn set_score(&self, id: i64, score: &Value) -> Result<(), Error> {
        self.lock().execute(
            "INSERT OR REPLACE INTO scores (submission, json) VALUES (?1, ?2)",
            rusqlite::params![id, score.to_string()],
        )?;
        Ok(())
    }

    /// Passing submissions without a score, or whose scoring failed:
    /// `(entrant, id, sha256)`, oldest first.
    pub fn unscored(&self) -> Result<Vec<(i64, i64, String)>, Error> {
        let conn = self.lock();
        let mut stmt = conn.prepare(
            "SELECT s.entrant, s.id, s.sha256 FROM submissions s LEFT JOIN scores c ON c.submission = s.id
             WHERE s.outcome = 'passed' AND s.sha256 IS NOT NULL AND (c.json IS NULL OR c.json LIKE '{\"error\":%')
             ORDER BY s.id",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The SHA-256 of `entrant`'s passing submission `id`, if it is one.
    pub fn passed_module(&self, entrant: i64, id: i64) -> Result<Option<String>, Error> {
        use rusqlite::OptionalExtension;
        let sql = "SELECT sha256 FROM submissions WHERE id = ?1 AND entrant = ?2 AND outcome = 'passed'";
        Ok(self.lock().query_row(sql, [id, entrant], |r| r.get(0)).optional()?.flatten())
    }
}

/// A duel's second bot.
enum Against<'a> {
    /// A stored module: its name in the duel and SHA-256.
    Module(&'a str, &'a str),
    /// The built-in `basic`.
    Basic,
}

/// Plays `name` (module `sha`) against `b` on the first league
/// (blocking).
fn play(app: &App, name: &str, sha: &str, b: Against<'_>) -> Result<Duel, Error> {
    let Some(template) = app.competition.leagues.first() else {
        return Err(Error::League("the competition has no league".into()));
    };
    let entry = |name: &str, sha: &str| {
        format!("\n[[bot]]\nname = \"{name}\"\npath = \"{}\"\n", module_path(&app.dir, sha).display())
    };
    let mut text = template.text.clone() + &entry(name, sha);
    text += &match b {
        Against::Module(name, sha) => entry(name, sha),
        Against::Basic => "\n[[bot]]\nname = \"basic\"\nbuiltin = \"basic\"\n".to_string(),
    };
    let path = app.dir.join("leagues").join("duel.toml");
    let origin = format!("the first league ({}) of the competition", template.name);
    let mut league = pitboss_league::file::parse_text(&text, "duel.toml", &origin).map_err(Error::LeagueFile)?;
    let rounds = app.competition.uploads.score_rounds;
    league.rounds = league.rounds.min(rounds).max(1);
    league.sessions = (rounds / league.rounds).max(1);
    duel(&league, Path::new(&path), &app.checker.sandbox).map_err(Error::Play)
}

/// Scores `entrant`'s passing submission `id` (module `sha`) and stores
/// the score, or why it has none; returns it (blocking).
pub fn score(app: &App, entrant: &Entrant, id: i64, sha: &str) -> Result<Value, Error> {
    if app.competition.uploads.score_rounds == 0 {
        return Ok(Value::Null);
    }
    let name = format!("#{id}");
    let score = match play(app, &name, sha, Against::Basic) {
        Ok(d) => {
            let [own, basic] = &d.sides;
            let (rank, of) = rank_if_active(app, &entrant.name, own.ev_pct)?;
            json!({
                "league": app.competition.leagues.first().map(|l| l.name.clone()),
                "rounds": d.rounds,
                "ev_pct": own.ev_pct,
                "ci95_pct": own.ci95_pct,
                "status": own.status,
                "basic_ev_pct": basic.ev_pct,
                "vs_basic_per_100_rounds": d.diff_per_100_rounds,
                "vs_basic_ci95": d.diff_ci95,
                "rank_if_active": rank,
                "of": of,
            })
        }
        // The module passed its check and every path is the server's
        // own: the cause is the organiser's to see, not the author's.
        Err(e) => {
            eprintln!(
                "pitboss serve: error: scoring submission #{id}: {}",
                pitboss_host::text::excerpt(&e.to_string(), 2_000)
            );
            json!({ "error": UNSCORED })
        }
    };
    app.db.set_score(id, &score)?;
    Ok(score)
}

/// What a submission whose scoring failed says instead of a score.
pub const UNSCORED: &str = "the server could not score this submission (an internal error, in the organiser's log); it is scored again when the server restarts";

/// Scores every passing submission that has no score (uploaded while
/// scores were off, or before a kill) or whose scoring failed, one at a
/// time, each after a check slot; run once at start.
pub async fn score_unscored(app: Shared) {
    if app.competition.uploads.score_rounds == 0 {
        return;
    }
    let todo = match app.blocking(|app| app.db.unscored()).await {
        Ok(todo) => todo,
        Err(e) => {
            eprintln!("pitboss serve: error: listing unscored submissions: {}", e.text);
            return;
        }
    };
    if !todo.is_empty() {
        eprintln!("pitboss serve: scoring {} passing submission(s) that have no score", todo.len());
    }
    for (entrant, id, sha) in todo {
        let Ok(permit) = app.guards.check_slot().await else { return };
        let scored = app
            .blocking(move |app| {
                let _held = permit;
                match app.db.entrant(entrant)? {
                    Some(who) => score(app, &who, id, &sha).map(|_| ()),
                    None => Ok(()),
                }
            })
            .await;
        if let Err(e) = scored {
            eprintln!("pitboss serve: error: scoring submission #{id}: {}", e.text);
        }
    }
}

/// Where EV `ev_pct` would rank among the other entrants in the first
/// league of the latest finished run, and of how many (none: 1 of 1).
fn rank_if_active(app: &App, name: &str, ev_pct: f64) -> Result<(usize, usize), Error> {
    let Some((_, summary)) = app.db.latest_done()? else { return Ok((1, 1)) };
    let summary: Summary = serde_json::from_str(&summary)?;
    let Some(league) = summary.leagues.first() else { return Ok((1, 1)) };
    let others: Vec<f64> =
        league.rows.iter().filter(|r| r.name != name && r.status.is_empty()).map(|r| r.ev_pct).collect();
    Ok((1 + others.iter().filter(|&&ev| ev > ev_pct).count(), others.len() + 1))
}

/// The two submissions to compare.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct Pair {
    pub a: i64,
    pub b: i64,
}

/// Compares two of `who`'s passing submissions off the async threads,
/// after their one mark and a check slot.
pub async fn compared(app: &Shared, who: Entrant, pair: Pair) -> Result<Duel, Failure> {
    if app.competition.uploads.score_rounds == 0 {
        return Err(Failure::new(StatusCode::NOT_FOUND, "this competition has no comparisons (score_rounds = 0)"));
    }
    if pair.a == pair.b {
        return Err(Failure::new(StatusCode::BAD_REQUEST, "pick two different submissions"));
    }
    let held = app.guards.work_slot(Some(who.id)).await?;
    app.blocking(move |app| {
        let _held = held;
        let (Some(a), Some(b)) = (app.db.passed_module(who.id, pair.a)?, app.db.passed_module(who.id, pair.b)?) else {
            return Ok(None);
        };
        let (na, nb) = (format!("#{}", pair.a), format!("#{}", pair.b));
        play(app, &na, &a, Against::Module(&nb, &b)).map(Some)
    })
    .await?
    .ok_or_else(|| Failure::new(StatusCode::NOT_FOUND, "both must be passing submissions of yours"))
}
