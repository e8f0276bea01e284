//! The dealer's final-total probabilities for an up card, exact for any
//! finite shoe.
//!
//! Every way the dealer can draw from an up card is enumerated once into
//! a [`DealerTable`]: the multiset of cards drawn, how many orders of it
//! the drawing rule allows, and the outcome. For a given shoe each order
//! of the same multiset has the same probability (a product of falling
//! factorials), so the distribution is one pass over the table — far
//! cheaper than a tree walk per shoe, which matters because the player's
//! every hand removes different cards.

use std::collections::HashMap;

use crate::deck::{ACE, RANKS, Shoe, value};

/// Index of the dealer's outcomes: totals 17–21 at 0–4, then these.
pub const BUST: usize = 5;
/// The dealer's natural (only without a peek does it stay possible).
pub const NATURAL: usize = 6;

/// Probabilities of the dealer's final hand: 17, 18, 19, 20, 21, bust,
/// natural.
pub type Outcomes = [f64; 7];

/// Most cards of one rank a dealer's draws hold, plus one.
const MOST: usize = 24;

/// Every way the dealer can end from one up card: each multiset of cards
/// drawn after it, with how many orders of it the drawing rule allows,
/// grouped by outcome (in enumeration order within each outcome, so each
/// outcome's probability is summed in the same order as ever).
#[derive(Clone, Debug)]
pub struct DealerTable {
    up: usize,
    /// Where each outcome's entries begin, and the end.
    starts: [u32; 8],
    /// Each entry's orders, cards drawn, and how many ranks it holds.
    orders: Vec<f64>,
    cards: Vec<u8>,
    ranks: Vec<u8>,
    /// The entries' ranks in turn, each as `rank * MOST + count`: the
    /// index of its falling factorial.
    draws: Vec<u8>,
    most: [u8; RANKS],
    longest: u8,
}

impl DealerTable {
    /// Enumerates the dealer's draws from `up`; `hits_soft_17` is the rule.
    pub fn new(up: usize, hits_soft_17: bool) -> DealerTable {
        DealerTable::from_cards(up, &[up], hits_soft_17)
    }

    /// Enumerates the draws of a dealer already holding `cards` (the
    /// banker game's banker, whose hidden card is known to it); `up` is
    /// the card the player sees.
    pub fn from_cards(up: usize, cards: &[usize], hits_soft_17: bool) -> DealerTable {
        let mut found: HashMap<[u8; RANKS], (f64, u8)> = HashMap::new();
        let mut drawn = [0u8; RANKS];
        let hard = cards.iter().map(|&r| value(r)).sum();
        walk(hard, cards.contains(&ACE), cards.len() as u8, hits_soft_17, &mut drawn, &mut found);
        let mut keys: Vec<_> = found.into_iter().collect();
        keys.sort_by_key(|a| a.0);
        // Stable: the multisets stay in order within an outcome.
        keys.sort_by_key(|(_, (_, outcome))| *outcome);
        let mut table = DealerTable {
            up,
            starts: [0; 8],
            orders: Vec::new(),
            cards: Vec::new(),
            ranks: Vec::new(),
            draws: Vec::new(),
            most: [0; RANKS],
            longest: 0,
        };
        for (counts, (orders, outcome)) in keys {
            let mut cards = 0;
            let mut ranks = 0;
            for (r, &k) in counts.iter().enumerate().filter(|(_, k)| **k > 0) {
                table.draws.push((r * MOST + usize::from(k)) as u8);
                table.most[r] = table.most[r].max(k);
                cards += k;
                ranks += 1;
            }
            table.longest = table.longest.max(cards);
            table.orders.push(orders);
            table.cards.push(cards);
            table.ranks.push(ranks);
            for o in usize::from(outcome) + 1..8 {
                table.starts[o] = table.orders.len() as u32;
            }
        }
        table
    }

    /// The up card.
    pub fn up(&self) -> usize {
        self.up
    }

