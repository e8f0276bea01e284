//! `Table`: plays rounds of the dealer games — bets, side and back bets,
//! deal, insurance, peek or no hole card, play, dealer, settlement — asking
//! players through [`Player`] and telling observers through [`Recorder`].
//! The banker game lives in `banker.rs`.
//!
//! Chips only ever move between a player's balance, the stakes on the
//! table and the house, in whole numbers: **players' balances plus the
//! house's stay constant across every round.**

use pitboss_sdk::abi::{Header, MAX_HAND_CARDS, RulesBlock, event_kind};
use pitboss_sdk::{Action, ActionSet, Card, Decision, Event, SideBet, Total, is_natural};

use crate::player::{Fault, FaultKind, Player, Request};
use crate::record::{Outcome, Recorder, TableEvent};
use crate::rules::{Banker, Game, InsuranceOn, Rules, RulesError};
use crate::shoe::{Shoe, ShoeExhausted, ShuffleKind};
use crate::stats::Stats;

/// A player seated at a table: the player, its chips and statistics.
pub struct Seat {
    pub(crate) player: Box<dyn Player + Send>,
    /// Chips not on the table.
    pub balance: i64,
    /// Statistics over the rounds played.
    pub stats: Stats,
    /// Reached the fault limit: sits out every later round, chips frozen.
    pub disqualified: bool,
    /// Index of the first event in the table log this player has not seen.
    pub(crate) cursor: usize,
    /// Balance before the current round's bets.
    pub(crate) round_start_balance: i64,
    /// Sum of the current round's initial bets.
    pub(crate) round_bet: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HandState {
    Playing,
    Stood,
    Bust,
    Surrendered,
    /// Paid or lost before the showdown (peek, even money).
    Settled,
}

#[derive(Clone, Copy)]
pub(crate) struct Hand {
    pub(crate) cards: [Card; MAX_HAND_CARDS],
    pub(crate) len: u8,
    pub(crate) total: Total,
    pub(crate) bet: i64,
    /// The part of `bet` that was the box's original stake (not a double
    /// or a split's extra bet).
    original: i64,
    from_split: bool,
    split_aces: bool,
    /// Every ace counts 1 (after doubling a soft hand in `swedish`).
    aces_low: bool,
    pub(crate) state: HandState,
}

impl Hand {
    pub(crate) fn new(bet: i64) -> Hand {
        Hand {
            cards: [Card::ACE; MAX_HAND_CARDS],
            len: 0,
            total: Total::default(),
            bet,
            original: bet,
            from_split: false,
            split_aces: false,
            aces_low: false,
            state: HandState::Playing,
        }
    }

    #[inline]
    pub(crate) fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    #[inline]
    pub(crate) fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
        self.total = self.total.add(card);
    }

    /// The hand's total as it counts.
    #[inline]
    pub(crate) fn best(&self) -> u8 {
        if self.aces_low { self.total.hard } else { self.total.best() }
    }

    /// Ace + ten as the first two cards of an unsplit hand.
    #[inline]
    fn is_natural(&self) -> bool {
        !self.from_split && is_natural(self.cards())
    }
}

/// A stake behind a box (danish back bets), following its holder's hand.
struct BackStake {
    /// The betting player (index into `Table::seats`).
    seat: usize,
    /// The holder's hand it rides on.
    hand: usize,
    stake: i64,
    original: i64,
}

/// One box in play this round.
struct BoxState {
    /// The holder (index into `Table::seats`).
    seat: usize,
    base_bet: i64,
    insurance: i64,
    side: Option<(SideBet, i64)>,
    hands: Vec<Hand>,
    back: Vec<BackStake>,
}

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

/// A blackjack table: rules, shoe, seated players and the house.
pub struct Table {
    pub(crate) rules: Rules,
    pub(crate) block: RulesBlock,
    pub(crate) shoe: Shoe,
    pub(crate) seats: Vec<Seat>,
    boxes: Vec<BoxState>,
    dealer: Hand,
    hole: Option<Card>,
    pub(crate) house: i64,
    pub(crate) round: u64,
    /// Bot-visible events; each seat reads from its own cursor.
    pub(crate) log: Vec<Event>,
    /// Boxes with a bet this round, in play order.
    active: Vec<usize>,
    /// Faults after which a player is disqualified; 0 = never.
    fault_limit: u64,
}

