//! Total-dependent basic strategy from the exact expectations.
//!
//! Each up card's column is independent. Three or more cards: for each
//! total, from the highest down (hard 20–11, soft 20–12, hard 10–4, so a
//! hit only ever leads to decided totals), hit when hitting beats
//! standing summed over every composition of that total, each weighted by
//! its chance of being dealt (with a peek, given no dealer natural). Two
//! cards: the best of stand, hit, double and surrender summed the same
//! way over the two-card hands of the total, with the better of hit and
//! stand as the fallback. Pairs: split when splitting, played by the
//! chart, beats playing the pair by its total. The two-card rows count
//! the pairs the chart does not split, so rows and pairs are decided in
//! turn until both have been settled twice.

use serde::Serialize;

use crate::analyzer::Analyzer;
use crate::chart::{Chart, Code, HARD_MIN, HARD_ROWS, Play, SOFT_MIN, SOFT_ROWS};
use crate::deck::{Hand, RANKS, hands_up_to_21};
use crate::offtop::natural_chance;
use crate::player::Policy;

/// How much each chart decision is worth: the expectation of the chosen
/// play less that of the next best, per bet on the hand, averaged over
/// the hands the cell covers.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Margins {
    /// Hard totals 4–21, first two cards.
    pub hard: [[f64; RANKS]; HARD_ROWS],
    /// Soft totals 12–21, first two cards.
    pub soft: [[f64; RANKS]; SOFT_ROWS],
    /// Hard totals, three or more cards (hit against stand).
    pub hard_more: [[f64; RANKS]; HARD_ROWS],
    /// Soft totals, three or more cards.
    pub soft_more: [[f64; RANKS]; SOFT_ROWS],
    /// Pairs by rank: split against the pair played by its total.
    pub split: [[f64; RANKS]; RANKS],
}

impl Margins {
    fn two(&mut self, soft: bool, best: u8, up: usize) -> &mut f64 {
        if soft {
            &mut self.soft[usize::from(best - SOFT_MIN)][up]
        } else {
            &mut self.hard[usize::from(best - HARD_MIN)][up]
        }
    }

    fn more(&mut self, soft: bool, best: u8, up: usize) -> &mut f64 {
        if soft {
            &mut self.soft_more[usize::from(best - SOFT_MIN)][up]
        } else {
            &mut self.hard_more[usize::from(best - HARD_MIN)][up]
        }
    }
}

/// A hand's weight in its chart cell.
fn weight(an: &Analyzer, up: usize, hand: &Hand) -> f64 {
    let dealt = an.shoe.without(up).chance_of(hand);
    if an.game.peek { dealt * (1.0 - natural_chance(an, up, hand)) } else { dealt }
}

/// The chart for the analyzer's rule set, with each decision's margin.
pub fn derive(an: &mut Analyzer) -> (Chart, Margins) {
    let mut chart = Chart::dealer_like();
    let mut margins = Margins::default();
    an.forget();
    for up in 0..RANKS {
        more_cards(an, up, &mut chart, &mut margins);
        two_cards(an, up, &mut chart, &mut margins);
    }
    if an.game.splits {
        for _ in 0..2 {
            pairs(an, &mut chart, &mut margins);
            for up in 0..RANKS {
                two_cards(an, up, &mut chart, &mut margins);
            }
        }
        pairs(an, &mut chart, &mut margins);
    }
    an.forget();
    (chart, margins)
}

/// The rows of three or more cards, in an order where hitting only ever
/// reaches rows already decided.
fn more_cards(an: &mut Analyzer, up: usize, chart: &mut Chart, margins: &mut Margins) {
    let hands: Vec<(Hand, f64)> = hands_up_to_21(&an.shoe.without(up), 3)
        .into_iter()
        .filter(|h| h.best() < 21)
        .map(|h| (h, weight(an, up, &h)))
        .collect();
    let order = (11..=20)
        .rev()
        .map(|t| (false, t))
        .chain((12..=20).rev().map(|t| (true, t)))
        .chain((4..=10).rev().map(|t| (false, t)));
    for (soft, best) in order {
        let (mut gain, mut total) = (0.0, 0.0);
        for (hand, w) in hands.iter().filter(|(h, _)| h.is_soft() == soft && h.best() == best) {
            let ctx = an.ctx(up);
            gain += w * (ctx.hit(hand, Policy::Chart(chart)) - ctx.stand(hand));
            total += w;
        }
        if total > 0.0 {
            chart.cell_mut(soft, best, up).more_hit = gain > 0.0;
            *margins.more(soft, best, up) = gain.abs() / total;
        }
    }
}

/// The two-card rows: each total's best play over its hands.
fn two_cards(an: &mut Analyzer, up: usize, chart: &mut Chart, margins: &mut Margins) {
    let mut sums: Vec<((bool, u8), [f64; 5], f64)> = Vec::new();
    for a in 0..RANKS {
        for b in a..RANKS {
            let hand = Hand::of(&[a, b]);
            if hand.best() == 21 || (a == b && an.game.splits && chart.split[a][up]) {
                continue;
            }
            let w = weight(an, up, &hand);
            if w <= 0.0 {
                continue;
            }
            let plays = an.plays(up, &hand, Policy::Chart(chart));
            let key = (hand.is_soft(), hand.best());
            let slot = match sums.iter().position(|(k, _, _)| *k == key) {
                Some(i) => i,
                None => {
                    sums.push((key, [0.0; 5], 0.0));
                    sums.len() - 1
                }
            };
            let s = &mut sums[slot];
            for (play, v) in plays.list() {
                s.1[play as usize] += w * v;
            }
            s.1[Play::Split as usize] = f64::NEG_INFINITY;
            if plays.double.is_none() {
                s.1[Play::Double as usize] = f64::NEG_INFINITY;
            }
            if plays.surrender.is_none() {
                s.1[Play::Surrender as usize] = f64::NEG_INFINITY;
            }
            s.2 += w;
        }
    }
    for ((soft, best), evs, total) in sums {
        let mut ranked: Vec<(Play, f64)> =
            [Play::Stand, Play::Hit, Play::Double, Play::Surrender].iter().map(|&p| (p, evs[p as usize])).collect();
        ranked.sort_by(|x, y| y.1.total_cmp(&x.1));
        let hit = evs[Play::Hit as usize] > evs[Play::Stand as usize];
        let first = matches!(ranked[0].0, Play::Double | Play::Surrender).then_some(ranked[0].0);
        chart.cell_mut(soft, best, up).two = Code::of(first, hit);
        *margins.two(soft, best, up) = (ranked[0].1 - ranked[1].1) / total;
    }
}

/// Split or not, for every pair and up card.
fn pairs(an: &mut Analyzer, chart: &mut Chart, margins: &mut Margins) {
    for pair in 0..RANKS {
        for up in 0..RANKS {
            let hand = Hand::of(&[pair, pair]);
            if weight(an, up, &hand) <= 0.0 {
                continue;
            }
            let split = an.split(up, pair, Policy::Chart(chart));
            let unsplit = an.unsplit(up, &hand, Policy::Chart(chart));
            chart.split[pair][up] = split > unsplit;
            margins.split[pair][up] = (split - unsplit).abs();
        }
    }
}
