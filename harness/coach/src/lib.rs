//! The coach: where a bot loses, decision by decision, exactly.
//!
//! [`coach`] plays a bot alone at a table for N rounds, seeded exactly as
//! `pitboss play` seeds it, and reads the table's events back
//! ([`track`]) into what the bot knew at each decision: the cards it had
//! not seen, its hand, the up card. Each decision — playing a hand,
//! insurance, even money, the Over/Under 13 side bet — is valued with the
//! exact analyzer of `pitboss-strategy` from that composition
//! ([`value`]): every legal choice's expectation, the bot's choice, the
//! best one, and the EV given away (best − chosen, in chips). The sums
//! ([`summary`]) give the bot's EV, the EV it gave away, and the optimal
//! EV, the expectation of optimal play from each round's starting shoe
//! ([`assess`] says how it is estimated without bias), all per 100 chips
//! staked. By the performance-difference identity, the bot's EV plus the
//! EV it gave away equals the optimal EV in expectation; the report
//! states the gap and its interval.
//!
//! [`coach_league`] ([`request`]) is the call a server makes: one wasm
//! bot (a path or bytes) under a parsed league file, returning the
//! [`Report`] that `pitboss coach --json` writes; its doc comment states
//! the contract and the cost.
//!
//! ```no_run
//! use pitboss_coach::{CoachSpec, coach};
//! use pitboss_league::bots::Bot;
//!
//! let spec = CoachSpec::new(pitboss_engine::Rules::north_american(), 10_000, 1);
//! let report = coach(&spec, "basic", &Bot::builtin("basic").unwrap()).unwrap();
//! assert!(report.ev_given_away < 0.1);
//! ```

pub mod assess;
pub mod betting;
pub mod luck;
pub mod request;
pub mod summary;
pub mod track;
pub use pitboss_strategy::value;

use pitboss_engine::{Rules, derive_seed};
use pitboss_league::bots::Bot;
use pitboss_league::matchplay::{MatchSpec, play_table};

pub use pitboss_results::coach::Group;
pub use request::{BotInput, CoachRequest, Run, coach_league, coach_league_with};

use crate::summary::Summary;
use crate::track::Tracker;
use crate::value::{Valuer, full_shoe};

