//! Any round of a finished run, replayed on demand by the server
//! (`GET /api/runs/N/league-K/replay?session=S&table=T&round=R` as JSON,
//! `/runs/N/league-K/replay?…` as a page with the report's hand viewer),
//! the same for one's scrimmages (`/api/scrimmages/N/replay?…`,
//! `/scrimmages/N/replay?…`), and an entrant's own download of a run
//! (`/api/runs/N/league-K/mine.tar`).
//!
//! A replay re-plays the table from the session's first round with the
//! run's stored modules (`pitboss_league::replay`), exactly as
//! `pitboss replay` does from the organiser's bundle. Who sees what:
//! the organiser sees every table with every bot's log lines; an entrant
//! sees their own bot's log lines only (other bots' actions are public at
//! a table, their logs are not), and while the run's reports are not
//! public (`public_reports = false`, and not the published final run)
//! only tables they sat at. A replay waits for one of the check slots (one per
//! core, first come first served) and an entrant has one in flight.
//!
//! **Invariant:** nothing here writes; a replay reads the run's folder,
//! which is complete once the run is `done`.

use std::path::{Path, PathBuf};

use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse};
use pitboss_engine::TableEvent;
use pitboss_league::replay::{Replayable, Spot};
use pitboss_results::ResultsFile;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::answer::Answer;
use crate::answer::REPORT_POLICY;
use crate::auth::{Reader, Session, Visitor};
use crate::db::Entrant;
use crate::error::Error;
use crate::paths::{PUBLIC, league_folder, run_dir, scrimmage_dir};
use crate::state::{App, Failure, Shared};

/// The round asked for, from the query string.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct RoundQuery {
    pub session: u64,
    pub table: usize,
    pub round: u64,
}

/// What a round is replayed from.
#[derive(Clone, Debug)]
enum Source {
    /// A league of a finished run: the run and its folder (`league-K`).
    Run(i64, String),
    /// A finished scrimmage, its entrant's or the organiser's alone.
    Scrimmage(i64),
}

impl Source {
    /// Its organiser's results file, and whether an entrant replays only
    /// the tables they sat at; or 404.
    fn locate(&self, app: &App, reader: &Reader) -> Result<Result<(PathBuf, bool), Failure>, Error> {
        match self {
            Source::Run(run, folder) => {
                let own_tables = !app.reports_public(*run)?;
                Ok(finished_results(app, *run, folder)?.map(|path| (path, own_tables)))
            }
            Source::Scrimmage(id) => {
                let owner = match reader {
                    Reader::Entrant(e) => Some(e.id),
                    Reader::Organiser => None,
                };
                let done = app.db.scrimmage(*id, owner)?.is_some_and(|s| s.state == "done");
                let path = scrimmage_dir(&app.dir, *id).join("results.json");
                Ok(match done && path.is_file() {
                    true => Ok((path, false)),
                    false => Err(Failure::new(StatusCode::NOT_FOUND, "no such finished scrimmage of yours")),
                })
            }
        }
    }

    /// Its fields in a replay's JSON.
    fn fields(&self) -> Value {
        match self {
            Source::Run(run, folder) => json!({ "run": run, "folder": folder }),
            Source::Scrimmage(id) => json!({ "scrimmage": id }),
        }
    }
}

/// The organiser's results file of a finished run's league, or 404.
fn finished_results(app: &App, run: i64, folder: &str) -> Result<Result<PathBuf, Failure>, Error> {
    let missing = || Failure::new(StatusCode::NOT_FOUND, "no such league of a finished run");
    if !league_folder(folder) || app.db.run_state(run)?.as_deref() != Some("done") {
        return Ok(Err(missing()));
    }
    let path = run_dir(&app.dir, run).join(folder).join("results.json");
    Ok(if path.is_file() { Ok(path) } else { Err(missing()) })
}

/// The league-order index of `reader`'s bot in `results` of `source`
/// (`None` for the organiser or an entrant who did not play). In a run,
/// found by the entrant's id ([`crate::mine::name_in_run`]), not by the
/// name: an entrant registered under a removed entrant's name owns none
/// of their bot.
fn own_bot(app: &App, results: &ResultsFile, reader: &Reader, source: &Source) -> Result<Option<usize>, Error> {
    let Reader::Entrant(e) = reader else { return Ok(None) };
    let name = match source {
        Source::Run(run, _) => crate::mine::name_in_run(&app.db, e, *run)?,
        // One's own scrimmage (`Source::locate` checked): seated by name.
        Source::Scrimmage(_) => Some(e.name.clone()),
    };
    Ok(name.and_then(|name| results.bots.iter().position(|b| b.name == name)))
}

