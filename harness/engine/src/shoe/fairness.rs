//! Evidence that the shuffle is fair: chi-square tests of rank by position
//! and of adjacent pairs over many seeded shuffles, each sized to catch a
//! 1 % bias and each shown to fail on shuffles rigged by that much.
//!
//! `docs/shuffle-fairness.md` explains the tests and records the figures of
//! the larger run (`cargo test --release -p pitboss-engine --
//! --ignored shuffle_fairness_large --nocapture`).
//!
//! Every test uses fixed seeds, so none can flicker: the fair shuffles
//! pass at p = 0.001 on every run, and the rigged ones fail on every run.
//!
//! # Sizing
//!
//! Against a bias, a Pearson statistic with `df` degrees of freedom becomes
//! a noncentral chi-square with noncentrality
//! `lambda = shuffles * sum over cells of shift^2 / expected` (shift and
//! expected count per shuffle). For a test at p = 0.001 to catch a bias
//! with 99.9 % power, `lambda` must reach about 86 at 36 degrees of
//! freedom, 140 at 144, 253 at 612 and 571 at 3,732 (`lambda_for_power`).
//! Divided by the noncentrality one shuffle adds under a 1 % bias, that
//! gives the shuffles each test needs; the sizes below round the larger
//! need of each table up:
//!
//! - every position apart: the first card forced to an ace in a fraction
//!   `p` = 1 % of shuffles adds `12 p^2` (one deck: 215,000 shuffles; six
//!   decks: 478,000).
//! - quarters of the shoe: aces a fraction `e` = 1 % more common in the
//!   first quarter add about `(52 / 36) e^2 A`, `A` the aces expected there
//!   (`n / 52`: one deck, 604,000 shuffles; six decks, 99,000).
//! - adjacent pairs: same-rank pairs 1 % more common add about `e^2 D`, `D`
//!   the same-rank pairs expected in a shoe, `n (4d - 1) / (n - 1)` (one
//!   deck: 3.06, 466,000 shuffles; six decks: 23.07, 61,000).
//!
//! `the_sizes_give_the_power_claimed` checks this arithmetic; the rigged
//! runs show it holds. A 1 % bias confined to one cell (one rank at one
//! position) adds only `e^2 / 12` a shuffle and takes some 70 million
//! six-deck shuffles to see: the larger run's business, not a unit test's.

mod chi_square;
mod tables;

use super::{Card, Shoe, below, draw_bound, draw_index, rng_for, shuffle};
use chi_square::{Z_999, chi_square_quantile, smallest_bias};
use rand_pcg::Pcg64;
use std::ops::Range;
use tables::{AdjacentPairs, PairNull, RANKS, RankByPosition, position_scale};

/// Successive shuffles from each seed: a table's shoe shuffles many times
/// from one generator, and a league seeds many tables, so the tests do both.
const PER_SEED: u64 = 10;

// Shuffles per test: the sizing in the module's documentation, rounded up.
const POSITION_SHUFFLES_1: u64 = 700_000;
const POSITION_SHUFFLES_6: u64 = 500_000;
const PAIR_SHUFFLES_1: u64 = 500_000;
const PAIR_SHUFFLES_6: u64 = 70_000;

/// The pack in the order `Shoe::seeded` builds it: A to K, deck after deck.
/// Every shuffle starts from it, as a shoe's full shuffle does.
fn pack(decks: usize) -> Vec<Card> {
    (0..decks * 52).map(|i| Card::new(u8::try_from(i % RANKS + 1).unwrap()).unwrap()).collect()
}

/// Seeds for `shuffles` shuffles, from `first` on. Each test has its own
/// block of seeds, so no two tests see the same shuffles.
fn seeds(first: u64, shuffles: u64) -> Range<u64> {
    first..first + shuffles / PER_SEED
}

/// Shuffles the pack with `shuffle`, `PER_SEED` times from each seed, and
/// shows each arrangement to `visit`.
fn shuffled(
    decks: usize,
    seeds: Range<u64>,
    mut shuffle: impl FnMut(&mut [Card], &mut Pcg64),
    mut visit: impl FnMut(&[Card]),
) {
    let pack = pack(decks);
    let mut cards = pack.clone();
    for seed in seeds {
        let mut rng = rng_for(seed);
        for _ in 0..PER_SEED {
            cards.copy_from_slice(&pack);
            shuffle(&mut cards, &mut rng);
            visit(&cards);
        }
    }
}

