//! Who is told what (RULES.md): at every request, in every rule set, a bot
//! has been shown exactly the cards turned face up so far — never the
//! hole card early, never another player's hidden card, never the shoe.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use pitboss_engine::{Banker, FnPlayer, Player, Request, Rules, Shoe, Table, TableEvent};
use pitboss_sdk::{Decision, event_kind};

fn spy(public: Arc<AtomicU64>, dealer_face_up: Arc<AtomicU64>) -> Box<dyn Player + Send> {
    let mut seen = 0u64;
    let mut dealer_seen = 0u64;
    Box::new(FnPlayer(move |r: &Request<'_>| {
        for e in r.events {
            seen += e.reveals_card() as u64;
            match e.kind {
                event_kind::ROUND => dealer_seen = 0,
                event_kind::DEALER_CARD | event_kind::HOLE_CARD => dealer_seen += 1,
                _ => {}
            }
        }
        assert_eq!(seen, public.load(Ordering::SeqCst), "told exactly the face-up cards, at {:?}", r.header.kind);
        assert_eq!(dealer_seen, dealer_face_up.load(Ordering::SeqCst));
        match r.header.kind {
            Decision::Bet => r.header.min,
            Decision::Act => (r.header.round as i64 + r.hand.len() as i64) % 2,
            _ => 0,
        }
    }))
}

/// The table's side of the spy's check: counts the cards turned face up
/// (all, and the dealer's this round).
fn count_face_up(e: &TableEvent, public: &AtomicU64, dealer: &AtomicU64) {
    match e {
        TableEvent::RoundStart { .. } => dealer.store(0, Ordering::SeqCst),
        TableEvent::Card { .. } | TableEvent::Revealed { .. } => {
            public.fetch_add(1, Ordering::SeqCst);
        }
        TableEvent::DealerCard { hole: false, .. } | TableEvent::HoleRevealed { .. } => {
            public.fetch_add(1, Ordering::SeqCst);
            dealer.fetch_add(1, Ordering::SeqCst);
        }
        _ => {}
    }
}

#[test]
fn every_request_shows_exactly_the_cards_face_up_so_far_in_every_rule_set() {
    let variants = [
        Rules::north_american(),
        Rules { boxes_per_player: 2, ..Rules::swedish() },
        Rules::danish(),
        Rules { banker: Banker::Rotate, max_bet: 10, ..Rules::norwegian_home() },
    ];
    for rules in variants {
        let public = Arc::new(AtomicU64::new(0));
        let dealer = Arc::new(AtomicU64::new(0));
        let players = (0..3).map(|_| spy(public.clone(), dealer.clone())).collect();
        let shoe = Shoe::seeded(rules.decks, rules.cut_card, 17);
        let variant = rules.variant;
        let mut table = Table::new(rules, shoe, players, 100_000).unwrap();
        for _ in 0..3_000 {
            table.play_round(&mut |e: &TableEvent| count_face_up(e, &public, &dealer)).unwrap();
        }
        assert!(public.load(Ordering::SeqCst) > 10_000, "{variant:?}");
    }
}

#[test]
fn a_seat_out_for_good_is_told_nothing_more_and_nothing_piles_up() {
    // One bot stakes everything it can and always hits: broke within a few
    // hundred rounds, never asked again. The table must not keep its
    // unread events for the rest of the match (a broke bot in a long
    // league grew memory without bound), and the others are still told
    // exactly what is face up.
    for rules in [Rules::north_american(), Rules { banker: Banker::Rotate, max_bet: 10, ..Rules::norwegian_home() }] {
        let public = Arc::new(AtomicU64::new(0));
        let dealer = Arc::new(AtomicU64::new(0));
        let reckless: Box<dyn Player + Send> = Box::new(FnPlayer(|r: &Request<'_>| match r.header.kind {
            Decision::Bet => r.header.max,
            Decision::Act => 1,
            _ => 0,
        }));
        let players = vec![reckless, spy(public.clone(), dealer.clone()), spy(public.clone(), dealer.clone())];
        let shoe = Shoe::seeded(rules.decks, rules.cut_card, 23);
        let mut table = Table::new(rules, shoe, players, 1_000).unwrap();
        let mut most = 0;
        for _ in 0..20_000 {
            table.play_round(&mut |e: &TableEvent| count_face_up(e, &public, &dealer)).unwrap();
            most = most.max(table.pending_events());
        }
        assert!(table.players()[0].balance < 10, "the reckless bot went broke: {}", table.players()[0].balance);
        assert!(
            most < 400,
            "{:?}: at most a few rounds' events wait: {most}, balances {:?}",
            table.rules().variant,
            table.players().iter().map(|s| s.balance).collect::<Vec<_>>()
        );
    }
}

