//! The luck of the cards, cheaply: fixed value tables off the top of a
//! full shoe, for a league's luck-adjusted results (and the chance of the
//! next card, which the coach shares).
//!
//! As in AIVAT (Burch, Schmid, Moravčík, Morrill and Bowling, AAAI 2018),
//! each card a round reveals is a chance event whose luck is V(after the
//! card) − E[V(after)] over the card's distribution given everything
//! revealed before it. Each term has mean zero whatever V is, so the
//! result less the sum is unbiased; a V close to the true value makes its
//! spread small. Here V is a handful of lookups, so that a recorder can
//! take it at every table of every league:
//!
//! - **the deal**, card by card: the deal table of [`Valuer`] (each up
//!   card and two-card hand played optimally off the top), averaged off
//!   the top over the cards not yet dealt (the box's first card, then the
//!   up card, then its second card), and an Over/Under 13 bet's payoff;
//! - **a card to a hand after the deal**: the value off the top of the
//!   hand it makes, by hard total and whether it holds an ace (hit), by
//!   total with two bets (double), or of the split hand's two cards;
//! - **a dealer card**: the live hands' payoff against the dealer's
//!   outcomes from its cards so far, by hard total and ace, from a shoe of
//!   the full shoe's proportions.
//!
//! What is not valued keeps its luck (insurance and even money, the peek
//! itself, back bets): that costs spread, never bias.

use pitboss_engine::Rules;
use pitboss_sdk::SideBet;

use crate::deck::{ACE, Hand, RANKS, Shoe, value};
pub use crate::stored::Stored;
use crate::value::{Counts, Valuer, full_shoe};
use crate::{Game, StrategyError};

/// Player hand classes against a dealer: totals 0 to 21, then a natural.
pub const CLASSES: usize = 23;
/// The class of a natural (a two-card 21 from the deal, unsplit).
pub const NATURAL_CLASS: usize = 22;
/// The dealer's hard totals tabled (past 21 is a bust).
const DEALER_TOTALS: usize = 32;

/// The chance of each rank as the next card revealed, from `unseen` (the
/// cards not yet seen face up, a hole card among them); with `barred`,
/// the hole card is among them and known not to be that rank (a peek
/// found no natural): `hole` when the card revealed is the hole card
/// itself. By the shuffle's exchangeability this is the exact chance.
pub fn chances(unseen: &Counts, barred: Option<usize>, hole: bool) -> [f64; RANKS] {
    let n: f64 = unseen.iter().map(|&c| f64::from(c)).sum();
    let mut p = [0.0; RANKS];
    if n < 2.0 {
        return p;
    }
    for (r, p) in p.iter_mut().enumerate() {
        let c = f64::from(unseen[r]);
        *p = match barred {
            None => c / n,
            Some(b) => {
                let allowed = n - f64::from(unseen[b]);
                match (hole, r == b) {
                    // The hole card itself: any rank but the barred one.
                    (true, true) => 0.0,
                    (true, false) => c / allowed,
                    // A card after it: the hole card is one of the others.
                    (false, true) => c / (n - 1.0),
                    (false, false) => c * (allowed - 1.0) / (allowed * (n - 1.0)),
                }
            }
        };
    }
    p
}

/// [`chances`] as weights for a recorder's hot path: the cards not yet
/// seen (`unseen`, `n` of them, as floats kept up to date card by card)
/// weighted so that the chance of rank `r` is `w[r] × scale`, with one
/// division. `None` when no card can come (an empty shoe).
#[inline]
pub fn weights(unseen: &[f64; RANKS], n: f64, barred: Option<usize>, hole: bool) -> Option<([f64; RANKS], f64)> {
    match barred {
        None => (n >= 1.0).then(|| (*unseen, 1.0 / n)),
        Some(b) => {
            let allowed = n - unseen[b];
            if hole {
                let mut w = *unseen;
                w[b] = 0.0;
                (allowed >= 1.0).then(|| (w, 1.0 / allowed))
            } else {
                let mut w = unseen.map(|c| c * (allowed - 1.0));
                w[b] = unseen[b] * allowed;
                (allowed >= 1.0 && n >= 2.0).then(|| (w, 1.0 / (allowed * (n - 1.0))))
            }
        }
    }
}

/// The dealer's cards so far, as its outcome depends on them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DealerState {
    /// Cards held.
    pub cards: u8,
    /// Sum with every ace 1.
    pub hard: u8,
    /// Holds an ace.
    pub ace: bool,
    /// The first card's rank.
    pub up: u8,
}

