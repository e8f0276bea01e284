//! The hand viewer's data: the session's deciding rounds and its first
//! table's opening rounds as stored in the results, and the names of the
//! events they hold, handed to `assets/report.js` from the one Rust list
//! ([`pitboss_results::names::event`]).

use std::path::Path;

use anyhow::{Result, bail};
use serde_json::Value;

use pitboss_results::ResultsFile;
use pitboss_results::{OPENING_ROUNDS, STORED_SESSIONS};

use crate::format::chips;

/// One round for the viewer.
#[derive(serde::Serialize)]
struct ViewRound<'a> {
    table: usize,
    round: u64,
    label: String,
    events: &'a [serde_json::Map<String, Value>],
}

/// The viewer's rounds of `session` (with `opening_rounds` of its first
/// table), as JSON, or why the session has none. `path` is the results
/// file's, for messages.
pub fn data(results: &ResultsFile, path: &Path, session: u64, opening_rounds: u64) -> Result<Value> {
    let record = &results.sessions[session as usize];
    let Some(hands) = &record.hands else {
        bail!(
            "the hands of session {session} are not stored in {} (only those of sessions 0 to {}); `pitboss replay` replays any round",
            path.display(),
            STORED_SESSIONS - 1
        );
    };
    let league = &results.league.parsed;
    let rules = league.rules.rules(&league.variant)?;
    let seating = pitboss_results::seating::seating_for(league.format, results.bots.len(), &rules, session);
    let opening = opening_rounds.min(OPENING_ROUNDS);
    let rounds: Vec<ViewRound<'_>> = hands
        .iter()
        .filter_map(|h| {
            let key = record.key_rounds.iter().find(|k| k.table == h.table && k.round == h.round);
            let label = match key {
                Some(k) => format!("round {} · table {} · swing {} chips", k.round, k.table, chips(k.swing)),
                None if h.table == 0 && h.round <= opening => format!("round {} · table 0", h.round),
                None => return None,
            };
            let label = if h.truncated { format!("{label} (cut short)") } else { label };
            Some(ViewRound { table: h.table, round: h.round, label, events: &h.events })
        })
        .collect();
    let tables: Vec<Vec<&str>> =
        seating.iter().map(|seats| seats.iter().map(|&b| results.bots[b].name.as_str()).collect()).collect();
    Ok(serde_json::json!({
        "session": session,
        "variant": results.result.variant,
        "banker_game": rules.game == pitboss_engine::Game::Banker,
        "per": rules.boxes_per_player,
        "tables": tables,
        "rounds": rounds,
    }))
}

/// `const EV={"ACTED":"acted",…};`: the event names `report.js` switches
/// on, under the names of their Rust constants, so the script and the
/// hand history cannot drift apart; then `const WORDS={…};`, the words
/// it writes for each outcome and action by its name in the history, and
/// `const ACT={"SPLIT":"split",…};`, the actions' names.
pub fn event_names_js() -> String {
    use pitboss_engine::Outcome;
    use pitboss_results::counts::Counted;
    use pitboss_results::names;
    let events: serde_json::Map<String, Value> =
        names::event::ALL.iter().map(|(key, name)| ((*key).into(), (*name).into())).collect();
    let outcomes: serde_json::Map<String, Value> = <Outcome as Counted>::ORDER
        .iter()
        .map(|&o| (names::outcome(o).0.into(), names::outcome_words(o).into()))
        .collect();
    let acts: serde_json::Map<String, Value> =
        pitboss_sdk::Action::ALL.iter().map(|&a| (a.name().into(), names::action_verb(a).into())).collect();
    let act_names: serde_json::Map<String, Value> =
        pitboss_sdk::Action::ALL.iter().map(|&a| (a.name().to_uppercase(), a.name().into())).collect();
    let words = serde_json::json!({ "outcomes": outcomes, "acts": acts });
    format!("const EV={};\nconst ACT={};\nconst WORDS={};\n", Value::Object(events), Value::Object(act_names), words)
}

/// Text for a `<script>` element: no `<` at all inside it, since
/// `</script` would close it early and `<!--` would change how the rest
/// is parsed. In JSON a `<` can only be inside a string, where `\u003c`
/// means the same.
pub fn script_json(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_name_reaches_the_script() {
        let js = event_names_js();
        assert!(js.starts_with("const EV={") && js.ends_with("};\n"), "{js}");
        for (key, name) in pitboss_results::names::event::ALL {
            assert!(js.contains(&format!("\"{key}\":\"{name}\"")), "{key} in {js}");
        }
    }

    /// Every event name the script uses is one the hand history writes.
    #[test]
    fn the_script_uses_only_listed_event_names() {
        let js = include_str!("../assets/report.js");
        let keys: Vec<&str> = pitboss_results::names::event::ALL.iter().map(|(key, _)| *key).collect();
        let used: Vec<&str> = js
            .split("EV.")
            .skip(1)
            .map(|rest| rest.split(|c: char| !(c.is_ascii_uppercase() || c == '_')).next().unwrap_or(""))
            .collect();
        assert!(used.len() > 20, "{used:?}");
        for key in used {
            assert!(keys.contains(&key), "report.js uses EV.{key}, which no event has");
        }
        // No event name spelt out as a string instead, nor an outcome,
        // an action or a rule set's name.
        for (_, name) in pitboss_results::names::event::ALL {
            assert!(!js.contains(&format!("case '{name}'")), "report.js spells out '{name}'");
        }
        for o in <pitboss_engine::Outcome as pitboss_results::counts::Counted>::ORDER {
            let name = pitboss_results::names::outcome(*o).0;
            assert!(
                !js.contains(&format!("{name}:")) && !js.contains(&format!("=='{name}'")),
                "report.js spells out {name}"
            );
        }
        for a in pitboss_sdk::Action::ALL {
            assert!(!js.contains(&format!("=='{}'", a.name())), "report.js spells out '{}'", a.name());
        }
        for v in pitboss_sdk::Variant::ALL {
            assert!(!js.contains(v.id()), "report.js names the rule set {}", v.id());
        }
    }

    #[test]
    fn script_json_holds_no_angle_bracket() {
        let v = serde_json::json!({ "name": "</script><!--" });
        let s = script_json(&v);
        assert!(!s.contains('<'));
        assert_eq!(serde_json::from_str::<Value>(&s).unwrap(), v);
    }
}
