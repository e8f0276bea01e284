//! The hand viewer's data: the session's deciding rounds and its first
//! table's opening rounds as stored in the results, for `assets/report.js`.

use std::path::Path;

use anyhow::{Result, bail};
use serde_json::Value;

use pitboss_league::results::ResultsFile;
use pitboss_league::session::{OPENING_ROUNDS, STORED_SESSIONS};

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
    let league = results.league_file(&path.display().to_string())?;
    let rules = pitboss_league::league::league_rules(&league)?;
    let seating = pitboss_league::league::seating_for(league.format, results.bots.len(), &rules, session);
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
        "per": rules.boxes_per_player,
        "tables": tables,
        "rounds": rounds,
    }))
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
    fn script_json_holds_no_angle_bracket() {
        let v = serde_json::json!({ "name": "</script><!--" });
        let s = script_json(&v);
        assert!(!s.contains('<'));
        assert_eq!(serde_json::from_str::<Value>(&s).unwrap(), v);
    }
}
