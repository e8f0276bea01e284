//! The dealer games' play: the actions a hand may take, asking for one,
//! and applying it (hit, stand, double, split, surrender), back stakes
//! following their hand.

use pitboss_sdk::abi::event_kind;
use pitboss_sdk::{Action, ActionSet, Decision};

use super::Table;
use super::hand::{BackStake, Hand, HandState};
use crate::id::{BoxId, MAX_HANDS_PER_BOX, hand_byte};
use crate::player::Fault;
use crate::record::{Outcome, Recorder, TableEvent};
use crate::shoe::ShoeExhausted;

impl Table {
    /// The most hands a box may split into: the rules' limit, or
    /// [`MAX_HANDS_PER_BOX`] where they set none.
    #[inline]
    fn max_hands_per_box(&self) -> usize {
        match self.rules.max_split_hands {
            0 => MAX_HANDS_PER_BOX,
            n => usize::from(n),
        }
    }

    /// The actions hand `h` of box `b` may take now.
    #[inline(always)]
    pub(super) fn legal_actions(&self, b: BoxId, h: usize) -> ActionSet {
        let bx = &self.boxes[b];
        let hand = &bx.hands[h];
        let balance = self.players[bx.holder].balance;
        let mut legal = ActionSet::EMPTY.with(Action::Stand);
        let two_cards = hand.len == 2;
        let can_split = two_cards
            && hand.cards[0].value() == hand.cards[1].value()
            && bx.hands.len() < self.max_hands_per_box()
            && balance >= hand.bet
            && (!hand.cards[0].is_ace() || !hand.from_split || self.rules.resplit_aces);
        if hand.split_aces {
            // Split aces take one card and stop; only a resplit may follow.
            if can_split {
                legal = legal.with(Action::Split);
            }
            return legal;
        }
        legal = legal.with(Action::Hit);
        if two_cards {
            let total_ok = self.rules.double_totals & (1u32 << hand.total.hard.min(31)) != 0;
            let soft_ok = !hand.total.is_soft() || self.rules.double_soft;
            if total_ok && soft_ok && (!hand.from_split || self.rules.double_after_split) && balance >= hand.bet {
                legal = legal.with(Action::Double);
            }
            if can_split {
                legal = legal.with(Action::Split);
            }
            let original = !hand.from_split && bx.hands.len() == 1;
            if self.rules.late_surrender && (original || self.rules.surrender_after_split) {
                legal = legal.with(Action::Surrender);
            }
        }
        legal
    }

    pub(super) fn play_box<R: Recorder>(&mut self, b: BoxId, rec: &mut R) -> Result<(), ShoeExhausted> {
        let mut h = 0;
        while h < self.boxes[b].hands.len() {
            if self.boxes[b].hands[h].len == 1 {
                // A split hand gets its second card when its turn comes.
                self.deal_to_hand(b, h, rec)?;
            }
            while self.boxes[b].hands[h].state == HandState::Playing {
                let hand = &self.boxes[b].hands[h];
                if hand.total.is_bust() {
                    self.pay(b, h, Outcome::Bust, rec);
                    break;
                }
                if hand.best() == 21 {
                    self.boxes[b].hands[h].state = HandState::Stood;
                    break;
                }
                let legal = self.legal_actions(b, h);
                if legal == ActionSet::EMPTY.with(Action::Stand) {
                    self.boxes[b].hands[h].state = HandState::Stood;
                    break;
                }
                let action = self.ask_action(b, h, legal, rec);
                rec.record(&TableEvent::Acted { seat: b.0, hand: hand_byte(h), action });
                self.apply(b, h, action, rec)?;
            }
            h += 1;
        }
        Ok(())
    }

    pub(super) fn ask_action<R: Recorder>(&mut self, b: BoxId, h: usize, legal: ActionSet, rec: &mut R) -> Action {
        let answer = match self.known_act(b, h, legal, rec) {
            Some(answer) => Ok(answer),
            None => {
                let bet = self.boxes[b].hands[h].bet;
                let mut header = self.header(b, Decision::Act, bet, (0, 0, 1));
                header.hand_index = hand_byte(h);
                header.legal = legal;
                self.ask_box(b, header, h, rec)
            }
        };
        match answer {
            Ok(answer) => match Action::from_answer(answer) {
                Some(a) if legal.contains(a) => a,
                _ => self.stands_refused(b, legal, Ok(answer), rec),
            },
            other => self.stands_refused(b, legal, other, rec),
        }
    }

