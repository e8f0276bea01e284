//! `norwegian-home` (RULES.md section 4), the banker game, on stacked and
//! seeded decks, one test per rule.
//!
//! Deal order: a hidden card to each player, then the banker; bets; the
//! banker's double; an open card to each player, then the banker; then
//! drawing rounds and the banker's turn.

use std::sync::{Arc, Mutex};

use pitboss_engine::{Banker, FnPlayer, Outcome, Player, Request, Rules, Shoe, Table, TableEvent};
use pitboss_sdk::abi::{BUFFER_LEN, offset};
use pitboss_sdk::{Action, Decision, event_kind};
use pitboss_tests::{Script, Tallied, boxed, play_stacked, play_tallied, settlements, stacked_table};

fn nh() -> Rules {
    Rules::norwegian_home()
}

/// The banker game with seat 0 banking (stakes small enough to cover).
fn seat0_banks() -> Rules {
    Rules { banker: Banker::Player(0), max_bet: 100, ..nh() }
}

fn outcome_of(events: &[TableEvent]) -> Vec<(u8, i64, i64, Outcome)> {
    settlements(events).iter().map(|s| (s.0, s.2, s.3, s.4)).collect()
}

#[test]
fn norwegian_home_banker_blackjack_doubles_stakes() {
    let (events, balances) = play_stacked(nh(), "9 A  8 K", vec![boxed(Script::new(2, &[]))], 1);
    assert_eq!(outcome_of(&events), [(0, 4, 0, Outcome::DealerBlackjack)], "the stake of 2 is doubled and lost");
    assert_eq!(balances, [996]);
}

#[test]
fn norwegian_home_banker_blackjack_against_a_player_blackjack_is_not_doubled() {
    let players = vec![boxed(Script::new(2, &[])), boxed(Script::new(2, &[]))];
    let (events, balances) = play_stacked(nh(), "A 9 A  K 8 K", players, 1);
    assert_eq!(outcome_of(&events), [(0, 2, 0, Outcome::DealerBlackjack), (1, 2, 0, Outcome::DealerBlackjack)]);
    assert_eq!(balances, [998, 998], "the banker wins every stake, not doubled");
}

#[test]
fn norwegian_home_player_blackjack_wins_twice_the_stake() {
    let bot = Script::new(2, &[Action::Hit]);
    let (events, balances) = play_stacked(nh(), "A 9  K 8", vec![boxed(bot.clone())], 1);
    assert_eq!(outcome_of(&events), [(0, 2, 6, Outcome::Blackjack)]);
    assert_eq!(balances, [1004]);
    assert!(!bot.kinds().contains(&Decision::Act), "out of the round at once");
}

#[test]
fn norwegian_home_ties_go_to_the_banker() {
    let (events, balances) = play_stacked(nh(), "T T  8 8", vec![boxed(Script::new(2, &[Action::Stand]))], 1);
    assert_eq!(outcome_of(&events), [(0, 2, 0, Outcome::Lose)]);
    assert_eq!(balances, [998]);
}

#[test]
fn norwegian_home_banker_bust_pays_every_standing_player() {
    let (events, _) = play_stacked(nh(), "T 6  8 T  K", vec![boxed(Script::new(2, &[Action::Stand]))], 1);
    assert_eq!(outcome_of(&events), [(0, 2, 4, Outcome::Win)]);
}

#[test]
fn norwegian_home_a_bust_pays_the_banker_at_once_and_shows_the_hidden_card() {
    let spy_saw_reveal = std::sync::Arc::new(std::sync::Mutex::new(false));
    let seen = spy_saw_reveal.clone();
    let second = FnPlayer(move |r: &Request<'_>| {
        if r.header.kind == Decision::Act {
            let reveal = r.events.iter().any(|e| e.kind == event_kind::REVEAL && e.seat == 0 && e.card.rank() == 10);
            *seen.lock().unwrap() |= reveal;
        }
        match r.header.kind {
            Decision::Bet => 2,
            _ => Action::Stand as i64,
        }
    });
    let players: Vec<Box<dyn Player + Send>> = vec![boxed(Script::new(2, &[Action::Hit])), boxed(second)];
    let (events, _) = play_stacked(nh(), "T 9 9  6 9 8  K", players, 1);
    assert_eq!(outcome_of(&events), [(0, 2, 0, Outcome::Bust), (1, 2, 4, Outcome::Win)]);
    assert!(*spy_saw_reveal.lock().unwrap(), "the next player saw the busted player's hidden ten");
}

