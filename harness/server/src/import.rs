//! Importing a run played elsewhere (`pitboss serve FILE --data DIR
//! --import-run results.json --league K`): a league exported from a run's
//! bundle, played as shards on a cluster and merged with `pitboss merge`,
//! comes back as a finished run on the leaderboard and in the history.
//!
//! The results file is trusted only as far as it proves itself, in four
//! steps, each refusing with one line that names the first problem:
//!
//! 1. **The league and its bots.** The embedded league text (checked
//!    against its SHA-256 and parse) must be exactly the league file this
//!    server writes for league K, and its bots exactly the active bots of
//!    the enabled entrants now: every one of them (a missing entrant is
//!    named), no one else, each with that entrant's own active module (a
//!    module swapped between entrants is named), stored here.
//! 2. **Internal consistency.** Every figure the session records determine
//!    is recomputed from them, the way `pitboss merge` assembles a run, and
//!    compared: each session's seed and rounds, each bot's net (its tally's
//!    chip parts too), balance, faults, disqualification, broke sessions
//!    and tally, the status and rank order, the league's header and
//!    warnings. The totals a results file keeps only over all rounds
//!    (rounds with a bet, chips wagered, hence the EV, its interval and the
//!    `>` marks) must agree with these and with each other (EV = net ÷
//!    wagered, no more rounds than were played, …).
//! 3. **A replay.** After the file is read, a sample of sessions is chosen
//!    with the operating system's randomness (a forger cannot know which
//!    when writing the file) and replayed from the league and the modules
//!    stored here, never from the file's bots; the first difference from
//!    a session's record is refused, and so is a bot's total of rounds or
//!    chips wagered below what the replayed sessions alone add up to (an
//!    EV inflated by cutting the chips wagered). With S sessions of which
//!    f are forged, a sample of k misses every forged one with probability
//!    C(S−f, k) / C(S, k) ≤ (1 − f/S)^k: for S = 100 and k = 4, 0.96 for
//!    one forged session, 0.31 for 25, 0.06 for 50. Replaying k sessions
//!    costs k/S of the run's CPU time. The totals over all rounds are
//!    proven only as far as that bound goes. [`Replay::All`]
//!    (`--verify-all`), or a sample as large as the league, replays every
//!    session with `pitboss verify`'s engine and compares the whole file
//!    byte for byte: the run's whole cost, and every figure proven.
//! 4. **Recording.** The run's files are written to a staging folder first
//!    (the replay reads them there) and moved into `DIR/runs/N/` in the
//!    same database transaction that records it `done`, so a failed
//!    import leaves nothing.

use std::path::Path;

use pitboss_engine::{Stats, derive_seed};
use pitboss_host::text::excerpt;
use pitboss_league::file::LeagueFile;
use pitboss_league::replay::Replayable;
use pitboss_league::session::{LeaguePlay, play_session};
use pitboss_league::verify::{Verdict, VerifyRequest};
use pitboss_results::pairs::Cross;
use pitboss_results::session::{SessionBot, SessionResult};
use pitboss_results::standings::rank_with_intervals;
use pitboss_results::tally::FAULT_LOG_CAP;
use pitboss_results::{BotResult, ResultsFile, SessionRecord, Standing};

use crate::competition::{self, Competition};
use crate::data::Options;
use crate::db::{ActiveBot, Db, now};
use crate::error::Error;
use crate::paths::{module_file, module_path, run_dir};
use crate::store;
use crate::worker::{LeagueStandings, Summary, overall};

/// Sessions an import replays unless told otherwise.
pub const DEFAULT_SAMPLE: u64 = 4;

/// How much of an imported run is replayed before it is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replay {
    /// This many sessions (at least one), chosen at random once the file
    /// is read; every session, and the whole file, when the league has no
    /// more.
    Sample(u64),
    /// Every session, and the whole file compared byte for byte.
    All,
}

/// What was imported.
#[derive(Debug)]
pub struct Imported {
    /// The new run's id.
    pub run: i64,
    /// The league's name.
    pub league: String,
    /// Bots that played.
    pub bots: usize,
    /// The league's sessions.
    pub sessions: u64,
    /// The sessions replayed, ascending; all of them when the whole file
    /// was compared.
    pub replayed: Vec<u64>,
}

