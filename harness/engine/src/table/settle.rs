//! The dealer games' settlement: side bets, insurance, naturals, the
//! dealer's turn and the showdown; every stake paid back or taken by the
//! house, back stakes settled like the hand they ride on.

use pitboss_sdk::SideBet;

use super::Table;
use super::hand::HandState;
use crate::id::{BoxId, hand_byte};
use crate::record::{Outcome, Recorder, TableEvent};
use crate::shoe::ShoeExhausted;

impl Table {
    /// Over/Under 13 on each box's first two cards (aces 1): a right guess
    /// pays 1:1, "under" on two aces 1.5×, exactly 13 loses both ways.
    pub(super) fn settle_side_bets<R: Recorder>(&mut self, rec: &mut R) {
        for b in self.active {
            let Some((side, amount)) = self.boxes[b].side else { continue };
            let total = self.boxes[b].hands[0].total.hard;
            let returned = match side {
                SideBet::Over if total > 13 => 2 * amount,
                SideBet::Under if total == 2 => amount + amount * 3 / 2,
                SideBet::Under if total < 13 => 2 * amount,
                _ => 0,
            };
            self.players[self.boxes[b].holder].balance += returned;
            self.house += amount - returned;
            rec.record(&TableEvent::SideBetSettled { seat: b.0, returned });
        }
    }

    /// Insurance pays 2:1 and returns its stake on a dealer blackjack, else
    /// goes to the house. Asked every round and rarely with a stake: the
    /// check is inlined, the settling out of line.
    #[inline(always)]
    pub(super) fn settle_insurance<R: Recorder>(&mut self, dealer_natural: bool, rec: &mut R) {
        if std::mem::take(&mut self.insured) {
            self.settle_insurance_stakes(dealer_natural, rec);
        }
    }

    #[inline(never)]
    fn settle_insurance_stakes<R: Recorder>(&mut self, dealer_natural: bool, rec: &mut R) {
        for b in self.active {
            let stake = std::mem::take(&mut self.boxes[b].insurance);
            if stake == 0 {
                continue;
            }
            let returned = if dealer_natural { stake * 3 } else { 0 };
            self.players[self.boxes[b].holder].balance += returned;
            self.house += stake - returned;
            rec.record(&TableEvent::InsuranceSettled { seat: b.0, returned });
        }
    }

    /// Hole-card game, no dealer blackjack: naturals are paid at once.
    pub(super) fn pay_naturals<R: Recorder>(&mut self, rec: &mut R) {
        for b in self.active {
            if self.boxes[b].hands[0].is_natural() {
                self.pay(b, 0, Outcome::Blackjack, rec);
            }
        }
    }

    /// The dealer has a natural: naturals push, every other open hand
    /// loses (only its original stake when `original_bets_only`).
    pub(super) fn settle_against_dealer_natural<R: Recorder>(&mut self, rec: &mut R) {
        for b in self.active {
            for h in 0..self.boxes[b].hands.len() {
                let hand = &self.boxes[b].hands[h];
                if matches!(hand.state, HandState::Playing | HandState::Stood) {
                    let outcome = if hand.is_natural() { Outcome::Push } else { Outcome::DealerBlackjack };
                    self.pay(b, h, outcome, rec);
                }
            }
        }
    }

    /// What a stake returns (stake included) for an outcome.
    #[inline]
    pub(super) fn payout(&self, outcome: Outcome, stake: i64, original: i64) -> i64 {
        let (num, den) = self.rules.blackjack_pays;
        match outcome {
            Outcome::Win | Outcome::EvenMoney => 2 * stake,
            Outcome::Blackjack => stake + stake * i64::from(num) / i64::from(den),
            Outcome::Push => stake,
            Outcome::Surrender => stake / 2,
            Outcome::Bust | Outcome::Lose => 0,
            Outcome::DealerBlackjack if self.rules.original_bets_only => stake - original,
            Outcome::DealerBlackjack => 0,
        }
    }

    /// Settles hand `h` of box `b` and every back stake riding on it: the
    /// returned chips (stakes included) go back, the rest to the house.
    /// Inlined where it is called (a hand's settling is a few adds; out of
    /// line, saving registers cost as much); back stakes, rare, are not.
    #[inline(always)]
    pub(super) fn pay<R: Recorder>(&mut self, b: BoxId, h: usize, outcome: Outcome, rec: &mut R) {
        let (bet, original) = (self.boxes[b].hands[h].bet, self.boxes[b].hands[h].original);
        let returned = self.payout(outcome, bet, original);
        let bx = &mut self.boxes[b];
        bx.hands[h].state = match outcome {
            Outcome::Bust => HandState::Bust,
            Outcome::Surrender => HandState::Surrendered,
            _ => HandState::Settled,
        };
        let has_back = !bx.back.is_empty();
        self.players[bx.holder].balance += returned;
        self.house += bet - returned;
        rec.record(&TableEvent::Settled { seat: b.0, hand: hand_byte(h), bet, returned, outcome });
        if has_back {
            self.pay_back_stakes(b, h, outcome, rec);
        }
    }

    /// Settles the back stakes riding on hand `h` of box `b`.
    #[inline(never)]
    fn pay_back_stakes<R: Recorder>(&mut self, b: BoxId, h: usize, outcome: Outcome, rec: &mut R) {
        for i in 0..self.boxes[b].back.len() {
            let back = &self.boxes[b].back[i];
            if back.hand != h {
                continue;
            }
            let (p, stake) = (back.player, back.stake);
            let returned = self.payout(outcome, stake, back.original);
            self.players[p].balance += returned;
            self.house += stake - returned;
            rec.record(&TableEvent::BackSettled { seat: b.0, hand: hand_byte(h), player: p.0, stake, returned });
        }
    }