    /// A refused act: recorded, and the hand stands.
    #[cold]
    #[inline(never)]
    fn stands_refused<R: Recorder>(
        &mut self,
        b: BoxId,
        legal: ActionSet,
        answer: Result<i64, Fault>,
        rec: &mut R,
    ) -> Action {
        let why = |answer| illegal_act(answer, legal);
        self.refused(self.boxes[b].holder, b, Decision::Act, answer, why, rec);
        Action::Stand
    }

    pub(super) fn apply<R: Recorder>(
        &mut self,
        b: BoxId,
        h: usize,
        action: Action,
        rec: &mut R,
    ) -> Result<(), ShoeExhausted> {
        let holder = self.boxes[b].holder;
        match action {
            Action::Stand => self.boxes[b].hands[h].state = HandState::Stood,
            Action::Hit => self.deal_to_hand(b, h, rec)?,
            Action::Double => {
                let hand = &mut self.boxes[b].hands[h];
                self.players[holder].balance -= hand.bet;
                hand.bet *= 2;
                hand.aces_low = self.rules.aces_low_after_soft_double && hand.total.is_soft();
                self.follow_double(b, h);
                self.deal_to_hand(b, h, rec)?;
                let hand = &mut self.boxes[b].hands[h];
                if hand.total.is_bust() {
                    self.pay(b, h, Outcome::Bust, rec);
                } else {
                    hand.state = HandState::Stood;
                }
            }
            Action::Split => {
                let hand = &mut self.boxes[b].hands[h];
                let (kept, moved) = (hand.cards[0], hand.cards[1]);
                let (bet, original) = (hand.bet, hand.original);
                *hand = Hand::new(bet);
                hand.push(kept);
                hand.from_split = true;
                hand.split_aces = kept.is_ace();
                // The pair has equal values, so the totals agree; the new
                // hand holds the second card itself (a K–Q split keeps both).
                let mut new_hand = Hand { original: 0, ..*hand };
                new_hand.cards[0] = moved;
                hand.original = original;
                self.boxes[b].hands.insert(h + 1, new_hand);
                self.players[holder].balance -= bet;
                self.follow_split(b, h);
                self.emit(event_kind::SPLIT, b.0, hand_byte(h), moved);
                self.deal_to_hand(b, h, rec)?;
            }
            Action::Surrender => self.pay(b, h, Outcome::Surrender, rec),
        }
        Ok(())
    }

    /// Back stakes on a doubled hand double too, where their owners can
    /// afford it.
    pub(super) fn follow_double(&mut self, b: BoxId, h: usize) {
        for back in self.boxes[b].back.iter_mut().filter(|s| s.hand == h) {
            let owner = &mut self.players[back.player];
            if owner.balance >= back.stake {
                owner.balance -= back.stake;
                back.stake *= 2;
            }
        }
    }

    /// Back stakes on a split hand split with it (the new hand is `h + 1`)
    /// where their owners can afford it; else they stay on the first hand.
    pub(super) fn follow_split(&mut self, b: BoxId, h: usize) {
        let bx = &mut self.boxes[b];
        for back in bx.back.iter_mut().filter(|s| s.hand > h) {
            back.hand += 1;
        }
        for i in 0..bx.back.len() {
            let (player, hand, stake) = (bx.back[i].player, bx.back[i].hand, bx.back[i].stake);
            if hand != h {
                continue;
            }
            let owner = &mut self.players[player];
            if owner.balance >= stake {
                owner.balance -= stake;
                bx.back.push(BackStake { player, hand: h + 1, stake, original: 0 });
            }
        }
    }
}