/// The bots at `spot`'s table, or why the spot is not in the league.
fn seats_at(results: &ResultsFile, spot: Spot) -> Result<Vec<usize>, Failure> {
    let league = &results.league.parsed;
    let outside = |why: String| Failure::new(StatusCode::NOT_FOUND, why);
    let rules = league.rules.rules(&league.variant).map_err(|e| outside(e.to_string()))?;
    let at = (spot.session, spot.table, spot.round);
    pitboss_results::seating::table_at(
        (league.format, results.bots.len(), &rules),
        (league.sessions, league.rounds),
        at,
    )
    .map_err(outside)
}

/// Replays `spot` of `folder` in run `run` for `reader` (blocking: plays
/// the table up to the round).
/// `server` is this server's address as the client reached it, for the
/// command that replays a shared table.
fn replay(
    app: &App,
    reader: &Reader,
    source: &Source,
    spot: Spot,
    server: &str,
) -> Result<Result<Value, Failure>, Error> {
    let (path, private) = match source.locate(app, reader)? {
        Ok(found) => found,
        Err(f) => return Ok(Err(f)),
    };
    let results = pitboss_results::read(&path)?;
    let seats = match seats_at(&results, spot) {
        Ok(seats) => seats,
        Err(f) => return Ok(Err(f)),
    };
    let own = own_bot(app, &results, reader, source)?;
    if matches!(reader, Reader::Entrant(_)) && private && !own.is_some_and(|b| seats.contains(&b)) {
        return Ok(Err(Failure::new(
            StatusCode::FORBIDDEN,
            "you did not sit at this table; in this competition only the organiser replays other tables",
        )));
    }
    // Other bots' modules at the table (built-in bots have none).
    let others = seats.iter().filter(|&&b| Some(b) != own && results.bots[b].sha256.is_some()).count();
    let league = Replayable::from_results_table(results, &path, None, spot).map_err(Error::Replay)?;
    let events = league.round_events(spot).map_err(Error::Replay)?;
    // Another bot's log lines stay private; the organiser sees them all.
    let shown: Vec<&TableEvent> = events
        .iter()
        .filter(|e| match e {
            TableEvent::BotLog { player, .. } => {
                matches!(reader, Reader::Organiser)
                    || (own.is_some() && seats.get(usize::from(*player)).copied() == own)
            }
            _ => true,
        })
        .collect();
    let mut text = Vec::new();
    league.write_round(spot, shown.iter().copied(), &mut text).map_err(Error::Replay)?;
    let names: Vec<String> = seats.iter().map(|&b| league.bots[b].0.clone()).collect();
    let events: Vec<Value> = shown.iter().map(|e| pitboss_league::transcript::event_json(e)).collect();
    let Spot { session, table, round } = spot;
    let own_seat = own.and_then(|b| seats.iter().position(|&s| s == b));
    // Alone at a table (or with built-in bots), the bot's own download
    // (mine.tar) or the bundle replays it; a table shared with other
    // entrants' bots needs their modules, which stay on the server: it
    // replays there.
    let shared = (own.is_some() && others > 0) || (own.is_none() && others > 1);
    let command = match source {
        _ if !shared => format!("pitboss replay results.json --session {session} --table {table} --round {round}"),
        Source::Run(run, folder) => format!(
            "pitboss replay --server {server} --token $TOKEN --run {run} --league {} --session {session} --table \
             {table} --round {round}",
            folder.strip_prefix("league-").unwrap_or(folder)
        ),
        Source::Scrimmage(_) => "none: the other bots' modules stay on the server, so this page replays it".into(),
    };
    let mut json = json!({
        "league": league.file.name,
        "variant": league.results.result.variant,
        "banker_game": league.rules.game == pitboss_engine::Game::Banker,
        "per": league.rules.boxes_per_player,
        "session": session,
        "table": table,
        "round": round,
        "seed": league.file.seed,
        "session_seed": league.session_seed(session),
        "seats": names,
        "shared": shared,
        "own_seat": own_seat,
        "command": command,
        "transcript": String::from_utf8_lossy(&text),
        "events": events,
    });
    if let (Some(json), Value::Object(more)) = (json.as_object_mut(), source.fields()) {
        json.extend(more);
    }
    Ok(Ok(json))
}

