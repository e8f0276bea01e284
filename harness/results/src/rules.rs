//! Every rule a league may set, declared once ([`rule_fields!`]): from
//! that one list come the results record ([`RulesRecord`]), the league
//! file's `[rules]` table (`pitboss_league::file::RuleOverrides`, made by
//! the same macro), the conversions between them and [`Rules`], and the
//! field table of `leagues/README.md` and `docs/rules.md`
//! ([`RULE_FIELDS`]). A new rule field is its line here, its field on
//! `Rules` (`harness/engine/src/rules.rs`) and the phase that plays it;
//! tests fail where the rule is not shown to people (`Rules::describe`)
//! or, if bots see it, not sent to bots (`Rules::block`).

use pitboss_engine::{Banker, InsuranceOn, Rules, RulesError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where insurance is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Insurance {
    /// Never.
    Never,
    /// When the dealer shows an ace.
    Ace,
    /// When the dealer shows an ace or a ten-valued card.
    AceOrTen,
}

/// Declares every rule field once. Each line is
/// `name: RecordType, FileType = "example", "what it means" => codec;`
/// (with the record field's doc comments first): the key in league files
/// and results, its type in results and in a league file, an example
/// value and its meaning for the field tables, and how it maps to
/// [`Rules`]: `plain` (the `Rules` field of that name and type) or a
/// module of this file with `get`, `set` and `parse`.
///
/// `rule_fields!(callback)` hands the list to `callback!`, which is how
/// this crate makes the record and the league crate its overrides.
#[macro_export]
macro_rules! rule_fields {
    ($callback:ident) => {
        $callback! {
            decks: u8, u8 = "1", "decks in the shoe (1 to 8)" => plain;
            cut_card: u16, u16 = "20", "cards behind the cut card" => plain;
            boxes: u8, u8 = "7", "boxes at the table (1 to 7; the banker game: players, 2 to 8)" => plain;
            hole_card: bool, bool = "true", "false: the dealer's second card comes after the boxes play" => plain;
            dealer_hits_soft_17: bool, bool = "true", "the dealer hits soft 17" => plain;
            insurance: Insurance, String = "\"ace\"", "where insurance is offered: \"never\", \"ace\", \"ace-or-ten\"" => insurance;
            insurance_up_to_half: bool, bool = "false", "insurance up to half the bet (false: exactly half)" => plain;
            late_surrender: bool, bool = "false", "late surrender on an original two-card hand" => plain;
            /// Two-card hard totals that may double; `null`: any.
            double_totals: Option<Vec<u8>>, Vec<u8> = "[9, 10, 11]", "two-card hard totals (aces 1) that may double; omit for any" => double_totals;
            double_after_split: bool, bool = "true", "doubling after a split" => plain;
            max_split_hands: u8, u8 = "4", "most hands a box may split into (0 = unlimited)" => plain;
            resplit_aces: bool, bool = "false", "split aces may be split again" => plain;
            /// `"3:2"`.
            blackjack_pays: String, String = "\"3:2\"", "what a blackjack pays" => blackjack_pays;
            min_bet: i64, i64 = "2", "smallest bet" => plain;
            max_bet: i64, i64 = "1000", "largest bet" => plain;
            bet_unit: i64, i64 = "2", "every bet and payout is a whole multiple of this" => plain;
            double_soft: bool, bool = "true", "a soft two-card hand may double" => plain;
            aces_low_after_soft_double: bool, bool = "false", "swedish: after a soft double every ace counts 1" => plain;
            dealer_wins_ties_to: u8, u8 = "0", "equal totals up to this go to the dealer (swedish: 19; 0: ties push)" => plain;
            original_bets_only: bool, bool = "false", "no hole card: a dealer blackjack takes only original bets" => plain;
            even_money: bool, bool = "false", "a blackjack facing an ace may take 1:1 at once" => plain;
            over_under_13: bool, bool = "false", "the Over/Under 13 side bet (needs an even bet_unit)" => plain;
            back_bets: bool, bool = "false", "players may bet behind boxes they do not hold" => plain;
            boxes_per_player: u8, u8 = "1", "boxes one bot holds (swedish: \"several boxes\")" => plain;
            shuffle_every_round: bool, bool = "false", "the banker game shuffles before every round" => plain;
            /// `house`, `rotate` or `seat:N`.
            banker: String, String = "\"house\"", "norwegian-home: \"house\", \"rotate\" or \"seat:N\"" => banker;
            sit_out: bool, bool = "true", "false: a bet of 0 is a fault and the minimum is staked" => plain;
        }
    };
}

/// A rule field's `Rules` value as recorded (`plain` fields are copied).
#[doc(hidden)]
#[macro_export]
macro_rules! __rule_get {
    (plain, $name:ident, $rules:expr) => {
        $rules.$name.clone()
    };
    ($codec:ident, $name:ident, $rules:expr) => {
        $crate::rules::$codec::get($rules)
    };
}

/// Sets a rule field of `Rules` from its recorded value, or says why not.
#[doc(hidden)]
#[macro_export]
macro_rules! __rule_set {
    (plain, $name:ident, $rules:expr, $value:expr) => {{
        $rules.$name = $value;
        Ok::<(), String>(())
    }};
    ($codec:ident, $name:ident, $rules:expr, $value:expr) => {
        $crate::rules::$codec::set($rules, $value)
    };
}

/// A league file's value of a rule field as recorded, or why not.
#[doc(hidden)]
#[macro_export]
macro_rules! __rule_parse {
    (plain, $value:expr) => {
        Ok::<_, String>($value)
    };
    ($codec:ident, $value:expr) => {
        $crate::rules::$codec::parse($value)
    };
}

/// One rule field, for the field tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleField {
    /// The key in league files and results.
    pub name: &'static str,
    /// An example value, as TOML.
    pub example: &'static str,
    /// What it means.
    pub what: &'static str,
}

