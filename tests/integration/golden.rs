//! Golden transcripts: a few representative rounds of each rule set, as
//! the `Transcript` recorder prints them, compared byte for byte with the
//! files in `tests/golden/`. One file holds hundreds of facts a reader can
//! check by eye against RULES.md, where hand-written asserts would pin a
//! handful.
//!
//! Each file is a list of blocks: a fresh table (every player starts with
//! 1000 chips) playing a stacked shoe chosen to show the rule set's own
//! rules, or a seeded shoe with `basic`, `hilo` and `random`. The file's
//! header says what each block is for.
//!
//! `PITBOSS_BLESS=1` writes the files instead of comparing them: after a
//! deliberate change, bless, then read the diff before committing it.

use std::path::{Path, PathBuf};

use pitboss_engine::{Banker, Player, Rules, Shoe, Table, parse_stacked};
use pitboss_league::bots::Bot;
use pitboss_league::transcript::Transcript;
use pitboss_sdk::abi::side_bet_answer;
use pitboss_sdk::{Action, Decision, SideBet};
use pitboss_tests::{Script, boxed};

use Action::{Double, Hit, Split, Stand, Surrender};

/// Chips each player starts a block with.
const BANKROLL: i64 = 1000;

/// The command that rewrites the expected files.
const BLESS: &str = "PITBOSS_BLESS=1 cargo test -p pitboss-tests --test integration golden";