/// Imports the merged results at `path` as a finished run of league
/// `league` (1-based), after proving it (see the module's doc; `replay`
/// says how many sessions to replay); refuses with a one-line reason
/// ([`Error::Import`]) anything that is not a complete, genuine run of
/// that league with the active entrants' bots stored here.
pub fn import_run(options: &Options, path: &Path, league: usize, replay: Replay) -> Result<Imported, Error> {
    let competition = competition::read(&options.competition)?;
    let (db, _) = crate::data::open(options, &competition)?;
    if let Some(id) = db.frozen()? {
        return Err(Error::Import(format!(
            "run {id} was the final run: the standings are frozen, nothing is imported"
        )));
    }
    let results = pitboss_results::open(path).map_err(|e| Error::NotImportable(e.into()))?;
    let label = path.display().to_string();
    let (file, bots) = verify(&competition, &db, &options.data, &results, &label, league)?;
    recompute(&file, &results).map_err(|why| Error::Import(format!("{label}: its figures do not add up: {why}")))?;

    let folder = format!("league-{league}");
    let stage = crate::paths::runs(&options.data).join(format!(".import-{}-{}", std::process::id(), now()));
    let staged = write_files(&options.data, &stage.join(&folder), path, &results)
        .and_then(|()| replay_sessions(&stage.join(&folder).join("results.json"), &results, replay, &label));
    let replayed = match staged {
        Ok(replayed) => replayed,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&stage);
            return Err(e);
        }
    };
    let standings = LeagueStandings::of(&results.result, folder, results.league.parsed.limits.fuel_per_decision);
    let n_bots = bots.len();
    let proved = crate::verification::Verification {
        folder: standings.folder.clone(),
        sessions: file.sessions,
        replayed: replayed.clone(),
        state: "proved".into(),
        note: None,
    };
    let file_name = path.file_name().map_or_else(|| label.clone(), |n| n.to_string_lossy().into_owned());
    let reason = format!("imported {file_name} (league {league})");
    let id = db.add_done_run(&reason, |id| {
        let to = run_dir(&options.data, id);
        if to.exists() {
            std::fs::remove_dir_all(&to)?;
        }
        std::fs::rename(&stage, &to)?;
        let leagues = vec![standings];
        let overall = overall(&leagues);
        Ok(serde_json::to_string(&Summary::new(id, &bots, leagues, overall, false))?)
    });
    if id.is_err() {
        let _ = std::fs::remove_dir_all(&stage);
    }
    // What the replay proved, for the organiser's page (which can ask for
    // more); the run is recorded already, whatever happens to this line.
    if let Ok(id) = id {
        db.set_verification(id, &proved)?;
    }
    Ok(Imported { run: id?, league: results.result.name.clone(), bots: n_bots, sessions: file.sessions, replayed })
}

/// Whether `results` is a complete run of league `league` of
/// `competition` with the active entrants' bots, stored in `dir`: the
/// league as parsed and those bots (entrant, SHA-256), or the one-line
/// reason.
fn verify(
    competition: &Competition,
    db: &Db,
    dir: &Path,
    results: &ResultsFile,
    label: &str,
    league: usize,
) -> Result<(LeagueFile, Vec<ActiveBot>), Error> {
    let refuse = |why: String| Error::Import(format!("{label}: {why}"));
    let count = competition.leagues.len();
    let Some(template) = league.checked_sub(1).and_then(|i| competition.leagues.get(i)) else {
        return Err(refuse(format!("this competition has no league {league} (it has 1 to {count})")));
    };
    let file = pitboss_league::file::embedded(&results.league, label).map_err(Error::NotImportable)?;
    let active = db.active_bots()?;
    check_bots(results, &active).map_err(refuse)?;
    for ActiveBot { name, sha256: sha, .. } in &active {
        if !module_path(dir, sha).is_file() {
            return Err(refuse(format!("entrant `{name}`'s active module ({}…) is not stored here", &sha[..16])));
        }
    }
    let paths = active.iter().map(|a| (a.name.as_str(), format!("bots/{}", module_file(dir, &a.sha256))));
    if results.league.text != template.with_bots(paths) {
        let played = &results.league.parsed;
        return Err(refuse(format!(
            "not a run of league {league} (`{}`) of this competition: it embeds league `{}` (seed {}, {} sessions × {} rounds), \
             not the league file this server writes for these bots",
            template.name,
            excerpt(&played.name, 40),
            played.seed,
            played.sessions,
            played.rounds
        )));
    }
    if results.sessions.len() as u64 != file.sessions {
        return Err(refuse(format!(
            "holds {} of the league's {} sessions: merge every shard first (`pitboss merge`)",
            results.sessions.len(),
            file.sessions
        )));
    }
    Ok((file, active))
}

