//! The table's event log: the bot-visible events (`Table::emit`), which
//! each player reads from its own cursor, and their tidying at each
//! round's start (`Table::tidy_log`), which keeps the log bounded.

use pitboss_sdk::abi::event_kind;
use pitboss_sdk::{Card, Event, key};

use super::Table;
use crate::id::{PlayerId, ids};

/// Entries of the event log every player has read that are kept until
/// there are this many (`Table::tidy_log`): dropping them from the front
/// moves the rest, so it is done a batch at a time.
pub(crate) const DRAIN_AT: usize = 256;

/// Events waiting for a player whose bet is keyed (ABI v6, a counter that
/// reads events: [`PlayerState::reads_late`](super::PlayerState)) at
/// which its next keyed question is put to it although its key is known,
/// bringing them: within one request (`MAX_EVENTS`), and a few dozen
/// heads-up rounds between such calls.
pub(crate) const FLUSH_AT: usize = 512;

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

    /// The boxes dealt a card face up (a `CARD` event) among the log's
    /// entries from `from` on, one bit a box (a table has at most 8:
    /// `Game::max_boxes`).
    pub(super) fn dealt_since(&self, from: usize) -> u32 {
        let events = self.log.get(from..).unwrap_or_default();
        events.iter().filter(|e| e.kind == event_kind::CARD).fold(0, |m, e| m | key::box_bit(e.seat))
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
    /// left them for its next call): a player out for good is never asked
    /// again, so its cursor may wait too. A lone `ROUND` is kept for a
    /// player whose bet is keyed and who has not read it.
    #[inline(never)]
    pub(super) fn tidy_log(&mut self) {
        let len = self.log.len();
        if len >= DRAIN_AT || self.players.iter().all(|s| s.cursor == len) {
            self.drop_read(len);
        }
        // A player whose bet is keyed may not have read it: it is told it,
        // as it would be if asked every round (sdk/ABI.md, "Version 6").
        // (Every other player still asked reads each `ROUND` at its bet.)
        let len = self.log.len();
        let unread = |s: &super::PlayerState| s.reads_late && s.cursor < len;
        if self.log.last().is_some_and(|e| e.kind == event_kind::ROUND) && !self.players.iter().any(unread) {
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

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use pitboss_sdk::key::part;
    use pitboss_sdk::{Decision, Event, Variant};

    use super::FLUSH_AT;
    use crate::player::{Fault, Player, Request};
    use crate::rules::Rules;
    use crate::shoe::Shoe;
    use crate::table::Table;

    /// A reader that sits out every round (so nothing is ever dealt),
    /// keying its bet or not, and keeps the events it is told.
    struct SitsOut {
        keyed: bool,
        told: Arc<Mutex<(Vec<Event>, u64)>>,
    }

    impl Player for SitsOut {
        fn decide(&mut self, r: &Request<'_>) -> Result<i64, Fault> {
            let mut told = self.told.lock().unwrap();
            told.0.extend_from_slice(r.events);
            told.1 += 1;
            Ok(0)
        }

        fn wants_events(&self, _: Variant) -> bool {
            true
        }

        fn decision_key(&self, _: Variant, kind: Decision) -> Option<u32> {
            (self.keyed && kind == Decision::Bet).then_some(part::OTHERS)
        }
    }

    /// Plays `rounds` with one [`SitsOut`]: the events it was told, its
    /// calls, and the most events the table kept waiting.
    fn sits_out(keyed: bool, rounds: u64) -> (Vec<Event>, u64, usize) {
        let told = Arc::new(Mutex::new((Vec::new(), 0)));
        let player = Box::new(SitsOut { keyed, told: told.clone() });
        let mut table = Table::new(Rules::north_american(), Shoe::seeded(6, 78, 1), vec![player], 1000).unwrap();
        let mut most = 0;
        for _ in 0..rounds {
            table.play_round(&mut |_: &crate::TableEvent| {}).unwrap();
            most = most.max(table.pending_events());
        }
        let (events, calls) = std::mem::take(&mut *told.lock().unwrap());
        (events, calls, most)
    }

    #[test]
    fn a_reader_whose_bet_is_keyed_is_told_every_round_that_dealt_nothing_in_calls_a_few_hundred_apart() {
        let rounds = 3 * FLUSH_AT as u64 + 10;
        let (asked, asked_calls, _) = sits_out(false, rounds);
        let (keyed, keyed_calls, most) = sits_out(true, rounds);
        assert_eq!(asked_calls, rounds);
        // The same events, up to its last call; fewer calls.
        assert!(keyed.len() >= 3 * FLUSH_AT, "{}", keyed.len());
        assert_eq!(keyed[..], asked[..keyed.len()]);
        assert!(keyed_calls <= 5, "{keyed_calls} calls");
        assert!(most <= FLUSH_AT + 1, "{most} events waiting");
    }
}
