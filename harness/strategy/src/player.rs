//! The player's expectation for one hand against one up card: standing,
//! hitting (then playing on by a policy), doubling.
//!
//! A [`Ctx`] fixes the up card and the shoe the hand draws from; hands
//! are compositions, so every value is composition-dependent and exact
//! for that hand (other hands' cards, e.g. a split partner's draws, are
//! not removed). With a peek the dealer is known to hold no natural:
//! the hole card is not the natural's partner and is not among the cards
//! the player draws, which changes both the dealer's distribution and
//! the chance of each player card.

use std::collections::HashMap;
use std::sync::Arc;

use crate::chart::Chart;
use crate::dealer::{BUST, DealerTable, NATURAL, Outcomes};
use crate::deck::{Hand, RANKS, Shoe};
use crate::game::Game;

/// How a hand is played on after it hits.
#[derive(Clone, Copy, Debug)]
pub enum Policy<'c> {
    /// The best play for each composition.
    Optimal,
    /// The chart's total-dependent play.
    Chart(&'c Chart),
}

/// One up card and the shoe a hand draws from.
#[derive(Debug)]
pub struct Ctx {
    /// The rules.
    pub game: Game,
    /// The dealer's draws from the up card.
    pub table: Arc<DealerTable>,
    /// The dealer's up card.
    pub up: usize,
    /// The shoe the hand's cards came from (up card and any other known
    /// card removed, the hand's own cards not).
    pub shoe: Shoe,
    /// Chips a standing hand loses to a dealer natural, at one and two
    /// bets (no hole card: the whole stake, or only the original bet).
    pub natural_loss: [f64; 2],
    dealer: HashMap<u64, Outcomes, KeyHash>,
    memo: HashMap<u64, f64, KeyHash>,
}

/// Hashes a hand's key (its counts packed in a `u64`) with a multiply:
/// the maps above are the exact analyzer's hottest after the dealer's
/// sums, and their keys are no one's input.
type KeyHash = std::hash::BuildHasherDefault<KeyHasher>;