/// `player`, reading events only if `told` (ABI v2's opt-out, as
/// [`Player::wants_events`] says it).
struct Told<P>(P, bool);

impl<P: Player> Player for Told<P> {
    fn decide(&mut self, request: &Request<'_>) -> Result<i64, pitboss_engine::Fault> {
        assert!(self.1 || request.events.is_empty(), "a player that reads no events is sent none");
        self.0.decide(request)
    }

    fn wants_events(&self, _: pitboss_sdk::Variant) -> bool {
        self.1
    }
}

#[test]
fn a_player_that_reads_no_events_is_sent_none_and_the_others_still_see_everything() {
    for rules in [Rules::north_american(), Rules { banker: Banker::Rotate, max_bet: 10, ..Rules::norwegian_home() }] {
        let public = Arc::new(AtomicU64::new(0));
        let dealer = Arc::new(AtomicU64::new(0));
        let deaf = Told(pitboss_engine::Native::new(basic::Basic::default()), false);
        let players = vec![Box::new(deaf) as Box<dyn Player + Send>, spy(public.clone(), dealer.clone())];
        let shoe = Shoe::seeded(rules.decks, rules.cut_card, 29);
        let mut table = Table::new(rules, shoe, players, 100_000).unwrap();
        for _ in 0..3_000 {
            table.play_round(&mut |e: &TableEvent| count_face_up(e, &public, &dealer)).unwrap();
        }
        assert!(public.load(Ordering::SeqCst) > 5_000);
    }
}

#[test]
fn events_unread_by_every_player_are_not_kept_and_play_is_unchanged() {
    // Basic strategy reads events only in the banker game: told them or
    // not, it plays every rule set chip for chip alike, and a table where
    // no player reads them keeps none.
    for variant in pitboss_sdk::Variant::ALL {
        let rules = Rules::for_variant(variant);
        let balances = |told: bool| {
            let players = (0..2)
                .map(|_| {
                    Box::new(Told(pitboss_engine::Native::new(basic::Basic::default()), told)) as Box<dyn Player + Send>
                })
                .collect();
            let mut table =
                Table::new(rules.clone(), Shoe::seeded(rules.decks, rules.cut_card, 31), players, 100_000).unwrap();
            for _ in 0..5_000 {
                table.play_round(&mut ()).unwrap();
                if !told {
                    assert_eq!(table.pending_events(), 0);
                }
            }
            table.players().iter().map(|s| (s.balance, s.stats)).collect::<Vec<_>>()
        };
        let told = balances(true);
        if variant != pitboss_sdk::Variant::NorwegianHome {
            assert_eq!(balances(false), told, "{variant:?}");
        }
        assert!(told.iter().any(|(b, _)| *b != 100_000), "{variant:?}: chips moved");
    }
}

