//! Setting a table: the one place that turns rules, a deal, chips and a
//! fault limit plus the bots in seat order into a [`Table`]. `pitboss
//! play`, league sessions, replays, `check` and `bench` all set their
//! tables here, so a table replayed is seated exactly as it played.

use anyhow::{Context, Result};
use pitboss_engine::{Player, Rules, Shoe, Table};
use pitboss_sdk::Card;

use crate::bots::{Bot, seat_seed};

/// Everything but the bots that decides a table's play.
#[derive(Clone, Copy, Debug)]
pub struct TableSpec<'a> {
    /// The rule set, overrides applied.
    pub rules: &'a Rules,
    /// The seed of the shoe and of the players' WASI random streams (see
    /// [`seat_seed`]).
    pub seed: u64,
    /// A stacked shoe to deal instead, its cards in order, then no more.
    pub stacked: Option<&'a [Card]>,
    /// Chips each player starts with.
    pub bankroll: i64,
    /// Faults after which a player is disqualified; 0 = never.
    pub fault_limit: u64,
}

impl TableSpec<'_> {
    /// A table where seat `i` holds `bots[seats[i]]` (a league's named
    /// bots); each player's WASI random stream is keyed by the seed, the
    /// seating and its seat.
    pub fn seat(&self, bots: &[(String, Bot)], seats: &[usize]) -> Result<Table> {
        let seed = self.seed;
        let players = seats
            .iter()
            .enumerate()
            .map(|(i, &b)| bots[b].1.player_seeded(seat_seed(seed, seats, i)))
            .collect::<Result<Vec<_>>>()?;
        self.seat_players(players)
    }

    /// A table of players made by the caller (`check` keeps its bot's
    /// fuel profile), seeded as [`TableSpec::seat`] would seed them.
    pub fn seat_players(&self, players: Vec<Box<dyn Player + Send>>) -> Result<Table> {
        let shoe = match self.stacked {
            Some(cards) => Shoe::stacked(cards.to_vec()),
            None => Shoe::seeded(self.rules.decks, self.rules.cut_card, self.seed),
        };
        let mut table = Table::new(self.rules.clone(), shoe, players, self.bankroll).context("cannot seat the bots")?;
        table.set_fault_limit(self.fault_limit);
        Ok(table)
    }
}
