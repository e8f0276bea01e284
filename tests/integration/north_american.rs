//! `north-american` (RULES.md section 1) on stacked shoes: the worked
//! examples and every rule the walking skeleton must enforce.
//!
//! Deal order: each box's first card, the dealer's up card, each box's
//! second card, the hole card; then play from the dealer's left.

use pitboss_engine::{FnPlayer, Outcome, Rules, TableEvent};
use pitboss_sdk::{Action, Decision, event_kind};
use pitboss_tests::{Script, boxed, faults, pitboss, play_stacked, settlements};

fn na() -> Rules {
    Rules::north_american()
}

#[test]
fn worked_example_double_eleven_draws_king_against_20_returns_8() {
    let bot = Script::new(2, &[Action::Double]);
    let (events, balances) = play_stacked(na(), "6 T 5 T  K", vec![boxed(bot.clone())], 1);
    assert_eq!(settlements(&events), [(0, 0, 4, 8, Outcome::Win)]);
    assert_eq!(balances, [1004]);
    // Insurance was offered on the ten, then the hand was played.
    assert_eq!(bot.kinds(), [Decision::Bet, Decision::Insurance, Decision::Act]);
}

#[test]
fn worked_example_double_eleven_draws_king_against_21_returns_4() {
    let bot = Script::new(2, &[Action::Double]);
    let (events, balances) = play_stacked(na(), "6 T 5 5  K 6", vec![boxed(bot)], 1);
    assert_eq!(settlements(&events), [(0, 0, 4, 4, Outcome::Push)]);
    assert_eq!(balances, [1000]);
}

#[test]
fn worked_example_ace_king_bet_2_returns_5() {
    let bot = Script::new(2, &[]);
    let (events, balances) = play_stacked(na(), "A 9 K 7", vec![boxed(bot.clone())], 1);
    assert_eq!(settlements(&events), [(0, 0, 2, 5, Outcome::Blackjack)]);
    assert_eq!(balances, [1003]);
    assert_eq!(bot.kinds(), [Decision::Bet], "a paid blackjack is not played");
}

#[test]
fn insurance_on_a_ten_pays_two_to_one_against_a_dealer_blackjack() {
    let bot = Script::new(2, &[]).insure(1);
    let (events, balances) = play_stacked(na(), "9 T 8 A", vec![boxed(bot.clone())], 1);
    assert!(events.contains(&TableEvent::Insurance { seat: 0, amount: 1 }));
    assert!(events.contains(&TableEvent::InsuranceSettled { seat: 0, returned: 3 }));
    assert_eq!(settlements(&events), [(0, 0, 2, 0, Outcome::DealerBlackjack)]);
    assert_eq!(balances, [1000], "lost 2 on the hand, won 2 on the insurance");
    assert_eq!(bot.kinds(), [Decision::Bet, Decision::Insurance], "the round ends at the peek");
}

#[test]
fn insurance_on_a_ten_is_lost_when_the_dealer_has_no_blackjack() {
    let bot = Script::new(2, &[Action::Stand]).insure(1);
    let (events, balances) = play_stacked(na(), "9 T 8 7", vec![boxed(bot)], 1);
    assert!(events.contains(&TableEvent::InsuranceSettled { seat: 0, returned: 0 }));
    assert_eq!(settlements(&events), [(0, 0, 2, 2, Outcome::Push)]);
    assert_eq!(balances, [999]);
}

#[test]
fn insurance_must_be_exactly_half_the_bet() {
    let bot = Script::new(4, &[Action::Stand]).insure(1);
    let (events, balances) = play_stacked(na(), "9 A 8 7", vec![boxed(bot)], 1);
    assert_eq!(faults(&events), [(0, Decision::Insurance)]);
    assert!(!events.iter().any(|e| matches!(e, TableEvent::Insurance { .. })));
    assert_eq!(balances, [996], "declined insurance, lost 17 v 18");
}

#[test]
fn a_player_blackjack_pushes_a_dealer_blackjack() {
    let bot = Script::new(2, &[]);
    let (events, balances) = play_stacked(na(), "A A K K", vec![boxed(bot)], 1);
    assert_eq!(settlements(&events), [(0, 0, 2, 2, Outcome::Push)]);
    assert_eq!(balances, [1000]);
}

