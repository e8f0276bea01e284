//! Asking players: one request per decision, every answer checked
//! against what the decision allows, a bad answer recorded as a fault and
//! replaced by the decision's safe default.

use pitboss_sdk::abi::Header;
use pitboss_sdk::key::{self, KeyFields};
use pitboss_sdk::{ActionSet, Card, Decision, Event, Total};

use super::log::FLUSH_AT;
use super::{PlayerState, Shown, Table};
use crate::answers::Lookup;
use crate::audit::KeyAudit;
use crate::id::{BoxId, PlayerId, hand_byte, wire_round};
use crate::player::{Fault, FaultKind, Request};
use crate::record::{Recorder, TableEvent};

/// Asks player `p` one decision, delivering every event of `log` it has
/// not seen yet; records the question and the answer. A decision it keys
/// ([`PlayerState::keys`]) is put to it once per key (a true count taken
/// from `shown`, the boxes dealt the round before from `dealt_before`); a
/// repeated key is answered with what it said, and the events wait for
/// its next question — unless [`FLUSH_AT`] of them wait for a player whose
/// bet is keyed: then it is asked.
fn ask_player<R: Recorder>(
    state: &mut PlayerState,
    p: PlayerId,
    (log, shown, dealt_before): (&[Event], &Shown, u32),
    round: u64,
    mut header: Header,
    (hand, total): (&[Card], Total),
    rec: &mut R,
) -> Result<i64, Fault> {
    if state.disqualified {
        return Err(Fault::new(FaultKind::Disqualified, "disqualified"));
    }
    if state.defaulted & header.kind.bit() != 0 {
        return Ok(by_default(state, p, (header.seat, header.kind, header.legal, header.min), rec));
    }
    header.balance = state.balance;
    header.round = wire_round(round);
    let events = if state.told_events { &log[state.cursor..] } else { &[] };
    let request = Request { header: &header, hand, total, events };
    let lookup = match state.keys[usize::from(header.kind as u8)] {
        Some(parts) => {
            let derived = derived(parts, (shown, dealt_before), state.weights, header.seat);
            match state.answers.lookup(parts, &request, derived) {
                // Its events are due: asked, as if it keyed nothing.
                Lookup::Known(_) if state.reads_late && log.len() - state.cursor >= FLUSH_AT => Lookup::Unkeyed,
                lookup => lookup,
            }
        }
        None => Lookup::Unkeyed,
    };
    if !state.told_events || !matches!(lookup, Lookup::Known(_)) {
        state.cursor = log.len();
    }
    let result = match lookup {
        // Answered before: the bot is not called, so it logs nothing.
        Lookup::Known(answer) => {
            rec.record(&asked(&header, p, Some(answer)));
            return Ok(answer);
        }
        Lookup::New(key) => {
            let result = state.player.decide(&request);
            if let Ok(answer) = result {
                state.answers.keep(key, answer);
            }
            result
        }
        Lookup::Unkeyed => {
            let result = state.player.decide(&request);
            if let (Some(audit), Ok(answer)) = (state.audit.as_deref_mut(), &result) {
                audit_answer(audit, (state.weights, shown, dealt_before), &request, round, *answer);
            }
            result
        }
    };
    rec.record(&asked(&header, p, result.as_ref().ok().copied()));
    if let Some(text) = state.player.take_log() {
        rec.record(&TableEvent::BotLog { seat: header.seat, player: p.0, kind: header.kind, text });
    }
    result
}

/// Compares a player's `answer` to `request` in `round` with its earlier
/// answer to the request's key, where its keys are under audit
/// ([`Table::audit_keys`]) and key this decision; the true count taken
/// from `shown` with its `weights`, the boxes dealt the round before from
/// `dealt_before`.
#[cold]
#[inline(never)]
fn audit_answer(
    audit: &mut KeyAudit,
    (weights, shown, dealt_before): (Option<key::Weights>, &Shown, u32),
    request: &Request<'_>,
    round: u64,
    answer: i64,
) {
    if let Some(parts) = audit.parts[usize::from(request.header.kind as u8)] {
        let derived = derived(parts, (shown, dealt_before), weights, request.header.seat);
        audit.compare(parts, request, round, derived, answer);
    }
}