    /// The outcome probabilities drawing from `shoe` (the up card already
    /// out). With `no_natural_with` (the peek) the hole card is known not
    /// to be that rank: the natural is removed and the rest renormalised.
    ///
    /// The hot loop of every exact valuation: each outcome's sum is kept
    /// in a register, and each entry's product is independent of the
    /// last, so entries overlap; the products and sums are taken in the
    /// same order as a plain pass over the multisets would.
    pub fn outcomes(&self, shoe: &Shoe, no_natural_with: Option<usize>) -> Outcomes {
        // Indexed by a byte: no bounds check in the loop.
        let mut falling = [0.0; 256];
        for (r, row) in falling.chunks_exact_mut(MOST).take(RANKS).enumerate() {
            row[0] = 1.0;
            for k in 1..=self.most[r] as usize {
                row[k] = row[k - 1] * (shoe.counts[r] - (k - 1) as f64).max(0.0);
            }
        }
        let total = shoe.total();
        let mut inverse = [0.0; 32];
        let mut ff = 1.0;
        for (m, inv) in inverse.iter_mut().enumerate().take(self.longest as usize + 1) {
            if m > 0 {
                ff *= (total - (m - 1) as f64).max(0.0);
            }
            *inv = if ff > 0.0 { 1.0 / ff } else { 0.0 };
        }
        let mut out = [0.0; 7];
        let mut at = 0;
        for (o, sum) in out.iter_mut().enumerate() {
            let (from, to) = (self.starts[o] as usize, self.starts[o + 1] as usize);
            let mut acc = 0.0;
            for e in from..to {
                let mut p = self.orders[e] * inverse[usize::from(self.cards[e] & 31)];
                let n = usize::from(self.ranks[e]);
                for &i in &self.draws[at..at + n] {
                    p *= falling[usize::from(i)];
                }
                at += n;
                acc += p;
            }
            *sum = acc;
        }
        if no_natural_with.is_some() {
            let rest = 1.0 - out[NATURAL];
            out[NATURAL] = 0.0;
            for p in &mut out {
                *p /= rest;
            }
        }
        out
    }
}

/// Depth-first over every draw sequence, counting orders per multiset.
fn walk(
    hard: u8,
    ace: bool,
    cards: u8,
    hits_soft_17: bool,
    drawn: &mut [u8; RANKS],
    found: &mut HashMap<[u8; RANKS], (f64, u8)>,
) {
    let soft = ace && hard <= 11;
    let best = if soft { hard + 10 } else { hard };
    let outcome = if hard > 21 {
        Some(BUST as u8)
    } else if cards == 2 && best == 21 {
        Some(NATURAL as u8)
    } else if best > 17 || (best == 17 && !(soft && hits_soft_17)) {
        Some(best - 17)
    } else {
        None
    };
    if let Some(outcome) = outcome {
        let e = found.entry(*drawn).or_insert((0.0, outcome));
        e.0 += 1.0;
        return;
    }
    for r in 0..RANKS {
        drawn[r] += 1;
        walk(hard + value(r), ace || r == ACE, cards + 1, hits_soft_17, drawn, found);
        drawn[r] -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deck::TEN;

    #[test]
    fn probabilities_sum_to_one_and_match_known_values() {
        let shoe = Shoe::decks(6.0);
        for up in 0..RANKS {
            let t = DealerTable::new(up, false);
            let o = t.outcomes(&shoe.without(up), None);
            assert!((o.iter().sum::<f64>() - 1.0).abs() < 1e-12, "up {up}: {o:?}");
        }
        // Six decks, S17: the dealer busts about 42.3 % under a 6 (after
        // removing the up card only), and holds a natural under an ace
        // 96/311 of the time.
        let six = DealerTable::new(5, false).outcomes(&shoe.without(5), None);
        assert!((six[BUST] - 0.4232).abs() < 0.001, "{six:?}");
        let ace = DealerTable::new(ACE, false).outcomes(&shoe.without(ACE), None);
        assert!((ace[NATURAL] - 96.0 / 311.0).abs() < 1e-12);
        let peeked = DealerTable::new(ACE, false).outcomes(&shoe.without(ACE), Some(TEN));
        assert_eq!(peeked[NATURAL], 0.0);
        assert!((peeked.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
