//! Running a league: its sessions on a rayon pool, each session's tables
//! seated by the format, and everything assembled into standings and a
//! results file.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use pitboss_engine::Stats;
use pitboss_host::Sandbox;
use pitboss_results::luck::LuckSums;
use pitboss_strategy::luck::LuckTable;
use rayon::prelude::*;

use crate::bots::NamedBots;
use crate::file::*;
use crate::roster::*;
use crate::session::{LeaguePlay, SessionBot, SessionResult, play_session};
use pitboss_results::luck::LUCK_UNIT;
use pitboss_results::pairs::Crosses;
use pitboss_results::sequential::{ALPHA, Basis, Gap, Resolution, VsNext, gap, paired};
use pitboss_results::standings::*;
use pitboss_results::tally::FAULT_LOG_CAP;
use pitboss_results::{
    BotResult, BotSource, LeagueResult, ResultsFile, SessionBotRecord, SessionRecord, Standing, Status,
};
/// Runs a parsed league whose file is at `path` (bot paths are relative to
/// it).
pub fn run(league: &LeagueFile, path: &Path, sandbox: &Sandbox) -> Result<LeagueResult> {
    run_with(league, path, sandbox, None, &|_| ()).map(|(result, _)| result)
}

/// A league's sessions as played, and where its bots came from.
#[derive(Clone, Debug)]
pub struct Played {
    /// Every bot and the hash of its file, in league order.
    pub sources: Vec<BotSource>,
    /// The sessions played, in order.
    pub sessions: Vec<SessionResult>,
    /// Folder and glob entries left out.
    pub skipped: Vec<Skipped>,
}