#[test]
fn norwegian_home_drawing_goes_round_the_table_and_standing_is_final() {
    use Action::*;
    let p0 = Script::new(2, &[Hit, Hit, Stand]);
    let p1 = Script::new(2, &[Hit, Stand, Hit]);
    let (events, _) = play_stacked(nh(), "2 3 T  2 3 7  2 3 2", vec![boxed(p0), boxed(p1.clone())], 1);
    let order: Vec<(u8, Action)> = events
        .iter()
        .filter_map(|e| if let TableEvent::Acted { seat, action, .. } = e { Some((*seat, *action)) } else { None })
        .collect();
    assert_eq!(order, [(0, Hit), (1, Hit), (0, Hit), (1, Stand), (0, Stand)]);
    assert_eq!(p1.kinds().iter().filter(|k| **k == Decision::Act).count(), 2, "no question after standing");
}

#[test]
fn norwegian_home_bets_are_placed_knowing_only_the_own_hidden_card() {
    let bot = Script::new(2, &[Action::Stand]);
    play_stacked(nh(), "9 5  8 T  5", vec![boxed(bot.clone())], 1);
    assert_eq!(bot.hands(Decision::Bet), ["9"]);
    assert_eq!(bot.hands(Decision::Act), ["98"]);
}

#[test]
fn norwegian_home_banker_draws_to_17_then_as_it_likes() {
    let banker = Script::new(0, &[]).draws(&[1]);
    let player = Script::new(2, &[Action::Stand]);
    let (events, balances) = play_stacked(seat0_banks(), "T T  8 7  3", vec![boxed(banker.clone()), boxed(player)], 1);
    assert_eq!(banker.hands(Decision::BankerDraw), ["T7", "T73"], "asked at 17 and at 20, never below 17");
    assert_eq!(outcome_of(&events), [(1, 2, 0, Outcome::Lose)], "18 v 20");
    assert_eq!(balances, [1002, 998]);
    let banker = Script::new(0, &[]);
    play_stacked(
        seat0_banks(),
        "T 5  8 7  3 2",
        vec![boxed(banker.clone()), boxed(Script::new(2, &[Action::Stand]))],
        1,
    );
    assert_eq!(banker.hands(Decision::BankerDraw), ["5732"], "12 and 15 draw without asking");
}

#[test]
fn norwegian_home_banker_double_doubles_every_stake() {
    let banker = Script::new(0, &[]).answer(Decision::BankerDouble, 1);
    let p1 = Script::new(2, &[Action::Stand]);
    let p2 = Script::new(3, &[Action::Stand]);
    let (events, balances) =
        play_stacked(seat0_banks(), "T 9 7  8 9 T  K", vec![boxed(banker.clone()), boxed(p1), boxed(p2)], 1);
    assert!(events.contains(&TableEvent::BankerDoubled));
    assert_eq!(banker.hands(Decision::BankerDouble), ["7"], "the banker sees only its own card");
    assert_eq!(outcome_of(&events), [(1, 4, 8, Outcome::Win), (2, 6, 12, Outcome::Win)], "18s beat 17");
    assert_eq!(balances, [990, 1004, 1006]);
}

#[test]
fn norwegian_home_nobody_sees_a_hidden_card_before_it_is_shown() {
    // Hidden: player 0 a two, player 1 a three, the banker a four. No
    // other two, three or four is dealt before the showdown.
    type Log = std::sync::Arc<std::sync::Mutex<Vec<(usize, Decision, Vec<u8>, Vec<u8>)>>>;
    let log: Log = Default::default();
    let spy = |seat: usize, log: Log| {
        FnPlayer(move |r: &Request<'_>| {
            let events = r.events.iter().filter(|e| e.reveals_card()).map(|e| e.card.rank()).collect();
            log.lock().unwrap().push((seat, r.header.kind, r.hand.iter().map(|c| c.rank()).collect(), events));
            match r.header.kind {
                Decision::Bet => 2,
                _ => 0,
            }
        })
    };
    let rules = Rules { banker: Banker::Player(2), max_bet: 100, ..nh() };
    let players: Vec<Box<dyn Player + Send>> =
        vec![boxed(spy(0, log.clone())), boxed(spy(1, log.clone())), boxed(spy(2, log.clone()))];
    play_stacked(rules, "2 3 4  T T 9  K", players, 1);
    let log = log.lock().unwrap();
    for (seat, kind, hand, events) in log.iter() {
        let mine = [2u8, 3, 4][*seat];
        for hidden in [2u8, 3, 4].into_iter().filter(|h| *h != mine) {
            assert!(!hand.contains(&hidden) && !events.contains(&hidden), "seat {seat} saw {hidden} in {kind:?}");
        }
    }
    assert!(log.iter().any(|(s, k, _, _)| *s == 2 && *k == Decision::BankerDouble));
}

