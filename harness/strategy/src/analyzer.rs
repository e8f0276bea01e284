//! `Analyzer`: one rule set's contexts (one per up card, one per pair and
//! up card for splits), kept so dealer probabilities are computed once
//! per composition however many policies are valued.

use std::sync::Arc;

use crate::dealer::DealerTable;
use crate::deck::{Hand, RANKS, Shoe};
use crate::game::Game;
use crate::hand::{Options, Plays, two_card};
use crate::player::{Ctx, Policy};
use crate::split::split;

/// Contexts for splitting one pair against one up card.
#[derive(Debug)]
struct Splits {
    ctx: Ctx,
    /// With a natural taking only the original bet: the leftmost hand.
    first: Option<Ctx>,
}

/// The contexts of one rule set.
#[derive(Debug)]
pub struct Analyzer {
    /// The rules.
    pub game: Game,
    /// The full shoe.
    pub shoe: Shoe,
    ups: Vec<Ctx>,
    splits: Vec<Option<Splits>>,
}

impl Analyzer {
    /// An analyzer for `game` off the top of `shoe`.
    pub fn new(game: Game, shoe: Shoe) -> Analyzer {
        let tables: Vec<Arc<DealerTable>> =
            (0..RANKS).map(|up| Arc::new(DealerTable::new(up, game.hits_soft_17))).collect();
        let ups = tables.iter().map(|t| Ctx::new(&game, t, shoe.without(t.up()))).collect();
        Analyzer { game, shoe, ups, splits: (0..RANKS * RANKS).map(|_| None).collect() }
    }

    /// The same rules off the top of another shoe (a true count's), the
    /// dealer's enumerations shared.
    pub fn with_shoe(&self, shoe: Shoe) -> Analyzer {
        let ups = self.ups.iter().map(|c| Ctx::new(&self.game, &c.table, shoe.without(c.up))).collect();
        Analyzer { game: self.game.clone(), shoe, ups, splits: (0..RANKS * RANKS).map(|_| None).collect() }
    }

    /// The context of up card `up`.
    pub fn ctx(&mut self, up: usize) -> &mut Ctx {
        &mut self.ups[up]
    }

    /// Forgets every value of hands played on (dealer probabilities stay).
    pub fn forget(&mut self) {
        self.ups.iter_mut().for_each(Ctx::forget);
        for s in self.splits.iter_mut().flatten() {
            s.ctx.forget();
            if let Some(f) = &mut s.first {
                f.forget();
            }
        }
    }

    /// Every play's expectation for a two-card hand from the deal (no
    /// split).
    pub fn plays(&mut self, up: usize, hand: &Hand, policy: Policy<'_>) -> Plays {
        let ctx = &mut self.ups[up];
        let options = Options::initial(ctx, hand);
        Plays::of(ctx, hand, options, policy)
    }

    /// A hand from the deal played by `policy` without splitting.
    pub fn unsplit(&mut self, up: usize, hand: &Hand, policy: Policy<'_>) -> f64 {
        let ctx = &mut self.ups[up];
        let options = Options::initial(ctx, hand);
        two_card(ctx, hand, options, policy)
    }

    /// Splitting a pair of `pair` against `up`.
    pub fn split(&mut self, up: usize, pair: usize, policy: Policy<'_>) -> f64 {
        let slot = &mut self.splits[pair * RANKS + up];
        let s = slot.get_or_insert_with(|| {
            let base = &self.ups[up];
            let shoe = base.shoe.without(pair);
            let mut ctx = Ctx::new(&base.game, &base.table, shoe);
            let first = base.game.original_bets_only.then(|| {
                let mut f = Ctx::new(&base.game, &base.table, shoe);
                f.natural_loss = [1.0, 1.0];
                f
            });
            if first.is_some() {
                ctx.natural_loss = [0.0, 0.0];
            }
            Splits { ctx, first }
        });
        split(&mut s.ctx, s.first.as_mut(), pair, policy)
    }

    /// A hand from the deal played by `policy`, splitting as it says (for
    /// the optimal policy: when splitting is best).
    pub fn value(&mut self, up: usize, hand: &Hand, policy: Policy<'_>) -> f64 {
        let pair = (hand.len == 2).then(|| hand.counts.iter().position(|&n| n == 2)).flatten();
        let unsplit = self.unsplit(up, hand, policy);
        match (pair, policy) {
            (Some(p), Policy::Optimal) if self.game.splits => unsplit.max(self.split(up, p, policy)),
            (Some(p), Policy::Chart(chart)) if self.game.splits && chart.split[p][up] => self.split(up, p, policy),
            _ => unsplit,
        }
    }
}
