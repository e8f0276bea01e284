//! Where a bot loses, decision by decision, for a finished run's league:
//! `pitboss_coach` run on demand for the entrant's own bot (the
//! organiser: any bot, `?bot=NAME`) under the run's league file, its
//! rules, overrides and limits, for [`COACH_ROUNDS`] rounds from the
//! league's seed; `GET /api/runs/N/league-K/coach` as JSON, and
//! `/runs/N/league-K/coach` as a page with the report's coach section.
//! A coaching waits for a check slot (one per core), one in flight per
//! entrant, and is kept beside the run (`coach/NAME.json`), so it is
//! played once.
//!
//! It values rounds on the check slot it holds plus those free when it
//! starts, all but one ([`extra_slots`]: an upload that comes finds one;
//! when uploads wait none is free, so it runs on one core). The page does
//! not wait for it: it answers at once with the rounds played so far and
//! refreshes itself until the report is there. The report's "see it"
//! commands name the student's own file (the name they uploaded) and the
//! league as they download it (`league.toml`, carried when the league
//! sets `[limits]`): no path of the server's.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::IntoResponse;
use maud::html;
use pitboss_coach::{BotInput, CoachRequest, Run, coach_league_with};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

use crate::answer::Answer;
use crate::auth::{Reader, Visitor};
use crate::db::Db;
use crate::error::Error;
use crate::page::page;
use crate::paths::{league_folder, run_dir};
use crate::state::{App, Failure, Shared};

/// Rounds a coaching plays: enough that its top situations rest on more
/// than a handful of hands (about 16 s of one core for `basic`, less on
/// more; docs/server.md). The in-process tests play fewer.
#[cfg(not(test))]
pub const COACH_ROUNDS: u64 = 50_000;
#[cfg(test)]
pub const COACH_ROUNDS: u64 = 2_000;
/// Situations listed.
pub const COACH_TOP: usize = 12;
/// The name a student downloads a run's league file as
/// (`/runs/N/league-K/league.toml`), which the "see it" commands carry.
const LEAGUE_SHOWN: &str = "league.toml";
/// How long the page waits for a coaching before it shows its progress.
const PAGE_WAITS: Duration = Duration::from_millis(1500);

/// Whose bot: the organiser names one.
#[derive(Deserialize)]
pub struct Whose {
    pub bot: Option<String>,
}

/// A coaching as the page shows it.
struct Coaching {
    /// The league's name.
    league: String,
    /// The coach's report (or `{"error": …}`).
    report: Value,
}

impl Db {
    /// The name the entrant `entrant` (any, when `None`) last uploaded
    /// the module `sha256` under.
    fn uploaded_as(&self, sha256: &str, entrant: Option<i64>) -> Result<Option<String>, Error> {
        use rusqlite::OptionalExtension;
        let sql = "SELECT file_name FROM submissions WHERE sha256 = ?1 AND (?2 IS NULL OR entrant = ?2)
                   ORDER BY id DESC LIMIT 1";
        Ok(self.lock().query_row(sql, rusqlite::params![sha256, entrant], |r| r.get(0)).optional()?)
    }
}

/// The coaching of bot `name` in league `folder` of run `run`, played
/// now or read from the run folder (blocking); `run_as` says on how many
/// threads, and hears the rounds done.
fn coached(
    app: &App,
    run: i64,
    folder: &str,
    name: &str,
    entrant: Option<i64>,
    run_as: Run,
) -> Result<Result<Coaching, Failure>, Error> {
    let missing = |what: &str| Ok(Err(Failure::new(StatusCode::NOT_FOUND, what.to_string())));
    if !league_folder(folder) || app.db.run_state(run)?.as_deref() != Some("done") {
        return missing("no such league of a finished run");
    }
    let dir = run_dir(&app.dir, run).join(folder);
    let results = pitboss_results::read(&dir.join("results.json"))?;
    let Some(source) = results.bots.iter().find(|b| b.name == name) else {
        return missing("no such bot in this league of the run");
    };
    let league_name = results.league.parsed.name.clone();
    let kept = dir.join("coach").join(format!("{}.json", source.name));
    if let Ok(text) = std::fs::read_to_string(&kept) {
        return Ok(Ok(Coaching { league: league_name, report: serde_json::from_str(&text)? }));
    }
    let (bytes, file_name) = match &source.sha256 {
        Some(_) => {
            // The file the run played (`HASH.py` or `HASH.js` for a bot's
            // source, which keeps its extension so it runs by its runtime).
            let file = crate::store::plain_file(&source.file)?;
            let extension =
                std::path::Path::new(file).extension().map_or(String::new(), |e| e.to_string_lossy().into_owned());
            (std::fs::read(dir.join("bots").join(file))?, format!("{}.{extension}", source.name))
        }
        None => (Vec::new(), String::new()),
    };
    // Named after the entrant, not the module's hash.
    let bot = match &source.sha256 {
        Some(_) => BotInput::Bytes { name: &file_name, bytes: &bytes },
        None => BotInput::Builtin(source.file.trim_start_matches("builtin:")),
    };
    // The commands name the file its author uploaded (a plain name).
    let uploaded = match &source.sha256 {
        Some(sha) => app.db.uploaded_as(sha, entrant)?,
        None => None,
    };
    let bot_shown = uploaded.and_then(|f| {
        let plain = std::path::Path::new(&f).file_name()?.to_string_lossy().into_owned();
        Some(plain).filter(|p| !p.is_empty())
    });
    let run_as = Run { bot_shown, league_shown: Some(LEAGUE_SHOWN.into()), ..run_as };
    let league = pitboss_league::file::parse(&dir.join("league.toml")).map_err(Error::LeagueFile)?;
    let request = CoachRequest { rounds: COACH_ROUNDS, seed: league.seed, top: COACH_TOP, bankroll: None };
    let json = match coach_league_with(&league, bot, &request, &app.checker.sandbox, run_as) {
        Ok(report) => serde_json::to_value(&report)?,
        Err(e) => serde_json::json!({ "error": app.public_text(&e.to_string()) }),
    };
    std::fs::create_dir_all(dir.join("coach"))?;
    pitboss_results::output::write_json(&kept, &json)?;
    Ok(Ok(Coaching { league: league_name, report: json }))
}

