//! The analyzer's part of each dealer rule set's luck tables, stored for
//! its defaults (`stored/generated.rs`, written by `codegen::luck_source`)
//! and computed by [`crate::luck`] for rules a league overrides. Its own
//! file, so the valuer (which reads the stored deal table) and the luck
//! tables (which compute it with the valuer) do not import each other.

use pitboss_engine::Rules;

use crate::deck::RANKS;

// Written by `codegen::luck_source`, as it writes it.
#[rustfmt::skip]
mod generated;

/// The analyzer's part of a rule set's tables, the costly part (about a
/// quarter of a second): stored in `generated.rs` for each rule set's
/// defaults, computed for rules a league overrides.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// The deal table: `[up][a][b]`, both orders.
    pub deal3: [f64; RANKS * RANKS * RANKS],
    /// A hand played on after a hit: `[up][hard][ace]`.
    pub hit: [f64; RANKS * 22 * 2],
    /// A doubled hand standing on a total: `[up][total]`.
    pub doubled: [f64; RANKS * 22],
    /// A split hand's two cards: `[up][pair][second]`.
    pub split: [f64; RANKS * RANKS * RANKS],
}

impl Stored {
    /// The stored tables of `rules` if they are a rule set's defaults.
    pub fn of(rules: &Rules) -> Option<&'static Stored> {
        generated::BY_VARIANT
            .iter()
            .find(|(variant, _)| *variant == rules.variant)
            .filter(|_| *rules == Rules::for_variant(rules.variant))
            .map(|(_, stored)| stored)
    }
}
