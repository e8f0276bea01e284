//! `Table::play_round`: one round of the game the rules name — the dealer
//! games' phases in `crate::table`, the banker game in `crate::banker` —
//! and voiding a round the shoe cannot finish. The one module that calls
//! into both games, so that `table` depends on neither `banker` nor this
//! module, and `banker` only on `table`.

use crate::record::Recorder;
use crate::rules::Game;
use crate::shoe::ShoeExhausted;
use crate::table::Table;

impl Table {
    /// Plays one round. If the shoe runs out mid-round beyond recovery the
    /// round is void: every chip goes back where it was and observers are
    /// told (`RoundVoid`). The banker game's seeded deck is shuffled anew
    /// for the next round, so there the round still counts and `Ok` is
    /// returned; otherwise (a stacked shoe) nothing more can be dealt, so
    /// the round does not count and the error is returned.
    pub fn play_round<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        let house = self.house;
        let result = match self.rules.game {
            Game::Dealer => self.play_dealer_round(rec),
            Game::Banker => self.play_banker_round(rec),
        };
        if let Err(e) = result {
            // Nothing more can be dealt, so the round does not count.
            self.void_round(house, rec);
            self.round -= 1;
            return Err(e);
        }
        Ok(())
    }
}