impl DealerState {
    /// This state plus a card of `rank`.
    #[inline]
    pub fn with(self, rank: usize) -> DealerState {
        DealerState {
            cards: self.cards.saturating_add(1),
            hard: self.hard.saturating_add(value(rank)).min(DEALER_TOTALS as u8 - 1),
            ace: self.ace || rank == ACE,
            up: if self.cards == 0 { rank as u8 } else { self.up },
        }
    }
}

/// The cheap V of one rule set (the dealer games), per unit bet.
#[derive(Clone, Debug)]
pub struct LuckTable {
    game: Game,
    full: Counts,
    /// The deal table: `[up][a][b]`, both orders.
    deal3: Vec<f64>,
    /// The deal's value knowing the up card and the first card: `[up][a]`.
    deal_ua: [f64; RANKS * RANKS],
    /// Knowing both cards, not the up card: `[a][b]`.
    deal_ab: [f64; RANKS * RANKS],
    /// Knowing the first card only.
    deal_a: [f64; RANKS],
    /// Knowing the up card only.
    deal_u: [f64; RANKS],
    /// Knowing nothing.
    deal_none: f64,
    /// [`LuckTable::deal`] by the up card, knowing the box's first and
    /// second cards or not (`RANKS`: not known): `[a][b][up]`.
    deal_by_up: Vec<f64>,
    /// An Over/Under 13 bet per unit, knowing the first card: `[over, under][a]`.
    side1: [[f64; RANKS]; 2],
    /// A hand played on after a hit: `[up][hard][ace]`.
    hit: Vec<f64>,
    /// The same by the card hit from a hand of `[up][hard][ace]`: `[card]`.
    hit_next: Vec<[f64; RANKS]>,
    /// A doubled hand standing on a total: `[up][total]`.
    doubled: Vec<f64>,
    /// A split hand's two cards: `[up][pair][second]`.
    split: Vec<f64>,
    /// The payoff per unit stake of each class against the dealer's up
    /// card alone: `[up][class]`.
    dealer_one: Vec<f64>,
    /// Against two or more dealer cards (no natural): `[hard][ace][class]`.
    dealer_more: Vec<f64>,
    /// Against a dealer natural: `[class]`.
    dealer_natural: [f64; CLASSES],
    /// Against no dealer card yet: nothing known, zero.
    dealer_none: [f64; CLASSES],
    /// Against a dealer of one state by its next card: `[state][class][card]`
    /// (states: the up card alone, then `[hard][ace]` of two or more).
    dealer_next: Vec<[f64; RANKS]>,
}

/// The index of a dealer's state (one card or more) in `dealer_next`.
#[inline]
fn dealer_index(d: DealerState) -> usize {
    if d.cards <= 1 { usize::from(d.up) } else { RANKS + usize::from(d.hard) * 2 + usize::from(d.ace) }
}

/// A hand of `len` cards (or as few more as it takes) of hard total
/// `hard`, holding an ace if `ace`: one hand standing for every hand of
/// its kind. `None` where no such hand exists.
fn representative(hard: u8, ace: bool, len: u8) -> Option<Hand> {
    let mut cards = Vec::new();
    let mut left = i32::from(hard);
    if ace {
        cards.push(ACE);
        left -= 1;
    }
    let least = if ace { 1 } else { 2 };
    let k = (i32::from(len) - cards.len() as i32).max(1);
    for i in 0..k {
        let after = k - i - 1;
        let v = (left - least * after).min(10);
        if v < least {
            return None;
        }
        cards.push(v as usize - 1);
        left -= v;
    }
    (left == 0).then(|| Hand::of(&cards))
}

