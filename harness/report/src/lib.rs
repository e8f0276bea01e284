//! `pitboss report RESULTS.json -o report.html`: one self-contained page
//! (inline CSS, SVG and a little JavaScript; nothing fetched) with the
//! standings, every bot's chips over the rounds, EV with its interval,
//! what each bot did, its faults, and a hand viewer that steps through
//! replayed rounds card by card; given the coach's JSON ([`report_with`]),
//! a coach section too ([`coach_section`] draws it alone, for the server).
//!
//! Charts are drawn here, in Rust, as SVG (`svg`). The page's size does
//! not grow with rounds: each session keeps
//! [`pitboss_results::SERIES_POINTS`] balance samples per bot, and
//! the viewer holds a handful of rounds. The page is made from the results
//! file alone: the viewer's rounds are the events stored in it while the
//! league played.
//!
//! The HTML is written with `maud`, so every name and message from the
//! results is escaped by construction; only our own CSS and script
//! (`assets/`, included at build time) and the viewer's JSON go in raw.
//! `page` lays out the page, `section` holds one module per section, all
//! reading a `context::Context`; `counts` is the one place that reads the
//! tally's counters.
//!
//! ```no_run
//! use pitboss_report::{ReportRequest, write_report};
//! let req = ReportRequest { results: "results.json".into(), session: 0, opening_rounds: 5 };
//! if let Some(warning) = write_report(&req, "report.html".as_ref())? {
//!     eprintln!("{warning}");
//! }
//! # Ok::<(), anyhow::Error>(())
//! ```

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use pitboss_results::coach::Report as CoachReport;

mod context;
pub mod cost;
mod counts;
mod format;

/// Thousands grouped, as every page and bar writes counts.
pub use format::whole;
mod page;
pub mod round;
mod section;
mod svg;
mod viewer;

/// What to report.
#[derive(Clone, Debug)]
pub struct ReportRequest {
    /// The league's `results.json`.
    pub results: PathBuf,
    /// The session whose hands the viewer shows (0-based).
    pub session: u64,
    /// Opening rounds of the session's first table shown beside its
    /// deciding hands (of the [`pitboss_results::OPENING_ROUNDS`]
    /// stored).
    pub opening_rounds: u64,
}

/// Builds the report page from the results file alone: no league or bot
/// file is read (the viewer's hands are stored in the results). A session
/// whose hands are not stored gets the page without the viewer, and the
/// returned warning says why.
pub fn report(req: &ReportRequest) -> Result<(String, Option<String>)> {
    report_with(req, &[])
}

/// [`report`] with a coach section drawn from `coach` (each read with
/// [`pitboss_results::coach::read`], which checks it); none: no section.
pub fn report_with(req: &ReportRequest, coach: &[CoachReport]) -> Result<(String, Option<String>)> {
    let path = &req.results;
    let results = pitboss_results::open(path)?;
    if req.session >= results.result.sessions {
        bail!(
            "--session {} is outside the league: it has {} session(s), counted from 0",
            req.session,
            results.result.sessions
        );
    }
    let (viewer, warning) = match viewer::data(&results, path, req.session, req.opening_rounds) {
        Ok(data) => (data, None),
        Err(e) => {
            let reason = format!("{e:#}");
            (serde_json::json!({ "unavailable": reason }), Some(format!("hand viewer left out: {reason}")))
        }
    };
    let results_name =
        req.results.file_name().map_or_else(|| "results.json".into(), |n| n.to_string_lossy().into_owned());
    let cx = context::Context::new(&results, req.session, &results_name, coach);
    Ok((page::page(&cx, &viewer).into_string(), warning))
}

/// Writes the report of `req` to `out` (atomically); returns the warning
/// about the hand viewer, if any.
pub fn write_report(req: &ReportRequest, out: &Path) -> Result<Option<String>> {
    write_report_with(req, &[], out)
}

/// [`write_report`] with a coach section ([`report_with`]).
pub fn write_report_with(req: &ReportRequest, coach: &[CoachReport], out: &Path) -> Result<Option<String>> {
    let (html, warning) = report_with(req, coach)?;
    pitboss_results::output::write_text(out, &html)?;
    Ok(warning)
}

/// The coach section's markup from the JSON of `pitboss coach --json` (or
/// `pitboss_coach::coach_league`'s report serialized), for a page of the
/// server's own; the JSON is checked as a coach file is
/// ([`pitboss_results::coach::from_value`]), and refused in one line. The
/// section expects [`COACH_CSS`] on the page.
pub fn coach_section(json: &serde_json::Value) -> Result<maud::Markup> {
    let report = pitboss_results::coach::from_value(json, "coach report")?;
    Ok(section::coach::section(std::slice::from_ref(&report)))
}

/// The coach section's styles (the report page includes them).
pub const COACH_CSS: &str = page::COACH_CSS;
