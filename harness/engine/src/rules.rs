//! `Rules`: one value describing a rule set, validated before play.
//!
//! Every rule set of RULES.md is a `Rules` value; the engine reads these
//! fields instead of branching on the variant's name.

use pitboss_sdk::Variant;
use pitboss_sdk::abi::{RulesBlock, rule_flag, rule_flag2};

mod describe;
mod fields;

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

/// Which game a rule set plays: the table reads this, never the rule
/// set's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// A dealer against the boxes (`north-american`, `swedish`, `danish`):
    /// bets, deal, insurance, play, the dealer's turn, settlement.
    Dealer,
    /// One banker against the other players (`norwegian-home`): a hidden
    /// first card, bets after seeing it, the banker's double, drawing
    /// rounds (RULES.md section 4).
    Banker,
}

impl Game {
    /// The most boxes a table of this game has: a dealer's layout has 7, a
    /// banker's table has room for 8 players.
    pub const fn max_boxes(self) -> u8 {
        match self {
            Game::Dealer => 7,
            Game::Banker => 8,
        }
    }
}

/// Who banks in the banker game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Banker {
    /// The built-in house banker: never doubles, stands on 17 or more.
    House,
    /// This player banks every round (league files and results write it
    /// `seat:N`: in the banker game a player's box, its seat on the wire,
    /// has the player's number).
    Player(u8),
    /// The bank passes round by round to the next player, so every player
    /// banks equally often; one that cannot cover the worst round passes.
    Rotate,
}

/// A complete rule set. Build one with [`Rules::for_variant`] and adjust
/// fields; [`Rules::validate`] refuses impossible combinations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Which tradition these rules come from (told to bots).
    pub variant: Variant,
    /// The game played: the dealer games or the banker game.
    pub game: Game,
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
    /// Late surrender on a split hand's first two cards as well.
    pub surrender_after_split: bool,
    /// Bit `t` set: a two-card hand of hard total `t` may double.
    pub double_totals: u32,
    /// A soft two-card hand may double (if its hard total qualifies).
    pub double_soft: bool,
    /// After doubling a soft hand every ace in it counts 1 (swedish).
    pub aces_low_after_soft_double: bool,
    /// Doubling after a split.
    pub double_after_split: bool,
    /// Most hands one box may hold through splits; 0 = unlimited.
    pub max_split_hands: u8,
    /// Split aces may be split again.
    pub resplit_aces: bool,
    /// Blackjack pays `num:den`.
    pub blackjack_pays: (u8, u8),
    /// Equal totals up to this one go to the dealer; 0 = every tie pushes.
    pub dealer_wins_ties_to: u8,
    /// Without a hole card: a dealer blackjack takes only the original bet
    /// of each box (else every bet, doubles and splits included).
    pub original_bets_only: bool,
    /// A blackjack facing an ace may take 1:1 at once.
    pub even_money: bool,
    /// The Over/Under 13 side bet is offered.
    pub over_under_13: bool,
    /// Players may bet behind boxes they do not hold.
    pub back_bets: bool,
    /// Boxes one player may hold.
    pub boxes_per_player: u8,
    /// The shoe is shuffled before every round (the banker game).
    pub shuffle_every_round: bool,
    /// Who holds the bank in the banker game.
    pub banker: Banker,
    /// A player may stake at most its balance divided by this while the
    /// house banks: the banker game's 2, as a banker natural takes a stake
    /// twice; 1 in the dealer games.
    pub stake_divisor_house_bank: u8,
    /// The same while a player banks: the banker game's 4, as a stake the
    /// banker doubles can then be lost twice.
    pub stake_divisor_player_bank: u8,
    /// A player may sit a round out (bet 0); when not, a 0 is a fault and
    /// the table minimum is staked for it.
    pub sit_out: bool,
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

/// The largest bankroll a player may start with: a trillion chips.
pub const MAX_BANKROLL: i64 = 1_000_000_000_000;

