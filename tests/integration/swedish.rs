//! `swedish` (RULES.md section 2) on stacked shoes, one test per rule.
//!
//! Deal order without a hole card: each box's first card, the dealer's up
//! card, each box's second card; the boxes play; then the dealer's second
//! card and draws.

use pitboss_engine::{Outcome, Rules, TableEvent};
use pitboss_results::tally::Wager;
use pitboss_sdk::{Action, Card, Decision, SideBet, abi};
use pitboss_tests::{Script, boxed, faults, play_stacked, play_tallied, settlements, stacked_table};

fn se() -> Rules {
    Rules::swedish()
}

fn outcome_of(events: &[TableEvent]) -> Vec<(i64, Outcome)> {
    settlements(events).iter().map(|s| (s.3, s.4)).collect()
}

#[test]
fn swedish_dealer_takes_the_second_card_after_the_boxes_play() {
    let bot = Script::new(2, &[Action::Stand]);
    let (events, _) = play_stacked(se(), "T 9 8  K", vec![boxed(bot)], 1);
    let acted = events.iter().position(|e| matches!(e, TableEvent::Acted { .. })).unwrap();
    let second = events.iter().rposition(|e| matches!(e, TableEvent::DealerCard { .. })).unwrap();
    assert!(acted < second, "the dealer's second card comes after the player acts");
    assert!(!events.iter().any(|e| matches!(e, TableEvent::DealerCard { hole: true, .. })), "no hole card");
    assert_eq!(outcome_of(&events), [(0, Outcome::Lose)], "18 v 19");
}

#[test]
fn swedish_tie_on_17_18_and_19_loses() {
    for (shoe, total) in [("T 9 7  8", 17), ("T 9 8  9", 18), ("T 9 9  T", 19)] {
        let (events, balances) = play_stacked(se(), shoe, vec![boxed(Script::new(2, &[Action::Stand]))], 1);
        assert_eq!(outcome_of(&events), [(0, Outcome::Lose)], "tie on {total}");
        assert_eq!(balances, [998]);
    }
}

#[test]
fn swedish_tie_on_20_and_21_pushes() {
    let (events, _) = play_stacked(se(), "T T K  K", vec![boxed(Script::new(2, &[Action::Stand]))], 1);
    assert_eq!(outcome_of(&events), [(2, Outcome::Push)]);
    // 7+4, hit a ten: 21 stands by itself; the dealer makes 21 with three cards.
    let (events, _) = play_stacked(se(), "7 T 4  T  5 6", vec![boxed(Script::new(2, &[Action::Hit]))], 1);
    assert_eq!(outcome_of(&events), [(2, Outcome::Push)]);
}

#[test]
fn swedish_blackjack_pays_3_to_2_and_pushes_a_dealer_blackjack() {
    let (events, balances) = play_stacked(se(), "A 9 K  8", vec![boxed(Script::new(2, &[]))], 1);
    assert_eq!(outcome_of(&events), [(5, Outcome::Blackjack)]);
    assert_eq!(balances, [1003]);
    let (events, _) = play_stacked(se(), "A A K  K", vec![boxed(Script::new(2, &[]))], 1);
    assert_eq!(outcome_of(&events), [(2, Outcome::Push)]);
}

#[test]
fn swedish_21_with_three_cards_loses_to_a_dealer_blackjack() {
    let (events, _) = play_stacked(se(), "7 A 4  T  K", vec![boxed(Script::new(2, &[Action::Hit]))], 1);
    assert_eq!(outcome_of(&events), [(0, Outcome::DealerBlackjack)]);
}

#[test]
fn swedish_a_dealer_blackjack_takes_doubles_and_splits_too() {
    // 6+5 doubles, draws 9 (20); the dealer's second card makes blackjack.
    let (events, balances) = play_stacked(se(), "6 T 5  9  A", vec![boxed(Script::new(2, &[Action::Double]))], 1);
    assert_eq!(outcome_of(&events), [(0, Outcome::DealerBlackjack)]);
    assert_eq!(balances, [996]);
    // League option "original bets only": the double comes back.
    let rules = Rules { original_bets_only: true, ..se() };
    let (_, balances) = play_stacked(rules, "6 T 5  9  A", vec![boxed(Script::new(2, &[Action::Double]))], 1);
    assert_eq!(balances, [998]);
}

