//! The table's event log: the bot-visible events (`Table::emit`), which
//! each player reads from its own cursor, and their tidying at each
//! round's start (`Table::tidy_log`), which keeps the log bounded.

use pitboss_sdk::abi::event_kind;
use pitboss_sdk::{Card, Event};

use super::Table;
use crate::id::{PlayerId, ids};

/// Entries of the event log every player has read that are kept until
/// there are this many (`Table::tidy_log`): dropping them from the front
/// moves the rest, so it is done a batch at a time.
pub(crate) const DRAIN_AT: usize = 256;

impl Table {
    /// Logs a bot-visible event; `seat` is the event's box byte (see
    /// `sdk/ABI.md`: a box, or for `ROUND` the number of boxes).
    #[inline]
    pub(crate) fn emit(&mut self, kind: u8, seat: u8, hand: u8, card: Card) {
        if self.logging {
            self.log.push(Event { kind, seat, hand, card });
            if self.counting {
                self.shown.see(kind, card);
            }
        }
    }

    /// Drops log entries every player has seen. One out for good is told
    /// nothing more: without this, its unread events would pile up for the
    /// rest of the match (a broke bot in a ten-million-round league). A
    /// round that dealt nothing (only its `ROUND` event is left) tells a
    /// bot nothing the next round's number does not; nor does a second
    /// full shuffle with no card dealt since the first. Dropping them keeps
    /// the unread events bounded at a table where nobody plays any more (a
    /// lone banker whose players all went broke). Only for a log with
    /// events in it (most tables log none): out of line.
    ///
    /// Only the last step changes what a bot is told, so it is the only
    /// one taken every round; the others wait while the log is short and
    /// some player has events to read (a counter whose keyed questions
    /// left them for its next bet): a player out for good is never asked
    /// again, so its cursor may wait too.
    #[inline(never)]
    pub(super) fn tidy_log(&mut self) {
        let len = self.log.len();
        if len >= DRAIN_AT || self.players.iter().all(|s| s.cursor == len) {
            self.drop_read(len);
        }
        if self.log.last().is_some_and(|e| e.kind == event_kind::ROUND) {
            self.log.pop();
            let len = self.log.len();
            for s in &mut self.players {
                s.cursor = s.cursor.min(len);
            }
        }
    }

    /// [`Table::tidy_log`]'s first steps: entries every player has read
    /// (a player out for good has read them all) are dropped, all at once
    /// where every one has read everything, else a batch of at least
    /// [`DRAIN_AT`] at a time. `len`: the log's length.
    fn drop_read(&mut self, len: usize) {
        for p in ids(self.player_count, PlayerId) {
            if self.players[p].cursor < len && !self.may_be_asked(p) {
                self.players[p].cursor = len;
            }
        }
        let seen = self.players.iter().map(|s| s.cursor).min().unwrap_or(0);
        if seen == len {
            // The usual case: every player has read everything.
            self.log.clear();
            for s in &mut self.players {
                s.cursor = 0;
            }
        } else if seen >= DRAIN_AT {
            // Some player reads later (a counter whose keyed questions left
            // their events for its next bet): the entries all have read go
            // a batch at a time, not every round.
            self.log.drain(..seen);
            for s in &mut self.players {
                s.cursor -= seen;
            }
        }
    }
}
