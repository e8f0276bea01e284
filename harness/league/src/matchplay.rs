//! Playing a match: seat bots at a table, play rounds, collect results.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use pitboss_engine::{Recorder, Rules, Table};
use pitboss_engine::{derive_seed, parse_stacked};
use serde::{Deserialize, Serialize};

use crate::bots::Bot;
use crate::setup::TableSpec;
use pitboss_results::BotResult;
use pitboss_results::tally::SeatLog;

/// Everything that decides a match's cards and chips.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    /// Rule set.
    pub rules: Rules,
    /// Rounds to play (a stacked shoe may end the match earlier).
    pub rounds: u64,
    /// Seed of the shoe.
    pub seed: u64,
    /// Chips each bot starts with.
    pub bankroll: i64,
    /// A stacked shoe instead of a seeded one.
    pub stacked: Option<Vec<pitboss_sdk::Card>>,
    /// Faults after which a bot is disqualified; 0 = never.
    pub fault_limit: u64,
}

/// With a stacked shoe, the rounds in a row without a bet after which a
/// match stops.
pub const IDLE_ROUNDS_CAP: u64 = 1_000;

/// The outcome of one table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableResult {
    /// Rounds completed.
    pub rounds: u64,
    /// Why play stopped early, if it did.
    pub stopped: Option<String>,
    /// The house's net chips.
    pub house: i64,
    /// Per bot, in seat order.
    pub bots: Vec<BotResult>,
}

/// Plays one table of `bots` (seat order = slice order) under `spec`.
pub fn play_table<R: Recorder>(spec: &MatchSpec, bots: &[(String, Bot)], rec: &mut R) -> Result<TableResult> {
    play_counting::<R, true>(spec, bots, rec)
}

/// [`play_table`], or without the bots' tallies (`BotResult::tally`
/// stays zero) if not `tally`: for a match whose tallies nobody reads,
/// the same cards, chips, statistics and faults, about a tenth faster
/// heads-up.
fn play_counted<R: Recorder>(
    spec: &MatchSpec,
    bots: &[(String, Bot)],
    rec: &mut R,
    tally: bool,
) -> Result<TableResult> {
    if tally { play_counting::<R, true>(spec, bots, rec) } else { play_counting::<R, false>(spec, bots, rec) }
}

/// [`play_table`], counting the bots' tallies if `TALLY`.
fn play_counting<R: Recorder, const TALLY: bool>(
    spec: &MatchSpec,
    bots: &[(String, Bot)],
    rec: &mut R,
) -> Result<TableResult> {
    let seats: Vec<usize> = (0..bots.len()).collect();
    let mut table = TableSpec {
        rules: &spec.rules,
        seed: spec.seed,
        stacked: spec.stacked.as_deref(),
        bankroll: spec.bankroll,
        fault_limit: spec.fault_limit,
    }
    .seat(bots, &seats)?;
    let mut rec = SeatLog::<R, TALLY>::counting(rec, bots.len(), spec.rules.boxes_per_player as usize);
    let mut stopped = None;
    let mut idle = 0;
    // A stacked shoe runs out only when cards are dealt: a match whose bots
    // all sit out would never end on its own. (A seeded shoe's match ends
    // at `rounds`, so only a stacked one is watched.)
    let watch_idle = spec.stacked.is_some();
    let bets_so_far = |table: &Table| table.players().iter().map(|s| s.stats.rounds).sum::<u64>();
    for _ in 0..spec.rounds {
        let before = if watch_idle { bets_so_far(&table) } else { 0 };
        if let Err(e) = table.play_round(&mut rec) {
            stopped = Some(format!("{e}; round {} was void and its stakes returned", table.rounds() + 1));
            break;
        }
        if watch_idle {
            idle = if bets_so_far(&table) == before { idle + 1 } else { 0 };
            if idle == IDLE_ROUNDS_CAP {
                stopped = Some(format!(
                    "no bot has bet for {IDLE_ROUNDS_CAP} rounds in a row, so the stacked shoe is not dealt"
                ));
                break;
            }
        }
    }
    let bots = bots
        .iter()
        .zip(table.players())
        .zip(rec.finish())
        .enumerate()
        .map(|(k, (((name, _), seat), (tally, log)))| BotResult {
            fault_log: log,
            tally,
            broke: !seat.disqualified && table.out_for_good(k),
            cost: seat.spent().map(pitboss_results::Cost::from),
            ..BotResult::new(name.clone(), &seat.stats, seat.balance, spec.bankroll, seat.disqualified)
        })
        .collect();
    Ok(TableResult { rounds: table.rounds(), stopped, house: table.house(), bots })
}