/// Why a bot cannot be coached.
#[derive(Debug, thiserror::Error)]
pub enum CoachError {
    /// The rules are outside what the coach values.
    #[error("{0}")]
    Unsupported(String),
    /// The analyzer refused the rules.
    #[error(transparent)]
    Rules(#[from] pitboss_strategy::StrategyError),
    /// The table could not be set or played (the league's message).
    #[error("{0}")]
    Play(String),
    /// A number of the request is outside its range.
    #[error("{0}")]
    Request(String),
    /// The bot could not be read or compiled (the sandbox's message).
    #[error("{0}")]
    Bot(String),
}

/// What to coach: the rules and the deal, as `pitboss play` takes them.
pub struct CoachSpec {
    /// The rule set, overrides applied.
    pub rules: Rules,
    /// Rounds to play.
    pub rounds: u64,
    /// The seed, as `pitboss play --seed` takes it.
    pub seed: u64,
    /// Chips the bot starts with.
    pub bankroll: i64,
    /// Faults after which the bot is disqualified (0: never).
    pub fault_limit: u64,
    /// Situations listed, most EV given away first.
    pub top: usize,
    /// The command that shows a round (given its number), if any.
    pub replay: Option<Box<dyn Fn(u64) -> String>>,
    /// Threads valuing rounds (1: the calling thread alone). The report
    /// is the same to the last bit for any count.
    pub threads: usize,
    /// Hears how many more rounds are played and valued, now and then.
    pub progress: Option<Box<dyn Fn(u64)>>,
}

impl CoachSpec {
    /// `rounds` rounds of `rules` from `seed`, `pitboss play`'s defaults
    /// otherwise.
    pub fn new(rules: Rules, rounds: u64, seed: u64) -> CoachSpec {
        CoachSpec {
            rules,
            rounds,
            seed,
            bankroll: pitboss_league::DEFAULT_BANKROLL,
            fault_limit: pitboss_league::file::DEFAULT_FAULT_LIMIT,
            top: 20,
            replay: None,
            threads: 1,
            progress: None,
        }
    }
}

pub use pitboss_results::coach::{Coached, Estimate, FEW_HANDS, Report, UNIT};

/// The command that prints round `round` of the match `opts` describes,
/// and that round alone: `pitboss play … --only-round R`.
pub fn see_it(opts: &pitboss_league::PlayOptions, round: u64) -> String {
    let command = pitboss_league::replay_command(opts, round);
    match command.strip_suffix(&format!(" --rounds {round} --transcript")) {
        Some(start) => format!("{start} --only-round {round}"),
        None => command,
    }
}

/// Most rounds one coaching may play: about an hour and a half at the
/// measured pace (docs/coach.md).
pub const MAX_ROUNDS: u64 = pitboss_results::coach::MAX_ROUNDS;

/// Most situations a report may list.
pub const MAX_TOP: usize = pitboss_results::coach::MAX_SITUATIONS;

/// Plays `bot` (named `name`) alone for `spec.rounds` rounds and values
/// every decision it makes.
pub fn coach(spec: &CoachSpec, name: &str, bot: &Bot) -> Result<Coached, CoachError> {
    let rules = &spec.rules;
    if rules.game != pitboss_engine::Game::Dealer {
        return Err(CoachError::Unsupported(format!(
            "the coach values the dealer games only; `{}` is the banker game",
            rules.variant.id()
        )));
    }
    if rules.boxes_per_player != 1 {
        return Err(CoachError::Unsupported(format!(
            "the coach values one box a player; these rules give {}",
            rules.boxes_per_player
        )));
    }
    let mut valuer = Valuer::new(rules)?;
    let mut summary = Summary::default();
    let played = play(spec, name, bot, &mut valuer, &mut summary)?;
    let replay = |round: u64| spec.replay.as_ref().map(|f| f(round)).unwrap_or_default();
    Ok(Coached {
        bot: name.to_string(),
        rounds: played.0,
        staked: played.1,
        ev: summary.realized.per_100(),
        ci95: summary.realized.ci95(),
        ev_given_away: summary.given_away.per_100(),
        ev_given_away_off_top: summary.given_away_off_top.per_100(),
        ev_optimal: summary.optimal.per_100(),
        identity_gap: summary.residual.per_100(),
        identity_ci95: summary.residual.ci95(),
        luck_adjusted: Estimate { ev: summary.luck_adjusted.per_100(), ci95: summary.luck_adjusted.ci95() },
        identity_adjusted: Estimate { ev: summary.residual_adjusted.per_100(), ci95: summary.residual_adjusted.ci95() },
        decisions: summary.decisions,
        betting: summary.bets.figures(spec.bankroll),
        situations: summary.groups(spec.top, &replay),
        by_true_count: summary.by_true_count(),
    })
}

/// Rounds valued per thread between two hand-overs: enough that a
/// round's cost (a split is dear) evens out across threads.
const BATCH: usize = 128;

/// Rounds played between two progress reports.
const PROGRESS_EVERY: u64 = 1024;

/// A thread's own valuation state. Every value it gives is a function of
/// the round alone (its caches only save work), so which thread values
/// a round changes no bit.
struct Worker {
    valuer: Valuer,
    dealer: luck::DealerValues,
}

impl Worker {
    fn assess(&mut self, logs: &[track::RoundLog]) -> Vec<(u64, assess::Assessed)> {
        logs.iter()
            .filter_map(|log| Some((log.round, assess::assess(&mut self.valuer, &mut self.dealer, log)?)))
            .collect()
    }
}

/// The rounds the bot bet in, waiting to be valued, and the threads that
/// value them; each batch is added to the summary in round order.
struct Valuing<'a> {
    workers: Vec<std::sync::Mutex<Worker>>,
    pool: Option<rayon::ThreadPool>,
    waiting: Vec<track::RoundLog>,
    summary: &'a mut Summary,
}

impl Valuing<'_> {
    fn push(&mut self, log: track::RoundLog) {
        self.waiting.push(log);
        if self.waiting.len() >= BATCH * self.workers.len() {
            self.flush();
        }
    }

    /// Values the waiting rounds, in slices of a few rounds taken by
    /// whichever thread is free, and adds them in round order.
    fn flush(&mut self) {
        let workers = &self.workers;
        let value = |logs: &[track::RoundLog]| {
            let at = rayon::current_thread_index().unwrap_or(0) % workers.len();
            workers[at].lock().unwrap_or_else(|e| e.into_inner()).assess(logs)
        };
        let valued: Vec<Vec<_>> = match &self.pool {
            Some(pool) => {
                use rayon::prelude::*;
                pool.install(|| self.waiting.par_chunks(8).map(value).collect())
            }
            None => vec![value(&self.waiting)],
        };
        for (round, a) in valued.iter().flatten() {
            self.summary.add(*round, a);
        }
        self.waiting.clear();
    }
}