/// Whether the bots of `results` are exactly `active`, the enabled
/// entrants' active bots (entrant, SHA-256): no one else, no one twice,
/// each with their own module, and nobody missing.
fn check_bots(results: &ResultsFile, active: &[ActiveBot]) -> Result<(), String> {
    let short = |sha: Option<&str>| sha.map_or_else(|| "no module".to_string(), |s| excerpt(s, 16));
    for (i, bot) in results.bots.iter().enumerate() {
        let name = excerpt(&bot.name, 40);
        let Some(sha) = active.iter().find(|a| a.name == bot.name).map(|a| &a.sha256) else {
            return Err(format!("bot `{name}` is not an enabled entrant with an active bot here"));
        };
        if bot.sha256.as_deref() != Some(sha.as_str()) {
            return Err(format!(
                "bot `{name}` played {}, not entrant `{name}`'s active module ({}…)",
                short(bot.sha256.as_deref()),
                &sha[..16]
            ));
        }
        if results.bots[..i].iter().any(|b| b.name == bot.name) {
            return Err(format!("bot `{name}` is listed twice"));
        }
    }
    if let Some(name) = active.iter().map(|a| &a.name).find(|n| !results.bots.iter().any(|b| b.name == **n)) {
        return Err(format!(
            "entrant `{name}`'s active bot did not play: an imported run must hold every active entrant's bot ({} here)",
            active.len()
        ));
    }
    Ok(())
}

/// Recomputes from the session records every figure they determine, as
/// `pitboss merge` assembles a run, and names the first that differs in
/// the file; the totals over all rounds are taken from the file once they
/// agree with the rest ([`check_totals`]).
fn recompute(league: &LeagueFile, results: &ResultsFile) -> Result<(), Error> {
    for (k, s) in results.sessions.iter().enumerate() {
        if let Some(b) = s.bots.iter().find(|b| !b.after_dq && b.tally.net() != b.net) {
            return Err(Error::Import(format!(
                "session {k}, bot `{}`: net {} but its tally's chip parts add up to {}",
                excerpt(&b.name, 40),
                b.net,
                b.tally.net()
            )));
        }
    }
    let played: Vec<SessionResult> = results.sessions.iter().map(|s| as_played(s, league)).collect();
    let (_, mut rebuilt) = pitboss_league::league::assemble(league, results.bots.clone(), &played)
        .map_err(|e| Error::Play(e.context("cannot assemble its sessions")))?;
    rebuilt.pitboss_version.clone_from(&results.pitboss_version);
    let n = results.bots.len();
    let mut totals = Vec::with_capacity(n);
    let mut stats = Vec::with_capacity(n);
    for standing in &rebuilt.result.standings {
        let mut r = standing.result.clone();
        r.faults = r.tally.faults.total();
        if let Some(filed) = results.result.standings.iter().find(|s| s.result.name == r.name) {
            let f = &filed.result;
            (r.rounds, r.wagered, r.ev, r.ev_se) = (f.rounds, f.wagered, f.ev, f.ev_se);
            // The luck-adjusted EV rests on integer sums the sessions
            // carry (each replayed session checks its own) and on the
            // bets' sums the record does not keep: adopted, as the EV's
            // standard error is.
            (r.luck_ev, r.luck_ev_se) = (f.luck_ev, f.luck_ev_se);
            r.fault_log.clone_from(&f.fault_log);
            check_totals(results, league, &r).map_err(Error::Import)?;
        }
        stats.push(Stats { rounds: r.rounds, wagered: r.wagered.into(), net: r.net.into(), ..Stats::default() });
        totals.push(r);
    }
    let mut standings = rank_with_intervals(totals, &stats, &|_, _| Cross::Exact(0), league.rounds * league.sessions);
    for standing in &mut standings {
        if let Some(filed) = results.result.standings.iter().find(|s| s.result.name == standing.result.name) {
            adopt_intervals(standing, filed).map_err(Error::Import)?;
        }
    }
    rebuilt.result.standings = standings;
    let (file, rebuilt) = (serde_json::to_value(results), serde_json::to_value(&rebuilt));
    let (file, rebuilt) =
        (file.map_err(|e| Error::Import(e.to_string()))?, rebuilt.map_err(|e| Error::Import(e.to_string()))?);
    match pitboss_results::first_difference(&file, &rebuilt) {
        Some(d) => Err(Error::Import(d.replace(" re-run", " recomputed"))),
        None => Ok(()),
    }
}