fn legal_for(shoe: &str) -> pitboss_sdk::ActionSet {
    let bot = Script::new(2, &[Action::Stand]);
    play_stacked(se(), shoe, vec![boxed(bot.clone())], 1);
    let seen = bot.seen.lock().unwrap();
    seen.iter().find(|s| s.0 == Decision::Act).unwrap().1
}

#[test]
fn swedish_double_only_on_two_cards_totalling_7_to_11_aces_as_1() {
    assert!(legal_for("6 9 5  8").contains(Action::Double), "11");
    assert!(legal_for("4 9 3  8").contains(Action::Double), "7");
    assert!(!legal_for("3 9 3  8").contains(Action::Double), "6");
    assert!(!legal_for("6 9 6  8").contains(Action::Double), "12");
    assert!(legal_for("A 9 6  8").contains(Action::Double), "A+6 is 7 with the ace as 1");
    assert!(!legal_for("A 9 A  8").contains(Action::Double), "A+A is 2");
}

#[test]
fn swedish_after_a_soft_double_every_ace_counts_1() {
    // A+7 doubles and draws a 3: 11, not 21; the dealer's 17 wins.
    let (events, _) = play_stacked(se(), "A 9 7  3  8", vec![boxed(Script::new(2, &[Action::Double]))], 1);
    assert_eq!(outcome_of(&events), [(0, Outcome::Lose)]);
}

#[test]
fn swedish_unlimited_resplits_including_aces() {
    use Action::*;
    // A,A split; the first hand draws another ace and splits again; ...
    let bot = Script::new(2, &[Split, Split, Split, Split, Stand]);
    let shoe = "A 9 A  A A A  K K K K K  8";
    let (events, _) = play_stacked(se(), shoe, vec![boxed(bot.clone())], 1);
    let hands = settlements(&events).len();
    assert_eq!(hands, 5, "five hands from four splits (no four-hand limit)");
    // Split aces that drew a ten are 21, not blackjack: 1:1.
    assert!(outcome_of(&events).iter().all(|o| *o == (4, Outcome::Win)), "{:?}", outcome_of(&events));
}

#[test]
fn swedish_split_aces_get_one_card_unless_it_is_another_ace() {
    let bot = Script::new(2, &[Action::Split]);
    let (_, _) = play_stacked(se(), "A 9 A  5 K  8", vec![boxed(bot.clone())], 1);
    assert_eq!(bot.kinds().iter().filter(|k| **k == Decision::Act).count(), 1, "5 and K end the split aces");
}

#[test]
fn swedish_a_hand_of_21_stands_by_itself() {
    let bot = Script::new(2, &[Action::Hit, Action::Hit]);
    let (events, _) = play_stacked(se(), "T 9 5  6  8", vec![boxed(bot.clone())], 1);
    assert_eq!(bot.kinds().iter().filter(|k| **k == Decision::Act).count(), 1, "no question at 21");
    assert_eq!(outcome_of(&events), [(4, Outcome::Win)]);
    let bot = Script::new(2, &[Action::Hit]);
    play_stacked(se(), "A 9 K  8", vec![boxed(bot.clone())], 1);
    assert!(!bot.kinds().contains(&Decision::Act), "a blackjack is never asked");
}

