//! `pitboss run --slurm` against a real Slurm: the test starts its own
//! single-node cluster (munged, slurmctld and slurmd from Debian's
//! `slurm-wlm` and `munge`, on loopback ports of its own, with a key and
//! folders of its own) and stops it after. A 4-shard league gives the
//! local run's results byte for byte; a shard cancelled with `scancel`
//! while it plays is submitted again and the results are still the same.
//! It is `#[ignore = "needs slurm"]`: `bash scripts/test` runs it, and
//! where Slurm is missing (or the test is not root) it fails.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::server::scratch;

const DAEMONS: [&str; 3] = ["/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd"];

/// A single-node Slurm cluster of the test's own; stopped on drop.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn ok(out: std::io::Result<Output>, what: &str) -> String {
    let out = out.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

impl Cluster {
    /// Why Slurm cannot run here, if it cannot.
    fn unavailable() -> Option<String> {
        if let Some(missing) = DAEMONS.iter().chain(&["/usr/bin/sbatch"]).find(|p| !Path::new(p).exists()) {
            return Some(format!(
                "{missing} is missing (Debian packages slurm-wlm and munge; scripts/setup installs them)"
            ));
        }
        // SAFETY: geteuid has no preconditions.
        (unsafe { libc::geteuid() } != 0).then(|| "the test cluster's daemons run as root and this is not root".into())
    }

