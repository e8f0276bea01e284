//! Splitting a pair with resplits chosen optimally: the value of a split
//! for the coach.
//!
//! The analyzer's own split (`crate::split`) resplits every
//! time a hand pairs again while the rules allow. That is right for the
//! pairs optimal play splits off the top, but a coach also values the
//! splits a bot should not make (tens against a ten): there, forced
//! resplits make the split look far worse than it is. Here a hand that
//! pairs again resplits only when that is worth more than playing the
//! pair. The approximation is the analyzer's: each split hand is valued
//! exactly from its own composition, the cards other split hands draw
//! are not removed, and a hand's second card pairs it with the chance
//! the shoe after the split gives, independently of the other hands.

use std::sync::Arc;

use crate::deck::{ACE, Hand, Shoe};
use crate::hand::{Options, two_card};
use crate::player::{Ctx, Policy};

/// More splits than this count as this many: with a pairing chance
/// under one half, what lies beyond is below 2⁻¹⁶ of a bet.
pub const SPLITS_CAP: u32 = 16;

/// A split hand's values: a context drawing from the shoe without the up
/// card and the other pair card, and its expectations.
#[derive(Debug)]
pub struct SplitCtx {
    ctx: Ctx,
    pair: usize,
    /// Chance a hand's second card pairs it again.
    q: f64,
    /// A hand's expectation when it does not (given that).
    other: f64,
    /// A hand's expectation when it does and plays the pair on.
    paired: f64,
}

impl SplitCtx {
    /// Splitting `pair` against `base`'s up card (`base` draws from the
    /// shoe without the up card).
    pub fn new(base: &Ctx, pair: usize) -> SplitCtx {
        let shoe: Shoe = base.shoe.without(pair);
        let mut ctx = Ctx::new(&base.game, &Arc::clone(&base.table), shoe);
        let start = Hand::of(&[pair]);
        let p = ctx.next_card(&start);
        let mut other = 0.0;
        for (r, &pr) in p.iter().enumerate().filter(|&(r, p)| r != pair && *p > 0.0) {
            other += pr * split_hand(&mut ctx, &start.with(r), pair);
        }
        let q = p[pair];
        let other = if q < 1.0 { other / (1.0 - q) } else { 0.0 };
        let paired = split_hand(&mut ctx, &start.with(pair), pair);
        SplitCtx { ctx, pair, q, other, paired }
    }

    /// The expectation of the hands a split makes, per bet of one hand,
    /// when `left` more splits are allowed after it and resplits are
    /// chosen where they pay.
    pub fn value(&self, left: u32) -> f64 {
        let may_resplit = self.pair != ACE || self.ctx.game.resplit_aces;
        let left = if may_resplit { left.min(SPLITS_CAP) } else { 0 };
        // w[n][l]: `n` hands waiting for their second card, `l` splits
        // left. A waiting hand that pairs either plays the pair or splits
        // into two waiting hands, whichever is worth more.
        let most = (left + 2) as usize;
        let mut w = vec![vec![0.0; left as usize + 1]; most + 1];
        for l in 0..=left as usize {
            for n in 1..=most {
                let rest = w[n - 1][l];
                let play = self.paired + rest;
                let resplit = if l > 0 && n < most { w[n + 1][l - 1] } else { f64::NEG_INFINITY };
                w[n][l] = (1.0 - self.q) * (self.other + rest) + self.q * play.max(resplit);
            }
        }
        w[2][left as usize]
    }
}

/// A two-card hand from a split of `pair`: split aces stand on their one
/// card.
fn split_hand(ctx: &mut Ctx, hand: &Hand, pair: usize) -> f64 {
    if pair == ACE {
        return ctx.stand(hand);
    }
    let options = Options::after_split(ctx, hand);
    two_card(ctx, hand, options, Policy::Optimal)
}