#[test]
fn swedish_insurance_only_on_an_ace_and_up_to_half() {
    let bot = Script::new(4, &[Action::Stand]).insure(1);
    play_stacked(se(), "T 9 8  9", vec![boxed(bot.clone())], 1);
    assert!(!bot.kinds().contains(&Decision::Insurance), "not on a nine");
    let bot = Script::new(4, &[Action::Stand]).insure(1);
    let (events, _) = play_stacked(se(), "T A 8  9", vec![boxed(bot)], 1);
    assert!(events.contains(&TableEvent::Insurance { seat: 0, amount: 1 }), "any amount up to half");
    assert!(events.contains(&TableEvent::InsuranceSettled { seat: 0, returned: 0 }), "no blackjack: lost");
    let (events, _) = play_stacked(se(), "T A 8  9", vec![boxed(Script::new(4, &[Action::Stand]).insure(3))], 1);
    assert_eq!(faults(&events), [(0, Decision::Insurance)], "3 is over half of 4");
}

#[test]
fn swedish_insurance_is_settled_when_the_second_card_comes() {
    let bot = Script::new(2, &[Action::Stand]).insure(1);
    let (events, balances) = play_stacked(se(), "9 A 8  K", vec![boxed(bot)], 1);
    assert!(events.contains(&TableEvent::InsuranceSettled { seat: 0, returned: 3 }));
    assert_eq!(outcome_of(&events), [(0, Outcome::DealerBlackjack)]);
    assert_eq!(balances, [1000]);
}

#[test]
fn swedish_even_money_on_a_blackjack_against_an_ace() {
    let bot = Script::new(2, &[]).answer(Decision::EvenMoney, 1);
    // The shoe ends here: with nothing outstanding the dealer draws nothing.
    let (events, balances) = play_stacked(se(), "A A K", vec![boxed(bot)], 1);
    assert_eq!(outcome_of(&events), [(4, Outcome::EvenMoney)]);
    assert_eq!(balances, [1002]);
}

#[test]
fn swedish_even_money_and_insurance_are_alternatives() {
    // Taking even money settles the box: it is not asked about insurance.
    let taker = Script::new(2, &[]).answer(Decision::EvenMoney, 1).insure(1);
    let (events, balances) = play_stacked(se(), "A A K", vec![boxed(taker.clone())], 1);
    assert_eq!(taker.kinds(), [Decision::Bet, Decision::SideBet, Decision::EvenMoney]);
    assert!(!events.iter().any(|e| matches!(e, TableEvent::Insurance { .. })));
    assert_eq!(balances, [1002]);
    // Declining it, the box may insure like any other.
    let decliner = Script::new(2, &[]).insure(1);
    play_stacked(se(), "A A K  T", vec![boxed(decliner.clone())], 1);
    assert_eq!(decliner.kinds(), [Decision::Bet, Decision::SideBet, Decision::EvenMoney, Decision::Insurance]);
}

#[test]
fn swedish_over_under_13_pays_1_to_1_and_under_on_two_aces_pays_1_5() {
    let over = abi::side_bet_answer(SideBet::Over, 2);
    let under = abi::side_bet_answer(SideBet::Under, 2);
    let cases = [
        (over, "T 9 5  8", 4),  // 15: over wins
        (under, "T 9 5  8", 0), // 15: under loses
        (under, "5 9 4  8", 4), // 9: under wins
        (over, "6 9 7  8", 0),  // exactly 13 loses both ways
        (under, "6 9 7  8", 0),
        (under, "A 9 A  8 K K  K", 5), // A+A is 2: under pays 1.5×
    ];
    for (answer, shoe, returned) in cases {
        let bot = Script::new(2, &[Action::Stand, Action::Stand]).answer(Decision::SideBet, answer);
        let (events, _) = play_stacked(se(), shoe, vec![boxed(bot)], 1);
        assert!(events.contains(&TableEvent::SideBetSettled { seat: 0, returned }), "{shoe}: {events:?}");
    }
}

#[test]
fn swedish_a_side_bet_needs_a_main_bet_and_stays_within_it() {
    let bot = Script::new(2, &[Action::Stand]).answer(Decision::SideBet, abi::side_bet_answer(SideBet::Over, 4));
    let (events, _) = play_stacked(se(), "T 9 5  8", vec![boxed(bot)], 1);
    assert_eq!(faults(&events), [(0, Decision::SideBet)], "4 is over the main bet of 2");
    let bot = Script::new(0, &[]).answer(Decision::SideBet, abi::side_bet_answer(SideBet::Over, 2));
    play_stacked(se(), "", vec![boxed(bot.clone())], 1);
    assert_eq!(bot.kinds(), [Decision::Bet], "no main bet, no side bet");
}