impl Stored {
    /// The tables of `rules` (a dealer game) computed off the top, as the
    /// coach's [`Valuer`] values the deal, hits, doubles and splits.
    pub fn compute(rules: &Rules) -> Result<Box<Stored>, StrategyError> {
        let mut v = Valuer::computed(rules)?;
        let mut s = Box::new(Stored {
            deal3: [0.0; RANKS * RANKS * RANKS],
            hit: [-1.0; RANKS * 22 * 2],
            doubled: [-2.0; RANKS * 22],
            split: [0.0; RANKS * RANKS * RANKS],
        });
        for u in 0..RANKS {
            for a in 0..RANKS {
                for b in 0..RANKS {
                    s.deal3[(u * RANKS + a) * RANKS + b] = v.deal_table(u, &Hand::of(&[a, b]));
                }
            }
        }
        for u in 0..RANKS {
            for hard in 2..=21u8 {
                for ace in [false, true] {
                    if let Some(h) = representative(hard, ace, 3) {
                        let before = Hand::of(&ranks_of(&h)[..h.len as usize - 1]);
                        let last = ranks_of(&h)[h.len as usize - 1];
                        s.hit[(u * 22 + hard as usize) * 2 + usize::from(ace)] =
                            v.played_on(u, &before, last, crate::value::How::Hit);
                    }
                }
                if let Some(h) = representative(hard, false, 3).or_else(|| representative(hard, false, 2)) {
                    s.doubled[u * 22 + hard as usize] = v.stand_doubled(u, &h, hard);
                }
            }
            for pair in 0..RANKS {
                for r in 0..RANKS {
                    s.split[(u * RANKS + pair) * RANKS + r] =
                        v.played_on(u, &Hand::of(&[pair]), r, crate::value::How::Split);
                }
            }
        }
        Ok(s)
    }
}

impl LuckTable {
    /// The tables of `rules` (a dealer game), off the top: the analyzer's
    /// part stored for a rule set's defaults ([`Stored::of`]) or computed,
    /// then the rest (a few thousand sums).
    pub fn new(rules: &Rules) -> Result<LuckTable, StrategyError> {
        match Stored::of(rules) {
            Some(stored) => LuckTable::from_stored(rules, stored),
            None => LuckTable::from_stored(rules, &*Stored::compute(rules)?),
        }
    }

    /// The tables of `rules` from the analyzer's part, `stored`.
    pub fn from_stored(rules: &Rules, stored: &Stored) -> Result<LuckTable, StrategyError> {
        let game = Game::new(rules)?;
        let full = full_shoe(rules.decks);
        let shoe = Shoe { counts: full.map(f64::from) };
        let p_of = |s: &Shoe, r: usize| s.counts[r] / s.total();
        let deal3 = stored.deal3.to_vec();
        let d = |u: usize, a: usize, b: usize| deal3[(u * RANKS + a) * RANKS + b];
        let mut deal_ua = [0.0; RANKS * RANKS];
        let mut deal_ab = [0.0; RANKS * RANKS];
        for x in 0..RANKS {
            for y in 0..RANKS {
                let left = shoe.without(x).without(y);
                deal_ua[x * RANKS + y] = (0..RANKS).map(|b| p_of(&left, b) * d(x, y, b)).sum();
                deal_ab[x * RANKS + y] = (0..RANKS).map(|u| p_of(&left, u) * d(u, x, y)).sum();
            }
        }
        let mut deal_a = [0.0; RANKS];
        let mut deal_u = [0.0; RANKS];
        for x in 0..RANKS {
            let left = shoe.without(x);
            deal_a[x] = (0..RANKS).map(|u| p_of(&left, u) * deal_ua[u * RANKS + x]).sum();
            deal_u[x] = (0..RANKS).map(|a| p_of(&left, a) * deal_ua[x * RANKS + a]).sum();
        }
        let deal_none = (0..RANKS).map(|a| p_of(&shoe, a) * deal_a[a]).sum();
        let side1 = [SideBet::Over, SideBet::Under].map(|side| {
            std::array::from_fn(|a| {
                let left = shoe.without(a);
                (0..RANKS).map(|b| p_of(&left, b) * side_per_unit(side, value(a) + value(b))).sum()
            })
        });
        let (hit, doubled, split) = (stored.hit.to_vec(), stored.doubled.to_vec(), stored.split.to_vec());
        let hit_next = (0..RANKS * 22 * 2)
            .map(|i| {
                let (up, hard, ace) = (i / 44, (i / 2 % 22) as u8, i % 2 == 1);
                std::array::from_fn(|x| {
                    let after = hard + value(x);
                    if after > 21 {
                        -1.0
                    } else {
                        hit[(up * 22 + usize::from(after)) * 2 + usize::from(ace || x == ACE)]
                    }
                })
            })
            .collect();
        let dealer = Dealer::new(&game, &shoe);
        let mut dealer_one = vec![0.0; RANKS * CLASSES];
        for u in 0..RANKS {
            let o = dealer.one(u);
            for c in 0..CLASSES {
                dealer_one[u * CLASSES + c] = payoff(&game, c, &o);
            }
        }
        let mut dealer_more = vec![0.0; DEALER_TOTALS * 2 * CLASSES];
        for hard in 2..DEALER_TOTALS as u8 {
            for ace in [false, true] {
                let o = dealer.more(hard, ace);
                for c in 0..CLASSES {
                    dealer_more[(hard as usize * 2 + usize::from(ace)) * CLASSES + c] = payoff(&game, c, &o);
                }
            }
        }
        let mut natural = [0.0; 7];
        natural[crate::dealer::NATURAL] = 1.0;
        let dealer_natural = std::array::from_fn(|c| payoff(&game, c, &natural));
        let mut table = LuckTable {
            game,
            full,
            deal_by_up: Vec::new(),
            deal3,
            deal_ua,
            deal_ab,
            deal_a,
            deal_u,
            deal_none,
            side1,
            hit,
            hit_next,
            doubled,
            split,
            dealer_one,
            dealer_more,
            dealer_natural,
            dealer_none: [0.0; CLASSES],
            dealer_next: Vec::new(),
        };
        let states = RANKS + DEALER_TOTALS * 2;
        let mut next = vec![[0.0; RANKS]; states * CLASSES];
        for i in 0..states {
            let d = if i < RANKS {
                DealerState { cards: 1, hard: value(i), ace: i == ACE, up: i as u8 }
            } else {
                let (hard, ace) = (((i - RANKS) / 2) as u8, (i - RANKS) % 2 == 1);
                DealerState { cards: 3, hard, ace, up: 0 }
            };
            for c in 0..CLASSES {
                next[i * CLASSES + c] = std::array::from_fn(|x| table.against(d.with(x), c));
            }
        }
        table.dealer_next = next;
        let known = |c: usize| (c < RANKS).then_some(c);
        table.deal_by_up = (0..(RANKS + 1) * (RANKS + 1) * RANKS)
            .map(|i| table.deal(Some(i % RANKS), known(i / RANKS / (RANKS + 1)), known(i / RANKS % (RANKS + 1))))
            .collect();
        Ok(table)
    }