#[test]
fn a_wasm_bot_of_abi_v2_is_sent_events_only_under_the_rule_sets_it_reads_them() {
    // The fixture traps (a fault) on any request carrying an event outside
    // norwegian-home; a spy beside it checks the others still see all.
    let path = std::path::PathBuf::from(concat!(tests_dir!(), "/bots/no-events.wat"));
    let sandbox = pitboss_host::Sandbox::new(pitboss_host::Limits::default()).unwrap();
    let module = sandbox.load_file(&path).unwrap();
    for rules in [
        Rules::north_american(),
        Rules::danish(),
        Rules { banker: Banker::Rotate, max_bet: 10, ..Rules::norwegian_home() },
    ] {
        let variant = rules.variant;
        let bot = module.instantiate().unwrap();
        assert_eq!(bot.wants_events(variant), variant == pitboss_sdk::Variant::NorwegianHome);
        let public = Arc::new(AtomicU64::new(0));
        let dealer = Arc::new(AtomicU64::new(0));
        let players = vec![Box::new(bot) as Box<dyn Player + Send>, spy(public.clone(), dealer.clone())];
        let mut table = Table::new(rules, Shoe::seeded(6, 78, 37), players, 100_000).unwrap();
        for _ in 0..2_000 {
            table.play_round(&mut |e: &TableEvent| count_face_up(e, &public, &dealer)).unwrap();
        }
        assert_eq!(table.players()[0].stats.faults, 0, "{variant:?}: never sent an event it did not want");
        assert!(table.players()[0].stats.rounds > 1_000, "{variant:?}: it played");
    }
}

#[test]
fn an_abi_v2_bot_finds_a_matchs_constant_request_parts_written_once_and_again_after_a_restart() {
    // The fixture traps when the layout version or the decks are missing
    // from its buffer, and on purpose in every 64th round. As version 2
    // the host writes those parts once per instance; as version 1 before
    // every request. Both must fault exactly as often: only on purpose.
    let text = std::fs::read_to_string(concat!(tests_dir!(), "/bots/keeps-buffer.wat")).unwrap();
    let sandbox = pitboss_host::Sandbox::new(pitboss_host::Limits::default()).unwrap();
    let faults = |version: &str| {
        let wat = text.replace("(result i32) i32.const 2)", &format!("(result i32) i32.const {version})"));
        let bot = sandbox.load("keeps-buffer.wat", wat.as_bytes()).unwrap().instantiate().unwrap();
        let rules = Rules::north_american();
        let mut table =
            Table::new(rules, Shoe::seeded(6, 78, 41), vec![Box::new(bot) as Box<dyn Player + Send>], 100_000).unwrap();
        for _ in 0..3_000 {
            table.play_round(&mut ()).unwrap();
        }
        table.players()[0].stats.faults
    };
    let v2 = faults("2");
    assert!(v2 > 10, "it trapped on purpose now and then: {v2}");
    assert_eq!(v2, faults("1"));
}

/// `player` leaving the decisions of `mask` to their default (as
/// [`Player::defaults`] says it), counting the events it is sent; it fails
/// the test if asked one.
struct Defaulting<P>(P, u32, Arc<AtomicU64>);

impl<P: Player> Player for Defaulting<P> {
    fn decide(&mut self, request: &Request<'_>) -> Result<i64, pitboss_engine::Fault> {
        assert_eq!(request.header.kind.bit() & self.1, 0, "asked a decision left to its default");
        self.2.fetch_add(request.events.len() as u64, Ordering::SeqCst);
        self.0.decide(request)
    }

    fn defaults(&self, _: pitboss_sdk::Variant) -> u32 {
        self.1
    }
}

