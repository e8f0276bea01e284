//! Helpers shared by the integration tests: scripted players, event
//! capture, stacked-shoe tables, the paths of the built wasm bots, the
//! `pitboss` command run with a time limit, and (from `pitboss-testkit`,
//! which the crates' own tests share too) a scratch folder.

use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pitboss_engine::{Fault, Player, Request, Rules, Shoe, Table, TableEvent, parse_stacked};
use pitboss_results::tally::{SeatLog, Tally};
use pitboss_sdk::{Action, Decision};

pub mod webdriver;

pub use pitboss_testkit::scratch;

/// Where `bash scripts/build-bots` puts a bot's wasm file.
pub fn wasm_path(bot: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let path = target.join("wasm32-unknown-unknown/release").join(format!("{bot}.wasm"));
    assert!(path.exists(), "{} is missing: run `bash scripts/build-bots` first", path.display());
    path
}

/// The `pitboss` binary Cargo built for this test run: the integration
/// tests are a target of `harness/cli`, so `cargo test` builds the command
/// first and names it in `CARGO_BIN_EXE_pitboss` (set while the tests run).
pub fn pitboss_bin() -> PathBuf {
    std::env::var_os("CARGO_BIN_EXE_pitboss").map(PathBuf::from).expect(
        "CARGO_BIN_EXE_pitboss is not set: run the integration tests through cargo \
         (cargo test --release -p pitboss-cli --test integration)",
    )
}

/// `target/test-artifacts` (or under `$CARGO_TARGET_DIR`), where tests
/// leave screenshots and pages for people to look at.
pub fn artifacts() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let d = target.join("test-artifacts");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// How a `pitboss` command ended.
#[derive(Debug)]
pub struct Ran {
    /// Its exit code (`None`: killed by a signal).
    pub code: Option<i32>,
    /// What it printed.
    pub stdout: String,
    /// What it printed as errors and warnings.
    pub stderr: String,
}

/// Seconds a spawned `pitboss` may take before the test calls it hung: a
/// guard against a blocked command, far above the slowest command's time
/// (`pitboss coach` of 3,000 danish rounds: about 7 s of CPU) even on a
/// loaded machine.
pub const HANG_SECS: u64 = 120;

/// Runs `pitboss ARGS` in `dir` without the on-disk compile cache; a
/// command still running after [`HANG_SECS`] is killed and fails the test,
/// so a regression that blocks (a FIFO) fails instead of hanging.
pub fn pitboss(dir: &Path, args: &[&str]) -> Ran {
    pitboss_with(dir, args, Stdio::piped())
}

/// [`pitboss`], its standard output sent to `stdout` (e.g. `/dev/full`).
pub fn pitboss_with(dir: &Path, args: &[&str], stdout: Stdio) -> Ran {
    let mut child = Command::new(pitboss_bin())
        .args(args)
        .current_dir(dir)
        .env("PITBOSS_CACHE_DIR", "off")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn pitboss");
    let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for pitboss") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(HANG_SECS) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`pitboss {}` in {} still ran after {HANG_SECS} s: killed", args.join(" "), dir.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ran { code: status.code(), stdout: out.join().unwrap(), stderr: err.join().unwrap() }
}

/// Reads a child's pipe to the end on a thread (so a chatty child never
/// blocks on a full pipe while the test waits for it).
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    })
}

/// A class's submissions folder in `dir`: 30 copies of our wasm bots named
/// `studentNN-BOT.wasm`, five of each in a row, as `scripts/class-demo`
/// makes them. Returns the folder.
pub fn class_submissions(dir: &Path) -> PathBuf {
    let subs = dir.join("submissions");
    std::fs::create_dir_all(&subs).unwrap();
    let ours = ["basic", "hilo", "random", "mimic_dealer", "never_bust", "template"];
    for i in 0..30 {
        let bot = ours[i / 5 % ours.len()];
        std::fs::copy(wasm_path(bot), subs.join(format!("student{i:02}-{bot}.wasm"))).unwrap();
    }
    subs
}

/// What a [`Script`] saw of one request: (kind, legal actions, hand cards
/// as symbols, number of events delivered).
pub type Seen = (Decision, pitboss_sdk::ActionSet, String, usize);

