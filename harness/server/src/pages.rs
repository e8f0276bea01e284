//! The HTML pages (maud, so every name and verdict is escaped by
//! construction; outside text is also shown with its control characters
//! escaped): the leaderboard and an entrant's page (upload form,
//! submissions with verdicts, faults and log lines from the latest run).
//! Logging in and registering are in `login.rs`, the organiser's page in
//! `organiser.rs`. Every form that changes something carries the
//! session's CSRF token, checked by its extractor ([`crate::csrf`])
//! before anything is done.

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use maud::{Markup, html};
use pitboss_host::text::printable;
use pitboss_results::standings::{LUCK_LEGEND, luck_note};
use serde::Deserialize;

use crate::answer::Answer;
use crate::auth::{EntrantVisitor, Session, Visitor};
use crate::competition::format_time;
use crate::csrf::{CsrfForm, CsrfUpload};
use crate::db::Outcome;
use crate::page::{PageForm, SHOWN_TEXT, link, page, refuse};
use crate::runs::{latest_and_runs, public_run, reports_of};
use crate::state::{Shared, Who};
use crate::uploads::{PageUpload, judge_upload};
use crate::worker::Summary;

/// `GET /`: the latest run's standings per league and overall, and the
/// runs before it.
pub async fn leaderboard(State(app): State<Shared>, Visitor(session): Visitor) -> Answer {
    let admin = matches!(session, Some(Session { who: Who::Admin, .. }));
    let (latest, links, runs, histories) = app
        .blocking(move |app| {
            let (latest, runs) = latest_and_runs(app, 20)?;
            let histories = crate::history::histories(&app.db)?;
            let links = |run: i64| -> Result<bool, crate::error::Error> { Ok(admin || app.reports_public(run)?) };
            let mut shown = Vec::new();
            for r in runs {
                let reports = if r.state == "done" && links(r.id)? { reports_of(app, r.id) } else { Vec::new() };
                let progress = app.bell.progress.of(r.id);
                shown.push((public_run(app, r), reports, progress));
            }
            let latest_links = match &latest {
                Some(s) => links(s.run)?,
                None => false,
            };
            Ok((latest, latest_links, shown, histories))
        })
        .await?;
    let body = html! {
        h1 { (app.competition.name) }
        @if let Some(deadline) = app.competition.deadline { p { "Submissions close " (format_time(deadline)) "." } }
        @match &latest {
            None => p id="no-run" { "No run has finished yet." },
            Some(s) => {
                @if s.final_run { p.banner.passed id="final" { strong { "Final standings" } ": the competition's final run; nothing is played after it." } }
                p { "Run " (s.run) ", finished " (format_time(s.finished)) ", " (s.bots.len()) " bots." }
                @if s.leagues.len() > 1 { (overall(s)) }
                @for league in &s.leagues { (league_table(s.run, league, links)) }
                p.legend { "Ranked by final chips (Net, summed over the sessions); an out-of-play bot (broke, DQ) below those in play. "
                    "EV: net chips per 100 staked, ± its 95 % interval. "
                    "“>”: significantly ahead of the next bot; “≈”: not. Overall: season points (a point per entrant finished above plus one, per league; none when DQ), then net chips." }
            }
        }
        @if histories.iter().any(|h| h.runs.len() > 1) { h2 { "Rank history" } @for h in &histories { (crate::history::chart(h)) } }
        h2 { "Runs" }
        div.scroll { table id="runs" { thead { tr { th { "Run" } th { "State" } th { "Why" } th { "Queued" } th { "" } } }
            tbody { @for (r, reports, progress) in &runs { tr { td { (r.id) } td { (r.state)
                @if let Some(p) = progress { br; span.progress id=(format!("progress-{}", r.id)) { (p.line()) } } } td { (r.reason) } td { (format_time(r.created)) }
                td { @for l in reports { a href=(format!("/runs/{}/{l}/report.html", r.id)) { (l) " report" } " " } } } } } } }
        p.small { a href="/api/leaderboard.csv" { "These standings as CSV" } }
    };
    Ok(page(&app.competition.name, session.as_ref(), body))
}

fn overall(s: &Summary) -> Markup {
    html! {
        h2 { "Overall" }
        p.small { "Per league, a point for every entrant finished above plus one, none when disqualified; points rank, \
            net chips break ties (the rule of " code { "pitboss season" } ")." }
        div.scroll { table id="overall" { thead { tr { th { "#" } th { "Entrant" } th { "Points" } th { "Net chips" } } }
            tbody { @for r in &s.overall { tr { td { (r.rank) } td { (r.name) } td.num { (r.points) } td.num { (r.net) } } } } } }
    }
}

