//! Properties over random legal and illegal answers: chips are conserved,
//! each bot's results tally adds up to its net after every round (void
//! rounds of random stacked shoes included), no card is dealt twice per
//! shuffle, illegal answers are always refused and legal ones always
//! applied; plus both reshuffle rules at a table.

use pitboss_engine::{Banker, FnPlayer, Player, Request, Rules, Shoe, ShuffleKind, Table, TableEvent};
use pitboss_sdk::{Action, Card, Decision};
use pitboss_tests::{Tallied, play_tallied};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rand_like::Lcg;

/// A tiny deterministic generator for bot answers, so a proptest case is
/// reproducible from its seed without sharing the engine's RNG.
mod rand_like {
    pub struct Lcg(pub u64);
    impl Lcg {
        pub fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            self.0 >> 33
        }
    }
}

/// A bot answering at random: mostly sensible, sometimes illegal or absurd.
fn chaos(seed: u64) -> Box<dyn Player + Send> {
    let mut rng = Lcg(seed);
    Box::new(FnPlayer(move |r: &Request<'_>| {
        let roll = rng.next() % 100;
        match r.header.kind {
            Decision::Bet => match roll {
                0..=4 => -7,
                5..=9 => r.header.max + r.header.unit,
                10..=14 => r.header.min + 1,
                15..=19 => 0,
                _ => r.header.min + (rng.next() as i64 % 5) * r.header.unit,
            },
            Decision::Insurance | Decision::BackBet => match roll {
                0..=9 => r.header.min,
                10..=14 => r.header.min + 1,
                15..=19 => r.header.max,
                _ => 0,
            },
            Decision::SideBet => match roll {
                0..=29 => (1 + (roll as i64 & 1)) << 32 | r.header.min,
                30..=34 => 3 << 32 | r.header.min,
                35..=39 => 1 << 32 | (r.header.max + 2),
                _ => 0,
            },
            Decision::EvenMoney | Decision::BankerDouble | Decision::BankerDraw => match roll {
                0..=4 => 7,
                _ => (roll & 1) as i64,
            },
            _ => match roll {
                0..=4 => 99,
                5..=9 => -1,
                _ => (rng.next() % 5) as i64,
            },
        }
    }))
}

/// Everything one round sequence produced, for checking.
struct Run {
    events: Vec<TableEvent>,
}

/// Plays `rounds` rounds of chaos bots on a seeded shoe, checking after
/// every round that chips are conserved and each tally adds up.
fn run(rules: Rules, seed: u64, bots: usize, rounds: u64, bankroll: i64) -> Run {
    let players = (0..bots).map(|i| chaos(seed.wrapping_add(i as u64 * 7919))).collect();
    let shoe = Shoe::seeded(rules.decks, rules.cut_card, seed);
    let mut table = Table::new(rules, shoe, players, bankroll).unwrap();
    let Tallied { events, void, .. } = play_tallied(&mut table, rounds);
    assert!(!void, "a seeded shoe never runs out for good");
    assert_eq!(table.rounds(), rounds);
    Run { events }
}

fn small_rules(decks: u8, cut: u16) -> Rules {
    Rules { decks, cut_card: cut, ..Rules::north_american() }
}