/// The parts of a key of `parts` that the table derives from the events,
/// for a question about box `seat`: the true count of the cards `shown`
/// under `weights`, and whether a box other than `seat` is among those
/// dealt a card the round before (`dealt_before`, one bit a box).
#[inline]
fn derived(parts: u32, (shown, dealt_before): (&Shown, u32), weights: Option<key::Weights>, seat: u8) -> key::Derived {
    key::Derived { count: shown.count_for(parts, weights), others: key::others_dealt(dealt_before, seat) }
}

/// The answer of a player that left a decision to its default
/// for good as it sat down ([`PlayerState::defaulted`]), recorded as asked;
/// the events wait for its next question.
#[inline(always)]
fn by_default<R: Recorder>(
    state: &PlayerState,
    p: PlayerId,
    (seat, kind, legal, min): (u8, Decision, ActionSet, i64),
    rec: &mut R,
) -> i64 {
    let answer = pitboss_sdk::abi::default_answer(kind, state.balance, min);
    rec.record(&TableEvent::Asked { seat, player: p.0, kind, legal, answer: Some(answer) });
    answer
}

/// The record of player `p` asked `header`'s decision, and its answer.
#[inline(always)]
fn asked(header: &Header, p: PlayerId, answer: Option<i64>) -> TableEvent {
    TableEvent::Asked { seat: header.seat, player: p.0, kind: header.kind, legal: header.legal, answer }
}

impl Table {
    /// Asks player `p` one decision about the box `header.seat`, showing
    /// it `hand`; returns its answer, or the fault that stands in for one.
    pub(crate) fn ask<R: Recorder>(
        &mut self,
        p: PlayerId,
        header: Header,
        hand: &[Card],
        rec: &mut R,
    ) -> Result<i64, Fault> {
        ask_player(
            &mut self.players[p],
            p,
            (&self.log, &self.shown, self.dealt_before),
            self.round,
            header,
            (hand, Total::of(hand)),
            rec,
        )
    }

    /// Asks player `p` the decision `kind` about box `b` (`bet` and
    /// `limits`: min, max, unit, as [`Table::header`] takes them), showing
    /// it the box's first hand: no cards before the deal (bets), the dealt
    /// cards after it (insurance, even money). A player that leaves `kind`
    /// to its default (most bots, for their bets and every offer) is
    /// answered before any of the header is built, as [`ask_player`] would
    /// answer it.
    #[inline(always)]
    pub(super) fn ask_about<R: Recorder>(
        &mut self,
        p: PlayerId,
        b: BoxId,
        kind: Decision,
        bet: i64,
        limits: (i64, i64, i64),
        rec: &mut R,
    ) -> Result<i64, Fault> {
        let state = &self.players[p];
        if !state.disqualified && state.defaulted & kind.bit() != 0 {
            return Ok(by_default(state, p, (b.0, kind, ActionSet::EMPTY, limits.0), rec));
        }
        let header = self.header(b, kind, bet, limits);
        let first = self.boxes[b].hands.first().map_or((&[][..], Total::default()), |h| (h.cards(), h.total));
        ask_player(&mut self.players[p], p, (&self.log, &self.shown, self.dealt_before), self.round, header, first, rec)
    }

    /// Asks the holder of box `b` about its hand `h`, showing the hand in
    /// place (no copy on this per-decision path).
    pub(super) fn ask_box<R: Recorder>(
        &mut self,
        b: BoxId,
        header: Header,
        h: usize,
        rec: &mut R,
    ) -> Result<i64, Fault> {
        let (p, hand) = (self.boxes[b].holder, &self.boxes[b].hands[h]);
        ask_player(
            &mut self.players[p],
            p,
            (&self.log, &self.shown, self.dealt_before),
            self.round,
            header,
            (hand.cards(), hand.total),
            rec,
        )
    }

    /// The answer the holder of box `b` gave before to this act of its
    /// hand `h`, where it keys its acts by a short key
    /// (`key::encode_short`) and is not disqualified: recorded as asked,
    /// as [`ask_player`] records it, but found without building the
    /// question (its header, rules block and request) — the path of
    /// almost every act of a basic strategy. `None`: ask as usual.
    #[inline(always)]
    pub(super) fn known_act<R: Recorder>(&mut self, b: BoxId, h: usize, legal: ActionSet, rec: &mut R) -> Option<i64> {
        let bx = &self.boxes[b];
        let p = bx.holder;
        let state = &self.players[p];
        // An act is never left to a default.
        let parts = state.keys[usize::from(Decision::Act as u8)]?;
        if state.disqualified {
            return None;
        }
        let hand = &bx.hands[h];
        let fields = KeyFields {
            kind: Decision::Act,
            seat: b.0,
            hand_index: hand_byte(h),
            hand_count: hand_byte(bx.hands.len()),
            legal,
            dealer_up: self.dealer.cards().first().copied(),
            count: self.shown.count_for(parts, state.weights),
        };
        let answer = state.answers.known_short(key::encode_short_of(parts, &fields, hand.cards(), hand.total)?)?;
        // One that reads events gets them with its next question.
        if !state.told_events {
            self.players[p].cursor = self.log.len();
        }
        rec.record(&TableEvent::Asked { seat: b.0, player: p.0, kind: Decision::Act, legal, answer: Some(answer) });
        Some(answer)
    }