impl Table {
    /// A table with `rules`, `shoe` and the players in seat order, each
    /// starting with `bankroll` chips. Each player holds
    /// `rules.boxes_per_player` boxes, from the dealer's left.
    pub fn new(
        rules: Rules,
        shoe: Shoe,
        players: Vec<Box<dyn Player + Send>>,
        bankroll: i64,
    ) -> Result<Table, RulesError> {
        rules.validate()?;
        if !(1..=crate::rules::MAX_BANKROLL).contains(&bankroll) {
            let problem = format!("{bankroll} is outside 1..={}", crate::rules::MAX_BANKROLL);
            return Err(RulesError { field: "bankroll", problem });
        }
        let per = rules.boxes_per_player as usize;
        let seats_max = rules.seats();
        if players.is_empty() || players.len() > seats_max {
            return Err(RulesError {
                field: "boxes",
                problem: format!("{} players do not fit a table of {seats_max} seats", players.len()),
            });
        }
        let seats: Vec<Seat> = players
            .into_iter()
            .map(|player| Seat {
                player,
                balance: bankroll,
                stats: Stats::default(),
                disqualified: false,
                cursor: 0,
                round_start_balance: bankroll,
                round_bet: 0,
            })
            .collect();
        let boxes = (0..seats.len() * per)
            .map(|b| BoxState {
                seat: b / per,
                base_bet: 0,
                insurance: 0,
                side: None,
                hands: Vec::new(),
                back: Vec::new(),
            })
            .collect();
        Ok(Table {
            block: rules.block(),
            rules,
            shoe,
            seats,
            boxes,
            dealer: Hand::new(0),
            hole: None,
            house: 0,
            round: 0,
            log: Vec::with_capacity(1024),
            active: Vec::with_capacity(7),
            fault_limit: 0,
        })
    }

    /// Disqualifies a player at its `limit`-th fault (0 = never): it is not
    /// asked again, sits out every later round and keeps its chips.
    pub fn set_fault_limit(&mut self, limit: u64) {
        self.fault_limit = limit;
    }

    /// The seats, in seat order.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The house's net chips (what the players lost in all).
    pub fn house(&self) -> i64 {
        self.house
    }

    /// Events kept for seats that have not been told them yet (bounded by
    /// a round's events for every seat still playing).
    pub fn pending_events(&self) -> usize {
        self.log.len()
    }

    /// Rounds played so far.
    pub fn rounds(&self) -> u64 {
        self.round
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Plays one round. If the shoe runs out mid-round beyond recovery the
    /// round is void: every chip goes back where it was and observers are
    /// told (`RoundVoid`). The banker game's seeded deck is shuffled anew
    /// for the next round, so there the round still counts and `Ok` is
    /// returned; otherwise (a stacked shoe) nothing more can be dealt, so
    /// the round does not count and the error is returned.
    pub fn play_round<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        let house = self.house;
        let result = match self.rules.game {
            Game::Dealer => self.round_inner(rec),
            Game::Banker => crate::banker::play_round(self, rec),
        };
        if let Err(e) = result {
            // Nothing more can be dealt, so the round does not count.
            self.void_round(house, rec);
            self.round -= 1;
            return Err(e);
        }
        Ok(())
    }

    /// Voids the current round: every chip goes back where it was when the
    /// round began (`house` is the house's chips then), and observers are
    /// told, so that whatever they booked from this round's bets and
    /// settlements can be undone as well.
    pub(crate) fn void_round<R: Recorder>(&mut self, house: i64, rec: &mut R) {
        self.house = house;
        for s in &mut self.seats {
            s.balance = s.round_start_balance;
            s.round_bet = 0;
        }
        rec.record(&TableEvent::RoundVoid { round: self.round });
    }

    #[inline]
    pub(crate) fn emit(&mut self, kind: u8, seat: u8, hand: u8, card: Card) {
        self.log.push(Event { kind, seat, hand, card });
    }

    /// Whether seat `p` is out for good: disqualified, or unable to stake
    /// the table minimum (broke), which no later round can change.
    pub fn out_for_good(&self, p: usize) -> bool {
        !self.may_be_asked(p)
    }

    /// Whether seat `p` can still be asked anything: not disqualified, and
    /// able to stake the minimum (in the banker game a player stakes at
    /// most a quarter or a half of its balance). A seat that cannot is out
    /// for good: chips only reach a seat through its own stakes or its
    /// bank, and both need more than that.
    fn may_be_asked(&self, p: usize) -> bool {
        !self.seats[p].disqualified && self.stake_cap(p) >= self.rules.min_bet
    }

