//! A bot's luck-adjusted round results, summed: the chips each round
//! moved less the luck of its cards (`pitboss_league::luck`), in fixed
//! point so that sums are integers, exact and the same in any order (a
//! shard merge, `verify`), as the chips' own sums are.

use pitboss_engine::Stats;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Units of a chip the luck-adjusted results are summed in (each round's
/// result rounded to the nearest 1/65,536 chip: far below any bet).
pub const LUCK_UNIT: f64 = 65_536.0;

/// One bot's luck-adjusted round results over the rounds its chips count
/// (the rounds of [`Stats`]), in units of 1/[`LUCK_UNIT`] chip: their sum,
/// the sum of their squares and the sum of each times the round's bet (in
/// chips), in JSON as decimal strings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LuckSums {
    /// Σ adjusted result.
    #[serde(with = "decimal")]
    #[schemars(with = "String")]
    pub sum: i128,
    /// Σ adjusted result².
    #[serde(with = "decimal")]
    #[schemars(with = "String")]
    pub sq: i128,
    /// Σ adjusted result × bet.
    #[serde(with = "decimal")]
    #[schemars(with = "String")]
    pub bet: i128,
}

impl LuckSums {
    /// Adds a round of `adjusted` chips on a bet of `bet` chips.
    #[inline]
    pub fn add(&mut self, adjusted: f64, bet: i64) {
        let a = (adjusted * LUCK_UNIT).round() as i64;
        let a = i128::from(a);
        self.sum += a;
        self.sq += a * a;
        self.bet += a * i128::from(bet);
    }

    /// Adds another's sums.
    pub fn merge(&mut self, other: &LuckSums) {
        self.sum += other.sum;
        self.sq += other.sq;
        self.bet += other.bet;
    }

    /// The luck-adjusted EV per unit of initial bet, and its standard
    /// error (the ratio estimator of [`Stats::ev_standard_error`]), over
    /// the rounds and bets of `stats`.
    pub fn ev(&self, stats: &Stats) -> (f64, f64) {
        if stats.wagered == 0 {
            return (0.0, 0.0);
        }
        let w = stats.wagered as f64;
        let r = self.sum as f64 / LUCK_UNIT / w;
        if stats.rounds < 2 {
            return (r, 0.0);
        }
        let sq = self.sq as f64 / (LUCK_UNIT * LUCK_UNIT);
        let cross = self.bet as f64 / LUCK_UNIT;
        let resid = sq - 2.0 * r * cross + r * r * stats.bet_sq as f64;
        let n = stats.rounds as f64;
        (r, (resid.max(0.0) * n / (n - 1.0)).sqrt() / w)
    }
}

/// An `i128` as a decimal string.
mod decimal {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &i128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
        let t = String::deserialize(d)?;
        t.parse().map_err(|_| D::Error::custom(format!("`{t}` is not an integer")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_no_luck_the_adjusted_ev_is_the_chips_ev() {
        let mut stats = Stats::default();
        let mut luck = LuckSums::default();
        for (i, net) in [10i64, -10, 15, -10, 0, 20, -20].into_iter().enumerate() {
            let bet = 10 + (i as i64 % 2) * 10;
            stats.add_round(bet, net);
            luck.add(net as f64, bet);
        }
        let (ev, se) = luck.ev(&stats);
        assert!((ev - stats.ev()).abs() < 1e-12 && (se - stats.ev_standard_error()).abs() < 1e-12);
        let text = serde_json::to_string(&luck).unwrap();
        assert_eq!(serde_json::from_str::<LuckSums>(&text).unwrap(), luck);
    }
}
