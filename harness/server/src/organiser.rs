//! The organiser's page: the entrants (active bot by its file name, last
//! upload and its outcome, when last seen, how they did in the latest run), with buttons to disable, re-enable or remove one and to give
//! one a new token; a form to add one; buttons to run now and for the
//! final run, and once that has finished (the standings frozen), one to
//! publish its reports instead; and the runs
//! with their reports and bundles, and a form to replay more of an
//! imported run's sessions ([`crate::verification`]). Every form carries
//! the session's CSRF token.

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use maud::{Markup, html};
use pitboss_host::text::excerpt;

use crate::answer::Answer;
use crate::auth::{AdminVisitor, Session};
use crate::competition::format_time;
use crate::csrf::CsrfForm;
use crate::entrants::{self, Action, refused_registration};
use crate::error::Error;
use crate::import::Replay;
use crate::page::{PageForm, SHOWN_TEXT, link, page, refuse};
use crate::paths::run_dir;
use crate::runs::{final_run, frozen, latest_and_runs, publish_final, queue_unless_frozen, reports_of};
use crate::state::{App, Shared};
use pitboss_report::cost::{CostCells, cost_cells_of};

/// `GET /admin`.
pub async fn admin(State(app): State<Shared>, AdminVisitor(session): AdminVisitor) -> Answer {
    admin_page(&app, &session, None).await
}

