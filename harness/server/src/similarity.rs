//! The organiser's similarity page (`/admin/similarity`, and
//! `GET /api/similarity` as JSON): entrants whose active modules are the
//! same bytes, and pairs whose *decisions* agree beyond what independent
//! bots of one strategy would ([`pitboss_league::similar`]), with the
//! evidence. Never shown to an entrant.
//!
//! Each active module is fingerprinted under the competition's first
//! league of the dealer games (its rules and `[limits]`; the fixed seed
//! [`similar::SEED`], not the league's) and the fingerprint kept in the
//! data folder by module and league text ([`paths::similarity`]), so a
//! module is played once; the pairs are compared afresh on every look,
//! which is cheap. The fingerprints are made off the async threads on a
//! check slot, one module after another; the page does not wait for them:
//! it shows how many are done and refreshes itself.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::HeaderValue;
use axum::response::IntoResponse;
use maud::html;
use pitboss_league::similar::{self, Comparison, Fingerprint, Verdict};
use serde::Serialize;
use tokio::task::JoinHandle;

use crate::answer::Answer;
use crate::auth::{AdminCaller, AdminVisitor};
use crate::error::Error;
use crate::page::page;
use crate::paths;
use crate::state::{App, Failure, Shared};

/// How long the page waits for the fingerprints before it shows their
/// progress.
const PAGE_WAITS: Duration = Duration::from_millis(1500);

/// An active bot as the page lists it.
#[derive(Serialize)]
pub struct BotLine {
    /// The entrant.
    pub name: String,
    /// Its active module's SHA-256.
    pub sha256: String,
    /// Situations met, and those where it answers as `basic` does.
    pub situations: u32,
    pub with_basic: u32,
    /// It plays `basic` ([`similar::BASIC_PERCENT`]).
    pub plays_basic: bool,
    /// Why its fingerprint is short or missing, if it is.
    pub note: Option<String>,
}

/// Two entrants compared.
#[derive(Serialize)]
pub struct Pair {
    pub names: [String; 2],
    #[serde(flatten)]
    pub comparison: Comparison,
}

/// What the page shows.
#[derive(Serialize)]
pub struct Similarity {
    /// The league whose rules the bots played, if one of the dealer games.
    pub league: Option<String>,
    /// Rounds and seed of every fingerprint.
    pub rounds: u64,
    pub seed: u64,
    /// Entrants sharing one module, by its SHA-256.
    pub identical: Vec<(String, Vec<String>)>,
    /// Each active bot.
    pub bots: Vec<BotLine>,
    /// Pairs whose decisions are alike: the flags.
    pub alike: Vec<Pair>,
    /// Pairs that both play `basic` (expected, not evidence).
    pub both_basic: Vec<[String; 2]>,
    /// Pairs compared and found unlike.
    pub unlike: usize,
}

/// The league fingerprints are played under: the competition's first
/// of the dealer games, parsed with `basic` seated (a league file needs
/// a bot; the rules do not depend on it): its name, text, rules and
/// sandbox.
fn league(app: &App) -> Result<Option<(String, String, pitboss_engine::Rules, pitboss_host::Sandbox)>, Error> {
    for template in &app.competition.leagues {
        let text = template.with_bots([("basic", "builtin:basic".to_string())]);
        let file = pitboss_league::file::parse_text(&text, "league.toml", "league.toml").map_err(Error::LeagueFile)?;
        let rules = pitboss_league::file::league_rules(&file).map_err(|e| Error::League(format!("{e:#}")))?;
        if rules.game == pitboss_engine::Game::Dealer {
            let sandbox = file.sandbox(&app.checker.sandbox).map_err(|e| Error::League(format!("{e:#}")))?;
            return Ok(Some((template.name.clone(), template.text.clone(), rules, sandbox)));
        }
    }
    Ok(None)
}

/// The fingerprint of module `sha256` under the league `text` (`rules`,
/// `sandbox`): kept (by those, Pitboss's version and the fingerprint's
/// format, rounds and seed), or played now and kept. An error is the reason
/// there is none (a module that no longer loads), shown in its row.
fn fingerprint(
    app: &App,
    sha256: &str,
    (text, rules, sandbox): (&str, &pitboss_engine::Rules, &pitboss_host::Sandbox),
) -> Result<Result<Fingerprint, String>, Error> {
    // Pitboss's version too: a new one may run a source bot on another
    // runtime, or record otherwise.
    let version = env!("CARGO_PKG_VERSION");
    let key = format!("{}\n{version}\n{}\n{}\n{sha256}\n{text}", similar::FORMAT, similar::ROUNDS, similar::SEED);
    let kept = paths::similarity(&app.dir).join(format!("{}.json", pitboss_league::bots::sha256_hex(key.as_bytes())));
    if let Some(f) = std::fs::read(&kept).ok().and_then(|b| serde_json::from_slice::<Fingerprint>(&b).ok())
        && f.format == similar::FORMAT
    {
        return Ok(Ok(f));
    }
    let file = paths::module_file(&app.dir, sha256);
    let bytes = std::fs::read(paths::modules(&app.dir).join(&file))?;
    let played = sandbox.load(&file, &bytes).map_err(|e| e.to_string()).and_then(|m| {
        similar::fingerprint(rules, &pitboss_league::bots::Bot::Wasm(m), similar::ROUNDS).map_err(|e| format!("{e:#}"))
    });
    let fingerprint = match played {
        Ok(f) => f,
        Err(why) => return Ok(Err(app.public_text(&pitboss_host::text::excerpt(&why, 300)))),
    };
    std::fs::create_dir_all(paths::similarity(&app.dir))?;
    pitboss_results::output::write_json(&kept, &fingerprint)?;
    Ok(Ok(fingerprint))
}

