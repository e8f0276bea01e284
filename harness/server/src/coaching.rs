//! Where a bot loses, decision by decision, for a finished run's league:
//! `pitboss_coach` run on demand for the entrant's own bot (the
//! organiser: any bot, `?bot=NAME`) under the run's league file, its
//! rules, overrides and limits, for [`COACH_ROUNDS`] rounds from the
//! league's seed; `GET /api/runs/N/league-K/coach` as JSON, and
//! `/runs/N/league-K/coach` as a page with the report's coach section.
//! A coaching waits for a check slot (one per core), one in flight per
//! entrant, and is kept beside the run (`coach/NAME.json`), so it is
//! played once.

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use maud::html;
use pitboss_coach::{BotInput, CoachRequest, coach_league};
use serde::Deserialize;
use serde_json::Value;

use crate::answer::Answer;
use crate::auth::{Reader, Visitor};
use crate::error::Error;
use crate::page::page;
use crate::paths::{league_folder, run_dir};
use crate::state::{App, Failure, Shared};

/// Rounds a coaching plays (about 3 s of one core for `basic`).
pub const COACH_ROUNDS: u64 = 5_000;
/// Situations listed.
pub const COACH_TOP: usize = 12;

/// Whose bot: the organiser names one.
#[derive(Deserialize)]
pub struct Whose {
    pub bot: Option<String>,
}

/// The coaching of bot `name` in league `folder` of run `run`, played
/// now or read from the run folder (blocking).
fn coached(app: &App, run: i64, folder: &str, name: &str) -> Result<Result<Value, Failure>, Error> {
    let missing = |what: &str| Ok(Err(Failure::new(StatusCode::NOT_FOUND, what.to_string())));
    if !league_folder(folder) || app.db.run_state(run)?.as_deref() != Some("done") {
        return missing("no such league of a finished run");
    }
    let dir = run_dir(&app.dir, run).join(folder);
    let results = pitboss_results::read(&dir.join("results.json"))?;
    let Some(source) = results.bots.iter().find(|b| b.name == name) else {
        return missing("no such bot in this league of the run");
    };
    let kept = dir.join("coach").join(format!("{}.json", source.name));
    if let Ok(text) = std::fs::read_to_string(&kept) {
        return Ok(Ok(serde_json::from_str(&text)?));
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
    let league = pitboss_league::file::parse(&dir.join("league.toml")).map_err(Error::LeagueFile)?;
    let request = CoachRequest { rounds: COACH_ROUNDS, seed: league.seed, top: COACH_TOP, bankroll: None };
    let json = match coach_league(&league, bot, &request, &app.checker.sandbox) {
        Ok(report) => serde_json::to_value(&report)?,
        Err(e) => serde_json::json!({ "error": app.public_text(&e.to_string()) }),
    };
    std::fs::create_dir_all(dir.join("coach"))?;
    pitboss_results::output::write_json(&kept, &json)?;
    Ok(Ok(json))
}

/// Whose bot is coached.
enum Who {
    /// The entrant asking.
    Entrant(crate::db::Entrant),
    /// The bot the organiser names.
    Named(String),
}

/// Coaches off the async threads after a check slot and the entrant's
/// one mark.
async fn coaching(app: &Shared, reader: Reader, run: i64, folder: String, whose: Whose) -> Result<Value, Failure> {
    let (who, entrant) = match (&reader, whose.bot) {
        (Reader::Entrant(e), _) => (Who::Entrant(e.clone()), Some(e.id)),
        (Reader::Organiser, Some(bot)) => (Who::Named(bot), None),
        (Reader::Organiser, None) => return Err(Failure::new(StatusCode::BAD_REQUEST, "name the bot: ?bot=NAME")),
    };
    let held = app.guards.work_slot(entrant).await?;
    app.blocking(move |app| {
        let _held = held;
        // An entrant's bot is found by their id, not their name: one
        // registered under a removed entrant's name has none of theirs.
        let name = match who {
            Who::Named(name) => name,
            Who::Entrant(e) => match crate::mine::name_in_run(&app.db, &e, run)? {
                Some(name) => name,
                None => return Ok(Err(Failure::new(StatusCode::NOT_FOUND, "your bot did not play in this run"))),
            },
        };
        coached(app, run, &folder, &name)
    })
    .await?
}

/// `GET /api/runs/N/league-K/coach[?bot=NAME]`: `pitboss coach --json`'s
/// report for one's bot in that league of the run.
pub async fn coach_json(
    State(app): State<Shared>,
    reader: Reader,
    UrlPath((run, folder)): UrlPath<(i64, String)>,
    Query(whose): Query<Whose>,
) -> Answer {
    Ok(axum::Json(coaching(&app, reader, run, folder, whose).await?).into_response())
}

/// `GET /runs/N/league-K/coach[?bot=NAME]`: the same as a page.
pub async fn coach_page(
    State(app): State<Shared>,
    Visitor(session): Visitor,
    reader: Reader,
    UrlPath((run, folder)): UrlPath<(i64, String)>,
    Query(whose): Query<Whose>,
) -> Answer {
    let json = coaching(&app, reader, run, folder.clone(), whose).await?;
    let section = match json.get("error").and_then(Value::as_str) {
        Some(why) => html! { p.error { "No coaching: " (pitboss_host::text::excerpt(why, 500)) } },
        None => pitboss_report::coach_section(&json).map_err(|e| Failure::from(Error::Report(e)))?,
    };
    let body = html! {
        style { (maud::PreEscaped(pitboss_report::COACH_CSS)) }
        h1 { "Coach · run " (run) " · " (folder) }
        p.small { "Every decision of your bot over " (COACH_ROUNDS) " rounds of this league's rules, valued exactly from the \
            cards it had not seen; what it gave away, where, and its result with the luck of the cards taken out \
            (docs/coach.md explains every figure)." }
        (section)
    };
    Ok(page("Coach", session.as_ref(), body))
}
