//! `danish` (RULES.md section 3) on stacked shoes, one test per rule,
//! back bets included.

use pitboss_engine::{Outcome, Rules, TableEvent};
use pitboss_sdk::{Action, Decision};
use pitboss_tests::{Script, boxed, faults, play_stacked, settlements};

fn dk() -> Rules {
    Rules::danish()
}

fn outcome_of(events: &[TableEvent]) -> Vec<(i64, Outcome)> {
    settlements(events).iter().map(|s| (s.3, s.4)).collect()
}

fn first_legal(shoe: &str, actions: &[Action]) -> Vec<pitboss_sdk::ActionSet> {
    let bot = Script::new(2, actions);
    play_stacked(dk(), shoe, vec![boxed(bot.clone())], 1);
    let seen = bot.seen.lock().unwrap();
    seen.iter().filter(|s| s.0 == Decision::Act).map(|s| s.1).collect()
}

#[test]
fn danish_double_only_on_hard_9_10_11() {
    assert!(first_legal("5 9 4  8", &[Action::Stand])[0].contains(Action::Double), "9");
    assert!(first_legal("6 9 5  8", &[Action::Stand])[0].contains(Action::Double), "11");
    assert!(!first_legal("6 9 2  8", &[Action::Stand])[0].contains(Action::Double), "8");
    assert!(!first_legal("A 9 8  8", &[Action::Stand])[0].contains(Action::Double), "A+8 is soft: never");
}

#[test]
fn danish_double_allowed_on_a_split_hands_first_two_cards() {
    let legal = first_legal("5 9 5  4 6  8", &[Action::Split, Action::Stand, Action::Stand]);
    assert!(legal[1].contains(Action::Double), "5+4 after the split: {:?}", legal[1]);
}

#[test]
fn danish_splits_are_unlimited_but_aces_are_not_resplit() {
    use Action::*;
    let bot = Script::new(2, &[Split, Split, Split, Split, Stand, Stand, Stand, Stand, Stand]);
    let (events, _) = play_stacked(dk(), "8 9 8  8 8 8 8  T T T T  8", vec![boxed(bot)], 1);
    assert_eq!(settlements(&events).len(), 5, "five hands: no four-hand limit");
    let legal = first_legal("A 9 A  A K  8", &[Split, Split]);
    assert_eq!(legal.len(), 1, "a split ace that draws an ace stops: no resplit");
}

#[test]
fn danish_ties_push_and_blackjack_pays_3_to_2() {
    let (events, _) = play_stacked(dk(), "T 9 8  9", vec![boxed(Script::new(2, &[Action::Stand]))], 1);
    assert_eq!(outcome_of(&events), [(2, Outcome::Push)], "18 v 18 pushes");
    let (events, _) = play_stacked(dk(), "A 9 K  8", vec![boxed(Script::new(2, &[]))], 1);
    assert_eq!(outcome_of(&events), [(5, Outcome::Blackjack)]);
}

#[test]
fn danish_dealer_stands_on_all_17s() {
    let (events, _) = play_stacked(dk(), "T A 8  6", vec![boxed(Script::new(2, &[Action::Stand]))], 1);
    assert_eq!(outcome_of(&events), [(4, Outcome::Win)], "18 beats the dealer's soft 17");
}

#[test]
fn danish_dealer_blackjack_takes_every_bet_of_a_box() {
    use Action::*;
    // 8,8 split against a ten; both hands stand; the dealer's ace makes blackjack.
    let bot = Script::new(2, &[Split, Stand, Stand]);
    let (events, balances) = play_stacked(dk(), "8 T 8  T T  A", vec![boxed(bot)], 1);
    assert_eq!(outcome_of(&events), [(0, Outcome::DealerBlackjack), (0, Outcome::DealerBlackjack)]);
    assert_eq!(balances, [996]);
    let rules = Rules { original_bets_only: true, ..dk() };
    let (_, balances) = play_stacked(rules, "8 T 8  T T  A", vec![boxed(Script::new(2, &[Split, Stand, Stand]))], 1);
    assert_eq!(balances, [998], "original bets only: the split bet comes back");
}

