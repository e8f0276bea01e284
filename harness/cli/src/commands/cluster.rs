//! `pitboss run league.toml --slurm`: the league played as a Slurm array
//! job and merged (`pitboss_cluster`); `--slurm-script` stages it and
//! prints the batch script for submitting by hand, `--k8s-manifest` the
//! same plan as a Kubernetes indexed Job.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use pitboss_cluster::{MAX_RETRIES, MAX_SHARDS, Options, Progress};
use pitboss_results::{LeagueResult, ResultsFile};

/// How to play a league on a cluster.
#[derive(clap::Args, Debug)]
pub struct ClusterArgs {
    /// Play the league as a Slurm array job of --shards shards, follow it, retry failed shards, merge.
    #[arg(long, conflicts_with_all = ["slurm_script", "k8s_manifest"])]
    slurm: bool,
    /// Stage the league and print the Slurm batch script (submit it with `sbatch --array=0-(J-1)`).
    #[arg(long, conflicts_with = "k8s_manifest")]
    slurm_script: bool,
    /// Stage the league and print a Kubernetes indexed Job manifest for it (untested here).
    #[arg(long)]
    k8s_manifest: bool,
    /// Shards (array tasks), 1 to 10000.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=MAX_SHARDS))]
    shards: u64,
    /// Slurm partition (default: the cluster's).
    #[arg(long, value_name = "P")]
    partition: Option<String>,
    /// Slurm time limit per shard (e.g. 30, 2:00:00, 1-00).
    #[arg(long, value_name = "T")]
    time: Option<String>,
    /// A folder every node of the cluster sees, where the league, its bots and the shards' files are staged.
    #[arg(long, value_name = "DIR", default_value = "pitboss-cluster")]
    workdir: PathBuf,
    /// Times a failed, timed-out or cancelled shard is submitted again, 0 to 10.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=MAX_RETRIES as i64))]
    retries: u32,
    /// The pitboss binary the shards run (copied to the work folder) [default: this one].
    #[arg(long, value_name = "FILE")]
    pitboss: Option<PathBuf>,
}

impl ClusterArgs {
    /// Whether the league goes to a cluster.
    pub fn wanted(&self) -> bool {
        self.slurm || self.slurm_script || self.k8s_manifest
    }
}

/// Stages `league` and prints the script or manifest, or plays it on
/// Slurm and returns its merged results.
pub fn run(league: &Path, args: &ClusterArgs, threads: Option<usize>) -> Result<Option<(LeagueResult, ResultsFile)>> {
    if let Some(p) = &args.partition {
        pitboss_cluster::check_partition(p)?;
    }
    if let Some(t) = &args.time {
        pitboss_cluster::check_time(t)?;
    }
    let options = Options {
        shards: args.shards,
        partition: args.partition.clone(),
        time: args.time.clone(),
        threads: threads.unwrap_or(1),
        retries: args.retries,
        poll: Duration::from_millis(500),
    };
    let binary = match &args.pitboss {
        Some(path) => path.clone(),
        None => std::env::current_exe().context("cannot find this pitboss binary; pass --pitboss FILE")?,
    };
    std::fs::create_dir_all(&args.workdir)
        .with_context(|| format!("cannot create --workdir {}", args.workdir.display()))?;
    let staged = pitboss_cluster::stage(league, &args.workdir, &binary)?;
    if args.slurm_script {
        out_raw!("{}", pitboss_cluster::script::batch_script(&staged, &options));
        return Ok(None);
    }
    if args.k8s_manifest {
        out_raw!("{}", pitboss_cluster::script::k8s_manifest(&staged, &options));
        return Ok(None);
    }
    eprintln!("slurm: staged in {}", staged.dir.display());
    let shown = |p: &Progress| {
        if let Some(note) = &p.note {
            eprintln!("slurm: {note}");
        }
        eprintln!(
            "slurm: shards done {}/{}, running {}, pending {}, resubmitted {}",
            p.done, p.shards, p.running, p.pending, p.retried
        );
    };
    let merged = pitboss_cluster::run(&staged, &options, &shown)?;
    eprintln!(
        "slurm: proved: {} session(s) drawn at random re-ran here byte for byte",
        pitboss_cluster::PROVEN_SESSIONS.min(merged.1.sessions.len() as u64)
    );
    Ok(Some(merged))
}
