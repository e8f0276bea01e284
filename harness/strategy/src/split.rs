//! Splitting a pair, with resplits, by the standard approximation.
//!
//! Each split hand is valued exactly from its own composition, drawing
//! from the shoe without the up card and both pair cards; what the other
//! split hands draw is not removed. Resplits follow the number of hands
//! so far: each hand's second card is the pair's rank with the chance `q`
//! of the shoe after the split, independently, and a hand that gets one
//! splits again while the rules allow (a hand that cannot is played as
//! the pair it holds). This is the approximation the Wizard of Odds'
//! appendix 9 tables describe ("only considered how many hands the
//! player had already split, but not the other cards drawn").

use std::collections::HashMap;

use crate::deck::{ACE, Hand};
use crate::hand::{Options, two_card};
use crate::player::{Ctx, Policy};

/// One split hand's expectations.
#[derive(Clone, Copy, Debug)]
struct Branches {
    /// Chance the second card pairs again.
    q: f64,
    /// Expectation when it does not (given that).
    other: f64,
    /// Expectation when it does and cannot split again.
    paired: f64,
}

/// The split hands of one pair against one up card: a context drawing
/// from the shoe without the other hand's pair card.
fn branches(ctx: &mut Ctx, pair: usize, policy: Policy<'_>) -> Branches {
    let start = Hand::of(&[pair]);
    let p = ctx.next_card(&start);
    let mut other = 0.0;
    for (r, &pr) in p.iter().enumerate().filter(|&(r, p)| r != pair && *p > 0.0) {
        other += pr * split_hand(ctx, &start.with(r), pair, policy);
    }
    let q = p[pair];
    Branches {
        q,
        other: if q < 1.0 { other / (1.0 - q) } else { 0.0 },
        paired: split_hand(ctx, &start.with(pair), pair, policy),
    }
}

/// A two-card hand from a split of `pair`: split aces stand on their one
/// card.
fn split_hand(ctx: &mut Ctx, hand: &Hand, pair: usize, policy: Policy<'_>) -> f64 {
    if pair == ACE {
        return ctx.stand(hand);
    }
    let options = Options::after_split(ctx, hand);
    two_card(ctx, hand, options, policy)
}

/// The expectation of all hands from splitting, per original bet, given
/// `splits` more splits allowed (`None`: unlimited) and `pending` hands
/// waiting for their second card.
fn resplits(b: Branches, pending: u32, splits: Option<u32>, memo: &mut HashMap<(u32, u32), f64>) -> f64 {
    let Some(left) = splits else {
        // Unlimited: each hand ends unpaired; a hand makes on average
        // (1 - q) / (1 - 2q) final hands.
        // (A shoe so short that q reaches 1/2 is capped there.)
        let q = b.q.min(0.45);
        return f64::from(pending) * b.other * (1.0 - q) / (1.0 - 2.0 * q);
    };
    if pending == 0 {
        return 0.0;
    }
    if let Some(v) = memo.get(&(pending, left)) {
        return *v;
    }
    let paired = if left > 0 {
        resplits(b, pending + 1, Some(left - 1), memo)
    } else {
        b.paired + resplits(b, pending - 1, Some(0), memo)
    };
    let v = b.q * paired + (1.0 - b.q) * (b.other + resplits(b, pending - 1, Some(left), memo));
    memo.insert((pending, left), v);
    v
}

/// Splitting `pair`, resplitting whenever allowed. `ctx` must draw from
/// the shoe without the up card and the other pair card; with
/// `first_loses` (a dealer natural takes only the original bet) it holds
/// a context where one hand's stand loses one bet to a natural.
pub fn split(ctx: &mut Ctx, first_loses: Option<&mut Ctx>, pair: usize, policy: Policy<'_>) -> f64 {
    let b = branches(ctx, pair, policy);
    let game = &ctx.game;
    let splits = if pair == ACE && !game.resplit_aces {
        Some(0)
    } else if game.max_hands == 0 {
        None
    } else {
        Some(u32::from(game.max_hands.saturating_sub(2)))
    };
    let mut v = resplits(b, 2, splits, &mut HashMap::new());
    if let Some(first) = first_loses {
        // The leftmost hand keeps the original bet: value it once with the
        // natural's loss instead of without.
        let with = branches(first, pair, policy);
        v += (1.0 - with.q) * with.other + with.q * with.paired - ((1.0 - b.q) * b.other + b.q * b.paired);
    }
    v
}
