//! `Game`: the parts of a `Rules` value that change a hand's expected
//! value, read once, so the analysis never looks at anything else.

use pitboss_engine::{InsuranceOn, Rules};
use pitboss_sdk::Variant;

use crate::deck::{ACE, TEN};

/// What the analysis cannot handle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StrategyError {
    /// The rules themselves are invalid (as the engine would refuse them).
    #[error(transparent)]
    Rules(#[from] pitboss_engine::RulesError),
}

/// The rules that matter to the player's expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The rule set's name.
    pub variant: Variant,
    /// Decks in the shoe.
    pub decks: u8,
    /// The banker game (`norwegian-home`) against the house banker.
    pub banker: bool,
    /// The dealer peeks: the analysis is conditioned on no dealer
    /// blackjack once play starts (and the hole card is not among the
    /// cards the player draws).
    pub peek: bool,
    /// The dealer hits soft 17.
    pub hits_soft_17: bool,
    /// Equal totals up to this one lose; 0: every tie pushes.
    pub ties_to: u8,
    /// A player blackjack (dealer none) wins this many bets.
    pub blackjack: f64,
    /// Bit `t`: a two-card hand of hard total `t` may double.
    pub double_totals: u32,
    /// Soft two-card hands may double.
    pub double_soft: bool,
    /// After a soft double every ace counts 1.
    pub aces_low: bool,
    /// Doubling after a split.
    pub das: bool,
    /// Pairs may be split.
    pub splits: bool,
    /// Most hands from splits; 0 = unlimited.
    pub max_hands: u8,
    /// Split aces may be split again.
    pub resplit_aces: bool,
    /// Late surrender of the first two cards.
    pub surrender: bool,
    /// Without a hole card, a dealer blackjack takes only the original bet.
    pub original_bets_only: bool,
    /// Where insurance is offered.
    pub insurance_on: InsuranceOn,
    /// A blackjack facing an ace may take even money (no hole card).
    pub even_money: bool,
}

impl Game {
    /// The game `rules` describe, validated as the engine validates them.
    pub fn new(rules: &Rules) -> Result<Game, StrategyError> {
        rules.validate()?;
        let banker = rules.game == pitboss_engine::Game::Banker;
        let (num, den) = rules.blackjack_pays;
        if banker {
            // The banker game's own rules (RULES.md section 4): naturals pay
            // 2:1, every tie loses, the house banker stands on any 17, no
            // player options; the dealer-game fields do not apply.
            return Ok(Game {
                variant: rules.variant,
                decks: rules.decks,
                banker: true,
                peek: true,
                hits_soft_17: false,
                ties_to: 21,
                blackjack: 2.0,
                double_totals: 0,
                double_soft: false,
                aces_low: false,
                das: false,
                splits: false,
                max_hands: 0,
                resplit_aces: false,
                surrender: false,
                original_bets_only: false,
                insurance_on: InsuranceOn::Never,
                even_money: false,
            });
        }
        Ok(Game {
            variant: rules.variant,
            decks: rules.decks,
            banker: false,
            peek: rules.hole_card,
            hits_soft_17: rules.dealer_hits_soft_17,
            ties_to: rules.dealer_wins_ties_to,
            blackjack: f64::from(num) / f64::from(den),
            double_totals: rules.double_totals,
            double_soft: rules.double_soft,
            aces_low: rules.aces_low_after_soft_double,
            das: rules.double_after_split,
            splits: true,
            max_hands: rules.max_split_hands,
            resplit_aces: rules.resplit_aces,
            surrender: rules.late_surrender,
            original_bets_only: rules.original_bets_only && !rules.hole_card,
            insurance_on: rules.insurance_on,
            even_money: rules.even_money && !rules.hole_card,
        })
    }

    /// The rank that makes a dealer natural with `up`, if any.
    #[inline]
    pub fn natural_partner(up: usize) -> Option<usize> {
        match up {
            ACE => Some(TEN),
            TEN => Some(ACE),
            _ => None,
        }
    }

    /// With a peek, is the dealer known not to hold a natural under `up`?
    pub fn conditioned(&self, up: usize) -> Option<usize> {
        if self.peek { Game::natural_partner(up) } else { None }
    }

    /// May a two-card hand of this hard total and softness double?
    pub fn may_double(&self, hard: u8, soft: bool) -> bool {
        self.double_totals & 1u32 << hard.min(31) != 0 && (!soft || self.double_soft)
    }

    /// Is insurance offered against `up`?
    pub fn insurance_offered(&self, up: usize) -> bool {
        match self.insurance_on {
            InsuranceOn::Never => false,
            InsuranceOn::Ace => up == ACE,
            InsuranceOn::AceOrTen => up == ACE || up == TEN,
        }
    }

    /// Payoff of a standing total `player` against a dealer's final
    /// `dealer` total (17–21; 22 for a bust), per chip on the hand.
    pub fn showdown(&self, player: u8, dealer: u8) -> f64 {
        if dealer > 21 || player > dealer {
            1.0
        } else if player == dealer && player > self.ties_to {
            0.0
        } else {
            -1.0
        }
    }
}