/// Check slots free now beyond the one a coaching holds, all but one (an
/// upload that comes finds it): none when uploads wait for one.
fn extra_slots(checks: &Arc<Semaphore>) -> Vec<OwnedSemaphorePermit> {
    let mut taken = Vec::new();
    while checks.available_permits() > 1 {
        match checks.clone().try_acquire_owned() {
            Ok(permit) => taken.push(permit),
            Err(_) => break,
        }
    }
    taken
}

/// Whose bot is coached.
enum Who {
    /// The entrant asking.
    Entrant(crate::db::Entrant),
    /// The bot the organiser names.
    Named(String),
}

/// Coaches off the async threads after a check slot and the entrant's
/// one mark, telling `done` the rounds played.
async fn coaching(
    app: &Shared,
    reader: Reader,
    run: i64,
    folder: String,
    whose: Whose,
    done: Arc<AtomicU64>,
) -> Result<Coaching, Failure> {
    let (who, entrant) = match (&reader, whose.bot) {
        (Reader::Entrant(e), _) => (Who::Entrant(e.clone()), Some(e.id)),
        (Reader::Organiser, Some(bot)) => (Who::Named(bot), None),
        (Reader::Organiser, None) => return Err(Failure::new(StatusCode::BAD_REQUEST, "name the bot: ?bot=NAME")),
    };
    let held = app.guards.work_slot(entrant).await?;
    let extra = extra_slots(&app.guards.checks);
    app.blocking(move |app| {
        let _held = (held, &extra);
        // An entrant's bot is found by their id, not their name: one
        // registered under a removed entrant's name has none of theirs.
        let (name, entrant) = match who {
            Who::Named(name) => {
                let id = app.db.entrant_by_name(&name)?.map(|e| e.id);
                (name, id)
            }
            Who::Entrant(e) => match crate::mine::name_in_run(&app.db, &e, run)? {
                Some(name) => (name, Some(e.id)),
                None => return Ok(Err(Failure::new(StatusCode::NOT_FOUND, "your bot did not play in this run"))),
            },
        };
        let progress: Box<dyn Fn(u64)> = Box::new(move |more| {
            done.fetch_add(more, Ordering::Relaxed);
        });
        let run_as = Run { threads: 1 + extra.len(), progress: Some(progress), bot_shown: None, league_shown: None };
        coached(app, run, &folder, &name, entrant, run_as)
    })
    .await?
}

/// `GET /api/runs/N/league-K/coach[?bot=NAME]`: `pitboss coach --json`'s
/// report for one's bot in that league of the run (when it is played).
pub async fn coach_json(
    State(app): State<Shared>,
    reader: Reader,
    UrlPath((run, folder)): UrlPath<(i64, String)>,
    Query(whose): Query<Whose>,
) -> Answer {
    let coached = coaching(&app, reader, run, folder, whose, Arc::default()).await?;
    Ok(axum::Json(coached.report).into_response())
}

/// A coaching a page started: the rounds it has played, and its task.
struct Playing {
    done: Arc<AtomicU64>,
    task: JoinHandle<Result<Coaching, Failure>>,
}

/// The coachings pages started and no page has shown yet, by data
/// folder, run, league and whose.
static PLAYING: Mutex<BTreeMap<String, Playing>> = Mutex::new(BTreeMap::new());

