//! `Table`: plays rounds — bets, deal, insurance, peek, play, dealer,
//! settlement — asking players through [`Player`] and telling observers
//! through [`Recorder`].
//!
//! Chips only ever move between a player's balance, the stakes on the
//! table and the house, in whole numbers: **players' balances plus the
//! house's stay constant across every round.**

use pitboss_sdk::abi::{Header, MAX_HAND_CARDS, RulesBlock, event_kind};
use pitboss_sdk::{Action, ActionSet, Card, Decision, Event, Total, is_natural};

use crate::player::{Fault, FaultKind, Player, Request};
use crate::record::{Outcome, Recorder, TableEvent};
use crate::rules::{InsuranceOn, Rules, RulesError};
use crate::shoe::{Shoe, ShoeExhausted, ShuffleKind};
use crate::stats::Stats;

/// A player seated at a table: the player, its chips and statistics.
pub struct Seat {
    player: Box<dyn Player + Send>,
    /// Chips not on the table.
    pub balance: i64,
    /// Statistics over the rounds played.
    pub stats: Stats,
    /// Reached the fault limit: sits out every later round, chips frozen.
    pub disqualified: bool,
    /// Index of the first event in the table log this player has not seen.
    cursor: usize,
    /// Balance before the current round's bets.
    round_start_balance: i64,
    /// Sum of the current round's initial bets.
    round_bet: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HandState {
    Playing,
    Stood,
    Bust,
    Surrendered,
    /// A natural already paid (or pushed) at the peek.
    Settled,
}

#[derive(Clone, Copy)]
struct Hand {
    cards: [Card; MAX_HAND_CARDS],
    len: u8,
    total: Total,
    bet: i64,
    from_split: bool,
    split_aces: bool,
    state: HandState,
}

impl Hand {
    fn new(bet: i64) -> Hand {
        Hand {
            cards: [Card::ACE; MAX_HAND_CARDS],
            len: 0,
            total: Total::default(),
            bet,
            from_split: false,
            split_aces: false,
            state: HandState::Playing,
        }
    }

    fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
        self.total = self.total.add(card);
    }
}

/// One box in play this round.
struct BoxState {
    /// Index into `Table::seats`.
    seat: usize,
    base_bet: i64,
    insurance: i64,
    hands: Vec<Hand>,
}

/// A blackjack table: rules, shoe, seated players and the house.
pub struct Table {
    rules: Rules,
    block: RulesBlock,
    shoe: Shoe,
    seats: Vec<Seat>,
    boxes: Vec<BoxState>,
    dealer: Hand,
    hole: Option<Card>,
    house: i64,
    round: u64,
    /// Bot-visible events; each seat reads from its own cursor.
    log: Vec<Event>,
    /// Boxes with a bet this round, in play order.
    active: Vec<usize>,
    /// Faults after which a player is disqualified; 0 = never.
    fault_limit: u64,
}

