//! Leagues beyond one machine, on a real cluster engine: `pitboss run
//! league.toml --slurm` stages the league on shared storage (`stage`),
//! submits one Slurm array job of `J` shards, each `pitboss run --shard
//! I/J` (`script`), follows it through Slurm's own commands (`slurm`),
//! submits a failed, timed-out or cancelled shard again a bounded number
//! of times, and merges the shard files with `pitboss merge`'s own
//! function, so the results are byte for byte those of a local run. No
//! scheduler, queue or worker protocol of ours: Slurm does the placing.
//!
//! **Invariant:** a result is returned only when every shard finished
//! and its file merged; anything less is an error naming the shard, its
//! Slurm state and its log.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use pitboss_results::{LeagueResult, ResultsFile};
use serde::{Deserialize, Serialize};

pub mod script;
pub mod slurm;
pub mod stage;

pub use stage::{Staged, reopen, stage};

/// Most shards of one run.
pub const MAX_SHARDS: u64 = 10_000;
/// Most times a shard is submitted again.
pub const MAX_RETRIES: u32 = 10;
/// Sessions of merged results replayed here, drawn at random, before they
/// are taken ([`prove`]).
pub const PROVEN_SESSIONS: u64 = 4;

/// How a league is played on the cluster.
#[derive(Clone, Debug)]
pub struct Options {
    /// Array tasks (1 to [`MAX_SHARDS`]); a shard plays sessions `s` with
    /// `s % shards == index`.
    pub shards: u64,
    /// Slurm partition, if not the default.
    pub partition: Option<String>,
    /// Slurm time limit per shard (`MM`, `HH:MM:SS`, `D-HH`), if any.
    pub time: Option<String>,
    /// Threads (and CPUs asked for) per shard.
    pub threads: usize,
    /// Times a failed shard is submitted again (0 to [`MAX_RETRIES`]).
    pub retries: u32,
    /// How often Slurm is asked how the shards are doing.
    pub poll: Duration,
}

/// Checks a `--time` value: Slurm's forms, digits with `:` and `-` only.
pub fn check_time(time: &str) -> Result<()> {
    let ok = !time.is_empty()
        && time.len() <= 16
        && time.bytes().all(|b| b.is_ascii_digit() || b == b':' || b == b'-')
        && time.starts_with(|c: char| c.is_ascii_digit());
    if !ok {
        bail!("--time `{time}` is not a Slurm time limit (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM)");
    }
    Ok(())
}

/// Checks a `--partition` value: a Slurm partition name (letters,
/// digits, `_`, `.`, `-`; at most 64).
pub fn check_partition(partition: &str) -> Result<()> {
    let ok = !partition.is_empty()
        && partition.len() <= 64
        && partition.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
    if !ok {
        bail!("--partition `{}` is not a Slurm partition name", partition.escape_debug());
    }
    Ok(())
}

/// How the shards are doing, for a progress line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub done: u64,
    pub running: u64,
    pub pending: u64,
    /// Shards submitted again so far.
    pub retried: u64,
    pub shards: u64,
    /// The latest event worth a line (a shard failed and was resubmitted).
    pub note: Option<String>,
}

/// Where each shard of a submitted league stands: what a follower needs
/// to pick up after a restart (the server keeps it in its database).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submitted {
    /// Per shard: the Slurm job now playing it (the array job, or a
    /// single task submitted again).
    pub jobs: Vec<u64>,
    /// Per shard: how many times it was submitted.
    pub attempts: Vec<u32>,
    /// Per shard: finished, its file written.
    pub done: Vec<bool>,
}

/// The batch script's path in a staged folder.
fn script_path(staged: &Staged) -> PathBuf {
    staged.dir.join("shards.sbatch")
}

/// Writes the batch script and submits every shard as one array job.
pub fn submit(staged: &Staged, options: &Options) -> Result<Submitted> {
    let script = script_path(staged);
    std::fs::write(&script, script::batch_script(staged, options))?;
    let job = slurm::sbatch(&script, &format!("0-{}", options.shards - 1))?;
    let n = options.shards as usize;
    Ok(Submitted { jobs: vec![job; n], attempts: vec![1; n], done: vec![false; n] })
}

/// Plays the staged league on Slurm and merges it; `progress` hears of
/// every change.
/// The merged results are proved ([`prove`]) before they are returned.
pub fn run(staged: &Staged, options: &Options, progress: &dyn Fn(&Progress)) -> Result<(LeagueResult, ResultsFile)> {
    let mut submitted = submit(staged, options)?;
    let merged = follow(staged, options, &mut submitted, &|p, _| progress(p))?;
    prove(&staged.league, &merged.1)?;
    Ok(merged)
}

