//! The rules in force as results record them. Every rule a league may
//! set is declared once, in `pitboss_engine::rule_fields!`
//! (`harness/engine/src/rules/fields.rs`); from that one list this module
//! makes the results record ([`RulesRecord`], its conversions to and from
//! [`Rules`]) and the field tables of `leagues/README.md` and
//! `docs/rules.md` ([`RULE_FIELDS`]), and the league crate makes the league
//! file's `[rules]` table (`pitboss_league::file::RuleOverrides`). The
//! `codec` a line names (`plain`, or one of the modules below) says how
//! its value maps to `Rules`.

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
    ($($(#[$attr:meta])* $name:ident: $rec:ty, $file:ty = $example:literal, $what:literal => $codec:ident $(, describe: $describe:expr)?;)*) => {
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

pitboss_engine::rule_fields!(define_record);

impl RulesRecord {
    /// The rules these record, on top of `variant`'s rule set (which sets
    /// what a record does not hold: the game, the stake divisors),
    /// validated.
    pub fn rules(&self, variant: &str) -> Result<Rules, RuleError> {
        let variant = Rules::variant_by_id(variant).map_err(|e| RuleError(e.to_string()))?;
        let mut rules = Rules::for_variant(variant);
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

/// The field table of `docs/rules.md`: every rule field with its value
/// in each rule set and what it means, generated from [`RULE_FIELDS`] and
/// the rule sets themselves.
pub fn fields_table() -> String {
    let variants = pitboss_sdk::Variant::ALL;
    let records: Vec<serde_json::Value> = variants
        .iter()
        .map(|v| {
            let rules = Rules::for_variant(*v);
            serde_json::to_value(RulesRecord::from(&rules)).expect("a record is JSON")
        })
        .collect();
    let mut out = String::from("| field |");
    for v in variants {
        out.push_str(&format!(" `{}` |", v.id()));
    }
    out.push_str(" what it means |\n|---|");
    out.push_str(&"---|".repeat(variants.len()));
    out.push_str("---|\n");
    for f in RULE_FIELDS {
        out.push_str(&format!("| `{}` |", f.name));
        for r in &records {
            let shown = match &r[f.name] {
                serde_json::Value::Null => "any".to_string(),
                serde_json::Value::String(s) => format!("\"{s}\""),
                v => v.to_string().replace(',', ", "),
            };
            out.push_str(&format!(" {shown} |"));
        }
        out.push_str(&format!(" {} |\n", f.what.replace('|', "\\|")));
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
            let rules = Rules::for_variant(variant);
            let record = RulesRecord::from(&rules);
            assert_eq!(record.rules(variant.id()).unwrap(), rules, "{}", variant.id());
        }
    }

    /// Each field's other values worth trying: every one the field can
    /// take for the enumerations, a few around the current one for
    /// numbers.
    fn other_values(value: &serde_json::Value, name: &str) -> Vec<serde_json::Value> {
        use serde_json::{Value, json};
        match (name, value) {
            (_, Value::Bool(b)) => vec![json!(!b)],
            // Absent: a field results leave out at its default (false).
            (_, Value::Null) if name != "double_totals" => vec![json!(true)],
            ("insurance", _) => vec![json!("never"), json!("ace"), json!("ace-or-ten")],
            ("banker", _) => vec![json!("house"), json!("rotate"), json!("seat:0"), json!("seat:1")],
            ("blackjack_pays", _) => vec![json!("6:5"), json!("2:1"), json!("3:2")],
            ("double_totals", _) => vec![Value::Null, json!([9, 10, 11]), json!([10, 11])],
            (_, Value::Number(n)) => {
                let n = n.as_i64().unwrap();
                [n + 1, n - 1, n * 2, n / 2, 0, 1, 2, 4, 8, 10, 19, 21, 100].iter().map(|v| json!(v)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The fields for which `differs(base, changed)` holds for some rule
    /// set and some playable other value of the field: a field missing
    /// from the result is one `differs` cannot see.
    fn fields_seen_by(differs: impl Fn(&Rules, &Rules) -> bool) -> Vec<&'static str> {
        let mut seen = Vec::new();
        for field in RULE_FIELDS {
            // Each rule set as it is, and with bets in fours from 8, so a
            // bet unit can change on its own.
            let bases = Variant::ALL.iter().flat_map(|v| {
                let rules = Rules::for_variant(*v);
                let fours = Rules { min_bet: 8, max_bet: 1000, bet_unit: 4, ..rules.clone() };
                [(*v, rules), (*v, fours)]
            });
            let found = bases.into_iter().any(|(variant, base)| {
                let record = serde_json::to_value(RulesRecord::from(&base)).unwrap();
                other_values(&record[field.name], field.name).into_iter().any(|other| {
                    let mut changed = record.clone();
                    changed[field.name] = other;
                    let Ok(changed) = serde_json::from_value::<RulesRecord>(changed) else { return false };
                    let Ok(rules) = changed.rules(variant.id()) else { return false };
                    rules != base && differs(&base, &rules)
                })
            });
            if found {
                seen.push(field.name);
            }
        }
        seen
    }

    #[test]
    fn every_rule_field_is_worded_by_pitboss_rules() {
        let worded = fields_seen_by(|a, b| a.describe() != b.describe());
        let missing: Vec<_> = RULE_FIELDS.iter().map(|f| f.name).filter(|n| !worded.contains(n)).collect();
        assert!(
            missing.is_empty(),
            "`pitboss rules` says nothing of {missing:?}: give its line in rule_fields! a `describe:` \
             (harness/engine/src/rules/fields.rs) or word it in describe.rs"
        );
    }

    /// The rule fields bots are not told in the rules block, and why.
    const NOT_IN_THE_RULES_BLOCK: &[(&str, &str)] = &[
        ("min_bet", "every bet request carries the table's bet limits"),
        ("max_bet", "every bet request carries the table's bet limits"),
        ("bet_unit", "every bet request carries the table's bet limits"),
        ("shuffle_every_round", "a shuffle event tells bots"),
        ("banker", "the banker game's events name the banker"),
        ("sit_out", "the bet request's minimum says whether 0 is allowed"),
        ("surrender_after_split", "the act request's legal set offers surrender"),
    ];

    #[test]
    fn every_rule_field_bots_must_know_is_in_their_rules_block() {
        let sent = fields_seen_by(|a, b| a.block() != b.block());
        for field in RULE_FIELDS {
            let excused = NOT_IN_THE_RULES_BLOCK.iter().any(|(name, _)| *name == field.name);
            assert!(
                sent.contains(&field.name) != excused,
                "rule field `{}`: {}",
                field.name,
                if excused {
                    "is in the rules block after all: take it off NOT_IN_THE_RULES_BLOCK"
                } else {
                    "bots are not told it: put it in Rules::block (an ABI change) or, if the requests \
                     already show it, on NOT_IN_THE_RULES_BLOCK with the reason"
                }
            );
        }
    }

    /// Every field of `Rules`, by name: adding one is a compile error here
    /// until it is either declared in `rule_fields!` or named below as
    /// one a league cannot set.
    #[test]
    fn every_rules_field_is_declared_or_fixed_by_the_rule_set() {
        let Rules {
            variant: _,
            game: _,
            stake_divisor_house_bank: _,
            stake_divisor_player_bank: _,
            decks: _,
            cut_card: _,
            boxes: _,
            hole_card: _,
            dealer_hits_soft_17: _,
            insurance_on: _,
            insurance_up_to_half: _,
            late_surrender: _,
            surrender_after_split: _,
            double_totals: _,
            double_soft: _,
            aces_low_after_soft_double: _,
            double_after_split: _,
            max_split_hands: _,
            resplit_aces: _,
            blackjack_pays: _,
            dealer_wins_ties_to: _,
            original_bets_only: _,
            even_money: _,
            over_under_13: _,
            back_bets: _,
            boxes_per_player: _,
            shuffle_every_round: _,
            banker: _,
            sit_out: _,
            min_bet: _,
            max_bet: _,
            bet_unit: _,
        } = Rules::north_american();
        // The declared fields, plus the 4 a rule set fixes: no field
        // is declared twice or forgotten.
        let mut names: Vec<&str> = RULE_FIELDS.iter().map(|f| f.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), RULE_FIELDS.len(), "a rule field is declared twice");
        assert_eq!(RULE_FIELDS.len() + 4, 32, "a field of Rules is neither declared nor fixed by its rule set");
    }
}