    /// The rules as the tables read them.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The full shoe.
    pub fn full(&self) -> &Counts {
        &self.full
    }

    /// The deal's value per unit bet knowing the up card `up` and the
    /// box's first and second cards `a` and `b`, whichever are known.
    #[inline]
    pub fn deal(&self, up: Option<usize>, a: Option<usize>, b: Option<usize>) -> f64 {
        match (up, a, b) {
            (Some(u), Some(a), Some(b)) => self.deal3[(u * RANKS + a) * RANKS + b],
            (Some(u), Some(a), None) | (Some(u), None, Some(a)) => self.deal_ua[u * RANKS + a],
            (None, Some(a), Some(b)) => self.deal_ab[a * RANKS + b],
            (None, Some(a), None) | (None, None, Some(a)) => self.deal_a[a],
            (Some(u), None, None) => self.deal_u[u],
            (None, None, None) => self.deal_none,
        }
    }

    /// [`LuckTable::deal`] by the box's next card, knowing the up card (if
    /// any) and its first card (if any): `RANKS` values.
    #[inline]
    pub fn deal_row(&self, up: Option<usize>, first: Option<usize>) -> &[f64] {
        match (up, first) {
            (Some(u), Some(a)) => &self.deal3[(u * RANKS + a) * RANKS..][..RANKS],
            (Some(u), None) => &self.deal_ua[u * RANKS..][..RANKS],
            (None, Some(a)) => &self.deal_ab[a * RANKS..][..RANKS],
            (None, None) => &self.deal_a,
        }
    }

    /// [`LuckTable::deal`] by the up card, knowing the box's first card
    /// `a` and second card `b` or not: `RANKS` values.
    #[inline]
    pub fn deal_by_up(&self, a: Option<usize>, b: Option<usize>) -> &[f64] {
        let (a, b) = (a.unwrap_or(RANKS).min(RANKS), b.unwrap_or(RANKS).min(RANKS));
        &self.deal_by_up[(a * (RANKS + 1) + b) * RANKS..][..RANKS]
    }

    /// [`LuckTable::hit`] by the card hit from a hand of hard total `hard`
    /// (at most 21) holding an ace if `ace`.
    #[inline]
    pub fn hit_row(&self, up: usize, hard: u8, ace: bool) -> &[f64; RANKS] {
        &self.hit_next[(up * 22 + usize::from(hard.min(21))) * 2 + usize::from(ace)]
    }

    /// [`LuckTable::split`] by the second card.
    #[inline]
    pub fn split_row(&self, up: usize, pair: usize) -> &[f64] {
        &self.split[(up * RANKS + pair) * RANKS..][..RANKS]
    }

