//! What a bot's decisions cost: the fuel a wasm bot spent answering them
//! (its start-up not counted). Fuel is counted by the sandbox, the same
//! on every machine and thread count, so results hold it and `verify`
//! compares it like any figure; a builtin, run natively, spends none and
//! has no cost (never a share of 0). Whole numbers only: a share is in
//! tenths of a percent.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The fuel of a bot's decisions, summed over its tables and sessions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Cost {
    /// Decisions it was called for (a repeated key's answer, which the
    /// table keeps, calls nothing; its parts, when more events wait than
    /// one request holds, are one decision).
    pub decisions: u64,
    /// Fuel spent answering them.
    pub fuel: u64,
    /// The most fuel one decision spent.
    pub fuel_max: u64,
}

impl Cost {
    /// Adds `other`'s decisions (another table's, another session's).
    pub fn merge(&mut self, other: &Cost) {
        self.decisions = self.decisions.saturating_add(other.decisions);
        self.fuel = self.fuel.saturating_add(other.fuel);
        self.fuel_max = self.fuel_max.max(other.fuel_max);
    }

    /// Fuel per decision, rounded; 0 before any decision.
    pub fn per_decision(&self) -> u64 {
        if self.decisions == 0 { 0 } else { rounded(u128::from(self.fuel), u128::from(self.decisions)) }
    }

    /// Whether its figures can be one bot's: the largest decision is part
    /// of the sum, and no decision spent more than the largest.
    pub fn adds_up(&self) -> bool {
        self.fuel_max <= self.fuel
            && u128::from(self.fuel) <= u128::from(self.fuel_max) * u128::from(self.decisions)
            && (self.decisions > 0 || self.fuel == 0)
    }
}

impl From<pitboss_engine::Spent> for Cost {
    fn from(s: pitboss_engine::Spent) -> Cost {
        Cost { decisions: s.decisions, fuel: s.units, fuel_max: s.max }
    }
}

/// Each bot's share of the fuel all bots spent on decisions, in tenths
/// of a percent (rounded): `None` for a bot without a cost (a builtin),
/// and for every bot when none was spent.
pub fn shares<'a>(costs: impl IntoIterator<Item = Option<&'a Cost>>) -> Vec<Option<u64>> {
    let costs: Vec<Option<&Cost>> = costs.into_iter().collect();
    let total: u128 = costs.iter().flatten().map(|c| u128::from(c.fuel)).sum();
    costs.iter().map(|c| c.filter(|_| total > 0).map(|c| rounded(1000 * u128::from(c.fuel), total))).collect()
}

/// `part` in tenths of a percent of `whole` (rounded), for the mean
/// decision against the league's `fuel_per_decision` cap.
pub fn permille(part: u64, whole: u64) -> u64 {
    if whole == 0 { 0 } else { rounded(1000 * u128::from(part), u128::from(whole)) }
}

/// Tenths of a percent as text: `61.3 %`.
pub fn percent(permille: u64) -> String {
    format!("{}.{} %", permille / 10, permille % 10)
}

/// `n / d` rounded half up (`d > 0`), saturating.
fn rounded(n: u128, d: u128) -> u64 {
    u64::try_from((n + d / 2) / d).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_of_the_bots_that_spend_fuel_in_tenths_of_a_percent() {
        let a = Cost { decisions: 10, fuel: 600, fuel_max: 90 };
        let b = Cost { decisions: 10, fuel: 400, fuel_max: 50 };
        assert_eq!(shares([Some(&a), None, Some(&b)]), [Some(600), None, Some(400)]);
        let two_thirds = Cost { fuel: 2, ..a };
        let third = Cost { fuel: 1, ..a };
        assert_eq!(shares([Some(&two_thirds), Some(&third)]), [Some(667), Some(333)]);
        // Nothing spent: no share, not 0 %.
        assert_eq!(shares([Some(&Cost::default()), None]), [None, None]);
        assert_eq!(percent(613), "61.3 %");
        assert_eq!(percent(5), "0.5 %");
        assert_eq!(permille(12_300, 1_000_000), 12);
        assert_eq!(a.per_decision(), 60);
    }

    #[test]
    fn a_cost_adds_up_only_when_its_largest_decision_fits_its_sum() {
        assert!(Cost { decisions: 3, fuel: 30, fuel_max: 10 }.adds_up());
        assert!(Cost::default().adds_up());
        assert!(!Cost { decisions: 3, fuel: 31, fuel_max: 10 }.adds_up());
        assert!(!Cost { decisions: 3, fuel: 5, fuel_max: 10 }.adds_up());
        assert!(!Cost { decisions: 0, fuel: 5, fuel_max: 5 }.adds_up());
        let mut m = Cost { decisions: 1, fuel: 10, fuel_max: 10 };
        m.merge(&Cost { decisions: 2, fuel: 8, fuel_max: 5 });
        assert_eq!(m, Cost { decisions: 3, fuel: 18, fuel_max: 10 });
    }
}