impl Rules {
    /// The RULES.md defaults for `north-american` (section 1).
    pub fn north_american() -> Rules {
        Rules {
            variant: Variant::NorthAmerican,
            game: Game::Dealer,
            decks: 6,
            cut_card: 78,
            boxes: 7,
            hole_card: true,
            dealer_hits_soft_17: false,
            insurance_on: InsuranceOn::AceOrTen,
            insurance_up_to_half: false,
            late_surrender: true,
            surrender_after_split: false,
            double_totals: RulesBlock::DOUBLE_ANY,
            double_soft: true,
            aces_low_after_soft_double: false,
            double_after_split: true,
            max_split_hands: 4,
            resplit_aces: false,
            blackjack_pays: (3, 2),
            dealer_wins_ties_to: 0,
            original_bets_only: false,
            even_money: false,
            over_under_13: false,
            back_bets: false,
            boxes_per_player: 1,
            shuffle_every_round: false,
            banker: Banker::House,
            stake_divisor_house_bank: 1,
            stake_divisor_player_bank: 1,
            sit_out: true,
            min_bet: 2,
            max_bet: 1000,
            bet_unit: 2,
        }
    }

    /// RULES.md section 2, `swedish`: no hole card, ties on 17–19 lose,
    /// double on hard 7–11 (soft hands too, aces then count 1), unlimited
    /// resplits including aces, even money, Over/Under 13.
    pub fn swedish() -> Rules {
        Rules {
            variant: Variant::Swedish,
            hole_card: false,
            insurance_on: InsuranceOn::Ace,
            insurance_up_to_half: true,
            late_surrender: false,
            double_totals: totals(7..=11),
            double_soft: true,
            aces_low_after_soft_double: true,
            max_split_hands: 0,
            resplit_aces: true,
            dealer_wins_ties_to: 19,
            even_money: true,
            over_under_13: true,
            ..Rules::north_american()
        }
    }

    /// RULES.md section 3, `danish`: no hole card, back bets, double on
    /// hard 9–11 only, unlimited splits but no resplit of aces.
    pub fn danish() -> Rules {
        Rules {
            variant: Variant::Danish,
            hole_card: false,
            insurance_on: InsuranceOn::Ace,
            insurance_up_to_half: true,
            late_surrender: false,
            double_totals: totals(9..=11),
            double_soft: false,
            max_split_hands: 0,
            resplit_aces: false,
            back_bets: true,
            ..Rules::north_american()
        }
    }

    /// RULES.md section 4, `norwegian-home`: the banker game. One deck
    /// shuffled every round, a hidden first card, bets after seeing it,
    /// the banker may double every stake, naturals pay 2:1, ties lose.
    pub fn norwegian_home() -> Rules {
        Rules {
            variant: Variant::NorwegianHome,
            game: Game::Banker,
            decks: 1,
            cut_card: 0,
            boxes: 8,
            hole_card: false,
            insurance_on: InsuranceOn::Never,
            late_surrender: false,
            double_totals: 0,
            double_after_split: false,
            max_split_hands: 0,
            blackjack_pays: (2, 1),
            dealer_wins_ties_to: 21,
            shuffle_every_round: true,
            stake_divisor_house_bank: 2,
            stake_divisor_player_bank: 4,
            min_bet: 1,
            max_bet: 1000,
            bet_unit: 1,
            ..Rules::north_american()
        }
    }

    /// The default rules of a variant (the engine plays every one).
    pub fn for_variant(variant: Variant) -> Rules {
        match variant {
            Variant::NorthAmerican => Rules::north_american(),
            Variant::Swedish => Rules::swedish(),
            Variant::Danish => Rules::danish(),
            Variant::NorwegianHome => Rules::norwegian_home(),
        }
    }

    /// The variant named `id` (as in league files).
    pub fn variant_by_id(id: &str) -> Result<Variant, RulesError> {
        Variant::ALL.into_iter().find(|v| v.id() == id).ok_or_else(|| RulesError {
            field: "variant",
            problem: format!("unknown rule set `{id}` (known: {})", Variant::ALL.map(|v| v.id()).join(", ")),
        })
    }