/// Deals whole shoes from `Shoe::seeded`, `PER_SEED` shoes from each seed,
/// and shows each in dealing order to `visit`: the real path, cut included.
fn dealt(decks: u8, seeds: Range<u64>, mut visit: impl FnMut(&[Card])) {
    let mut cards = pack(usize::from(decks));
    for seed in seeds {
        // The cut card at the very end: each round deals the whole shoe,
        // and the next round starts with a full shuffle.
        let mut shoe = Shoe::seeded(decks, 0, seed);
        for _ in 0..PER_SEED {
            assert!(shoe.start_round());
            for card in cards.iter_mut() {
                *card = shoe.deal(|_| panic!("a full shoe never runs dry")).unwrap();
            }
            visit(&cards);
        }
    }
}

// Rigged shuffles: the real shuffle, then a nudge with probability
// `per_million / 10^6`, drawn from the test's own generator so that the
// rigged and fair runs share every shuffle and differ only by the nudges.

/// Forces the first card to be an ace, by swapping it with the first ace.
fn rig_first_card(cards: &mut [Card], rng: &mut Pcg64, per_million: u32) {
    if below(rng, 1_000_000) < per_million
        && let Some(ace) = cards.iter().position(|c| c.is_ace())
    {
        cards.swap(0, ace);
    }
}

/// Swaps an ace from the rest of the shoe into a random place of the first
/// quarter.
fn rig_aces_early(cards: &mut [Card], rng: &mut Pcg64, per_million: u32) {
    if below(rng, 1_000_000) >= per_million {
        return;
    }
    let quarter = cards.len() / 4;
    let place = draw_index(below(rng, draw_bound(quarter)));
    let start = quarter + draw_index(below(rng, draw_bound(cards.len() - quarter)));
    if let Some(ace) = (start..cards.len()).chain(quarter..start).find(|&i| cards[i].is_ace()) {
        cards.swap(place, ace);
    }
}

/// Pulls the next card of the same rank as a random card up beside it
/// (around the shoe, as the pairs are counted).
fn rig_same_rank_pair(cards: &mut [Card], rng: &mut Pcg64, per_million: u32) {
    if below(rng, 1_000_000) >= per_million {
        return;
    }
    let n = cards.len();
    let i = draw_index(below(rng, draw_bound(n)));
    let rank = cards[i].rank();
    if let Some(j) = (1..n).map(|k| (i + k) % n).find(|&j| cards[j].rank() == rank) {
        cards.swap((i + 1) % n, j);
    }
}

/// One shuffle in 100: the ace rate at the top goes from 7.69 % to 8.62 %.
const FIRST_CARD_RIG: u32 = 10_000;

/// Aces expected in the first quarter are `n / 52` a shuffle, and a rigged
/// shuffle adds one 12 times in 13 (the place may hold an ace already):
/// this rate adds 1 % to them.
fn aces_early_rig(cards: usize) -> u32 {
    (0.01 * cards as f64 / 52.0 * 13.0 / 12.0 * 1e6).round() as u32
}

/// A rigged shoe gains a same-rank pair unless the card's neighbour made
/// one already: this rate adds 1 % to the same-rank pairs expected.
fn same_rank_rig(null: &PairNull, cards: usize) -> u32 {
    let already = (cards / RANKS - 1) as f64 / (cards - 1) as f64;
    (0.01 * null.same_rank() / (1.0 - already) * 1e6).round() as u32
}

/// Rank by position over the real `shuffle`, without the cut: cutting a
/// pack that starts A to K at a uniform place leaves every position uniform
/// whatever the shuffle did, so the cut would hide a broken shuffle here.
/// Returns the tables of the fair shuffles, then of the same shuffles with
/// the first card rigged, and with aces rigged into the first quarter.
fn rank_by_position(decks: usize, shuffles: u64, first_seed: u64) -> [RankByPosition; 3] {
    let n = decks * 52;
    let mut tables = [(); 3].map(|_| RankByPosition::new(n));
    let mut rig = rng_for(!first_seed);
    let mut rigged = vec![Card::ACE; n];
    shuffled(decks, seeds(first_seed, shuffles), shuffle, |cards| {
        tables[0].add(cards);
        rigged.copy_from_slice(cards);
        rig_first_card(&mut rigged, &mut rig, FIRST_CARD_RIG);
        tables[1].add(&rigged);
        rigged.copy_from_slice(cards);
        rig_aces_early(&mut rigged, &mut rig, aces_early_rig(n));
        tables[2].add(&rigged);
    });
    tables
}

