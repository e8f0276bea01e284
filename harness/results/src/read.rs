//! Reading a results file: the current schema or one line saying why not,
//! the consistency checks a hand-edited file must pass, and the first
//! difference between a file and a re-run, named by its path.

use std::path::Path;

use pitboss_files::files::{self, FileError};
use serde::Deserialize;

use crate::schema::*;

/// Why a results file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read (missing, not a regular file, over the
    /// results cap).
    #[error(transparent)]
    File(#[from] FileError),
    /// It is `pitboss play`'s output, not a league's results.
    #[error(
        "{label} is the output of `pitboss play`; this command reads a league's results.json (`pitboss run LEAGUE.toml --json results.json`)"
    )]
    PlayOutput {
        /// The file, for messages.
        label: String,
    },
    /// It has another schema version.
    #[error(
        "{label} {was}; this Pitboss reads schema {SCHEMA_VERSION}: re-run the league (`pitboss run LEAGUE.toml --json {file}`)"
    )]
    OtherSchema {
        /// The file, for messages.
        label: String,
        /// What it is instead ("has results schema 1").
        was: String,
        /// Its file name.
        file: String,
    },
    /// It is not JSON of this schema.
    #[error("{label}:{line}:{column}: {message} (not a Pitboss results file?)")]
    Syntax {
        /// The file, for messages.
        label: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the JSON reader found.
        message: String,
    },
    /// It contradicts itself or lies outside what any league produces.
    #[error("{label} is not a consistent Pitboss results file: {why}")]
    Inconsistent {
        /// The file, for messages.
        label: String,
        /// The first contradiction.
        why: String,
    },
}

/// The JSON Schema of [`ResultsFile`], pretty, as checked in at
/// `docs/results.schema.json`.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(ResultsFile);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// Reads a results file: the current schema, or one line saying why not.
pub fn read(path: &Path) -> Result<ResultsFile, Error> {
    let text = files::read_text(path, files::Kind::Results)?;
    parse(&text, &path.display().to_string())
}

/// [`read`], then [`ResultsFile::check`]: a file every reader may trust
/// to be within bounds and consistent.
pub fn open(path: &Path) -> Result<ResultsFile, Error> {
    let results = read(path)?;
    results.check().map_err(|why| Error::Inconsistent { label: path.display().to_string(), why })?;
    Ok(results)
}

/// Parses a results file's text (`label` names it in errors). A file of
/// another schema version, or `pitboss play`'s output, is refused in one
/// line that says what to do instead.
pub fn parse(text: &str, label: &str) -> Result<ResultsFile, Error> {
    let error = match serde_json::from_str::<ResultsFile>(text) {
        Ok(results) if results.schema_version == SCHEMA_VERSION => return Ok(results),
        Ok(results) => return Err(old_schema(label, Some(results.schema_version))),
        Err(e) => e,
    };
    /// What a file that is not a current results file says it is.
    #[derive(Deserialize)]
    struct Probe {
        schema_version: Option<serde::de::IgnoredAny>,
        pitboss_version: Option<serde::de::IgnoredAny>,
        league_file: Option<serde::de::IgnoredAny>,
    }
    /// The fields only `pitboss play`'s output has at its top level.
    #[derive(Deserialize)]
    struct PlayProbe {
        #[serde(rename = "variant")]
        _variant: String,
        #[serde(rename = "house")]
        _house: i64,
        #[serde(rename = "rounds_requested")]
        _rounds_requested: Option<u64>,
    }
    if serde_json::from_str::<PlayProbe>(text).is_ok() {
        return Err(Error::PlayOutput { label: label.to_string() });
    }
    if let Ok(probe) = serde_json::from_str::<Probe>(text) {
        let version = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| v.get("schema_version").and_then(serde_json::Value::as_u64));
        match (probe.schema_version, version) {
            (Some(_), Some(v)) if v != u64::from(SCHEMA_VERSION) => {
                return Err(old_schema(label, Some(u32::try_from(v).unwrap_or(u32::MAX))));
            }
            (None, _) if probe.pitboss_version.is_some() && probe.league_file.is_some() => {
                return Err(old_schema(label, None));
            }
            _ => {}
        }
    }
    Err(Error::Syntax {
        label: label.to_string(),
        line: error.line(),
        column: error.column(),
        message: error.to_string(),
    })
}

/// The refusal of a results file of another schema version.
fn old_schema(label: &str, version: Option<u32>) -> Error {
    let was = version.map_or("was written by an older Pitboss (results schema 1)".to_string(), |v| {
        format!("has results schema {v}")
    });
    let file = Path::new(label).file_name().map_or("results.json".into(), |f| f.to_string_lossy().into_owned());
    Error::OtherSchema { label: label.to_string(), was, file }
}