/// Options of `pitboss play`.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Rule set id.
    pub variant: String,
    /// Bot specs (`.wasm` paths or `builtin:NAME`), seat order.
    pub bots: Vec<String>,
    /// Rounds to play; with a stacked shoe, `None` plays until it runs out.
    pub rounds: Option<u64>,
    /// Master seed.
    pub seed: u64,
    /// Stacked shoe file.
    pub shoe: Option<PathBuf>,
    /// Chips each bot starts with.
    pub bankroll: i64,
    /// Print every event.
    pub transcript: bool,
    /// Faults after which a bot is disqualified; 0 = never.
    pub fault_limit: u64,
    /// The limits the bots play under (a league's `[limits]`, flags).
    pub limits: crate::file::LimitChoice,
    /// Count each bot's tally (`BotResult::tally`, which the JSON
    /// results carry); without it the tallies stay zero. `pitboss play`
    /// counts them only when it writes JSON: nothing else reads them.
    pub tally: bool,
}

/// What `pitboss play` reports (and writes as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayReport {
    /// Rule set id.
    pub variant: String,
    /// Master seed (absent with a stacked shoe).
    pub seed: Option<u64>,
    /// Rounds asked for.
    pub rounds_requested: Option<u64>,
    /// The table's outcome.
    #[serde(flatten)]
    pub table: TableResult,
}

/// The `pitboss play` command that plays `opts`'s match again up to
/// `round`, with a transcript: every fault's round can be looked at card
/// by card.
pub fn replay_command(opts: &PlayOptions, round: u64) -> String {
    let quote = |s: &str| {
        let s = pitboss_host::text::excerpt(s, 300);
        if s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:+=@".contains(c)) {
            s
        } else {
            format!("'{}'", s.replace('\'', "'\\''"))
        }
    };
    let mut out = format!("pitboss play --variant {}", quote(&opts.variant));
    for bot in &opts.bots {
        out.push_str(&format!(" --bot {}", quote(bot)));
    }
    match &opts.shoe {
        Some(shoe) => out.push_str(&format!(" --shoe {}", quote(&shoe.display().to_string()))),
        None => out.push_str(&format!(" --seed {}", opts.seed)),
    }
    if opts.bankroll != DEFAULT_BANKROLL {
        out.push_str(&format!(" --bankroll {}", opts.bankroll));
    }
    if opts.fault_limit != crate::file::DEFAULT_FAULT_LIMIT {
        out.push_str(&format!(" --fault-limit {}", opts.fault_limit));
    }
    out.push_str(&opts.limits.args(quote));
    out.push_str(&format!(" --rounds {round} --transcript"));
    out
}

/// Chips each bot starts a `pitboss play` match with unless told.
pub const DEFAULT_BANKROLL: i64 = 1_000_000;

/// Runs `pitboss play`, writing the transcript (with `opts.transcript`)
/// to `transcript`; also returns the wall time for the throughput line.
pub fn play(opts: &PlayOptions, transcript: &mut dyn std::io::Write) -> Result<(PlayReport, std::time::Duration)> {
    let variant = Rules::variant_by_id(&opts.variant)?;
    let rules = Rules::for_variant(variant);
    let sandbox = opts.limits.sandbox(&crate::sandbox()?)?;
    let mut bots = Vec::new();
    for spec in &opts.bots {
        let bot = Bot::resolve(spec, Path::new("."), &sandbox)?;
        let mut name = bot.default_name();
        let same =
            bots.iter().filter(|(n, _): &&(String, Bot)| n == &name || n.starts_with(&format!("{name}#"))).count();
        if same > 0 {
            name = format!("{name}#{}", same + 1);
        }
        bots.push((name, bot));
    }
    let stacked = match &opts.shoe {
        Some(path) => {
            let text = pitboss_host::files::read_text(path, pitboss_host::files::Kind::Shoe)?;
            Some(parse_stacked(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let rounds = opts.rounds.unwrap_or(if stacked.is_some() { u64::MAX } else { 100_000 });
    // A stacked shoe deals at least one card a round that anyone bets in,
    // and stops a match after a run of rounds without a bet.
    let rounds_bound = match &stacked {
        Some(cards) => rounds.min(cards.len() as u64 + IDLE_ROUNDS_CAP),
        None => rounds,
    };
    rules.check_chip_range(opts.bankroll, rounds_bound, 1).map_err(|e| anyhow::anyhow!("--bankroll/--rounds: {e}"))?;
    let spec = MatchSpec {
        rules,
        rounds,
        seed: derive_seed(opts.seed, 0),
        bankroll: opts.bankroll,
        stacked,
        fault_limit: opts.fault_limit,
    };
    let start = Instant::now();
    let table = if opts.transcript {
        play_counted(&spec, &bots, &mut crate::transcript::Transcript::new(transcript), opts.tally)?
    } else {
        play_counted(&spec, &bots, &mut (), opts.tally)?
    };
    let elapsed = start.elapsed();
    let report = PlayReport {
        variant: opts.variant.clone(),
        seed: spec.stacked.is_none().then_some(opts.seed),
        rounds_requested: opts.rounds,
        table,
    };
    Ok((report, elapsed))
}
