//! `Rules::describe`: the rules in plain words, generated from the fields
//! the engine enforces.

use super::{Banker, Game, InsuranceOn, Rules};

impl Rules {
    /// The rules in plain words, one line each, generated from the fields
    /// the engine enforces, so the text cannot drift from the play.
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        out.push(format!("rule set: {}", self.variant.id()));
        out.push(format!(
            "shoe: {} deck{} of 52, {}",
            self.decks,
            if self.decks == 1 { "" } else { "s" },
            if self.shuffle_every_round {
                "shuffled before every round; a round whose deck runs dry is void and refunded".to_string()
            } else {
                format!(
                    "cut card {} cards from the end (finish the round, then shuffle); a shoe dry mid-round reshuffles only earlier rounds' discards",
                    self.cut_card
                )
            }
        ));
        out.push(format!("bets: {} to {} chips in steps of {}", self.min_bet, self.max_bet, self.bet_unit));
        if self.game == Game::Banker {
            self.describe_banker(&mut out);
        } else {
            self.describe_dealer(&mut out);
            self.describe_play(&mut out);
        }
        describe_declared(self, &mut out);
        out
    }

    /// The banker game: the table, the bank, the deal, naturals, drawing
    /// and stakes.
    fn describe_banker(&self, out: &mut Vec<String>) {
        let (num, den) = self.blackjack_pays;
        out.push(format!("table: up to {} players against one banker", self.boxes));
        out.push(match self.banker {
            Banker::House => "banker: the house (never doubles, stands on 17 or more)".to_string(),
            Banker::Player(s) => format!("banker: the player in seat {s}"),
            Banker::Rotate => {
                "banker: rotates round by round; a player who cannot cover the worst round passes the bank".to_string()
            }
        });
        out.push("deal: one hidden card each; bets after looking at it; the banker may double every stake; then one open card each".into());
        out.push(format!("naturals: a two-card 21 pays {num}:{den}; a banker natural takes every stake, doubled unless a player also has one"));
        out.push(
            "drawing: round by round around the table, one card or stand (final); a bust pays the banker at once"
                .into(),
        );
        out.push("banker: draws to 17, then as it likes; ties and lower totals lose to the banker; a banker bust pays every standing player".into());
        let share = share_of(self.stake_divisor(self.banker == Banker::House));
        out.push(match self.banker {
            Banker::House => format!("players may bet at most {share} their balance (the house banker never doubles); no splits, doubles, insurance or surrender"),
            _ => format!("players may bet at most {share} their balance when a player banks (a stake the banker doubles can be lost twice); no splits, doubles, insurance or surrender"),
        });
    }

    /// The dealer games' table and dealer: boxes, hole card, soft 17,
    /// blackjack and even money, insurance.
    fn describe_dealer(&self, out: &mut Vec<String>) {
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let (num, den) = self.blackjack_pays;
        out.push(format!(
            "table: {} boxes; {} box{} per player; back bets: {}",
            self.boxes,
            self.boxes_per_player,
            if self.boxes_per_player == 1 { "" } else { "es" },
            yes_no(self.back_bets)
        ));
        out.push(if self.hole_card {
            "dealer: hole card; peeks for blackjack after insurance".to_string()
        } else {
            format!(
                "dealer: no hole card; the second card comes after the boxes play; a dealer blackjack takes {}",
                if self.original_bets_only {
                    "only the original bets"
                } else {
                    "every bet on a box, doubles and splits included"
                }
            )
        });
        out.push(format!("dealer: {} soft 17", if self.dealer_hits_soft_17 { "hits" } else { "stands on" }));
        out.push(format!(
            "blackjack pays {num}:{den}; even money: {}",
            if self.even_money && !self.hole_card {
                "yes (asked before insurance; taking it settles the box, which is then not offered insurance)"
            } else {
                yes_no(self.even_money)
            }
        ));
        out.push(match self.insurance_on {
            InsuranceOn::Never => "insurance: none".to_string(),
            on => format!(
                "insurance: on {}, {} the bet, pays 2:1{}",
                if on == InsuranceOn::Ace { "an ace" } else { "an ace or a ten" },
                if self.insurance_up_to_half { "up to half" } else { "exactly half" },
                if self.back_bets { ", box holders only" } else { "" }
            ),
        });
    }

    /// The dealer games' player options: doubles, splits, surrender, ties
    /// and the Over/Under 13 side bet.
    fn describe_play(&self, out: &mut Vec<String>) {
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let doubles: Vec<String> =
            (2..=21).filter(|t| self.double_totals & 1 << t != 0).map(|t: u8| t.to_string()).collect();
        out.push(format!(
            "double: {}{}; after a split: {}{}",
            if doubles.len() == 20 {
                "any two cards".to_string()
            } else {
                format!("two cards totalling {} (aces 1)", doubles.join(", "))
            },
            if self.double_soft { "" } else { ", never on a soft hand" },
            yes_no(self.double_after_split),
            if self.aces_low_after_soft_double { "; after doubling a soft hand every ace counts 1" } else { "" }
        ));
        out.push(format!(
            "split: equal values, {}; split aces take one card{}",
            if self.max_split_hands == 0 {
                "any number of hands".to_string()
            } else {
                format!("up to {} hands", self.max_split_hands)
            },
            if self.resplit_aces { " (another ace may be split again)" } else { ", no resplit" }
        ));
        out.push(format!("late surrender: {}", yes_no(self.late_surrender)));
        out.push(if self.dealer_wins_ties_to > 0 {
            format!("ties: the dealer wins equal totals up to {}; higher ties push", self.dealer_wins_ties_to)
        } else {
            "ties: push".to_string()
        });
        if self.over_under_13 {
            out.push("Over/Under 13: side bet up to the main bet on the first two cards (aces 1); 1:1, exactly 13 loses, under on A+A pays 1.5x".into());
        }
    }
}

/// "half", "a quarter of": the share of a balance a divisor leaves, in words.
fn share_of(divisor: u8) -> String {
    match divisor {
        1 => "all of".into(),
        2 => "half".into(),
        4 => "a quarter of".into(),
        d => format!("1/{d} of"),
    }
}
/// The words of every rule field whose declaration carries them
/// (`describe:` in `rule_fields!`), after the hand-written lines.
macro_rules! describe_declared {
    ($($(#[$attr:meta])* $name:ident: $rec:ty, $file:ty = $example:literal, $what:literal => $codec:ident $(, describe: $describe:expr)?;)*) => {
        fn describe_declared(rules: &Rules, out: &mut Vec<String>) {
            let _ = (&rules, &out);
            $($(
                let line: Option<String> = ($describe)(rules);
                out.extend(line);
            )?)*
        }
    };
}

crate::rule_fields!(describe_declared);
