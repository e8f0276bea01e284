//! Running sums over the coached rounds, and the figures made from them:
//! the bot's EV, the EV it gave away, the optimal EV, and the EV given
//! away grouped by situation.
//!
//! Sums are kept in round order, so the figures are the same bits on
//! every run; the groups live in a `BTreeMap`, so their order never
//! depends on hashing.

use std::collections::BTreeMap;

use pitboss_results::coach::Group;

use crate::assess::{Assessed, Situation};

/// z for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Per-round values `x` against stakes `b`: the ratio `Σx / Σb` and its
/// standard error (the ratio estimator's, as `Stats` computes the EV's).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ratio {
    /// Rounds added.
    pub n: f64,
    sx: f64,
    sxx: f64,
    sxb: f64,
    sb: f64,
    sbb: f64,
}

impl Ratio {
    /// Adds one round.
    pub fn add(&mut self, x: f64, b: f64) {
        self.n += 1.0;
        self.sx += x;
        self.sxx += x * x;
        self.sxb += x * b;
        self.sb += b;
        self.sbb += b * b;
    }

    /// `Σx / Σb` per 100 staked.
    pub fn per_100(&self) -> f64 {
        if self.sb == 0.0 { 0.0 } else { 100.0 * self.sx / self.sb }
    }

    /// The half-width of its 95 % interval, per 100 staked.
    pub fn ci95(&self) -> f64 {
        if self.n < 2.0 || self.sb == 0.0 {
            return 0.0;
        }
        let r = self.sx / self.sb;
        let resid = self.sxx - 2.0 * r * self.sxb + r * r * self.sbb;
        100.0 * Z95 * (resid.max(0.0) * self.n / (self.n - 1.0)).sqrt() / self.sb
    }

    /// The standard deviation of `x` per round, in chips.
    pub fn sd(&self) -> f64 {
        if self.n < 2.0 {
            return 0.0;
        }
        ((self.sxx - self.sx * self.sx / self.n).max(0.0) / (self.n - 1.0)).sqrt()
    }
}

#[derive(Clone, Debug, Default)]
struct Acc {
    count: u64,
    mistakes: u64,
    chips: f64,
    choices: BTreeMap<(String, String), u64>,
    worst: (f64, u64),
}

/// Sums over the rounds coached so far.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Realized chips.
    pub realized: Ratio,
    /// EV given away.
    pub given_away: Ratio,
    /// EV given away, valued off the top.
    pub given_away_off_top: Ratio,
    /// The optimal EV (estimated without bias, see `assess`).
    pub optimal: Ratio,
    /// Realized + given away − optimal, round by round: the identity's
    /// residual, mean zero when the values are exact.
    pub residual: Ratio,
    /// Realized chips less the luck of the cards.
    pub luck_adjusted: Ratio,
    /// The identity's residual with the luck taken out: a much sharper
    /// test of the same identity.
    pub residual_adjusted: Ratio,
    /// Decisions valued.
    pub decisions: u64,
    /// Bets against the edge.
    pub bets: crate::betting::BetSums,
    groups: BTreeMap<Situation, Acc>,
    /// Per true count: rounds, chips staked, given away, given away off
    /// the top.
    counts: BTreeMap<i32, (u64, f64, f64, f64)>,
}

/// A decision gives EV away when it costs more than this (chips per chip
/// staked): rounding noise between equal plays is not a mistake.
const TIE: f64 = 1e-9;

impl Summary {
    /// Adds one valued round.
    pub fn add(&mut self, round: u64, a: &Assessed) {
        let b = a.bet as f64;
        let given = a.given_away();
        self.realized.add(a.net as f64, b);
        self.given_away.add(given, b);
        self.given_away_off_top.add(a.given_away_off_top(), b);
        self.optimal.add(a.optimal, b);
        self.residual.add(a.net as f64 + given - a.optimal, b);
        self.luck_adjusted.add(a.net as f64 - a.luck, b);
        self.residual_adjusted.add(a.net as f64 - a.luck + given - a.optimal, b);
        self.bets.add(b, a.edge, a.net as f64, a.net as f64 - a.luck);
        let at = self.counts.entry(a.true_count).or_default();
        *at = (at.0 + 1, at.1 + b, at.2 + given, at.3 + a.given_away_off_top());
        for d in &a.decisions {
            self.decisions += 1;
            let acc = self.groups.entry(d.situation.clone()).or_default();
            acc.count += 1;
            if d.chips > TIE * b {
                acc.mistakes += 1;
                acc.chips += d.chips;
                *acc.choices.entry((d.chosen.clone(), d.best.clone())).or_default() += 1;
                if d.chips > acc.worst.0 {
                    acc.worst = (d.chips, round);
                }
            }
        }
    }

    /// The EV given away by the true count at each round's start.
    pub fn by_true_count(&self) -> Vec<pitboss_results::coach::CountRow> {
        let per_100 = |chips: f64, staked: f64| if staked == 0.0 { 0.0 } else { 100.0 * chips / staked };
        self.counts
            .iter()
            .map(|(&true_count, &(rounds, staked, given, off_top))| pitboss_results::coach::CountRow {
                true_count,
                rounds,
                ev_given_away: per_100(given, staked),
                ev_given_away_off_top: per_100(off_top, staked),
            })
            .collect()
    }

    /// The situations, most EV given away first (then by name); at most
    /// `top` of them, and only those where EV was given away.
    pub fn groups(&self, top: usize, replay: &dyn Fn(u64) -> String) -> Vec<Group> {
        let staked = self.realized.sb;
        let mut out: Vec<Group> = self
            .groups
            .iter()
            .filter(|(_, acc)| acc.mistakes > 0)
            .map(|(s, acc)| {
                let most = acc.choices.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)));
                let (choice, best) = most.map(|(k, _)| k.clone()).unwrap_or_default();
                Group {
                    decision: s.decision.into(),
                    hand: s.hand.clone(),
                    up: s.up.clone(),
                    count: acc.count,
                    mistakes: acc.mistakes,
                    ev_given_away: if staked == 0.0 { 0.0 } else { 100.0 * acc.chips / staked },
                    chips: acc.chips,
                    choice,
                    best,
                    example_round: acc.worst.1,
                    replay: replay(acc.worst.1),
                }
            })
            .collect();
        out.sort_by(|a, b| {
            b.chips.total_cmp(&a.chips).then_with(|| (&a.decision, &a.hand, &a.up).cmp(&(&b.decision, &b.hand, &b.up)))
        });
        out.truncate(top);
        out
    }
}