/// Replays [`PROVEN_SESSIONS`] sessions of `results` drawn at random,
/// from the league file at `league` and the bots beside it (writing
/// `results.json` there), and refuses any difference: shards a cluster
/// played are taken only once a sample of them re-runs here.
pub fn prove(league: &std::path::Path, results: &ResultsFile) -> Result<()> {
    let dir = league.parent().unwrap_or(std::path::Path::new("."));
    let path = dir.join("results.json");
    pitboss_results::output::write_json(&path, results)?;
    let wanted = pitboss_league::verify::random_sessions(results.sessions.len() as u64, PROVEN_SESSIONS)?;
    let request =
        pitboss_league::verify::VerifyRequest { results: path, bots: None, sessions: Some(wanted), threads: Some(1) };
    match pitboss_league::verify::verify(&request, &|_| (), &|_| ())? {
        pitboss_league::verify::Verdict::Identical(_) => Ok(()),
        pitboss_league::verify::Verdict::Differs(what) => bail!("the cluster's results differ from a replay: {what}"),
    }
}

/// Follows `submitted` (just submitted, or picked up after a restart)
/// until every shard is done, submitting failed ones again, then merges;
/// `progress` hears of every change, with the state to keep.
pub fn follow(
    staged: &Staged,
    options: &Options,
    submitted: &mut Submitted,
    progress: &dyn Fn(&Progress, &Submitted),
) -> Result<(LeagueResult, ResultsFile)> {
    if submitted.jobs.len() as u64 != options.shards {
        bail!("{} shards were submitted, not {}", submitted.jobs.len(), options.shards);
    }
    let mut last = Progress::default();
    let mut quiet_since = Instant::now();
    loop {
        let mut now = Progress { shards: options.shards, retried: last.retried, ..Progress::default() };
        let states = states(submitted)?;
        for index in 0..options.shards {
            let i = index as usize;
            if submitted.done[i] {
                now.done += 1;
                continue;
            }
            match states.get(&(submitted.jobs[i], index)).map(String::as_str) {
                // A shard file counts only once Slurm says its task completed.
                Some("COMPLETED") if staged.part(index).is_file() => {
                    submitted.done[i] = true;
                    now.done += 1;
                }
                Some(s) if slurm::failed(s) || s == "COMPLETED" => {
                    let why = if s == "COMPLETED" { "COMPLETED without its shard file" } else { s };
                    retry_or_fail(staged, options, index, submitted, why, &mut now)?;
                }
                None => retry_or_fail(staged, options, index, submitted, "unknown to Slurm", &mut now)?,
                Some("RUNNING" | "COMPLETING") => now.running += 1,
                Some(_) => now.pending += 1,
            }
        }
        if now != last {
            progress(&now, submitted);
            quiet_since = Instant::now();
            last = Progress { note: None, ..now };
        }
        if last.done == options.shards {
            break;
        }
        if quiet_since.elapsed() > Duration::from_secs(7 * 24 * 3600) {
            bail!("no shard has moved for a week; gave up following jobs {:?}", submitted.jobs);
        }
        std::thread::sleep(options.poll);
    }
    let parts: Vec<PathBuf> = (0..options.shards).map(|i| staged.part(i)).collect();
    pitboss_league::shard::merge(&parts)
}

/// The state of every unfinished shard's task, by (job, index).
fn states(submitted: &Submitted) -> Result<std::collections::BTreeMap<(u64, u64), String>> {
    let jobs: std::collections::BTreeSet<u64> =
        submitted.jobs.iter().zip(&submitted.done).filter(|(_, d)| !**d).map(|(j, _)| *j).collect();
    let mut states = std::collections::BTreeMap::new();
    for job in jobs {
        for task in slurm::tasks(job)? {
            states.insert((job, task.index), task.state);
        }
    }
    Ok(states)
}

/// Submits shard `index` again, or fails naming it, its state and log.
fn retry_or_fail(
    staged: &Staged,
    options: &Options,
    index: u64,
    submitted: &mut Submitted,
    state: &str,
    now: &mut Progress,
) -> Result<()> {
    let (i, log) = (index as usize, staged.log(index));
    if submitted.attempts[i] > options.retries {
        bail!(
            "shard {index} of {} ended {state} after {} attempt(s); its log: {}",
            options.shards,
            submitted.attempts[i],
            log.display()
        );
    }
    submitted.jobs[i] = slurm::sbatch(&script_path(staged), &index.to_string())?;
    submitted.attempts[i] += 1;
    now.retried += 1;
    now.pending += 1;
    now.note = Some(format!(
        "shard {index} ended {state} (log: {}); submitted again as job {} (attempt {})",
        log.display(),
        submitted.jobs[i],
        submitted.attempts[i]
    ));
    Ok(())
}