fn playing() -> std::sync::MutexGuard<'static, BTreeMap<String, Playing>> {
    PLAYING.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the page shows: the coaching, or the rounds played so far.
enum Shown {
    Done(Result<Coaching, Failure>),
    Playing(u64),
}

/// The coaching `key` names, started unless it is playing; waits for it
/// a moment ([`PAGE_WAITS`]).
async fn coaching_for_page(key: String, start: impl FnOnce(Arc<AtomicU64>) -> Playing) -> Shown {
    let done = {
        let mut all = playing();
        all.entry(key.clone()).or_insert_with(|| start(Arc::default())).done.clone()
    };
    let waited = Instant::now();
    loop {
        let finished = {
            let mut all = playing();
            match all.get(&key) {
                Some(p) if p.task.is_finished() => all.remove(&key),
                Some(_) => None,
                // Another page showed it: the next look reads the kept report.
                None => return Shown::Playing(done.load(Ordering::Relaxed)),
            }
        };
        if let Some(p) = finished {
            return Shown::Done(
                p.task.await.unwrap_or_else(|e| Err(Failure::from(Error::League(format!("a coaching stopped: {e}"))))),
            );
        }
        if waited.elapsed() >= PAGE_WAITS {
            return Shown::Playing(done.load(Ordering::Relaxed));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `GET /runs/N/league-K/coach[?bot=NAME]`: the same as a page, which
/// shows the rounds played and refreshes itself while it plays.
pub async fn coach_page(
    State(app): State<Shared>,
    Visitor(session): Visitor,
    reader: Reader,
    UrlPath((run, folder)): UrlPath<(i64, String)>,
    Query(whose): Query<Whose>,
) -> Answer {
    let (whom, bot) = match (&reader, &whose.bot) {
        (Reader::Entrant(e), _) => (format!("entrant {}", e.id), e.name.clone()),
        (Reader::Organiser, bot) => (format!("organiser {bot:?}"), bot.clone().unwrap_or_default()),
    };
    let key = format!("{}\n{run}\n{folder}\n{whom}", app.dir.display());
    let (shared, asked) = (app.clone(), folder.clone());
    let start = move |done: Arc<AtomicU64>| Playing {
        done: done.clone(),
        task: tokio::spawn(async move { coaching(&shared, reader, run, asked, whose, done).await }),
    };
    let heading = html! { h1 { "Coach · run " (run) " · " (folder) } };
    let coached = match coaching_for_page(key, start).await {
        Shown::Done(coached) => coached?,
        Shown::Playing(done) => {
            let body = html! {
                (heading)
                p #coach-progress { "Playing the rounds of " (pitboss_host::text::excerpt(&bot, 100)) "'s bot: " (pitboss_report::whole(done.min(COACH_ROUNDS))) " / "
                    (pitboss_report::whole(COACH_ROUNDS)) " rounds. This page refreshes itself until the coaching is ready." }
            };
            let mut answer = page("Coach", session.as_ref(), body);
            answer.headers_mut().insert("refresh", HeaderValue::from_static("2"));
            return Ok(answer);
        }
    };
    let json = &coached.report;
    let section = match json.get("error").and_then(Value::as_str) {
        Some(why) => html! { p.error { "No coaching: " (pitboss_host::text::excerpt(why, 500)) } },
        None => pitboss_report::coach_section(json).map_err(|e| Failure::from(Error::Report(e)))?,
    };
    let league = pitboss_host::text::excerpt(&coached.league, 100);
    let download = format!("/runs/{run}/{folder}/{LEAGUE_SHOWN}");
    let body = html! {
        style { (maud::PreEscaped(pitboss_report::COACH_CSS)) }
        (heading)
        p #coach-league { "League " strong { (league) } ": every decision of your bot over " (pitboss_report::whole(COACH_ROUNDS))
            " rounds of its rules, from its seed." }
        p.small { "For each decision the coach works out, from the cards your bot had not seen, what every choice \
            would have won on average. The EV is what your bot won per 100 chips bet; the EV given away is what \
            better choices would have won; the luck-adjusted EV is the EV with the luck of the cards taken out, far \
            more precise. Each situation below says how many hands it rests on: a row met fewer than "
            (pitboss_coach::FEW_HANDS) " times is too few to be sure of. "
            "Pitboss's docs/coach.md explains every figure." }
        p.small { "A \"see it\" command replays that round on your own computer with your own file, by "
            code { "pitboss play" } "; where it says " code { "--league " (LEAGUE_SHOWN) } ", the league's limits \
            matter: save the league as " a href=(download) { (LEAGUE_SHOWN) } " beside your bot." }
        (section)
    };
    Ok(page("Coach", session.as_ref(), body))
}
