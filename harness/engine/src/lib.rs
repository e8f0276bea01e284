//! The Pitboss rules engine: seeded shoes, the rules of each variant,
//! rounds from bets to settlement, and streaming statistics.
//!
//! **Invariant:** the engine does no I/O and knows nothing of wasm, files
//! or command lines. Players are anything implementing [`Player`];
//! observers are [`Recorder`]s.
//!
//! # Words
//!
//! - A **player** is a bot at the table with its chips ([`PlayerState`]),
//!   numbered from 0 in the order given to [`Table::new`].
//! - A **box** is a betting spot on the layout with the hands on it,
//!   numbered from 0 at the dealer's left. In the dealer games a player
//!   holds [`Rules::boxes_per_player`] boxes, player `p` the boxes from
//!   `p × boxes_per_player`; in the banker game every player, the banker
//!   included, holds exactly the box with its own number.
//! - A **hand** is one of a box's hands, more than one after splits.
//! - **Seat** is the wire's word for a box: `Header::seat` and `Event::seat`
//!   in the ABI, the `seat` fields of [`TableEvent`] (and of results and
//!   transcripts). It means nothing else; where an event names a player,
//!   the field is `player`. (League files write a banking player as
//!   `banker = "seat:N"`, the wire's word again.)
//!
//! Inside the engine `PlayerId` and `BoxId` keep the two apart: passing
//! one where the other is meant does not compile.
//!
//! ```
//! use pitboss_engine::{FnPlayer, Player, Rules, Shoe, Table};
//!
//! // A player that bets the minimum and always stands.
//! let stand: Box<dyn Player + Send> = Box::new(FnPlayer(|r: &pitboss_engine::Request<'_>| {
//!     if r.header.kind == pitboss_sdk::Decision::Bet { r.header.min } else { 0 }
//! }));
//! let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 1), vec![stand], 1_000).unwrap();
//! for _ in 0..100 {
//!     table.play_round(&mut ()).unwrap();
//! }
//! // Chips are conserved: what the player lost, the house won.
//! assert_eq!(table.players()[0].balance - 1_000, -table.house());
//! ```

pub mod answers;
mod audit;
mod banker;
mod id;
mod player;
mod record;
mod round;
mod rules;
pub mod shoe;
mod stats;
mod table;
#[cfg(test)]
mod testkit;

pub use audit::{KeyAudit, KeyConflict};
pub use player::{FAULT_LOG_BYTES, Fault, FaultDetail, FaultKind, FnPlayer, Native, Player, Request, Spent};
pub use record::{Outcome, Recorder, TableEvent};
pub use rules::{Banker, Game, InsuranceOn, MAX_BANKROLL, Rules, RulesError, totals};
pub use shoe::{Shoe, ShoeExhausted, ShuffleKind, StackedShoeError, derive_seed, parse_stacked};
pub use stats::Stats;
pub use table::{PlayerState, Table};
