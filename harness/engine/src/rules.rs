//! `Rules`: one value describing a rule set, validated before play.
//!
//! Every rule set of RULES.md is a `Rules` value; the engine reads these
//! fields instead of branching on the variant's name.

use pitboss_sdk::Variant;
use pitboss_sdk::abi::{RulesBlock, rule_flag};

/// Where insurance is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsuranceOn {
    /// Never offered.
    Never,
    /// Dealer shows an ace.
    Ace,
    /// Dealer shows an ace or a ten-valued card (north-american seed).
    AceOrTen,
}

/// A complete rule set. Build one with [`Rules::for_variant`] and adjust
/// fields; [`Rules::validate`] refuses impossible combinations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Which tradition these rules come from (told to bots).
    pub variant: Variant,
    /// Decks in the shoe.
    pub decks: u8,
    /// Cards behind the cut card.
    pub cut_card: u16,
    /// Boxes at the table.
    pub boxes: u8,
    /// The dealer takes a hole card and peeks for blackjack.
    pub hole_card: bool,
    /// The dealer hits soft 17.
    pub dealer_hits_soft_17: bool,
    /// Where insurance is offered.
    pub insurance_on: InsuranceOn,
    /// Insurance is any amount up to half the bet (else exactly half).
    pub insurance_up_to_half: bool,
    /// Late surrender on an original two-card hand.
    pub late_surrender: bool,
    /// Bit `t` set: a two-card hand of hard total `t` may double.
    pub double_totals: u32,
    /// Doubling after a split.
    pub double_after_split: bool,
    /// Most hands one box may hold through splits; 0 = unlimited.
    pub max_split_hands: u8,
    /// Split aces may be split again.
    pub resplit_aces: bool,
    /// Blackjack pays `num:den`.
    pub blackjack_pays: (u8, u8),
    /// Smallest bet.
    pub min_bet: i64,
    /// Largest bet.
    pub max_bet: i64,
    /// Bets are whole multiples of this.
    pub bet_unit: i64,
}

/// A rule combination the engine cannot play, naming the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("rule `{field}`: {problem}")]
pub struct RulesError {
    /// The offending field, as league files name it.
    pub field: &'static str,
    /// What is wrong with it.
    pub problem: String,
}

impl Rules {
    /// The RULES.md defaults for `north-american` (section 1).
    pub fn north_american() -> Rules {
        Rules {
            variant: Variant::NorthAmerican,
            decks: 6,
            cut_card: 78,
            boxes: 7,
            hole_card: true,
            dealer_hits_soft_17: false,
            insurance_on: InsuranceOn::AceOrTen,
            insurance_up_to_half: false,
            late_surrender: true,
            double_totals: RulesBlock::DOUBLE_ANY,
            double_after_split: true,
            max_split_hands: 4,
            resplit_aces: false,
            blackjack_pays: (3, 2),
            min_bet: 2,
            max_bet: 1000,
            bet_unit: 2,
        }
    }

    /// The default rules of a variant, or an error for one the engine does
    /// not play yet.
    pub fn for_variant(variant: Variant) -> Result<Rules, RulesError> {
        match variant {
            Variant::NorthAmerican => Ok(Rules::north_american()),
            other => Err(RulesError {
                field: "variant",
                problem: format!("`{}` is not playable yet (only `north-american` is)", other.id()),
            }),
        }
    }

    /// The variant named `id` (as in league files).
    pub fn variant_by_id(id: &str) -> Result<Variant, RulesError> {
        Variant::ALL.into_iter().find(|v| v.id() == id).ok_or_else(|| RulesError {
            field: "variant",
            problem: format!("unknown rule set `{id}` (known: {})", Variant::ALL.map(|v| v.id()).join(", ")),
        })
    }

    /// Cards in the shoe.
    pub fn shoe_cards(&self) -> usize {
        self.decks as usize * 52
    }

