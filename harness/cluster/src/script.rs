//! What a cluster runs: the Slurm batch script of a staged league (one
//! array task per shard, each `pitboss run --shard I/J` writing its shard
//! file), and the same plan as a Kubernetes indexed Job manifest.

use crate::Options;
use crate::stage::Staged;

/// Single-quotes `text` for the shell.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The batch script: it carries `#SBATCH --array=0-(J-1)`, so `sbatch
/// FILE` alone plays every shard; `--array` on the command line (one
/// index, to run a failed shard again) overrides it.
pub fn batch_script(staged: &Staged, options: &Options) -> String {
    let league = staged.league.display().to_string();
    let dir = staged.league.parent().map(|p| p.display().to_string()).unwrap_or_default();
    let mut s = String::from("#!/bin/bash\n");
    s += &format!(
        "#SBATCH --job-name=pitboss-{}\n",
        staged.dir.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
    );
    s += &format!("#SBATCH --output={}/shard-%a.out\n", staged.logs.display());
    s += &format!("#SBATCH --error={}/shard-%a.err\n", staged.logs.display());
    s += &format!("#SBATCH --array=0-{}\n", options.shards.saturating_sub(1));
    s += &format!("#SBATCH --cpus-per-task={}\n", options.threads);
    if let Some(p) = &options.partition {
        s += &format!("#SBATCH --partition={p}\n");
    }
    if let Some(t) = &options.time {
        s += &format!("#SBATCH --time={t}\n");
    }
    s += "set -euo pipefail\n";
    s += &manifest_check(staged);
    s += &format!("cd {}\n", quoted(&dir));
    s += &format!(
        "exec {} run {} --shard \"$SLURM_ARRAY_TASK_ID/{}\" --threads {} --json {}/part-\"$SLURM_ARRAY_TASK_ID\".json\n",
        quoted(&staged.bin.display().to_string()),
        quoted(&league),
        options.shards,
        options.threads,
        quoted(&staged.out.display().to_string())
    );
    s
}

/// The lines that check, on the node and before anything runs, that the
/// binary, the league and every bot are byte for byte what was staged
/// (their SHA-256s, written into the script itself).
fn manifest_check(staged: &Staged) -> String {
    let mut s = String::from("if ! sha256sum --check --strict --quiet <<'PITBOSS_MANIFEST'\n");
    for (path, sha) in &staged.manifest {
        s += &format!("{sha}  {}\n", path.display());
    }
    s += "PITBOSS_MANIFEST\nthen\n";
    s += "    echo \"pitboss: a staged file differs from what was staged; refusing to run it\" >&2\n    exit 1\nfi\n";
    s
}

/// The same plan as a Kubernetes indexed Job (untested here: no cluster
/// runs in this project's CI). The staged folder must be mounted at the
/// same path in every pod (a `ReadWriteMany` volume, here `pitboss-work`).
pub fn k8s_manifest(staged: &Staged, options: &Options) -> String {
    let dir = staged.dir.display().to_string();
    let name = staged.dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let command = format!(
        "cd {} && exec {} run {} --shard \"$JOB_COMPLETION_INDEX/{}\" --threads {} --json {}/part-\"$JOB_COMPLETION_INDEX\".json",
        quoted(&staged.league.parent().map(|p| p.display().to_string()).unwrap_or_default()),
        quoted(&staged.bin.display().to_string()),
        quoted(&staged.league.display().to_string()),
        options.shards,
        options.threads,
        quoted(&staged.out.display().to_string())
    );
    format!(
        "# Untested here: a plan for a Kubernetes cluster. Mount the volume holding {dir} at the same path.\n\
apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {name}\nspec:\n  completionMode: Indexed\n  completions: {shards}\n  \
parallelism: {shards}\n  backoffLimitPerIndex: {retries}\n  template:\n    spec:\n      restartPolicy: Never\n      \
containers:\n        - name: shard\n          image: debian:bookworm-slim\n          command: [\"/bin/bash\", \"-c\"]\n          \
args: [{args}]\n          resources:\n            requests:\n              cpu: \"{threads}\"\n          volumeMounts:\n            \
- name: work\n              mountPath: {dir}\n      volumes:\n        - name: work\n          persistentVolumeClaim:\n            \
claimName: pitboss-work\n",
        shards = options.shards,
        retries = options.retries,
        threads = options.threads,
        args = serde_quote(&command),
    )
}

/// `text` as a YAML double-quoted scalar.
fn serde_quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}