    /// The largest main bet seat `p` may stake now: its balance (in the
    /// banker game a quarter of it when the banker may double, half when
    /// the house banks: [`Rules::stake_divisor`]) in whole units, capped at
    /// the table maximum.
    pub(crate) fn stake_cap(&self, p: usize) -> i64 {
        let balance = self.seats[p].balance;
        // In the banker game a player must be able to pay its worst round:
        // a doubled stake doubled again by a banker's blackjack when the
        // banker may double (a player banks), twice its stake when it
        // cannot (the house banker never doubles).
        let divisor = self.rules.stake_divisor(self.rules.banker == Banker::House);
        // Dividing by 1 (every dealer game) is skipped: this is on the
        // per-box path of every round.
        let balance = if divisor == 1 { balance } else { balance / i64::from(divisor) };
        Self::affordable(balance, self.rules.max_bet, self.rules.bet_unit)
    }

    /// Drops log entries every seat has seen. A seat out for good is told
    /// nothing more: without this, its unread events would pile up for the
    /// rest of the match (a broke bot in a ten-million-round league).
    pub(crate) fn compact_log(&mut self) {
        let len = self.log.len();
        for p in 0..self.seats.len() {
            if self.seats[p].cursor < len && !self.may_be_asked(p) {
                self.seats[p].cursor = len;
            }
        }
        let seen = self.seats.iter().map(|s| s.cursor).min().unwrap_or(0);
        if seen == len {
            // The usual case: every seat has read everything.
            self.log.clear();
            for s in &mut self.seats {
                s.cursor = 0;
            }
        } else if seen > 0 {
            self.log.drain(..seen);
            for s in &mut self.seats {
                s.cursor -= seen;
            }
        }
    }

    /// Starts a round: number, log, shuffle, `ROUND` event, balances.
    pub(crate) fn begin_round<R: Recorder>(&mut self, rec: &mut R) {
        self.round += 1;
        self.compact_log();
        // A round that dealt nothing (only its `ROUND` event is left) tells
        // a bot nothing the next round's number does not; nor does a second
        // full shuffle with no card dealt since the first. Dropping them
        // keeps the unread events bounded at a table where nobody plays any
        // more (a lone banker whose players all went broke).
        if self.log.last().is_some_and(|e| e.kind == event_kind::ROUND) {
            self.log.pop();
            let len = self.log.len();
            for s in &mut self.seats {
                s.cursor = s.cursor.min(len);
            }
        }
        if self.rules.shuffle_every_round {
            self.shoe.force_shuffle();
        }
        if self.shoe.start_round() {
            if self.log.last().is_none_or(|e| e.kind != event_kind::SHUFFLE) {
                self.emit(event_kind::SHUFFLE, 0, 0, Card::ACE);
            }
            rec.record(&TableEvent::Shuffle(ShuffleKind::Full));
        }
        self.emit(event_kind::ROUND, self.boxes.len() as u8, 0, Card::ACE);
        rec.record(&TableEvent::RoundStart { round: self.round });
        for s in &mut self.seats {
            s.round_start_balance = s.balance;
            s.round_bet = 0;
        }
    }

    /// Ends a round: statistics, `RoundEnd`.
    pub(crate) fn end_round<R: Recorder>(&mut self, rec: &mut R) {
        for s in &mut self.seats {
            // A round counts for a player that staked a hand, or whose
            // chips moved all the same (a side bet alone cannot: it rides
            // on the player's own box).
            if s.round_bet > 0 || s.balance != s.round_start_balance {
                s.stats.add_round(s.round_bet, s.balance - s.round_start_balance);
            }
        }
        rec.record(&TableEvent::RoundEnd { round: self.round });
    }

    pub(crate) fn deal<R: Recorder>(&mut self, rec: &mut R) -> Result<Card, ShoeExhausted> {
        let mut partial = false;
        let card = self.shoe.deal(|_| partial = true)?;
        if partial {
            self.emit(event_kind::PARTIAL_SHUFFLE, 0, 0, Card::ACE);
            rec.record(&TableEvent::Shuffle(ShuffleKind::Discards));
        }
        Ok(card)
    }

    fn deal_to_hand<R: Recorder>(&mut self, b: usize, h: usize, rec: &mut R) -> Result<(), ShoeExhausted> {
        let card = self.deal(rec)?;
        self.boxes[b].hands[h].push(card);
        self.emit(event_kind::CARD, b as u8, h as u8, card);
        rec.record(&TableEvent::Card { seat: b as u8, hand: h as u8, card });
        Ok(())
    }