/// See [`KeyHash`].
#[derive(Default)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        // A product's low bits see only the key's low bits: fold the
        // high half (which sees all of them) down, where buckets are.
        self.0 ^ self.0 >> 32
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Ctx {
    /// A context for the table's up card, drawing from `shoe`.
    pub fn new(game: &Game, table: &Arc<DealerTable>, shoe: Shoe) -> Ctx {
        let natural_loss = if game.original_bets_only { [1.0, 1.0] } else { [1.0, 2.0] };
        Ctx {
            game: game.clone(),
            table: Arc::clone(table),
            up: table.up(),
            shoe,
            natural_loss,
            dealer: HashMap::default(),
            memo: HashMap::default(),
        }
    }

    /// Forgets the values of hands played on (after a policy change).
    pub fn forget(&mut self) {
        self.memo.clear();
    }

    /// The dealer's outcomes once `hand` is out of the shoe.
    pub fn dealer(&mut self, hand: &Hand) -> Outcomes {
        let key = hand.key();
        if let Some(o) = self.dealer.get(&key) {
            return *o;
        }
        let o = self.table.outcomes(&self.shoe.less(hand), self.game.conditioned(self.up));
        self.dealer.insert(key, o);
        o
    }

    /// The chance of each rank as the hand's next card.
    pub fn next_card(&self, hand: &Hand) -> [f64; RANKS] {
        let left = self.shoe.less(hand);
        let n = left.total();
        let mut p = [0.0; RANKS];
        match self.game.conditioned(self.up) {
            None => {
                for (p, c) in p.iter_mut().zip(&left.counts) {
                    *p = c.max(0.0) / n;
                }
            }
            // The hole card is one of the other ranks, uniformly among
            // those cards: each other rank is one card scarcer on average.
            Some(barred) => {
                let allowed = n - left.counts[barred];
                for (r, p) in p.iter_mut().enumerate() {
                    let c = left.counts[r].max(0.0);
                    *p = if r == barred { c / (n - 1.0) } else { c * (allowed - 1.0) / (allowed * (n - 1.0)) };
                }
            }
        }
        p
    }

    /// The chance the dealer holds a natural once `hand` is out (0 with a
    /// peek: play only goes on without one).
    pub fn natural(&mut self, hand: &Hand) -> f64 {
        self.dealer(hand)[NATURAL]
    }

    /// Standing on `total` with `bets` (1 or 2) on the hand.
    pub fn stand_on(&mut self, hand: &Hand, total: u8, bets: usize) -> f64 {
        let o = self.dealer(hand);
        let mut ev = o[BUST];
        for (i, p) in o[..5].iter().enumerate() {
            ev += p * self.game.showdown(total, 17 + i as u8);
        }
        ev * bets as f64 - o[NATURAL] * self.natural_loss[bets - 1]
    }

    /// Standing.
    pub fn stand(&mut self, hand: &Hand) -> f64 {
        self.stand_on(hand, hand.best(), 1)
    }

    /// Hitting, then playing on by `policy`.
    pub fn hit(&mut self, hand: &Hand, policy: Policy<'_>) -> f64 {
        let p = self.next_card(hand);
        let mut ev = 0.0;
        for (r, &pr) in p.iter().enumerate().filter(|(_, p)| **p > 0.0) {
            ev += pr * self.play_on(&hand.with(r), policy);
        }
        ev
    }

    /// Doubling: one card, then standing with two bets. After a soft
    /// double where aces turn low, the total counts every ace as 1.
    pub fn double(&mut self, hand: &Hand) -> f64 {
        let low = self.game.aces_low && hand.is_soft();
        let p = self.next_card(hand);
        let mut ev = 0.0;
        for (r, &pr) in p.iter().enumerate().filter(|(_, p)| **p > 0.0) {
            let next = hand.with(r);
            let value = if next.is_bust() {
                -2.0
            } else {
                let total = if low { next.hard } else { next.best() };
                self.stand_on(&next, total, 2)
            };
            ev += pr * value;
        }
        ev
    }

    /// A hand that may only hit or stand (three or more cards), played by
    /// `policy`; 21 stands, a bust loses.
    pub fn play_on(&mut self, hand: &Hand, policy: Policy<'_>) -> f64 {
        if hand.is_bust() {
            return -1.0;
        }
        if hand.best() == 21 {
            return self.stand(hand);
        }
        let key = hand.key();
        if let Some(v) = self.memo.get(&key) {
            return *v;
        }
        let v = match policy {
            Policy::Optimal => {
                let stand = self.stand(hand);
                stand.max(self.hit(hand, policy))
            }
            Policy::Chart(chart) => {
                if chart.cell(hand.is_soft(), hand.best(), self.up).more_hit {
                    self.hit(hand, policy)
                } else {
                    self.stand(hand)
                }
            }
        };
        self.memo.insert(key, v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deck::{ACE, TEN};
    use pitboss_engine::Rules;

    #[test]
    fn next_card_chances_sum_to_one_with_and_without_a_peek() {
        let game = Game::new(&Rules::north_american()).unwrap();
        for up in [ACE, 5, TEN] {
            let table = Arc::new(DealerTable::new(up, false));
            let ctx = Ctx::new(&game, &table, Shoe::decks(6.0).without(up));
            let p = ctx.next_card(&Hand::of(&[TEN, 5]));
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{p:?}");
        }
    }

    #[test]
    fn sixteen_against_ten_is_close() {
        // Six decks S17, 10+6 against a ten after the peek: hitting beats
        // standing by about half a percent, and both lose about 54 %.
        let game = Game::new(&Rules::north_american()).unwrap();
        let table = Arc::new(DealerTable::new(TEN, false));
        let mut ctx = Ctx::new(&game, &table, Shoe::decks(6.0).without(TEN));
        let hand = Hand::of(&[TEN, 5]); // rank 5 is the six
        let (stand, hit) = (ctx.stand(&hand), ctx.hit(&hand, Policy::Optimal));
        eprintln!("stand {stand} hit {hit}");
        assert!((stand + 0.54).abs() < 0.01 && hit > stand && hit - stand < 0.01, "{stand} {hit}");
    }
}