#[test]
fn decisions_left_to_their_default_are_never_asked_and_change_no_chip_no_record_and_no_event() {
    // Basic strategy leaves its bet (outside the banker game) and every
    // offer to the default, hilo only even money, side and back bets:
    // unasked or asked, both play every rule set event for event alike,
    // the unasked questions recorded as asked and answered by default, and
    // every event reaches them in the same order, an unasked question's
    // with the next question.
    use pitboss_sdk::Variant;
    for variant in Variant::ALL {
        let rules = match variant {
            Variant::NorwegianHome => Rules { banker: Banker::Rotate, max_bet: 10, ..Rules::norwegian_home() },
            _ => Rules::for_variant(variant),
        };
        let play = |defaulting: bool| {
            let sent = Arc::new(AtomicU64::new(0));
            let basic = pitboss_engine::Native::new(basic::Basic::default());
            let hilo = pitboss_engine::Native::new(hilo::HiLo::default());
            let masks = [basic.defaults(variant), hilo.defaults(variant)];
            let mask = |m: u32| if defaulting { m } else { 0 };
            let players = vec![
                Box::new(Defaulting(basic, mask(masks[0]), sent.clone())) as Box<dyn Player + Send>,
                Box::new(Defaulting(hilo, mask(masks[1]), sent.clone())),
            ];
            let mut table =
                Table::new(rules.clone(), Shoe::seeded(rules.decks, rules.cut_card, 43), players, 100_000).unwrap();
            let mut events = Vec::new();
            for _ in 0..3_000 {
                table.play_round(&mut |e: &TableEvent| events.push(e.clone())).unwrap();
            }
            let chips = table.players().iter().map(|s| (s.balance, s.stats)).collect::<Vec<_>>();
            (masks, events, chips, sent.load(Ordering::SeqCst))
        };
        let (masks, events, chips, sent) = play(true);
        let offers = [Decision::Insurance, Decision::EvenMoney, Decision::SideBet, Decision::BackBet]
            .iter()
            .fold(0, |m, d| m | d.bit());
        let bet = if variant == Variant::NorwegianHome { 0 } else { Decision::Bet.bit() };
        assert_eq!(masks, [bet | offers, offers & !Decision::Insurance.bit()], "{variant:?}");
        let unasked = events
            .iter()
            .filter(|e| matches!(e, TableEvent::Asked { kind, player: 0, .. } if kind.bit() & masks[0] != 0))
            .count();
        assert!(unasked > 3_000 || variant == Variant::NorwegianHome, "{variant:?}: {unasked}");
        let (_, asked_events, asked_chips, asked_sent) = play(false);
        assert!(asked_events == events, "{variant:?}: the same record, question for question");
        assert_eq!(asked_chips, chips, "{variant:?}");
        assert_eq!(asked_sent, sent, "{variant:?}: every event still arrives");
    }
}

#[test]
fn a_wasm_bot_of_abi_v3_is_never_asked_what_it_leaves_to_the_default() {
    // The fixture leaves its bet, insurance and even money to the default
    // and traps if asked any; as version 2 its `pitboss_defaults` is not
    // read, so it is asked them, and traps.
    let text = std::fs::read_to_string(concat!(tests_dir!(), "/bots/defaults.wat")).unwrap();
    let sandbox = pitboss_host::Sandbox::new(pitboss_host::Limits::default()).unwrap();
    let play = |version: &str| {
        let wat = text.replace("(result i32) i32.const 3)", &format!("(result i32) i32.const {version})"));
        let bot = sandbox.load("defaults.wat", wat.as_bytes()).unwrap().instantiate().unwrap();
        let defaults = bot.defaults(pitboss_sdk::Variant::NorthAmerican);
        let rules = Rules::north_american();
        let min = rules.min_bet;
        let mut table =
            Table::new(rules, Shoe::seeded(6, 78, 47), vec![Box::new(bot) as Box<dyn Player + Send>], 100_000).unwrap();
        let mut insurance = 0;
        for _ in 0..2_000 {
            table
                .play_round(&mut |e: &TableEvent| {
                    if let TableEvent::Asked { kind: Decision::Insurance, .. } = e {
                        insurance += 1;
                    }
                })
                .unwrap();
        }
        let stats = table.players()[0].stats;
        (defaults, insurance, stats.faults, stats.wagered == 2_000 * i128::from(min))
    };
    let (defaults, insurance, faults, flat) = play("3");
    assert_eq!(defaults, 14);
    assert!(insurance > 300, "offered insurance on an ace or ten up: {insurance}");
    assert_eq!(faults, 0, "never asked what it leaves to the default");
    assert!(flat, "bet the table minimum every round (plus its doubles and splits: none, it stands)");
    let (defaults, _, faults, _) = play("2");
    assert_eq!(defaults, 0);
    assert!(faults >= 2_000, "as version 2 it is asked, and traps: {faults}");
}