    /// The most players a table has room for: one for every `boxes_per_player` boxes,
    /// plus a banking player unless the house banks (the banker game,
    /// where every player holds one box).
    pub fn max_players(&self) -> usize {
        let box_holders = usize::from(self.boxes / self.boxes_per_player.max(1));
        box_holders + usize::from(self.banker != Banker::House)
    }

    /// The divisor of a player's balance that caps its stake (see
    /// [`Rules::stake_divisor_house_bank`]), with `house_banks` or not.
    #[inline]
    pub fn stake_divisor(&self, house_banks: bool) -> u8 {
        if house_banks { self.stake_divisor_house_bank } else { self.stake_divisor_player_bank }
    }

    /// Cards in the shoe.
    pub fn shoe_cards(&self) -> usize {
        usize::from(self.decks) * 52
    }

    /// An upper bound on the chips one round can move into or out of any
    /// one balance (the house's included): every box at the maximum bet,
    /// doubled on every hand it can split into, paid at the best odds, with
    /// insurance, a side bet and a back bet riding along, and a banker
    /// covering all of it. Far above what a real round moves; its use is
    /// to prove that a match cannot overflow a balance (see
    /// [`Rules::check_chip_range`]).
    pub fn chip_bound_per_round(&self) -> i128 {
        // Unlimited splits: at most one hand per two cards of the shoe.
        let hands = match self.max_split_hands {
            0 => i128::from(self.decks) * 26,
            n => i128::from(n),
        };
        let (num, den) = self.blackjack_pays;
        let best_odds = i128::from(num.div_ceil(den.max(1))).max(1);
        let bet = i128::from(self.max_bet.max(0));
        let per_box = hands * 2 * bet * (1 + best_odds) + 3 * bet;
        // Back bets follow a box's hands, and a banker covers every box.
        2 * 2 * i128::from(self.boxes) * per_box
    }

    /// Refuses a match whose balances could leave the range Pitboss keeps
    /// chips in (±2^62, so sums of two balances still fit an `i64`):
    /// `games` tables of `rounds` rounds each, every player starting each
    /// with `bankroll`. Balances can then never wrap, in any round, nor
    /// can a bot's chips summed over a league's sessions.
    pub fn check_chip_range(&self, bankroll: i64, rounds: u64, games: u64) -> Result<(), String> {
        const CEILING: i128 = 1 << 62;
        if !(1..=MAX_BANKROLL).contains(&bankroll) {
            return Err(format!("bankroll {bankroll} is outside 1..={MAX_BANKROLL}"));
        }
        let per_round = self.chip_bound_per_round();
        let worst =
            i128::from(games).saturating_mul(i128::from(bankroll) + i128::from(rounds).saturating_mul(per_round));
        if worst > CEILING {
            return Err(format!(
                "{games} × ({bankroll} chips + {rounds} rounds × up to {per_round} chips a round) could pass 2^62 chips; \
                 play fewer rounds or sessions, or lower max_bet"
            ));
        }
        Ok(())
    }

    /// Refuses combinations that cannot be played or would need a fraction
    /// of a chip.
    pub fn validate(&self) -> Result<(), RulesError> {
        self.validate_layout()?;
        self.validate_bets()?;
        self.validate_game()
    }

    /// The shoe, the layout, splits and the blackjack payout.
    fn validate_layout(&self) -> Result<(), RulesError> {
        let err = |field, problem: String| Err(RulesError { field, problem });
        if !(1..=8).contains(&self.decks) {
            return err("decks", format!("{} decks; 1 to 8 are supported", self.decks));
        }
        if usize::from(self.cut_card) >= self.shoe_cards() {
            return err("cut_card", format!("{} cards behind the cut card leaves none to play", self.cut_card));
        }
        let most = self.game.max_boxes();
        if !(1..=most).contains(&self.boxes) {
            return err("boxes", format!("{} boxes; 1 to {most} are supported", self.boxes));
        }
        if self.max_split_hands == 1 || self.max_split_hands > 64 {
            return err("max_split_hands", format!("{}; use 0 (unlimited) or 2 to 64", self.max_split_hands));
        }
        let (num, den) = self.blackjack_pays;
        if num == 0 || den == 0 {
            return err("blackjack_pays", format!("{num}:{den} is no payout"));
        }
        Ok(())
    }

