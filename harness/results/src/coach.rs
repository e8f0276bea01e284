//! The coach's report (`pitboss coach --json`) as a schema: what
//! `pitboss-coach` writes and the report page and the server read, one
//! type for both sides, so a reader of it never compiles the sandbox.
//!
//! A coach file handed to a reader is hostile input: [`read`] takes a
//! regular file under [`pitboss_files::files::COACH_CAP`], parses it strictly and
//! [`Report::check`]s every count, number and string against what the
//! coach can write, refusing anything else in one line naming the field.

use std::path::Path;

use pitboss_files::files::{self, FileError};
use pitboss_files::text;
use serde::{Deserialize, Serialize};

pub mod figures;

/// The unit every EV of a [`Report`] is in.
pub const UNIT: &str = "chips per 100 chips staked";

/// Most bots one coach file holds.
pub const MAX_COACHED: usize = 100;

/// Most situations a bot's entry lists.
pub const MAX_SITUATIONS: usize = 1_000;

/// Largest EV figure (per 100 staked) a coach file may state: no bet in
/// any rule set pays more than a few times its stake.
pub const MAX_FIGURE: f64 = 1e6;

/// Most rounds a coaching plays.
pub const MAX_ROUNDS: u64 = 10_000_000;

/// What `pitboss coach` writes as JSON: the match, then one entry per
/// bot (one today).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// Rule set id.
    pub variant: String,
    /// The seed, as `pitboss play --seed` takes it.
    pub seed: u64,
    /// Rounds asked for.
    pub rounds_requested: u64,
    /// The unit of every EV ([`UNIT`]).
    pub unit: String,
    /// Per bot.
    pub bots: Vec<Coached>,
}

/// The coach's report on one bot. Every EV is per 100 chips the bot
/// staked (its initial stakes on hands, as everywhere in Pitboss).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Coached {
    /// The bot.
    pub bot: String,
    /// Rounds the bot bet in.
    pub rounds: u64,
    /// Chips it staked in all.
    pub staked: i64,
    /// Its realized EV.
    pub ev: f64,
    /// Half-width of the realized EV's 95 % interval.
    pub ci95: f64,
    /// EV given away: the mean of best − chosen over its decisions.
    pub ev_given_away: f64,
    /// The part of it that the bot's choices give away off the top of a
    /// full shoe (strategy errors whatever the count); the rest is EV the
    /// composition of the shoe offered and the bot did not take.
    pub ev_given_away_off_top: f64,
    /// The optimal EV: the expectation of optimal play from each round's
    /// starting shoe, with the bot's bets.
    pub ev_optimal: f64,
    /// `ev + ev_given_away − ev_optimal`: zero in expectation (the
    /// performance-difference identity).
    pub identity_gap: f64,
    /// Half-width of that gap's 95 % interval.
    pub identity_ci95: f64,
    /// The realized result less the luck of the cards, with its interval.
    pub luck_adjusted: Estimate,
    /// The identity's gap with the luck taken out (`luck_adjusted.ev +
    /// ev_given_away − ev_optimal`) and its interval: the same identity,
    /// tested far more sharply.
    pub identity_adjusted: Estimate,
    /// Decisions valued.
    pub decisions: u64,
    /// The bets against the edge, and the card counters' figures.
    pub betting: Betting,
    /// Where the EV went, most first.
    pub situations: Vec<Group>,
    /// The EV given away split by the Hi-Lo true count at each round's
    /// start (−4 and +4 gather everything beyond), for counting bots: a
    /// deviation that pays gives EV away off the top but none from the
    /// shoe it saw.
    #[serde(default)]
    pub by_true_count: Vec<CountRow>,
}

/// The rounds that started at one Hi-Lo true count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountRow {
    /// The true count, rounded down, −4 to +4.
    pub true_count: i32,
    /// Rounds the bot bet in at that count.
    pub rounds: u64,
    /// EV given away there, per 100 chips staked there.
    pub ev_given_away: f64,
    /// The same valued off the top of a full shoe.
    pub ev_given_away_off_top: f64,
}

