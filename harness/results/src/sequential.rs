//! Which of two bots is ahead, session by session: the paired t-test of
//! their per-session results (luck-adjusted where a league measures it),
//! behind the standings' "vs next" mark, and the group-sequential
//! stopping rule of a league that plays until its ranking is resolved
//! (`until = "resolved"`, docs/luck.md).
//!
//! Sessions, not rounds, are the pairs: a session's bots are all dealt
//! from its seed, the sessions are independent, and a results file keeps
//! every bot's per-session sums, so the test is recomputed from the file
//! alone (by `verify`, a merge, or the server's import). Two bots' rounds
//! within a session may be correlated in any way: the session's sums
//! carry it.
//!
//! Everything here is IEEE arithmetic in a fixed order (sums in session
//! order, a square root, no `exp` or `ln` of a platform's maths library),
//! so a test gives the same bits, and a league the same stopping point,
//! on any machine.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The level of every test: a false "better than" at most 5 % of the
/// time.
pub const ALPHA: f64 = 0.05;

/// Fewest sessions a paired test reads (two degrees of freedom).
pub const MIN_SESSIONS: usize = 3;

/// Most looks a resolved league may plan (`sessions` / `batch`, rounded
/// up): each look tests at `ALPHA` / looks.
pub const MAX_LOOKS: u64 = 1_000;

/// What a "vs next" test read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// Net chips, session by session.
    Chips,
    /// Luck-adjusted results (`docs/luck.md`), session by session.
    LuckAdjusted,
}

impl Basis {
    /// Its name in results and CSV.
    pub const fn name(self) -> &'static str {
        match self {
            Basis::Chips => "chips",
            Basis::LuckAdjusted => "luck-adjusted",
        }
    }
}

/// How a bot stands against the next bot in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Gap {
    /// Significantly ahead.
    Ahead,
    /// The gap could be luck.
    Level,
    /// Significantly behind: the chips rank the two the wrong way round.
    Behind,
}

impl Gap {
    /// Its name in results and CSV.
    pub const fn name(self) -> &'static str {
        match self {
            Gap::Ahead => "ahead",
            Gap::Level => "level",
            Gap::Behind => "behind",
        }
    }
}

/// The "vs next" test of a bot against the next bot in play, as a
/// results file records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VsNext {
    /// The figure it read.
    pub on: Basis,
    /// What it found.
    pub gap: Gap,
}

/// The paired test of two bots' per-session figures `a` and `b` (equal
/// lengths, session order): the sum of the differences a − b and the
/// two-sided p-value of their mean being 0 (Student's t over the
/// sessions). `None` with fewer than [`MIN_SESSIONS`] sessions.
///
/// The t distribution is taken with an even number of degrees of freedom,
/// sessions − 1 rounded down: its tail is then a finite sum of
/// arithmetic and one square root, and fewer degrees of freedom only make
/// the test stricter.
pub fn paired(a: &[f64], b: &[f64]) -> Option<(f64, f64)> {
    let s = a.len().min(b.len());
    if s < MIN_SESSIONS {
        return None;
    }
    let (mut d1, mut d2) = (0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        let d = x - y;
        d1 += d;
        d2 += d * d;
    }
    let n = s as f64;
    let spread = n * d2 - d1 * d1;
    if spread <= 0.0 {
        // Every session's difference the same: no doubt about its sign.
        return Some((d1, if d1 == 0.0 { 1.0 } else { 0.0 }));
    }
    let t2 = d1 * d1 * (n - 1.0) / spread;
    Some((d1, t_tail(t2, (s as u64 - 1) & !1)))
}

/// P(|T| ≥ t) for Student's T with `nu` (even, ≥ 2) degrees of freedom,
/// given t²: 1 − √(1 − x) Σ_{k < ν/2} C(2k, k) (x/4)^k with x = ν/(ν + t²)
/// (Abramowitz and Stegun 26.7.3).
pub fn t_tail(t2: f64, nu: u64) -> f64 {
    let nu_f = nu as f64;
    let x = nu_f / (nu_f + t2);
    let (mut term, mut sum) = (1.0f64, 1.0f64);
    for k in 1..nu / 2 {
        term *= x * (2 * k - 1) as f64 / (2 * k) as f64;
        sum += term;
    }
    (1.0 - (1.0 - x).sqrt() * sum).clamp(0.0, 1.0)
}

/// The gap a test found at `level`: the sign of the difference of the
/// upper bot less the lower, where its p-value is under `level`.
pub fn gap(test: (f64, f64), level: f64) -> Gap {
    match test {
        (d, p) if p < level && d > 0.0 => Gap::Ahead,
        (d, p) if p < level && d < 0.0 => Gap::Behind,
        _ => Gap::Level,
    }
}