/// A session record as play would have produced it, as far as the record
/// tells: its seed and rounds as the league says, the integer sums left
/// empty but for the net.
fn as_played(record: &SessionRecord, league: &LeagueFile) -> SessionResult {
    let bots = record
        .bots
        .iter()
        .map(|b| SessionBot {
            stats: Stats { net: b.net.into(), ..Stats::default() },
            net: b.net,
            rounds: league.rounds,
            disqualified: b.disqualified,
            broke: b.broke,
            fault_log: Vec::new(),
            series: b.series.clone(),
            tally: b.tally,
            luck: b.luck,
            cost: b.cost,
        })
        .collect();
    SessionResult {
        session: record.session,
        seed: derive_seed(league.seed, record.session),
        bots,
        // A results file keeps no paired sums; the standings' tests are
        // taken from the file, not recomputed (an n × n matrix a session
        // would be a gigabyte for a large league).
        pairs: Vec::new(),
        key_rounds: record.key_rounds.clone(),
        hands: record.hands.clone(),
    }
}

/// Whether a bot's totals over all rounds, as the file gives them, agree
/// with its recomputed figures `r`: no more rounds with a bet than it
/// played, its EV its net over its wagered chips, an interval only with
/// two rounds, and a fault log of at most its faults, each in a session
/// where it faulted.
fn check_totals(results: &ResultsFile, league: &LeagueFile, r: &BotResult) -> Result<(), String> {
    let name = excerpt(&r.name, 40);
    let i = results.bots.iter().position(|b| b.name == r.name).unwrap_or_default();
    let faulted = |k: u64| {
        results
            .sessions
            .get(k as usize)
            .and_then(|s| s.bots.get(i))
            .is_some_and(|b| !b.after_dq && b.tally.faults.total() > 0)
    };
    let played = results.sessions.iter().filter(|s| s.bots.get(i).is_some_and(|b| !b.after_dq)).count() as u64;
    let ev = Stats { net: r.net.into(), wagered: r.wagered.into(), ..Stats::default() }.ev();
    let why = if r.rounds > played.saturating_mul(league.rounds) {
        format!("bet in {} rounds, more than the {} it played", r.rounds, played.saturating_mul(league.rounds))
    } else if r.wagered < 0 || (r.rounds == 0 && (r.wagered != 0 || r.net != 0)) {
        format!("wagered {} chips and won {} in {} rounds with a bet", r.wagered, r.net, r.rounds)
    } else if !close(r.ev, ev) {
        format!("EV {} is not its net {} over the {} chips it wagered ({ev})", r.ev, r.net, r.wagered)
    } else if !(r.ev_se.is_finite() && r.ev_se >= 0.0) || ((r.rounds < 2 || r.wagered == 0) && r.ev_se != 0.0) {
        format!("EV standard error {} over {} rounds with a bet", r.ev_se, r.rounds)
    } else if r.fault_log.len() as u64 > r.faults.min(FAULT_LOG_CAP as u64) {
        format!("{} faults logged of {} (at most {FAULT_LOG_CAP} are kept)", r.fault_log.len(), r.faults)
    } else if let Some(f) = r.fault_log.iter().find(|f| !faulted(f.session)) {
        format!("a fault logged in session {}, where it made none", f.session)
    } else {
        return Ok(());
    };
    Err(format!("bot `{name}`: {why}"))
}