fn league_table(run: i64, league: &crate::worker::LeagueStandings, links: bool) -> Markup {
    // Runs without luck-adjusted figures (leagues with `luck = false`, runs
    // from before them) show no empty column.
    let luck = league.rows.iter().any(|r| r.luck_ev_pct.is_some());
    html! {
        h2 { (league.name) }
        p.small { (league.variant) ", " (league.sessions) " session(s) × " (league.rounds) " rounds"
            @if links { " · " a href=(format!("/runs/{run}/{}/report.html", league.folder)) { "report" }
                " · " a href=(format!("/runs/{run}/{}/results.json", league.folder)) { "results.json" } } }
        div.scroll { table.standings { thead { tr { th { "#" } th { "Entrant" } th { "EV %" }
                @if luck { th.luck title=(LUCK_LEGEND) { "Luck-adj." } }
                th { "" } th { "Net" } th { "Faults" } } }
            tbody { @for r in &league.rows { tr {
                td { (r.rank) " " (r.status) } td.name { (r.name) }
                td.num { (format!("{:+.2} ±\u{a0}{:.2}", r.ev_pct, r.ev_ci95_pct)) }
                @if luck { td.num.luck { @if let (Some(ev), Some(ci)) = (r.luck_ev_pct, r.luck_ci95_pct) {
                    (format!("{ev:+.2} ±\u{a0}{ci:.2}")) } } }
                td { (r.mark) } td.num { (r.net) } td.num { (r.faults) }
            } } } } }
        @if let Some(note) = luck.then(|| luck_note(league.luck_uncorrected.as_deref())).flatten() { p.small.luck { (note) } }
    }
}

/// Which finished run `/me` shows (`?run=N`; the latest without).
#[derive(Deserialize)]
pub struct RunQuery {
    pub run: Option<i64>,
}

/// `GET /me`: the upload form, one's submissions and verdicts, and one's
/// bot's status, chips, faults and log lines in the latest run (or in
/// `?run=N`).
pub async fn me(State(app): State<Shared>, visitor: EntrantVisitor, Query(q): Query<RunQuery>) -> Answer {
    let who = visitor.entrant.clone();
    let (subs, own, runs, source) = app
        .blocking(move |app| {
            let own = crate::mine::of_run(&app.dir, &app.db, &who, q.run)?;
            let runs: Vec<i64> = app.db.runs(50)?.into_iter().filter(|r| r.state == "done").map(|r| r.id).collect();
            let subs = app.db.submissions(who.id)?;
            let source = crate::editor::latest_source(app, &subs);
            Ok((subs, own, runs, source))
        })
        .await?;
    let leagues: Vec<String> = app.competition.leagues.iter().map(|l| l.name.clone()).collect();
    let csrf = visitor.session.csrf.clone();
    let shown = own.status.first().and_then(|s| s["run"].as_i64());
    let body = html! {
        h1 { (visitor.entrant.name) }
        @if runs.len() > 1 {
            form #run-pick method="get" action="/me" { "Run " select name="run" aria-label="run" {
                @for id in &runs { option value=(id) selected[Some(*id) == shown] { (id) } } } " " button { "Show" } }
        }
        (banners(&own.status))
        @for c in &own.chips { (crate::chips::chart(&text(&c["league"], 100), &c["series"])) }
        form id="upload" method="post" action="/me/upload" enctype="multipart/form-data" {
            input type="hidden" name="csrf" value=(csrf);
            label for="bot" { "Upload a bot (.wasm, or a bot's source: bot.py, bot.js, at most " (app.competition.uploads.max_bytes >> 10) " KiB)" }
            input id="bot" type="file" name="bot" accept=(crate::page::upload_accept()) required;
            button id="send" { "Upload and check" }
            p.small { "No bot yet? Start from the " a #starter href=(crate::editor::STARTER_PATH) download="bot.py" { "starter bot.py" } "." }
        }
        (crate::editor::form(&crate::editor::Editing { csrf: &csrf, source: &source, leagues: &leagues, league: 1,
            rounds: crate::editor::TRY_ROUNDS, max_bytes: app.competition.uploads.max_bytes }))
        p { a #scrimmages href="/me/scrimmages" { "Scrimmages" } ": play your bot against others who allow it, or built-in bots." }
        h2 { "Submissions" }
        @if subs.is_empty() { p { "None yet." } }
        (compare_form(&subs))
        @for s in &subs { (submission(s, &csrf)) }
        (fault_tables(&own.faults))
        (logs(&own.logs))
    };
    Ok(crate::editor::with_script(page(&visitor.entrant.name, Some(&visitor.session), body)))
}