    /// Bet limits and units: every payout a whole number of chips.
    fn validate_bets(&self) -> Result<(), RulesError> {
        let err = |field, problem: String| Err(RulesError { field, problem });
        let (num, den) = self.blackjack_pays;
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
        if self.bet_unit % i64::from(den) != 0 {
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
        if self.surrender_after_split && !self.late_surrender {
            return err("surrender_after_split", "needs late_surrender".to_string());
        }
        if self.late_surrender && self.bet_unit % 2 != 0 {
            return err("bet_unit", format!("{} is odd, so a surrender refund is no whole chip", self.bet_unit));
        }
        if !(1..=self.boxes).contains(&self.boxes_per_player) {
            return err(
                "boxes_per_player",
                format!("{}; 1 to {} (the boxes at the table)", self.boxes_per_player, self.boxes),
            );
        }
        if self.over_under_13 && self.bet_unit % 2 != 0 {
            return err("bet_unit", format!("{} is odd, so a 1.5× Over/Under payout is no whole chip", self.bet_unit));
        }
        Ok(())
    }

    /// The game's own constraints: hole card, stake divisors, the bank,
    /// ties.
    fn validate_game(&self) -> Result<(), RulesError> {
        let err = |field, problem: String| Err(RulesError { field, problem });
        if self.hole_card && self.original_bets_only {
            return err(
                "original_bets_only",
                "only applies without a hole card (the peek already protects doubles and splits)".into(),
            );
        }
        if self.stake_divisor_house_bank == 0 || self.stake_divisor_player_bank == 0 {
            return err("stake_divisor", "a balance divided by 0 caps no stake".into());
        }
        if self.banker != Banker::House && self.game != Game::Banker {
            return err("banker", "only the banker game (`norwegian-home`) has a player bank".into());
        }
        if self.game == Game::Banker && (self.boxes_per_player != 1 || self.back_bets || self.over_under_13) {
            return err("variant", "the banker game has one box per player and no back or side bets".into());
        }
        if self.dealer_wins_ties_to > 21 {
            return err("dealer_wins_ties_to", format!("{} is over 21", self.dealer_wins_ties_to));
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
            (self.even_money, rule_flag::EVEN_MONEY),
            (self.over_under_13, rule_flag::OVER_UNDER_13),
            (self.original_bets_only, rule_flag::ORIGINAL_BETS_ONLY),
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
            insurance_up_to_half: u8::from(self.insurance_up_to_half),
            dealer_wins_ties_to: self.dealer_wins_ties_to,
            double_totals: self.double_totals,
            flags2: [
                (self.double_soft, rule_flag2::DOUBLE_SOFT),
                (self.aces_low_after_soft_double, rule_flag2::ACES_LOW_AFTER_SOFT_DOUBLE),
                (self.back_bets, rule_flag2::BACK_BETS),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .fold(0, |f, (_, bit)| f | bit),
            boxes_per_player: self.boxes_per_player,
        }
    }
}

/// The bitmask of hard totals in `range`.
pub fn totals(range: std::ops::RangeInclusive<u8>) -> u32 {
    range.fold(0, |mask, t| mask | 1 << t)
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

    /// What bots ask of a variant (`Variant::banker_game`) is what its
    /// rules say.
    #[test]
    fn a_variant_is_the_banker_game_exactly_where_its_rules_play_it() {
        for v in Variant::ALL {
            assert_eq!(v.banker_game(), Rules::for_variant(v).game == Game::Banker, "{}", v.id());
        }
    }
}