    /// Counts and records a fault of player `p` (about box `b`);
    /// disqualifies at the fault limit. A disqualified player's non-answers
    /// are not faults of their own.
    pub(crate) fn fault<R: Recorder>(&mut self, p: PlayerId, b: BoxId, kind: Decision, fault: Fault, rec: &mut R) {
        if fault.kind == FaultKind::Disqualified {
            return;
        }
        let s = &mut self.players[p];
        s.stats.faults += 1;
        let disqualify = self.fault_limit > 0 && s.stats.faults >= self.fault_limit && !s.disqualified;
        s.disqualified |= disqualify;
        rec.record(&TableEvent::Fault { seat: b.0, player: p.0, round: self.round, kind, fault });
        if disqualify {
            rec.record(&TableEvent::Disqualified { seat: b.0, round: self.round });
        }
    }

    /// Checks an amount answer: 0, or `min..=max` in steps of `unit`.
    /// Anything else (or a fault) is recorded and becomes 0.
    #[inline]
    pub(crate) fn checked_amount<R: Recorder>(
        &mut self,
        p: PlayerId,
        b: BoxId,
        kind: Decision,
        answer: Result<i64, Fault>,
        (min, max, unit): (i64, i64, i64),
        rec: &mut R,
    ) -> i64 {
        match answer {
            Ok(0) => 0,
            Ok(a) if a >= min && a <= max && super::rem_unit(a, unit) == 0 => a,
            other => {
                let why = |a| format!("{} {a} is not 0 or {min}..={max} in steps of {unit}", kind.name());
                self.refused(p, b, kind, other, why, rec);
                0
            }
        }
    }

    /// Records a refused answer: an illegal one (`why` says why) or the
    /// player's own fault. Off the per-decision path, so checking a good
    /// answer stays a few compares where it is asked.
    #[cold]
    #[inline(never)]
    pub(crate) fn refused<R: Recorder>(
        &mut self,
        p: PlayerId,
        b: BoxId,
        kind: Decision,
        answer: Result<i64, Fault>,
        why: impl FnOnce(i64) -> String,
        rec: &mut R,
    ) {
        let fault = match answer {
            Ok(a) => Fault::new(FaultKind::Illegal, why(a)),
            Err(f) => f,
        };
        self.fault(p, b, kind, fault, rec);
    }

    /// Checks a bet: an amount as [`Table::checked_amount`], but where the
    /// table does not allow sitting out, a 0 is a fault and the minimum is
    /// staked instead (as it is for any faulted bet there).
    #[inline]
    pub(crate) fn checked_bet<R: Recorder>(
        &mut self,
        p: PlayerId,
        b: BoxId,
        answer: Result<i64, Fault>,
        limits: (i64, i64, i64),
        rec: &mut R,
    ) -> i64 {
        let said_zero = matches!(answer, Ok(0));
        let amount = self.checked_amount(p, b, Decision::Bet, answer, limits, rec);
        if amount == 0 && !self.rules.sit_out {
            if said_zero {
                let why = |_| "bet 0: sitting out is not allowed at this table".to_string();
                self.refused(p, b, Decision::Bet, Ok(0), why, rec);
            }
            return limits.0;
        }
        amount
    }

    /// Checks a yes/no answer (1 or 0); anything else faults and is "no".
    #[inline]
    pub(crate) fn checked_flag<R: Recorder>(
        &mut self,
        p: PlayerId,
        b: BoxId,
        kind: Decision,
        answer: Result<i64, Fault>,
        rec: &mut R,
    ) -> bool {
        match answer {
            Ok(0) => false,
            Ok(1) => true,
            other => {
                self.refused(p, b, kind, other, |a| format!("{} {a} is neither 1 (yes) nor 0 (no)", kind.name()), rec);
                false
            }
        }
    }