    /// Any hand still waiting for the showdown, and any non-natural one?
    #[inline(always)]
    pub(super) fn open_hands(&self) -> (bool, bool) {
        let mut open = false;
        let mut drawing = false;
        // Only the active boxes hold hands this round.
        for b in self.active {
            let hands = &self.boxes[b].hands;
            for h in 0..hands.len() {
                if hands[h].state == HandState::Stood {
                    open = true;
                    drawing |= !hands[h].is_natural();
                }
            }
        }
        (open, drawing)
    }

    /// The dealer's turn. Returns whether hands are left to settle.
    pub(super) fn dealer_turn<R: Recorder>(&mut self, rec: &mut R) -> Result<bool, ShoeExhausted> {
        let (open, drawing) = self.open_hands();
        if self.rules.hole_card {
            self.reveal_hole(rec);
        } else {
            // The second card settles insurance and naturals, so it is drawn
            // whenever anything is outstanding.
            let insured = self.insured;
            if !open && !insured {
                return Ok(false);
            }
            self.deal_to_dealer(rec)?;
            let natural = self.dealer.is_two_card_21();
            self.settle_insurance(natural, rec);
            if natural {
                self.settle_against_dealer_natural(rec);
                return Ok(false);
            }
        }
        if drawing {
            loop {
                let t = self.dealer.total;
                let hits = t.best() < 17 || (t.best() == 17 && t.is_soft() && self.rules.dealer_hits_soft_17);
                if !hits {
                    break;
                }
                self.deal_to_dealer(rec)?;
            }
        }
        Ok(open)
    }

    pub(super) fn settle<R: Recorder>(&mut self, rec: &mut R) {
        let dealer = self.dealer.total;
        for b in self.active {
            for h in 0..self.boxes[b].hands.len() {
                let hand = &self.boxes[b].hands[h];
                if hand.state != HandState::Stood {
                    continue;
                }
                let player = hand.best();
                let outcome = if hand.is_natural() {
                    Outcome::Blackjack
                } else if dealer.is_bust() || player > dealer.best() {
                    Outcome::Win
                } else if player == dealer.best() && player > self.rules.dealer_wins_ties_to {
                    Outcome::Push
                } else {
                    Outcome::Lose
                };
                self.pay(b, h, outcome, rec);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::Decision;

    use crate::record::{Outcome, TableEvent};
    use crate::rules::Rules;
    use crate::testkit::{BANKROLL, Script, balances, chips, round, settled, stacked};

    #[test]
    fn each_outcome_returns_its_share_of_the_stake() {
        let table = stacked(Rules::north_american(), "", vec![Script::new(0, &[]).boxed()]);
        let returns = [
            (Outcome::Win, 20),
            (Outcome::EvenMoney, 20),
            (Outcome::Blackjack, 25),
            (Outcome::Push, 10),
            (Outcome::Surrender, 5),
            (Outcome::Bust, 0),
            (Outcome::Lose, 0),
            (Outcome::DealerBlackjack, 0),
        ];
        for (outcome, returned) in returns {
            assert_eq!(table.payout(outcome, 10, 10), returned, "{outcome:?}");
        }
        let original_only = Rules { original_bets_only: true, ..Rules::danish() };
        let table = stacked(original_only, "", vec![Script::new(0, &[]).boxed()]);
        assert_eq!(table.payout(Outcome::DealerBlackjack, 20, 10), 10, "the double comes back");
    }

    #[test]
    fn equal_totals_push_or_go_to_the_dealer_as_the_rules_say() {
        // Box T 8 against T 8: a push in north-american, a loss in swedish
        // (the dealer wins ties up to 19).
        for (rules, outcome, returned) in
            [(Rules::north_american(), Outcome::Push, 10), (Rules::swedish(), Outcome::Lose, 0)]
        {
            let mut table = stacked(rules, "T T 8 8", vec![Script::new(10, &[]).boxed()]);
            let events = round(&mut table);
            assert_eq!(settled(&events), [(0, 0, 10, returned, outcome)]);
            assert_eq!(chips(&table), BANKROLL);
        }
    }

    #[test]
    fn the_dealer_hits_soft_17_only_where_the_rules_say() {
        // Box T T (20) against A up, 6 in the hole; then 5 and 9 to draw.
        let shoe = "T A T 6 5 9";
        for (hits, outcome) in [(false, Outcome::Win), (true, Outcome::Lose)] {
            let rules = Rules { dealer_hits_soft_17: hits, ..Rules::north_american() };
            let mut table = stacked(rules, shoe, vec![Script::new(10, &[]).boxed()]);
            let events = round(&mut table);
            assert_eq!(settled(&events)[0].4, outcome, "hits soft 17: {hits}");
        }
    }

    #[test]
    fn under_13_on_two_aces_pays_one_and_a_half() {
        // Swedish: box A A (hard 2) under 13 for 4, then stands on soft 12
        // against 9 9.
        let player = Script::new(10, &[]).answer(Decision::SideBet, 2 << 32 | 4).boxed();
        let mut table = stacked(Rules::swedish(), "A 9 A 9", vec![player]);
        let events = round(&mut table);
        assert!(events.contains(&TableEvent::SideBetSettled { seat: 0, returned: 10 }));
        assert_eq!(settled(&events), [(0, 0, 10, 0, Outcome::Lose)]);
        assert_eq!(balances(&table), [BANKROLL - 4]);
        assert_eq!(chips(&table), BANKROLL);
    }
}
