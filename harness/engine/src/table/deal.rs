//! The dealer games' deal: two cards to every box and the dealer's up
//! card (and hole card), then even money, insurance and the peek.

use pitboss_sdk::abi::event_kind;
use pitboss_sdk::{Decision, is_natural};

use super::Table;
use super::hand::HandState;
use crate::id::{BoxId, hand_byte};
use crate::record::{Outcome, Recorder, TableEvent};
use crate::rules::InsuranceOn;
use crate::shoe::ShoeExhausted;

impl Table {
    // Inlined where they are called: out of line, saving and restoring
    // registers cost more than the deal itself (callgrind: ~45 of ~70
    // instructions a card).
    #[inline(always)]
    pub(super) fn deal_to_hand<R: Recorder>(&mut self, b: BoxId, h: usize, rec: &mut R) -> Result<(), ShoeExhausted> {
        let card = self.deal(rec)?;
        self.boxes[b].hands[h].push(card);
        self.emit(event_kind::CARD, b.0, hand_byte(h), card);
        rec.record(&TableEvent::Card { seat: b.0, hand: hand_byte(h), card });
        Ok(())
    }

    #[inline(always)]
    pub(super) fn deal_to_dealer<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        let card = self.deal(rec)?;
        self.dealer.push(card);
        self.emit(event_kind::DEALER_CARD, 0, 0, card);
        rec.record(&TableEvent::DealerCard { card, hole: false });
        Ok(())
    }

    pub(super) fn deal_and_play<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        for b in self.active {
            self.deal_to_hand(b, 0, rec)?;
        }
        self.deal_to_dealer(rec)?;
        for b in self.active {
            self.deal_to_hand(b, 0, rec)?;
        }
        if self.rules.hole_card {
            let hole = self.deal(rec)?;
            self.hole = Some(hole);
            rec.record(&TableEvent::DealerCard { card: hole, hole: true });
        }
        if self.rules.over_under_13 {
            self.settle_side_bets(rec);
        }

        let up = self.dealer.cards()[0];
        let offered = match self.rules.insurance_on {
            InsuranceOn::Never => false,
            InsuranceOn::Ace => up.is_ace(),
            InsuranceOn::AceOrTen => up.is_ace() || up.is_ten(),
        };
        // Even money and insurance are alternatives: a blackjack facing an
        // ace is asked about even money first, and a box that takes it is
        // settled and not offered insurance (RULES.md, swedish).
        if self.hole.is_none() && self.rules.even_money && up.is_ace() {
            self.offer_even_money(rec);
        }
        if offered {
            self.offer_insurance(rec);
        }

        if let Some(hole) = self.hole {
            if is_natural(&[up, hole]) {
                self.reveal_hole(rec);
                self.settle_insurance(true, rec);
                self.settle_against_dealer_natural(rec);
                return Ok(());
            }
            self.settle_insurance(false, rec);
            self.pay_naturals(rec);
        }

        for b in self.active {
            self.play_box(b, rec)?;
        }
        if self.dealer_turn(rec)? {
            self.settle(rec);
        }
        Ok(())
    }

    /// Insurance, for every box still in play: exactly half the bet, or
    /// any amount up to half where the rules allow.
    pub(super) fn offer_insurance<R: Recorder>(&mut self, rec: &mut R) {
        for b in self.active {
            if self.boxes[b].hands[0].state == HandState::Settled {
                continue; // Took even money: settled, and insurance is its alternative.
            }
            let p = self.boxes[b].holder;
            let base = self.boxes[b].base_bet;
            let half = base / 2;
            let balance = self.players[p].balance;
            let (min, max) = if self.rules.insurance_up_to_half { (1, half.min(balance)) } else { (half, half) };
            if half == 0 || balance < min || max < min {
                continue;
            }
            let answer = self.ask_about(p, b, Decision::Insurance, base, (min, max, 1), rec);
            let amount = self.checked_amount(p, b, Decision::Insurance, answer, (min, max, 1), rec);
            if amount > 0 {
                self.players[p].balance -= amount;
                self.boxes[b].insurance = amount;
                self.insured = true;
                rec.record(&TableEvent::Insurance { seat: b.0, amount });
            }
        }
    }

    /// A blackjack facing an ace, no hole card: take 1:1 now?
    pub(super) fn offer_even_money<R: Recorder>(&mut self, rec: &mut R) {
        for b in self.active {
            if !self.boxes[b].hands[0].is_natural() {
                continue;
            }
            let p = self.boxes[b].holder;
            let answer = self.ask_about(p, b, Decision::EvenMoney, self.boxes[b].base_bet, (0, 1, 1), rec);
            if self.checked_flag(p, b, Decision::EvenMoney, answer, rec) {
                self.pay(b, 0, Outcome::EvenMoney, rec);
            }
        }
    }

    pub(super) fn reveal_hole<R: Recorder>(&mut self, rec: &mut R) {
        if let Some(card) = self.hole.take() {
            self.dealer.push(card);
            self.emit(event_kind::HOLE_CARD, 0, 0, card);
            rec.record(&TableEvent::HoleRevealed { card });
        }
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::Decision;

    use crate::record::{Outcome, TableEvent};
    use crate::rules::Rules;
    use crate::testkit::{BANKROLL, Script, balances, chips, round, settled, stacked};

    fn asked(events: &[TableEvent], decision: Decision) -> usize {
        events.iter().filter(|e| matches!(e, TableEvent::Asked { kind, .. } if *kind == decision)).count()
    }

    #[test]
    fn the_peek_ends_the_round_on_a_dealer_blackjack_and_pays_insurance() {
        // Box 9 7 against the dealer's ace up, king in the hole.
        let player = Script::new(10, &[]).answer(Decision::Insurance, 5).boxed();
        let mut table = stacked(Rules::north_american(), "9 A 7 K", vec![player]);
        let events = round(&mut table);
        assert!(events.contains(&TableEvent::Insurance { seat: 0, amount: 5 }));
        assert!(events.contains(&TableEvent::InsuranceSettled { seat: 0, returned: 15 }));
        assert_eq!(settled(&events), [(0, 0, 10, 0, Outcome::DealerBlackjack)]);
        assert_eq!(asked(&events, Decision::Act), 0, "nobody plays against a peeked blackjack");
        assert_eq!(balances(&table), [BANKROLL], "insurance covered the bet exactly");
        assert_eq!(chips(&table), BANKROLL);
    }

    #[test]
    fn even_money_settles_a_blackjack_at_once_and_replaces_insurance() {
        // Swedish, no hole card: box A K against the dealer's ace.
        let player = Script::new(10, &[]).answer(Decision::EvenMoney, 1).answer(Decision::Insurance, 5).boxed();
        let mut table = stacked(Rules::swedish(), "A A K", vec![player]);
        let events = round(&mut table);
        assert_eq!(settled(&events), [(0, 0, 10, 20, Outcome::EvenMoney)]);
        assert_eq!(asked(&events, Decision::Insurance), 0);
        assert_eq!(balances(&table), [BANKROLL + 10]);
    }

    #[test]
    fn insurance_is_offered_only_against_the_up_cards_the_rules_name() {
        // Box 9 7 (stands) against a ten up, then an 8: 16 against 18.
        for (rules, offers) in [(Rules::north_american(), 1), (Rules::danish(), 0)] {
            let mut table = stacked(rules, "9 T 7 8", vec![Script::new(10, &[]).boxed()]);
            let events = round(&mut table);
            assert_eq!(asked(&events, Decision::Insurance), offers);
            assert_eq!(settled(&events), [(0, 0, 10, 0, Outcome::Lose)]);
        }
    }
}
