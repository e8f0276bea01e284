//! The editor's two buttons (the form is `editor.rs`'s). **Try** (`POST
//! /me/try`: `csrf`, `source`, `league`, `rounds`) checks the source as
//! an upload is checked (a syntax error named `bot.py:LINE:COL`, an
//! import outside the runtime's library named, an exception with its
//! traceback) and, when it passes, plays it for at most
//! [`MAX_TRY_ROUNDS`] rounds against `basic` on the chosen league, each
//! alone at its table on the same cards (the league's own rules and
//! limits), then shows the verdict, the score and a round's transcript;
//! `GET /me/try?round=R` shows another round of that Try. A Try makes
//! no submission: its league folder is `DATA/tries/ENTRANT/`, replaced
//! by the entrant's next Try. It is work like a replay or a comparison
//! ([`crate::guards::Guards::work_slot`]): one in flight per entrant, in
//! one of the places that leave a check slot for uploads, then a check
//! slot; its bot has the league's fuel and memory limits, as any bot.
//! **Submit** (`POST /me/submit`) uploads the text as `bot.py` through
//! the upload's path ([`crate::uploads::judge_upload`]), to the same
//! verdict on `/me`.
//!
//! The text comes as a form field, line ends as the browser sends them
//! (`\r\n`), kept as `\n`.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use pitboss_host::text::printable;
use pitboss_league::replay::{Replayable, Spot};
use serde::Deserialize;

use crate::answer::Answer;
use crate::auth::{EntrantVisitor, Session};
use crate::csrf::CsrfForm;
use crate::db::{Entrant, Outcome};
use crate::editor::{Editing, MAX_TRY_ROUNDS, SCRIPT, TRY_ROUNDS, form, lines_svg, max_source, with_script};
use crate::error::Error;
use crate::page::{SHOWN_TEXT, page, refuse};
use crate::paths::try_dir;
use crate::state::{App, Shared};
use crate::uploads::{PageUpload, judge_upload};
use crate::verdict::check_all;

/// The name the tried bot has in its league (and its transcript).
const TRIED: &str = "bot.py";

/// The editor's form: its fields but the token.
#[derive(Deserialize)]
pub struct Edited {
    pub source: String,
    #[serde(default)]
    pub league: Option<String>,
    #[serde(default)]
    pub rounds: Option<String>,
}

/// The largest body of an editor's form: the source percent-encoded
/// (three bytes a byte at worst) and the other fields.
pub fn body_limit(max_bytes: usize) -> usize {
    3 * max_source(max_bytes) + (16 << 10)
}

/// A Try as asked, its fields checked.
struct Asked {
    source: String,
    /// From 1.
    league: usize,
    rounds: u64,
}

/// The form's fields checked, or why not in one line.
fn asked(app: &App, form: Edited) -> Result<Asked, String> {
    let source = edited_source(app, &form.source)?;
    let leagues = app.competition.leagues.len();
    let number = |field: Option<String>, name: &str, default: u64, max: u64| match field.as_deref().map(str::trim) {
        None | Some("") => Ok(default),
        Some(text) => text
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| format!("{name} must be a whole number from 1 to {max}.")),
    };
    let league = number(form.league, "league", 1, leagues as u64)? as usize;
    let rounds = number(form.rounds, "rounds", TRY_ROUNDS.min(MAX_TRY_ROUNDS), MAX_TRY_ROUNDS)?;
    Ok(Asked { source, league, rounds })
}

/// The editor's text with `\n` line ends, or why it is refused: empty,
/// or over the editor's size limit.
fn edited_source(app: &App, text: &str) -> Result<String, String> {
    let source = text.replace("\r\n", "\n");
    let max = max_source(app.competition.uploads.max_bytes);
    if source.trim().is_empty() {
        return Err("The editor was empty: write your bot in it first.".into());
    }
    if source.len() > max {
        return Err(format!(
            "The editor's text is {} KiB, over its limit of {} KiB: upload a larger bot.py as a file.",
            source.len().div_ceil(1024),
            max >> 10
        ));
    }
    Ok(source)
}

/// What a Try found.
struct Tried {
    outcome: Outcome,
    /// The check's verdict, a line per league.
    verdict: String,
    /// The check's full reports.
    report: String,
    /// When it passed: the play against `basic`, or why it could not be
    /// played.
    played: Option<Result<Played, String>>,
}