/// Fingerprints every active module (telling `modules` how many, `done`
/// of each) and compares
/// every pair of entrants (blocking).
fn similarity(app: &App, done: &AtomicU64, modules: &AtomicU64) -> Result<Similarity, Error> {
    let bots = app.db.active_bots()?;
    let mut by_module: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for b in &bots {
        by_module.entry(&b.sha256).or_default().push(b.name.clone());
    }
    modules.store(by_module.len() as u64, Ordering::Relaxed);
    let identical = by_module.iter().filter(|(_, n)| n.len() > 1).map(|(s, n)| (s.to_string(), n.clone())).collect();
    let mut out = Similarity {
        league: None,
        rounds: similar::ROUNDS,
        seed: similar::SEED,
        identical,
        bots: Vec::new(),
        alike: Vec::new(),
        both_basic: Vec::new(),
        unlike: 0,
    };
    let Some((name, text, rules, sandbox)) = league(app)? else { return Ok(out) };
    out.league = Some(name);
    let mut prints = BTreeMap::new();
    for sha in by_module.keys() {
        prints.insert(*sha, fingerprint(app, sha, (&text, &rules, &sandbox))?);
        done.fetch_add(1, Ordering::Relaxed);
    }
    for b in &bots {
        let line = match &prints[b.sha256.as_str()] {
            Ok(f) => {
                let (with_basic, situations) = f.with_basic();
                let note = f.stopped.as_ref().map(|why| format!("{} rounds, then {why}", f.rounds));
                BotLine { situations, with_basic, plays_basic: f.plays_basic(), note, ..line(b) }
            }
            Err(why) => BotLine { note: Some(why.clone()), ..line(b) },
        };
        out.bots.push(line);
    }
    // Each pair of distinct modules once (a shared module is listed
    // above), by the first entrant of each.
    let modules: Vec<_> = by_module.iter().filter_map(|(sha, n)| Some((&n[0], prints[sha].as_ref().ok()?))).collect();
    for (i, (a, fa)) in modules.iter().enumerate() {
        for (b, fb) in &modules[i + 1..] {
            let comparison = similar::compare(fa, fb);
            let names = [a.to_string(), b.to_string()];
            match comparison.verdict {
                Verdict::Alike => out.alike.push(Pair { names, comparison }),
                Verdict::BothBasic => out.both_basic.push(names),
                Verdict::Unlike => out.unlike += 1,
            }
        }
    }
    Ok(out)
}

/// A bot's row before its fingerprint is read.
fn line(b: &crate::db::ActiveBot) -> BotLine {
    BotLine {
        name: b.name.clone(),
        sha256: b.sha256.clone(),
        situations: 0,
        with_basic: 0,
        plays_basic: false,
        note: None,
    }
}

/// A similarity being worked out: modules fingerprinted so far, of all.
struct Working {
    done: Arc<AtomicU64>,
    modules: Arc<AtomicU64>,
    task: JoinHandle<Result<Similarity, Failure>>,
}

/// The similarity worked out now, by data folder (one at a time).
static WORKING: Mutex<BTreeMap<String, Working>> = Mutex::new(BTreeMap::new());

fn working() -> std::sync::MutexGuard<'static, BTreeMap<String, Working>> {
    WORKING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts working out the similarity on a check slot.
fn start(app: &Shared) -> Working {
    let (done, modules) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let (shared, heard, counted) = (app.clone(), done.clone(), modules.clone());
    let task = tokio::spawn(async move {
        let held = shared.guards.work_slot(None).await?;
        shared
            .blocking(move |app| {
                let _held = held;
                similarity(app, &heard, &counted)
            })
            .await
    });
    Working { done, modules, task }
}

