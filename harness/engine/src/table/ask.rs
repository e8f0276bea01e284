//! Asking players: one request per decision, every answer checked
//! against what the decision allows, a bad answer recorded as a fault and
//! replaced by the decision's safe default.

use pitboss_sdk::abi::Header;
use pitboss_sdk::{ActionSet, Card, Decision, Event};

use super::{Seat, Table};
use crate::player::{Fault, FaultKind, Request};
use crate::record::{Recorder, TableEvent};

/// Asks `seat` one decision, delivering every event of `log` it has not
/// seen yet; records the question and the answer.
fn ask_seat<R: Recorder>(
    seat: &mut Seat,
    player: usize,
    log: &[Event],
    round: u64,
    mut header: Header,
    hand: &[Card],
    rec: &mut R,
) -> Result<i64, Fault> {
    if seat.disqualified {
        return Err(Fault { kind: FaultKind::Disqualified, message: "disqualified".into() });
    }
    header.balance = seat.balance;
    header.round = round as u32;
    let request = Request { header, hand, events: &log[seat.cursor..] };
    let result = seat.player.decide(&request);
    seat.cursor = log.len();
    rec.record(&TableEvent::Asked {
        seat: header.seat,
        player: player as u8,
        kind: header.kind,
        legal: header.legal,
        answer: result.as_ref().ok().copied(),
    });
    if let Some(text) = seat.player.take_log() {
        rec.record(&TableEvent::BotLog { seat: header.seat, player: player as u8, kind: header.kind, text });
    }
    result
}

impl Table {
    /// returns its answer, or the fault that stands in for one.
    pub(crate) fn ask<R: Recorder>(
        &mut self,
        p: usize,
        header: Header,
        hand: &[Card],
        rec: &mut R,
    ) -> Result<i64, Fault> {
        ask_seat(&mut self.seats[p], p, &self.log, self.round, header, hand, rec)
    }

    /// Asks the holder of box `b` about its hand `h`, showing the hand in
    /// place (no copy on this per-decision path).
    pub(super) fn ask_box<R: Recorder>(&mut self, b: usize, header: Header, h: usize, rec: &mut R) -> Result<i64, Fault> {
        let bx = &self.boxes[b];
        ask_seat(&mut self.seats[bx.seat], bx.seat, &self.log, self.round, header, bx.hands[h].cards(), rec)
    }

    /// Counts and records a fault of player `p` (about box `seat`);
    /// disqualifies at the fault limit. A disqualified player's non-answers
    /// are not faults of their own.
    pub(crate) fn fault<R: Recorder>(&mut self, p: usize, seat: u8, kind: Decision, fault: Fault, rec: &mut R) {
        if fault.kind == FaultKind::Disqualified {
            return;
        }
        let s = &mut self.seats[p];
        s.stats.faults += 1;
        let disqualify = self.fault_limit > 0 && s.stats.faults >= self.fault_limit && !s.disqualified;
        s.disqualified |= disqualify;
        rec.record(&TableEvent::Fault { seat, player: p as u8, round: self.round, kind, fault });
        if disqualify {
            rec.record(&TableEvent::Disqualified { seat, round: self.round });
        }
    }

    /// Checks an amount answer: 0, or `min..=max` in steps of `unit`.
    /// Anything else (or a fault) is recorded and becomes 0.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn checked_amount<R: Recorder>(
        &mut self,
        p: usize,
        seat: u8,
        kind: Decision,
        answer: Result<i64, Fault>,
        (min, max, unit): (i64, i64, i64),
        rec: &mut R,
    ) -> i64 {
        match answer {
            Ok(0) => 0,
            Ok(a) if a >= min && a <= max && a % unit == 0 => a,
            Ok(a) => {
                let message = format!("{} {a} is not 0 or {min}..={max} in steps of {unit}", kind.name());
                self.fault(p, seat, kind, Fault { kind: FaultKind::Illegal, message }, rec);
                0
            }
            Err(f) => {
                self.fault(p, seat, kind, f, rec);
                0
            }
        }
    }

    /// Checks a bet: an amount as [`Table::checked_amount`], but where the
    /// table does not allow sitting out, a 0 is a fault and the minimum is
    /// staked instead (as it is for any faulted bet there).
    pub(crate) fn checked_bet<R: Recorder>(
        &mut self,
        p: usize,
        seat: u8,
        answer: Result<i64, Fault>,
        limits: (i64, i64, i64),
        rec: &mut R,
    ) -> i64 {
        let said_zero = matches!(answer, Ok(0));
        let amount = self.checked_amount(p, seat, Decision::Bet, answer, limits, rec);
        if amount == 0 && !self.rules.sit_out {
            if said_zero {
                let message = "bet 0: sitting out is not allowed at this table".to_string();
                self.fault(p, seat, Decision::Bet, Fault { kind: FaultKind::Illegal, message }, rec);
            }
            return limits.0;
        }
        amount
    }

    /// Checks a yes/no answer (1 or 0); anything else faults and is "no".
    pub(crate) fn checked_flag<R: Recorder>(
        &mut self,
        p: usize,
        seat: u8,
        kind: Decision,
        answer: Result<i64, Fault>,
        rec: &mut R,
    ) -> bool {
        match answer {
            Ok(0) => false,
            Ok(1) => true,
            Ok(a) => {
                let message = format!("{} {a} is neither 1 (yes) nor 0 (no)", kind.name());
                self.fault(p, seat, kind, Fault { kind: FaultKind::Illegal, message }, rec);
                false
            }
            Err(f) => {
                self.fault(p, seat, kind, f, rec);
                false
            }
        }
    }

    #[inline]
    pub(crate) fn header(&self, seat: u8, kind: Decision, bet: i64, (min, max, unit): (i64, i64, i64)) -> Header {
        Header {
            kind,
            variant: self.rules.variant,
            seat,
            hand_index: 0,
            hand_count: self.boxes.get(seat as usize).map_or(0, |bx| bx.hands.len() as u8),
            legal: ActionSet::EMPTY,
            dealer_up: self.dealer.cards().first().copied(),
            round: 0,
            balance: 0,
            bet,
            min,
            max,
            unit,
            rules: self.block,
        }
    }
}