/// Where a block's cards come from.
enum Deck {
    /// A stacked shoe, in shoe-file syntax (see `tests/shoes/`).
    Stacked(&'static str),
    /// A seeded shoe of the rule set's decks and cut card.
    Seeded(u64),
}

/// A fresh table playing `rounds` rounds: what it is for, its rules, its
/// cards and its players in seat order.
struct Block {
    what: &'static str,
    rules: Rules,
    deck: Deck,
    players: Vec<Box<dyn Player + Send>>,
    rounds: u64,
}

/// A block on a stacked shoe.
fn stacked(what: &'static str, rules: Rules, cards: &'static str, players: Vec<Script>, rounds: u64) -> Block {
    Block { what, rules, deck: Deck::Stacked(cards), players: players.into_iter().map(boxed).collect(), rounds }
}

/// A block on a seeded shoe with `basic`, `hilo` and `random`, in that
/// seat order.
fn seeded(what: &'static str, rules: Rules, seed: u64, rounds: u64) -> Block {
    let players = ["basic", "hilo", "random"]
        .iter()
        .map(|name| Bot::builtin(name).and_then(|bot| bot.player()).expect("a builtin bot"))
        .collect();
    Block { what, rules, deck: Deck::Seeded(seed), players, rounds }
}

/// The transcript of `blocks`: a header naming each block, then each
/// block's cards, events and closing balances.
fn transcript(title: &str, blocks: Vec<Block>) -> String {
    let mut text = format!(
        "# {title}\n# Regenerate with `{BLESS}`.\n# Each block is a fresh table, every player starting with \
         {BANKROLL} chips;\n# box N is player N unless a block says otherwise.\n#\n"
    );
    for (i, block) in blocks.iter().enumerate() {
        let mut lines = block.what.lines();
        text += &format!("# block {}: {}\n", i + 1, lines.next().unwrap_or(""));
        for line in lines {
            text += &format!("#   {}\n", line.trim());
        }
    }
    for (i, block) in blocks.into_iter().enumerate() {
        text += &format!("\n== block {}\n", i + 1);
        text += &play(block);
    }
    text
}

/// Plays one block; its cards, its transcript and the balances after it.
fn play(block: Block) -> String {
    let Block { rules, deck, players, rounds, .. } = block;
    let (shoe, cards) = match deck {
        Deck::Stacked(cards) => {
            let shown = cards.split_whitespace().collect::<Vec<_>>().join(" ");
            (Shoe::stacked(parse_stacked(cards).expect("the block's shoe parses")), format!("shoe: stacked, {shown}"))
        }
        Deck::Seeded(seed) => {
            let (decks, cut) = (rules.decks, rules.cut_card);
            let plural = if decks == 1 { "" } else { "s" };
            let shown = format!("shoe: seeded, {decks} deck{plural}, cut card {cut}, seed {seed}");
            (Shoe::seeded(decks, cut, seed), shown)
        }
    };
    let count = players.len() as i64;
    let mut table = Table::new(rules, shoe, players, BANKROLL).expect("a valid table");
    let mut out = Vec::new();
    let mut recorder = Transcript::new(&mut out);
    for _ in 0..rounds {
        table.play_round(&mut recorder).expect("the shoe holds the block's cards");
    }
    let balances: Vec<i64> = table.players().iter().map(|p| p.balance).collect();
    assert_eq!(balances.iter().sum::<i64>() + table.house(), BANKROLL * count, "chips conserved");
    let listed: Vec<String> = balances.iter().enumerate().map(|(p, b)| format!("player {p} {b}")).collect();
    let transcript = String::from_utf8(out).expect("a UTF-8 transcript");
    format!("{cards}\n{transcript}balances: {}; house {:+}\n", listed.join(", "), table.house())
}

fn repo() -> PathBuf {
    Path::new(tests_dir!()).parent().expect("tests/ sits in the repository").to_path_buf()
}

/// Compares `actual` with `tests/golden/NAME.txt`, or writes it there
/// under `PITBOSS_BLESS=1`.
fn check(name: &str, actual: &str) {
    let path = repo().join("tests/golden").join(format!("{name}.txt"));
    if std::env::var_os("PITBOSS_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        if std::fs::read_to_string(&path).ok().as_deref() != Some(actual) {
            std::fs::write(&path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        return;
    }
    let expected =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}; write it with `{BLESS}`", path.display()));
    if expected == actual {
        return;
    }
    // Split on '\n' only, so a stray '\r' shows as a difference too.
    let (want, got): (Vec<&str>, Vec<&str>) = (expected.split('\n').collect(), actual.split('\n').collect());
    let at = want.iter().zip(&got).position(|(w, g)| w != g).unwrap_or(want.len().min(got.len()));
    let line = |lines: &[&str]| lines.get(at).map_or("(end of file)".to_string(), |l| format!("{l:?}"));
    // The block the line belongs to, so the header says what it was for.
    let block = want[..at.min(want.len())].iter().rev().find(|l| l.starts_with("== block")).map_or("", |l| &l[3..]);
    panic!(
        "tests/golden/{name}.txt differs from this run's transcript at line {} ({}):\n  expected: {}\n  actual:   \
         {}\nIf the change is intended, regenerate with `{BLESS}` and review the diff.",
        at + 1,
        if block.is_empty() { "the header" } else { block },
        line(&want),
        line(&got),
    );
}

#[test]
fn north_american() {
    let na = Rules::north_american;
    let blocks = vec![
        stacked(
            "dealer ten up, insurance offered on the ten, the peek finds blackjack.
             box 0 (9 8) insures 1, exactly half its 2: loses the 2, insurance returns 3;
             box 1's blackjack (A K) declines insurance and pushes.",
            na(),
            "9 A T  8 K A",
            vec![Script::new(2, &[]).insure(1), Script::new(2, &[])],
            1,
        ),
        stacked(
            "dealer ten up, the peek finds no blackjack (T 7): insurance lost, play on.
             box 0 insures 1 (lost), splits 8s, doubles 8 3 after the split (20, bet 4: 8 back),
             stands 8 K (18 beats 17: 4 back); box 1's blackjack is paid 3:2 at once (5 back);
             box 2 surrenders T 6 (1 of 2 back); the dealer stands on 17.",
            na(),
            "8 A T T  8 K 6 7  3 9 K",
            vec![Script::new(2, &[Split, Double, Stand]).insure(1), Script::new(2, &[]), Script::new(2, &[Surrender])],
            1,
        ),
        stacked(
            "dealer nine up: no insurance. box 0 hits T 2, draws K: busts and loses at once;
             box 1 stands on 18 and pushes the dealer's 9 9; box 2 doubles soft 17 (A 6),
             draws a 4 for 21: bet 4, 8 back.",
            na(),
            "T T A 9  2 8 6 9  K 4",
            vec![Script::new(2, &[Hit]), Script::new(2, &[]), Script::new(2, &[Double])],
            1,
        ),
        stacked(
            "dealer ace up: box 0 insures (lost: the hole card is a 6). box 0 splits aces: one card each,
             A K after a split is 21, not blackjack (1:1), A 7 is 18; box 1 hits 9 5 to 17;
             the dealer stands on soft 17 (A 6): both split hands win, 17 pushes.",
            na(),
            "A 9 A  A 5 6  K 7  3",
            vec![Script::new(2, &[Split]).insure(1), Script::new(2, &[Hit])],
            1,
        ),
        stacked(
            "no live hands: box 0 hits T 6 into a bust against a 5 up;
             the dealer turns up its hole card (15) and draws nothing.",
            na(),
            "T 5 6 T  8",
            vec![Script::new(2, &[Hit])],
            1,
        ),
        seeded("seeded shoe, seed 2026: basic, hilo and random for 5 rounds.", na(), 2026, 5),
    ];
    check("north-american", &transcript("north-american (RULES.md section 1)", blocks));
}

#[test]
fn swedish() {
    let se = Rules::swedish;
    let over = |amount| side_bet_answer(SideBet::Over, amount);
    let under = |amount| side_bet_answer(SideBet::Under, amount);
    let blocks = vec![
        stacked(
            "ties on 17, 18 and 19 go to the dealer; 20 pushes. Both boxes stand, four rounds:
             round 1: dealer T 9: box 0's 19 loses, box 1's 20 wins;
             round 2: dealer 8 T: box 0's 18 loses, box 1's 19 wins;
             round 3: dealer 7 T: box 0's 17 loses, box 1's 18 wins;
             round 4: dealer T K: box 0's 20 pushes, box 1's 19 loses.",
            se(),
            "T K T  9 Q  9
             T 9 8  8 T  T
             T T 7  7 8  T
             K T T  Q 9  K",
            vec![Script::new(2, &[]), Script::new(2, &[])],
            4,
        ),
        stacked(
            "dealer ace up, no hole card. box 0's blackjack takes even money (1:1 at once, 4 back),
             so it is not asked about insurance; box 1's blackjack declines it and pushes;
             box 2 bets 4 with 2 on Over 13 (T 9 is 19: 4 back), insures 1 (up to half),
             stands; the dealer's second card makes blackjack: insurance returns 3, the 4 is lost.",
            se(),
            "A A T  A  K Q 9  K",
            vec![
                Script::new(2, &[]).answer(Decision::EvenMoney, 1),
                Script::new(2, &[]),
                Script::new(4, &[]).answer(Decision::SideBet, over(2)).insure(1),
            ],
            1,
        ),
        stacked(
            "restricted doubles, unlimited splits, aces too. Dealer 6 up.
             box 0 doubles soft 18 (A 7, hard 8 may double), draws a 3: its ace then counts 1,
             so 11, not 21; box 1 splits 8s, doubles 8 3 after the split (20), stands 8 T (18);
             box 2 splits aces, gets a third ace and splits again: A 9, A 7, A K (21, not blackjack).
             The dealer draws T 2 for 18: 11 loses, 20 and 21 win, the 18s tie and lose.",
            se(),
            "A 8 A  6  7 8 A  3  3 9 T  A 9 7 K  T 2",
            vec![Script::new(2, &[Double]), Script::new(2, &[Split, Double, Stand]), Script::new(2, &[Split, Split])],
            1,
        ),
        stacked(
            "no hole card: dealer ten up. box 0 doubles hard 11 (6 5), draws a 9 for 20;
             box 1 bets 2 on Under 13 (7 4 is 11: 4 back), hits to 21 with three cards (stands by itself);
             box 2 hits T 6 and busts; the dealer's second card, an ace, makes blackjack and takes
             every bet still out, the doubled stake and the three-card 21 included.",
            se(),
            "6 7 T  T  5 4 6  9 K 8  A",
            vec![
                Script::new(2, &[Double]),
                Script::new(2, &[Hit]).answer(Decision::SideBet, under(2)),
                Script::new(2, &[Hit]),
            ],
            1,
        ),
        seeded("seeded shoe, seed 2026: basic, hilo and random for 5 rounds.", se(), 2026, 5),
    ];
    check("swedish", &transcript("swedish (RULES.md section 2)", blocks));
}

#[test]
fn danish() {
    let dk = Rules::danish;
    // Box 0 splits 8s, doubles 8 3 and stands 8 K; player 1 backs box 0
    // with 2 and stands on its own box.
    let splitter = || Script::new(2, &[Split, Double, Stand]);
    let backer = || Script::new(2, &[]).answer(Decision::BackBet, 2);
    let blocks = vec![
        stacked(
            "no hole card: dealer ten up. Player 1 backs box 0 with 2. box 0 splits 8s (the back bet
             splits with it), doubles 8 3 after the split (the back stake doubles too) for 20, stands 8 K;
             box 1 stands on 19. The dealer's second card, an ace, makes blackjack: it takes every bet
             on box 0, split and double included, and the back stakes with them; box 1 loses.",
            dk(),
            "8 T  T  8 9  3 9 K  A",
            vec![splitter(), backer()],
            1,
        ),
        stacked(
            "the same bets and play; the dealer draws a 7 for 17 and stands. box 0's 20 (bet 4) and 18
             win, and the back stakes are paid like the box; box 1's 17 pushes (danish ties push).",
            dk(),
            "8 T  T  8 7  3 9 K  7",
            vec![splitter(), backer()],
            1,
        ),
        stacked(
            "dealer ace up: insurance for box holders only. Player 1 backs box 0 with 4 and is not asked
             about insurance for it; box 1 insures 1 (lost). box 0's blackjack is paid 3:2 to its holder
             (5 back) and to the back bet (10 back). box 1 tries to double T 7 (only 9-11 may double):
             a fault, and it stands. The dealer's 6 makes soft 17: it stands (all 17s); 17 pushes.",
            dk(),
            "A T  A  K 7  6",
            vec![Script::new(2, &[]), Script::new(2, &[Double]).answer(Decision::BackBet, 4).insure(1)],
            1,
        ),
        seeded("seeded shoe, seed 2026: basic, hilo and random for 5 rounds.", dk(), 2026, 5),
    ];
    check("danish", &transcript("danish (RULES.md section 3)", blocks));
}

