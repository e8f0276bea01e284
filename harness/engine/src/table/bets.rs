//! The dealer games' bets: a main bet per box, the Over/Under 13 side
//! bet placed with it, and danish back bets behind other players' boxes.

use pitboss_sdk::{Decision, SideBet};

use super::Table;
use super::hand::{BackStake, Hand};
use crate::id::{BoxId, BoxSet, PlayerId, ids};
use crate::player::{Fault, FaultKind};
use crate::record::{Recorder, TableEvent};

impl Table {
    /// Main bets: every box whose holder can cover the minimum is asked,
    /// in box order; a staked box joins the round's active boxes.
    pub(super) fn take_bets<R: Recorder>(&mut self, rec: &mut R) {
        let (min, unit) = (self.rules.min_bet, self.rules.bet_unit);
        self.active = BoxSet::EMPTY;
        self.insured = false;
        for b in ids(self.box_count, BoxId) {
            let bx = &mut self.boxes[b];
            bx.base_bet = 0;
            bx.insurance = 0;
            bx.side = None;
            bx.hands.clear();
            bx.back.clear();
            let p = bx.holder;
            let max = self.stake_cap(p);
            if max < min || self.players[p].disqualified {
                continue; // Cannot cover the minimum, or disqualified: sits out unasked.
            }
            let answer = self.ask_about(p, b, Decision::Bet, 0, (min, max, unit), rec);
            let amount = self.checked_bet(p, b, answer, (min, max, unit), rec);
            if amount == 0 {
                continue;
            }
            let state = &mut self.players[p];
            state.balance -= amount;
            state.round_bet += amount;
            let bx = &mut self.boxes[b];
            bx.base_bet = amount;
            bx.hands.push(Hand::new(amount));
            self.active.insert(b);
            rec.record(&TableEvent::Bet { seat: b.0, amount });
            if self.rules.over_under_13 {
                self.take_side_bet(b, rec);
            }
        }
    }

    /// Over/Under 13, placed with the main bet: `(side << 32) | amount`,
    /// the amount from the table minimum up to the main bet.
    pub(super) fn take_side_bet<R: Recorder>(&mut self, b: BoxId, rec: &mut R) {
        let p = self.boxes[b].holder;
        let (min, unit) = (self.rules.min_bet, self.rules.bet_unit);
        let max = Self::affordable(self.players[p].balance, self.boxes[b].base_bet, unit);
        if max < min {
            return;
        }
        let answer = self.ask_about(p, b, Decision::SideBet, self.boxes[b].base_bet, (min, max, unit), rec);
        let side = match answer {
            Ok(0) => return,
            Ok(a) => parse_side_bet(a, (min, max, unit)),
            Err(f) => Err(f),
        };
        match side {
            Ok((side, amount)) => {
                // A side bet is a proposition of its own, not a stake on a
                // hand: it moves chips but not the EV's denominator.
                self.players[p].balance -= amount;
                self.boxes[b].side = Some((side, amount));
                rec.record(&TableEvent::SideBet { seat: b.0, side, amount });
            }
            Err(f) => self.fault(p, b, Decision::SideBet, f, rec),
        }
    }

    /// Danish back bets: every player is offered the boxes it does not
    /// hold, one by one, until it places one.
    pub(super) fn take_back_bets<R: Recorder>(&mut self, rec: &mut R) {
        let (min, unit) = (self.rules.min_bet, self.rules.bet_unit);
        for p in ids(self.player_count, PlayerId) {
            for b in self.active {
                if self.boxes[b].holder == p || self.players[p].disqualified {
                    continue;
                }
                let on_box: i64 = self.boxes[b].base_bet + self.boxes[b].back.iter().map(|s| s.stake).sum::<i64>();
                let max = Self::affordable(self.players[p].balance, self.rules.max_bet - on_box, unit);
                if max < min {
                    continue;
                }
                let base = self.boxes[b].base_bet;
                let answer = self.ask_about(p, b, Decision::BackBet, base, (min, max, unit), rec);
                let said_zero = matches!(answer, Ok(0));
                let stake = self.checked_amount(p, b, Decision::BackBet, answer, (min, max, unit), rec);
                if stake > 0 {
                    let state = &mut self.players[p];
                    state.balance -= stake;
                    state.round_bet += stake;
                    self.boxes[b].back.push(BackStake { player: p, hand: 0, stake, original: stake });
                    rec.record(&TableEvent::BackBet { seat: b.0, player: p.0, amount: stake });
                }
                if !said_zero {
                    break; // One back bet per round; a bad answer ends the offers.
                }
            }
        }
    }
}