/// A passing submission's score ([`crate::scores`]) in one line.
fn score_line(score: &serde_json::Value) -> Markup {
    let f = |k: &str| score[k].as_f64().unwrap_or(0.0);
    html! {
        @if let Some(why) = score["error"].as_str() { p.score { "No score: " (pitboss_host::text::excerpt(why, 300)) } }
        @else {
            p.score { "Score on " (text(&score["league"], 100)) " (" (score["rounds"]) " rounds against basic on the same cards): EV "
                (format!("{:+.2} ± {:.2} %", f("ev_pct"), f("ci95_pct"))) " (basic " (format!("{:+.2} %", f("basic_ev_pct"))) "), "
                (format!("{:+.2} ± {:.2}", f("vs_basic_per_100_rounds"), f("vs_basic_ci95"))) " chips per 100 rounds against basic; "
                "if active it would rank " (score["rank_if_active"]) " of " (score["of"]) " by EV in the latest run." }
        }
    }
}

/// Two of one's passing submissions, picked to compare on the same cards.
fn compare_form(subs: &[crate::db::Submission]) -> Markup {
    let passed: Vec<i64> = subs.iter().filter(|s| s.outcome == Outcome::Passed).map(|s| s.id).collect();
    html! {
        @if passed.len() >= 2 {
            form #compare method="get" action="/me/compare" {
                "Compare submission " select name="a" aria-label="first" { @for id in &passed { option value=(id) { "#" (id) } } }
                " with " select name="b" aria-label="second" { @for (k, id) in passed.iter().enumerate() {
                    option value=(id) selected[k == 1] { "#" (id) } } }
                " " button { "Compare" }
            }
        }
    }
}

/// The text of a JSON string field, control characters escaped.
fn text(v: &serde_json::Value, max: usize) -> String {
    pitboss_host::text::excerpt(v.as_str().unwrap_or(""), max)
}

/// Status first: one banner per league of the latest run (see
/// [`crate::mine::Own::status`]).
fn banners(status: &[serde_json::Value]) -> Markup {
    html! {
        @if status.is_empty() { p.banner.none id="status" { "No run has finished with your bot yet." } }
        @for s in status {
            @let state = s["state"].as_str().unwrap_or("");
            @let class = match state { "disqualified" => "banner dq", "broke" => "banner broke", "played" => "banner passed", _ => "banner none" };
            p class=(class) {
                strong { (text(&s["league"], 100)) ": " }
                @match state {
                    "not in the run" => { "your bot was not in run " (s["run"]) " (no passing submission then)." }
                    _ => {
                        (state) " in run " (s["run"]) " — rank " (s["rank"]) " of " (s["of"]) " by final chips, net "
                        (format!("{:+}", s["net"].as_i64().unwrap_or(0))) " chips, EV "
                        (format!("{:+.2} %", s["ev_pct"].as_f64().unwrap_or(0.0))) ", " (s["faults"]) " fault(s)."
                        @if let Some(why) = s["why"].as_object() {
                            " Disqualified at "
                            a.replay href=(replay_href(s, why)) { "session " (why["session"]) ", table " (why["table"]) ", round " (why["round"]) }
                            " (" (text(&why["decision"], 40)) "): " (text(&why["message"], 500))
                        }
                    }
                }
            }
            @if state != "not in the run" {
                p.small { a.coach href=(format!("/runs/{}/{}/coach", s["run"].as_i64().unwrap_or(0), text(&s["folder"], 20))) {
                    "Coach: where your bot gives EV away, decision by decision" } }
                (replay_form(s))
            }
        }
    }
}

/// The page replaying one round of `league`'s run (`{run, folder}`) at
/// `at` (`{session, table, round}`).
fn replay_href(league: &serde_json::Value, at: &serde_json::Map<String, serde_json::Value>) -> String {
    let n = |k: &str| at.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
    format!(
        "/runs/{}/{}/replay?session={}&table={}&round={}",
        league["run"].as_i64().unwrap_or(0),
        text(&league["folder"], 20),
        n("session"),
        n("table"),
        n("round")
    )
}

/// Replay any round of one's tables in a league of the run, and the
/// download of what replays one's own box locally.
fn replay_form(s: &serde_json::Value) -> Markup {
    let (run, folder) = (s["run"].as_i64().unwrap_or(0), text(&s["folder"], 20));
    html! {
        form.replay method="get" action=(format!("/runs/{run}/{folder}/replay")) {
            "Replay a round: session " input type="number" name="session" min="0" value="0" aria-label="session";
            " table " input type="number" name="table" min="0" value="0" aria-label="table";
            " round " input type="number" name="round" min="1" value="1" aria-label="round";
            " " button { "Replay" }
            " · " a href=(format!("/api/runs/{run}/{folder}/mine.tar")) { "download your table's files" }
        }
    }
}