/// The rule set `variant` (0–3) with the shoe and table options varied.
fn variant_rules(variant: u8, decks: u8, cut_fraction: u16, boxes_per_player: u8, rotate: bool) -> Rules {
    let cut = |decks: u8| decks as u16 * 52 * cut_fraction / 100;
    match variant {
        0 => small_rules(decks, cut(decks)),
        1 => Rules { decks, cut_card: cut(decks), boxes_per_player, ..Rules::swedish() },
        2 => Rules { decks, cut_card: cut(decks), ..Rules::danish() },
        _ => Rules {
            banker: if rotate { Banker::Rotate } else { Banker::House },
            max_bet: 10,
            ..Rules::norwegian_home()
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn chips_are_conserved_and_cards_dealt_once_per_shuffle(
        seed in any::<u64>(),
        variant in 0u8..4,
        bots in 1usize..=7,
        decks in 1u8..=6,
        cut_fraction in 0u16..=60,
        two_boxes in any::<bool>(),
        rotate in any::<bool>(),
    ) {
        let per = if two_boxes && bots <= 3 { 2 } else { 1 };
        let rules = variant_rules(variant, decks, cut_fraction, per, rotate);
        let decks = rules.decks;
        let Run { events } = run(rules, seed, bots, 150, 200);
        // Count each rank dealt since the last shuffle (face up or down).
        let mut counts = [0u32; 14];
        let mut this_round = [0u32; 14];
        for e in &events {
            match e {
                TableEvent::Shuffle(ShuffleKind::Full) => counts = [0; 14],
                // Only this round's cards stay out of a partial reshuffle.
                TableEvent::Shuffle(ShuffleKind::Discards) => counts = this_round,
                TableEvent::RoundStart { .. } => this_round = [0; 14],
                TableEvent::Card { card, .. } | TableEvent::DealerCard { card, .. } | TableEvent::HiddenCard { card, .. } => {
                    counts[card.rank() as usize] += 1;
                    this_round[card.rank() as usize] += 1;
                    prop_assert!(counts[card.rank() as usize] <= 4 * decks as u32, "{card} dealt too often");
                }
                _ => {}
            }
        }
    }

    #[test]
    fn illegal_actions_are_always_refused_and_legal_ones_applied(
        seed in any::<u64>(),
        variant in 0u8..4,
        bots in 1usize..=4,
    ) {
        let Run { events } = run(variant_rules(variant, 6, 25, 1, true), seed, bots, 120, 100);
        for (i, e) in events.iter().enumerate() {
            let TableEvent::Asked { seat, kind: Decision::Act, legal, answer: Some(answer), .. } = *e else { continue };
            let chosen = Action::from_answer(answer).filter(|a| legal.contains(*a));
            match chosen {
                Some(action) => {
                    prop_assert_eq!(&events[i + 1], &TableEvent::Acted { seat, hand: hand_of(&events, i), action });
                }
                None => {
                    let refused = matches!(&events[i + 1], TableEvent::Fault { kind: Decision::Act, .. });
                    prop_assert!(refused, "answer {} with legal {:?} was not refused", answer, legal);
                    let stood = matches!(events[i + 2], TableEvent::Acted { action: Action::Stand, .. });
                    prop_assert!(stood, "a refused action becomes a stand");
                }
            }
        }
    }
}

/// The rule set `variant` (0–3) for a stacked shoe, with `per` boxes per
/// player and the Over/Under 13 side bet in every dealer game where
/// `side_bets`; the banker game banks by the house or in rotation.
fn stacked_rules(variant: u8, per: u8, side_bets: bool, rotate: bool) -> Rules {
    let dealer =
        |rules: Rules| Rules { boxes_per_player: per, over_under_13: rules.over_under_13 || side_bets, ..rules };
    match variant {
        0 => dealer(Rules::north_american()),
        1 => dealer(Rules::swedish()),
        2 => dealer(Rules::danish()),
        _ => Rules {
            banker: if rotate { Banker::Rotate } else { Banker::House },
            max_bet: 10,
            ..Rules::norwegian_home()
        },
    }
}

proptest! {
    // A fixed seed: the same shoes, rules and bots on every run.
    #![proptest_config(ProptestConfig {
        cases: 512,
        rng_seed: RngSeed::Fixed(0x7a11_7011),
        ..ProptestConfig::default()
    })]

    /// Short random stacked shoes run out mid-round, so most cases end on
    /// a void round, after insurance, side and back bets, even money,
    /// naturals or busts may already have been settled: every chip goes
    /// back, and each tally must say so (`play_tallied` checks it after
    /// every round).
    #[test]
    fn each_tally_adds_up_to_the_net_every_round_void_rounds_of_stacked_shoes_included(
        // Aces and tens weighted up: more naturals, insurance, even money.
        ranks in prop::collection::vec(prop_oneof![1 => Just(1u8), 1 => 10u8..=13, 3 => 1u8..=13], 0..90),
        seed in any::<u64>(),
        variant in 0u8..4,
        bots in 1usize..=4,
        two_boxes in any::<bool>(),
        side_bets in any::<bool>(),
        rotate in any::<bool>(),
    ) {
        let per = if two_boxes && bots <= 3 { 2 } else { 1 };
        let rules = stacked_rules(variant, per, side_bets, rotate);
        let cards = ranks.iter().map(|&r| Card::new(r).unwrap()).collect();
        let players = (0..bots).map(|i| chaos(seed.wrapping_add(i as u64 * 7919))).collect();
        let mut table = Table::new(rules, Shoe::stacked(cards), players, 200).unwrap();
        // Bots may all sit out, and then a stacked shoe is never dealt.
        play_tallied(&mut table, 200);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Fuzz: any i64 at all, for any decision, never panics the engine
    /// and never breaks conservation.
    #[test]
    fn the_engine_never_panics_whatever_the_answers(
        answers in prop::collection::vec(prop_oneof![any::<i64>(), -3i64..8, Just(i64::MIN), Just(i64::MAX)], 1..48),
        seed in any::<u64>(),
        variant in 0u8..4,
    ) {
        let players: Vec<Box<dyn Player + Send>> = (0..3)
            .map(|offset| {
                let answers = answers.clone();
                let mut i = offset;
                Box::new(FnPlayer(move |_: &Request<'_>| {
                    i += 1;
                    answers[i % answers.len()]
                })) as Box<dyn Player + Send>
            })
            .collect();
        let rules = variant_rules(variant, 2, 20, 1, true);
        let shoe = Shoe::seeded(rules.decks, rules.cut_card, seed);
        let mut table = Table::new(rules, shoe, players, 50).unwrap();
        for _ in 0..100 {
            table.play_round(&mut ()).unwrap();
        }
        let total: i64 = table.players().iter().map(|s| s.balance).sum::<i64>() + table.house();
        prop_assert_eq!(total, 150);
    }
}