/// The bot's bets against the player's edge at each round's start, and
/// the card counters' standard figures (Schlesinger's definitions; see
/// docs/coach.md for each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Betting {
    /// The mean bet, in chips.
    pub mean_bet: f64,
    /// The mean edge at a round's start, per 100 chips bet.
    pub mean_edge: f64,
    /// Pearson's correlation of the bet with the edge, −1 to 1.
    pub correlation: f64,
    /// Chips per 100 rounds won by varying the bet: Σ bet × edge less
    /// what the mean bet would win on the same edges.
    pub spread_ev: f64,
    /// Win rate: chips per 100 rounds (the luck-adjusted mean).
    pub win_rate: f64,
    /// Standard deviation of the chips won per round.
    pub sd: f64,
    /// Desirability index: 1000 × win rate per round / SD.
    pub di: f64,
    /// SCORE: (DI / 10)², signed as DI is.
    pub score: f64,
    /// N0: (SD / win rate per round)², rounds for the expectation to
    /// reach one SD.
    pub n0: f64,
    /// The bankroll the risk of ruin is for, in chips.
    pub bankroll: i64,
    /// exp(−2 × win rate per round × bankroll / SD²); 1 when the win rate
    /// is not positive.
    pub risk_of_ruin: f64,
}

/// An EV and the half-width of its 95 % interval, per 100 staked.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Estimate {
    /// The estimate.
    pub ev: f64,
    /// Half-width of its 95 % interval.
    pub ci95: f64,
}

/// A situation met fewer times than this is flagged: what it gave away
/// there rests on too few hands to be sure of (the coach's text, the
/// report and the server's page say so under it).
pub const FEW_HANDS: u64 = 30;

/// Where the EV went: one situation's decisions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// `play`, `insurance`, `even money` or `side bet`.
    pub decision: String,
    /// The hand (`hard 16`, `soft 18`, `pair 8,8`, …).
    pub hand: String,
    /// The dealer's up card.
    pub up: String,
    /// How often the bot met it.
    pub count: u64,
    /// How often it did not choose the best.
    pub mistakes: u64,
    /// EV given away there, per 100 chips the bot staked in all.
    pub ev_given_away: f64,
    /// The same in chips.
    pub chips: f64,
    /// What the bot did most often when it gave EV away there.
    pub choice: String,
    /// What was best most often then.
    pub best: String,
    /// The round of the costliest example.
    pub example_round: u64,
    /// A command that plays up to that round with a transcript.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub replay: String,
}

/// Why a coach file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Missing, not a regular file, over the cap.
    #[error(transparent)]
    File(#[from] FileError),
    /// Not JSON of this schema.
    #[error("{label}:{line}:{column}: {message} (not the JSON of `pitboss coach --json`?)")]
    Syntax {
        /// The file, for messages.
        label: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the JSON reader found, escaped.
        message: String,
    },
    /// A field outside what the coach writes.
    #[error("{label}: {why}")]
    Invalid {
        /// The file, for messages.
        label: String,
        /// Which field, and what is wrong with it.
        why: String,
    },
}

/// Reads, parses and checks the coach file at `path`.
pub fn read(path: &Path) -> Result<Report, Error> {
    let text = files::read_text(path, files::Kind::Coach)?;
    parse(&text, &path.display().to_string())
}

/// Parses and checks a coach file's text (`label` names it in errors).
pub fn parse(text: &str, label: &str) -> Result<Report, Error> {
    let report: Report = serde_json::from_str(text).map_err(|e| Error::Syntax {
        label: label.to_string(),
        line: e.line(),
        column: e.column(),
        message: text::excerpt(&e.to_string(), 200),
    })?;
    report.check().map_err(|why| Error::Invalid { label: label.to_string(), why })?;
    Ok(report)
}

/// Checks a value already parsed (a server's JSON) as [`parse`] does.
pub fn from_value(json: &serde_json::Value, label: &str) -> Result<Report, Error> {
    let report = Report::deserialize(json).map_err(|e| Error::Syntax {
        label: label.to_string(),
        line: 0,
        column: 0,
        message: text::excerpt(&e.to_string(), 200),
    })?;
    report.check().map_err(|why| Error::Invalid { label: label.to_string(), why })?;
    Ok(report)
}

