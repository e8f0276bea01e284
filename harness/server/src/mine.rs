//! An entrant's own view of the latest finished run: their bot's faults
//! and its log lines, per league, read from the run's results files.
//!
//! A log line is a `log` event of a stored hand (the key rounds and
//! opening rounds of the first sessions); its `player` is a seat of its
//! table, which the league's seating for that session (reproducible from
//! the results file alone) maps to a bot. Only the entrant's own bot's
//! lines are returned: another bot's logs may reveal its strategy.

use std::path::Path;

use pitboss_results::ResultsFile;
use serde_json::{Value, json};

use crate::db::{Db, Entrant};
use crate::error::Error;
use crate::paths::run_dir;
use crate::worker::Summary;

/// Most faults shown per league.
pub const SHOWN_FAULTS: usize = 20;
/// Most log lines shown per league.
pub const SHOWN_LOGS: usize = 20;

/// What the entrant sees of the latest run: per league, faults and logs.
#[derive(Default)]
pub struct Own {
    /// `{league, run, folder, total, first}` per league the bot played
    /// (`folder`: the league's folder in the run, `league-K`).
    pub faults: Vec<Value>,
    /// `{league, total, first}` per league: `first` holds up to
    /// [`SHOWN_LOGS`] lines `{session, table, round, decision, text}`.
    pub logs: Vec<Value>,
    /// The bot's standing per league of the latest run, status first:
    /// `{league, run, folder, state, rank, of, net, ev_pct, faults, why}` where
    /// `state` is `played`, `broke`, `disqualified` or `not in the run`,
    /// and `why` the fault that disqualified it (session, table, round,
    /// decision, message) when it is among the logged faults.
    pub status: Vec<Value>,
    /// `{league, series}` per league the bot played: its chips over the
    /// rounds ([`crate::chips::series`]).
    pub chips: Vec<Value>,
}

/// The entrant's bot's faults and log lines in the latest finished run
/// of the data folder `dir` (a league whose results cannot be read is
/// left out). Blocking: reads the run's results files.
pub fn latest(dir: &Path, db: &Db, entrant: &Entrant) -> Result<Own, Error> {
    of_run(dir, db, entrant, None)
}

/// The name `entrant`'s bot played under in finished run `run`, if it
/// played there ([`Summary::name_of`]: by the entrant's id, not the name).
pub fn name_in_run(db: &Db, entrant: &Entrant, run: i64) -> Result<Option<String>, Error> {
    let Some(summary) = db.done_summary(run)? else { return Ok(None) };
    let summary: Summary = serde_json::from_str(&summary)?;
    Ok(summary.name_of(entrant).map(str::to_string))
}

/// [`latest`] for finished run `run` (`None`: the latest; a run that is
/// not finished: nothing).
pub fn of_run(dir: &Path, db: &Db, entrant: &Entrant, run: Option<i64>) -> Result<Own, Error> {
    let found = match run {
        None => db.latest_done()?,
        Some(id) => db.done_summary(id)?.map(|s| (id, s)),
    };
    let Some((id, summary)) = found else { return Ok(Own::default()) };
    let summary: Summary = serde_json::from_str(&summary)?;
    // The run's name of this entrant's bot: none when they did not play,
    // even if someone of their name did.
    let name = summary.name_of(entrant).unwrap_or_default();
    let mut own = Own::default();
    for league in &summary.leagues {
        let path = run_dir(dir, id).join(&league.folder).join("results.json");
        let Ok(results) = pitboss_results::read(&path) else { continue };
        let Some(bot) = results.result.standings.iter().find(|s| !name.is_empty() && s.result.name == name) else {
            own.status
                .push(json!({ "league": league.name, "run": id, "folder": league.folder, "state": "not in the run" }));
            continue;
        };
        let mut line = status(&results, bot, &league.name, id);
        line["folder"] = league.folder.clone().into();
        own.status.push(line);
        let faults: Vec<_> = bot.result.fault_log.iter().take(SHOWN_FAULTS).collect();
        own.faults.push(json!({
            "league": league.name, "run": id, "folder": league.folder, "total": bot.result.faults, "first": faults,
        }));
        own.chips.push(json!({ "league": league.name, "series": crate::chips::series(&results, name) }));
        let lines = log_lines(&results, name);
        let first: Vec<&Value> = lines.iter().take(SHOWN_LOGS).collect();
        own.logs.push(json!({ "league": league.name, "total": lines.len(), "first": first }));
    }
    Ok(own)
}

/// One league's status line of `bot`: how it ended, its rank, and what
/// disqualified it.
fn status(results: &ResultsFile, bot: &pitboss_results::Standing, league: &str, run: i64) -> Value {
    let r = &bot.result;
    let state = if r.disqualified {
        "disqualified"
    } else if r.broke {
        "broke"
    } else {
        "played"
    };
    let limit = results.league.parsed.fault_limit;
    let why = (r.disqualified && limit > 0)
        .then(|| r.fault_log.get(usize::try_from(limit - 1).unwrap_or(usize::MAX)).or(r.fault_log.last()))
        .flatten();
    json!({
        "league": league,
        "run": run,
        "state": state,
        "rank": bot.rank,
        "of": results.result.standings.len(),
        "net": r.net,
        "ev_pct": bot.ev_pct,
        "faults": r.faults,
        "why": why,
    })
}

/// Every log line of bot `name` in the stored hands of `results`, by
/// session, table and round (none when the league cannot be re-read).
pub fn log_lines(results: &ResultsFile, name: &str) -> Vec<Value> {
    let Some(bot) = results.bots.iter().position(|b| b.name == name) else { return Vec::new() };
    let league = &results.league.parsed;
    let Ok(rules) = league.rules.rules(&league.variant) else { return Vec::new() };
    let mut lines = Vec::new();
    for record in &results.sessions {
        let Some(hands) = &record.hands else { continue };
        let seating = pitboss_results::seating::seating_for(league.format, results.bots.len(), &rules, record.session);
        let mut hands: Vec<_> = hands.iter().collect();
        hands.sort_by_key(|h| (h.table, h.round));
        hands.dedup_by_key(|h| (h.table, h.round));
        for hand in hands {
            let Some(seats) = seating.get(hand.table) else { continue };
            for event in &hand.events {
                let is_log = event.get("event").and_then(Value::as_str) == Some(pitboss_results::names::event::LOG);
                let player = event.get("player").and_then(Value::as_u64).and_then(|p| usize::try_from(p).ok());
                if is_log && player.and_then(|p| seats.get(p)) == Some(&bot) {
                    lines.push(json!({
                        "session": record.session,
                        "table": hand.table,
                        "round": hand.round,
                        "decision": event.get("decision").cloned().unwrap_or(Value::Null),
                        "text": event.get("text").cloned().unwrap_or(Value::Null),
                    }));
                }
            }
        }
    }
    lines
}