#[test]
fn surrender_returns_half_the_bet() {
    let bot = Script::new(2, &[Action::Surrender]);
    let (events, balances) = play_stacked(na(), "T 9 6 8", vec![boxed(bot)], 1);
    assert_eq!(settlements(&events), [(0, 0, 2, 1, Outcome::Surrender)]);
    assert_eq!(balances, [999]);
}

#[test]
fn surrender_is_refused_after_a_split_and_double_after_split_is_offered() {
    let bot = Script::new(2, &[Action::Split, Action::Surrender, Action::Stand]);
    let (events, _) = play_stacked(na(), "8 6 8 T  2 3 K", vec![boxed(bot.clone())], 1);
    assert_eq!(faults(&events), [(0, Decision::Act)]);
    let seen = bot.seen.lock().unwrap();
    let acts: Vec<_> = seen.iter().filter(|s| s.0 == Decision::Act).collect();
    assert!(acts[0].1.contains(Action::Surrender), "first act on the original hand may surrender");
    for act in &acts[1..] {
        assert!(!act.1.contains(Action::Surrender), "no surrender after a split: {act:?}");
        assert!(act.1.contains(Action::Double), "double after split: {act:?}");
    }
    // The refused surrender became a stand on 8+2; both hands win when the
    // dealer busts 6+T+K.
    assert_eq!(settlements(&events), [(0, 0, 2, 4, Outcome::Win), (0, 1, 2, 4, Outcome::Win)]);
}

#[test]
fn with_surrender_after_split_a_split_hand_may_surrender() {
    // The shoe of the test above, under the league rule
    // `surrender_after_split = true`: the split hand 8+2 surrenders (half
    // back), the other draws 3 and K and wins when the dealer busts.
    let rules = Rules { surrender_after_split: true, ..na() };
    let bot = Script::new(2, &[Action::Split, Action::Surrender, Action::Stand]);
    let (events, balances) = play_stacked(rules, "8 6 8 T  2 3 K", vec![boxed(bot.clone())], 1);
    assert_eq!(faults(&events), []);
    let seen = bot.seen.lock().unwrap();
    let acts: Vec<_> = seen.iter().filter(|s| s.0 == Decision::Act).collect();
    assert!(acts[1..].iter().all(|act| act.1.contains(Action::Surrender)), "{acts:?}");
    assert_eq!(settlements(&events), [(0, 0, 2, 1, Outcome::Surrender), (0, 1, 2, 4, Outcome::Win)]);
    assert_eq!(balances, [1001]);
}

