//! The coach as a library call for a server: one bot, a parsed league
//! file, N rounds from a seed, and the same [`Report`] `pitboss coach
//! --json` writes.
//!
//! [`coach_league`] is the contract the competition server relies on;
//! `pitboss coach --league` goes through it too, so the command line and
//! a server page show the same figures for the same inputs.

use std::path::Path;

use pitboss_engine::Rules;
use pitboss_host::Sandbox;
use pitboss_league::PlayOptions;
use pitboss_league::bots::Bot;
use pitboss_league::file::LeagueFile;

use crate::{CoachError, CoachSpec, MAX_ROUNDS, MAX_TOP, Report, UNIT, coach};

/// The bot to coach: a wasm (or WAT) file, its bytes, or a builtin.
#[derive(Clone, Copy, Debug)]
pub enum BotInput<'a> {
    /// A `.wasm` or `.wat` file, read as hostile input (a regular file
    /// under the bot size cap).
    Path(&'a Path),
    /// A module's bytes, with the name the report gives the bot (a file
    /// name such as `alice.wasm`; its stem names the bot).
    Bytes {
        /// The file name the bytes came from.
        name: &'a str,
        /// The module.
        bytes: &'a [u8],
    },
    /// A strategy compiled into the harness (`basic`, `hilo`, …).
    Builtin(&'a str),
}

/// What to play: rounds, seed, how many situations to list, and
/// optionally another bankroll than the league's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoachRequest {
    /// Rounds to play, 1 to [`MAX_ROUNDS`].
    pub rounds: u64,
    /// The seed, as `pitboss play --seed` takes it.
    pub seed: u64,
    /// Situations listed, 1 to [`MAX_TOP`] (20 unless told).
    pub top: usize,
    /// Chips the bot starts with; `None`: the league's bankroll.
    pub bankroll: Option<i64>,
}

impl CoachRequest {
    /// `rounds` rounds from `seed`, the top 20 situations, the league's
    /// bankroll.
    pub fn new(rounds: u64, seed: u64) -> CoachRequest {
        CoachRequest { rounds, seed, top: 20, bankroll: None }
    }
}

/// Coaches one bot under `league`: the league's rule set with its
/// `[rules]` overrides, its `[limits]` (on top of `sandbox`'s, whose
/// compile cache is used), its fault limit and its bankroll (unless
/// `request.bankroll` says otherwise), for `request.rounds` rounds dealt
/// from `request.seed` exactly as `pitboss play --seed` deals them. The
/// league's bots, rounds, sessions and seed are not used.
///
/// Returns the [`Report`] `pitboss coach --json` writes (serialize it
/// with `serde_json`): one entry in `bots`, named after the file's stem.
/// The same inputs give the same report, bit for bit, on any machine and
/// thread count. When the league plays a rule set's own rules, each
/// situation's `replay` is the `pitboss play … --only-round R` command
/// printing its example round alone, naming the bot by its file name
/// ([`Run::bot_shown`] names it otherwise); with overrides it is empty
/// (`pitboss play` cannot replay them).
///
/// **Cost.** Blocking and CPU-bound (call it from a worker, never an
/// async thread), on one thread ([`coach_league_with`] takes more):
/// about 0.3 ms of CPU a round for `basic` (32 CPU s per 10⁵ rounds on
/// north-american; docs/coach.md), nearly all of it the exact analyzer,
/// so time is linear in `request.rounds` and a bot's own fuel (capped by
/// the league's `[limits]`) adds at most its per-decision cap. Memory is
/// flat in the rounds (about 26 MB a thread): sums only, analyzers
/// dropped at each round's end, at most `request.top` situations kept in
/// the report. A server should cap `rounds` well below [`MAX_ROUNDS`]
/// (10⁵ rounds ≈ half a core-minute).
///
/// # Errors
/// One line each: `rounds` outside 1..=[`MAX_ROUNDS`] or `top` outside
/// 1..=[`MAX_TOP`] ([`CoachError::Request`]); a bankroll or round count
/// whose chips could overflow; the banker game or more than one box a
/// player ([`CoachError::Unsupported`]); a league whose rules or limits
/// do not hold; a bot file that cannot be read or a module the sandbox
/// refuses ([`CoachError::Bot`]); a table that cannot be played.
pub fn coach_league(
    league: &LeagueFile,
    bot: BotInput<'_>,
    request: &CoachRequest,
    sandbox: &Sandbox,
) -> Result<Report, CoachError> {
    coach_league_with(league, bot, request, sandbox, Run::default())
}