/// A player that bets `bet`, answers insurance with `insurance`, and plays
/// the scripted actions in order (then stands). Every request it gets is
/// kept for inspection.
#[derive(Clone)]
pub struct Script {
    /// Stake per round.
    pub bet: i64,
    /// Insurance answer.
    pub insurance: i64,
    /// Answers for the other decisions, by kind code (default 0).
    pub fixed: [i64; 9],
    actions: Arc<Mutex<VecDeque<i64>>>,
    draws: Arc<Mutex<VecDeque<i64>>>,
    /// Every request received, in order.
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

impl Script {
    /// Bets `bet`, declines insurance, plays `actions`.
    pub fn new(bet: i64, actions: &[Action]) -> Script {
        Script::raw(bet, &actions.iter().map(|&a| a as i64).collect::<Vec<_>>())
    }

    /// As [`Script::new`] with raw answers (for illegal ones).
    pub fn raw(bet: i64, answers: &[i64]) -> Script {
        Script {
            bet,
            insurance: 0,
            fixed: [0; 9],
            actions: Arc::new(Mutex::new(answers.iter().copied().collect())),
            draws: Arc::new(Mutex::new(VecDeque::new())),
            seen: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Answers decision `kind` with `answer` every time.
    pub fn answer(mut self, kind: Decision, answer: i64) -> Script {
        self.fixed[kind as usize] = answer;
        self
    }

    /// As banker, answers `BANKER_DRAW` with these (then 0).
    pub fn draws(self, answers: &[i64]) -> Script {
        self.draws.lock().unwrap().extend(answers);
        self
    }

    /// The hands shown with each request of `kind`, as symbols.
    pub fn hands(&self, kind: Decision) -> Vec<String> {
        self.seen.lock().unwrap().iter().filter(|s| s.0 == kind).map(|s| s.2.clone()).collect()
    }

    /// Answers insurance with `amount`.
    pub fn insure(mut self, amount: i64) -> Script {
        self.insurance = amount;
        self
    }

    /// The kinds of decision asked so far.
    pub fn kinds(&self) -> Vec<Decision> {
        self.seen.lock().unwrap().iter().map(|s| s.0).collect()
    }
}

impl Player for Script {
    fn decide(&mut self, r: &Request<'_>) -> Result<i64, pitboss_engine::Fault> {
        let hand: String = r.hand.iter().map(|c| c.symbol()).collect();
        self.seen.lock().unwrap().push((r.header.kind, r.header.legal, hand, r.events.len()));
        Ok(match r.header.kind {
            Decision::Bet => self.bet,
            Decision::Insurance => self.insurance,
            Decision::Act => self.actions.lock().unwrap().pop_front().unwrap_or(0),
            Decision::BankerDraw => self.draws.lock().unwrap().pop_front().unwrap_or(0),
            other => self.fixed[other as usize],
        })
    }
}

/// Plays `rounds` rounds of `rules` from a stacked shoe (`cards` in shoe
/// file syntax) with `players` in box order; returns every table event and
/// the final balances. Each player starts with 1000 chips.
pub fn play_stacked(
    rules: Rules,
    cards: &str,
    players: Vec<Box<dyn Player + Send>>,
    rounds: u64,
) -> (Vec<TableEvent>, Vec<i64>) {
    let mut table = stacked_table(rules, cards, players);
    let mut events = Vec::new();
    for _ in 0..rounds {
        table.play_round(&mut |e: &TableEvent| events.push(e.clone())).expect("shoe long enough");
    }
    let balances: Vec<i64> = table.players().iter().map(|s| s.balance).collect();
    assert_eq!(balances.iter().sum::<i64>() - 1000 * balances.len() as i64, -table.house(), "chips conserved");
    (events, balances)
}

/// A table of `rules` dealing a stacked shoe (`cards` in shoe file
/// syntax), `players` in box order, each with 1000 chips.
pub fn stacked_table(rules: Rules, cards: &str, players: Vec<Box<dyn Player + Send>>) -> Table {
    let shoe = Shoe::stacked(parse_stacked(cards).expect("test shoe parses"));
    Table::new(rules, shoe, players, 1000).expect("valid table")
}

/// The `Settled` events as `(seat, hand, bet, returned, outcome)`.
pub fn settlements(events: &[TableEvent]) -> Vec<(u8, u8, i64, i64, pitboss_engine::Outcome)> {
    events
        .iter()
        .filter_map(|e| match *e {
            TableEvent::Settled { seat, hand, bet, returned, outcome } => Some((seat, hand, bet, returned, outcome)),
            _ => None,
        })
        .collect()
}

/// The faults as `(seat, decision)`.
pub fn faults(events: &[TableEvent]) -> Vec<(u8, Decision)> {
    events
        .iter()
        .filter_map(|e| match e {
            TableEvent::Fault { seat, kind, .. } => Some((*seat, *kind)),
            _ => None,
        })
        .collect()
}

/// Boxes a player.
pub fn boxed<P: Player + Send + 'static>(p: P) -> Box<dyn Player + Send> {
    Box::new(p)
}

/// What [`play_tallied`] saw: each player's tally, every event, and
/// whether play ended on a void round (a stacked shoe ran out).
pub struct Tallied {
    /// Per player, in seat order.
    pub tallies: Vec<Tally>,
    /// Every table event, in order.
    pub events: Vec<TableEvent>,
    /// The last round was void.
    pub void: bool,
}

/// Plays `table` through the results tally (`SeatLog`, as `pitboss play`
/// and leagues do) for up to `rounds` rounds, stopping when a stacked shoe
/// runs out (that round is void). After every round, void ones included,
/// chips must be conserved, no balance may be below zero, and each
/// player's tally parts must add up to its balance change since the call
/// ([`Tally::net`]).
pub fn play_tallied(table: &mut Table, rounds: u64) -> Tallied {
    let start: Vec<i64> = table.players().iter().map(|s| s.balance).collect();
    let chips = start.iter().sum::<i64>() + table.house();
    let mut events = Vec::new();
    let mut keep = |e: &TableEvent| events.push(e.clone());
    let mut log = SeatLog::new(&mut keep, start.len(), table.rules().boxes_per_player as usize);
    let mut void = false;
    for _ in 0..rounds {
        void = table.play_round(&mut log).is_err();
        let players: i64 = table.players().iter().map(|s| s.balance).sum();
        assert_eq!(players + table.house(), chips, "chips conserved after round {}", table.rounds());
        assert!(table.players().iter().all(|s| s.balance >= 0), "no balance below zero");
        for (p, (tally, seat)) in log.tallies().iter().zip(table.players()).enumerate() {
            let net = seat.balance - start[p];
            assert_eq!(
                tally.net(),
                net,
                "player {p} after round {}{}: the tally's parts do not add up to the net\n{tally:#?}",
                table.rounds() + void as u64,
                if void { " (void)" } else { "" },
            );
        }
        if void {
            break;
        }
    }
    let tallies = log.finish().into_iter().map(|(t, _)| t).collect();
    Tallied { tallies, events, void }
}

/// Wraps a player and hashes every (decision, legal set, hand, answer).
struct Tape {
    inner: Box<dyn Player + Send>,
    log: Arc<Mutex<(DefaultHasher, u64)>>,
}

impl Player for Tape {
    fn decide(&mut self, r: &Request<'_>) -> Result<i64, Fault> {
        let answer = self.inner.decide(r);
        let mut log = self.log.lock().unwrap();
        (r.header.kind, r.header.legal.0, r.hand, answer.as_ref().map_err(|f| f.kind)).hash(&mut log.0);
        log.1 += 1;
        answer
    }