#[test]
fn norwegian_home() {
    let nh = Rules::norwegian_home;
    // A player's bank: stakes small enough for the banker to cover.
    let player_banks = |banker| Rules { banker, max_bet: 100, ..nh() };
    let blocks = vec![
        stacked(
            "the house banks (never doubles, draws to 17). Hidden cards: T, 9, T, the house 8.
             Player 0 hits T 6, draws a 9: busts, pays the bank at once, and its hidden card is shown;
             player 1 stands on 18, player 2 (bet 3) on 20. The house shows 8 5, draws a 5 for 18:
             player 1's tie loses (ties go to the bank), player 2 wins 1:1.",
            nh(),
            "T 9 T 8  6 9 K 5  9  5",
            vec![Script::new(2, &[Hit]), Script::new(2, &[]), Script::new(3, &[])],
            1,
        ),
        stacked(
            "player 0 banks. Seeing only its hidden T, it doubles every stake (2 to 4, 3 to 6).
             Drawing rounds: player 1 stands on T 9 at once; player 2 (2 3) hits in round one (7),
             again in round two (5), stands on 17 in round three. The banker shows T 7 and at 17
             chooses to draw: a 3 for 20, then stands. Both players lose their doubled stakes.",
            player_banks(Banker::Player(0)),
            "T 2 T  9 3 7  7 5  3",
            vec![
                Script::new(0, &[]).answer(Decision::BankerDouble, 1).draws(&[1]),
                Script::new(2, &[]),
                Script::new(3, &[Hit, Hit, Stand]),
            ],
            1,
        ),
        stacked(
            "naturals, the house banking, both players standing, three rounds:
             round 1: player 0's A K against no banker blackjack wins twice its 2 (6 back) and leaves;
             player 1's 15 loses to the house's 17;
             round 2: the house's A K, no player blackjack: every stake is doubled and lost (4 each);
             round 3: the house's K A against player 0's A Q: the bank takes every stake, not doubled.",
            nh(),
            "A 9 9  K 6 8
             T 5 A  8 7 K
             A T K  Q 9 A",
            vec![Script::new(2, &[]), Script::new(2, &[])],
            3,
        ),
        seeded(
            "the bank rotates (stakes at most 100): basic, hilo and random each bank twice in 6 rounds
             of a single deck shuffled every round, seed 2026.",
            player_banks(Banker::Rotate),
            2026,
            6,
        ),
    ];
    check("norwegian-home", &transcript("norwegian-home, the banker game (RULES.md section 4)", blocks));
}
