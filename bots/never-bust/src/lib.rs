//! `never-bust`: never risks a bust — stands on any hard 12 or more, hits
//! soft hands below 18. Flat minimum bets.

#![cfg_attr(target_arch = "wasm32", no_std)]

use pitboss_sdk::{Action, Decision, Strategy, Variant, View};

/// Never busts.
#[derive(Clone, Copy, Debug, Default)]
pub struct NeverBust;

impl Strategy for NeverBust {
    fn observes(&self, _: Variant) -> bool {
        false
    }

    /// Only `act` is its own: the minimum bet and every "no" are the
    /// defaults.
    fn defaults(&self, _: Variant, _: Decision) -> bool {
        true
    }

    /// An act is a function of the hand's total and softness and of
    /// whether hitting is legal.
    fn decision_key(&self, _: Variant, kind: Decision) -> Option<u32> {
        use pitboss_sdk::key::part;
        (kind == Decision::Act).then_some(part::LEGAL | part::SUMMARY)
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        let total = view.total();
        let hit = if total.is_soft() { total.best() < 18 } else { total.best() < 12 };
        if hit && view.legal().contains(Action::Hit) { Action::Hit } else { Action::Stand }
    }
}

pitboss_sdk::export_bot!(NeverBust, NeverBust);

#[cfg(test)]
mod tests {
    use super::*;
    use pitboss_sdk::abi::{BUFFER_LEN, sample};
    use pitboss_sdk::{Action, ActionSet, Card, Decision, Strategy};

    fn play(ranks: &[u8]) -> Action {
        let hand: Vec<Card> = ranks.iter().map(|&r| Card::new(r).unwrap()).collect();
        let legal = ActionSet::EMPTY.with(Action::Stand).with(Action::Hit);
        let mut buf = [0u8; BUFFER_LEN];
        NeverBust.act(&sample(&mut buf, Decision::Act, &hand, Card::new(10), legal))
    }

    #[test]
    fn never_takes_a_card_that_could_bust() {
        assert_eq!(play(&[10, 2]), Action::Stand);
        assert_eq!(play(&[6, 5]), Action::Hit);
        assert_eq!(play(&[1, 6]), Action::Hit, "soft 17 cannot bust");
        assert_eq!(play(&[1, 7]), Action::Stand);
    }
}
