//! `mimic-dealer`: plays the dealer's own rule — hit below 17, never double,
//! split, surrender or insure. It overrides nothing: every decision is the
//! SDK's default, which makes it the smallest possible bot.

#![cfg_attr(target_arch = "wasm32", no_std)]

/// The dealer's rule, from the SDK's defaults.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mimic;

impl pitboss_sdk::Strategy for Mimic {}

pitboss_sdk::export_bot!(Mimic, Mimic);

#[cfg(test)]
mod tests {
    use super::*;
    use pitboss_sdk::abi::{BUFFER_LEN, sample};
    use pitboss_sdk::{Action, ActionSet, Card, Decision, Strategy};

    fn play(ranks: &[u8]) -> Action {
        let hand: Vec<Card> = ranks.iter().map(|&r| Card::new(r).unwrap()).collect();
        let legal = ActionSet::EMPTY.with(Action::Stand).with(Action::Hit);
        let mut buf = [0u8; BUFFER_LEN];
        Mimic.act(&sample(&mut buf, Decision::Act, &hand, Card::new(10), legal))
    }

    #[test]
    fn hits_below_17_like_the_dealer() {
        assert_eq!(play(&[10, 6]), Action::Hit);
        assert_eq!(play(&[1, 6]), Action::Stand, "soft 17 stands");
        assert_eq!(play(&[10, 7]), Action::Stand);
    }
}
