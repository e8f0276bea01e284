//! The organiser's grades export (`GET /api/grades.csv`): one row per
//! registered entrant, those who never played included, from the latest
//! finished run (the final one once it has run), with the figures a
//! teacher grades by. Text fields go through [`csv_field`].

use std::collections::BTreeMap;

use crate::competition::format_time;
use crate::db::{Db, Entrant};
use crate::error::Error;
use crate::runs::latest_and_runs;
use crate::state::App;
use crate::worker::{LeagueStandings, Summary};

/// An entrant's uploads: how many, how many passed, the latest's time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uploads {
    pub count: u64,
    pub passed: u64,
    pub last: Option<u64>,
}

impl Db {
    /// Every entrant's [`Uploads`], by entrant id.
    pub fn upload_counts(&self) -> Result<BTreeMap<i64, Uploads>, Error> {
        let conn = self.lock();
        let mut stmt = conn.prepare(
            "SELECT entrant, COUNT(*), SUM(outcome = 'passed'), MAX(created) FROM submissions GROUP BY entrant",
        )?;
        let rows = stmt.query_map([], |r| {
            let uploads = Uploads {
                count: r.get::<_, i64>(1)? as u64,
                passed: r.get::<_, i64>(2)? as u64,
                last: r.get::<_, Option<i64>>(3)?.map(|t| t as u64),
            };
            Ok((r.get::<_, i64>(0)?, uploads))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// The grades CSV (blocking): its header, then a row per entrant in
/// overall order, then those who did not play (by name).
pub fn grades_csv(app: &App) -> Result<String, Error> {
    let (latest, _) = latest_and_runs(app, 1)?;
    let entrants = app.db.entrants()?;
    let uploads = app.db.upload_counts()?;
    let mut playing = Vec::new();
    let mut others = Vec::new();
    for e in &entrants {
        let at = latest.as_ref().and_then(|s| {
            let name = s.name_of(e)?;
            s.overall.iter().position(|o| o.name == name)
        });
        match at {
            Some(at) => playing.push((at, e)),
            None => others.push(e),
        }
    }
    playing.sort_by_key(|(at, _)| *at);
    let leagues: &[LeagueStandings] = latest.as_ref().map_or(&[], |s| &s.leagues);
    let several = leagues.len() > 1;
    let mut csv = String::from("run,final,overall_rank,entrant,points,net,status");
    for l in leagues {
        let prefix = if several { format!("{} ", l.name) } else { String::new() };
        let names: &[&str] = if several {
            &["rank", "ev_pct", "ev_ci95_pct", "luck_ev_pct", "luck_ci95_pct", "faults"]
        } else {
            &["ev_pct", "ev_ci95_pct", "luck_ev_pct", "luck_ci95_pct", "faults"]
        };
        for n in names {
            csv.push(',');
            csv.push_str(&csv_field(&format!("{prefix}{n}")));
        }
    }
    csv.push_str(",uploads,passed,last_upload\n");
    let (run, fin) = match &latest {
        Some(s) => (s.run.to_string(), if s.final_run { "yes" } else { "no" }),
        None => (String::new(), "no"),
    };
    let tail = |e: &Entrant| {
        let u = uploads.get(&e.id).copied().unwrap_or_default();
        let last = u.last.map(format_time).unwrap_or_default();
        format!("{},{},{}", u.count, u.passed, csv_field(&last))
    };
    for (at, e) in &playing {
        let Some(s) = &latest else { continue };
        let o = &s.overall[*at];
        let mut fields = vec![
            run.clone(),
            fin.into(),
            o.rank.to_string(),
            csv_field(&e.name),
            o.points.to_string(),
            o.net.to_string(),
        ];
        fields.push(csv_field(&status(s, &o.name)));
        for l in leagues {
            let row = l.rows.iter().find(|r| r.name == o.name);
            if several {
                fields.push(row.map_or_else(String::new, |r| r.rank.to_string()));
            }
            let figure = |v: Option<f64>| v.map_or_else(String::new, |v| format!("{v:.4}"));
            fields.push(figure(row.map(|r| r.ev_pct)));
            fields.push(figure(row.map(|r| r.ev_ci95_pct)));
            fields.push(figure(row.and_then(|r| r.luck_ev_pct)));
            fields.push(figure(row.and_then(|r| r.luck_ci95_pct)));
            fields.push(row.map_or_else(String::new, |r| r.faults.to_string()));
        }
        fields.push(tail(e));
        csv.push_str(&fields.join(","));
        csv.push('\n');
    }
    others.sort_by(|a, b| a.name.cmp(&b.name));
    let empty = leagues.len() * if several { 6 } else { 5 };
    for e in others {
        let passed = uploads.get(&e.id).is_some_and(|u| u.passed > 0);
        let why = if e.disabled {
            "disabled"
        } else if !passed {
            "no passing bot"
        } else {
            "not in this run"
        };
        let mut fields =
            vec![run.clone(), fin.into(), String::new(), csv_field(&e.name), String::new(), String::new(), why.into()];
        fields.extend(std::iter::repeat_n(String::new(), empty));
        fields.push(tail(e));
        csv.push_str(&fields.join(","));
        csv.push('\n');
    }
    Ok(csv)
}

/// How a bot that played ended: `played`, or where it went broke or was
/// disqualified (`broke`, `DQ`; with several leagues, `DQ in NAME`).
fn status(s: &Summary, name: &str) -> String {
    let out: Vec<String> = s
        .leagues
        .iter()
        .filter_map(|l| {
            let r = l.rows.iter().find(|r| r.name == name)?;
            let several = s.leagues.len() > 1;
            (!r.status.is_empty())
                .then(|| if several { format!("{} in {}", r.status, l.name) } else { r.status.clone() })
        })
        .collect();
    if out.is_empty() { "played".into() } else { out.join("; ") }
}

/// A CSV field: quoted when it holds a comma, quote or line break, and
/// prefixed with `'` when a spreadsheet would read it as a formula.
pub fn csv_field(text: &str) -> String {
    let text = pitboss_host::text::excerpt(text, 200);
    let text = if text.starts_with(['=', '+', '-', '@']) { format!("'{text}") } else { text };
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
}

/// A CSV file as a download named `name`.
pub fn csv_download(name: &str, csv: String) -> axum::response::Response {
    use axum::http::header;
    use axum::response::IntoResponse;
    let disposition = format!("attachment; filename=\"{name}\"");
    ([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, disposition)], csv)
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::csv_field;

    #[test]
    fn a_csv_field_is_quoted_and_never_a_formula() {
        assert_eq!(csv_field("ann"), "ann");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=1+1"), "'=1+1");
        assert_eq!(csv_field("-2,3"), "\"'-2,3\"");
    }
}