/// The rounds played against `basic`.
struct Played {
    league: String,
    rounds: u64,
    /// The tried bot's, then `basic`'s: EV and its 95 % interval, net
    /// chips, faults, status.
    sides: [Side; 2],
    /// Round 1's transcript, or why there is none.
    transcript: Result<String, String>,
}

struct Side {
    ev_pct: f64,
    ci95_pct: f64,
    net: i64,
    faults: u64,
    status: &'static str,
}

/// Checks and plays `asked` for `who` in their Try folder (blocking).
fn try_source(app: &App, who: &Entrant, asked: &Asked) -> Result<Tried, Error> {
    let dir = try_dir(&app.dir, who.id);
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(dir.join("bots"))?;
    let sha = pitboss_league::bots::sha256_hex(asked.source.as_bytes());
    let file = format!("{sha}.{}", pitboss_host::PYTHON_EXTENSION);
    let bot = dir.join("bots").join(&file);
    std::fs::write(&bot, &asked.source)?;
    let (outcome, verdict, report) = check_all(&app.checker, &bot, TRIED);
    let (verdict, report) = (app.public_text(&verdict), app.public_text(&report));
    let played = (outcome == Outcome::Passed).then(|| match play(app, &dir, &file, asked) {
        Ok(played) => Ok(played),
        Err(e) => Err(app.public_text(&e.to_string())),
    });
    Ok(Tried { outcome, verdict, report, played })
}

/// Plays the bot `bots/FILE` of `dir` against `basic` (blocking).
fn play(app: &App, dir: &std::path::Path, file: &str, asked: &Asked) -> Result<Played, Error> {
    let template = (app.competition.leagues.get(asked.league - 1))
        .ok_or_else(|| Error::League(format!("league {} is not in the competition", asked.league)))?;
    let mut table: toml::Table = toml::from_str(&template.text).map_err(|e| Error::League(e.to_string()))?;
    table.insert("name".into(), format!("Try · {}", template.name).into());
    table.insert("rounds".into(), toml::Value::Integer(asked.rounds as i64));
    table.insert("sessions".into(), toml::Value::Integer(1));
    // Each alone at its table on the same cards, but in the banker
    // game's bank, which has no such format.
    if table.get("format").and_then(toml::Value::as_str) != Some("bank") {
        table.insert("format".into(), "solo".into());
    }
    let mut text = toml::to_string(&table).map_err(|e| Error::League(e.to_string()))?;
    text += &format!("\n[[bot]]\nname = \"{TRIED}\"\npath = \"bots/{file}\"\n");
    text += "\n[[bot]]\nname = \"basic\"\nbuiltin = \"basic\"\n";
    let path = dir.join("league.toml");
    std::fs::write(&path, &text)?;
    let league = pitboss_league::file::parse_text(&text, "league.toml", &path.display().to_string())
        .map_err(Error::LeagueFile)?;
    let (result, results) = pitboss_league::league::run_with(&league, &path, &app.checker.sandbox, Some(1), &|_| ())
        .map_err(Error::Play)?;
    pitboss_results::output::write_json(&dir.join("results.json"), &results)?;
    let side = |name: &str| {
        let s = result.standings.iter().find(|s| s.result.name == name);
        s.map(|s| Side {
            ev_pct: s.ev_pct,
            ci95_pct: s.ev_ci95_pct,
            net: s.result.net,
            faults: s.result.faults,
            status: match s.status {
                pitboss_results::Status::Active => "in play",
                pitboss_results::Status::Broke => "broke",
                pitboss_results::Status::Disqualified => "disqualified",
            },
        })
        .ok_or_else(|| Error::League(format!("{name} is missing from the Try's standings")))
    };
    let sides = [side(TRIED)?, side("basic")?];
    let transcript = transcript(dir, 1).map_err(|e| app.public_text(&e));
    Ok(Played { league: template.name.clone(), rounds: asked.rounds, sides, transcript })
}

/// Round `round` of the tried bot's table in the Try folder `dir`, as
/// `pitboss replay` prints it (blocking: replays the table up to it).
fn transcript(dir: &std::path::Path, round: u64) -> Result<String, String> {
    let path = dir.join("results.json");
    let league = Replayable::open(&path, None).map_err(|e| format!("{e:#}"))?;
    let table = league.seating(0).iter().position(|seats| seats.contains(&0)).unwrap_or(0);
    let spot = Spot { session: 0, table, round };
    let events = league.round_events(spot).map_err(|e| format!("{e:#}"))?;
    let mut text = Vec::new();
    league.write_round(spot, &events, &mut text).map_err(|e| format!("{e:#}"))?;
    Ok(String::from_utf8_lossy(&text).into_owned())
}