/// The hand the `Acted` after `Asked` at `i` names (the ask itself does
/// not carry it).
fn hand_of(events: &[TableEvent], i: usize) -> u8 {
    match events[i + 1] {
        TableEvent::Acted { hand, .. } => hand,
        _ => 0,
    }
}

#[test]
fn the_cut_card_finishes_the_round_then_the_shoe_is_shuffled() {
    let rules = small_rules(1, 30); // 22 cards before the cut card
    let Run { events } = run(rules, 11, 3, 60, 10_000);
    let mut dealt = 0;
    let mut full_shuffles = 0;
    for e in &events {
        match e {
            TableEvent::Shuffle(ShuffleKind::Full) => {
                if full_shuffles > 0 {
                    assert!(dealt >= 22, "shuffled after only {dealt} cards");
                }
                full_shuffles += 1;
                dealt = 0;
            }
            TableEvent::RoundStart { .. } => {
                assert!(dealt < 22, "the cut card came out ({dealt} cards) but no shuffle followed the round");
            }
            TableEvent::Card { .. } | TableEvent::DealerCard { .. } => dealt += 1,
            _ => {}
        }
    }
    assert!(full_shuffles > 5, "{full_shuffles} shuffles in 60 rounds of a 1-deck shoe");
    // Every full shuffle comes right before a round starts.
    for (i, e) in events.iter().enumerate() {
        if *e == TableEvent::Shuffle(ShuffleKind::Full) {
            assert!(matches!(events[i + 1], TableEvent::RoundStart { .. }));
        }
    }
}

#[test]
fn a_dry_shoe_shuffles_only_earlier_rounds_discards_mid_round() {
    // One deck, cut card at the very end, seven boxes drawing to 17: the
    // shoe runs dry inside a round.
    let rules = small_rules(1, 0);
    let mimic = || -> Box<dyn Player + Send> {
        Box::new(FnPlayer(|r: &Request<'_>| match r.header.kind {
            Decision::Bet => 2,
            Decision::Act => {
                if pitboss_sdk::Total::of(r.hand).best() < 17 {
                    Action::Hit as i64
                } else {
                    Action::Stand as i64
                }
            }
            _ => 0,
        }))
    };
    let mut table = Table::new(rules, Shoe::seeded(1, 0, 5), (0..7).map(|_| mimic()).collect(), 1000).unwrap();
    let mut events = Vec::new();
    for _ in 0..20 {
        table.play_round(&mut |e: &TableEvent| events.push(e.clone())).unwrap();
    }
    let partial = events.iter().position(|e| *e == TableEvent::Shuffle(ShuffleKind::Discards));
    let partial = partial.expect("the shoe ran dry within 20 rounds");
    let round_start = events[..partial].iter().rposition(|e| matches!(e, TableEvent::RoundStart { .. })).unwrap();
    let last_full = events[..partial].iter().rposition(|e| *e == TableEvent::Shuffle(ShuffleKind::Full)).unwrap();
    let cards = |range: &[TableEvent]| -> Vec<Card> {
        let mut v: Vec<Card> = range
            .iter()
            .filter_map(|e| match e {
                TableEvent::Card { card, .. } | TableEvent::DealerCard { card, .. } => Some(*card),
                _ => None,
            })
            .collect();
        v.sort();
        v
    };
    let earlier = cards(&events[last_full..round_start]);
    let this_round_before = cards(&events[round_start..partial]);
    let round_end = partial + events[partial..].iter().position(|e| matches!(e, TableEvent::RoundEnd { .. })).unwrap();
    let after = cards(&events[partial..round_end]);
    assert_eq!(earlier.len() + this_round_before.len(), 52, "the shoe was empty");
    // What is dealt after the partial shuffle comes from the earlier discards.
    let mut pool = earlier.clone();
    for c in &after {
        let at = pool.iter().position(|p| p == c).expect("a card from this round was reshuffled");
        pool.remove(at);
    }
    // And the next round starts with a full shuffle.
    assert_eq!(events[round_end + 1], TableEvent::Shuffle(ShuffleKind::Full));
}
