//! The tables the fairness tests count into, each with its chi-square
//! test: rank by position, adjacent pairs, and the exact null moments of
//! the pair counts.

use super::chi_square::ChiSquare;
use pitboss_sdk::Card;

/// Ranks in a deck. The tests count ranks, not blackjack values, so that a
/// bias among the four ten-valued ranks shows too.
pub(super) const RANKS: usize = 13;

fn rank_index(card: Card) -> usize {
    usize::from(card.rank()) - 1
}

/// `n / (n - 1)`: see `RankByPosition::test`.
pub(super) fn position_scale(cards: usize) -> f64 {
    cards as f64 / (cards - 1) as f64
}

/// How often each rank lands at each position.
pub(super) struct RankByPosition {
    pub(super) counts: Vec<[u64; RANKS]>,
    pub(super) shuffles: u64,
}

impl RankByPosition {
    pub(super) fn new(cards: usize) -> RankByPosition {
        RankByPosition { counts: vec![[0; RANKS]; cards], shuffles: 0 }
    }

    pub(super) fn add(&mut self, cards: &[Card]) {
        for (row, &card) in self.counts.iter_mut().zip(cards) {
            row[rank_index(card)] += 1;
        }
        self.shuffles += 1;
    }

    /// The test over `buckets` equal runs of positions (`buckets` = the
    /// number of cards: every position apart).
    ///
    /// Each position holds each rank with probability 1/13, but the counts
    /// are not a multinomial table: a shuffle holds exactly `4 d` of each
    /// rank, so positions pull against each other. One shuffle's indicators
    /// have covariance `n/(n-1) (I - J/n)` over positions times the
    /// multinomial `diag(pi) - pi pi'` over ranks; Pearson's statistic,
    /// over positions or over equal buckets, is then `n/(n-1)` times
    /// chi-square with `(buckets - 1)(13 - 1)` degrees of freedom.
    pub(super) fn test(&self, buckets: usize) -> ChiSquare {
        let n = self.counts.len();
        assert_eq!(n % buckets, 0);
        let width = n / buckets;
        let expected = (self.shuffles * u64::try_from(width).unwrap()) as f64 / RANKS as f64;
        let mut statistic = 0.0;
        for bucket in self.counts.chunks(width) {
            for rank in 0..RANKS {
                let observed: u64 = bucket.iter().map(|row| row[rank]).sum();
                statistic += (observed as f64 - expected).powi(2) / expected;
            }
        }
        ChiSquare { statistic: statistic / position_scale(n), df: ((buckets - 1) * (RANKS - 1)) as f64 }
    }

    /// How often `rank` (1–13) landed in the first `positions` places.
    pub(super) fn count(&self, rank: u8, positions: usize) -> u64 {
        self.counts[..positions].iter().map(|row| row[usize::from(rank) - 1]).sum()
    }
}

/// How often rank `b` follows rank `a`, counted around the shoe (the last
/// card followed by the first). Around the shoe, the cut (a rotation)
/// changes no pair, and every rank starts and ends exactly `4 d` pairs.
pub(super) struct AdjacentPairs {
    pub(super) counts: [u64; RANKS * RANKS],
    pub(super) shuffles: u64,
    pub(super) null: PairNull,
}

impl AdjacentPairs {
    pub(super) fn new(null: PairNull) -> AdjacentPairs {
        AdjacentPairs { counts: [0; RANKS * RANKS], shuffles: 0, null }
    }

    pub(super) fn add(&mut self, cards: &[Card]) {
        let mut before = rank_index(cards[cards.len() - 1]);
        for &card in cards {
            let rank = rank_index(card);
            self.counts[before * RANKS + rank] += 1;
            before = rank;
        }
        self.shuffles += 1;
    }

    pub(super) fn test(&self) -> ChiSquare {
        let n = self.shuffles as f64;
        let statistic: f64 = (self.counts.iter().zip(&self.null.mean))
            .map(|(&observed, &mean)| (observed as f64 - n * mean).powi(2) / (n * mean))
            .sum();
        ChiSquare { statistic: statistic / self.null.scale, df: self.null.df }
    }

    /// Pairs of the same rank.
    pub(super) fn same_rank(&self) -> u64 {
        (0..RANKS).map(|r| self.counts[r * RANKS + r]).sum()
    }
}

/// The exact null moments of one shoe's pair counts, and the scaled
/// chi-square that matches them.
///
/// Overlapping pairs drawn without replacement are neither independent nor
/// multinomial, so Pearson's statistic is a sum of `w_i chi2_1`, the `w_i`
/// the eigenvalues of the pair counts' standardised covariance `W`. Their
/// sum and the sum of their squares are traces, computed here exactly; the
/// statistic is then taken as `scale chi2_df` with `scale = tr(W^2) / tr(W)`
/// and `df = tr(W)^2 / tr(W^2)` (Satterthwaite's, or Rao and Scott's,
/// second-order correction). Most `w_i` are near 1 and 25 are 0 (the fixed
/// margins), so `df` comes out near `(13 - 1)^2 = 144` and the fit is
/// close; uncorrected, the one-deck statistic would run 2 % high.
#[derive(Clone, Copy)]
pub(super) struct PairNull {
    pub(super) cards: usize,
    /// Expected count of each pair in one shoe.
    pub(super) mean: [f64; RANKS * RANKS],
    pub(super) scale: f64,
    pub(super) df: f64,
}

impl PairNull {
    pub(super) fn new(cards: usize) -> PairNull {
        let n = cards as f64;
        let per_rank = cards / RANKS;
        // The probability that given distinct positions hold `ranks`, in
        // order: drawing without replacement.
        let p = |ranks: &[usize]| -> f64 {
            let mut p = 1.0;
            for (t, &rank) in ranks.iter().enumerate() {
                let earlier = ranks[..t].iter().filter(|&&r| r == rank).count();
                p *= (per_rank - earlier) as f64 / (cards - t) as f64;
            }
            p
        };
        let mut mean = [0.0; RANKS * RANKS];
        for (ab, m) in mean.iter_mut().enumerate() {
            *m = n * p(&[ab / RANKS, ab % RANKS]);
        }
        let (mut trace, mut trace_sq) = (0.0, 0.0);
        for ab in 0..RANKS * RANKS {
            let (a, b) = (ab / RANKS, ab % RANKS);
            for cd in 0..RANKS * RANKS {
                let (c, d) = (cd / RANKS, cd % RANKS);
                // E[M_ab M_cd] sums over pairs of places (i, j): j = i,
                // j right after i, j right before i, and the n - 3 places
                // that share no card with i.
                let mut joint = (n - 3.0) * p(&[a, b, c, d]);
                if ab == cd {
                    joint += p(&[a, b]);
                }
                if b == c {
                    joint += p(&[a, b, d]);
                }
                if d == a {
                    joint += p(&[c, a, b]);
                }
                let w = (n * joint - mean[ab] * mean[cd]) / (mean[ab] * mean[cd]).sqrt();
                trace_sq += w * w;
                if ab == cd {
                    trace += w;
                }
            }
        }
        PairNull { cards, mean, scale: trace_sq / trace, df: trace * trace / trace_sq }
    }

    /// Same-rank pairs expected in one shoe.
    pub(super) fn same_rank(&self) -> f64 {
        (0..RANKS).map(|r| self.mean[r * RANKS + r]).sum()
    }
}