/// Takes the file's EV percentages and `>` mark into a recomputed row,
/// once its percentages agree with the EV and standard error it was
/// ranked with, and a mark is given exactly where the ranking has one.
fn adopt_intervals(standing: &mut Standing, filed: &Standing) -> Result<(), String> {
    if !close(standing.ev_pct, filed.ev_pct) || !close(standing.ev_ci95_pct, filed.ev_ci95_pct) {
        return Err(format!(
            "bot `{}`: EV {} ± {} % is not what its EV and standard error make ({} ± {} %)",
            excerpt(&filed.result.name, 40),
            filed.ev_pct,
            filed.ev_ci95_pct,
            standing.ev_pct,
            standing.ev_ci95_pct
        ));
    }
    (standing.ev_pct, standing.ev_ci95_pct) = (filed.ev_pct, filed.ev_ci95_pct);
    (standing.luck_ev_pct, standing.luck_ci95_pct) = (filed.luck_ev_pct, filed.luck_ci95_pct);
    if standing.ahead_of_next.is_some() && filed.ahead_of_next.is_some() {
        standing.ahead_of_next = filed.ahead_of_next;
    }
    Ok(())
}

/// Equal but for the last bits a JSON number's parse may round.
fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// Replays the sessions `replay` asks for of the staged results file at
/// `staged` (its league folder holds the stored modules) and compares;
/// returns the sessions replayed, or the first difference.
fn replay_sessions(staged: &Path, results: &ResultsFile, replay: Replay, label: &str) -> Result<Vec<u64>, Error> {
    let count = results.sessions.len() as u64;
    let sessions = match replay {
        Replay::Sample(k) if k < count => {
            pitboss_league::verify::random_sessions(count, k.max(1)).map_err(Error::Replay)?
        }
        _ => return replay_all(staged, count, label),
    };
    replay_sample(staged, results, &sessions).map_err(|why| Error::Import(format!("{label}: {why}")))?;
    Ok(sessions)
}

/// Replays `more` of the sessions of a stored run's results file at
/// `path` not among `done` (chosen at random; all of them, and the whole
/// file byte for byte, for [`Replay::All`] or a sample as large as
/// what is left); returns the sessions replayed, or the first
/// difference.
pub(crate) fn replay_stored(path: &Path, done: &[u64], more: Replay) -> Result<Vec<u64>, Error> {
    let label = "the stored results";
    let results =
        pitboss_results::read(path).map_err(|e| Error::NotImportable(anyhow::Error::new(e).context(label)))?;
    let count = results.sessions.len() as u64;
    let left: Vec<u64> = (0..count).filter(|s| !done.contains(s)).collect();
    if let Replay::Sample(k) = more
        && k < left.len() as u64
    {
        let picks = pitboss_league::verify::random_sessions(left.len() as u64, k.max(1)).map_err(Error::Replay)?;
        let sessions: Vec<u64> = picks.iter().filter_map(|&i| left.get(i as usize).copied()).collect();
        replay_sample(path, &results, &sessions).map_err(|why| Error::Import(format!("{label}: {why}")))?;
        return Ok(sessions);
    }
    replay_all(path, count, label)
}

/// Replays every session with `pitboss verify`'s engine and compares the
/// whole file byte for byte.
fn replay_all(staged: &Path, count: u64, label: &str) -> Result<Vec<u64>, Error> {
    let request = VerifyRequest { results: staged.to_path_buf(), bots: None, sessions: None, threads: None };
    let verdict = pitboss_league::verify::verify(&request, &|_| (), &|_| ())
        .map_err(|e| Error::NotImportable(e.context(format!("{label}: cannot replay it"))))?;
    match verdict {
        Verdict::Identical(_) => Ok((0..count).collect()),
        Verdict::Differs(d) => {
            let session = d.strip_prefix("sessions[").and_then(|s| s.split(']').next());
            let what = session.map_or_else(|| "it".to_string(), |k| format!("session {k}"));
            Err(Error::Import(format!("{label}: {what} differs from its replay: {d}")))
        }
    }
}