/// `POST /me/try`: checks and plays the editor's source; its page.
pub async fn try_post(State(app): State<Shared>, visitor: EntrantVisitor, CsrfForm(form): CsrfForm<Edited>) -> Answer {
    let asked = match asked(&app, form) {
        Ok(asked) => asked,
        Err(why) => return Ok(refuse(StatusCode::BAD_REQUEST, &why)),
    };
    let held = app.guards.work_slot(Some(visitor.entrant.id)).await?;
    let who = visitor.entrant.clone();
    let (asked, tried) = app
        .blocking(move |app| {
            let _held = held;
            let tried = try_source(app, &who, &asked)?;
            Ok((asked, tried))
        })
        .await?;
    let body = html! {
        h1 { "Try: " code { (TRIED) } }
        p.small { "Not a submission: nothing is kept but this Try, until your next. " a href="/me" { "← back to your page" } }
        (tried_markup(&tried))
        (editor(&app, &visitor.session, &asked))
    };
    Ok(with_script(page("Try", Some(&visitor.session), body)))
}

/// The verdict, the score and the transcript of a Try.
fn tried_markup(t: &Tried) -> Markup {
    let passed = t.outcome == Outcome::Passed;
    html! {
        p #try-verdict class=(if passed { "banner passed" } else { "banner dq" }) {
            strong { (if passed { "Passed its check" } else { "Failed its check" }) } ": as an upload of it would." }
        pre.verdict { (printable(&t.verdict, SHOWN_TEXT)) }
        @if passed { details { summary { "Per decision: faults and fuel" } pre { (printable(&t.report, SHOWN_TEXT)) } } }
        @else {
            @if let Some(at) = first_raise(&t.report) { p.banner.dq #try-where { "First exception: " code { (at) } } }
            h2 { "What the check found" } pre #try-report { (printable(&t.report, SHOWN_TEXT)) }
        }
        @match &t.played {
            None => {}
            Some(Err(why)) => p.error { "It could not be played: " (pitboss_host::text::excerpt(why, 2_000)) }
            Some(Ok(p)) => (played_markup(p)),
        }
    }
}

/// Where the check's report first shows the bot raising, from its
/// logged traceback: `bot.py line N, in FUNCTION: Exception: text` (the
/// innermost frame of `bot.py`).
fn first_raise(report: &str) -> Option<String> {
    // The logged lines are `  | TEXT`; a traceback's frames are indented.
    let logged: Vec<&str> = report.lines().filter_map(|l| l.trim_start().strip_prefix("| ")).collect();
    let ours = format!("File \"{TRIED}\", line");
    let at = logged.iter().position(|l| l.trim_start().starts_with(&ours))?;
    let raised = at + logged[at..].iter().position(|l| !l.starts_with(' '))?;
    let frame = logged[at..raised].iter().rfind(|l| l.trim_start().starts_with(&ours))?;
    let frame = frame.trim().trim_start_matches("File \"").replacen("\",", "", 1);
    Some(pitboss_host::text::excerpt(&format!("{frame}: {}", logged[raised]), 300))
}

fn played_markup(p: &Played) -> Markup {
    let [own, basic] = &p.sides;
    let per_100 = (own.net - basic.net) as f64 * 100.0 / p.rounds.max(1) as f64;
    html! {
        p.score #try-score { "Score on " (p.league) " (" (p.rounds) " rounds against basic on the same cards): EV "
            (format!("{:+.2} ± {:.2} %", own.ev_pct, own.ci95_pct)) " (basic " (format!("{:+.2} %", basic.ev_pct)) "), net "
            (format!("{:+}", own.net)) " chips against basic's " (format!("{:+}", basic.net)) ": "
            (format!("{per_100:+.2}")) " chips per 100 rounds against basic; " (own.faults) " fault(s), " (own.status) "." }
        (round_markup(1, p.rounds, &p.transcript))
    }
}

/// A round's transcript and the form asking for another.
fn round_markup(round: u64, rounds: u64, transcript: &Result<String, String>) -> Markup {
    html! {
        h2 { "Round " (round) }
        @match transcript {
            Ok(text) => pre.transcript #try-transcript { (printable(text, SHOWN_TEXT)) }
            Err(why) => p.error { "No transcript: " (pitboss_host::text::excerpt(why, 2_000)) }
        }
        form #try-round method="get" action="/me/try" {
            "Show round " input type="number" name="round" min="1" max=(rounds) value=(round) aria-label="round";
            " of this Try " button { "Show" }
        }
    }
}