macro_rules! define_record {
    ($($(#[$attr:meta])* $name:ident: $rec:ty, $file:ty = $example:literal, $what:literal => $codec:ident;)*) => {
        /// The rules in force, keyed as a league file's `[rules]` table.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
        pub struct RulesRecord {
            $($(#[$attr])* pub $name: $rec,)*
        }

        impl From<&Rules> for RulesRecord {
            fn from(r: &Rules) -> RulesRecord {
                RulesRecord { $($name: $crate::__rule_get!($codec, $name, r),)* }
            }
        }

        impl RulesRecord {
            /// Sets every field of `rules` to this record's value, or names
            /// the first that cannot be set.
            pub fn apply_to(&self, rules: &mut Rules) -> Result<(), String> {
                $($crate::__rule_set!($codec, $name, rules, self.$name.clone())?;)*
                Ok(())
            }
        }

        /// Every rule field in record order.
        pub const RULE_FIELDS: &[RuleField] =
            &[$(RuleField { name: stringify!($name), example: $example, what: $what }),*];
    };
}

rule_fields!(define_record);

impl RulesRecord {
    /// The rules these record, on top of `variant`'s rule set (which sets
    /// what a record does not hold: the game, the stake divisors),
    /// validated.
    pub fn rules(&self, variant: &str) -> Result<Rules, RuleError> {
        let variant = Rules::variant_by_id(variant).map_err(|e| RuleError(e.to_string()))?;
        let mut rules = Rules::for_variant(variant).map_err(|e| RuleError(e.to_string()))?;
        self.apply_to(&mut rules).map_err(RuleError)?;
        rules.validate().map_err(|e: RulesError| RuleError(e.to_string()))?;
        Ok(rules)
    }
}

/// Recorded rules the engine cannot play, in one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleError(pub String);

/// The `[rules]` lines of `leagues/README.md`: every field with an example
/// value and what it means, generated from [`RULE_FIELDS`].
pub fn league_file_block() -> String {
    let mut out = String::from("[rules]\n");
    for f in RULE_FIELDS {
        let line = format!("{} = {}", f.name, f.example);
        out.push_str(&format!("{line:<36} # {}\n", f.what));
    }
    out
}

/// `insurance`: the record's word for where insurance is offered.
pub mod insurance {
    use super::*;

    pub fn get(r: &Rules) -> Insurance {
        match r.insurance_on {
            InsuranceOn::Never => Insurance::Never,
            InsuranceOn::Ace => Insurance::Ace,
            InsuranceOn::AceOrTen => Insurance::AceOrTen,
        }
    }

    pub fn set(r: &mut Rules, v: Insurance) -> Result<(), String> {
        r.insurance_on = match v {
            Insurance::Never => InsuranceOn::Never,
            Insurance::Ace => InsuranceOn::Ace,
            Insurance::AceOrTen => InsuranceOn::AceOrTen,
        };
        Ok(())
    }

    pub fn parse(text: String) -> Result<Insurance, String> {
        match text.as_str() {
            "never" => Ok(Insurance::Never),
            "ace" => Ok(Insurance::Ace),
            "ace-or-ten" => Ok(Insurance::AceOrTen),
            other => Err(format!("rule `insurance`: `{other}` is not one of never, ace, ace-or-ten")),
        }
    }
}

/// `double_totals`: a list of totals in files, a bit mask in `Rules`.
pub mod double_totals {
    use super::*;

    pub fn get(r: &Rules) -> Option<Vec<u8>> {
        (r.double_totals != u32::MAX).then(|| (2..=21u8).filter(|t| r.double_totals & (1 << t) != 0).collect())
    }

    pub fn set(r: &mut Rules, v: Option<Vec<u8>>) -> Result<(), String> {
        let Some(totals) = v else {
            r.double_totals = u32::MAX;
            return Ok(());
        };
        let mut mask = 0u32;
        for t in totals {
            if !(2..=21).contains(&t) {
                return Err(format!("rule `double_totals`: {t} is no two-card total (2 to 21)"));
            }
            mask |= 1 << t;
        }
        r.double_totals = mask;
        Ok(())
    }

    pub fn parse(totals: Vec<u8>) -> Result<Option<Vec<u8>>, String> {
        Ok(Some(totals))
    }
}

/// `blackjack_pays`: `"3:2"` in files, a pair in `Rules`.
pub mod blackjack_pays {
    use super::*;

    pub fn get(r: &Rules) -> String {
        format!("{}:{}", r.blackjack_pays.0, r.blackjack_pays.1)
    }

    pub fn set(r: &mut Rules, v: String) -> Result<(), String> {
        let parsed = v.split_once(':').and_then(|(n, d)| Some((n.trim().parse().ok()?, d.trim().parse().ok()?)));
        match parsed {
            Some(pays) => {
                r.blackjack_pays = pays;
                Ok(())
            }
            None => Err(format!("rule `blackjack_pays`: `{v}` is not a ratio like \"3:2\"")),
        }
    }

    pub fn parse(text: String) -> Result<String, String> {
        Ok(text)
    }
}

/// `banker`: `house`, `rotate` or `seat:N`.
pub mod banker {
    use super::*;

    pub fn get(r: &Rules) -> String {
        match r.banker {
            Banker::House => "house".to_string(),
            Banker::Rotate => "rotate".to_string(),
            Banker::Player(n) => format!("seat:{n}"),
        }
    }

    pub fn set(r: &mut Rules, v: String) -> Result<(), String> {
        r.banker = match v.as_str() {
            "house" => Banker::House,
            "rotate" => Banker::Rotate,
            _ => match v.strip_prefix("seat:").and_then(|n| n.parse().ok()) {
                Some(seat) => Banker::Player(seat),
                None => return Err(format!("rule `banker`: `{v}` is not one of house, rotate, seat:N")),
            },
        };
        Ok(())
    }

    pub fn parse(text: String) -> Result<String, String> {
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::Variant;

    use super::*;

    #[test]
    fn rules_in_force_read_as_a_league_file_writes_them() {
        let r = RulesRecord::from(&Rules::danish());
        assert_eq!(r.double_totals, Some(vec![9, 10, 11]));
        assert_eq!(r.blackjack_pays, "3:2");
        assert_eq!(RulesRecord::from(&Rules::north_american()).double_totals, None);
    }

    #[test]
    fn every_rule_set_survives_its_record() {
        for variant in Variant::ALL {
            let rules = Rules::for_variant(variant).unwrap();
            let record = RulesRecord::from(&rules);
            assert_eq!(record.rules(variant.id()).unwrap(), rules, "{}", variant.id());
        }
    }
}
