//! The expectation off the top of the shoe: every up card and every
//! two-card hand, naturals settled by the rule set's rules.

use serde::Serialize;

use crate::analyzer::Analyzer;
use crate::deck::{ACE, Hand, RANKS};
use crate::game::Game;
use crate::player::Policy;

/// A policy's expectation, per original bet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OffTop {
    /// Over every deal.
    pub ev: f64,
    /// Given each up card (rank index), over the hands dealt against it.
    pub by_up: [f64; RANKS],
}

/// The chance of the dealer's natural once `hand` and `up` are out.
pub fn natural_chance(an: &Analyzer, up: usize, hand: &Hand) -> f64 {
    match Game::natural_partner(up) {
        Some(partner) => {
            let left = an.shoe.without(up).less(hand);
            left.counts[partner] / left.total()
        }
        None => 0.0,
    }
}

/// One two-card hand against `up`, naturals included.
pub fn deal_value(an: &mut Analyzer, up: usize, hand: &Hand, policy: Policy<'_>) -> f64 {
    let natural = hand.is_two_card_21();
    let dealer = natural_chance(an, up, hand);
    let game = &an.game;
    let bj = game.blackjack;
    if game.banker {
        // A banker natural takes every stake doubled, or not doubled when
        // the player has one too; a player natural is paid 2:1 at once.
        let (lose, rest) = if natural { (-1.0, bj) } else { (-2.0, an.value(up, hand, policy)) };
        return dealer * lose + (1.0 - dealer) * rest;
    }
    if game.peek {
        let (lose, rest) = if natural { (0.0, bj) } else { (-1.0, an.value(up, hand, policy)) };
        return dealer * lose + (1.0 - dealer) * rest;
    }
    if natural {
        let keep = bj * (1.0 - dealer);
        // Even money is an option; the optimal player takes the better.
        return if game.even_money && up == ACE && matches!(policy, Policy::Optimal) { keep.max(1.0) } else { keep };
    }
    an.value(up, hand, policy)
}

/// The expectation of `policy` off the top.
pub fn off_top(an: &mut Analyzer, policy: Policy<'_>) -> OffTop {
    let shoe = an.shoe;
    let mut by_up = [0.0; RANKS];
    let mut ev = 0.0;
    for (up, slot) in by_up.iter_mut().enumerate() {
        let left = shoe.without(up);
        for a in 0..RANKS {
            for b in a..RANKS {
                let hand = Hand::of(&[a, b]);
                let p = left.chance_of(&hand);
                if p > 0.0 {
                    *slot += p * deal_value(an, up, &hand, policy);
                }
            }
        }
        ev += shoe.counts[up] / shoe.total() * *slot;
    }
    OffTop { ev, by_up }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deck::Shoe;
    use pitboss_engine::{InsuranceOn, Rules};

    fn optimal(rules: Rules) -> f64 {
        let game = Game::new(&rules).unwrap();
        let mut an = Analyzer::new(game, Shoe::decks(f64::from(rules.decks)));
        off_top(&mut an, Policy::Optimal).ev * 100.0
    }

    fn standard(decks: u8, h17: bool, das: bool, hole: bool) -> Rules {
        Rules {
            decks,
            cut_card: 13,
            dealer_hits_soft_17: h17,
            double_after_split: das,
            late_surrender: false,
            hole_card: hole,
            insurance_on: InsuranceOn::Ace,
            ..Rules::north_american()
        }
    }

    /// The Wizard of Odds' "Blackjack Appendix 9" (wizardofodds.com/games/
    /// blackjack/appendix/9/, updated October 2019): exact
    /// composition-dependent optimal play, resplits to four hands except
    /// aces, one card on split aces, double on any two cards, 3:2, no
    /// surrender. Names are theirs (`1ds17r4`: one deck, S17, four hands).
    #[test]
    fn reproduces_the_wizard_of_odds_appendix_9() {
        for (name, rules, theirs) in [
            ("1ds17r4 DAS", standard(1, false, true, true), 0.1839),
            ("1ds17r4 no DAS", standard(1, false, false, true), 0.0423),
            ("2dh17r4 DAS", standard(2, true, true, true), -0.3797),
            ("2dh17r4 no DAS", standard(2, true, false, true), -0.5252),
            ("5ds17r4 DAS", standard(5, false, true, true), -0.3804),
            ("5ds17r4 no DAS", standard(5, false, false, true), -0.5225),
            ("euro-6dh17r4 DAS", standard(6, true, true, false), -0.72705),
            ("euro-6dh17r4 no DAS", standard(6, true, false, false), -0.86975),
        ] {
            let ours = optimal(rules);
            eprintln!("{name}: theirs {theirs:+.4} %, ours {ours:+.4} %");
            assert!((ours - theirs).abs() < 0.01, "{name}: theirs {theirs:+.4} %, ours {ours:+.4} %");
        }
    }
}
