//! The luck of the cards in one round, for the luck-adjusted result.
//!
//! As in AIVAT (Burch et al., AAAI 2018), each card the round reveals is
//! a chance event: its luck is V(after the card) − E[V(after)] over the
//! card's distribution given everything revealed before it, and the
//! luck-adjusted result is the realized result less the sum. Each term
//! has mean zero whatever V is, so the adjusted result is unbiased; a V
//! close to the true value makes its spread small. The distribution is
//! the bot's view — the cards it has not seen, the hole card among them,
//! less the dealer's natural once a peek has found none — which by the
//! shuffle's exchangeability is the exact chance of the next card
//! revealed.
//!
//! V here is fixed and cheap, computed off the top of a full shoe: the
//! deal table for the deal (and the side bet's payoff), the analyzer's
//! values of a hand played on for the bot's cards, and the dealer's
//! outcome chances from its cards so far for the dealer's. Cards not
//! corrected (the hole card of a peeked natural, insurance's payoff)
//! keep their luck; that costs only spread, never bias.

use std::collections::HashMap;

use pitboss_strategy::Game;
use pitboss_strategy::dealer::{BUST, DealerTable, NATURAL, Outcomes};
use pitboss_strategy::deck::{RANKS, Shoe};
use pitboss_strategy::luck::chances;

use crate::track::{Draw, Live, RoundLog};
use crate::value::{Counts, Valuer};

/// The dealer's outcome chances from its cards so far, off the top,
/// cached by those cards.
#[derive(Debug, Default)]
pub struct DealerValues {
    cache: HashMap<u64, Outcomes>,
}

impl DealerValues {
    fn outcomes(&mut self, game: &Game, full: &Counts, cards: &[usize]) -> Outcomes {
        let mut sorted = cards.to_vec();
        sorted.sort_unstable();
        // One hex digit a card, none of them zero: an ace up card (rank
        // 0) must not vanish as a leading zero, or an ace and a two with
        // a third card would read as a two with that card alone.
        let key = sorted.iter().fold(cards[0] as u64 + 1, |k, &r| k * 16 + r as u64 + 1);
        *self.cache.entry(key).or_insert_with(|| {
            let mut shoe = Shoe { counts: full.map(f64::from) };
            for &r in cards {
                shoe.counts[r] -= 1.0;
            }
            DealerTable::from_cards(cards[0], cards, game.hits_soft_17).outcomes(&shoe, None)
        })
    }

    /// The live hands' expected chips against a dealer holding `cards`.
    fn worth(&mut self, game: &Game, full: &Counts, cards: &[usize], live: &[Live]) -> f64 {
        if live.is_empty() {
            return 0.0;
        }
        let o = self.outcomes(game, full, cards);
        live.iter()
            .map(|h| {
                let each = |i: usize| match (i, h.natural) {
                    (NATURAL, true) => 0.0,
                    (NATURAL, false) => -1.0,
                    (_, true) => game.blackjack,
                    (BUST, false) => 1.0,
                    (_, false) => game.showdown(h.total, 17 + i as u8),
                };
                h.stake as f64 * (0..7).map(|i| o[i] * each(i)).sum::<f64>()
            })
            .sum()
    }
}

/// The round's luck in chips (the sum of every corrected card's).
pub fn luck(v: &mut Valuer, dealer: &mut DealerValues, log: &RoundLog) -> f64 {
    let (Some(up), true) = (log.up, log.after_deal.is_some()) else { return 0.0 };
    let bet = log.bet as f64;
    let mut luck = bet * (v.deal_table(up, &log.dealt) - v.expected_deal(&log.start));
    if let Some((side, amount)) = log.side {
        luck += Valuer::side_payoff(side, amount, log.dealt.hard) as f64 - Valuer::side_bet(&log.start, side, amount);
    }
    let game = v.game().clone();
    let peeked = if game.peek { Game::natural_partner(up) } else { None };
    let full = *v.full();
    for draw in &log.draws {
        match draw {
            Draw::Player { rank, unseen, hand, how } => {
                let p = chances(unseen, peeked, false);
                let mean: f64 = (0..RANKS).filter(|&r| p[r] > 0.0).map(|r| p[r] * v.played_on(up, hand, r, *how)).sum();
                luck += bet * (v.played_on(up, hand, *rank, *how) - mean);
            }
            Draw::Dealer { rank, unseen, before, barred, live } => {
                let p = chances(unseen, *barred, barred.is_some());
                let mut cards = before.clone();
                cards.push(*rank);
                let after = dealer.worth(&game, &full, &cards, live);
                let last = cards.len() - 1;
                let mut mean = 0.0;
                for r in (0..RANKS).filter(|&r| p[r] > 0.0) {
                    cards[last] = r;
                    mean += p[r] * dealer.worth(&game, &full, &cards, live);
                }
                luck += after - mean;
            }
        }
    }
    luck
}