/// Why an act answer is refused, in the author's words: the action it
/// names (`split is not a legal action here`), or that its code names none.
pub(crate) fn illegal_act(answer: i64, legal: ActionSet) -> String {
    let offered: Vec<&str> = legal.iter().map(Action::name).collect();
    match Action::from_answer(answer) {
        Some(action) => format!("{} is not a legal action here (legal: {})", action.name(), offered.join(", ")),
        None => format!("act {answer} names no action (legal: {})", offered.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::{Action, ActionSet};

    use crate::id::{BoxId, PlayerId};
    use crate::record::{Outcome, TableEvent};
    use crate::rules::Rules;
    use crate::table::hand::Hand;
    use crate::testkit::{BANKROLL, Script, balances, chips, round, settled, stacked};

    use Action::{Double, Hit, Split, Stand, Surrender};

    fn split(cards: &str) -> Hand {
        let first = Hand::dealt(cards);
        Hand { from_split: true, split_aces: first.cards[0].is_ace(), ..first }
    }

    /// The actions of the first of `hands` on a box whose holder has
    /// `balance` chips left.
    fn legal(rules: Rules, hands: Vec<Hand>, balance: i64) -> ActionSet {
        let mut table = stacked(rules, "", vec![Script::new(0, &[]).boxed()]);
        table.boxes[BoxId(0)].hands = hands.into();
        table.players[PlayerId(0)].balance = balance;
        table.legal_actions(BoxId(0), 0)
    }

    fn set(actions: &[Action]) -> ActionSet {
        actions.iter().fold(ActionSet::EMPTY, |set, &a| set.with(a))
    }

    #[test]
    fn an_act_outside_the_legal_set_is_a_fault_naming_it_and_the_hand_stands() {
        // Three cards: doubling (answer 2) is not allowed.
        let mut table = stacked(Rules::north_american(), "", vec![Script::new(0, &[Double]).boxed()]);
        table.boxes[BoxId(0)].hands = vec![Hand::dealt("5 4 2")].into();
        let mut messages = Vec::new();
        let mut rec = |e: &TableEvent| {
            if let TableEvent::Fault { fault, .. } = e {
                messages.push(fault.message.clone());
            }
        };
        let legal = table.legal_actions(BoxId(0), 0);
        assert_eq!(table.ask_action(BoxId(0), 0, legal, &mut rec), Stand);
        assert_eq!(messages, ["double is not a legal action here (legal: stand, hit)"]);
        assert_eq!(table.players[PlayerId(0)].stats.faults, 1);
    }

    #[test]
    fn an_illegal_split_says_split_and_an_unknown_code_says_so() {
        let legal = set(&[Stand, Hit]);
        assert_eq!(super::illegal_act(Split as i64, legal), "split is not a legal action here (legal: stand, hit)");
        assert_eq!(super::illegal_act(9, legal), "act 9 names no action (legal: stand, hit)");
    }

    #[test]
    fn a_first_pair_may_do_anything_it_can_pay_for() {
        let na = Rules::north_american();
        assert_eq!(legal(na.clone(), vec![Hand::dealt("8 8")], 100), set(&[Stand, Hit, Double, Split, Surrender]));
        assert_eq!(
            legal(na, vec![Hand::dealt("8 8")], 9),
            set(&[Stand, Hit, Surrender]),
            "doubling and splitting cost 10"
        );
    }

    #[test]
    fn doubling_follows_the_totals_and_the_soft_rule() {
        assert_eq!(legal(Rules::danish(), vec![Hand::dealt("5 4")], 100), set(&[Stand, Hit, Double]));
        assert_eq!(legal(Rules::danish(), vec![Hand::dealt("T 2")], 100), set(&[Stand, Hit]));
        assert_eq!(
            legal(Rules::danish(), vec![Hand::dealt("A 8")], 100),
            set(&[Stand, Hit]),
            "soft 19: hard 9, but soft"
        );
        assert_eq!(legal(Rules::north_american(), vec![Hand::dealt("5 4 2")], 100), set(&[Stand, Hit]), "three cards");
    }

    #[test]
    fn split_hands_may_not_surrender_and_split_aces_only_resplit() {
        let na = Rules::north_american();
        let two = vec![split("8 3"), split("8")];
        assert_eq!(legal(na.clone(), two, 100), set(&[Stand, Hit, Double]));
        let aces = vec![split("A A"), split("A")];
        assert_eq!(legal(na, aces.clone(), 100), set(&[Stand]), "no resplit of aces");
        assert_eq!(legal(Rules::swedish(), aces, 100), set(&[Stand, Split]));
    }

    #[test]
    fn a_box_splits_into_at_most_the_rules_hands() {
        let four = vec![split("8 8"), split("8"), split("8"), split("8")];
        assert!(!legal(Rules::north_american(), four.clone(), 100).contains(Split));
        assert!(legal(Rules::danish(), four, 100).contains(Split), "unlimited");
    }

    #[test]
    fn a_split_and_a_double_each_stake_the_hands_bet_again() {
        // Box 8 8 against 6 up and T in the hole (16). Split: 8 3 doubles
        // onto K (21), 8 9 stands on 17; the dealer draws T and busts.
        let player = Script::new(10, &[Split, Double, Stand]).boxed();
        let mut table = stacked(Rules::north_american(), "8 6 8 T 3 K 9 T", vec![player]);
        let events = round(&mut table);
        let acted: Vec<Action> = events
            .iter()
            .filter_map(|e| if let TableEvent::Acted { action, .. } = e { Some(*action) } else { None })
            .collect();
        assert_eq!(acted, [Split, Double, Stand]);
        assert_eq!(settled(&events), [(0, 0, 20, 40, Outcome::Win), (0, 1, 10, 20, Outcome::Win)]);
        assert_eq!(balances(&table), [BANKROLL + 30]);
        assert_eq!(chips(&table), BANKROLL);
    }
}