    /// An Over/Under 13 bet of `amount` on `side`: its payoff once both
    /// cards are known, its value off the top knowing the first.
    #[inline]
    pub fn side(&self, side: SideBet, amount: i64, a: usize, b: Option<usize>) -> f64 {
        match b {
            Some(b) => Valuer::side_payoff(side, amount, value(a) + value(b)) as f64,
            None => match side {
                SideBet::Over => amount as f64 * self.side1[0][a],
                SideBet::Under => amount as f64 * self.side1[1][a],
                SideBet::None => 0.0,
            },
        }
    }

    /// A hand of hard total `hard` (holding an ace if `ace`) just hit,
    /// played on off the top against `up`.
    #[inline]
    pub fn hit(&self, up: usize, hard: u8, ace: bool) -> f64 {
        if hard > 21 { -1.0 } else { self.hit[(up * 22 + hard as usize) * 2 + usize::from(ace)] }
    }

    /// A doubled hand of `total` (its hard total `hard`) against `up`,
    /// per unit of the original bet.
    #[inline]
    pub fn doubled(&self, up: usize, hard: u8, total: u8) -> f64 {
        if hard > 21 { -2.0 } else { self.doubled[up * 22 + total.min(21) as usize] }
    }

    /// A split hand of `pair` that drew `second`, against `up`.
    #[inline]
    pub fn split(&self, up: usize, pair: usize, second: usize) -> f64 {
        self.split[(up * RANKS + pair) * RANKS + second]
    }

    /// The payoff per unit stake of a hand of class `class` against a
    /// dealer holding `dealer`.
    #[inline]
    pub fn against(&self, dealer: DealerState, class: usize) -> f64 {
        self.against_row(dealer)[class.min(CLASSES - 1)]
    }

    /// [`LuckTable::against`] a dealer holding `dealer` and its next card,
    /// by that card (`dealer` holds one card or more).
    #[inline]
    pub fn against_next(&self, dealer: DealerState, class: usize) -> &[f64; RANKS] {
        &self.dealer_next[dealer_index(dealer) * CLASSES + class.min(CLASSES - 1)]
    }

    /// The payoffs per unit stake of every class against a dealer holding
    /// `dealer` ([`CLASSES`] of them).
    #[inline]
    pub fn against_row(&self, dealer: DealerState) -> &[f64] {
        let at = match dealer.cards {
            0 => return &self.dealer_none,
            1 => &self.dealer_one[dealer.up as usize * CLASSES..],
            2 if dealer.ace && dealer.hard == 11 => &self.dealer_natural[..],
            _ => &self.dealer_more[(dealer.hard as usize * 2 + usize::from(dealer.ace)) * CLASSES..],
        };
        &at[..CLASSES]
    }
}

/// The ranks of a hand, ascending.
fn ranks_of(hand: &Hand) -> Vec<usize> {
    (0..RANKS).flat_map(|r| std::iter::repeat_n(r, usize::from(hand.counts[r]))).collect()
}

/// An Over/Under 13 bet's payoff per unit on a hard total.
fn side_per_unit(side: SideBet, total: u8) -> f64 {
    match side {
        SideBet::Over if total > 13 => 1.0,
        SideBet::Under if total == 2 => 1.5,
        SideBet::Under if total < 13 => 1.0,
        SideBet::None => 0.0,
        _ => -1.0,
    }
}

/// What a hand of class `class` wins per unit stake against the dealer's
/// outcome chances `o` (17–21, bust, natural).
fn payoff(game: &Game, class: usize, o: &[f64; 7]) -> f64 {
    use crate::dealer::{BUST, NATURAL};
    let natural = class == NATURAL_CLASS;
    (0..7)
        .map(|i| {
            let pay = match (i, natural) {
                (NATURAL, true) => 0.0,
                (NATURAL, false) => -1.0,
                (_, true) => game.blackjack,
                (BUST, false) => 1.0,
                (_, false) => game.showdown(class as u8, 17 + i as u8),
            };
            o[i] * pay
        })
        .sum()
}

/// The dealer's outcome chances from a hard total and ace, drawing from
/// a shoe of fixed proportions, tabled from the highest total down.
struct Dealer<'a> {
    game: &'a Game,
    q: [f64; RANKS],
    /// `[hard][ace]`, two or more cards (no natural).
    table: Vec<[[f64; 7]; 2]>,
}