/// Adjacent pairs over whole shoes dealt by `Shoe::seeded`: the fair
/// shoes, then the same shoes with same-rank pairs rigged 1 % more common.
fn adjacent_pairs(decks: u8, shuffles: u64, first_seed: u64) -> [AdjacentPairs; 2] {
    let n = usize::from(decks) * 52;
    let null = PairNull::new(n);
    let rate = same_rank_rig(&null, n);
    let mut tables = [AdjacentPairs::new(null), AdjacentPairs::new(null)];
    let mut rig = rng_for(!first_seed);
    let mut rigged = vec![Card::ACE; n];
    dealt(decks, seeds(first_seed, shuffles), |cards| {
        tables[0].add(cards);
        rigged.copy_from_slice(cards);
        rig_same_rank_pair(&mut rigged, &mut rig, rate);
        tables[1].add(&rigged);
    });
    tables
}

/// The fair shuffles pass at every position and in quarters; the rigged
/// ones, rigged by the amounts claimed, fail.
fn check_rank_by_position(decks: usize, shuffles: u64, first_seed: u64) {
    let n = decks * 52;
    let [fair, first_card, aces_early] = rank_by_position(decks, shuffles, first_seed);
    for buckets in [n, 4] {
        let t = fair.test(buckets);
        assert!(!t.rejects(), "fair, {buckets} buckets: {t}");
    }
    let top_aces = (first_card.count(1, 1) - fair.count(1, 1)) as f64 / shuffles as f64;
    assert!((0.0085..0.0100).contains(&top_aces), "the top card was an ace {top_aces} more often");
    let t = first_card.test(n);
    assert!(t.rejects(), "first card rigged in 1 % of shuffles, every position: {t}");
    let early = aces_early.count(1, n / 4) as f64 / fair.count(1, n / 4) as f64 - 1.0;
    assert!((0.009..0.011).contains(&early), "aces in the first quarter grew by {early}");
    let t = aces_early.test(4);
    assert!(t.rejects(), "aces 1 % too common in the first quarter, in quarters: {t}");
}

/// The fair shoes pass; the rigged ones, rigged by the amount claimed, fail.
fn check_adjacent_pairs(decks: u8, shuffles: u64, first_seed: u64) {
    let [fair, rigged] = adjacent_pairs(decks, shuffles, first_seed);
    let t = fair.test();
    assert!(!t.rejects(), "fair: {t}");
    let excess = rigged.same_rank() as f64 / fair.same_rank() as f64 - 1.0;
    assert!((0.009..0.011).contains(&excess), "same-rank pairs grew by {excess}");
    let t = rigged.test();
    assert!(t.rejects(), "same-rank pairs 1 % too common: {t}");
}

#[test]
fn rank_by_position_single_deck() {
    check_rank_by_position(1, POSITION_SHUFFLES_1, 1 << 32);
}

#[test]
fn rank_by_position_six_decks() {
    check_rank_by_position(6, POSITION_SHUFFLES_6, 2 << 32);
}

#[test]
fn adjacent_pairs_single_deck() {
    check_adjacent_pairs(1, PAIR_SHUFFLES_1, 3 << 32);
}

#[test]
fn adjacent_pairs_six_decks() {
    check_adjacent_pairs(6, PAIR_SHUFFLES_6, 4 << 32);
}

/// A shuffle, right or wrong.
type Shuffle = fn(&mut [Card], &mut Pcg64);

/// Every card swapped with any card: `n^n` equally likely paths cannot
/// spread evenly over `n!` orders.
fn naive_shuffle(cards: &mut [Card], rng: &mut Pcg64) {
    for i in 0..cards.len() {
        cards.swap(i, draw_index(below(rng, draw_bound(cards.len()))));
    }
}

/// Fisher–Yates off by one (Sattolo's algorithm): no card stays in place.
fn off_by_one_shuffle(cards: &mut [Card], rng: &mut Pcg64) {
    for i in (1..cards.len()).rev() {
        cards.swap(i, draw_index(below(rng, draw_bound(i))));
    }
}

