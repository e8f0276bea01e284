//! The bot's bets against the player's edge at each round's start, and
//! the card counters' standard figures (Schlesinger, *Blackjack Attack*,
//! 3rd ed., 2005: win rate, SD, DI, SCORE, N0, risk of ruin).
//!
//! **The edge** of a round, per unit bet, is the exact expectation from
//! the round's starting shoe (the cards left after every card seen since
//! the shuffle) of the value each initial deal (up card, two-card hand)
//! has to optimal play off the top of a full shoe — the coach's deal
//! table — plus the exact EV of the best side bet from that shoe. It is
//! exact in how the composition changes which deals come, approximate in
//! holding each deal's value at its full-shoe figure; it is the control
//! variate of the optimal EV's unbiased estimate (`assess`), a
//! deterministic function of the shoe, so it carries no luck of the deal.

use pitboss_results::coach::Betting;

/// Running sums over the rounds the bot bet in.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BetSums {
    n: f64,
    sb: f64,
    sbb: f64,
    se: f64,
    see: f64,
    sbe: f64,
    snet: f64,
    snn: f64,
    sadj: f64,
}

impl BetSums {
    /// Adds one round: the bet, the edge per unit bet, the chips won and
    /// the chips won less the luck of the cards.
    pub fn add(&mut self, bet: f64, edge: f64, net: f64, adjusted: f64) {
        self.n += 1.0;
        self.sb += bet;
        self.sbb += bet * bet;
        self.se += edge;
        self.see += edge * edge;
        self.sbe += bet * edge;
        self.snet += net;
        self.snn += net * net;
        self.sadj += adjusted;
    }

    /// The figures, for a bankroll of `bankroll` chips.
    pub fn figures(&self, bankroll: i64) -> Betting {
        let n = self.n.max(1.0);
        let (mb, me) = (self.sb / n, self.se / n);
        let var = |s: f64, ss: f64| if self.n < 2.0 { 0.0 } else { ((ss - s * s / n) / (n - 1.0)).max(0.0) };
        let cov = if self.n < 2.0 { 0.0 } else { (self.sbe - self.sb * self.se / n) / (n - 1.0) };
        let (vb, ve) = (var(self.sb, self.sbb), var(self.se, self.see));
        let correlation = if vb > 0.0 && ve > 0.0 { cov / (vb * ve).sqrt() } else { 0.0 };
        // Win rate: the luck-adjusted mean (unbiased, narrower); SD: the
        // spread of what the bot actually won, the risk it ran.
        let wr = self.sadj / n;
        let sd = var(self.snet, self.snn).sqrt();
        let di = if sd > 0.0 { 1000.0 * wr / sd } else { 0.0 };
        let n0 = if wr != 0.0 { (sd / wr).powi(2) } else { f64::INFINITY };
        let risk_of_ruin = if wr > 0.0 && sd > 0.0 { (-2.0 * wr * bankroll as f64 / (sd * sd)).exp() } else { 1.0 };
        Betting {
            mean_bet: mb,
            mean_edge: 100.0 * me,
            correlation,
            spread_ev: 100.0 * cov * (n - 1.0) / n,
            win_rate: 100.0 * wr,
            sd,
            di,
            score: di.signum() * (di / 10.0).powi(2),
            n0: n0.min(1e18),
            bankroll,
            risk_of_ruin,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_bet_has_no_correlation_and_a_spread_that_follows_the_edge_has_one() {
        let (mut flat, mut spread) = (BetSums::default(), BetSums::default());
        for i in 0..1000 {
            let edge = (i % 7) as f64 / 100.0 - 0.03;
            flat.add(10.0, edge, if i % 2 == 0 { 10.0 } else { -10.0 }, 0.2);
            spread.add(if edge > 0.0 { 80.0 } else { 10.0 }, edge, if i % 2 == 0 { 10.0 } else { -9.0 }, 0.5);
        }
        let (f, s) = (flat.figures(10_000), spread.figures(10_000));
        assert!(f.correlation == 0.0 && f.spread_ev.abs() < 1e-12, "{f:?}");
        assert!(s.correlation > 0.8 && s.spread_ev > 0.0, "{s:?}");
        // WR 0.5 a round, SD about 9.5: DI = 1000 × 0.5 / 9.5, SCORE
        // (DI/10)², N0 (SD/WR)², risk of ruin exp(−2 WR B / SD²).
        assert!((s.di - 1000.0 * 0.5 / s.sd).abs() < 1e-9 && (s.score - (s.di / 10.0).powi(2)).abs() < 1e-9);
        assert!((s.n0 - (s.sd / 0.5).powi(2)).abs() < 1e-6);
        assert!((s.risk_of_ruin - (-2.0 * 0.5 * 10_000.0 / (s.sd * s.sd)).exp()).abs() < 1e-12);
        assert!((f.win_rate - 20.0).abs() < 1e-9, "{}", f.win_rate);
    }
}