impl<'a> Dealer<'a> {
    fn new(game: &'a Game, shoe: &Shoe) -> Dealer<'a> {
        let n = shoe.total();
        let q = shoe.counts.map(|c| c / n);
        let mut table = vec![[[0.0; 7]; 2]; DEALER_TOTALS];
        for hard in (0..DEALER_TOTALS as u8).rev() {
            for ace in [false, true] {
                let mut out = [0.0; 7];
                let soft = ace && hard + 10 <= 21;
                let best = if soft { hard + 10 } else { hard };
                if hard > 21 {
                    out[crate::dealer::BUST] = 1.0;
                } else if best > 17 || (best == 17 && !(soft && game.hits_soft_17)) {
                    out[usize::from(best - 17)] = 1.0;
                } else {
                    for r in 0..RANKS {
                        let next = usize::from(hard + value(r)).min(DEALER_TOTALS - 1);
                        let o = table[next][usize::from(ace || r == ACE)];
                        for (x, y) in out.iter_mut().zip(o) {
                            *x += q[r] * y;
                        }
                    }
                }
                table[usize::from(hard)][usize::from(ace)] = out;
            }
        }
        Dealer { game, q, table }
    }

    /// From the up card alone: a natural possible unless a peek found none.
    fn one(&self, up: usize) -> [f64; 7] {
        let barred = self.game.conditioned(up);
        let allowed: f64 = (0..RANKS).filter(|&r| Some(r) != barred).map(|r| self.q[r]).sum();
        let mut out = [0.0; 7];
        for r in (0..RANKS).filter(|&r| Some(r) != barred) {
            let (hard, ace) = (value(up) + value(r), up == ACE || r == ACE);
            let o = if ace && hard == 11 {
                let mut n = [0.0; 7];
                n[crate::dealer::NATURAL] = 1.0;
                n
            } else {
                self.more(hard, ace)
            };
            for (x, y) in out.iter_mut().zip(o) {
                *x += self.q[r] / allowed * y;
            }
        }
        out
    }

    /// From two or more cards of hard total `hard` (no natural).
    fn more(&self, hard: u8, ace: bool) -> [f64; 7] {
        self.table[usize::from(hard).min(DEALER_TOTALS - 1)][usize::from(ace)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deck::TEN;

    #[test]
    fn representatives_have_the_total_and_the_ace_asked() {
        for hard in 3..=21u8 {
            for ace in [false, true] {
                if let Some(h) = representative(hard, ace, 3) {
                    assert_eq!((h.hard, h.counts[ACE] > 0), (hard, ace), "{hard} {ace}");
                    assert!(h.len >= 3);
                }
            }
        }
        assert!(representative(6, false, 3).is_some() && representative(5, false, 3).is_none());
    }

    /// A rule set's defaults read their stored tables, the very ones the
    /// analyzer computes; rules a league overrides compute their own.
    #[test]
    fn defaults_read_the_stored_tables_and_overrides_compute_them() {
        let rules = Rules::swedish();
        assert_eq!(Stored::of(&rules), Some(&*Stored::compute(&rules).unwrap()));
        let mut six = Rules::north_american();
        six.decks = 2;
        assert!(Stored::of(&six).is_none() && Stored::of(&Rules::norwegian_home()).is_none());
        assert_ne!(
            LuckTable::new(&six).unwrap().deal_none,
            LuckTable::new(&Rules::north_american()).unwrap().deal_none
        );
    }

    /// Off the top, the deal's value averaged over the cards still to come
    /// is the same whichever cards are known: the tables are one V.
    #[test]
    fn the_deal_tables_average_to_each_other() {
        let t = LuckTable::new(&Rules::north_american()).unwrap();
        let shoe = Shoe { counts: t.full.map(f64::from) };
        for a in 0..RANKS {
            let left = shoe.without(a);
            let by_up: f64 = (0..RANKS).map(|u| left.counts[u] / left.total() * t.deal(Some(u), Some(a), None)).sum();
            assert!((by_up - t.deal(None, Some(a), None)).abs() < 1e-12);
        }
        // By the up card, the same values.
        let known = [None, Some(0), Some(TEN)];
        for (a, b) in known.iter().flat_map(|&a| known.iter().map(move |&b| (a, b))) {
            for u in 0..RANKS {
                assert_eq!(t.deal_by_up(a, b)[u], t.deal(Some(u), a, b));
            }
        }
        // The dealer's chances from the up card sum to one, a ten up
        // under a peek never a natural.
        let d = Dealer::new(&t.game, &shoe);
        let o = d.one(TEN);
        assert!((o.iter().sum::<f64>() - 1.0).abs() < 1e-12 && o[crate::dealer::NATURAL] == 0.0);
    }
}