/// Plays the replay off the async threads, after a check slot and (for
/// an entrant) their one replay mark.
async fn replayed(
    app: &Shared,
    reader: Reader,
    source: Source,
    q: RoundQuery,
    headers: &HeaderMap,
) -> Result<Value, Failure> {
    let server = crate::copy::origin(headers);
    let entrant = match &reader {
        Reader::Entrant(e) => Some(e.id),
        Reader::Organiser => None,
    };
    let held = app.guards.work_slot(entrant).await?;
    let spot = Spot { session: q.session, table: q.table, round: q.round };
    app.blocking(move |app| {
        let _held = held;
        replay(app, &reader, &source, spot, &server)
    })
    .await?
}

/// `GET /api/runs/N/league-K/replay?session=S&table=T&round=R`: the
/// round as JSON (`transcript` is what `pitboss replay` prints).
pub async fn replay_json(
    State(app): State<Shared>,
    headers: HeaderMap,
    reader: Reader,
    axum::extract::Path((run, folder)): axum::extract::Path<(i64, String)>,
    Query(q): Query<RoundQuery>,
) -> Answer {
    let done = replayed(&app, reader, Source::Run(run, folder), q, &headers).await?;
    Ok(axum::Json(done).into_response())
}

/// `GET /runs/N/league-K/replay?session=S&table=T&round=R`: the round in
/// the report's hand viewer, with its seed, command and transcript.
pub async fn replay_page(
    State(app): State<Shared>,
    headers: HeaderMap,
    Visitor(session): Visitor,
    reader: Reader,
    axum::extract::Path((run, folder)): axum::extract::Path<(i64, String)>,
    Query(q): Query<RoundQuery>,
) -> Answer {
    let back = if matches!(reader, Reader::Organiser) { "/admin" } else { "/me" };
    let j = replayed(&app, reader, Source::Run(run, folder), q, &headers).await?;
    Ok(round_page(&format!("Run {run}"), &j, q, back, session.as_ref()))
}

/// `GET /api/scrimmages/N/replay?session=S&table=T&round=R`: a round of
/// one's finished scrimmage as JSON.
pub async fn scrimmage_json(
    State(app): State<Shared>,
    headers: HeaderMap,
    reader: Reader,
    axum::extract::Path(id): axum::extract::Path<i64>,
    Query(q): Query<RoundQuery>,
) -> Answer {
    let done = replayed(&app, reader, Source::Scrimmage(id), q, &headers).await?;
    Ok(axum::Json(done).into_response())
}

/// `GET /scrimmages/N/replay?session=S&table=T&round=R`: a round of
/// one's finished scrimmage in the hand viewer.
pub async fn scrimmage_page(
    State(app): State<Shared>,
    headers: HeaderMap,
    Visitor(session): Visitor,
    reader: Reader,
    axum::extract::Path(id): axum::extract::Path<i64>,
    Query(q): Query<RoundQuery>,
) -> Answer {
    let j = replayed(&app, reader, Source::Scrimmage(id), q, &headers).await?;
    Ok(round_page(&format!("Scrimmage {id}"), &j, q, "/me/scrimmages", session.as_ref()))
}

/// The page of a replayed round `j`, under the report's policy,
/// with the site's navigation for `session`.
fn round_page(what: &str, j: &Value, q: RoundQuery, back: &str, session: Option<&Session>) -> axum::response::Response {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let names: Vec<String> = j["seats"].as_array().into_iter().flatten().map(text).collect();
    let variant = text(&j["variant"]);
    let at = pitboss_report::round::Seated {
        variant: &variant,
        banker_game: j["banker_game"].as_bool().unwrap_or(false),
        per: j["per"].as_u64().and_then(|p| u8::try_from(p).ok()).unwrap_or(1),
        table: q.table,
        names: &names,
    };
    let events = j["events"].as_array().into_iter().flatten().filter_map(|e| e.as_object().cloned()).collect();
    let data = pitboss_report::round::round_data(&at, q.session, q.round, events);
    let title =
        format!("{what} · {} · session {}, table {}, round {}", text(&j["league"]), q.session, q.table, q.round);
    let per = usize::from(at.per);
    let own = j["own_seat"].as_u64().map(|k| k as usize).map(|k| (k, k * per..(k + 1) * per));
    let seated: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(k, n)| if own.as_ref().is_some_and(|o| o.0 == k) { format!("{n} (you)") } else { n.clone() })
        .collect();
    let table = match (j["shared"].as_bool(), names.len()) {
        (Some(true), n) => format!("a shared table: {n} bots (their modules stay on the server, so it replays there)"),
        (_, 1) => "alone at its table".to_string(),
        (_, n) => format!("{n} bots, the others built in: your download replays it"),
    };
    let facts = [
        ("Seats", seated.join(", ")),
        ("Table", table),
        ("League seed", j["seed"].to_string()),
        ("Session seed", j["session_seed"].to_string()),
        ("Replay it", text(&j["command"])),
    ];
    let transcript = text(&j["transcript"]);
    let nav = crate::page::site_nav(session);
    let view = pitboss_report::round::RoundView {
        title: &title,
        facts: &facts,
        transcript: &transcript,
        data: &data,
        back,
        nav: Some(&nav),
        own,
    };
    let mut response = Html(pitboss_report::round::round_page(&view)).into_response();
    response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(REPORT_POLICY));
    response
}