#[test]
fn swedish_a_player_may_play_several_boxes() {
    let rules = Rules { boxes_per_player: 2, ..se() };
    let bot = Script::new(2, &[Action::Stand, Action::Stand]);
    let (events, balances) = play_stacked(rules, "T 9 9  8 8  7 K", vec![boxed(bot.clone())], 1);
    let bets: Vec<u8> =
        events.iter().filter_map(|e| if let TableEvent::Bet { seat, .. } = e { Some(*seat) } else { None }).collect();
    assert_eq!(bets, [0, 1], "one player, two boxes");
    assert_eq!(outcome_of(&events), [(4, Outcome::Win), (4, Outcome::Win)], "18 and 17 against a dealer bust");
    assert_eq!(balances, [1004]);
}

#[test]
fn swedish_dealer_bust_pays_every_hand_still_standing() {
    let (events, _) = play_stacked(
        se(),
        "T T 6  6 7 T  K  9",
        vec![boxed(Script::new(2, &[Action::Hit])), boxed(Script::new(2, &[Action::Stand]))],
        1,
    );
    assert_eq!(outcome_of(&events), [(0, Outcome::Bust), (4, Outcome::Win)]);
    assert!(events.contains(&TableEvent::DealerCard { card: Card::new(9).unwrap(), hole: false }));
}

/// Bets 10 with 2 on Under 13, insures 5, refuses even money, stands.
fn under_bettor() -> Script {
    Script::new(10, &[Action::Stand]).answer(Decision::SideBet, 2 << 32 | 2).insure(5)
}

#[test]
fn swedish_a_void_round_leaves_nothing_in_the_tally_but_its_questions() {
    // Round 1: T+8 is over 13 (the side bet loses 2) and loses the tie on
    // 18 (10 more). Round 2 stakes 10 and 2 on Under, then the shoe runs
    // out before the deal is done: void, both stakes back. `play_tallied`
    // checks the tally against the balance after each round.
    let mut table = stacked_table(se(), "T 9 8  9", vec![boxed(under_bettor())]);
    let run = play_tallied(&mut table, 10);
    assert!(run.void);
    assert_eq!(table.players()[0].balance, 988);
    let t = &run.tallies[0];
    assert_eq!(t.net(), -12);
    assert_eq!(t.side_bets, Wager { placed: 1, won: 0, staked: 2, returned: 0 }, "round 2's side bet came back");
    assert_eq!((t.hands[Outcome::Lose], t.hands.total()), (1, 1));
    assert_eq!(
        (t.decisions[Decision::Bet], t.decisions[Decision::SideBet]),
        (2, 2),
        "the void round's questions were asked"
    );

    // A natural facing an ace: Under (A+K = 11) pays 2 at once, 5 are
    // insured, even money is refused; the dealer's second card is missing.
    let bot = under_bettor();
    let mut table = stacked_table(se(), "A A K", vec![boxed(bot.clone())]);
    let run = play_tallied(&mut table, 10);
    assert!(run.void);
    assert!(run.events.iter().any(|e| matches!(e, TableEvent::SideBetSettled { returned: 4, .. })));
    assert_eq!(table.players()[0].balance, 1000);
    let t = &run.tallies[0];
    assert_eq!(t.net(), 0);
    assert_eq!((t.insurance, t.side_bets), (Wager::default(), Wager::default()));
    assert_eq!(t.hands.total(), 0);
    assert_eq!((t.decisions[Decision::Insurance], t.decisions[Decision::EvenMoney]), (1, 1));
    assert_eq!(
        bot.kinds(),
        [Decision::Bet, Decision::SideBet, Decision::EvenMoney, Decision::Insurance],
        "asked before the shoe ran out: even money first, and insurance once it is refused"
    );
}