/// The editor, holding `asked`'s source.
fn editor(app: &App, session: &Session, asked: &Asked) -> Markup {
    let leagues: Vec<String> = app.competition.leagues.iter().map(|l| l.name.clone()).collect();
    form(&Editing {
        csrf: &session.csrf,
        source: &asked.source,
        leagues: &leagues,
        league: asked.league,
        rounds: asked.rounds,
        max_bytes: app.competition.uploads.max_bytes,
    })
}

/// Which round of one's latest Try to show.
#[derive(Deserialize)]
pub struct RoundAsked {
    pub round: u64,
}

/// `GET /me/try?round=R`: round `R` of one's latest Try, with the
/// editor holding its source.
pub async fn try_round(State(app): State<Shared>, visitor: EntrantVisitor, Query(q): Query<RoundAsked>) -> Answer {
    let held = app.guards.work_slot(Some(visitor.entrant.id)).await?;
    let id = visitor.entrant.id;
    let found = app
        .blocking(move |app| {
            let _held = held;
            let dir = try_dir(&app.dir, id);
            let Ok(league) = pitboss_league::file::parse(&dir.join("league.toml")) else { return Ok(None) };
            let source = std::fs::read_dir(dir.join("bots"))?
                .filter_map(Result::ok)
                .find_map(|f| std::fs::read_to_string(f.path()).ok())
                .unwrap_or_default();
            let league_no = app.competition.leagues.iter().position(|l| league.name == format!("Try · {}", l.name));
            let shown = match q.round {
                r if (1..=league.rounds).contains(&r) => transcript(&dir, r).map_err(|e| app.public_text(&e)),
                r => Err(format!("round {r} is not in this Try (1 to {})", league.rounds)),
            };
            let asked = Asked { source, league: league_no.map_or(1, |k| k + 1), rounds: league.rounds };
            Ok(Some((asked, shown)))
        })
        .await?;
    let Some((asked, shown)) = found else {
        return Ok(refuse(StatusCode::NOT_FOUND, "No Try of yours to show: press Try on your page first."));
    };
    let body = html! {
        h1 { "Try: " code { (TRIED) } }
        p.small { a href="/me" { "← back to your page" } }
        (round_markup(q.round, asked.rounds, &shown))
        (editor(&app, &visitor.session, &asked))
    };
    Ok(with_script(page("Try", Some(&visitor.session), body)))
}

/// `POST /me/submit`: the editor's source uploaded as `bot.py`, to its
/// verdict on `/me` as an upload's.
pub async fn submit(State(app): State<Shared>, up: PageUpload, CsrfForm(form): CsrfForm<Edited>) -> Answer {
    let source = match edited_source(&app, &form.source) {
        Ok(source) => source,
        Err(why) => return Ok(refuse(StatusCode::BAD_REQUEST, &why)),
    };
    let verdict = judge_upload(&app, up.visitor.entrant, up.slot, TRIED.into(), Bytes::from(source)).await?;
    Ok(Redirect::to(&format!("/me#sub-{}", verdict.id)).into_response())
}

/// `GET /editor/lines.svg`: the editor's line numbers.
pub async fn lines() -> Response {
    crate::copy::asset(lines_svg(), "image/svg+xml")
}

/// `GET /editor/editor.js`: the editor's keys.
pub async fn script() -> Response {
    crate::copy::asset(SCRIPT.to_string(), "text/javascript; charset=utf-8")
}

#[cfg(test)]
mod tests {
    use super::first_raise;

    #[test]
    fn the_first_exception_is_named_by_its_innermost_line_of_bot_py() {
        let report = "act: 3 faults\nnorth-american: logged in 3 decisions, first:\n  | Traceback (most recent call last):\n  \
            |   File \"./pitboss.py\", line 177, in _decide\n  |   File \"bot.py\", line 13, in act\n  |   \
            File \"bot.py\", line 4, in look\n  | KeyError: 'hard-16'\n  | pitboss: the bot raised an exception\n";
        assert_eq!(first_raise(report).as_deref(), Some("bot.py line 4, in look: KeyError: 'hard-16'"));
        assert_eq!(first_raise("bot.py:3:14: SyntaxError: expected ':'"), None);
    }
}