    fn start(dir: &Path) -> Cluster {
        let host = ok(Command::new("hostname").arg("-s").output(), "hostname").trim().to_string();
        for sub in ["state", "spool", "log"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let key: Vec<u8> = (0..1024u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        std::fs::write(dir.join("munge.key"), key).unwrap();
        std::fs::set_permissions(dir.join("munge.key"), std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
        let d = dir.display();
        ok(
            Command::new(DAEMONS[0])
                .args(["--force", &format!("--key-file={d}/munge.key"), &format!("--socket={d}/munge.socket")])
                .args([&format!("--pid-file={d}/munged.pid"), &format!("--log-file={d}/munged.log")])
                .arg(format!("--seed-file={d}/munge.seed"))
                .output(),
            "munged",
        );
        let conf = dir.join("slurm.conf");
        std::fs::write(&conf, config(dir, &host)).unwrap();
        let cluster = Cluster { dir: dir.to_path_buf(), conf };
        ok(cluster.command(DAEMONS[1]).args(["-f", &cluster.conf.display().to_string()]).output(), "slurmctld");
        ok(cluster.command(DAEMONS[2]).args(["-f", &cluster.conf.display().to_string()]).output(), "slurmd");
        let start = Instant::now();
        while !cluster.command("sinfo").args(["-h", "-o", "%t"]).output().is_ok_and(|o| o.stdout.starts_with(b"idle")) {
            assert!(start.elapsed() < Duration::from_secs(60), "the test cluster did not come up: {}", cluster.logs());
            std::thread::sleep(Duration::from_millis(250));
        }
        cluster
    }

    /// `program` with this cluster's configuration.
    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf).env("PITBOSS_CACHE_DIR", "off");
        c
    }

    fn logs(&self) -> String {
        let read = |f: &str| std::fs::read_to_string(self.dir.join(f)).unwrap_or_default();
        format!("{}\n{}", read("log/slurmctld.log"), read("log/slurmd.log"))
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for pid_file in ["slurmd.pid", "slurmctld.pid", "munged.pid"] {
            if let Some(pid) = std::fs::read_to_string(self.dir.join(pid_file)).ok().and_then(|p| p.trim().parse().ok())
            {
                // SAFETY: a signal to a daemon this test started.
                unsafe { libc::kill(pid, libc::SIGTERM) };
            }
        }
    }
}

/// A one-node cluster on loopback: this host, 2 CPUs, one partition.
fn config(dir: &Path, host: &str) -> String {
    let d = dir.display();
    format!(
        "ClusterName=pitboss-test\nSlurmctldHost={host}(127.0.0.1)\nSlurmctldPort={}\nSlurmdPort={}\n\
         SlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\nAuthInfo=socket={d}/munge.socket\nCredType=cred/munge\n\
         StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\nSlurmctldPidFile={d}/slurmctld.pid\n\
         SlurmdPidFile={d}/slurmd.pid\nSlurmctldLogFile={d}/log/slurmctld.log\nSlurmdLogFile={d}/log/slurmd.log\n\
         ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSchedulerType=sched/builtin\n\
         SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nAccountingStorageType=accounting_storage/none\n\
         JobCompType=jobcomp/none\nJobAcctGatherType=jobacct_gather/none\nMpiDefault=none\nReturnToService=2\n\
         MinJobAge=3600\nNodeName={host} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
         PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
        free_port(),
        free_port()
    )
}

/// A league of two wasm bots and a builtin, bots beside it.
fn league(dir: &Path, rounds: u64) -> PathBuf {
    std::fs::create_dir_all(dir.join("bots")).unwrap();
    for bot in ["basic", "hilo"] {
        std::fs::copy(pitboss_tests::wasm_path(bot), dir.join("bots").join(format!("{bot}.wasm"))).unwrap();
    }
    let text = format!(
        "name = \"On the cluster\"\nvariant = \"north-american\"\nrounds = {rounds}\nsessions = 8\nseed = 3\n\
         bankroll = 1000000\nformat = \"table\"\n[[bot]]\npath = \"bots/basic.wasm\"\n[[bot]]\npath = \"bots/hilo.wasm\"\n\
         [[bot]]\nbuiltin = \"random\"\n"
    );
    std::fs::write(dir.join("league.toml"), text).unwrap();
    dir.join("league.toml")
}

fn pitboss(cluster: &Cluster, dir: &Path, args: &[&str]) -> Child {
    cluster
        .command(&pitboss_tests::pitboss_bin().display().to_string())
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits up to 10 minutes for `child`; its exit, stdout and stderr.
fn finish(mut child: Child) -> (bool, String, String) {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(600) {
            let _ = child.kill();
            panic!("pitboss on the cluster still ran after 10 minutes");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
#[ignore = "needs slurm"]
fn a_league_on_a_real_slurm_gives_the_local_results_and_survives_a_cancelled_shard() {
    if let Some(why) = Cluster::unavailable() {
        panic!("this test needs a single-node Slurm, but {why}");
    }
    let dir = scratch("slurm");
    let cluster = Cluster::start(&dir.join("cluster"));
    let work = dir.join("shared");
    std::fs::create_dir_all(&work).unwrap();
    let w = work.display().to_string();

    // Four shards, byte for byte the local run.
    let small = dir.join("small");
    league(&small, 3_000);
    let (ok, local, err) = finish(pitboss(&cluster, &small, &["run", "league.toml", "--json", "local.json"]));
    assert!(ok, "{err}");
    let t = Instant::now();
    let args = ["run", "league.toml", "--slurm", "--shards", "4", "--workdir", &w, "--json", "slurm.json"];
    let (ok, remote, err) = finish(pitboss(&cluster, &small, &args));
    assert!(ok, "{err}\n{}", cluster.logs());
    let took = t.elapsed();
    assert_eq!(std::fs::read(small.join("slurm.json")).unwrap(), std::fs::read(small.join("local.json")).unwrap());
    assert_eq!(remote, local, "the same standings printed");
    assert!(err.contains("shards done 4/4"), "{err}");

    // A shard cancelled while it plays is submitted again.
    let big = dir.join("big");
    league(&big, 400_000);
    let (ok, _, err) = finish(pitboss(&cluster, &big, &["run", "league.toml", "--json", "local.json"]));
    assert!(ok, "{err}");
    let args = ["run", "league.toml", "--slurm", "--shards", "4", "--workdir", &w, "--json", "slurm.json"];
    let child = pitboss(&cluster, &big, &args);
    let start = Instant::now();
    let running = loop {
        let out = cluster.command("squeue").args(["-h", "-t", "RUNNING", "-o", "%i"]).output().unwrap();
        if let Some(task) = String::from_utf8_lossy(&out.stdout).lines().next().filter(|t| t.contains('_')) {
            break task.to_string();
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no shard ever ran");
        std::thread::sleep(Duration::from_millis(100));
    };
    ok_status(cluster.command("scancel").arg(&running).status());
    let (ok, _, err) = finish(child);
    assert!(ok, "{err}\n{}", cluster.logs());
    assert!(err.contains("ended CANCELLED") && err.contains("submitted again"), "{err}");
    assert_eq!(std::fs::read(big.join("slurm.json")).unwrap(), std::fs::read(big.join("local.json")).unwrap());
    eprintln!(
        "slurm: 4 shards of 8 × 3,000 rounds on the test cluster in {} ms; cancelled {running}",
        took.as_millis()
    );
    an_attacker_on_the_shared_storage_can_neither_plant_nor_swap_anything(&cluster, &dir);
    a_server_plays_its_runs_on_slurm_and_resumes_after_a_restart(&cluster, &dir, &work);
}

/// The second local user the attacks below run as.
const ATTACKER: &str = "pitboss-attacker";

/// Runs `script` as [`ATTACKER`] (made once, a system user without a home).
fn as_attacker(script: &str) {
    let exists = Command::new("id").arg(ATTACKER).output().unwrap().status.success();
    if !exists {
        let made = Command::new("useradd")
            .args(["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", ATTACKER])
            .status()
            .unwrap();
        assert!(made.success(), "useradd {ATTACKER}");
    }
    let out = Command::new("runuser").args(["-u", ATTACKER, "--", "sh", "-c", script]).output().unwrap();
    assert!(out.status.success(), "as {ATTACKER}: {script}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Shared storage (mode 1777, as a cluster's scratch is) where another
/// user plants what the staging folder's old, predictable name
/// (`pitboss-` and the SHA-256 of the league's text and bots) would meet:
/// the binary's place a link to the organiser's file, the shard files
/// folder full of a forged shard. The organiser's run stages elsewhere,
/// privately, and gives the local results; the planted file is untouched.
fn an_attacker_on_the_shared_storage_can_neither_plant_nor_swap_anything(cluster: &Cluster, dir: &Path) {
    use sha2::{Digest, Sha256};
    let shared = dir.join("hostile-shared");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::set_permissions(&shared, std::os::unix::fs::PermissionsExt::from_mode(0o1777)).unwrap();
    let home = dir.join("organiser");
    league(&home, 2_000);
    let (ok, _, err) = finish(pitboss(cluster, &home, &["run", "league.toml", "--json", "local.json"]));
    assert!(ok, "{err}");
    // The old name, from public data.
    let mut hash = Sha256::new();
    hash.update(std::fs::read(home.join("league.toml")).unwrap());
    for bot in ["basic", "hilo"] {
        hash.update(Sha256::digest(std::fs::read(home.join(format!("bots/{bot}.wasm"))).unwrap()));
    }
    let id: String = hash.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "9 bytes!\n").unwrap();
    let planted = shared.join(format!("pitboss-{id}"));
    as_attacker(&format!(
        "mkdir -p {p}/bin {p}/out && chmod -R 777 {p} && ln -s {v} {p}/bin/pitboss",
        p = planted.display(),
        v = victim.display()
    ));
    let s = shared.display().to_string();
    let args = ["run", "league.toml", "--slurm", "--shards", "2", "--workdir", &s, "--json", "slurm.json"];
    let (ok, _, err) = finish(pitboss(cluster, &home, &args));
    assert!(ok, "{err}\n{}", cluster.logs());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "9 bytes!\n", "the planted link was followed");
    assert_eq!(std::fs::read(home.join("slurm.json")).unwrap(), std::fs::read(home.join("local.json")).unwrap());
    assert!(err.contains("slurm: proved:"), "a sample of sessions re-ran before the results were taken: {err}");
    let staged = err.lines().find_map(|l| l.strip_prefix("slurm: staged in ")).expect("the staged folder is named");
    let staged = Path::new(staged.trim());
    assert_ne!(staged, planted, "the staged folder's name cannot be guessed");
    let meta = std::fs::symlink_metadata(staged).unwrap();
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    assert!(meta.is_dir() && meta.permissions().mode() & 0o777 == 0o700, "{:o}", meta.permissions().mode());
    assert_eq!(meta.uid(), 0, "the organiser's own folder");
    // A staged file changed behind the organiser's back is refused on the
    // node before it runs: the batch script checks every SHA-256.
    let script = std::fs::read_to_string(staged.join("shards.sbatch")).unwrap();
    assert!(script.contains("sha256sum --check --strict") && script.contains("bin/pitboss"), "{script}");
}

/// Counts the array jobs Slurm remembers (`MinJobAge` is an hour here).
fn array_jobs(cluster: &Cluster) -> usize {
    let out = cluster.command("scontrol").args(["show", "job", "-o"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let ids: std::collections::BTreeSet<&str> =
        text.split_whitespace().filter_map(|kv| kv.strip_prefix("ArrayJobId=")).collect();
    ids.len()
}

/// `[runs] executor = "slurm"`: a run played on the cluster reaches the
/// leaderboard, re-runs byte for byte with `pitboss verify`, and a server
/// killed while its job plays follows that job after its restart.
fn a_server_plays_its_runs_on_slurm_and_resumes_after_a_restart(cluster: &Cluster, dir: &Path, work: &Path) {
    use crate::server::{Server, bytes, call, html, login, wait_for_run};
    let comp = dir.join("competition.toml");
    let text = format!(
        "name = \"Cluster cup\"\n[runs]\nexecutor = \"slurm\"\n[slurm]\nworkdir = \"{}\"\nshards = 2\n\
         [uploads]\nscore_rounds = 0\n[entrants]\nnames = [\"alice\", \"bob\"]\n[[league]]\nname = \"Main\"\n\
         variant = \"north-american\"\nrounds = 150000\nsessions = 4\nseed = 5\nbankroll = 10000000\n",
        work.display()
    );
    std::fs::write(&comp, text).unwrap();
    let data = dir.join("data");
    let conf = [("SLURM_CONF", cluster.conf.as_path())];
    let server = Server::start_with(&comp, &data, &conf);
    let (url, admin) = (server.url.clone(), server.token("admin"));
    for (who, bot) in [("alice", "basic"), ("bob", "hilo")] {
        let (status, v) = call("POST", &format!("{url}/api/submissions"), Some(&server.token(who)), Some(&bytes(bot)));
        assert_eq!(status, 201, "{v}");
    }
    let (_, run) = call("POST", &format!("{url}/api/runs"), Some(&admin), None);
    let id = run["run"].as_i64().unwrap();
    wait_for_run(&url, id, "running", 60);
    let start = Instant::now();
    let before = loop {
        // Counted once the page shows the job: counted before looking, a
        // job submitted in between would seem submitted again later.
        if html(&url, &login(&url, &admin), "/admin").contains("on Slurm: shards done 0/2") {
            break array_jobs(cluster);
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no shard progress shown");
        std::thread::sleep(Duration::from_millis(200));
    };
    // Killed mid-run: the restarted server follows the same job.
    drop(server);
    let server = Server::start_with(&comp, &data, &conf);
    let url = server.url.clone();
    wait_for_run(&url, id, "done", 600);
    assert_eq!(array_jobs(cluster), before, "no job submitted again after the restart");
    let page = html(&url, &login(&url, &admin), "/admin");
    assert!(page.contains("league-1 on Slurm: shards done 2/2"), "{page}");
    let (_, board) = call("GET", &format!("{url}/api/leaderboard"), None, None);
    assert_eq!(board["latest"]["leagues"][0]["rows"].as_array().unwrap().len(), 2, "{board}");
    let results = data.join(format!("runs/{id}/league-1/results.json"));
    let ran = pitboss_tests::pitboss(dir, &["verify", &results.display().to_string()]);
    assert_eq!(ran.code, Some(0), "the run re-runs byte for byte: {} {}", ran.stdout, ran.stderr);
}

fn ok_status(status: std::io::Result<std::process::ExitStatus>) {
    assert!(status.unwrap().success());
}

#[test]
fn the_batch_script_and_the_manifest_are_printed_and_bad_values_refused_in_one_line() {
    let dir = scratch("slurm-script");
    league(&dir, 1_000);
    let ran = pitboss_tests::pitboss(&dir, &["run", "league.toml", "--slurm-script", "--shards", "3", "--time", "30"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let lines = ["#SBATCH --time=30", "#SBATCH --error=", "--shard \"$SLURM_ARRAY_TASK_ID/3\"", "/bin/pitboss' run"];
    // `sbatch job.sh` alone plays every shard: the array is in the script.
    for line in lines.into_iter().chain(["\n#SBATCH --array=0-2\n"]) {
        assert!(ran.stdout.contains(line), "{line} in {}", ran.stdout);
    }
    let staged: Vec<_> = std::fs::read_dir(dir.join("pitboss-cluster")).unwrap().collect();
    assert_eq!(staged.len(), 1, "staged once in the default work folder");
    let ran = pitboss_tests::pitboss(&dir, &["run", "league.toml", "--k8s-manifest", "--shards", "3"]);
    assert!(ran.stdout.contains("completionMode: Indexed") && ran.stdout.contains("completions: 3"), "{}", ran.stdout);
    for (args, says) in [
        (vec!["--slurm", "--time", "1h"], "--time `1h`"),
        (vec!["--slurm", "--partition", "a b"], "--partition"),
        (vec!["--slurm", "--shards", "0"], "--shards"),
        (vec!["--slurm", "--retries", "11"], "--retries"),
        (vec!["--slurm", "--shard", "0/2"], "--shard"),
    ] {
        let mut all = vec!["run", "league.toml"];
        all.extend(args);
        let ran = pitboss_tests::pitboss(&dir, &all);
        assert_ne!(ran.code, Some(0));
        assert!(ran.stderr.contains(says), "{all:?}: {}", ran.stderr);
    }
}