#[test]
fn norwegian_home_a_round_whose_deck_runs_dry_is_void_and_refunded() {
    let always_hit = || -> Box<dyn Player + Send> {
        Box::new(FnPlayer(|r: &Request<'_>| match r.header.kind {
            Decision::Bet => 1,
            _ => Action::Hit as i64,
        }))
    };
    // A short pack of 40 twos and threes: eight players drawing to bust
    // always run it dry.
    let pack = [2u8, 3].iter().cycle().take(40).map(|&r| pitboss_sdk::Card::new(r).unwrap()).collect();
    let mut table =
        Table::new(nh(), Shoe::seeded_pack(pack, 0, 12), (0..8).map(|_| always_hit()).collect(), 10_000).unwrap();
    let mut voids = 0;
    for _ in 0..20 {
        let before: Vec<i64> = table.players().iter().map(|s| s.balance).collect();
        let mut void = false;
        table.play_round(&mut |e: &TableEvent| void |= matches!(e, TableEvent::RoundVoid { .. })).unwrap();
        if void {
            voids += 1;
            let after: Vec<i64> = table.players().iter().map(|s| s.balance).collect();
            assert_eq!(before, after, "every stake returned");
        }
    }
    assert_eq!(voids, 20, "every round runs the short pack dry");
    let total: i64 = table.players().iter().map(|s| s.balance).sum::<i64>() + table.house();
    assert_eq!(total, 80_000);
    assert_eq!(table.rounds(), 20, "void rounds count as played");
    assert_eq!(table.players()[0].stats.rounds, 0, "and add nothing to the statistics");
    // Nor to the results tally, though busts were settled before the pack
    // ran dry; the questions were asked all the same. A pack of 20 tens:
    // 18 for the deal, two players bust, the third's card is missing.
    let pack = vec![pitboss_sdk::Card::new(10).unwrap(); 20];
    let mut table =
        Table::new(nh(), Shoe::seeded_pack(pack, 0, 12), (0..8).map(|_| always_hit()).collect(), 10_000).unwrap();
    let Tallied { tallies, events, .. } = play_tallied(&mut table, 20);
    assert!(settlements(&events).iter().any(|s| s.4 == Outcome::Bust));
    for t in &tallies {
        assert_eq!((t.net(), t.hands.total()), (0, 0));
        assert_eq!(t.decisions[Decision::Bet], 20);
    }
}

#[test]
fn norwegian_home_the_bank_rotates_so_every_bot_banks_equally_often() {
    let rules = Rules { banker: Banker::Rotate, max_bet: 10, ..nh() };
    let players: Vec<Box<dyn Player + Send>> = (0..3).map(|_| boxed(Script::new(2, &[]))).collect();
    let mut table = Table::new(rules, Shoe::seeded(1, 0, 3), players, 100_000).unwrap();
    let mut banks = [0u32; 3];
    for _ in 0..300 {
        table
            .play_round(&mut |e: &TableEvent| {
                if let TableEvent::Banker { seat: Some(s) } = e {
                    banks[*s as usize] += 1;
                }
            })
            .unwrap();
    }
    assert_eq!(banks, [100, 100, 100]);
}

#[test]
fn norwegian_home_a_bot_that_cannot_cover_the_worst_round_passes_the_bank() {
    // Covering two players at a maximum of 100 needs 800 chips; 500 is short.
    let rules = Rules { banker: Banker::Rotate, max_bet: 100, ..nh() };
    let players: Vec<Box<dyn Player + Send>> = (0..3).map(|_| boxed(Script::new(2, &[]))).collect();
    let mut table = Table::new(rules, Shoe::seeded(1, 0, 3), players, 500).unwrap();
    let mut bankers = Vec::new();
    table
        .play_round(&mut |e: &TableEvent| {
            if let TableEvent::Banker { seat } = e {
                bankers.push(*seat);
            }
        })
        .unwrap();
    assert_eq!(bankers, [None], "nobody can cover: the house banks");
}