    /// The header of a decision about box `b`, its hands counted; the
    /// asking fills in the player's balance and the round.
    #[inline]
    pub(crate) fn header(&self, b: BoxId, kind: Decision, bet: i64, (min, max, unit): (i64, i64, i64)) -> Header {
        Header {
            kind,
            variant: self.rules.variant,
            seat: b.0,
            hand_index: 0,
            // A banking player's box is past the table's (the banker game
            // sets its own count).
            hand_count: if b.0 < self.box_count { hand_byte(self.boxes[b].hands.len()) } else { 0 },
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

#[cfg(test)]
mod tests {
    use pitboss_sdk::Decision;

    use crate::id::{BoxId, PlayerId};
    use crate::player::FaultKind;
    use crate::record::TableEvent;
    use crate::rules::Rules;
    use crate::testkit::{Script, faults, round, stacked};

    #[test]
    fn a_flag_is_one_or_zero_and_anything_else_is_a_fault_and_no() {
        let mut table = stacked(Rules::north_american(), "", vec![Script::new(0, &[]).boxed()]);
        let mut events = Vec::new();
        let mut rec = |e: &TableEvent| events.push(e.clone());
        let (p, b, kind) = (PlayerId(0), BoxId(0), Decision::EvenMoney);
        assert!(table.checked_flag(p, b, kind, Ok(1), &mut rec));
        assert!(!table.checked_flag(p, b, kind, Ok(0), &mut rec));
        assert!(!table.checked_flag(p, b, kind, Ok(2), &mut rec));
        assert_eq!(faults(&events), [kind]);
        assert_eq!(table.players()[0].stats.faults, 1);
    }

    #[test]
    fn an_amount_is_zero_or_in_range_in_whole_units() {
        let mut table = stacked(Rules::north_american(), "", vec![Script::new(0, &[]).boxed()]);
        let (p, b, kind, limits) = (PlayerId(0), BoxId(0), Decision::BackBet, (2, 10, 2));
        for (answer, amount) in [(0, 0), (2, 2), (10, 10), (1, 0), (3, 0), (12, 0), (-2, 0)] {
            assert_eq!(table.checked_amount(p, b, kind, Ok(answer), limits, &mut ()), amount, "{answer}");
        }
        assert_eq!(table.players()[0].stats.faults, 4);
    }

    #[test]
    fn each_refused_answer_is_recorded_with_why_and_a_bots_own_fault_as_it_came() {
        let mut table = stacked(Rules::north_american(), "", vec![Script::new(0, &[]).boxed()]);
        let mut messages = Vec::new();
        let mut rec = |e: &TableEvent| {
            if let TableEvent::Fault { fault, .. } = e {
                messages.push((fault.kind, fault.message.clone()));
            }
        };
        let (p, b) = (PlayerId(0), BoxId(0));
        assert_eq!(table.checked_amount(p, b, Decision::Insurance, Ok(3), (2, 10, 2), &mut rec), 0);
        assert!(!table.checked_flag(p, b, Decision::EvenMoney, Ok(7), &mut rec));
        let trap = crate::player::Fault::new(FaultKind::Trap, "unreachable");
        assert!(!table.checked_flag(p, b, Decision::EvenMoney, Err(trap), &mut rec));
        assert_eq!(
            messages,
            [
                (FaultKind::Illegal, "insurance 3 is not 0 or 2..=10 in steps of 2".to_string()),
                (FaultKind::Illegal, "even-money 7 is neither 1 (yes) nor 0 (no)".to_string()),
                (FaultKind::Trap, "unreachable".to_string()),
            ]
        );
    }

    #[test]
    fn a_player_is_disqualified_at_the_fault_limit_and_asked_nothing_more() {
        // 3 is no legal bet: one fault a round.
        let mut table = stacked(Rules::north_american(), "", vec![Script::new(3, &[]).boxed()]);
        table.set_fault_limit(2);
        round(&mut table);
        let second = round(&mut table);
        assert!(second.contains(&TableEvent::Disqualified { seat: 0, round: 2 }));
        assert!(table.players()[0].disqualified && table.out_for_good(0));
        let third = round(&mut table);
        assert!(!third.iter().any(|e| matches!(e, TableEvent::Asked { .. })));
        let f = crate::player::Fault::new(FaultKind::Disqualified, "");
        table.fault(PlayerId(0), BoxId(0), Decision::Bet, f, &mut ());
        assert_eq!(table.players()[0].stats.faults, 2, "not asked is no fault of its own");
    }
}