    fn deal_to_dealer<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        let card = self.deal(rec)?;
        self.dealer.push(card);
        self.emit(event_kind::DEALER_CARD, 0, 0, card);
        rec.record(&TableEvent::DealerCard { card, hole: false });
        Ok(())
    }

    /// Asks player `p` one decision about `header.seat`, showing it `hand`;
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
    fn ask_box<R: Recorder>(&mut self, b: usize, header: Header, h: usize, rec: &mut R) -> Result<i64, Fault> {
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

    /// The largest stake `balance` covers, capped at `cap`, in `unit`s.
    #[inline]
    pub(crate) fn affordable(balance: i64, cap: i64, unit: i64) -> i64 {
        cap.min(balance - balance.rem_euclid(unit))
    }

    fn round_inner<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        self.dealer = Hand::new(0);
        self.hole = None;
        self.begin_round(rec);
        self.take_bets(rec);
        if !self.active.is_empty() {
            if self.rules.back_bets {
                self.take_back_bets(rec);
            }
            self.deal_and_play(rec)?;
        }
        self.end_round(rec);
        Ok(())
    }

    fn take_bets<R: Recorder>(&mut self, rec: &mut R) {
        let (min, unit) = (self.rules.min_bet, self.rules.bet_unit);
        self.active.clear();
        for b in 0..self.boxes.len() {
            let bx = &mut self.boxes[b];
            bx.base_bet = 0;
            bx.insurance = 0;
            bx.side = None;
            bx.hands.clear();
            bx.back.clear();
            let p = bx.seat;
            let max = self.stake_cap(p);
            if max < min || self.seats[p].disqualified {
                continue; // Cannot cover the minimum, or disqualified: sits out unasked.
            }
            let header = self.header(b as u8, Decision::Bet, 0, (min, max, unit));
            let answer = self.ask(p, header, &[], rec);
            let amount = self.checked_bet(p, b as u8, answer, (min, max, unit), rec);
            if amount == 0 {
                continue;
            }
            let seat = &mut self.seats[p];
            seat.balance -= amount;
            seat.round_bet += amount;
            let bx = &mut self.boxes[b];
            bx.base_bet = amount;
            bx.hands.push(Hand::new(amount));
            self.active.push(b);
            rec.record(&TableEvent::Bet { seat: b as u8, amount });
            if self.rules.over_under_13 {
                self.take_side_bet(b, rec);
            }
        }
    }

    /// Over/Under 13, placed with the main bet: `(side << 32) | amount`,
    /// the amount from the table minimum up to the main bet.
    fn take_side_bet<R: Recorder>(&mut self, b: usize, rec: &mut R) {
        let p = self.boxes[b].seat;
        let (min, unit) = (self.rules.min_bet, self.rules.bet_unit);
        let max = Self::affordable(self.seats[p].balance, self.boxes[b].base_bet, unit);
        if max < min {
            return;
        }
        let header = self.header(b as u8, Decision::SideBet, self.boxes[b].base_bet, (min, max, unit));
        let answer = self.ask(p, header, &[], rec);
        let side = match answer {
            Ok(0) => return,
            Ok(a) => {
                let amount = a & 0xffff_ffff;
                let side = match a >> 32 {
                    1 => Some(SideBet::Over),
                    2 => Some(SideBet::Under),
                    _ => None,
                };
                match side {
                    Some(side) if amount >= min && amount <= max && amount % unit == 0 => Ok((side, amount)),
                    _ => Err(Fault {
                        kind: FaultKind::Illegal,
                        message: format!(
                            "side-bet {a:#x} is not (1 over | 2 under) << 32 | amount in {min}..={max} steps of {unit}"
                        ),
                    }),
                }
            }
            Err(f) => Err(f),
        };
        match side {
            Ok((side, amount)) => {
                // A side bet is a proposition of its own, not a stake on a
                // hand: it moves chips but not the EV's denominator.
                self.seats[p].balance -= amount;
                self.boxes[b].side = Some((side, amount));
                rec.record(&TableEvent::SideBet { seat: b as u8, side, amount });
            }
            Err(f) => self.fault(p, b as u8, Decision::SideBet, f, rec),
        }
    }

    /// Danish back bets: every player is offered the boxes it does not
    /// hold, one by one, until it places one.
    fn take_back_bets<R: Recorder>(&mut self, rec: &mut R) {
        let (min, unit) = (self.rules.min_bet, self.rules.bet_unit);
        for p in 0..self.seats.len() {
            for i in 0..self.active.len() {
                let b = self.active[i];
                if self.boxes[b].seat == p || self.seats[p].disqualified {
                    continue;
                }
                let on_box: i64 = self.boxes[b].base_bet + self.boxes[b].back.iter().map(|s| s.stake).sum::<i64>();
                let max = Self::affordable(self.seats[p].balance, self.rules.max_bet - on_box, unit);
                if max < min {
                    continue;
                }
                let header = self.header(b as u8, Decision::BackBet, self.boxes[b].base_bet, (min, max, unit));
                let answer = self.ask(p, header, &[], rec);
                let said_zero = matches!(answer, Ok(0));
                let stake = self.checked_amount(p, b as u8, Decision::BackBet, answer, (min, max, unit), rec);
                if stake > 0 {
                    let seat = &mut self.seats[p];
                    seat.balance -= stake;
                    seat.round_bet += stake;
                    self.boxes[b].back.push(BackStake { seat: p, hand: 0, stake, original: stake });
                    rec.record(&TableEvent::BackBet { seat: b as u8, player: p as u8, amount: stake });
                }
                if !said_zero {
                    break; // One back bet per round; a bad answer ends the offers.
                }
            }
        }
    }

    fn deal_and_play<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        for i in 0..self.active.len() {
            self.deal_to_hand(self.active[i], 0, rec)?;
        }
        self.deal_to_dealer(rec)?;
        for i in 0..self.active.len() {
            self.deal_to_hand(self.active[i], 0, rec)?;
        }
        if self.rules.hole_card {
            let hole = self.deal(rec)?;
            self.hole = Some(hole);
            rec.record(&TableEvent::DealerCard { card: hole, hole: true });
        }
        if self.rules.over_under_13 {
            self.settle_side_bets(rec);
        }

        let up = self.dealer.cards()[0];
        let offered = match self.rules.insurance_on {
            InsuranceOn::Never => false,
            InsuranceOn::Ace => up.is_ace(),
            InsuranceOn::AceOrTen => up.is_ace() || up.is_ten(),
        };
        // Even money and insurance are alternatives: a blackjack facing an
        // ace is asked about even money first, and a box that takes it is
        // settled and not offered insurance (RULES.md, swedish).
        if self.hole.is_none() && self.rules.even_money && up.is_ace() {
            self.offer_even_money(rec);
        }
        if offered {
            self.offer_insurance(rec);
        }

        if let Some(hole) = self.hole {
            if is_natural(&[up, hole]) {
                self.reveal_hole(rec);
                self.settle_insurance(true, rec);
                self.settle_against_dealer_natural(rec);
                return Ok(());
            }
            self.settle_insurance(false, rec);
            self.pay_naturals(rec);
        }

        for i in 0..self.active.len() {
            self.play_box(self.active[i], rec)?;
        }
        if self.dealer_turn(rec)? {
            self.settle(rec);
        }
        Ok(())
    }

    /// Over/Under 13 on each box's first two cards (aces 1): a right guess
    /// pays 1:1, "under" on two aces 1.5×, exactly 13 loses both ways.
    fn settle_side_bets<R: Recorder>(&mut self, rec: &mut R) {
        for i in 0..self.active.len() {
            let b = self.active[i];
            let Some((side, amount)) = self.boxes[b].side else { continue };
            let total = self.boxes[b].hands[0].total.hard;
            let returned = match side {
                SideBet::Over if total > 13 => 2 * amount,
                SideBet::Under if total == 2 => amount + amount * 3 / 2,
                SideBet::Under if total < 13 => 2 * amount,
                _ => 0,
            };
            self.seats[self.boxes[b].seat].balance += returned;
            self.house += amount - returned;
            rec.record(&TableEvent::SideBetSettled { seat: b as u8, returned });
        }
    }

    fn offer_insurance<R: Recorder>(&mut self, rec: &mut R) {
        for i in 0..self.active.len() {
            let b = self.active[i];
            if self.boxes[b].hands[0].state == HandState::Settled {
                continue; // Took even money: settled, and insurance is its alternative.
            }
            let p = self.boxes[b].seat;
            let base = self.boxes[b].base_bet;
            let half = base / 2;
            let balance = self.seats[p].balance;
            let (min, max) = if self.rules.insurance_up_to_half { (1, half.min(balance)) } else { (half, half) };
            if half == 0 || balance < min || max < min {
                continue;
            }
            let header = self.header(b as u8, Decision::Insurance, base, (min, max, 1));
            let answer = self.ask_box(b, header, 0, rec);
            let amount = self.checked_amount(p, b as u8, Decision::Insurance, answer, (min, max, 1), rec);
            if amount > 0 {
                self.seats[p].balance -= amount;
                self.boxes[b].insurance = amount;
                rec.record(&TableEvent::Insurance { seat: b as u8, amount });
            }
        }
    }

    /// Insurance pays 2:1 and returns its stake on a dealer blackjack, else
    /// goes to the house.
    fn settle_insurance<R: Recorder>(&mut self, dealer_natural: bool, rec: &mut R) {
        for i in 0..self.active.len() {
            let b = self.active[i];
            let stake = std::mem::take(&mut self.boxes[b].insurance);
            if stake == 0 {
                continue;
            }
            let returned = if dealer_natural { stake * 3 } else { 0 };
            self.seats[self.boxes[b].seat].balance += returned;
            self.house += stake - returned;
            rec.record(&TableEvent::InsuranceSettled { seat: b as u8, returned });
        }
    }

    /// A blackjack facing an ace, no hole card: take 1:1 now?
    fn offer_even_money<R: Recorder>(&mut self, rec: &mut R) {
        for i in 0..self.active.len() {
            let b = self.active[i];
            if !self.boxes[b].hands[0].is_natural() {
                continue;
            }
            let p = self.boxes[b].seat;
            let header = self.header(b as u8, Decision::EvenMoney, self.boxes[b].base_bet, (0, 1, 1));
            let answer = self.ask_box(b, header, 0, rec);
            if self.checked_flag(p, b as u8, Decision::EvenMoney, answer, rec) {
                self.pay(b, 0, Outcome::EvenMoney, rec);
            }
        }
    }

    /// Hole-card game, no dealer blackjack: naturals are paid at once.
    fn pay_naturals<R: Recorder>(&mut self, rec: &mut R) {
        for i in 0..self.active.len() {
            let b = self.active[i];
            if self.boxes[b].hands[0].is_natural() {
                self.pay(b, 0, Outcome::Blackjack, rec);
            }
        }
    }

    /// The dealer has a natural: naturals push, every other open hand
    /// loses (only its original stake when `original_bets_only`).
    fn settle_against_dealer_natural<R: Recorder>(&mut self, rec: &mut R) {
        for i in 0..self.active.len() {
            let b = self.active[i];
            for h in 0..self.boxes[b].hands.len() {
                let hand = &self.boxes[b].hands[h];
                if matches!(hand.state, HandState::Playing | HandState::Stood) {
                    let outcome = if hand.is_natural() { Outcome::Push } else { Outcome::DealerBlackjack };
                    self.pay(b, h, outcome, rec);
                }
            }
        }
    }

    /// What a stake returns (stake included) for an outcome.
    fn payout(&self, outcome: Outcome, stake: i64, original: i64) -> i64 {
        let (num, den) = self.rules.blackjack_pays;
        match outcome {
            Outcome::Win | Outcome::EvenMoney => 2 * stake,
            Outcome::Blackjack => stake + stake * num as i64 / den as i64,
            Outcome::Push => stake,
            Outcome::Surrender => stake / 2,
            Outcome::Bust | Outcome::Lose => 0,
            Outcome::DealerBlackjack if self.rules.original_bets_only => stake - original,
            Outcome::DealerBlackjack => 0,
        }
    }

    /// Settles hand `h` of box `b` and every back stake riding on it: the
    /// returned chips (stakes included) go back, the rest to the house.
    fn pay<R: Recorder>(&mut self, b: usize, h: usize, outcome: Outcome, rec: &mut R) {
        let (bet, original) = (self.boxes[b].hands[h].bet, self.boxes[b].hands[h].original);
        let returned = self.payout(outcome, bet, original);
        self.boxes[b].hands[h].state = match outcome {
            Outcome::Bust => HandState::Bust,
            Outcome::Surrender => HandState::Surrendered,
            _ => HandState::Settled,
        };
        self.seats[self.boxes[b].seat].balance += returned;
        self.house += bet - returned;
        rec.record(&TableEvent::Settled { seat: b as u8, hand: h as u8, bet, returned, outcome });
        for i in 0..self.boxes[b].back.len() {
            let back = &self.boxes[b].back[i];
            if back.hand != h {
                continue;
            }
            let (p, stake) = (back.seat, back.stake);
            let returned = self.payout(outcome, stake, back.original);
            self.seats[p].balance += returned;
            self.house += stake - returned;
            rec.record(&TableEvent::BackSettled { seat: b as u8, hand: h as u8, player: p as u8, stake, returned });
        }
    }

    fn reveal_hole<R: Recorder>(&mut self, rec: &mut R) {
        if let Some(card) = self.hole.take() {
            self.dealer.push(card);
            self.emit(event_kind::HOLE_CARD, 0, 0, card);
            rec.record(&TableEvent::HoleRevealed { card });
        }
    }

    /// The actions hand `h` of box `b` may take now.
    fn legal_actions(&self, b: usize, h: usize) -> ActionSet {
        let bx = &self.boxes[b];
        let hand = &bx.hands[h];
        let balance = self.seats[bx.seat].balance;
        let mut legal = ActionSet::EMPTY.with(Action::Stand);
        let two_cards = hand.len == 2;
        let can_split = two_cards
            && hand.cards[0].value() == hand.cards[1].value()
            && (self.rules.max_split_hands == 0 || bx.hands.len() < self.rules.max_split_hands as usize)
            && balance >= hand.bet
            && (!hand.cards[0].is_ace() || !hand.from_split || self.rules.resplit_aces);
        if hand.split_aces {
            // Split aces take one card and stop; only a resplit may follow.
            if can_split {
                legal = legal.with(Action::Split);
            }
            return legal;
        }
        legal = legal.with(Action::Hit);
        if two_cards {
            let total_ok = self.rules.double_totals & (1u32 << hand.total.hard.min(31)) != 0;
            let soft_ok = !hand.total.is_soft() || self.rules.double_soft;
            if total_ok && soft_ok && (!hand.from_split || self.rules.double_after_split) && balance >= hand.bet {
                legal = legal.with(Action::Double);
            }
            if can_split {
                legal = legal.with(Action::Split);
            }
            if self.rules.late_surrender && !hand.from_split && bx.hands.len() == 1 {
                legal = legal.with(Action::Surrender);
            }
        }
        legal
    }

    fn play_box<R: Recorder>(&mut self, b: usize, rec: &mut R) -> Result<(), ShoeExhausted> {
        let mut h = 0;
        while h < self.boxes[b].hands.len() {
            if self.boxes[b].hands[h].len == 1 {
                // A split hand gets its second card when its turn comes.
                self.deal_to_hand(b, h, rec)?;
            }
            while self.boxes[b].hands[h].state == HandState::Playing {
                let hand = &self.boxes[b].hands[h];
                if hand.total.is_bust() {
                    self.pay(b, h, Outcome::Bust, rec);
                    break;
                }
                if hand.best() == 21 {
                    self.boxes[b].hands[h].state = HandState::Stood;
                    break;
                }
                let legal = self.legal_actions(b, h);
                if legal == ActionSet::EMPTY.with(Action::Stand) {
                    self.boxes[b].hands[h].state = HandState::Stood;
                    break;
                }
                let action = self.ask_action(b, h, legal, rec);
                rec.record(&TableEvent::Acted { seat: b as u8, hand: h as u8, action });
                self.apply(b, h, action, rec)?;
            }
            h += 1;
        }
        Ok(())
    }

    fn ask_action<R: Recorder>(&mut self, b: usize, h: usize, legal: ActionSet, rec: &mut R) -> Action {
        let bet = self.boxes[b].hands[h].bet;
        let mut header = self.header(b as u8, Decision::Act, bet, (0, 0, 1));
        header.hand_index = h as u8;
        header.legal = legal;
        let p = self.boxes[b].seat;
        match self.ask_box(b, header, h, rec) {
            Ok(answer) => match Action::from_answer(answer) {
                Some(a) if legal.contains(a) => a,
                _ => {
                    let offered: Vec<&str> = legal.iter().map(Action::name).collect();
                    let message = format!("act {answer} is not a legal action (legal: {})", offered.join(", "));
                    self.fault(p, b as u8, Decision::Act, Fault { kind: FaultKind::Illegal, message }, rec);
                    Action::Stand
                }
            },
            Err(f) => {
                self.fault(p, b as u8, Decision::Act, f, rec);
                Action::Stand
            }
        }
    }

    fn apply<R: Recorder>(&mut self, b: usize, h: usize, action: Action, rec: &mut R) -> Result<(), ShoeExhausted> {
        let seat = self.boxes[b].seat;
        match action {
            Action::Stand => self.boxes[b].hands[h].state = HandState::Stood,
            Action::Hit => self.deal_to_hand(b, h, rec)?,
            Action::Double => {
                let hand = &mut self.boxes[b].hands[h];
                self.seats[seat].balance -= hand.bet;
                hand.bet *= 2;
                hand.aces_low = self.rules.aces_low_after_soft_double && hand.total.is_soft();
                self.follow_double(b, h);
                self.deal_to_hand(b, h, rec)?;
                let hand = &mut self.boxes[b].hands[h];
                if hand.total.is_bust() {
                    self.pay(b, h, Outcome::Bust, rec);
                } else {
                    hand.state = HandState::Stood;
                }
            }
            Action::Split => {
                let hand = &mut self.boxes[b].hands[h];
                let (kept, moved) = (hand.cards[0], hand.cards[1]);
                let (bet, original) = (hand.bet, hand.original);
                *hand = Hand::new(bet);
                hand.push(kept);
                hand.from_split = true;
                hand.split_aces = kept.is_ace();
                // The pair has equal values, so the totals agree; the new
                // hand holds the second card itself (a K–Q split keeps both).
                let mut new_hand = Hand { original: 0, ..*hand };
                new_hand.cards[0] = moved;
                hand.original = original;
                self.boxes[b].hands.insert(h + 1, new_hand);
                self.seats[seat].balance -= bet;
                self.follow_split(b, h);
                self.emit(event_kind::SPLIT, b as u8, h as u8, moved);
                self.deal_to_hand(b, h, rec)?;
            }
            Action::Surrender => self.pay(b, h, Outcome::Surrender, rec),
        }
        Ok(())
    }

    /// Back stakes on a doubled hand double too, where their owners can
    /// afford it.
    fn follow_double(&mut self, b: usize, h: usize) {
        for back in self.boxes[b].back.iter_mut().filter(|s| s.hand == h) {
            let owner = &mut self.seats[back.seat];
            if owner.balance >= back.stake {
                owner.balance -= back.stake;
                back.stake *= 2;
            }
        }
    }

    /// Back stakes on a split hand split with it (the new hand is `h + 1`)
    /// where their owners can afford it; else they stay on the first hand.
    fn follow_split(&mut self, b: usize, h: usize) {
        let bx = &mut self.boxes[b];
        for back in bx.back.iter_mut().filter(|s| s.hand > h) {
            back.hand += 1;
        }
        for i in 0..bx.back.len() {
            let (seat, hand, stake) = (bx.back[i].seat, bx.back[i].hand, bx.back[i].stake);
            if hand != h {
                continue;
            }
            let owner = &mut self.seats[seat];
            if owner.balance >= stake {
                owner.balance -= stake;
                bx.back.push(BackStake { seat, hand: h + 1, stake, original: 0 });
            }
        }
    }

    /// Any hand still waiting for the showdown, and any non-natural one?
    fn open_hands(&self) -> (bool, bool) {
        let mut open = false;
        let mut drawing = false;
        for bx in &self.boxes {
            for hand in bx.hands.iter().filter(|hand| hand.state == HandState::Stood) {
                open = true;
                drawing |= !hand.is_natural();
            }
        }
        (open, drawing)
    }

    /// The dealer's turn. Returns whether hands are left to settle.
    fn dealer_turn<R: Recorder>(&mut self, rec: &mut R) -> Result<bool, ShoeExhausted> {
        let (open, drawing) = self.open_hands();
        if self.rules.hole_card {
            self.reveal_hole(rec);
        } else {
            // The second card settles insurance and naturals, so it is drawn
            // whenever anything is outstanding.
            let insured = self.active.iter().any(|&b| self.boxes[b].insurance > 0);
            if !open && !insured {
                return Ok(false);
            }
            self.deal_to_dealer(rec)?;
            let natural = is_natural(self.dealer.cards());
            self.settle_insurance(natural, rec);
            if natural {
                self.settle_against_dealer_natural(rec);
                return Ok(false);
            }
        }
        if drawing {
            loop {
                let t = self.dealer.total;
                let hits = t.best() < 17 || (t.best() == 17 && t.is_soft() && self.rules.dealer_hits_soft_17);
                if !hits {
                    break;
                }
                self.deal_to_dealer(rec)?;
            }
        }
        Ok(open)
    }

    fn settle<R: Recorder>(&mut self, rec: &mut R) {
        let dealer = self.dealer.total;
        for i in 0..self.active.len() {
            let b = self.active[i];
            for h in 0..self.boxes[b].hands.len() {
                let hand = &self.boxes[b].hands[h];
                if hand.state != HandState::Stood {
                    continue;
                }
                let player = hand.best();
                let outcome = if hand.is_natural() {
                    Outcome::Blackjack
                } else if dealer.is_bust() || player > dealer.best() {
                    Outcome::Win
                } else if player == dealer.best() && player > self.rules.dealer_wins_ties_to {
                    Outcome::Push
                } else {
                    Outcome::Lose
                };
                self.pay(b, h, outcome, rec);
            }
        }
    }
}