/// A short string field: at most `max` characters, no control characters.
fn short(at: &str, s: &str, max: usize) -> Result<(), String> {
    if s.chars().count() > max || s.chars().any(char::is_control) {
        return Err(format!("{at}: {} is not a short one-line name", text::excerpt(s, 60)));
    }
    Ok(())
}

/// A figure: finite and within ±[`MAX_FIGURE`]; an interval also ≥ 0.
fn figure(at: &str, x: f64, interval: bool) -> Result<(), String> {
    if !x.is_finite() || x.abs() > MAX_FIGURE || (interval && x < 0.0) {
        return Err(format!("{at} = {x} is outside {}..={MAX_FIGURE}", if interval { 0.0 } else { -MAX_FIGURE }));
    }
    Ok(())
}

impl Report {
    /// Every field within what the coach writes; the first one that is
    /// not, named by its path (`bots[0].situations[3].count`).
    pub fn check(&self) -> Result<(), String> {
        short("variant", &self.variant, 64)?;
        if self.unit != UNIT {
            return Err(format!("unit is {}, not `{UNIT}`", text::excerpt(&self.unit, 60)));
        }
        if !(1..=MAX_ROUNDS).contains(&self.rounds_requested) {
            return Err(format!("rounds_requested {} is outside 1..={MAX_ROUNDS}", self.rounds_requested));
        }
        if !(1..=MAX_COACHED).contains(&self.bots.len()) {
            return Err(format!("{} bots: a coach file holds 1..={MAX_COACHED}", self.bots.len()));
        }
        for (i, bot) in self.bots.iter().enumerate() {
            bot.check(&format!("bots[{i}]"), self.rounds_requested)?;
        }
        Ok(())
    }
}

impl Coached {
    fn check(&self, at: &str, rounds_requested: u64) -> Result<(), String> {
        short(&format!("{at}.bot"), &self.bot, 200)?;
        if self.rounds > rounds_requested || self.staked < 0 {
            return Err(format!(
                "{at}: {} rounds staking {} chips, of {rounds_requested} asked",
                self.rounds, self.staked
            ));
        }
        // The result's figures, as the one list declares them (the
        // betting figures have ranges of their own, checked below).
        for f in figures::FIGURES.iter().filter(|f| f.part == figures::Part::Result) {
            figure(&format!("{at}.{}", f.key), (f.value)(self), false)?;
            if let Some((key, ci)) = f.interval {
                figure(&format!("{at}.{key}"), ci(self), true)?;
            }
        }
        self.betting.check(&format!("{at}.betting"))?;
        if self.situations.len() > MAX_SITUATIONS {
            return Err(format!("{at}: {} situations, at most {MAX_SITUATIONS}", self.situations.len()));
        }
        for (i, g) in self.situations.iter().enumerate() {
            g.check(&format!("{at}.situations[{i}]"), self.decisions, rounds_requested)?;
        }
        if self.by_true_count.len() > 9 {
            return Err(format!("{at}.by_true_count: {} rows, at most 9", self.by_true_count.len()));
        }
        for (i, c) in self.by_true_count.iter().enumerate() {
            let at = format!("{at}.by_true_count[{i}]");
            if !(-4..=4).contains(&c.true_count) || c.rounds > self.rounds {
                return Err(format!("{at}: true count {} or {} rounds out of range", c.true_count, c.rounds));
            }
            figure(&format!("{at}.ev_given_away"), c.ev_given_away, false)?;
            figure(&format!("{at}.ev_given_away_off_top"), c.ev_given_away_off_top, false)?;
        }
        Ok(())
    }
}

impl Betting {
    fn check(&self, at: &str) -> Result<(), String> {
        let b = self;
        for (name, x) in [("mean_bet", b.mean_bet), ("sd", b.sd), ("n0", b.n0)] {
            if !x.is_finite() || !(0.0..=1e18).contains(&x) {
                return Err(format!("{at}.{name} = {x} is outside 0..=1e18"));
            }
        }
        let signed = [("mean_edge", b.mean_edge), ("spread_ev", b.spread_ev), ("win_rate", b.win_rate)];
        for (name, x) in signed.into_iter().chain([("di", b.di), ("score", b.score)]) {
            if !x.is_finite() || x.abs() > 1e18 {
                return Err(format!("{at}.{name} = {x} is not a finite figure"));
            }
        }
        if !(-1.0..=1.0).contains(&b.correlation) || !(0.0..=1.0).contains(&b.risk_of_ruin) || b.bankroll < 0 {
            return Err(format!(
                "{at}: correlation {}, risk of ruin {} or bankroll {} out of range",
                b.correlation, b.risk_of_ruin, b.bankroll
            ));
        }
        Ok(())
    }
}

