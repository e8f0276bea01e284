//! Putting a player's decision keys to the test (`pitboss check`): a seat
//! under audit ([`crate::Table::audit_keys`]) is asked every decision, as
//! if it keyed nothing, and each answer to a keyed decision is compared
//! with the answer given before to the same key. Two answers to one key
//! mean the answer depends on something the key leaves out: played keyed,
//! the second request would have been answered with the first answer.
//!
//! Deterministic as [`Answers`] is: which answers are compared is a
//! function of the requests asked before, in order.

use pitboss_sdk::key::Derived;
use pitboss_sdk::{ActionSet, Card, Decision};

use crate::Request;
use crate::answers::{Answers, Lookup};

/// A seat's keys under audit, and what the audit found so far.
pub struct KeyAudit {
    /// The parts of each decision's key, by decision code, as the table
    /// would have keyed them.
    pub(crate) parts: [Option<u32>; Decision::ALL.len()],
    answers: Answers,
    /// Requests whose key had been answered before, by decision code: the
    /// calls the keys save.
    pub repeated: [u64; Decision::ALL.len()],
    /// Answers unlike the earlier answer to their key, by decision code.
    pub conflicts: [u64; Decision::ALL.len()],
    /// The first such answer.
    pub first: Option<KeyConflict>,
}

/// Two answers to one key: the request of the second, and both answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyConflict {
    /// The round of the second request.
    pub round: u64,
    /// The decision.
    pub kind: Decision,
    /// Its key's parts (`pitboss_sdk::key::part` bits).
    pub parts: u32,
    /// The hand it was asked about (none for a bet).
    pub hand: Vec<Card>,
    /// The dealer's up card, once dealt.
    pub dealer_up: Option<Card>,
    /// The actions it allowed.
    pub legal: ActionSet,
    /// The true count the key was built with (0 where it names none).
    pub count: i32,
    /// Whether another box was dealt a card the round before, as the key
    /// was built (false where it names no `OTHERS`).
    pub others: bool,
    /// What the player answered to the key before.
    pub earlier: i64,
    /// What it answered this time.
    pub answer: i64,
}

impl KeyAudit {
    /// An audit of the keys `parts` (by decision code).
    pub(crate) fn new(parts: [Option<u32>; Decision::ALL.len()]) -> Self {
        KeyAudit {
            parts,
            answers: Answers::default(),
            repeated: [0; Decision::ALL.len()],
            conflicts: [0; Decision::ALL.len()],
            first: None,
        }
    }

    /// Compares `answer`, the player's answer to `request` in `round`,
    /// with the earlier answer to its key of `parts` (`derived`: the parts
    /// derived from the events, for a key that names them), and keeps it
    /// if the key is new.
    pub(crate) fn compare(&mut self, parts: u32, request: &Request<'_>, round: u64, derived: Derived, answer: i64) {
        let kind = request.header.kind;
        match self.answers.lookup(parts, request, derived) {
            Lookup::Known(earlier) => {
                self.repeated[usize::from(kind as u8)] += 1;
                if earlier != answer {
                    self.conflicts[usize::from(kind as u8)] += 1;
                    self.first.get_or_insert_with(|| KeyConflict {
                        round,
                        kind,
                        parts,
                        hand: request.hand.to_vec(),
                        dealer_up: request.header.dealer_up,
                        legal: request.header.legal,
                        count: derived.count,
                        others: derived.others,
                        earlier,
                        answer,
                    });
                }
            }
            Lookup::New(key) => self.answers.keep(key, answer),
            Lookup::Unkeyed => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::key::part;
    use pitboss_sdk::{Action, Decision, Strategy, Variant, View};

    use crate::{Native, Player, Rules, Shoe, Table};

    /// Hits below `stand_on`, or below 17 against a 7 or more where
    /// `reads_up`; its act is keyed by the legal set and the hand's
    /// summary, which leaves out the up card it may read.
    struct Hitter {
        reads_up: bool,
    }

    impl Strategy for Hitter {
        fn observes(&self, _: Variant) -> bool {
            false
        }

        fn decision_key(&self, _: Variant, kind: Decision) -> Option<u32> {
            (kind == Decision::Act).then_some(part::LEGAL | part::SUMMARY)
        }

        fn act(&mut self, view: &View<'_>) -> Action {
            let strong = view.dealer_up().is_some_and(|c| c.value() >= 7);
            let stand_on = if self.reads_up && strong { 17 } else { 13 };
            if view.total().best() < stand_on && view.legal().contains(Action::Hit) {
                Action::Hit
            } else {
                Action::Stand
            }
        }
    }

    /// Plays 2,000 rounds with `strategy`'s keys under audit; with what
    /// the audit found and the player's chips, beside the chips of the
    /// same strategy asked every decision.
    fn audited(reads_up: bool) -> (u64, u64, Option<super::KeyConflict>, i64, i64) {
        let table = |player: Box<dyn Player + Send>| {
            Table::new(Rules::north_american(), Shoe::seeded(6, 78, 5), vec![player], 100_000).unwrap()
        };
        let mut under_audit = table(Box::new(Native::new(Hitter { reads_up })));
        under_audit.audit_keys(0);
        let mut unkeyed = table(Box::new(Native::unkeyed(Hitter { reads_up })));
        for _ in 0..2_000 {
            under_audit.play_round(&mut ()).unwrap();
            unkeyed.play_round(&mut ()).unwrap();
        }
        let audit = under_audit.key_audit(0).unwrap();
        let act = Decision::Act as usize;
        let balances = (under_audit.players()[0].balance, unkeyed.players()[0].balance);
        (audit.repeated[act], audit.conflicts[act], audit.first.clone(), balances.0, balances.1)
    }

    #[test]
    fn true_keys_pass_the_audit_and_play_as_if_asked_every_decision() {
        let (repeated, conflicts, first, chips, unkeyed) = audited(false);
        assert!(repeated > 1_000, "{repeated}");
        assert_eq!((conflicts, first), (0, None));
        assert_eq!(chips, unkeyed, "asked every decision, to the chip");
    }

    #[test]
    fn a_key_that_leaves_out_what_the_answer_reads_is_caught_with_its_request() {
        let (_, conflicts, first, chips, unkeyed) = audited(true);
        let first = first.expect("a conflict");
        assert!(conflicts > 10, "{conflicts}");
        assert_eq!((first.kind, first.parts), (Decision::Act, part::LEGAL | part::SUMMARY));
        let total = pitboss_sdk::Total::of(&first.hand).best();
        assert!((13..17).contains(&total), "only 13 to 16 depend on the up card: {first:?}");
        assert_ne!(first.earlier, first.answer);
        assert_eq!(chips, unkeyed, "the audit plays the bot's own answers");
    }

    #[test]
    fn an_audit_of_a_player_that_is_not_there_does_nothing() {
        let player: Box<dyn Player + Send> = Box::new(Native::new(Hitter { reads_up: false }));
        let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 5), vec![player], 100).unwrap();
        table.audit_keys(3);
        assert!(table.key_audit(0).is_none() && table.key_audit(3).is_none());
    }
}
