//! Slurm's own commands, run and read: `sbatch --parsable` submits,
//! `scontrol show job -o` reports each array task's state (`sacct` needs
//! the accounting daemon, which a small cluster may not run; `scontrol`
//! keeps a finished job for the cluster's `MinJobAge`, 300 s by default),
//! `scancel` cancels. Every command's failure is one line naming it.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

/// Runs `program` with `args`; its standard output, or why it failed.
fn run(program: &str, args: &[&str]) -> Result<String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .with_context(|| format!("cannot run `{program}` (is Slurm installed and on PATH?)"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        bail!("`{program} {}` failed: {}", args.join(" "), err.trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Submits the batch script at `script` as the array tasks `array`
/// (`0-3`, or `2`); returns the job id.
pub fn sbatch(script: &Path, array: &str) -> Result<u64> {
    let path = script.display().to_string();
    let out = run("sbatch", &["--parsable", &format!("--array={array}"), &path])?;
    // `--parsable` prints `JOBID` or `JOBID;CLUSTER`.
    let id = out.trim().split(';').next().unwrap_or("");
    id.parse().with_context(|| format!("sbatch printed `{}`, not a job id", out.trim()))
}

/// One array task's state as Slurm reports it (`PENDING`, `RUNNING`,
/// `COMPLETED`, `FAILED`, `CANCELLED`, `TIMEOUT` …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    pub index: u64,
    pub state: String,
}

/// The tasks of array job `job` Slurm still knows (none once it has
/// forgotten the job).
pub fn tasks(job: u64) -> Result<Vec<Task>> {
    let out = Command::new("scontrol")
        .args(["show", "job", "-o", &job.to_string()])
        .output()
        .context("cannot run `scontrol` (is Slurm installed and on PATH?)")?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        if err.contains("Invalid job id") {
            return Ok(Vec::new());
        }
        bail!("`scontrol show job {job}` failed: {}", err.trim());
    }
    Ok(text.lines().flat_map(parse_line).collect())
}

/// The tasks one `scontrol show job -o` line describes: a running or
/// finished task has one `ArrayTaskId`, pending ones a list of ranges
/// (`2-5,7`, maybe with a `%` limit).
pub fn parse_line(line: &str) -> Vec<Task> {
    let field = |key: &str| line.split_whitespace().find_map(|kv| kv.strip_prefix(key));
    let (Some(ids), Some(state)) = (field("ArrayTaskId="), field("JobState=")) else { return Vec::new() };
    let ids = ids.split('%').next().unwrap_or("");
    let mut out = Vec::new();
    for part in ids.split(',') {
        let (from, to) = part.split_once('-').unwrap_or((part, part));
        if let (Ok(from), Ok(to)) = (from.parse::<u64>(), to.parse::<u64>()) {
            // A hostile or broken line cannot make this loop long.
            out.extend((from..=to.min(from.saturating_add(100_000))).map(|index| Task { index, state: state.into() }));
        }
    }
    out
}

/// Whether `state` is a task's end without its work done.
pub fn failed(state: &str) -> bool {
    matches!(
        state,
        "FAILED" | "CANCELLED" | "TIMEOUT" | "NODE_FAIL" | "OUT_OF_MEMORY" | "BOOT_FAIL" | "DEADLINE" | "PREEMPTED"
    )
}

/// Cancels array job `job` entirely.
pub fn scancel(job: u64) -> Result<()> {
    run("scancel", &[&job.to_string()]).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scontrol_lines_name_their_tasks() {
        let line = "JobId=7 ArrayJobId=5 ArrayTaskId=2 JobName=x JobState=COMPLETED Reason=None ExitCode=0:0";
        assert_eq!(parse_line(line), vec![Task { index: 2, state: "COMPLETED".into() }]);
        let pending = "JobId=5 ArrayJobId=5 ArrayTaskId=3-5,8%2 JobState=PENDING Reason=Resources";
        let ids: Vec<u64> = parse_line(pending).iter().map(|t| t.index).collect();
        assert_eq!(ids, [3, 4, 5, 8]);
        assert!(parse_line("JobId=9 JobState=RUNNING").is_empty(), "not an array task");
        assert_eq!(parse_line("ArrayTaskId=0-99999999999 JobState=PENDING").len(), 100_001, "bounded");
        assert!(failed("TIMEOUT") && failed("CANCELLED") && !failed("COMPLETED") && !failed("RUNNING"));
    }
}
