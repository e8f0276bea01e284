//! The banker game (`norwegian-home`) beyond the player's chart: what
//! each of the player's hidden cards is worth, and when a banker should
//! double, both exact by enumeration of the one shuffled deck.
//!
//! Heads-up: one player against the banker. The player plays the chart
//! and never sees the banker's hidden card; the banker draws like the
//! house (to 17, then stands). A banker double multiplies every stake,
//! so it pays exactly when the banker's expectation given its hidden card
//! is positive.

use std::sync::Arc;

use serde::Serialize;

use crate::analyzer::Analyzer;
use crate::chart::Chart;
use crate::dealer::DealerTable;
use crate::deck::{Hand, RANKS};
use crate::game::Game;
use crate::hand::{Options, two_card};
use crate::player::{Ctx, Policy};

/// The banker game's extra figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BankerGame {
    /// The player's expectation (chart play, per stake) given its hidden
    /// card, by rank: what a bet placed after looking at it is worth.
    pub by_hidden: [f64; RANKS],
    /// The banker's expectation per stake given its own hidden card, by
    /// rank, against a player playing the chart.
    pub banker_by_hidden: [f64; RANKS],
    /// Double every stake holding this hidden card (expectation > 0).
    pub double: [bool; RANKS],
}

/// The player's value of a deal given both banker cards: naturals, then
/// the chart against the banker's open card (`ctx`, drawing from the deck
/// without the banker's two cards).
fn deal_known(ctx: &mut Ctx, chart: &Chart, banker_natural: bool, hand: &Hand) -> f64 {
    let player_natural = hand.is_two_card_21();
    if banker_natural {
        return if player_natural { -1.0 } else { -2.0 };
    }
    if player_natural {
        return ctx.game.blackjack;
    }
    two_card(ctx, hand, Options { double: false, surrender: false }, Policy::Chart(chart))
}

/// The banker game's figures for `chart`.
pub fn banker_game(an: &Analyzer, chart: &Chart) -> BankerGame {
    let shoe = an.shoe;
    let game = Game { peek: false, ..an.game.clone() };
    let mut by_hidden = [0.0; RANKS];
    let mut banker_by_hidden = [0.0; RANKS];
    for (hidden, banker_ev) in banker_by_hidden.iter_mut().enumerate() {
        let after_hidden = shoe.without(hidden);
        for up in 0..RANKS {
            let p_up = after_hidden.counts[up] / after_hidden.total();
            if p_up <= 0.0 {
                continue;
            }
            let left = after_hidden.without(up);
            let table = Arc::new(DealerTable::from_cards(up, &[hidden, up], false));
            let mut ctx = Ctx::new(&game, &table, left);
            let banker_natural = Hand::of(&[hidden, up]).is_two_card_21();
            for a in 0..RANKS {
                for b in a..RANKS {
                    let hand = Hand::of(&[a, b]);
                    let p = left.chance_of(&hand);
                    if p <= 0.0 {
                        continue;
                    }
                    let v = deal_known(&mut ctx, chart, banker_natural, &hand);
                    *banker_ev -= p_up * p * v;
                    // Each of the player's two cards is the hidden one
                    // half the time.
                    let joint = shoe.counts[hidden] / shoe.total() * p_up * p * 0.5;
                    by_hidden[a] += joint * v;
                    by_hidden[b] += joint * v;
                }
            }
        }
    }
    for (r, v) in by_hidden.iter_mut().enumerate() {
        *v /= shoe.counts[r] / shoe.total();
    }
    BankerGame { by_hidden, banker_by_hidden, double: banker_by_hidden.map(|v| v > 0.0) }
}