/// How a coaching runs and whom its "see it" commands are for: nothing
/// here changes a figure.
#[derive(Default)]
pub struct Run {
    /// Threads valuing rounds (0 or 1: the calling thread alone); the
    /// report is the same to the last bit for any count.
    pub threads: usize,
    /// Hears how many more rounds are done, now and then.
    pub progress: Option<Box<dyn Fn(u64)>>,
    /// The bot as the commands name it (the file name unless told: what
    /// a student who uploaded it has).
    pub bot_shown: Option<String>,
    /// The league file as the commands name it, carried (`--league`)
    /// when the league sets `[limits]`, which the bot may need.
    pub league_shown: Option<std::path::PathBuf>,
}

/// [`coach_league`], run as `run` says.
pub fn coach_league_with(
    league: &LeagueFile,
    bot: BotInput<'_>,
    request: &CoachRequest,
    sandbox: &Sandbox,
    run: Run,
) -> Result<Report, CoachError> {
    check(request)?;
    let rules = pitboss_league::file::league_rules(league).map_err(|e| CoachError::Play(format!("{e:#}")))?;
    let bankroll = request.bankroll.unwrap_or(league.bankroll);
    rules.check_chip_range(bankroll, request.rounds, 1).map_err(|e| CoachError::Request(format!("bankroll: {e}")))?;
    let sandbox = league.sandbox(sandbox).map_err(|e| CoachError::Play(format!("{e:#}")))?;
    let (file_name, bot) = load(bot, &sandbox)?;
    let name = bot.default_name();
    let same_rules = Rules::for_variant(rules.variant) == rules;
    let mut spec = CoachSpec::new(rules, request.rounds, request.seed);
    spec.bankroll = bankroll;
    spec.fault_limit = league.fault_limit;
    spec.top = request.top;
    spec.threads = run.threads;
    spec.progress = run.progress;
    if same_rules {
        let opts = PlayOptions {
            variant: league.variant.clone(),
            bots: vec![run.bot_shown.unwrap_or(file_name)],
            rounds: Some(request.rounds),
            seed: request.seed,
            shoe: None,
            bankroll,
            transcript: true,
            fault_limit: league.fault_limit,
            // The league's limits where it sets any and the caller can
            // name the file; else the defaults.
            limits: pitboss_league::file::LimitChoice {
                league: run.league_shown.filter(|_| league.limits.is_some()),
                raised: Vec::new(),
            },
            tally: false,
        };
        spec.replay = Some(Box::new(move |round| crate::see_it(&opts, round)));
    }
    let coached = coach(&spec, &name, &bot)?;
    Ok(Report {
        variant: league.variant.clone(),
        seed: request.seed,
        rounds_requested: request.rounds,
        unit: UNIT.into(),
        bots: vec![coached],
    })
}

/// Refuses a request outside its ranges, in one line.
fn check(request: &CoachRequest) -> Result<(), CoachError> {
    if !(1..=MAX_ROUNDS).contains(&request.rounds) {
        return Err(CoachError::Request(format!("rounds {} is outside 1..={MAX_ROUNDS}", request.rounds)));
    }
    if !(1..=MAX_TOP).contains(&request.top) {
        return Err(CoachError::Request(format!("top {} is outside 1..={MAX_TOP}", request.top)));
    }
    Ok(())
}