async fn admin_page(app: &Shared, session: &Session, note: Option<Markup>) -> Answer {
    let (entrants, runs, latest, verified, (frozen, published)) = app
        .blocking(move |app| {
            let mut rows = Vec::new();
            let seen = app.db.last_seen()?;
            for e in app.db.entrants()? {
                let subs = app.db.submissions(e.id)?;
                let active = subs.iter().find(|s| s.active).cloned();
                let last = subs.into_iter().next();
                let seen = seen.get(&e.id).copied();
                rows.push((e, active, last, seen));
            }
            let mut runs = Vec::new();
            for r in app.db.runs(50)? {
                let reports = if r.state == "done" { reports_of(app, r.id) } else { Vec::new() };
                let shards = if app.competition.slurm.is_some() { app.db.shard_progress(r.id)? } else { Vec::new() };
                let progress = app.bell.progress.of(r.id);
                runs.push((r, reports, shards, progress));
            }
            let ended = (app.db.frozen()?, app.db.published()?);
            Ok((rows, runs, latest_and_runs(app, 1)?.0, app.db.verifications()?, ended))
        })
        .await?;
    let costs: Vec<Vec<CostCells>> =
        latest.as_ref().map_or_else(Vec::new, |s| s.leagues.iter().map(league_costs).collect());
    // By the entrant's id, as "Latest run": per league, its name, cap
    // and the entrant's cells.
    let cost = |e: &crate::db::Entrant| -> Vec<(String, Option<u64>, CostCells)> {
        let (Some(summary), Some(name)) = (&latest, latest.as_ref().and_then(|s| s.name_of(e))) else {
            return Vec::new();
        };
        let of = |(l, cells): (&crate::worker::LeagueStandings, &Vec<CostCells>)| {
            Some((l.name.clone(), l.fuel_per_decision, cells.iter().find(|c| c.name == name)?.clone()))
        };
        summary.leagues.iter().zip(&costs).filter_map(of).collect()
    };
    let latest = |e: &crate::db::Entrant| -> Vec<String> {
        let Some(summary) = &latest else { return Vec::new() };
        // By the entrant's id: a name removed and registered again is
        // not the bot that played.
        let Some(name) = summary.name_of(e) else { return Vec::new() };
        let row = |l: &crate::worker::LeagueStandings| {
            let r = l.rows.iter().find(|r| r.name == name)?;
            let out = if r.status.is_empty() { String::new() } else { format!(" {}", r.status) };
            Some(format!("{}: #{}{out}, {} fault(s)", l.name, r.rank, r.faults))
        };
        summary.leagues.iter().filter_map(row).collect()
    };
    let csrf = &session.csrf;
    let manage = |name: &str, action: &str, label: &str| {
        html! { form.inline method="post" action="/admin/entrant" {
        input type="hidden" name="csrf" value=(csrf); input type="hidden" name="name" value=(name);
        input type="hidden" name="action" value=(action);
        button class=[(action == "remove").then_some("danger")] { (label) } } }
    };
    let body = html! {
        h1 { "Organiser" }
        @if let Some(note) = note { div.note { (note) } }
        form method="post" action="/admin/entrants" { input type="hidden" name="csrf" value=(csrf);
            label for="name" { "New entrant" } input id="name" name="name" required; button { "Add" } }
        @match frozen {
            None => {
                form method="post" action="/admin/runs" { input type="hidden" name="csrf" value=(csrf); button id="run" { "Run now" } }
                form method="post" action="/admin/final" { input type="hidden" name="csrf" value=(csrf);
                    button id="final" { "Final run (after the deadline; freezes the standings)" } }
            }
            Some(run) if published == Some(run) || app.competition.public_reports => {
                p id="published" { "Final run " (run) " has finished: the standings are frozen. "
                    strong { "Published" } ": everyone opens its reports from the leaderboard." }
            }
            Some(run) => {
                p { "Final run " (run) " has finished: the standings are frozen. Its reports are yours alone until you publish them." }
                form method="post" action="/admin/publish" { input type="hidden" name="csrf" value=(csrf);
                    button id="publish" { "Publish the final report" } }
            }
        }
        h2 { "Entrants (" (entrants.len()) " of at most " (app.competition.max_entrants) ")" }
        p { a href="/admin/submissions" { "The submission log" } " · " a href="/api/leaderboard.csv" { "standings as CSV" }
            " · " a #grades href="/admin/grades.csv" { "grades as CSV" } " (every entrant, with season points)"
            " · " a #similarity href="/admin/similarity" { "similarity" } " (bots that decide alike)" }
        div.scroll { table.cards id="entrants" { thead { tr { th { "Entrant" } th { "Active bot" } th { "Last upload" } th { "Last seen" } th { "Latest run" }
            th title="the latest run: each bot's mean fuel a decision · its share of all the bots' decision fuel" { "Cost" } } }
            tbody { @for (e, active, last, seen) in &entrants { tr id=(format!("entrant-{}", e.name)) {
            td.name { strong { (e.name) } @if e.disabled { " " span.disabled { "DISABLED" } }
                div.actions {
                    @if e.disabled { (manage(&e.name, "enable", "Enable")) } @else { (manage(&e.name, "disable", "Disable")) }
                    (manage(&e.name, "token", "New token")) (manage(&e.name, "remove", "Remove…"))
                } }
            td.file data-label="Active bot" { @match active { Some(s) => { span.file title=(active_title(s)) { "#" (s.id) " " (short_name(&s.file_name)) } }, None => "none" } }
            td data-label="Last upload" { @match last { Some(s) => { (format_time(s.created)) " " (format!("{:?}", s.outcome).to_lowercase()) }, None => "never" } }
            td.seen data-label="Last seen" { @match seen { Some(t) => (format_time(*t)), None => "never" } }
            td.latest data-label="Latest run" { @for line in latest(e) { (line) br; } }
            td.cost data-label="Cost" { @for (league, cap, c) in cost(e) {
                span title=(cost_title(&league, cap, &c)) class=[c.hog.then_some("hog")] {
                    @if c.share_permille.is_some() { (c.mean) " · " (c.share) } @else { (c.mean) } } br; } }
        } } } } }
        @if costs.iter().any(|c| !c.is_empty()) {
            p.note id="cost-legend" { "Cost: mean fuel a decision · share of the latest run's decision fuel (in bold: more than half, of three bots or more; "
                "native: a builtin, no fuel); the same on every machine, start-up not counted." }
        }
        h2 { "Runs" }
        div.scroll { table id="admin-runs" { thead { tr { th { "Run" } th { "State" } th { "Why" } th { "" } } }
            tbody { @for (r, reports, shards, progress) in &runs { tr { td { (r.id) } td { (r.state) @if let Some(e) = &r.error { ": " (excerpt(e, 500)) }
                @if let Some(p) = progress { br; span.progress id=(format!("progress-{}", r.id)) { (p.line()) } }
                @for (folder, p) in shards { br; span.shards { (folder) " on Slurm: shards done " (p.done) "/" (p.shards) ", running " (p.running)
                    ", pending " (p.pending) ", resubmitted " (p.retried) } } } td { (r.reason)
                @if let Some(v) = verified.get(&r.id) { br; span.verified id=(format!("verified-{}", r.id)) { (v.line()) }
                    @if v.state != "replaying" && (v.replayed.len() as u64) < v.sessions {
                        form.inline method="post" action=(format!("/admin/runs/{}/verify", r.id)) {
                            input type="hidden" name="csrf" value=(csrf);
                            label { "Replay " input name="sessions" value="all" size="5" aria-label="sessions to replay"; " more session(s) " }
                            button { "Replay" } } } } }
                td { @if r.state == "done" { a href=(format!("/api/runs/{}/bundle.tar", r.id)) { "bundle" } }
                    @for l in reports { " · " a href=(format!("/runs/{}/{l}/report.html", r.id)) { (l) " report" } } } } } } } }
    };
    Ok(page("Organiser", Some(session), body))
}

/// The cost cells of a league's rows (none in runs from before costs
/// were kept, or of builtins alone).
fn league_costs(l: &crate::worker::LeagueStandings) -> Vec<CostCells> {
    let bots: Vec<(&str, Option<&pitboss_results::Cost>)> =
        l.rows.iter().map(|r| (r.name.as_str(), r.cost.as_ref())).collect();
    cost_cells_of(&bots, l.fuel_per_decision.unwrap_or(0))
}

/// A cost cell's whole story, for its tooltip.
fn cost_title(league: &str, cap: Option<u64>, c: &CostCells) -> String {
    if c.share_permille.is_none() {
        return format!("{league}: a builtin, run natively: no fuel");
    }
    format!(
        "{league}: mean {} fuel a decision (largest {}; {} of the cap of {}), {} of the run's decision fuel",
        c.mean,
        c.max,
        c.of_cap,
        pitboss_report::whole(cap.unwrap_or(0)),
        c.share
    )
}

/// Most characters of a file name the entrants' table shows.
const SHOWN_NAME: usize = 32;

/// A file name as the entrants' table shows it: at most [`SHOWN_NAME`]
/// characters, a long one cut in the middle (`alices-bot…final.wasm`:
/// its start and its ending say most), control characters escaped.
fn short_name(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= SHOWN_NAME {
        return excerpt(name, SHOWN_NAME);
    }
    let (head, tail) = (SHOWN_NAME / 2, SHOWN_NAME - SHOWN_NAME / 2 - 1);
    let part = |cs: &[char]| excerpt(&cs.iter().collect::<String>(), SHOWN_NAME);
    format!("{}…{}", part(&chars[..head]), part(&chars[chars.len() - tail..]))
}

/// The active bot's hover text: its whole file name and SHA-256.
fn active_title(s: &crate::db::Submission) -> String {
    let sha = s.sha256.as_deref().unwrap_or("");
    format!("#{} {} (SHA-256 {sha})", s.id, excerpt(&s.file_name, 1_000))
}

/// `POST /admin/entrants` (`csrf`, `name`): the new token is shown once.
pub async fn admin_add(
    State(app): State<Shared>,
    AdminVisitor(session): AdminVisitor,
    CsrfForm(form): CsrfForm<PageForm>,
) -> Answer {
    let name = form.name.unwrap_or_default();
    let shown = name.clone();
    let max = app.competition.max_entrants;
    let note = match app.blocking(move |app| Ok(entrants::register(&app.db, &name, max))).await? {
        Ok(token) => html! { p { "Entrant " (shown) "'s token (shown once): " code id="token" { (token) } } },
        Err(e) if refused_registration(&e).is_some() => html! { p.error { (e.to_string()) } },
        Err(e) => return Err(e.into()),
    };
    admin_page(&app, &session, Some(note)).await
}

/// `POST /admin/entrant` (`csrf`, `name`, `action`: `disable`, `enable`,
/// `remove` or `token`).
pub async fn admin_entrant(
    State(app): State<Shared>,
    AdminVisitor(session): AdminVisitor,
    CsrfForm(form): CsrfForm<PageForm>,
) -> Answer {
    let Some(action) = form.action.as_deref().and_then(Action::parse) else {
        return Ok(refuse(StatusCode::BAD_REQUEST, "No such action: disable, enable, remove or token."));
    };
    let name = form.name.unwrap_or_default();
    if action == Action::Remove && form.confirm.as_deref() != Some("yes") {
        return Ok(confirm_removal(&session, &name));
    }
    let note = match app.blocking(move |app| entrants::manage(app, &name, action)).await? {
        None => html! { p.error { "No such entrant." } },
        Some((e, Some(token))) => {
            html! { p { "Entrant " (e.name) "'s new token (shown once): " code id="token" { (token) } } }
        }
        Some((e, None)) => html! { p { "Entrant " (e.name) ": " (format!("{action:?}").to_lowercase()) " done." } },
    };
    admin_page(&app, &session, Some(note)).await
}

/// Removing cannot be undone, so the button asks first: this page says
/// what goes, and its own form sends `confirm=yes`.
fn confirm_removal(session: &Session, name: &str) -> axum::response::Response {
    let body = html! {
        h1 { "Remove " (name) "?" }
        p.error #confirm-remove { "Removing " strong { (name) } " deletes their token, their sessions, every submission and \
            its verdict, and their modules. It cannot be undone. To keep all that but stop them taking part, disable them instead." }
        form method="post" action="/admin/entrant" {
            input type="hidden" name="csrf" value=(session.csrf); input type="hidden" name="name" value=(name);
            input type="hidden" name="action" value="remove"; input type="hidden" name="confirm" value="yes";
            button.danger #remove-for-good { "Remove " (name) " for good" }
            a href="/admin" { "Cancel" }
        }
    };
    page("Remove an entrant?", Some(session), body)
}

/// `POST /admin/runs` (`csrf`): queue a run now.
pub async fn admin_run(
    State(app): State<Shared>,
    AdminVisitor(session): AdminVisitor,
    _: CsrfForm<PageForm>,
) -> Answer {
    let note = match app.blocking(queue_unless_frozen).await? {
        Some(id) => html! { p { "Run " (id) " queued." } },
        None => html! { p.error { (frozen().text) } },
    };
    app.bell.wake();
    admin_page(&app, &session, Some(note)).await
}

/// `POST /admin/final` (`csrf`): queue the final run (after the deadline,
/// once); when it has finished, the leaderboard shows it for good.
pub async fn admin_final(
    State(app): State<Shared>,
    AdminVisitor(session): AdminVisitor,
    _: CsrfForm<PageForm>,
) -> Answer {
    let note = match app.blocking(final_run).await? {
        Ok(id) => html! { p { "Final run " (id) " queued: when it has finished, the standings are frozen." } },
        Err(refused) => html! { p.error { (refused.text) } },
    };
    app.bell.wake();
    admin_page(&app, &session, Some(note)).await
}

/// `POST /admin/publish` (`csrf`): publish the finished final run's
/// reports to everyone.
pub async fn admin_publish(
    State(app): State<Shared>,
    AdminVisitor(session): AdminVisitor,
    _: CsrfForm<PageForm>,
) -> Answer {
    let note = match app.blocking(publish_final).await? {
        Ok(id) => html! { p { "Final run " (id) "'s reports published: everyone opens them from the leaderboard." } },
        Err(refused) => html! { p.error { (refused.text) } },
    };
    admin_page(&app, &session, Some(note)).await
}

/// `GET /admin/grades.csv`: the grades export for the organiser's
/// browser, as `/api/grades.csv` gives it to their token.
pub async fn admin_grades(State(app): State<Shared>, _: AdminVisitor) -> Answer {
    Ok(crate::grades::csv_download("grades.csv", app.blocking(crate::grades::grades_csv).await?))
}

/// Most rows of the submission log shown.
pub const LOG_ROWS: u32 = 500;

#[derive(serde::Deserialize)]
pub struct LogFilter {
    #[serde(default)]
    entrant: Option<String>,
    #[serde(default)]
    outcome: Option<String>,
}

/// `GET /admin/submissions[?entrant=NAME&outcome=passed|failed|refused]`:
/// every entrant's uploads, newest first, filtered.
pub async fn submission_log(
    State(app): State<Shared>,
    AdminVisitor(session): AdminVisitor,
    Query(filter): Query<LogFilter>,
) -> Answer {
    let entrant = filter.entrant.filter(|e| !e.is_empty());
    let outcome = filter.outcome.filter(|o| ["passed", "failed", "refused"].contains(&o.as_str()));
    let (who, what) = (entrant.clone(), outcome.clone());
    let rows = app.blocking(move |app| app.db.submission_log(who.as_deref(), what.as_deref(), LOG_ROWS)).await?;
    let body = html! {
        h1 { "Submission log" }
        form method="get" action="/admin/submissions" {
            label for="entrant" { "Entrant" } input id="entrant" name="entrant" value=(entrant.as_deref().unwrap_or(""));
            label for="outcome" { "Outcome" }
            select id="outcome" name="outcome" {
                @for o in ["", "passed", "failed", "refused"] {
                    option value=(o) selected[outcome.as_deref() == Some(o)] { (if o.is_empty() { "any" } else { o }) }
                }
            }
            button { "Filter" }
        }
        p.small { (rows.len()) " upload(s), newest first (at most " (LOG_ROWS) ")." }
        div.scroll { table.cards id="log" { thead { tr { th { "Entrant" } th { "#" } th { "Time" } th { "File" } th { "Outcome" } th { "Verdict" } } }
            tbody { @for r in &rows { tr {
                td { (r.entrant) } td.num data-label="#" { (r.id) } td data-label="Time" { (format_time(r.created)) }
                td.file data-label="File" title=(excerpt(&r.file_name, 1_000)) { @match link(r.id, &r.file_name).filter(|_| r.outcome == "passed") {
                    Some(href) => { a href=(href) { (short_name(&r.file_name)) } }
                    None => { (short_name(&r.file_name)) }
                } } td data-label="Outcome" { (r.outcome) }
                td.message data-label="Verdict" { @if r.full_verdict.contains('\n') {
                    details { summary { (excerpt(&r.verdict, 300)) } pre { (pitboss_host::text::printable(&r.full_verdict, SHOWN_TEXT)) } }
                } @else { (excerpt(&r.verdict, 300)) } }
            } } } } }
    };
    Ok(page("Submission log", Some(&session), body))
}

/// The organiser's ask: `sessions` more (a number) or `all`.
#[derive(serde::Deserialize)]
pub struct MoreForm {
    sessions: String,
}

/// `POST /admin/runs/N/verify` (`csrf`, `sessions`: a number or `all`):
/// replays more of imported run N's sessions in the background; the
/// organiser's page shows the outcome.
pub async fn admin_verify(
    State(app): State<Shared>,
    _: AdminVisitor,
    UrlPath(run): UrlPath<i64>,
    CsrfForm(form): CsrfForm<MoreForm>,
) -> Answer {
    let asked = form.sessions.trim();
    let more = match asked {
        "all" => Replay::All,
        n => match n.parse::<u64>() {
            Ok(k) if (1..=1_000_000).contains(&k) => Replay::Sample(k),
            _ => return Ok(refuse(StatusCode::BAD_REQUEST, "sessions: a number from 1, or `all`")),
        },
    };
    let started = app
        .blocking(move |app| {
            let Some(mut v) = app.db.verification(run)? else { return Ok(false) };
            if v.state == "replaying" {
                return Ok(true);
            }
            v.state = "replaying".into();
            app.db.set_verification(run, &v)?;
            Ok(true)
        })
        .await?;
    if !started {
        return Ok(refuse(StatusCode::NOT_FOUND, "no such imported run"));
    }
    // Replaying may take as long as the run did: in the background, after
    // a check slot, so uploads and pages go on.
    let slot = app.guards.check_slot().await?;
    let worker = app.clone();
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        if let Err(e) = replay_more(&worker, run, more) {
            eprintln!("pitboss serve: run {run}: replaying more sessions: {e}");
        }
    });
    Ok(Redirect::to("/admin").into_response())
}

/// Replays `more` of imported run `run`'s sessions not yet replayed and
/// records the outcome (blocking).
fn replay_more(app: &App, run: i64, more: Replay) -> Result<(), Error> {
    let Some(mut v) = app.db.verification(run)? else { return Ok(()) };
    let path = run_dir(&app.dir, run).join(&v.folder).join("results.json");
    let outcome = crate::import::replay_stored(&path, &v.replayed, more);
    match outcome {
        Ok(done) => {
            v.replayed.extend(done);
            v.replayed.sort_unstable();
            v.replayed.dedup();
            v.state = "proved".into();
            v.note = None;
        }
        Err(e) => {
            v.state = "differs".into();
            v.note = Some(app.public_text(&e.to_string()));
        }
    }
    app.db.set_verification(run, &v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_file_name_is_cut_in_the_middle_and_a_short_one_kept() {
        assert_eq!(short_name("bot.wasm"), "bot.wasm");
        let long = "alices-blackjack-bot-for-the-class-competition-final-version-2.wasm";
        let short = short_name(long);
        assert_eq!(short, "alices-blackjack…-version-2.wasm");
        assert_eq!(short.chars().count(), SHOWN_NAME);
    }
}