    /// Refuses combinations that cannot be played or would need a fraction
    /// of a chip.
    pub fn validate(&self) -> Result<(), RulesError> {
        let err = |field, problem: String| Err(RulesError { field, problem });
        if !(1..=8).contains(&self.decks) {
            return err("decks", format!("{} decks; 1 to 8 are supported", self.decks));
        }
        if self.cut_card as usize >= self.shoe_cards() {
            return err("cut_card", format!("{} cards behind the cut card leaves none to play", self.cut_card));
        }
        if !(1..=7).contains(&self.boxes) {
            return err("boxes", format!("{} boxes; 1 to 7 are supported", self.boxes));
        }
        if self.max_split_hands == 1 || self.max_split_hands > 64 {
            return err("max_split_hands", format!("{}; use 0 (unlimited) or 2 to 64", self.max_split_hands));
        }
        let (num, den) = self.blackjack_pays;
        if num == 0 || den == 0 {
            return err("blackjack_pays", format!("{num}:{den} is no payout"));
        }
        if self.bet_unit <= 0 {
            return err("bet_unit", format!("{} must be positive", self.bet_unit));
        }
        if self.min_bet <= 0 || self.min_bet % self.bet_unit != 0 {
            return err(
                "min_bet",
                format!("{} must be a positive multiple of bet_unit {}", self.min_bet, self.bet_unit),
            );
        }
        if self.max_bet < self.min_bet || self.max_bet % self.bet_unit != 0 {
            return err(
                "max_bet",
                format!("{} must be at least min_bet and a multiple of bet_unit {}", self.max_bet, self.bet_unit),
            );
        }
        // Whole chips: every bet is a multiple of bet_unit, so each payout
        // fraction's denominator must divide it.
        if self.bet_unit % den as i64 != 0 {
            return err(
                "bet_unit",
                format!(
                    "{} does not make a {num}:{den} blackjack payout whole; use a multiple of {den}",
                    self.bet_unit
                ),
            );
        }
        let halves = self.late_surrender || self.insurance_on != InsuranceOn::Never;
        if halves && !self.insurance_up_to_half && self.bet_unit % 2 != 0 {
            return err(
                "bet_unit",
                format!("{} is odd, so half a bet (insurance, surrender) is no whole chip", self.bet_unit),
            );
        }
        if self.late_surrender && self.bet_unit % 2 != 0 {
            return err("bet_unit", format!("{} is odd, so a surrender refund is no whole chip", self.bet_unit));
        }
        if !self.hole_card {
            return err("hole_card", "play without a hole card is not implemented yet".into());
        }
        Ok(())
    }

    /// The rules block every bot request carries.
    pub fn block(&self) -> RulesBlock {
        let mut flags = 0;
        for (on, flag) in [
            (self.hole_card, rule_flag::HOLE_CARD),
            (self.dealer_hits_soft_17, rule_flag::HITS_SOFT_17),
            (self.late_surrender, rule_flag::SURRENDER),
            (self.double_after_split, rule_flag::DOUBLE_AFTER_SPLIT),
            (self.resplit_aces, rule_flag::RESPLIT_ACES),
        ] {
            if on {
                flags |= flag;
            }
        }
        RulesBlock {
            decks: self.decks,
            boxes: self.boxes,
            max_split_hands: self.max_split_hands,
            flags,
            cut_card: self.cut_card,
            blackjack_num: self.blackjack_pays.0,
            blackjack_den: self.blackjack_pays.1,
            insurance_on: match self.insurance_on {
                InsuranceOn::Never => 0,
                InsuranceOn::Ace => 1,
                InsuranceOn::AceOrTen => 2,
            },
            insurance_up_to_half: self.insurance_up_to_half as u8,
            dealer_wins_ties_to: 0,
            double_totals: self.double_totals,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn north_american_defaults_are_valid() {
        Rules::north_american().validate().unwrap();
    }

    #[test]
    fn odd_bet_unit_with_three_to_two_is_refused_naming_the_field() {
        let rules = Rules { bet_unit: 1, min_bet: 1, ..Rules::north_american() };
        let e = rules.validate().unwrap_err();
        assert_eq!(e.field, "bet_unit");
        assert!(e.to_string().contains("3:2"), "{e}");
    }

    #[test]
    fn unknown_variant_lists_the_known_ones() {
        let e = Rules::variant_by_id("klondike").unwrap_err();
        assert!(e.to_string().contains("north-american"), "{e}");
    }
}