impl ResultsFile {
    /// This file for the public: every bot's `log` events taken out of
    /// the stored hands (a bot's log may reveal its strategy; the
    /// organiser's copy and the run's bundle keep them). Everything else,
    /// standings and faults included, is unchanged.
    pub fn without_logs(&self) -> ResultsFile {
        let mut public = self.clone();
        for hand in public.sessions.iter_mut().filter_map(|s| s.hands.as_mut()).flatten() {
            hand.events.retain(|e| e.get("event").and_then(|v| v.as_str()) != Some(crate::names::event::LOG));
        }
        public
    }

    /// Refuses a results file that is out of the bounds any league
    /// produces or that contradicts itself: readers would otherwise draw
    /// or replay whatever they are given (a file with a million series
    /// points made a 47 MB page).
    pub fn check(&self) -> std::result::Result<(), String> {
        use crate::league::{MAX_BOT_SESSIONS, MAX_BOTS, MAX_SESSIONS};
        use crate::tally::{FAULT_LOG_CAP, FAULT_TEXTS_KEPT};
        use pitboss_engine::FAULT_LOG_BYTES;
        let r = &self.result;
        let bots = r.standings.len();
        if bots == 0 || bots > MAX_BOTS || self.bots.len() != bots {
            return Err(format!("it ranks {bots} bots and lists {}; a league has 1 to {MAX_BOTS}", self.bots.len()));
        }
        if r.sessions > MAX_SESSIONS || self.sessions.len() as u64 != r.sessions {
            return Err(format!(
                "it holds {} sessions but says {}; a league has at most {MAX_SESSIONS}",
                self.sessions.len(),
                r.sessions
            ));
        }
        if bots as u64 * r.sessions > MAX_BOT_SESSIONS {
            return Err(format!("{bots} bots × {} sessions is over {MAX_BOT_SESSIONS}", r.sessions));
        }
        if self.series_rounds.len() as u64 > SERIES_POINTS || self.series_rounds.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!("its series_rounds are not at most {SERIES_POINTS} increasing rounds"));
        }
        if let Some(s) =
            r.standings.iter().find(|s| s.result.name.chars().count() > 200 || s.result.fault_log.len() > FAULT_LOG_CAP)
        {
            return Err(format!(
                "bot `{}` has a name over 200 characters or over {FAULT_LOG_CAP} logged faults",
                s.result.name
            ));
        }
        if let Some(s) = r.standings.iter().find(|s| !crate::tally::fault_texts_fit(&s.result.fault_log)) {
            return Err(format!(
                "bot `{}` keeps more than {FAULT_TEXTS_KEPT} fault logs or one over {FAULT_LOG_BYTES} bytes",
                s.result.name
            ));
        }
        let mut out = vec![false; bots];
        for (k, s) in self.sessions.iter().enumerate() {
            self.check_session(k, s, &mut out)?;
        }
        for st in &r.standings {
            let Some(i) = self.bots.iter().position(|b| b.name == st.result.name) else {
                return Err(format!("bot `{}` is ranked but not among the league's bots", st.result.name));
            };
            let total: i128 = self.sessions.iter().map(|s| i128::from(s.bots[i].net)).sum();
            if total != i128::from(st.result.net) {
                return Err(format!(
                    "bot `{}` is ranked with net {} but its sessions add up to {total}",
                    st.result.name, st.result.net
                ));
            }
        }
        Ok(())
    }

    /// Session `k`'s part of [`ResultsFile::check`]; `out` holds which
    /// bots were disqualified in an earlier session.
    fn check_session(&self, k: usize, s: &SessionRecord, out: &mut [bool]) -> std::result::Result<(), String> {
        let (r, bots) = (&self.result, self.result.standings.len());
        let outside = s.key_rounds.iter().any(|key| key.round == 0 || key.round > r.rounds);
        if s.session != k as u64 || s.key_rounds.len() > KEY_ROUNDS || outside || s.bots.len() != bots {
            return Err(format!(
                "session {k} is out of order, has over {KEY_ROUNDS} key rounds, one outside the session, or not {bots} bots"
            ));
        }
        if s.hands.is_some() != (s.session < STORED_SESSIONS) {
            return Err(format!("session {k}: hands are stored for sessions 0 to {} only", STORED_SESSIONS - 1));
        }
        if let Some(hands) = &s.hands {
            let bad = hands.len() > KEY_ROUNDS + OPENING_ROUNDS as usize
                || hands.iter().any(|h| h.round == 0 || h.round > r.rounds || h.events.len() > EVENTS_PER_ROUND);
            if bad {
                return Err(format!(
                    "session {k} stores over {} hands, one outside the session, or one of over {EVENTS_PER_ROUND} events",
                    KEY_ROUNDS + OPENING_ROUNDS as usize
                ));
            }
        }
        for (i, (b, source)) in s.bots.iter().zip(&self.bots).enumerate() {
            let name = &b.name;
            if *name != source.name {
                return Err(format!("session {k}: bot {i} is `{name}`, but the league's bot {i} is `{}`", source.name));
            }
            if b.series.len() != self.series_rounds.len() {
                return Err(format!(
                    "session {k}, bot `{name}`: {} series points, not {}",
                    b.series.len(),
                    self.series_rounds.len()
                ));
            }
            if b.after_dq != out[i] {
                return Err(format!(
                    "session {k}, bot `{name}`: after_dq is {}, but the bot was {}disqualified in an earlier session",
                    b.after_dq,
                    if out[i] { "" } else { "not " }
                ));
            }
            if let Some(last) = b.series.last()
                && b.net != *last
            {
                return Err(format!("session {k}, bot `{name}`: net {} but its last balance sample is {last}", b.net));
            }
            out[i] |= b.disqualified;
        }
        Ok(())
    }
}