/// The two classic ways to get Fisher–Yates wrong are caught in a small
/// fraction of the shuffles the fair tests use.
#[test]
fn the_classic_shuffle_mistakes_fail() {
    let mistakes: [(&str, Shuffle); 2] = [("naive", naive_shuffle), ("off by one", off_by_one_shuffle)];
    for (name, mistake) in mistakes {
        let mut table = RankByPosition::new(52);
        shuffled(1, seeds(5 << 32, 20_000), mistake, |cards| table.add(cards));
        let t = table.test(52);
        assert!(t.rejects(), "{name}: {t}");
    }
}

// The noncentrality a bias of 1 adds over `shuffles` shuffles (the sizing in
// the module's documentation): `lambda` is this times the bias squared.

/// The first card forced to one rank in a fraction of shuffles.
fn first_card_lambda(cards: usize, shuffles: u64) -> f64 {
    12.0 * shuffles as f64 / position_scale(cards)
}

/// One rank at one position more common by a fraction (the other ranks
/// there less common in step): `(1 + 1/12) / 13` a shuffle.
fn position_cell_lambda(cards: usize, shuffles: u64) -> f64 {
    shuffles as f64 / 12.0 / position_scale(cards)
}

/// One rank more common by a fraction over a whole quarter, drawn evenly
/// from the other quarters: `(1 + 1/3 + 1/12 + 1/36) A`, `A = n / 52`.
fn quarter_lambda(cards: usize, shuffles: u64) -> f64 {
    52.0 / 36.0 * (cards as f64 / 52.0) * shuffles as f64 / position_scale(cards)
}

/// Same-rank pairs more common by a fraction.
fn same_rank_lambda(null: &PairNull, shuffles: u64) -> f64 {
    null.same_rank() * shuffles as f64 / null.scale
}

/// One pair of different ranks more common by a fraction.
fn pair_cell_lambda(null: &PairNull, shuffles: u64) -> f64 {
    null.mean[1] * shuffles as f64 / null.scale
}

#[test]
fn the_sizes_give_the_power_claimed() {
    let full = |cards: usize| ((cards - 1) * (RANKS - 1)) as f64;
    for (cards, shuffles) in [(52, POSITION_SHUFFLES_1), (312, POSITION_SHUFFLES_6)] {
        assert!(smallest_bias(full(cards), first_card_lambda(cards, shuffles)) <= 0.01, "{cards} cards");
        assert!(smallest_bias(36.0, quarter_lambda(cards, shuffles)) <= 0.01, "{cards} cards");
    }
    for (cards, shuffles) in [(52, PAIR_SHUFFLES_1), (312, PAIR_SHUFFLES_6)] {
        let null = PairNull::new(cards);
        assert!(smallest_bias(null.df, same_rank_lambda(&null, shuffles)) <= 0.01, "{cards} cards");
    }
}

#[test]
fn pair_null_moments_are_exact() {
    for cards in [52, 312] {
        let null = PairNull::new(cards);
        let total: f64 = null.mean.iter().sum();
        assert!((total - cards as f64).abs() < 1e-9, "{total}");
        // Same rank: (4d - 1) / (n - 1) of the n pairs.
        let per_rank = (cards / RANKS) as f64;
        let same = cards as f64 * (per_rank - 1.0) / (cards as f64 - 1.0);
        assert!((null.same_rank() - same).abs() < 1e-9);
        // 169 cells less the 25 directions that fixed margins pin.
        assert!((null.df - 144.0).abs() < 0.1 && (null.scale - 1.0).abs() < 0.02, "{} {}", null.df, null.scale);
    }
}