impl Group {
    fn check(&self, at: &str, decisions: u64, rounds: u64) -> Result<(), String> {
        if !["play", "insurance", "even money", "side bet"].contains(&self.decision.as_str()) {
            return Err(format!(
                "{at}.decision: {} is not a decision the coach values",
                text::excerpt(&self.decision, 40)
            ));
        }
        for (name, s) in [("hand", &self.hand), ("up", &self.up), ("choice", &self.choice), ("best", &self.best)] {
            short(&format!("{at}.{name}"), s, 60)?;
        }
        short(&format!("{at}.replay"), &self.replay, 1_000)?;
        if self.mistakes > self.count || self.count > decisions || self.example_round > rounds {
            return Err(format!(
                "{at}: {} mistakes in {} decisions (of {decisions}), example round {} (of {rounds})",
                self.mistakes, self.count, self.example_round
            ));
        }
        figure(&format!("{at}.ev_given_away"), self.ev_given_away, false)?;
        if !self.chips.is_finite() || self.chips.abs() > 1e18 {
            return Err(format!("{at}.chips = {} is not a chip count", self.chips));
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small report with every field filled.
    pub(crate) fn report() -> Report {
        let g = Group {
            decision: "play".into(),
            hand: "hard 16".into(),
            up: "T".into(),
            count: 10,
            mistakes: 4,
            ev_given_away: 0.1,
            chips: 2.5,
            choice: "stand".into(),
            best: "hit".into(),
            example_round: 77,
            replay: String::new(),
        };
        let e = Estimate { ev: -0.5, ci95: 0.2 };
        let c = Coached {
            bot: "basic".into(),
            rounds: 100,
            staked: 1_000,
            ev: -1.0,
            ci95: 9.0,
            ev_given_away: 0.3,
            ev_given_away_off_top: 0.0,
            ev_optimal: -0.4,
            identity_gap: -0.3,
            identity_ci95: 9.0,
            luck_adjusted: e,
            identity_adjusted: e,
            decisions: 120,
            betting: Betting::default(),
            situations: vec![g],
            by_true_count: vec![CountRow { true_count: 2, rounds: 3, ev_given_away: 0.5, ev_given_away_off_top: 0.1 }],
        };
        Report { variant: "north-american".into(), seed: 1, rounds_requested: 100, unit: UNIT.into(), bots: vec![c] }
    }

    #[test]
    fn a_coach_file_reads_back_what_was_written() {
        let text = serde_json::to_string(&report()).unwrap();
        assert_eq!(parse(&text, "c.json").unwrap(), report());
    }

    #[test]
    fn a_field_outside_what_the_coach_writes_is_refused_naming_it() {
        type Spoil = fn(&mut Report);
        let cases: [(Spoil, &str); 6] = [
            (|r| r.bots[0].situations[0].count = 1, "bots[0].situations[0]: 4 mistakes in 1"),
            (|r| r.bots[0].ci95 = -1.0, "bots[0].ci95 = -1"),
            (|r| r.bots[0].ev = 1e300, "bots[0].ev"),
            (|r| r.bots[0].bot = "a\nb".into(), "bots[0].bot"),
            (|r| r.bots[0].situations[0].decision = "<b>".into(), "situations[0].decision"),
            (|r| r.bots.clear(), "0 bots"),
        ];
        for (spoil, what) in cases {
            let mut r = report();
            spoil(&mut r);
            let e = parse(&serde_json::to_string(&r).unwrap(), "c.json").unwrap_err().to_string();
            assert!(e.starts_with("c.json: ") && e.contains(what) && !e.contains('\n'), "{e}");
        }
        let e = parse(r#"{"variant": "x", "oops": 1}"#, "c.json").unwrap_err().to_string();
        assert!(e.starts_with("c.json:1:") && e.contains("oops"), "{e}");
    }
}
