//! Files for programs and spreadsheets: JSON and text written whole or not
//! at all, and the standings as CSV.

use std::io::Write;
use std::path::Path;

use pitboss_files::files::{self, FileError};
use serde::Serialize;

use crate::schema::{Standing, Status};

/// A text cell of a CSV file: RFC 4180 quoting, and a cell that a
/// spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`,
/// a tab or a carriage return) is prefixed with `'`, so a bot named
/// `=HYPERLINK(…)` stays text.
pub fn csv_cell(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{text}") } else { text.to_string() };
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
}

/// The standings as CSV (RFC 4180 quoting; names neutralised by
/// [`csv_cell`]).
pub fn standings_csv(standings: &[Standing]) -> String {
    let quote = csv_cell;
    // Luck-adjusted columns only where the results have them, so a
    // league without them writes the CSV it always wrote.
    let luck = standings.iter().any(|s| s.luck_ev_pct.is_some());
    let mut out = String::from(
        "rank,bot,status,final_chips,net_chips,rounds_played,ev_pct,ev_ci95_low_pct,ev_ci95_high_pct,faults,broke_sessions,ahead_of_next",
    );
    out.push_str(if luck { ",luck_ev_pct,luck_ev_ci95_low_pct,luck_ev_ci95_high_pct" } else { "" });
    // The session-by-session test's verdict where the results have one.
    let vs_next = standings.iter().any(|s| s.result.vs_next.is_some());
    out.push_str(if vs_next { ",vs_next_on,vs_next\n" } else { "\n" });
    for s in standings {
        let r = &s.result;
        let status = match s.status {
            Status::Active => "active",
            Status::Broke => "broke",
            Status::Disqualified => "disqualified",
        };
        out.push_str(&format!(
            "{},{},{status},{},{},{},{:.4},{:.4},{:.4},{},{},{}",
            s.rank,
            quote(&r.name),
            r.balance,
            r.net,
            r.rounds,
            s.ev_pct,
            s.ev_pct - s.ev_ci95_pct,
            s.ev_pct + s.ev_ci95_pct,
            r.faults,
            r.broke_sessions,
            s.ahead_of_next.map_or(String::new(), |a| a.to_string())
        ));
        if luck {
            let (ev, ci) = (s.luck_ev_pct.unwrap_or(s.ev_pct), s.luck_ci95_pct.unwrap_or(s.ev_ci95_pct));
            out.push_str(&format!(",{ev:.4},{:.4},{:.4}", ev - ci, ev + ci));
        }
        if vs_next {
            let (on, gap) = match s.result.vs_next {
                Some(v) => (v.on.name(), v.gap.name()),
                None => ("", ""),
            };
            out.push_str(&format!(",{on},{gap}"));
        }
        out.push('\n');
    }
    out
}

/// Writes `text` to `path` whole or not at all (see
/// [`pitboss_files::files::Output`]): a uniquely named temp file beside it,
/// renamed into place once written and synced; any write error is
/// returned, naming the file, and leaves no temp file behind.
pub fn write_text(path: &Path, text: &str) -> Result<(), FileError> {
    files::write_atomic(path, |out| out.write_all(text.as_bytes()))
}

/// Writes `value` as pretty JSON to `path`, whole or not at all, like
/// [`write_text`]: no reader ever sees half a file.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), FileError> {
    files::write_atomic(path, |out| {
        serde_json::to_writer_pretty(&mut *out, value)?;
        out.write_all(b"\n")
    })
}
