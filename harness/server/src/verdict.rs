//! An upload from start to verdict: refused before checking (past the
//! deadline, too big, over the hourly rate, neither a wasm module nor a
//! bot's source, `.py` or `.js`, run by its language's runtime), or stored
//! by SHA-256 and checked with `pitboss check` against exactly what each
//! league plays (its rules under its limits). Every upload is recorded,
//! refusals too, up to `refused_per_hour` refusals an hour an entrant
//! (past it: 429, not recorded). An entrant has one upload in flight at a
//! time ([`crate::guards::UploadSlot`]), so counting their uploads of the
//! hour and recording this one cannot be raced.

use std::path::Path;

use pitboss_host::lang::Runtime;
use pitboss_host::text::excerpt;
use pitboss_league::check::{self, CheckReport};
use serde::Serialize;

use crate::competition::Competition;
use crate::db::{Db, Entrant, NewSubmission, Outcome, now};
use crate::error::Error;
use crate::plans::Checker;
use crate::state::App;

/// What an upload got, as the API returns it and `pitboss submit` prints.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// The submission's id.
    pub id: i64,
    pub outcome: Outcome,
    /// SHA-256 of the bytes (absent for refusals before hashing).
    pub sha256: Option<String>,
    /// One line per league (`OK …`/`FAIL …`), or the refusal.
    pub verdict: String,
    /// The full check report per league: per decision, faults and fuel.
    pub report: String,
    /// A passing submission's score ([`crate::scores`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<serde_json::Value>,
    /// Milliseconds the upload waited for a check slot before its check
    /// began (uploads go before replays, comparisons and coachings).
    pub waited_ms: u64,
}

/// An upload to judge.
pub struct Upload<'a> {
    pub entrant: &'a Entrant,
    /// The file name the entrant gave (shown back to them only).
    pub file_name: &'a str,
    pub bytes: &'a [u8],
}

/// When this server started checking (Unix seconds): a failed check
/// since then stands for the same bytes, since the leagues' limits are
/// what they were; one from before a restart is checked again.
pub static STARTED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

impl Db {
    /// `entrant`'s latest submission of the module `sha256` that failed
    /// its check at or after `since`: its id and verdict.
    pub fn failed_before(&self, entrant: i64, sha256: &str, since: u64) -> Result<Option<(i64, String)>, Error> {
        use rusqlite::OptionalExtension;
        let sql = "SELECT id, verdict FROM submissions WHERE entrant = ?1 AND sha256 = ?2 AND outcome = 'failed'
                   AND created >= ?3 ORDER BY id DESC LIMIT 1";
        let found = self
            .lock()
            .query_row(sql, rusqlite::params![entrant, sha256, since as i64], |r| Ok((r.get(0)?, r.get(1)?)));
        Ok(found.optional()?)
    }
}

/// Judges and records an upload (blocking: the check plays bots).
pub fn judge(app: &App, up: &Upload<'_>) -> Result<Verdict, Error> {
    let (dir, db, checker) = (app.dir.as_path(), app.db.as_ref(), &app.checker);
    let file_name = excerpt(up.file_name, 100);
    let record = |outcome: Outcome, sha: Option<&str>, verdict: &str, report: &str| -> Result<Verdict, Error> {
        let id = db.add_submission(&NewSubmission {
            entrant: up.entrant.id,
            file_name: &file_name,
            size: up.bytes.len() as u64,
            sha256: sha,
            outcome,
            verdict,
            report,
        })?;
        Ok(Verdict {
            id,
            outcome,
            sha256: sha.map(str::to_string),
            verdict: verdict.into(),
            report: report.into(),
            score: None,
            waited_ms: 0,
        })
    };
    if let Some(why) = refusal(db, &app.competition, up)? {
        return record(Outcome::Refused, None, &why, "");
    }
    let sha = pitboss_league::bots::sha256_hex(up.bytes);
    if let Some((id, verdict)) = db.failed_before(up.entrant.id, &sha, *STARTED.get_or_init(now))? {
        let first = verdict.lines().next().unwrap_or_default();
        let why = format!(
            "refused: you already uploaded this exact file (#{id}): it failed, and was not checked again ({first})"
        );
        return record(Outcome::Refused, Some(&sha), &why, "");
    }
    let path = app.modules.start(dir, &sha, up.bytes, Runtime::of(up.file_name))?;
    let (outcome, lines, reports) = check_all(checker, &path, &file_name);
    // What the entrant reads names no file of the server's.
    let (lines, reports) = (app.public_text(&lines), app.public_text(&reports));
    let mut recorded = record(outcome, Some(&sha), &lines, &reports);
    app.modules.finish(dir, db, &sha, outcome == Outcome::Passed && recorded.is_ok())?;
    if let Ok(v) = &mut recorded
        && v.outcome == Outcome::Passed
    {
        v.score = Some(crate::scores::score(app, up.entrant, v.id, &sha)?).filter(|s| !s.is_null());
    }
    recorded
}