/// A league setting `surrender_after_split`, end to end through the
/// command: `pitboss rules --league` words it, `pitboss run` plays it and
/// records it; without it a results file says nothing of it (as before
/// the field existed); where there is no late surrender it is refused
/// pointing at its line.
#[test]
fn a_league_may_allow_surrender_after_a_split() {
    let dir = std::env::temp_dir().join(format!("pitboss-split-surrender-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let league = |rules: &str| {
        format!(
            "name = \"t\"\nvariant = \"north-american\"\nrounds = 200\nseed = 3\nbankroll = 10000\n\n[rules]\n{rules}\n\n[[bot]]\nname = \"basic\"\nbuiltin = \"basic\"\n"
        )
    };
    std::fs::write(dir.as_path().join("split.toml"), league("surrender_after_split = true")).unwrap();
    std::fs::write(dir.as_path().join("plain.toml"), league("")).unwrap();
    let rules = pitboss(dir.as_path(), &["rules", "--league", "split.toml"]);
    assert_eq!(rules.code, Some(0), "{}", rules.stderr);
    assert!(rules.stdout.contains("- late surrender after a split: yes"), "{}", rules.stdout);
    let plain = pitboss(dir.as_path(), &["rules", "--league", "plain.toml"]);
    assert!(!plain.stdout.contains("surrender after a split"), "{}", plain.stdout);

    for name in ["split", "plain"] {
        let ran = pitboss(dir.as_path(), &["run", &format!("{name}.toml"), "--json", &format!("{name}.json")]);
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    }
    let read = |name: &str| std::fs::read_to_string(dir.as_path().join(name)).unwrap();
    let (split, plain) = (read("split.json"), read("plain.json"));
    assert!(split.contains("\"surrender_after_split\": true"), "the results record the rule");
    assert!(!plain.contains("surrender_after_split"), "a league without it writes results as before");
    let results = pitboss_results::parse(&split, "split.json").unwrap();
    assert!(results.league.parsed.rules.rules("north-american").unwrap().surrender_after_split);

    std::fs::write(
        dir.as_path().join("swedish.toml"),
        league("surrender_after_split = true").replace("north-american", "swedish"),
    )
    .unwrap();
    let refused = pitboss(dir.as_path(), &["run", "swedish.toml"]);
    assert_eq!(refused.code, Some(1));
    assert!(
        refused.stderr.contains("swedish.toml:8:25: rule `surrender_after_split`: needs late_surrender"),
        "{}",
        refused.stderr
    );
}

#[test]
fn surrender_is_never_offered_against_a_dealer_blackjack() {
    let bot = Script::new(2, &[Action::Surrender]);
    let (events, balances) = play_stacked(na(), "T A 6 K", vec![boxed(bot.clone())], 1);
    assert_eq!(bot.kinds(), [Decision::Bet, Decision::Insurance], "the round ends at the peek");
    assert_eq!(settlements(&events), [(0, 0, 2, 0, Outcome::DealerBlackjack)]);
    assert_eq!(balances, [998]);
}

#[test]
fn a_fifth_split_hand_is_refused() {
    use Action::*;
    let bot = Script::new(2, &[Split, Split, Split, Split, Stand, Stand, Stand]);
    let (events, balances) = play_stacked(na(), "8 7 8 T  8 8 8  T T T", vec![boxed(bot.clone())], 1);
    let seen = bot.seen.lock().unwrap();
    let acts: Vec<_> = seen.iter().filter(|s| s.0 == Decision::Act).collect();
    assert!(acts[2].1.contains(Split), "three splits make four hands");
    assert!(!acts[3].1.contains(Split), "no fifth hand: {:?}", acts[3]);
    assert_eq!(faults(&events), [(0, Decision::Act)]);
    let outcomes: Vec<Outcome> = settlements(&events).iter().map(|s| s.4).collect();
    assert_eq!(outcomes, [Outcome::Lose, Outcome::Win, Outcome::Win, Outcome::Win]);
    assert_eq!(balances, [1004]);
}

#[test]
fn split_aces_get_one_card_each_and_ace_ten_is_plain_21() {
    let bot = Script::new(2, &[Action::Split]);
    let (events, balances) = play_stacked(na(), "A 7 A T  5 K", vec![boxed(bot.clone())], 1);
    assert_eq!(bot.kinds().iter().filter(|k| **k == Decision::Act).count(), 1, "no decisions on split aces");
    assert_eq!(settlements(&events), [(0, 0, 2, 0, Outcome::Lose), (0, 1, 2, 4, Outcome::Win)]);
    assert_eq!(balances, [1000], "lost 2 on A+5, won 2 (not 3) on A+K");
}

#[test]
fn a_player_bust_loses_even_when_the_dealer_busts() {
    let buster = Script::new(2, &[Action::Hit]);
    let stander = Script::new(2, &[Action::Stand]);
    let (events, balances) = play_stacked(na(), "T T 6  6 T T  K 9", vec![boxed(buster), boxed(stander)], 1);
    assert_eq!(settlements(&events), [(0, 0, 2, 0, Outcome::Bust), (1, 0, 2, 4, Outcome::Win)]);
    assert!(events.contains(&TableEvent::DealerCard { card: pitboss_sdk::Card::new(9).unwrap(), hole: false }));
    assert_eq!(balances, [998, 1002]);
}

#[test]
fn the_dealer_does_not_draw_when_no_hand_is_live() {
    // After the bust the shoe is empty: a dealer draw would run it out.
    let bot = Script::new(2, &[Action::Hit]);
    let (events, _) = play_stacked(na(), "T 6 6 T K", vec![boxed(bot)], 1);
    assert!(events.iter().any(|e| matches!(e, TableEvent::HoleRevealed { .. })), "the dealer reveals");
    assert_eq!(settlements(&events), [(0, 0, 2, 0, Outcome::Bust)]);
}

#[test]
fn the_dealer_stands_on_soft_17() {
    let bot = Script::new(2, &[Action::Stand]);
    let (events, _) = play_stacked(na(), "T 6 8 A", vec![boxed(bot)], 1);
    assert_eq!(settlements(&events), [(0, 0, 2, 4, Outcome::Win)], "18 beats soft 17; the dealer did not hit");
}

#[test]
fn a_bot_never_sees_the_hole_card_before_it_is_turned() {
    let mut asked = 0;
    let spy = FnPlayer(move |r: &pitboss_engine::Request<'_>| {
        asked += 1;
        for e in r.events {
            assert_ne!(e.kind, event_kind::HOLE_CARD, "hole card leaked at request {asked}");
        }
        let dealer_cards = r.events.iter().filter(|e| e.kind == event_kind::DEALER_CARD).count();
        assert!(dealer_cards <= 1, "only the up card is visible while players act");
        match r.header.kind {
            Decision::Bet => 2,
            _ => Action::Stand as i64,
        }
    });
    // The hole card is a 5: it must not show up in any request this round.
    let (events, _) = play_stacked(na(), "T 9 8 5  K", vec![boxed(spy)], 1);
    assert!(events.contains(&TableEvent::HoleRevealed { card: pitboss_sdk::Card::new(5).unwrap() }));
}