/// The similarity, or (past `wait`) the modules fingerprinted so far and
/// of how many; started unless it is being worked out.
async fn similarity_for(app: &Shared, wait: Option<Duration>) -> Result<Result<Similarity, (u64, u64)>, Failure> {
    let key = app.dir.display().to_string();
    let started = Instant::now();
    loop {
        let finished = {
            let mut all = working();
            let w = all.entry(key.clone()).or_insert_with(|| start(app));
            if w.task.is_finished() {
                all.remove(&key)
            } else if wait.is_some_and(|w| started.elapsed() >= w) {
                return Ok(Err((w.done.load(Ordering::Relaxed), w.modules.load(Ordering::Relaxed))));
            } else {
                None
            }
        };
        if let Some(w) = finished {
            return match w.task.await {
                Ok(done) => done.map(Ok),
                Err(e) => Err(Failure::from(Error::League(format!("the similarity check stopped: {e}")))),
            };
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `GET /api/similarity` (the organiser's token): the similarity as JSON,
/// once every module is fingerprinted.
pub async fn similarity_json(State(app): State<Shared>, _: AdminCaller) -> Answer {
    match similarity_for(&app, None).await? {
        Ok(s) => Ok(axum::Json(s).into_response()),
        // Not without a wait: the similarity is awaited to its end.
        Err(_) => Err(Failure::from(Error::League("the similarity is not worked out yet".into()))),
    }
}

/// A share in whole percent.
fn percent(part: u32, all: u32) -> u64 {
    (u64::from(part) * 100).checked_div(u64::from(all)).unwrap_or(0)
}

/// `GET /admin/similarity`: the page.
pub async fn similarity_page(State(app): State<Shared>, AdminVisitor(session): AdminVisitor) -> Answer {
    let heading = html! { h1 { "Similarity" } };
    let s = match similarity_for(&app, Some(PAGE_WAITS)).await? {
        Ok(s) => s,
        Err((done, modules)) => {
            let body = html! { (heading)
            p #similarity-progress { "Playing each active bot's fingerprint: " (done) " of " (modules)
                " modules done. This page refreshes itself until they are all played." } };
            let mut answer = page("Similarity", Some(&session), body);
            answer.headers_mut().insert("refresh", HeaderValue::from_static("2"));
            return Ok(answer);
        }
    };
    let short = |sha: &str| sha.get(..12).unwrap_or(sha).to_string();
    let body = html! {
        (heading)
        p.small { "Each active bot plays " (pitboss_report::whole(s.rounds)) " rounds alone, dealt from the same shoes (seed "
            (s.seed) ") under the rules of " @if let Some(l) = &s.league { "the league " strong { (l) } } @else { "no league (none is of the dealer games)" }
            ". Its answers are recorded by situation (hand total, soft, pair, cards, up card, legal actions) beside basic strategy's. \
            Agreeing with basic is expected of any sound bot; two bots are flagged when each departs from basic in at least "
            (similar::MIN_DEPARTURES) " situations and they answer alike in at least " (similar::ALIKE_PERCENT)
            " % of the situations where either departs. A flag is evidence to look at, not proof: docs/server.md says what it can and cannot tell." }
        h2 { "Identical modules" }
        @if s.identical.is_empty() { p #identical-none { "No two entrants share a module." } }
        @for (sha, names) in &s.identical {
            p.flag.identical { strong { "Identical module: " } (names.join(", ")) " — the same bytes, SHA-256 " code { (short(sha)) } "…" }
        }
        h2 { "Decisions alike" }
        @if s.alike.is_empty() { p #alike-none { "No pair decides alike beyond what independent bots would." } }
        @for p in &s.alike { div.flag.alike id=(format!("alike-{}-{}", p.names[0], p.names[1])) {
            h3 { (p.names[0]) " and " (p.names[1]) }
            @let c = &p.comparison;
            p { "Of " (c.compared) " situations both met they answered alike in " (c.agreed) ". Where either departs from basic ("
                (c.departures) " situations: " (p.names[0]) " in " (c.departs[0]) ", " (p.names[1]) " in " (c.departs[1])
                ") they answered alike in " strong { (c.departures_agreed) " (" (percent(c.departures_agreed, c.departures)) " %)" } "." }
            table.wraps { thead { tr { th { "Situation" } th { (p.names[0]) } th { (p.names[1]) } th { "basic" } } }
                tbody { @for e in &c.examples { tr { td { (e.situation) } td { (e.answers[0]) } td { (e.answers[1]) } td { (e.basic) } } } } }
        } }
        @if !s.both_basic.is_empty() {
            p #both-basic { "Both play basic (expected, not evidence): "
                (s.both_basic.iter().map(|[a, b]| format!("{a} and {b}")).collect::<Vec<_>>().join("; ")) "." }
        }
        p.small { (s.unlike) " other pair(s) share nothing beyond what independent bots would." }
        h2 { "Bots" }
        table.wraps #similarity-bots { thead { tr { th { "Entrant" } th { "Module" } th { "Situations" } th { "As basic" } th { "Note" } } }
            tbody { @for b in &s.bots { tr {
                td { (b.name) } td { code { (short(&b.sha256)) } }
                td.num { (b.situations) } td.num { (percent(b.with_basic, b.situations)) " %" }
                td { @if b.plays_basic { "plays basic" } @if let Some(n) = &b.note { span.small { " " (pitboss_host::text::excerpt(n, 300)) } } }
            } } } }
    };
    Ok(page("Similarity", Some(&session), body))
}
