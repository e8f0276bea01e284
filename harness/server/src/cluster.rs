//! Runs on Slurm (`[runs] executor = "slurm"`, `[slurm]`): each league of
//! a run is staged from its run folder and played as a Slurm array job
//! by `pitboss_cluster`, its follow state (job ids, attempts) and progress
//! kept in the database after every change, so a restarted server picks
//! up the submitted job instead of submitting it again; the merged results
//! are then proven like an import (a random sample of sessions replayed
//! from the run folder's league and bots, byte for byte) before the run
//! is recorded. The organiser's page shows each league's shard progress.

use std::path::Path;
use std::time::Duration;

use pitboss_cluster::{Options, Progress, Submitted};
use pitboss_results::{LeagueResult, ResultsFile};
use rusqlite::{OptionalExtension, params};

use crate::competition::SlurmPolicy;
use crate::db::Db;
use crate::error::Error;

/// Sessions of a merged league replayed before it is recorded.
pub use pitboss_cluster::PROVEN_SESSIONS;

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS run_shards (run INTEGER NOT NULL, folder TEXT NOT NULL,
    stage TEXT NOT NULL, submitted TEXT NOT NULL, progress TEXT NOT NULL, PRIMARY KEY (run, folder))";

/// A league's place on the cluster: the run, its folder, where it is staged.
struct At<'a> {
    run: i64,
    folder: &'a str,
    stage: &'a Path,
}

impl Db {
    fn save_shards(&self, at: &At<'_>, submitted: &Submitted, progress: &Progress) -> Result<(), Error> {
        let conn = self.lock();
        conn.execute(SCHEMA, [])?;
        conn.execute(
            "INSERT OR REPLACE INTO run_shards (run, folder, stage, submitted, progress) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                at.run,
                at.folder,
                at.stage.display().to_string(),
                serde_json::to_string(submitted)?,
                serde_json::to_string(progress)?
            ],
        )?;
        Ok(())
    }

    /// What was submitted for league `folder` of run `run` before, and
    /// where it was staged.
    fn submitted(&self, run: i64, folder: &str) -> Result<Option<(Submitted, String)>, Error> {
        let conn = self.lock();
        conn.execute(SCHEMA, [])?;
        let sql = "SELECT submitted, stage FROM run_shards WHERE run = ?1 AND folder = ?2";
        let row: Option<(String, String)> =
            conn.query_row(sql, params![run, folder], |r| Ok((r.get(0)?, r.get(1)?))).optional()?;
        Ok(row.and_then(|(t, stage)| Some((serde_json::from_str(&t).ok()?, stage))))
    }

    /// Each league's shard progress of run `run` played on Slurm.
    pub fn shard_progress(&self, run: i64) -> Result<Vec<(String, Progress)>, Error> {
        let conn = self.lock();
        conn.execute(SCHEMA, [])?;
        let mut stmt = conn.prepare("SELECT folder, progress FROM run_shards WHERE run = ?1 ORDER BY folder")?;
        let rows = stmt.query_map([run], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        let rows: Vec<(String, String)> = rows.collect::<Result<_, _>>()?;
        Ok(rows.into_iter().filter_map(|(f, p)| Some((f, serde_json::from_str(&p).ok()?))).collect())
    }
}

/// Plays league `folder` of run `run` (its league file at `league`) on
/// Slurm, resuming a job submitted before a restart; proves and returns
/// the merged results (blocking, for as long as the cluster takes).
pub fn play(
    db: &Db,
    run: i64,
    folder: &str,
    league: &Path,
    policy: &SlurmPolicy,
) -> Result<(LeagueResult, ResultsFile), Error> {
    let options = Options {
        shards: policy.shards,
        partition: policy.partition.clone(),
        time: policy.time.clone(),
        threads: 1,
        retries: policy.retries,
        poll: Duration::from_secs(1),
    };
    let earlier = db.submitted(run, folder)?.filter(|(s, _)| s.jobs.len() as u64 == policy.shards);
    let binary = std::env::current_exe()?;
    // Staged before a restart and untouched since: follow that job.
    let resumed =
        earlier.and_then(|(s, stage)| Some((s, pitboss_cluster::reopen(Path::new(&stage), league, &binary).ok()?)));
    let (staged, mut submitted) = match resumed {
        Some((s, staged)) => (staged, s),
        None => {
            let staged = pitboss_cluster::stage(league, &policy.workdir, &binary).map_err(Error::Slurm)?;
            let submitted = pitboss_cluster::submit(&staged, &options).map_err(Error::Slurm)?;
            (staged, submitted)
        }
    };
    let at = At { run, folder, stage: &staged.dir };
    db.save_shards(&at, &submitted, &Progress { shards: policy.shards, ..Progress::default() })?;
    let saved = |p: &Progress, s: &Submitted| {
        if let Err(e) = db.save_shards(&at, s, p) {
            eprintln!("pitboss serve: run {run} {folder}: cannot record shard progress: {e}");
        }
    };
    let merged = pitboss_cluster::follow(&staged, &options, &mut submitted, &saved).map_err(Error::Slurm)?;
    prove(league, &merged.1)?;
    Ok(merged)
}

/// Replays [`PROVEN_SESSIONS`] sessions drawn at random of `results`
/// from the league file and bots beside `league`, and refuses any
/// difference.
fn prove(league: &Path, results: &ResultsFile) -> Result<(), Error> {
    pitboss_cluster::prove(league, results).map_err(Error::Slurm)
}