#[test]
fn the_next_request_tells_a_bot_every_card_turned_up_since() {
    let bot = Script::new(2, &[Action::Stand, Action::Stand]);
    play_stacked(na(), "T 9 8 5  K  T 9 8 5  K", vec![boxed(bot.clone())], 2);
    let seen = bot.seen.lock().unwrap();
    // Round 2's bet request carries round 1's hole card and dealer draw,
    // plus the new round marker: [HOLE, DEALER(K), ROUND] at least.
    let second_bet = seen.iter().filter(|s| s.0 == Decision::Bet).nth(1).unwrap();
    assert!(second_bet.3 >= 3, "{second_bet:?}");
}

#[test]
fn a_table_may_forbid_sitting_out() {
    let rules = Rules { sit_out: false, ..na() };
    let bot = Script::new(0, &[Action::Stand]);
    let (events, balances) = play_stacked(rules, "T 9 8  9", vec![boxed(bot)], 1);
    assert_eq!(faults(&events), [(0, Decision::Bet)], "a bet of 0 is a fault here");
    assert!(events.contains(&TableEvent::Bet { seat: 0, amount: 2 }), "and the minimum is staked");
    assert_eq!(balances, [1000], "18 v 18 pushes");
}

#[test]
fn a_faulted_bet_stakes_the_minimum_where_sitting_out_is_forbidden() {
    // ABI.md's fault table: BET's safe default is to sit out, except at a
    // table that forbids it, where the minimum is staked.
    let rules = Rules { sit_out: false, ..na() };
    let bot = Script::new(3, &[Action::Stand]);
    let (events, balances) = play_stacked(rules, "T 9 8  9", vec![boxed(bot)], 1);
    assert_eq!(faults(&events), [(0, Decision::Bet)], "3 is off the bet unit");
    assert!(events.contains(&TableEvent::Bet { seat: 0, amount: 2 }), "and the minimum is staked");
    assert_eq!(balances, [1000], "18 v 18 pushes");
    let bot = Script::new(3, &[Action::Stand]);
    let (events, _) = play_stacked(na(), "T 9 8  9", vec![boxed(bot)], 1);
    assert_eq!(faults(&events), [(0, Decision::Bet)]);
    assert!(!events.iter().any(|e| matches!(e, TableEvent::Bet { .. })), "where sitting out is allowed, it sits out");
}

#[test]
fn a_split_pair_of_tens_keeps_each_card_on_its_own_hand() {
    let bot = Script::new(2, &[Action::Split, Action::Stand, Action::Stand]);
    let (events, _) = play_stacked(na(), "K 7 Q T  5 9", vec![boxed(bot.clone())], 1);
    assert_eq!(bot.hands(Decision::Act), ["KQ", "K5", "Q9"]);
    let dealt: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            TableEvent::Card { hand, card, .. } => Some(format!("{hand}{card}")),
            _ => None,
        })
        .collect();
    assert_eq!(dealt, ["0K", "0Q", "05", "19"]);
}