/// One's bot's faults in the latest run, per league, as a table.
fn fault_tables(leagues: &[serde_json::Value]) -> Markup {
    let rows = |l: &serde_json::Value| l["first"].as_array().cloned().unwrap_or_default();
    html! {
        h2 { "Faults in the run" }
        @if leagues.iter().all(|l| rows(l).is_empty()) { p id="faults" { "None recorded." } }
        @for l in leagues.iter().filter(|l| !rows(l).is_empty()) {
            p.small { (text(&l["league"], 100)) ": " (l["total"]) " fault(s)"
                @if l["total"].as_u64() > Some(crate::mine::SHOWN_FAULTS as u64) { ", the first " (crate::mine::SHOWN_FAULTS) } }
            div.scroll { table.faults { thead { tr { th { "Session" } th { "Table" } th { "Round" } th { "Decision" } th { "Kind" } th { "Message" } } }
                tbody { @for f in rows(l) { tr {
                    td.num { (f["session"]) } td.num { (f["table"]) }
                    td.num { @if let Some(at) = f.as_object() { a.replay href=(replay_href(l, at)) { (f["round"]) } } }
                    td { (text(&f["decision"], 40)) } td { (text(&f["kind"], 40)) } td.message { (text(&f["message"], 2_000)) }
                } } } } }
        }
    }
}

/// One's bot's log lines in the latest run's stored hands, per league.
fn logs(leagues: &[serde_json::Value]) -> Markup {
    let lines = |l: &serde_json::Value| l["first"].as_array().cloned().unwrap_or_default();
    html! {
        h2 { "Your bot's log lines in the run" }
        @if leagues.iter().all(|l| lines(l).is_empty()) { p id="logs" { "None in the stored hands." } }
        @for l in leagues.iter().filter(|l| !lines(l).is_empty()) {
            p.small { (l["league"].as_str().unwrap_or("")) ": " (l["total"]) " line(s) in the stored hands"
                @if l["total"].as_u64() > Some(crate::mine::SHOWN_LOGS as u64) { ", the first " (crate::mine::SHOWN_LOGS) } }
            pre.logs { @for line in lines(l) {
                "session " (line["session"]) " · table " (line["table"]) " · round " (line["round"]) " · "
                (text(&line["decision"], 100)) ": " (text(&line["text"], 2_000)) "\n"
            } }
        }
    }
}

fn submission(s: &crate::db::Submission, csrf: &str) -> Markup {
    let class = match s.outcome {
        Outcome::Passed => "passed",
        Outcome::Failed => "failed",
        Outcome::Refused => "refused",
    };
    html! {
        div class=(format!("submission {class}")) id=(format!("sub-{}", s.id)) {
            p { strong { "#" (s.id) " " (pitboss_host::text::excerpt(&s.file_name, 100)) } " · " (format_time(s.created)) " · " (s.size) " bytes"
                @if let Some(sha) = &s.sha256 { " · " code { (sha.get(..16).unwrap_or(sha)) "…" } }
                @if s.active { " · " span.active { "ACTIVE" } }
                @if let Some(href) = s.sha256.as_ref().and_then(|_| link(s.id, &s.file_name)) { " · " a href=(href) { "source" } } }
            pre.verdict { (printable(&s.verdict, SHOWN_TEXT)) }
            @if let Some(score) = &s.score { (score_line(score)) }
            @if !s.report.is_empty() { details { summary { "Per decision: faults and fuel" } pre { (printable(&s.report, SHOWN_TEXT)) } } }
            @if s.outcome == Outcome::Passed && !s.active {
                form method="post" action="/me/activate" { input type="hidden" name="csrf" value=(csrf);
                    input type="hidden" name="id" value=(s.id); button { "Play this one" } }
            }
        }
    }
}

/// `POST /me/upload` (multipart: `csrf`, `bot`). The session and the
/// upload slot are settled before the body is read.
pub async fn upload(State(app): State<Shared>, up: PageUpload, CsrfUpload { file }: CsrfUpload) -> Answer {
    let Some((name, bytes)) = file else { return Ok(refuse(StatusCode::BAD_REQUEST, "The form had no file.")) };
    let verdict = judge_upload(&app, up.visitor.entrant, up.slot, name, bytes).await?;
    Ok(Redirect::to(&format!("/me#sub-{}", verdict.id)).into_response())
}

/// `POST /me/activate` (`csrf`, `id`).
pub async fn activate(
    State(app): State<Shared>,
    visitor: EntrantVisitor,
    CsrfForm(form): CsrfForm<PageForm>,
) -> Answer {
    let who = visitor.entrant.id;
    let chosen = match form.id {
        Some(id) => app.blocking(move |app| app.db.choose(who, id)).await?,
        None => false,
    };
    if !chosen {
        return Ok(refuse(StatusCode::NOT_FOUND, "No such submission of yours that passed its check."));
    }
    app.changed();
    Ok(Redirect::to("/me").into_response())
}