/// The bot compiled in `sandbox`, and the file name a replay names it by.
fn load(bot: BotInput<'_>, sandbox: &Sandbox) -> Result<(String, Bot), CoachError> {
    let bot_error = |e: &dyn std::fmt::Display| CoachError::Bot(pitboss_host::text::excerpt(&format!("{e:#}"), 400));
    match bot {
        BotInput::Path(path) => {
            let (bot, _) = Bot::wasm_file(path, sandbox).map_err(|e| bot_error(&format!("{e:#}")))?;
            let file = path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into());
            Ok((file, bot))
        }
        BotInput::Bytes { name, bytes } => {
            let module = sandbox.load(name, bytes).map_err(|e| bot_error(&e))?;
            Ok((name.to_string(), Bot::Wasm(module)))
        }
        BotInput::Builtin(name) => {
            let bot = Bot::builtin(name).map_err(|e| bot_error(&format!("{e:#}")))?;
            Ok((format!("builtin:{name}"), bot))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEAGUE: &str = r#"
name = "class"
variant = "north-american"
rounds = 1000
seed = 3
bankroll = 5000

[[bot]]
path = "builtin:basic"
"#;

    fn league(text: &str) -> LeagueFile {
        pitboss_league::file::parse_text(text, "class.toml", "class.toml").unwrap()
    }

    #[test]
    fn a_request_outside_its_ranges_is_refused_in_one_line() {
        let sandbox = pitboss_league::sandbox().unwrap();
        let l = league(LEAGUE);
        let bot = BotInput::Bytes { name: "x.wasm", bytes: b"\0asm" };
        for (req, what) in [
            (CoachRequest::new(0, 1), "rounds 0"),
            (CoachRequest::new(MAX_ROUNDS + 1, 1), "rounds"),
            (CoachRequest { top: 0, ..CoachRequest::new(10, 1) }, "top 0"),
            (CoachRequest { bankroll: Some(0), ..CoachRequest::new(10, 1) }, "bankroll"),
        ] {
            let e = coach_league(&l, bot, &req, &sandbox).unwrap_err().to_string();
            assert!(e.contains(what) && !e.contains('\n'), "{e}");
        }
        let e = coach_league(&l, bot, &CoachRequest::new(10, 1), &sandbox).unwrap_err().to_string();
        assert!(matches!(coach_league(&l, bot, &CoachRequest::new(10, 1), &sandbox), Err(CoachError::Bot(_))), "{e}");
        assert!(e.contains("x.wasm") && !e.contains('\n'), "{e}");
    }

    /// The SDK's WAT example (hit below 17, stand otherwise) coached from
    /// its bytes: the JSON `pitboss coach --json` writes, replayable under
    /// a rule set's own rules, not under overrides; the same bytes twice.
    #[test]
    fn a_bot_given_as_bytes_is_coached_under_the_league() {
        let sandbox = pitboss_league::sandbox().unwrap();
        let bytes = include_bytes!("../../../sdk/examples/wat/bot.wat");
        let bot = BotInput::Bytes { name: "bot.wat", bytes };
        let req = CoachRequest { top: 3, ..CoachRequest::new(400, 9) };
        let report = coach_league(&league(LEAGUE), bot, &req, &sandbox).unwrap();
        let json = serde_json::to_value(&report).unwrap();
        let coached = &json["bots"][0];
        assert_eq!((json["seed"].as_u64(), coached["bot"].as_str()), (Some(9), Some("bot")));
        assert!(coached["rounds"].as_u64().unwrap() > 300 && coached["ev_given_away"].as_f64().unwrap() > 0.5);
        let top = report.bots[0].situations.first().expect("a situation");
        assert!(top.replay.contains("--bot bot.wat --seed 9 --bankroll 5000"), "{}", top.replay);
        assert!(report.bots[0].situations.len() <= 3);
        let again = coach_league(&league(LEAGUE), bot, &req, &sandbox).unwrap();
        assert_eq!(serde_json::to_string(&again).unwrap(), serde_json::to_string(&report).unwrap());
        let overridden = league(&LEAGUE.replace("[[bot]]", "[rules]\ndecks = 2\n\n[[bot]]"));
        let report = coach_league(&overridden, bot, &req, &sandbox).unwrap();
        assert!(report.bots[0].situations.iter().all(|s| s.replay.is_empty()));
    }
}
