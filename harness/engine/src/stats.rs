//! Streaming per-player statistics: integer sums only, so a billion rounds
//! cost the same memory as one, and results never depend on float order.

/// Running sums over the rounds a player bet in. All exact integers; the
/// float estimates are derived only for display.
///
/// The bet of a round is the player's **initial stakes on hands**: its
/// boxes' bets and its back bets, placed before the cards (for the banker,
/// the stakes it covers). Side bets, insurance, even money, doubles and
/// split stakes are not in it. The net of a round is everything the
/// player's chips moved, all of those included. [`Stats::ev`] is therefore
/// the net per chip initially staked, Pitboss's one headline measure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Rounds in which the player staked at least one box.
    pub rounds: u64,
    /// Sum of initial bets.
    pub wagered: i128,
    /// Sum of net results (chips won minus chips lost).
    pub net: i128,
    /// Sum of net².
    pub net_sq: i128,
    /// Sum of net × initial bet.
    pub net_bet: i128,
    /// Sum of initial bet².
    pub bet_sq: i128,
    /// Decisions that faulted.
    pub faults: u64,
}

impl Stats {
    /// Adds one round: the player's initial bet and net result.
    pub fn add_round(&mut self, bet: i64, net: i64) {
        let (b, n) = (i128::from(bet), i128::from(net));
        self.rounds += 1;
        self.wagered += b;
        self.net += n;
        self.net_sq += n * n;
        self.net_bet += n * b;
        self.bet_sq += b * b;
    }

    /// Combines two players' or two tables' sums.
    pub fn merge(&mut self, other: &Stats) {
        self.rounds += other.rounds;
        self.wagered += other.wagered;
        self.net += other.net;
        self.net_sq += other.net_sq;
        self.net_bet += other.net_bet;
        self.bet_sq += other.bet_sq;
        self.faults += other.faults;
    }

    /// Expected value per unit of initial bet (ratio estimator), or 0.
    pub fn ev(&self) -> f64 {
        if self.wagered == 0 { 0.0 } else { self.net as f64 / self.wagered as f64 }
    }

    /// Standard error of [`Stats::ev`]: the ratio estimator's
    /// `sqrt(Σ(net − ev·bet)²) / Σbet`, with an n/(n−1) correction.
    pub fn ev_standard_error(&self) -> f64 {
        if self.rounds < 2 || self.wagered == 0 {
            return 0.0;
        }
        let r = self.ev();
        let resid = self.net_sq as f64 - 2.0 * r * self.net_bet as f64 + r * r * self.bet_sq as f64;
        let n = self.rounds as f64;
        (resid.max(0.0) * n / (n - 1.0)).sqrt() / self.wagered as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_bets_give_the_textbook_standard_error() {
        let mut s = Stats::default();
        // +2, -2 alternating on bet 2: mean 0, sd 2 (per bet unit: 1).
        for i in 0..10_000 {
            s.add_round(2, if i % 2 == 0 { 2 } else { -2 });
        }
        assert_eq!(s.ev(), 0.0);
        let se = s.ev_standard_error();
        assert!((se - 0.01).abs() < 1e-4, "{se}");
    }
}