/// Reads a side-bet answer, `(side << 32) | amount` with side 1 (over) or
/// 2 (under) and the amount in `min..=max` steps of `unit`.
fn parse_side_bet(a: i64, (min, max, unit): (i64, i64, i64)) -> Result<(SideBet, i64), Fault> {
    let amount = a & 0xffff_ffff;
    let side = match a >> 32 {
        1 => Some(SideBet::Over),
        2 => Some(SideBet::Under),
        _ => None,
    };
    match side {
        Some(side) if amount >= min && amount <= max && amount % unit == 0 => Ok((side, amount)),
        _ => Err(Fault::new(
            FaultKind::Illegal,
            format!("side-bet {a:#x} is not (1 over | 2 under) << 32 | amount in {min}..={max} steps of {unit}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::{Decision, SideBet};

    use super::parse_side_bet;
    use crate::id::{BoxId, PlayerId};
    use crate::rules::Rules;
    use crate::testkit::{BANKROLL, Script, balances, chips, faults, round, stacked};

    /// Box T 9 (19) against the dealer's T 8 (18).
    const NINETEEN_BEATS_EIGHTEEN: &str = "T T 9 8";

    #[test]
    fn a_bet_leaves_the_balance_and_puts_one_hand_on_the_box() {
        let mut table = stacked(Rules::north_american(), NINETEEN_BEATS_EIGHTEEN, vec![Script::new(10, &[]).boxed()]);
        table.begin_round(&mut ());
        table.take_bets(&mut ());
        assert_eq!(table.active.collect::<Vec<_>>(), [BoxId(0)]);
        let hands = &table.boxes[BoxId(0)].hands;
        assert_eq!((hands.len(), hands[0].bet, hands[0].original), (1, 10, 10));
        assert_eq!(balances(&table), [BANKROLL - 10]);
        assert_eq!(table.players[PlayerId(0)].round_bet, 10);
        assert_eq!(chips(&table) + 10, BANKROLL, "the stake is on the table");
    }

    #[test]
    fn an_illegal_bet_faults_and_sits_the_round_out_where_that_is_allowed() {
        // 3 is no multiple of the 2-chip unit.
        let mut table = stacked(Rules::north_american(), NINETEEN_BEATS_EIGHTEEN, vec![Script::new(3, &[]).boxed()]);
        let events = round(&mut table);
        assert_eq!(faults(&events), [Decision::Bet]);
        assert_eq!(balances(&table), [BANKROLL]);
        assert_eq!(table.players()[0].stats.rounds, 0);
    }

    #[test]
    fn where_sitting_out_is_not_allowed_a_zero_or_bad_bet_stakes_the_minimum() {
        let rules = Rules { sit_out: false, ..Rules::north_american() };
        for bet in [0, 3] {
            let mut table = stacked(rules.clone(), NINETEEN_BEATS_EIGHTEEN, vec![Script::new(bet, &[]).boxed()]);
            let events = round(&mut table);
            assert_eq!(faults(&events), [Decision::Bet], "bet {bet}");
            assert_eq!(balances(&table), [BANKROLL + 2], "bet {bet}: the 2-chip minimum won");
        }
    }

    #[test]
    fn a_side_bet_answer_packs_the_side_above_the_amount() {
        let limits = (2, 10, 2);
        assert_eq!(parse_side_bet(1 << 32 | 4, limits), Ok((SideBet::Over, 4)));
        assert_eq!(parse_side_bet(2 << 32 | 10, limits), Ok((SideBet::Under, 10)));
        for bad in [3 << 32 | 4, 1 << 32 | 12, 1 << 32 | 3, 4, -1] {
            assert!(parse_side_bet(bad, limits).is_err(), "{bad:#x}");
        }
    }

    #[test]
    fn a_back_bet_is_offered_only_behind_another_players_staked_box() {
        let holder = Script::new(10, &[]).boxed();
        let behind = Script::new(0, &[]).answer(Decision::BackBet, 6).boxed();
        let mut table = stacked(Rules::danish(), "", vec![holder, behind]);
        table.begin_round(&mut ());
        table.take_bets(&mut ());
        table.take_back_bets(&mut ());
        assert_eq!(table.active.collect::<Vec<_>>(), [BoxId(0)], "the second player sat out its own box");
        let back = &table.boxes[BoxId(0)].back;
        assert_eq!(back.len(), 1);
        assert_eq!((back[0].player, back[0].hand, back[0].stake), (PlayerId(1), 0, 6));
        assert_eq!(balances(&table), [BANKROLL - 10, BANKROLL - 6]);
        assert_eq!(table.players[PlayerId(1)].round_bet, 6, "a back bet is an initial stake");
    }
}