/// How a resolved league (`until = "resolved"`) plays: sessions in
/// batches, a look after each, until every adjacent pair it ranks is
/// separated or the cap is reached.
///
/// The looks are planned (`looks` = ⌈cap / batch⌉, the last one at the
/// cap) and each tests every adjacent pair at `ALPHA / looks`: by the
/// Bonferroni inequality, two bots of equal EV are called different at
/// some look with probability at most `ALPHA`, however the looks depend
/// on one another, so stopping at the first look that separates them
/// cannot inflate false "better than"s (a conservative group-sequential
/// design; see docs/luck.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Sessions per look.
    pub batch: u64,
    /// Most sessions (the cap).
    pub cap: u64,
}

impl Plan {
    /// Looks planned: ⌈cap / batch⌉.
    pub fn looks(&self) -> u64 {
        self.cap.div_ceil(self.batch.max(1))
    }

    /// The level each look tests at.
    pub fn level(&self) -> f64 {
        ALPHA / self.looks().max(1) as f64
    }

    /// The sessions played at each look, in order: batch, 2 × batch, …,
    /// the cap.
    pub fn stops(&self) -> impl Iterator<Item = u64> + '_ {
        (1..=self.looks()).map(|k| (k * self.batch).min(self.cap))
    }

    /// Whether a look finds every adjacent pair of `ranked` separated:
    /// `ranked` is each bot in play's per-session figures (one per session
    /// played), in ranked order, best first. A single bot, or none, is
    /// resolved at once.
    pub fn resolved(&self, ranked: &[&[f64]]) -> bool {
        ranked.windows(2).all(|w| paired(w[0], w[1]).is_some_and(|t| gap(t, self.level()) == Gap::Ahead))
    }
}

/// How a resolved league ended, as its results record it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Resolution {
    /// Sessions per look.
    pub batch: u64,
    /// The most sessions it would have played (the league's `sessions`).
    pub cap_sessions: u64,
    /// Looks planned (⌈cap / batch⌉); each tested at 0.05 / looks.
    pub looks_planned: u64,
    /// Looks taken.
    pub looks: u64,
    /// Sessions played.
    pub sessions: u64,
    /// Rounds played per table: sessions played × rounds per session.
    pub rounds: u64,
    /// Adjacent pairs of bots in play, and how many the last look
    /// separated.
    pub pairs: u64,
    pub pairs_resolved: u64,
    /// Every pair was separated before or at the cap (`false`: the cap
    /// stopped it).
    pub resolved: bool,
    /// The figure its test read.
    pub on: Basis,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_is_students_for_even_degrees_of_freedom() {
        // P(|T| > t) for ν = 2 is 1 − t/√(2 + t²); the 97.5 % quantiles of
        // t with 2, 4 and 10 degrees of freedom leave 5 % in both tails.
        let t: f64 = 1.5;
        assert!((t_tail(t * t, 2) - (1.0 - t / (2.0 + t * t).sqrt())).abs() < 1e-15);
        for (nu, q) in [(2, 4.302652729911275), (4, 2.7764451051977987), (10, 2.2281388519649385)] {
            assert!((t_tail(q * q, nu) - 0.05).abs() < 1e-9, "nu {nu}: {}", t_tail(q * q, nu));
        }
        assert_eq!(t_tail(0.0, 8), 1.0);
    }

    #[test]
    fn a_paired_test_reads_the_differences_of_each_session() {
        // The same shift in every session but noise common to both bots:
        // pairing sees through the noise.
        let a = [10.0, -50.0, 31.0, 7.0, -20.0];
        let b: Vec<f64> = a.iter().enumerate().map(|(i, x)| x - 1.0 - (i % 2) as f64 * 0.1).collect();
        let (d, p) = paired(&a, &b).unwrap();
        assert!(d > 0.0 && p < 1e-4, "{d} {p}");
        assert_eq!(gap((d, p), ALPHA), Gap::Ahead);
        assert_eq!(gap(paired(&b, &a).unwrap(), ALPHA), Gap::Behind);
        assert_eq!(paired(&a[..2], &b[..2]), None);
        assert_eq!(paired(&a, &a), Some((0.0, 1.0)));
        assert_eq!(gap(paired(&[1.0, -3.0, 2.0], &[0.0, 0.0, 0.0]).unwrap(), ALPHA), Gap::Level);
    }

    #[test]
    fn a_plan_looks_at_each_batch_and_at_the_cap() {
        let plan = Plan { batch: 4, cap: 10 };
        assert_eq!((plan.looks(), plan.stops().collect::<Vec<_>>()), (3, vec![4, 8, 10]));
        assert!((plan.level() - 0.05 / 3.0).abs() < 1e-18);
        let (hi, lo) = ([5.0, 6.0, 5.5, 6.1], [1.0, 1.1, 0.9, 1.05]);
        assert!(plan.resolved(&[&hi, &lo]) && plan.resolved(&[&hi]));
        assert!(!plan.resolved(&[&lo, &hi]), "a pair ranked the wrong way round is not resolved");
    }
}