impl Table {
    /// A table with `rules`, `shoe` and one box per player (in order from
    /// the dealer's left), each player starting with `bankroll` chips.
    pub fn new(
        rules: Rules,
        shoe: Shoe,
        players: Vec<Box<dyn Player + Send>>,
        bankroll: i64,
    ) -> Result<Table, RulesError> {
        rules.validate()?;
        if players.is_empty() || players.len() > rules.boxes as usize {
            return Err(RulesError {
                field: "boxes",
                problem: format!("{} players at a table of {} boxes", players.len(), rules.boxes),
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
        let boxes =
            (0..seats.len()).map(|seat| BoxState { seat, base_bet: 0, insurance: 0, hands: Vec::new() }).collect();
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

    /// The seats, in box order.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The house's net chips (what the players lost in all).
    pub fn house(&self) -> i64 {
        self.house
    }

    /// Rounds played so far.
    pub fn rounds(&self) -> u64 {
        self.round
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Plays one round. If a stacked shoe runs out mid-round the round is
    /// void: every chip goes back where it was and the error is returned.
    pub fn play_round<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        let house = self.house;
        match self.round_inner(rec) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.house = house;
                for s in &mut self.seats {
                    s.balance = s.round_start_balance;
                }
                self.round -= 1;
                Err(e)
            }
        }
    }

    fn emit(&mut self, kind: u8, seat: u8, hand: u8, card: Card) {
        self.log.push(Event { kind, seat, hand, card });
    }

    /// Drops log entries every seat has seen.
    fn compact_log(&mut self) {
        let seen = self.seats.iter().map(|s| s.cursor).min().unwrap_or(0);
        if seen > 0 {
            self.log.drain(..seen);
            for s in &mut self.seats {
                s.cursor -= seen;
            }
        }
    }

    fn deal<R: Recorder>(&mut self, rec: &mut R) -> Result<Card, ShoeExhausted> {
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

    /// Asks the player of box `b` one decision; returns its answer, or the
    /// fault that stands in for one.
    fn ask<R: Recorder>(&mut self, b: usize, mut header: Header, hand: usize, rec: &mut R) -> Result<i64, Fault> {
        let seat = &mut self.seats[self.boxes[b].seat];
        if seat.disqualified {
            return Err(Fault { kind: FaultKind::Disqualified, message: "disqualified".into() });
        }
        header.balance = seat.balance;
        header.round = self.round as u32;
        let cards = self.boxes[b].hands.get(hand).map_or(&[][..], Hand::cards);
        let request = Request { header, hand: cards, events: &self.log[seat.cursor..] };
        let result = seat.player.decide(&request);
        seat.cursor = self.log.len();
        rec.record(&TableEvent::Asked {
            seat: b as u8,
            kind: header.kind,
            legal: header.legal,
            answer: result.as_ref().ok().copied(),
        });
        result
    }

    /// Counts and records a fault; disqualifies at the fault limit. A
    /// disqualified player's non-answers are not faults of their own.
    fn fault<R: Recorder>(&mut self, b: usize, kind: Decision, fault: Fault, rec: &mut R) {
        if fault.kind == FaultKind::Disqualified {
            return;
        }
        let seat = &mut self.seats[self.boxes[b].seat];
        seat.stats.faults += 1;
        let disqualify = self.fault_limit > 0 && seat.stats.faults >= self.fault_limit && !seat.disqualified;
        seat.disqualified |= disqualify;
        rec.record(&TableEvent::Fault { seat: b as u8, round: self.round, kind, fault });
        if disqualify {
            rec.record(&TableEvent::Disqualified { seat: b as u8, round: self.round });
        }
    }

    /// Asks for an amount in `min..=max` (multiples of `unit`) or 0; any
    /// other answer faults and becomes 0.
    #[allow(clippy::too_many_arguments)]
    fn ask_amount<R: Recorder>(
        &mut self,
        b: usize,
        kind: Decision,
        bet: i64,
        min: i64,
        max: i64,
        unit: i64,
        rec: &mut R,
    ) -> i64 {
        let header = self.header(b, kind, bet, min, max, unit);
        match self.ask(b, header, 0, rec) {
            Ok(0) => 0,
            Ok(a) if a >= min && a <= max && a % unit == 0 => a,
            Ok(a) => {
                let message = format!("{} {a} is not 0 or {min}..={max} in steps of {unit}", kind.name());
                self.fault(b, kind, Fault { kind: FaultKind::Illegal, message }, rec);
                0
            }
            Err(f) => {
                self.fault(b, kind, f, rec);
                0
            }
        }
    }

    fn header(&self, b: usize, kind: Decision, bet: i64, min: i64, max: i64, unit: i64) -> Header {
        Header {
            kind,
            variant: self.rules.variant,
            seat: b as u8,
            hand_index: 0,
            hand_count: self.boxes[b].hands.len() as u8,
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

    fn round_inner<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        self.round += 1;
        self.compact_log();
        self.dealer = Hand::new(0);
        self.hole = None;
        if self.shoe.start_round() {
            self.emit(event_kind::SHUFFLE, 0, 0, Card::ACE);
            rec.record(&TableEvent::Shuffle(ShuffleKind::Full));
        }
        self.emit(event_kind::ROUND, self.boxes.len() as u8, 0, Card::ACE);
        rec.record(&TableEvent::RoundStart { round: self.round });
        for s in &mut self.seats {
            s.round_start_balance = s.balance;
            s.round_bet = 0;
        }

        self.take_bets(rec);
        if !self.active.is_empty() {
            self.deal_and_play(rec)?;
        }

        for s in &mut self.seats {
            if s.round_bet > 0 {
                s.stats.add_round(s.round_bet, s.balance - s.round_start_balance);
            }
        }
        rec.record(&TableEvent::RoundEnd { round: self.round });
        Ok(())
    }

    fn take_bets<R: Recorder>(&mut self, rec: &mut R) {
        let (min, unit) = (self.rules.min_bet, self.rules.bet_unit);
        self.active.clear();
        for b in 0..self.boxes.len() {
            let bx = &mut self.boxes[b];
            bx.base_bet = 0;
            bx.insurance = 0;
            bx.hands.clear();
            let seat = &self.seats[bx.seat];
            let max = self.rules.max_bet.min(seat.balance - seat.balance.rem_euclid(unit));
            if max < min || seat.disqualified {
                continue; // Cannot cover the minimum, or disqualified: sits out unasked.
            }
            let amount = self.ask_amount(b, Decision::Bet, 0, min, max, unit, rec);
            if amount > 0 {
                let seat = &mut self.seats[self.boxes[b].seat];
                seat.balance -= amount;
                seat.round_bet += amount;
                let bx = &mut self.boxes[b];
                bx.base_bet = amount;
                bx.hands.push(Hand::new(amount));
                self.active.push(b);
                rec.record(&TableEvent::Bet { seat: b as u8, amount });
            }
        }
    }

    fn deal_and_play<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        for i in 0..self.active.len() {
            let b = self.active[i];
            self.deal_to_hand(b, 0, rec)?;
        }
        self.deal_to_dealer(rec)?;
        for i in 0..self.active.len() {
            let b = self.active[i];
            self.deal_to_hand(b, 0, rec)?;
        }
        if self.rules.hole_card {
            let hole = self.deal(rec)?;
            self.hole = Some(hole);
            rec.record(&TableEvent::DealerCard { card: hole, hole: true });
        }

        let up = self.dealer.cards()[0];
        let offered = match self.rules.insurance_on {
            InsuranceOn::Never => false,
            InsuranceOn::Ace => up.is_ace(),
            InsuranceOn::AceOrTen => up.is_ace() || up.is_ten(),
        };
        if offered {
            self.offer_insurance(rec);
        }

        if let Some(hole) = self.hole {
            let dealer_natural = is_natural(&[up, hole]);
            if dealer_natural {
                self.reveal_hole(rec);
                self.settle_insurance(true, rec);
                for i in 0..self.active.len() {
                    let b = self.active[i];
                    let bet = self.boxes[b].hands[0].bet;
                    let natural = is_natural(self.boxes[b].hands[0].cards());
                    let (returned, outcome) = if natural { (bet, Outcome::Push) } else { (0, Outcome::Lose) };
                    self.pay(b, 0, returned, outcome, rec);
                }
                return Ok(());
            }
            self.settle_insurance(false, rec);
            self.pay_naturals(rec);
        }

        for i in 0..self.active.len() {
            let b = self.active[i];
            self.play_box(b, rec)?;
        }
        self.dealer_turn(rec)?;
        self.settle(rec);
        Ok(())
    }

    fn offer_insurance<R: Recorder>(&mut self, rec: &mut R) {
        for i in 0..self.active.len() {
            let b = self.active[i];
            let base = self.boxes[b].base_bet;
            let half = base / 2;
            let balance = self.seats[self.boxes[b].seat].balance;
            let (min, max) = if self.rules.insurance_up_to_half { (1, half.min(balance)) } else { (half, half) };
            if half == 0 || balance < min || max < min {
                continue;
            }
            let amount = self.ask_amount(b, Decision::Insurance, base, min, max, 1, rec);
            if amount > 0 {
                self.seats[self.boxes[b].seat].balance -= amount;
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
            let stake = self.boxes[b].insurance;
            if stake == 0 {
                continue;
            }
            let returned = if dealer_natural { stake * 3 } else { 0 };
            self.seats[self.boxes[b].seat].balance += returned;
            self.house += stake - returned;
            rec.record(&TableEvent::InsuranceSettled { seat: b as u8, returned });
        }
    }

    fn pay_naturals<R: Recorder>(&mut self, rec: &mut R) {
        let (num, den) = self.rules.blackjack_pays;
        for i in 0..self.active.len() {
            let b = self.active[i];
            let hand = &self.boxes[b].hands[0];
            if is_natural(hand.cards()) {
                let win = hand.bet * num as i64 / den as i64;
                self.pay(b, 0, hand.bet + win, Outcome::Blackjack, rec);
            }
        }
    }

    /// Settles hand `h` of box `b`: `returned` chips (stake included) go
    /// back to the player, the rest of the stake to the house (or the house
    /// pays the excess).
    fn pay<R: Recorder>(&mut self, b: usize, h: usize, returned: i64, outcome: Outcome, rec: &mut R) {
        let hand = &mut self.boxes[b].hands[h];
        let bet = hand.bet;
        hand.state = match outcome {
            Outcome::Bust => HandState::Bust,
            Outcome::Surrender => HandState::Surrendered,
            _ => HandState::Settled,
        };
        self.seats[self.boxes[b].seat].balance += returned;
        self.house += bet - returned;
        rec.record(&TableEvent::Settled { seat: b as u8, hand: h as u8, bet, returned, outcome });
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
            if total_ok && (!hand.from_split || self.rules.double_after_split) && balance >= hand.bet {
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
                    self.pay(b, h, 0, Outcome::Bust, rec);
                    break;
                }
                if hand.total.best() == 21 {
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
        let mut header = self.header(b, Decision::Act, bet, 0, 0, 1);
        header.hand_index = h as u8;
        header.legal = legal;
        match self.ask(b, header, h, rec) {
            Ok(answer) => match Action::from_answer(answer) {
                Some(a) if legal.contains(a) => a,
                _ => {
                    let offered: Vec<&str> = legal.iter().map(Action::name).collect();
                    let message = format!("act {answer} is not a legal action (legal: {})", offered.join(", "));
                    self.fault(b, Decision::Act, Fault { kind: FaultKind::Illegal, message }, rec);
                    Action::Stand
                }
            },
            Err(f) => {
                self.fault(b, Decision::Act, f, rec);
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
                self.deal_to_hand(b, h, rec)?;
                let hand = &mut self.boxes[b].hands[h];
                if hand.total.is_bust() {
                    self.pay(b, h, 0, Outcome::Bust, rec);
                } else {
                    hand.state = HandState::Stood;
                }
            }
            Action::Split => {
                let hand = &mut self.boxes[b].hands[h];
                let moved = hand.cards[1];
                let aces = moved.is_ace();
                let bet = hand.bet;
                *hand = Hand::new(bet);
                hand.push(moved);
                hand.from_split = true;
                hand.split_aces = aces;
                let new_hand = *hand;
                self.boxes[b].hands.insert(h + 1, new_hand);
                self.seats[seat].balance -= bet;
                self.emit(event_kind::SPLIT, b as u8, h as u8, moved);
                self.deal_to_hand(b, h, rec)?;
            }
            Action::Surrender => {
                let bet = self.boxes[b].hands[h].bet;
                self.pay(b, h, bet / 2, Outcome::Surrender, rec);
            }
        }
        Ok(())
    }

    fn dealer_turn<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        self.reveal_hole(rec);
        let live = self.boxes.iter().any(|bx| bx.hands.iter().any(|hand| hand.state == HandState::Stood));
        if !live {
            return Ok(());
        }
        loop {
            let t = self.dealer.total;
            let hits = t.best() < 17 || (t.best() == 17 && t.is_soft() && self.rules.dealer_hits_soft_17);
            if !hits {
                return Ok(());
            }
            self.deal_to_dealer(rec)?;
        }
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
                let (bet, player) = (hand.bet, hand.total.best());
                let (returned, outcome) = if dealer.is_bust() || player > dealer.best() {
                    (2 * bet, Outcome::Win)
                } else if player == dealer.best() {
                    (bet, Outcome::Push)
                } else {
                    (0, Outcome::Lose)
                };
                self.pay(b, h, returned, outcome, rec);
            }
        }
    }
}