/// The first place where two JSON values differ, as a path and both
/// values (`sessions[2].bots[1].net: 1234 in the file, 1240 re-run`);
/// `None` when they are equal.
pub fn first_difference(file: &serde_json::Value, rerun: &serde_json::Value) -> Option<String> {
    first_difference_at(file, rerun, "")
}

/// [`first_difference`] of two values found at `path` (`sessions[3]`).
pub fn first_difference_at(file: &serde_json::Value, rerun: &serde_json::Value, path: &str) -> Option<String> {
    use serde_json::Value;
    fn short(v: Option<&Value>) -> String {
        match v {
            None => "absent".to_string(),
            Some(v) => pitboss_files::text::excerpt(&v.to_string(), 120),
        }
    }
    fn walk(a: &Value, b: &Value, at: &mut String) -> Option<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (key, va) in x {
                    let len = at.len();
                    if !at.is_empty() {
                        at.push('.');
                    }
                    at.push_str(key);
                    match y.get(key) {
                        Some(vb) => {
                            if let Some(d) = walk(va, vb, at) {
                                return Some(d);
                            }
                        }
                        None => return Some(format!("{at}: {} in the file, absent re-run", short(Some(va)))),
                    }
                    at.truncate(len);
                }
                let extra = y.keys().find(|k| !x.contains_key(*k))?;
                let sep = if at.is_empty() { "" } else { "." };
                Some(format!("{at}{sep}{extra}: absent in the file, {} re-run", short(y.get(extra))))
            }
            (Value::Array(x), Value::Array(y)) => {
                for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                    let len = at.len();
                    at.push_str(&format!("[{i}]"));
                    if let Some(d) = walk(va, vb, at) {
                        return Some(d);
                    }
                    at.truncate(len);
                }
                (x.len() != y.len()).then(|| format!("{at}: {} entries in the file, {} re-run", x.len(), y.len()))
            }
            _ if a == b => None,
            _ => Some(format!("{at}: {} in the file, {} re-run", short(Some(a)), short(Some(b)))),
        }
    }
    walk(file, rerun, &mut path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let a = json!({"sessions": [{"bots": [{"net": 1}, {"net": 1234}]}], "name": "x"});
        let b = json!({"sessions": [{"bots": [{"net": 1}, {"net": 1240}]}], "name": "x"});
        assert_eq!(first_difference(&a, &b).unwrap(), "sessions[0].bots[1].net: 1234 in the file, 1240 re-run");
        assert_eq!(first_difference(&a, &a), None);
        let c = json!({"sessions": [], "name": "x"});
        assert_eq!(first_difference(&a, &c).unwrap(), "sessions: 1 entries in the file, 0 re-run");
    }

    #[test]
    fn the_numbers_the_schema_quotes_are_the_constants() {
        assert_eq!((SCHEMA_VERSION, OPENING_ROUNDS, STORED_SESSIONS, EVENTS_PER_ROUND), (2, 5, 4, 512));
        assert_eq!(crate::tally::FAULT_LOG_CAP, 100);
        for quoted in ["version of this schema, 2", "first 5 rounds", "from 4 on", "more than 512", "at most 100"] {
            assert!(schema_json().contains(quoted), "{quoted}");
        }
    }
}