/// Runs a league on `threads` threads (all cores when `None`); returns the
/// standings and the full results file. The thread count never changes a
/// byte of either: sessions are independent and merged in order.
pub fn run_with(
    league: &LeagueFile,
    path: &Path,
    sandbox: &Sandbox,
    threads: Option<usize>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(LeagueResult, ResultsFile)> {
    let played = run_sessions(league, path, sandbox, threads, progress, None)?;
    let (mut result, mut file) = assemble(league, played.sources, &played.sessions)?;
    result.skipped = played.skipped.clone();
    file.result.skipped = played.skipped;
    Ok((result, file))
}

/// Plays the league's sessions — all, or with `shard = Some((i, n))` the
/// deterministic slice `s % n == i` — in parallel, returned in order.
pub fn run_sessions(
    league: &LeagueFile,
    path: &Path,
    sandbox: &Sandbox,
    threads: Option<usize>,
    progress: &(dyn Fn(u64) + Sync),
    shard: Option<(u64, u64)>,
) -> Result<Played> {
    let sandbox = league.sandbox(sandbox)?;
    let base = path.parent().unwrap_or(Path::new("."));
    let Expanded { bots, sources, skipped } =
        expand_bots(league, base, &sandbox).with_context(|| league.origin.clone())?;
    // A resolved league plays a look at a time and stops at the first
    // that separates every pair; a shard plays its sessions up to the
    // cap, and the merge stops where a single run would (`stop_point`).
    if let (Some(plan), None) = (league.plan(), shard) {
        let mut sessions = Vec::new();
        for stop in plan.stops() {
            let wanted: Vec<u64> = (sessions.len() as u64..stop).collect();
            sessions.extend(play_sessions(league, &bots, &wanted, threads, progress)?);
            if resolved(league, &sources, &sessions)? {
                break;
            }
        }
        return Ok(Played { sources, sessions, skipped });
    }
    let wanted: Vec<u64> = (0..league.sessions).filter(|s| shard.is_none_or(|(i, k)| s % k == i)).collect();
    let sessions = play_sessions(league, &bots, &wanted, threads, progress)?;
    Ok(Played { sources, sessions, skipped })
}

/// Plays the sessions `wanted` (ascending) of a league with its bots, in
/// parallel, returned in order.
pub(crate) fn play_sessions(
    league: &LeagueFile,
    bots: &NamedBots,
    wanted: &[u64],
    threads: Option<usize>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<SessionResult>> {
    let rules = league_rules(league)?;
    let n = bots.len();
    if n as u64 * league.sessions > MAX_BOT_SESSIONS {
        bail!(
            "{}: {n} bots × {} sessions is over {MAX_BOT_SESSIONS} (results keep 200 balance samples of each)",
            league.origin,
            league.sessions
        );
    }
    let luck = luck_table(league, &rules)?;
    let each = LeaguePlay::of(league, &rules, bots, luck.as_ref());
    let play = |session: u64| {
        let seats = seating_for(league.format, n, &rules, session);
        play_session(&each, session, &seats, progress)
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build()?;
    pool.install(|| wanted.par_iter().map(|&s| play(s)).collect::<Result<Vec<_>>>())
}

/// The luck tables a league's tables record with: `None` where the league
/// measures no luck (`luck = false`, or results from before it existed)
/// and in the banker game, which is not corrected.
pub fn luck_table(league: &LeagueFile, rules: &pitboss_engine::Rules) -> Result<Option<Arc<LuckTable>>> {
    if !league.luck_adjusted() {
        return Ok(None);
    }
    crate::luck::table_for(rules)
}

/// For each session, in order, which bots an earlier disqualification
/// keeps out of it: a disqualification holds for the rest of the league,
/// in session order. The sessions are played independently (in parallel,
/// or as shards), so such a bot was seated in later ones too, but they do
/// not count, and it keeps its bankroll.
pub(crate) fn out_before(sessions: &[SessionResult], n: usize) -> Vec<Vec<bool>> {
    let mut out = vec![false; n];
    sessions
        .iter()
        .map(|s| {
            let before = out.clone();
            for (o, b) in out.iter_mut().zip(&s.bots) {
                *o |= b.disqualified;
            }
            before
        })
        .collect()
}

/// A session as the results file records it; `out` marks the bots an
/// earlier disqualification keeps out of it (recorded as `after_dq`, with
/// nothing counted).
pub(crate) fn session_record(s: &SessionResult, sources: &[BotSource], out: &[bool]) -> SessionRecord {
    let bots = sources
        .iter()
        .zip(&s.bots)
        .zip(out)
        .map(|((source, b), &out)| SessionBotRecord {
            name: source.name.clone(),
            net: if out { 0 } else { b.net },
            rounds: if out { 0 } else { b.rounds },
            disqualified: !out && b.disqualified,
            broke: !out && b.broke,
            after_dq: out,
            series: if out { vec![0; b.series.len()] } else { b.series.clone() },
            tally: if out { Default::default() } else { b.tally },
            luck: b.luck.map(|l| if out { LuckSums::default() } else { l }),
            cost: b.cost.filter(|_| !out),
        })
        .collect();
    SessionRecord { session: s.session, seed: s.seed, bots, key_rounds: s.key_rounds.clone(), hands: s.hands.clone() }
}

/// Turns every session of a league, in order, into its standings and
/// results file. A single run, merged shards and `verify` all end here,
/// so they produce the same bytes. A resolved league's sessions must end
/// at the look where it stops ([`stop_point`]).
pub fn assemble(
    league: &LeagueFile,
    sources: Vec<BotSource>,
    sessions: &[SessionResult],
) -> Result<(LeagueResult, ResultsFile)> {
    let n = sources.len();
    let played = counted(league, sessions);
    let outs = out_before(sessions, n);
    // One session alone is a replayed sample (the server's import), not
    // a run: only its record is wanted.
    if sessions.len() > 1 {
        check_stop(league, &sources, sessions)?;
    }
    let Ranked { standings, resolution } = rank(league, &sources, sessions, &outs)?;
    let rules = league_rules(league)?;
    let luck_on = league.luck_adjusted();
    let mut warnings = Vec::new();
    if league.format != Format::Solo && n > 1 && !played.is_multiple_of(n as u64) {
        warnings.push(format!(
            "seating rotates one place a session, so every bot sits in every position equally often only over a \
             multiple of {n} sessions (one per bot); this league has {played}: positions are not yet balanced",
        ));
    }
    let result = LeagueResult {
        name: league.name.clone(),
        variant: league.variant.clone(),
        seed: league.seed,
        rounds: league.rounds,
        sessions: played,
        format: league.format,
        standings,
        warnings,
        luck_uncorrected: luck_on.then(|| crate::luck::uncorrected(&rules)),
        resolution,
        skipped: Vec::new(),
    };
    let file = ResultsFile {
        schema_version: pitboss_results::SCHEMA_VERSION,
        pitboss_version: env!("CARGO_PKG_VERSION").to_string(),
        league: league.record()?,
        series_rounds: crate::session::series_rounds(league.rounds),
        sessions: sessions.iter().zip(&outs).map(|(s, out)| session_record(s, &sources, out)).collect(),
        bots: sources,
        result: result.clone(),
    };
    Ok((result, file))
}

/// The sessions a league's standings count: a resolved league's, those it
/// played; any other's, all of them (a replayed sample is assembled too,
/// and counts as the whole league).
fn counted(league: &LeagueFile, sessions: &[SessionResult]) -> u64 {
    if league.plan().is_some() { sessions.len() as u64 } else { league.sessions }
}

/// A league's standings, and how a resolved league ended.
struct Ranked {
    standings: Vec<Standing>,
    resolution: Option<Resolution>,
}

/// Ranks the bots over `sessions` (`outs`: [`out_before`]) with their EVs,
/// intervals and tests against the next bot in play.
fn rank(league: &LeagueFile, sources: &[BotSource], sessions: &[SessionResult], outs: &[Vec<bool>]) -> Result<Ranked> {
    let n = sources.len();
    let total = counted(league, sessions);
    let mut stats = vec![Stats::default(); n];
    let mut results: Vec<BotResult> = Vec::with_capacity(n);
    // Luck-adjusted figures where the league measures them (in the
    // banker game they are the chips' own: nothing is corrected there).
    let luck_on = league.luck_adjusted();
    let measured = luck_on && sessions.iter().any(|s| s.bots.iter().any(|b| b.luck.is_some()));
    let plan = league.plan();
    let mut luck = vec![LuckSums::default(); n];
    for (b, source) in sources.iter().enumerate() {
        let mut r = BotResult::new(source.name.clone(), &Stats::default(), league.bankroll, league.bankroll, false);
        let mut played = 0;
        for (s, out) in sessions.iter().zip(outs) {
            if out[b] {
                continue;
            }
            let sb: &SessionBot = &s.bots[b];
            played += 1;
            stats[b].merge(&sb.stats);
            r.net += sb.net;
            r.disqualified |= sb.disqualified;
            r.broke_sessions += u64::from(sb.broke);
            r.tally.merge(&sb.tally);
            if let Some(c) = &sb.cost {
                r.cost.get_or_insert_default().merge(c);
            }
            if let Some(l) = &sb.luck {
                luck[b].merge(l);
            }
            let room = FAULT_LOG_CAP.saturating_sub(r.fault_log.len());
            r.fault_log.extend(sb.fault_log.iter().take(room).cloned());
        }
        pitboss_results::tally::keep_fault_texts(&mut r.fault_log);
        // Every session starts from the bankroll: final chips are what the
        // bot held at the ends of all its sessions.
        r.balance = league.bankroll * total as i64 + r.net;
        r.rounds = stats[b].rounds;
        r.wagered = i64::try_from(stats[b].wagered).unwrap_or(i64::MAX);
        r.ev = stats[b].ev();
        r.ev_se = stats[b].ev_standard_error();
        r.faults = stats[b].faults;
        r.broke = !r.disqualified && played > 0 && r.broke_sessions == played;
        if luck_on {
            let (ev, se) =
                if sessions.iter().any(|s| s.bots[b].luck.is_some()) { luck[b].ev(&stats[b]) } else { (r.ev, r.ev_se) };
            (r.luck_ev, r.luck_ev_se) = (Some(ev), Some(se));
        }
        // A resolved league with luck ranks by what its test reads.
        if plan.is_some() && measured {
            r.luck_net = Some(luck[b].sum as f64 / LUCK_UNIT);
        }
        results.push(r);
    }
    let rules = league_rules(league)?;
    let crosses = Crosses::new(sessions, n, league.rounds, |s| seating_for(league.format, n, &rules, s));
    let rounds_total = league.rounds * total;
    let mut standings = rank_with_intervals(results, &stats, &|i, j| crosses.get(i, j), rounds_total);
    // Against the next bot in play, session by session: on the
    // luck-adjusted results where the league measures them; in a resolved
    // league always, at the level of each of its looks.
    let on = if measured { Basis::LuckAdjusted } else { Basis::Chips };
    let figure = |s: &SessionResult, b: usize| match (on, s.bots[b].luck) {
        (Basis::LuckAdjusted, Some(l)) => l.sum as f64 / LUCK_UNIT,
        _ => s.bots[b].net as f64,
    };
    let index = |name: &str| sources.iter().position(|b| b.name == name).unwrap_or(0);
    let figures: Vec<Vec<f64>> = (0..n)
        .map(|b| sessions.iter().zip(outs).map(|(s, out)| if out[b] { 0.0 } else { figure(s, b) }).collect())
        .collect();
    let level = plan.map_or(ALPHA, |p| p.level());
    let (mut pairs, mut separated) = (0, 0);
    if measured || plan.is_some() {
        for k in 1..standings.len() {
            if standings[k].status != Status::Active || standings[k - 1].status != Status::Active {
                continue;
            }
            let (i, j) = (index(&standings[k - 1].result.name), index(&standings[k].result.name));
            let test = paired(&figures[i], &figures[j]);
            let gap = match test {
                Some(t) => gap(t, level),
                None if plan.is_some() => Gap::Level,
                None => continue,
            };
            pairs += 1;
            separated += u64::from(gap == Gap::Ahead);
            standings[k - 1].result.vs_next = Some(VsNext { on, gap });
        }
    }
    let resolution = plan.map(|plan| Resolution {
        batch: plan.batch,
        cap_sessions: plan.cap,
        looks_planned: plan.looks(),
        looks: plan.stops().take_while(|&s| s < total).count() as u64 + 1,
        sessions: total,
        rounds: league.rounds * total,
        pairs,
        pairs_resolved: separated,
        resolved: separated == pairs,
        on,
    });
    Ok(Ranked { standings, resolution })
}

/// Whether a resolved league's look after `sessions` separates every
/// adjacent pair of bots in play.
fn resolved(league: &LeagueFile, sources: &[BotSource], sessions: &[SessionResult]) -> Result<bool> {
    let outs = out_before(sessions, sources.len());
    Ok(rank(league, sources, sessions, &outs)?.resolution.is_some_and(|r| r.resolved))
}

/// Where a resolved league stops, given its sessions in order from 0 (as
/// many as were played, or a merge's up to the cap): the sessions of the
/// first look that separates every pair, else of the last look they reach.
pub fn stop_point(league: &LeagueFile, sources: &[BotSource], sessions: &[SessionResult]) -> Result<usize> {
    let Some(plan) = league.plan() else { return Ok(sessions.len()) };
    let mut last = 0;
    for stop in plan.stops().map(|s| s as usize) {
        if stop > sessions.len() {
            break;
        }
        last = stop;
        if resolved(league, sources, &sessions[..stop])? {
            return Ok(stop);
        }
    }
    Ok(last)
}

/// Checks that a resolved league's `sessions` end where a run of it
/// stops: at a look, the first that separates every pair, or at the cap
/// (`verify` and `merge` through [`assemble`]); nothing for any other
/// league.
pub fn check_stop(league: &LeagueFile, sources: &[BotSource], sessions: &[SessionResult]) -> Result<()> {
    let Some(plan) = league.plan() else { return Ok(()) };
    let (len, stop) = (sessions.len(), stop_point(league, sources, sessions)?);
    if stop != len || (len as u64) < plan.cap && !resolved(league, sources, sessions)? {
        bail!(
            "{}: a run of this league does not stop after {len} sessions: it looks every {} sessions up to {} and \
             stops at the first look that separates every pair{}",
            league.origin,
            plan.batch,
            plan.cap,
            if stop < len { format!(" (here after {stop})") } else { String::new() }
        );
    }
    Ok(())
}

pub use pitboss_results::seating::seating_for;