/// Replays `sessions` of the staged results file at `staged`, each
/// compared with its record (a bot an earlier disqualification keeps out
/// is as the file records it: nothing, which [`recompute`] checked), and
/// refuses totals over all rounds below what the replayed sessions alone
/// add up to.
fn replay_sample(staged: &Path, results: &ResultsFile, sessions: &[u64]) -> Result<(), Error> {
    let league = Replayable::from_results(results.clone(), staged, None)
        .map_err(|e| Error::Replay(e.context("cannot replay it")))?;
    let f = &league.file;
    let mut sums = vec![Stats::default(); results.bots.len()];
    for &s in sessions {
        let seats = league.seating(s);
        let (rules, bots) = (&league.rules, &league.bots);
        let luck =
            pitboss_league::league::luck_table(f, rules).map_err(|e| Error::Replay(e.context("cannot replay it")))?;
        let played = play_session(&LeaguePlay::of(f, rules, bots, luck.as_ref()), s, &seats, &|_| ())
            .map_err(|e| Error::Replay(e.context(format!("cannot replay session {s}"))))?;
        let record = &results.sessions[s as usize];
        let (_, alone) = pitboss_league::league::assemble(f, results.bots.clone(), std::slice::from_ref(&played))
            .map_err(|e| Error::Replay(e.context(format!("cannot replay session {s}"))))?;
        let mut replayed =
            alone.sessions.into_iter().next().ok_or_else(|| Error::Import("a replayed session went missing".into()))?;
        for (i, filed) in record.bots.iter().enumerate() {
            if filed.after_dq {
                replayed.bots[i].clone_from(filed);
            } else {
                sums[i].merge(&played.bots[i].stats);
            }
        }
        let (filed, replayed) = (serde_json::to_value(record), serde_json::to_value(&replayed));
        let (filed, replayed) =
            (filed.map_err(|e| Error::Import(e.to_string()))?, replayed.map_err(|e| Error::Import(e.to_string()))?);
        if let Some(d) = pitboss_results::first_difference_at(&filed, &replayed, &format!("sessions[{s}]")) {
            return Err(Error::Import(format!("session {s} differs from its replay: {d}")));
        }
    }
    for (bot, sum) in results.bots.iter().zip(&sums) {
        let Some(r) = results.result.standings.iter().map(|s| &s.result).find(|r| r.name == bot.name) else {
            continue;
        };
        if r.rounds < sum.rounds || i128::from(r.wagered) < sum.wagered {
            return Err(Error::Import(format!(
                "bot `{}` bet {} chips in {} rounds in all, but the {} replayed session(s) alone bet {} in {}",
                excerpt(&r.name, 40),
                r.wagered,
                r.rounds,
                sessions.len(),
                sum.wagered,
                sum.rounds
            )));
        }
    }
    Ok(())
}

/// Writes a run's league folder at `to`: the league file, its bots, the
/// results file as given, and its report.
fn write_files(dir: &Path, to: &Path, path: &Path, results: &ResultsFile) -> Result<(), Error> {
    std::fs::create_dir_all(to.join("bots"))?;
    std::fs::write(to.join("league.toml"), &results.league.text)?;
    for sha in results.bots.iter().filter_map(|b| b.sha256.as_deref()) {
        store::copy_out(dir, sha, &to.join("bots"))?;
    }
    std::fs::copy(path, to.join("results.json"))?;
    crate::worker::write_reports(to, results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_allows_a_rounded_last_digit_only() {
        assert!(close(0.1 + 0.2, 0.3));
        assert!(close(0.0, 0.0));
        assert!(!close(8.16, 0.0816) && !close(1.0, 1.000_001) && !close(f64::NAN, f64::NAN));
    }
}