/// Plays the match, adding each valued round to `summary` (`valuer`
/// values them, helped by `spec.threads - 1` more); the rounds the bot
/// bet in and the chips it staked.
fn play(
    spec: &CoachSpec,
    name: &str,
    bot: &Bot,
    valuer: &mut Valuer,
    summary: &mut Summary,
) -> Result<(u64, i64), CoachError> {
    let rules = &spec.rules;
    let threads = spec.threads.clamp(1, 256);
    let pool = match threads {
        1 => None,
        n => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| CoachError::Play(format!("cannot start {n} threads: {e}")))?,
        ),
    };
    // The caller's valuer (its caches warm) is the first worker's.
    let first = std::mem::replace(valuer, Valuer::new(rules)?);
    let mut workers = vec![std::sync::Mutex::new(Worker { valuer: first, dealer: luck::DealerValues::default() })];
    for _ in 1..threads {
        workers.push(std::sync::Mutex::new(Worker { valuer: Valuer::new(rules)?, dealer: Default::default() }));
    }
    let mut valuing = Valuing { workers, pool, waiting: Vec::new(), summary };
    let progress = |n: u64| {
        if let Some(p) = &spec.progress {
            p(n)
        }
    };
    let mut seen = 0u64;
    let mut tracker = Tracker::new(rules, full_shoe(rules.decks), assess::insurance_max, |log: track::RoundLog| {
        if log.bet > 0 {
            valuing.push(log);
        }
        seen += 1;
        if seen.is_multiple_of(PROGRESS_EVERY) {
            progress(PROGRESS_EVERY);
        }
    });
    let table = MatchSpec {
        rules: rules.clone(),
        rounds: spec.rounds,
        seed: derive_seed(spec.seed, 0),
        bankroll: spec.bankroll,
        stacked: None,
        fault_limit: spec.fault_limit,
    };
    let bots = [(name.to_string(), bot.clone())];
    let result = play_table(&table, &bots, &mut tracker);
    drop(tracker);
    valuing.flush();
    progress(seen % PROGRESS_EVERY);
    if let Some(w) = valuing.workers.into_iter().next() {
        *valuer = w.into_inner().unwrap_or_else(|e| e.into_inner()).valuer;
    }
    let result = result.map_err(|e| CoachError::Play(format!("{e:#}")))?;
    let played = &result.bots[0];
    Ok((played.rounds, played.wagered))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitboss_league::{PlayOptions, play};

    fn coached(bot: &str, rules: Rules, rounds: u64, seed: u64) -> Coached {
        coach(&CoachSpec::new(rules, rounds, seed), bot, &Bot::builtin(bot).unwrap()).unwrap()
    }

    /// Split by true count, a counter's index plays pay where the count
    /// is high: off the top they look like errors, from the shoe they
    /// saw they give little away; basic's chart gives more away there
    /// from the shoe than off the top.
    #[test]
    fn at_high_counts_index_plays_pay_and_the_chart_gives_ev_away() {
        let high = |c: &Coached| {
            let rows: Vec<_> = c.by_true_count.iter().filter(|t| t.true_count >= 2).collect();
            let n: u64 = rows.iter().map(|t| t.rounds).sum();
            let mean = |f: fn(&pitboss_results::coach::CountRow) -> f64| {
                rows.iter().map(|t| f(t) * t.rounds as f64).sum::<f64>() / n.max(1) as f64
            };
            (n, mean(|t| t.ev_given_away), mean(|t| t.ev_given_away_off_top))
        };
        let (hilo, basic) =
            (coached("hilo", Rules::north_american(), 6_000, 11), coached("basic", Rules::north_american(), 6_000, 11));
        assert!(hilo.by_true_count.iter().all(|t| (-4..=4).contains(&t.true_count)));
        let ((n, from_shoe, off_top), (_, basic_shoe, basic_top)) = (high(&hilo), high(&basic));
        eprintln!(
            "TC >= 2 over {n} rounds: hilo {from_shoe:.3} from the shoe, {off_top:.3} off the top; basic {basic_shoe:.3}, {basic_top:.3}"
        );
        assert!(n > 100, "rounds at high counts: {n}");
        assert!(off_top > from_shoe, "hilo's deviations cost off the top but pay from the shoe");
        assert!(basic_shoe > basic_top, "basic misses what the shoe offers at high counts");
        assert!(basic_shoe > from_shoe, "hilo gives less away than basic where the count is high");
    }

    fn casino() -> [Rules; 3] {
        [Rules::north_american(), Rules::swedish(), Rules::danish()]
    }

    /// The performance-difference identity: the bot's EV plus the EV it
    /// gave away is the optimal EV, within the realized EV's interval.
    #[test]
    fn realized_plus_given_away_is_the_optimal_ev_for_every_bot_and_casino_rule_set() {
        for rules in casino() {
            for bot in ["basic", "mimic-dealer", "never-bust", "random"] {
                let c = coached(bot, rules.clone(), 4_000, 7);
                let sum = c.ev + c.ev_given_away;
                eprintln!(
                    "{} {bot}: ev {:+.3} ± {:.3} + given away {:.3} = {sum:+.3}; optimal {:+.3}",
                    rules.variant.id(),
                    c.ev,
                    c.ci95,
                    c.ev_given_away,
                    c.ev_optimal
                );
                assert!(c.rounds > 3_000 && c.decisions > c.rounds, "{bot}: {} rounds", c.rounds);
                assert!(
                    (sum - c.ev_optimal).abs() <= c.ci95,
                    "{} {bot}: {sum} vs {}",
                    rules.variant.id(),
                    c.ev_optimal
                );
                assert!((c.identity_gap - (sum - c.ev_optimal)).abs() < 1e-9);
                // With the luck of the cards taken out the same identity
                // holds within an interval several times narrower.
                let sharp = c.identity_adjusted;
                assert!(
                    sharp.ev.abs() <= sharp.ci95 && sharp.ci95 < c.ci95 / 1.5,
                    "{} {bot}: {sharp:?}",
                    rules.variant.id()
                );
            }
        }
    }

    #[test]
    fn basic_makes_no_strategy_errors_off_the_top_and_the_others_do() {
        for rules in casino() {
            let basic = coached("basic", rules.clone(), 2_000, 3);
            let never_bust = coached("never-bust", rules.clone(), 2_000, 3);
            let id = rules.variant.id();
            assert!(basic.ev_given_away_off_top < 0.05, "{id}: {}", basic.ev_given_away_off_top);
            assert!(never_bust.ev_given_away_off_top > 2.0, "{id}: {}", never_bust.ev_given_away_off_top);
            assert!(basic.ev_given_away >= basic.ev_given_away_off_top - 0.05);
            // Never-bust's costliest play is standing on a stiff hand (in
            // swedish the Over/Under 13 bets it skips when the count
            // favours them may come first).
            let top = never_bust.situations.iter().find(|s| s.decision == "play").unwrap();
            assert_eq!(
                (top.decision.as_str(), top.choice.as_str(), top.best.as_str()),
                ("play", "stand", "hit"),
                "{id}"
            );
        }
    }

    /// The coach deals exactly what `pitboss play` deals: same seed, same
    /// rounds, the same chips to the last one.
    #[test]
    fn the_coach_plays_the_same_match_as_pitboss_play() {
        for (variant, rules) in [("north-american", Rules::north_american()), ("swedish", Rules::swedish())] {
            let c = coached("random", rules, 1_500, 11);
            let opts = PlayOptions {
                variant: variant.into(),
                bots: vec!["builtin:random".into()],
                rounds: Some(1_500),
                seed: 11,
                shoe: None,
                bankroll: pitboss_league::DEFAULT_BANKROLL,
                transcript: false,
                fault_limit: pitboss_league::file::DEFAULT_FAULT_LIMIT,
                limits: Default::default(),
                tally: false,
            };
            let played = &play(&opts, &mut std::io::sink()).unwrap().0.table.bots[0];
            assert_eq!((c.rounds, c.staked), (played.rounds, played.wagered));
            assert!((c.ev - 100.0 * played.ev).abs() < 1e-9, "{variant}: {} vs {}", c.ev, 100.0 * played.ev);
        }
    }

    /// Over 100 seeds (a shoe or so each) the luck-adjusted result agrees
    /// with the realized one, within an interval at least twice as
    /// narrow on north-american (four times fewer rounds for the same
    /// width), about five times in fact.
    #[test]
    fn the_luck_adjusted_result_is_unbiased_and_narrower() {
        let rules = Rules::north_american();
        let mut valuer = Valuer::new(&rules).unwrap();
        let mut summary = Summary::default();
        let basic = Bot::builtin("basic").unwrap();
        for seed in 0..100 {
            super::play(&CoachSpec::new(rules.clone(), 100, seed), "basic", &basic, &mut valuer, &mut summary).unwrap();
        }
        let (realized, adjusted) = (summary.realized, summary.luck_adjusted);
        eprintln!(
            "realized {:+.3} ± {:.3}, luck-adjusted {:+.3} ± {:.3}",
            realized.per_100(),
            realized.ci95(),
            adjusted.per_100(),
            adjusted.ci95()
        );
        assert_eq!(realized.n, 10_000.0);
        assert!((realized.per_100() - adjusted.per_100()).abs() <= realized.ci95());
        assert!(adjusted.ci95() * 2.0 < realized.ci95());
    }

    /// hilo spreads its bets with the count, basic bets flat: the bet's
    /// correlation with the edge at each round's start says so.
    #[test]
    fn a_counter_bets_with_the_edge_and_a_flat_bettor_does_not() {
        let basic = coached("basic", Rules::north_american(), 4_000, 3).betting;
        let hilo = coached("hilo", Rules::north_american(), 4_000, 3).betting;
        eprintln!("basic {basic:?}\nhilo {hilo:?}");
        assert!(basic.correlation.abs() < 0.05 && basic.spread_ev.abs() < 1e-9, "{basic:?}");
        assert!(hilo.correlation > 0.3 && hilo.spread_ev > 0.0, "{hilo:?}");
        assert_eq!(basic.risk_of_ruin, 1.0, "a losing bot is ruined in the long run");
    }

    /// Each round is valued the same whatever the valuer valued before
    /// (its caches only save work), so threads may share rounds out in
    /// any way. (An ace up card once shared a cache key with a two, and
    /// a round's luck depended on the rounds before it.)
    #[test]
    fn a_rounds_value_does_not_depend_on_the_rounds_valued_before() {
        let rules = Rules::north_american();
        let mut logs = Vec::new();
        let mut tracker =
            Tracker::new(&rules, full_shoe(rules.decks), assess::insurance_max, |log: track::RoundLog| {
                logs.push(log);
            });
        let spec = CoachSpec::new(rules.clone(), 400, 1);
        let table = MatchSpec {
            rules: rules.clone(),
            rounds: spec.rounds,
            seed: derive_seed(spec.seed, 0),
            bankroll: spec.bankroll,
            stacked: None,
            fault_limit: 0,
        };
        play_table(&table, &[("basic".into(), Bot::builtin("basic").unwrap())], &mut tracker).unwrap();
        drop(tracker);
        let (mut shared, mut dealer) = (Valuer::new(&rules).unwrap(), luck::DealerValues::default());
        for log in logs.iter().filter(|l| l.bet > 0) {
            let once = assess::assess(&mut shared, &mut dealer, log);
            let fresh = assess::assess(&mut Valuer::new(&rules).unwrap(), &mut Default::default(), log);
            assert_eq!(once, fresh, "round {}", log.round);
        }
    }

    /// One thread or several, the same report to the last bit.
    #[test]
    fn any_thread_count_gives_the_same_report() {
        let report = |threads: usize| {
            let mut spec = CoachSpec::new(Rules::swedish(), 1_500, 5);
            spec.threads = threads;
            let done = std::rc::Rc::new(std::cell::Cell::new(0));
            let heard = done.clone();
            spec.progress = Some(Box::new(move |n| heard.set(heard.get() + n)));
            let c = coach(&spec, "hilo", &Bot::builtin("hilo").unwrap()).unwrap();
            assert_eq!(done.get(), 1_500, "progress hears every round");
            format!("{c:?}")
        };
        let one = report(1);
        assert_eq!(one, report(2));
        assert_eq!(one, report(3));
    }

    #[test]
    fn the_banker_game_is_refused_in_one_line() {
        let spec = CoachSpec::new(Rules::norwegian_home(), 10, 1);
        let e = coach(&spec, "basic", &Bot::builtin("basic").unwrap()).unwrap_err().to_string();
        assert!(e.contains("dealer games only") && !e.contains('\n'), "{e}");
    }
}
