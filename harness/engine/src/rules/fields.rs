//! Every rule field a league may set and results record, declared once.
//! A new rule field is its line here, its field on `Rules` (with its value
//! in each rule set and its check in `validate`) and the phase that plays
//! it; the league file, the results record, the field tables of the docs
//! and (through `describe`) `pitboss rules` follow, and tests fail where a
//! field is not worded for people or, if bots must see it, not sent to
//! them.

/// Declares every rule field once. Each line is
/// `name: RecordType, FileType = "example", "what it means" => codec;`
/// (with the record field's doc comments first): the key in league files
/// and results, its type in results and in a league file, an example
/// value and its meaning for the field tables, and how it maps to
/// [`Rules`](crate::Rules): `plain` (the `Rules` field of that name and type) or a
/// module of `pitboss_results::rules` with `get`, `set` and `parse`.
///
/// `rule_fields!(callback)` hands the list to `callback!`: this is how
/// `pitboss-results` makes the results record and the field tables,
/// `pitboss-league` the league file's overrides, and `Rules::describe`
/// the words of a line that carries `, describe: |r: &Rules| …` (an
/// `Option<String>`, with `Rules` in scope; the older rules are worded by
/// hand in `describe.rs`).
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
            /// Late surrender on a split hand's first two cards too.
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            surrender_after_split: bool, bool = "true", "with late_surrender: a split hand's first two cards may surrender too" => plain,
                describe: |r: &Rules| r.surrender_after_split.then(|| "late surrender after a split: yes, on a split hand's first two cards".to_string());
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
            sit_out: bool, bool = "true", "false: a bet of 0 is a fault and the minimum is staked" => plain,
                describe: |r: &Rules| (!r.sit_out)
                    .then(|| "sitting out: not allowed; a bet of 0 is a fault and the table minimum is staked".to_string());
        }
    };
}