/// Checks the module at `path` against every league's plan: the
/// outcome, the verdict (with more than one league, a first line that
/// names the leagues that refuse it, then one line per league), and the
/// full reports. The module's stored path is shown as the file the
/// entrant uploaded, so a fault's replay command is one they can run.
pub fn check_all(checker: &Checker, path: &Path, file_name: &str) -> (Outcome, String, String) {
    let mut lines = Vec::new();
    let mut reports = Vec::new();
    let mut failing = Vec::new();
    for (name, plan) in &checker.plans {
        let mut report: CheckReport = check::check(path, plan);
        report.file = file_name.to_string();
        if !report.passed {
            failing.push(format!("`{name}`"));
        }
        let prefix = if checker.plans.len() > 1 { format!("{name}: ") } else { String::new() };
        lines.push(format!("{prefix}{}", report.line(0)));
        reports.push(format!("{prefix}{}", report.render()));
    }
    let leagues = checker.plans.len();
    if leagues > 1 {
        let first = match failing.len() {
            0 => format!("OK in all {leagues} leagues"),
            n => format!(
                "FAIL in {n} of {leagues} leagues ({}): a bot plays only if every league admits it",
                failing.join(", ")
            ),
        };
        lines.insert(0, first);
    }
    let outcome = if failing.is_empty() { Outcome::Passed } else { Outcome::Failed };
    let own = |text: String| for_entrants(&text.replace(&check::shown(path), &shell_word(file_name)));
    (outcome, own(lines.join("\n")), own(reports.join("\n")))
}

/// `name` as one word of a shell command: as it is when it needs no
/// quoting, else in single quotes.
fn shell_word(name: &str) -> String {
    if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-/+".contains(&b)) {
        name.to_string()
    } else {
        format!("'{}'", name.replace('\'', "'\\''"))
    }
}

/// A check's text as an entrant reads it: the flags and league keys that
/// raise a limit are the organiser's here, so a refusal says whose
/// limit it is instead.
fn for_entrants(text: &str) -> String {
    pitboss_host::Raisable::ALL.iter().fold(text.to_string(), |text, r| {
        text.replace(
            &r.how_to_raise(),
            &format!("this competition's limit (the organiser's `{}` under [limits])", r.key()),
        )
    })
}

/// Why an upload is refused before it is checked, if it is.
fn refusal(db: &Db, competition: &Competition, up: &Upload<'_>) -> Result<Option<String>, Error> {
    let now = now();
    let per_hour = competition.uploads.per_hour;
    let (checked, refused) = db.uploads_since(up.entrant.id, now.saturating_sub(3600))?;
    let refused_cap = competition.server.refused_per_hour;
    if refused >= refused_cap {
        return Err(Error::Limited(
            format!("{refused} refused uploads in the last hour (at most {refused_cap} are recorded); try later"),
            600,
        ));
    }
    if let Some(deadline) = competition.deadline
        && now > deadline
    {
        let when = crate::competition::format_time(deadline);
        return Ok(Some(format!("refused: the submission deadline ({when}) has passed")));
    }
    let max = competition.uploads.max_bytes;
    if up.bytes.len() > max {
        return Ok(Some(format!("refused: {}", too_big(up.bytes.len() as u64, max))));
    }
    if checked >= per_hour {
        return Ok(Some(format!("refused: over the limit of {per_hour} uploads an hour; try again later")));
    }
    if crate::store::is_source(up.bytes) && Runtime::of(up.file_name).is_none() {
        let endings: Vec<_> = Runtime::ALL.iter().map(|r| format!(".{}", r.ending())).collect();
        return Ok(Some(format!(
            "refused: not a WebAssembly module (a .wasm file starts with the bytes \\0asm), nor a bot's source \
             (send it under a name that ends in {})",
            endings.join(" or ")
        )));
    }
    Ok(None)
}

/// Why an upload of `size` bytes is refused under a limit of
/// `max_bytes`: the size, the limit and the competition file's key.
pub fn too_big(size: u64, max_bytes: usize) -> String {
    format!(
        "this upload is {} KiB ({size} bytes), over this competition's limit of {} KiB \
         (`max_kib = {}` under [uploads] in the competition file, the organiser's)",
        size.div_ceil(1024),
        max_bytes >> 10,
        max_bytes >> 10
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitboss_host::Raisable;

    #[test]
    fn a_refusal_names_the_competitions_limit_not_a_flag_the_entrant_cannot_use() {
        let text =
            format!("FAIL bot.wasm: out of fuel (the cap is 1000000): {}", Raisable::FuelPerDecision.how_to_raise());
        let shown = for_entrants(&text);
        assert!(!shown.contains("--max-") && !shown.contains("--league"), "{shown}");
        assert!(
            shown.ends_with("this competition's limit (the organiser's `fuel_per_decision` under [limits])"),
            "{shown}"
        );
    }
}