#[test]
fn danish_insurance_on_an_ace_up_to_half_for_box_holders_only() {
    let holder = Script::new(4, &[Action::Stand]).insure(2);
    let backer = Script::new(0, &[]).answer(Decision::BackBet, 2).insure(1);
    let (events, _) = play_stacked(dk(), "9 A 8  K", vec![boxed(holder), boxed(backer.clone())], 1);
    assert!(events.contains(&TableEvent::InsuranceSettled { seat: 0, returned: 6 }));
    assert!(!backer.kinds().contains(&Decision::Insurance), "back bettors are not offered insurance");
}

#[test]
fn danish_back_bet_is_bound_by_the_holder_and_paid_like_the_box() {
    // The holder's blackjack pays the back bet 3:2 as well.
    let holder = Script::new(2, &[]);
    let backer = Script::new(0, &[]).answer(Decision::BackBet, 4);
    let (events, balances) = play_stacked(dk(), "A 9 K  8", vec![boxed(holder), boxed(backer.clone())], 1);
    assert!(events.contains(&TableEvent::BackBet { seat: 0, player: 1, amount: 4 }));
    assert!(events.contains(&TableEvent::BackSettled { seat: 0, hand: 0, player: 1, stake: 4, returned: 10 }));
    assert_eq!(balances, [1003, 1006]);
    assert!(!backer.kinds().contains(&Decision::Act), "the back bettor has no say");
}

#[test]
fn danish_back_bet_follows_a_double() {
    let holder = Script::new(2, &[Action::Double]);
    let backer = Script::new(0, &[]).answer(Decision::BackBet, 2);
    let (events, balances) = play_stacked(dk(), "6 9 5  T  8", vec![boxed(holder), boxed(backer)], 1);
    assert!(events.contains(&TableEvent::BackSettled { seat: 0, hand: 0, player: 1, stake: 4, returned: 8 }));
    assert_eq!(balances, [1004, 1004]);
}

#[test]
fn danish_back_bet_follows_a_split_when_affordable_else_stays_on_the_first_hand() {
    use Action::*;
    let shoe = "8 9 8  T 2  8";
    // Rich back bettor: its stake splits with the box.
    let (events, _) = play_stacked(
        dk(),
        shoe,
        vec![boxed(Script::new(2, &[Split, Stand, Stand])), boxed(Script::new(0, &[]).answer(Decision::BackBet, 2))],
        1,
    );
    let backs: Vec<u8> = events
        .iter()
        .filter_map(|e| if let TableEvent::BackSettled { hand, .. } = e { Some(*hand) } else { None })
        .collect();
    assert_eq!(backs, [0, 1]);
    // A back bettor who cannot afford the split stays on the first hand.
    let rules = dk();
    let holder = boxed(Script::new(2, &[Split, Stand, Stand]));
    let poor = Script::new(0, &[]).answer(Decision::BackBet, 998);
    let shoe_cards = pitboss_engine::parse_stacked(shoe).unwrap();
    let mut table =
        pitboss_engine::Table::new(rules, pitboss_engine::Shoe::stacked(shoe_cards), vec![holder, boxed(poor)], 1000)
            .unwrap();
    let mut hands = Vec::new();
    table
        .play_round(&mut |e: &TableEvent| {
            if let TableEvent::BackSettled { hand, stake, .. } = e {
                hands.push((*hand, *stake));
            }
        })
        .unwrap();
    assert_eq!(hands, [(0, 998)]);
}

#[test]
fn danish_back_bets_respect_the_table_maximum_per_box() {
    let holder = Script::new(1000, &[Action::Stand]);
    let backer = Script::new(0, &[]).answer(Decision::BackBet, 2);
    let (events, _) = play_stacked(dk(), "T 9 8  9", vec![boxed(holder), boxed(backer.clone())], 1);
    assert!(!backer.kinds().contains(&Decision::BackBet), "the box is at the table maximum: no offer");
    assert_eq!(faults(&events), []);
    let backer = Script::new(0, &[]).answer(Decision::BackBet, 1000);
    let (events, _) = play_stacked(dk(), "T 9 8  9", vec![boxed(Script::new(2, &[Action::Stand])), boxed(backer)], 1);
    assert_eq!(faults(&events), [(0, Decision::BackBet)], "998 is the most behind a box of 2");
}

#[test]
fn danish_a_player_never_backs_its_own_box() {
    let bot = Script::new(2, &[Action::Stand]).answer(Decision::BackBet, 2);
    play_stacked(dk(), "T 9 8  9", vec![boxed(bot.clone())], 1);
    assert!(!bot.kinds().contains(&Decision::BackBet));
}