#[test]
fn norwegian_home_every_request_says_the_seat_holds_one_hand() {
    // Byte 6 of the request as the bot reads it, with the hand it shows:
    // the players' bets (their hidden card), draws and stands, the
    // banker's double and draw.
    type Log = Arc<Mutex<Vec<(Decision, u8, usize)>>>;
    let log: Log = Default::default();
    let spy = |answers: [i64; 9], log: Log| {
        FnPlayer(move |r: &Request<'_>| {
            let mut buf = [0u8; BUFFER_LEN];
            let (kind, _) = r.encode_part(0, &mut buf);
            log.lock().unwrap().push((kind, buf[offset::HAND_COUNT], r.hand.len()));
            answers[kind as usize]
        })
    };
    use Decision::*;
    let answers = |pairs: &[(Decision, i64)]| {
        let mut a = [0; 9];
        for &(kind, answer) in pairs {
            a[kind as usize] = answer;
        }
        a
    };
    let banker = answers(&[(BankerDouble, 1)]);
    let hitter = answers(&[(Bet, 2), (Act, Action::Hit as i64)]);
    let stander = answers(&[(Bet, 2), (Act, Action::Stand as i64)]);
    // The player holds 2 and 3 and draws 4, 5 and 8 (22); the banker 9 8.
    let players = vec![boxed(spy(banker, log.clone())), boxed(spy(hitter, log.clone()))];
    play_stacked(seat0_banks(), "2 9  3 8  4 5 8", players, 1);
    // The player stands on 18; the banker is asked to draw on 17.
    let players = vec![boxed(spy(banker, log.clone())), boxed(spy(stander, log.clone()))];
    play_stacked(seat0_banks(), "T 9  8 8", players, 1);
    let log = log.lock().unwrap();
    let kinds: Vec<Decision> = log.iter().map(|l| l.0).collect();
    assert_eq!(kinds, [Bet, BankerDouble, Act, Act, Act, Bet, BankerDouble, Act, BankerDraw]);
    for (kind, hands, cards) in log.iter() {
        assert_eq!(*hands, 1, "{kind:?} showing {cards} cards says {hands} hands");
    }
}

#[test]
fn norwegian_home_the_bank_s_chips_are_in_the_banker_s_tally() {
    // Seat 0 banks and doubles; the player stands on 19 against 17 and
    // wins 4 of the bank's chips.
    let banker = Script::new(0, &[]).answer(Decision::BankerDouble, 1);
    let players = vec![boxed(banker), boxed(Script::new(2, &[Action::Stand]))];
    let mut table = stacked_table(seat0_banks(), "T 7  9 K", players);
    let Tallied { tallies, .. } = play_tallied(&mut table, 1);
    assert_eq!(tallies[0].bank, pitboss_results::tally::Bank { rounds: 1, hands: 1, staked: 4, net: -4 });
    assert_eq!((tallies[0].net(), tallies[1].net()), (-4, 4));
}

#[test]
fn norwegian_home_players_stake_half_their_balance_against_the_house_and_a_quarter_against_a_player_bank() {
    // The largest stake a BET request offers (offset 40), for a player
    // holding 1000 chips: the house never doubles, a player's bank may.
    let offered = |rules: Rules, players: usize| {
        let seen: Arc<Mutex<Vec<i64>>> = Default::default();
        let spy = |seen: Arc<Mutex<Vec<i64>>>| {
            FnPlayer(move |r: &Request<'_>| {
                let mut buf = [0u8; BUFFER_LEN];
                let (kind, _) = r.encode_part(0, &mut buf);
                if kind == Decision::Bet {
                    let at = offset::MAX;
                    seen.lock().unwrap().push(i64::from_le_bytes(buf[at..at + 8].try_into().unwrap()));
                }
                0
            })
        };
        let all = (0..players).map(|_| boxed(spy(seen.clone()))).collect();
        play_stacked(rules, "2 9  3 8  4 5 8", all, 1);
        let seen = seen.lock().unwrap();
        seen.last().copied().unwrap()
    };
    let uncapped = Rules { max_bet: 100_000, ..nh() };
    assert_eq!(offered(uncapped.clone(), 1), 500, "half of 1000 against the house");
    assert_eq!(offered(Rules { banker: Banker::Player(0), ..uncapped }, 2), 250, "a quarter when a player banks");
}