    fn take_log(&mut self) -> Option<String> {
        self.inner.take_log()
    }
}

/// Plays `rounds` heads-up (`north-american`, a fixed shoe); returns
/// (decision hash, decisions, balance): two players with the same tape
/// made the same decisions.
pub fn taped_run(player: Box<dyn Player + Send>, rounds: u64) -> (u64, u64, i64) {
    taped_run_logged(player, rounds).0
}

/// [`taped_run`], also returning what the player logged, in order.
pub fn taped_run_logged(player: Box<dyn Player + Send>, rounds: u64) -> ((u64, u64, i64), Vec<String>) {
    taped_table_run(Rules::north_american(), player, Vec::new(), rounds)
}

/// [`taped_run_logged`] under `rules`, with `others` seated after the
/// player (untaped; where a player banks, the bank rotates among them
/// all).
pub fn taped_table_run(
    rules: Rules,
    player: Box<dyn Player + Send>,
    others: Vec<Box<dyn Player + Send>>,
    rounds: u64,
) -> ((u64, u64, i64), Vec<String>) {
    let log = Arc::new(Mutex::new((DefaultHasher::new(), 0)));
    let tape = Tape { inner: player, log: log.clone() };
    let shoe = Shoe::seeded(rules.decks, rules.cut_card, 2026);
    let mut players = vec![boxed(tape)];
    players.extend(others);
    let mut table = Table::new(rules, shoe, players, 10_000_000).unwrap();
    let mut logs = Vec::new();
    for _ in 0..rounds {
        table
            .play_round(&mut |e: &TableEvent| {
                if let TableEvent::BotLog { text, .. } = e {
                    logs.push(text.clone());
                }
            })
            .unwrap();
    }
    let log = log.lock().unwrap();
    ((log.0.finish(), log.1, table.players()[0].balance), logs)
}