/// `GET /api/runs/N/league-K/mine.tar`: what an entrant needs to replay
/// their own box locally: the league file, the results without any
/// bot's log lines (while the run's reports are not public, only the
/// stored hands of tables they sat at), and their own module under `bots/`. Other
/// entrants' modules stay private, so a table shared with them replays
/// on the server only.
pub async fn mine_tar(
    State(app): State<Shared>,
    reader: Reader,
    axum::extract::Path((run, folder)): axum::extract::Path<(i64, String)>,
) -> Answer {
    let Reader::Entrant(entrant) = reader else {
        return Err(Failure::new(
            StatusCode::FORBIDDEN,
            "the organiser downloads the whole run: /api/runs/N/bundle.tar",
        ));
    };
    let name = format!("run-{run}-{folder}-{}.tar", entrant.name);
    let tar = app.blocking(move |app| own_files(app, &entrant, run, &folder)).await??;
    let disposition = format!("attachment; filename=\"{name}\"");
    Ok(([(header::CONTENT_TYPE, "application/x-tar".to_string()), (header::CONTENT_DISPOSITION, disposition)], tar)
        .into_response())
}

/// The tar of [`mine_tar`] (blocking).
fn own_files(app: &App, entrant: &Entrant, run: i64, folder: &str) -> Result<Result<Vec<u8>, Failure>, Error> {
    let path = match finished_results(app, run, folder)? {
        Ok(path) => path,
        Err(f) => return Ok(Err(f)),
    };
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut results = pitboss_results::read(&dir.join(PUBLIC).join("results.json"))?;
    let name = crate::mine::name_in_run(&app.db, entrant, run)?;
    let Some(bot) = name.and_then(|name| results.bots.iter().position(|b| b.name == name)) else {
        return Ok(Err(Failure::new(StatusCode::NOT_FOUND, "your bot did not play in this league of the run")));
    };
    if !app.reports_public(run)? {
        keep_own_hands(&mut results, bot);
    }
    let Some(sha) = results.bots[bot].sha256.clone() else {
        return Ok(Err(Failure::new(StatusCode::NOT_FOUND, "your bot has no module in this run")));
    };
    let top = format!("run-{run}/{folder}");
    let mut tar = tar::Builder::new(Vec::new());
    let mut add = |file: &str, bytes: &[u8]| -> std::io::Result<()> {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, format!("{top}/{file}"), bytes)
    };
    add("league.toml", &std::fs::read(dir.join("league.toml"))?)?;
    let mut text = serde_json::to_vec_pretty(&results)?;
    text.push(b'\n');
    add("results.json", &text)?;
    // The file that played: `HASH.wasm`, or a source's `HASH.py` or `HASH.js`.
    let file = crate::store::plain_file(&results.bots[bot].file)?;
    debug_assert!(file.starts_with(&sha));
    let module = format!("bots/{file}");
    add(&module, &std::fs::read(dir.join(&module))?)?;
    Ok(Ok(tar.into_inner()?))
}

/// Drops the stored hands of every table `bot` did not sit at.
fn keep_own_hands(results: &mut ResultsFile, bot: usize) {
    let league = results.league.parsed.clone();
    let Ok(rules) = league.rules.rules(&league.variant) else { return };
    let bots = results.bots.len();
    for record in &mut results.sessions {
        let seating = pitboss_results::seating::seating_for(league.format, bots, &rules, record.session);
        if let Some(hands) = &mut record.hands {
            hands.retain(|h| seating.get(h.table).is_some_and(|seats| seats.contains(&bot)));
        }
    }
}