/// The larger run behind `docs/shuffle-fairness.md`: fair shuffles only,
/// tens of millions of them, with the figures printed and the smallest
/// bias each test would catch with 99.9 % power.
#[test]
// One to two minutes on two cores in release; the figures in
// docs/shuffle-fairness.md.
#[ignore = "soak"]
fn shuffle_fairness_large() {
    let positions = |decks: usize, shuffles: u64, first_seed: u64| {
        move || {
            let mut table = RankByPosition::new(decks * 52);
            shuffled(decks, seeds(first_seed, shuffles), shuffle, |cards| table.add(cards));
            table
        }
    };
    let pairs = |decks: u8, shuffles: u64, first_seed: u64| {
        move || {
            let mut table = AdjacentPairs::new(PairNull::new(usize::from(decks) * 52));
            dealt(decks, seeds(first_seed, shuffles), |cards| table.add(cards));
            table
        }
    };
    let start = std::time::Instant::now();
    let (positions_1, positions_6, pairs_1, pairs_6) = std::thread::scope(|s| {
        let p1 = s.spawn(positions(1, 50_000_000, 6 << 32));
        let p6 = s.spawn(positions(6, 80_000_000, 7 << 32));
        let a1 = s.spawn(pairs(1, 50_000_000, 8 << 32));
        let a6 = s.spawn(pairs(6, 10_000_000, 9 << 32));
        (p1.join().unwrap(), p6.join().unwrap(), a1.join().unwrap(), a6.join().unwrap())
    });
    let percent = |bias: f64| format!("{:.2} %", 100.0 * bias);
    let mut all = Vec::new();
    for table in [&positions_1, &positions_6] {
        let (n, shuffles) = (table.counts.len(), table.shuffles);
        println!("rank by position, {n} cards, {shuffles} shuffles (shuffle)");
        let t = table.test(n);
        let cell = smallest_bias(t.df, position_cell_lambda(n, shuffles));
        let top = smallest_bias(t.df, first_card_lambda(n, shuffles));
        println!("  every position: {t}");
        println!("    sees one rank at one position off by {}, a first card rigged in {}", percent(cell), percent(top));
        let q = table.test(4);
        let quarter = smallest_bias(q.df, quarter_lambda(n, shuffles));
        println!("  quarters:       {q}");
        println!("    sees one rank off by {} over a quarter", percent(quarter));
        all.extend([t, q]);
    }
    for table in [&pairs_1, &pairs_6] {
        let (n, shuffles) = (table.null.cards, table.shuffles);
        println!("adjacent pairs, {n} cards, {shuffles} shoes (Shoe::seeded, dealt)");
        let t = table.test();
        let same = smallest_bias(t.df, same_rank_lambda(&table.null, shuffles));
        let cell = smallest_bias(t.df, pair_cell_lambda(&table.null, shuffles));
        println!("  13 x 13 pairs:  {t} (scale {:.4})", table.null.scale);
        println!("    sees same-rank pairs off by {}, one pair of ranks off by {}", percent(same), percent(cell));
        all.push(t);
    }
    println!("{:.0} s", start.elapsed().as_secs_f64());
    assert!(all.iter().all(|t| !t.rejects()), "{all:?}");
}

/// The null distributions above, checked: 10,000 small independent runs of
/// each statistic on fair shuffles, with the statistic's mean and variance
/// and how often it rejects at p = 0.05, 0.01 and 0.001.
#[test]
// About 15 s in release; the calibration quoted in docs/shuffle-fairness.md.
#[ignore = "soak"]
fn shuffle_fairness_calibration() {
    const RUNS: u64 = 10_000;
    for (decks, shuffles) in [(1u8, 1_000), (6, 300)] {
        let n = usize::from(decks) * 52;
        let null = PairNull::new(n);
        let mut runs = Vec::new();
        for run in 0..RUNS {
            let mut positions = RankByPosition::new(n);
            let mut pairs = AdjacentPairs::new(null);
            let first = u64::from(decks) << 40 | run << 20;
            shuffled(usize::from(decks), seeds(10 << 44 | first, shuffles), shuffle, |cards| positions.add(cards));
            dealt(decks, seeds(11 << 44 | first, shuffles), |cards| pairs.add(cards));
            runs.push([positions.test(n), positions.test(4), pairs.test()]);
        }
        for (k, name) in ["every position", "quarters", "adjacent pairs"].into_iter().enumerate() {
            let statistics: Vec<f64> = runs.iter().map(|r| r[k].statistic).collect();
            let df = runs[0][k].df;
            let mean = statistics.iter().sum::<f64>() / RUNS as f64;
            let variance = statistics.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (RUNS - 1) as f64;
            let rejected = |z: f64| {
                let critical = chi_square_quantile(df, z);
                100.0 * statistics.iter().filter(|&&x| x > critical).count() as f64 / RUNS as f64
            };
            println!(
                "{n} cards, {name}, {shuffles} shuffles a run: df {df:.1}, mean {mean:.1}, variance {variance:.0} \
                 (chi-square: {:.0}), rejected at p = 0.05: {:.2} %, 0.01: {:.2} %, 0.001: {:.2} %",
                2.0 * df,
                rejected(1.644_853_6),
                rejected(2.326_347_9),
                rejected(Z_999)
            );
        }
    }
}
