//! What each bot did and how it fared, counted while a table plays:
//! decisions by kind, hand outcomes, actions, insurance, side and back
//! bets, the bank, faults by kind. Exact integer counts, merged by
//! addition, so a league's tallies are the same for any thread count or
//! sharding.
//!
//! **Invariant:** the chip parts add up to the bot's net, round by round
//! ([`Tally::net`]). A void round returns every chip, so its chip parts
//! are taken back too; its questions, actions and faults stay counted, as
//! the bot was asked and did answer.

use pitboss_engine::{Recorder, TableEvent};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::counts::{Actions, Decisions, FaultKinds, Hands};

/// Fault events kept per bot in results (the count is always exact).
pub const FAULT_LOG_CAP: usize = 100;

/// One fault, as kept in results: where it happened and what it was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FaultRecord {
    /// Session (0-based; always 0 for `pitboss play`).
    pub session: u64,
    /// Table of the session (0-based; always 0 for `pitboss play`).
    pub table: usize,
    /// Round (1-based).
    pub round: u64,
    /// The decision that faulted.
    pub decision: String,
    /// What went wrong: illegal, trap, out-of-fuel, memory, timeout.
    pub kind: String,
    /// Details.
    pub message: String,
}

/// A kind of extra bet: how often placed and won, chips staked and
/// returned (stakes included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Wager {
    pub placed: u64,
    pub won: u64,
    pub staked: i64,
    pub returned: i64,
}

impl Wager {
    /// Net chips from this kind of bet.
    pub fn net(&self) -> i64 {
        self.returned - self.staked
    }
}

/// Banker game: the rounds a bot held the bank, and the players' hands
/// settled against it (their final stakes, and its net chips from them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Bank {
    pub rounds: u64,
    pub hands: u64,
    pub staked: i64,
    pub net: i64,
}

impl Bank {
    /// Never banked (always so in the dealer games).
    pub fn is_empty(&self) -> bool {
        *self == Bank::default()
    }
}

/// The hands settled against one dealer up card (the banker's face-up
/// card in the banker game): how many, chips staked, net chips.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UpCard {
    pub hands: u64,
    pub staked: i64,
    pub net: i64,
}

/// Everything counted about one bot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct Tally {
    pub decisions: Decisions,
    pub hands: Hands,
    pub actions: Actions,
    pub insurance: Wager,
    pub side_bets: Wager,
    pub back_bets: Wager,
    /// Left out of results where the bot never banked, so dealer-game
    /// results carry no always-zero field.
    #[serde(default, skip_serializing_if = "Bank::is_empty")]
    pub bank: Bank,
    pub faults: FaultKinds,
    /// Its hands by the dealer's up card: ace, 2, …, 9, ten-valued.
    pub by_dealer_up: [UpCard; 10],
}

impl Tally {
    /// The bot's net chips, as the sum of its chip parts: its hands (every
    /// hand settles after the up card shows, so `by_dealer_up` holds them
    /// all, even money included), insurance, side bets, back bets and the
    /// bank. Equal to its balance change over the rounds counted.
    pub fn net(&self) -> i64 {
        let hands: i64 = self.by_dealer_up.iter().map(|u| u.net).sum();
        hands + self.insurance.net() + self.side_bets.net() + self.back_bets.net() + self.bank.net
    }

    /// Takes back what a void round added to the chip parts: they go
    /// back to `before`, the tally as it stood when the round began, as
    /// the round's chips all went back where they were. Its questions,
    /// actions and faults stay counted.
    fn void_chips(&mut self, before: &Tally) {
        self.hands = before.hands;
        self.by_dealer_up = before.by_dealer_up;
        self.insurance = before.insurance;
        self.side_bets = before.side_bets;
        self.back_bets = before.back_bets;
        self.bank = before.bank;
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &Tally) {
        self.decisions.merge(&other.decisions);
        self.hands.merge(&other.hands);
        self.actions.merge(&other.actions);
        for (w, o) in [
            (&mut self.insurance, &other.insurance),
            (&mut self.side_bets, &other.side_bets),
            (&mut self.back_bets, &other.back_bets),
        ] {
            w.placed += o.placed;
            w.won += o.won;
            w.staked += o.staked;
            w.returned += o.returned;
        }
        let (b, o) = (&mut self.bank, &other.bank);
        b.rounds += o.rounds;
        b.hands += o.hands;
        b.staked += o.staked;
        b.net += o.net;
        for (u, o) in self.by_dealer_up.iter_mut().zip(&other.by_dealer_up) {
            u.hands += o.hands;
            u.staked += o.staked;
            u.net += o.net;
        }
        self.faults.merge(&other.faults);
    }

    /// Counts one event that concerns this bot; `up` is the index of the
    /// round's dealer up card in `by_dealer_up`, once dealt.
    #[inline(always)]
    fn count(&mut self, event: &TableEvent, up: Option<usize>) {
        match event {
            TableEvent::Asked { kind, .. } => self.decisions.add(*kind),
            TableEvent::Acted { action, .. } => self.actions.add(*action),
            TableEvent::Settled { outcome, bet, returned, .. } => {
                if let Some(up) = up {
                    let u = &mut self.by_dealer_up[up];
                    u.hands += 1;
                    u.staked += bet;
                    u.net += returned - bet;
                }
                self.hands.add(*outcome);
            }
            TableEvent::Insurance { amount, .. } => place(&mut self.insurance, *amount),
            TableEvent::InsuranceSettled { returned, .. } => settle(&mut self.insurance, *returned),
            TableEvent::SideBet { amount, .. } => place(&mut self.side_bets, *amount),
            TableEvent::SideBetSettled { returned, .. } => settle(&mut self.side_bets, *returned),
            // A back stake may grow (following a double) or split in two
            // (following a split) after it is placed, so its chips are
            // counted when each part settles.
            TableEvent::BackBet { .. } => self.back_bets.placed += 1,
            TableEvent::BackSettled { stake, returned, .. } => {
                let w = &mut self.back_bets;
                w.staked += stake;
                w.returned += returned;
                w.won += u64::from(returned > stake);
            }
            TableEvent::Fault { fault, .. } => self.faults.add(fault.kind),
            _ => {}
        }
    }
}

fn place(w: &mut Wager, amount: i64) {
    w.placed += 1;
    w.staked += amount;
}

/// Settles an insurance or side bet: any return is a win.
fn settle(w: &mut Wager, returned: i64) {
    w.returned += returned;
    w.won += u64::from(returned > 0);
}

/// Keeps each player's tally and first faults, passing every event on.
/// Events name boxes; a player holds `per` consecutive boxes.
///
/// A round can turn out void (the cards ran out mid-round) and give every
/// chip back, so the tallies as they stood when it began are kept: a void
/// round's chip parts go back to them, as the table's balances go back to
/// where they were. One copy of each tally a round costs about 1 % of a
/// seven-bot round natively; holding each round's chip events to book
/// at its end cost more (cloned events, a second pass).
pub struct SeatLog<'a, R> {
    inner: &'a mut R,
    per: usize,
    /// This round's dealer up card (index into `Tally::by_dealer_up`).
    up: Option<usize>,
    /// This round's banking player (banker game).
    banker: Option<usize>,
    tallies: Vec<Tally>,
    /// The tallies when this round began.
    round_start: Vec<Tally>,
    faults: Vec<Vec<FaultRecord>>,
}

impl<'a, R> SeatLog<'a, R> {
    /// A log for `players` players of `per` boxes each, in front of `inner`.
    pub fn new(inner: &'a mut R, players: usize, per: usize) -> Self {
        SeatLog {
            inner,
            per: per.max(1),
            up: None,
            banker: None,
            tallies: vec![Tally::default(); players],
            round_start: vec![Tally::default(); players],
            faults: vec![Vec::new(); players],
        }
    }

    /// Each player's tally so far, in seat order.
    pub fn tallies(&self) -> &[Tally] {
        &self.tallies
    }

    /// The recorder every event is passed on to.
    pub(crate) fn inner(&mut self) -> &mut R {
        self.inner
    }

    /// Each player's tally and first faults.
    pub fn finish(self) -> Vec<(Tally, Vec<FaultRecord>)> {
        self.tallies.into_iter().zip(self.faults).collect()
    }

    /// Keeps track of the round (its start, up card, banker, a void) and
    /// returns the player the event is about, if it is about one.
    ///
    /// Inlined into every place the table records an event, where the
    /// event's kind is known: the match folds away, so the events this
    /// log ignores (every card, most of them) cost nothing. The rare or
    /// bulky work is kept out of line to let that happen.
    #[inline(always)]
    fn follow(&mut self, event: &TableEvent) -> Option<usize> {
        let b = match event {
            TableEvent::RoundStart { .. } => {
                self.start_round();
                return None;
            }
            TableEvent::DealerCard { card, hole: false } => {
                if self.up.is_none() {
                    self.up = Some(card.value() as usize - 1);
                }
                return None;
            }
            TableEvent::Banker { seat } => {
                self.set_banker(*seat);
                return None;
            }
            TableEvent::RoundVoid { .. } => {
                self.void_round();
                return None;
            }
            // Back bets, and the questions and faults about them, belong
            // to the betting player, not the box's holder.
            TableEvent::BackBet { player, .. }
            | TableEvent::BackSettled { player, .. }
            | TableEvent::Asked { player, .. }
            | TableEvent::Fault { player, .. } => return Some(*player as usize),
            TableEvent::Settled { seat, bet, returned, .. } => {
                // Banker game: the hand was played against the bank.
                if let Some(bank) = self.banker.and_then(|b| self.tallies.get_mut(b)) {
                    bank.bank.hands += 1;
                    bank.bank.staked += bet;
                    bank.bank.net += bet - returned;
                }
                *seat as usize
            }
            TableEvent::Acted { seat, .. }
            | TableEvent::Insurance { seat, .. }
            | TableEvent::InsuranceSettled { seat, .. }
            | TableEvent::SideBet { seat, .. }
            | TableEvent::SideBetSettled { seat, .. } => *seat as usize,
            _ => return None,
        };
        Some(b / self.per)
    }

    /// A round begins: its up card and banker are not known yet, and the
    /// tallies are kept as they stand, for a void round to go back to.
    #[inline(never)]
    fn start_round(&mut self) {
        self.up = None;
        self.banker = None;
        self.round_start.copy_from_slice(&self.tallies);
    }

    /// Banker game: who banks this round (`None`: the house).
    #[inline(never)]
    fn set_banker(&mut self, seat: Option<u8>) {
        self.banker = seat.map(usize::from);
        if let Some(bank) = self.banker.and_then(|b| self.tallies.get_mut(b)) {
            bank.bank.rounds += 1;
        }
    }

    /// Every chip of the round went back: so do the chip parts.
    #[cold]
    #[inline(never)]
    fn void_round(&mut self) {
        for (tally, before) in self.tallies.iter_mut().zip(&self.round_start) {
            tally.void_chips(before);
        }
    }

    /// Faults are rare: keep this off the per-card path.
    #[cold]
    #[inline(never)]
    fn keep(&mut self, p: usize, event: &TableEvent) {
        if let TableEvent::Fault { round, kind, fault, .. } = event
            && let Some(log) = self.faults.get_mut(p)
            && log.len() < FAULT_LOG_CAP
        {
            log.push(FaultRecord {
                session: 0,
                table: 0,
                round: *round,
                decision: kind.name().to_string(),
                kind: fault.kind.name().to_string(),
                message: fault.message.clone(),
            });
        }
    }
}

impl<R: Recorder> Recorder for SeatLog<'_, R> {
    #[inline(always)]
    fn record(&mut self, event: &TableEvent) {
        if let Some(p) = self.follow(event)
            && let Some(tally) = self.tallies.get_mut(p)
        {
            tally.count(event, self.up);
            if let TableEvent::Fault { .. } = event {
                self.keep(p, event);
            }
        }
        self.inner.record(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitboss_engine::{Fault, FaultKind, Outcome};
    use pitboss_sdk::{Action, Decision};

    #[test]
    fn events_land_on_the_player_holding_the_box() {
        let mut sink = ();
        let mut log = SeatLog::new(&mut sink, 2, 2);
        log.record(&TableEvent::RoundStart { round: 1 });
        log.record(&TableEvent::DealerCard { card: pitboss_sdk::Card::new(12).unwrap(), hole: false });
        log.record(&TableEvent::DealerCard { card: pitboss_sdk::Card::new(5).unwrap(), hole: false });
        log.record(&TableEvent::Insurance { seat: 3, amount: 5 });
        log.record(&TableEvent::InsuranceSettled { seat: 3, returned: 15 });
        log.record(&TableEvent::Settled { seat: 1, hand: 0, bet: 10, returned: 25, outcome: Outcome::Blackjack });
        log.record(&TableEvent::BackBet { seat: 0, player: 1, amount: 4 });
        log.record(&TableEvent::BackSettled { seat: 0, hand: 0, player: 1, stake: 8, returned: 0 });
        let fault = Fault { kind: FaultKind::Trap, message: "boom".into() };
        log.record(&TableEvent::Fault { seat: 2, player: 1, round: 7, kind: Decision::Act, fault });
        log.record(&TableEvent::Asked {
            seat: 0,
            player: 1,
            kind: Decision::BackBet,
            legal: pitboss_sdk::ActionSet::EMPTY,
            answer: Some(4),
        });
        let out = log.finish();
        assert_eq!(out[0].0.hands[Outcome::Blackjack], 1);
        // Settled against a queen up (the later 5 is a drawn card).
        assert_eq!(out[0].0.by_dealer_up[9], UpCard { hands: 1, staked: 10, net: 15 });
        assert_eq!(out[0].0.by_dealer_up.iter().map(|u| u.hands).sum::<u64>(), 1);
        assert_eq!(out[1].0.insurance, Wager { placed: 1, won: 1, staked: 5, returned: 15 });
        assert_eq!(out[1].0.back_bets, Wager { placed: 1, won: 0, staked: 8, returned: 0 });
        assert_eq!(out[1].0.faults[FaultKind::Trap], 1);
        assert_eq!(out[1].0.decisions[Decision::BackBet], 1);
        assert_eq!(out[1].1[0].round, 7);
        assert!(out[0].1.is_empty());
    }

    #[test]
    fn a_void_round_takes_back_its_chips_but_not_its_questions() {
        use pitboss_sdk::{ActionSet, Card};
        let mut sink = ();
        let mut log = SeatLog::new(&mut sink, 2, 1);
        let ten = Card::new(10).unwrap();
        // Round 1: player 1 banks and wins player 0's stake of 4.
        log.record(&TableEvent::RoundStart { round: 1 });
        log.record(&TableEvent::Banker { seat: Some(1) });
        log.record(&TableEvent::DealerCard { card: ten, hole: false });
        log.record(&TableEvent::Settled { seat: 0, hand: 0, bet: 4, returned: 0, outcome: Outcome::Lose });
        log.record(&TableEvent::RoundEnd { round: 1 });
        // Round 2: player 0 hits and busts, then the deck runs dry.
        log.record(&TableEvent::RoundStart { round: 2 });
        log.record(&TableEvent::Banker { seat: Some(1) });
        log.record(&TableEvent::DealerCard { card: ten, hole: false });
        let legal = ActionSet::EMPTY.with(Action::Hit);
        log.record(&TableEvent::Asked { seat: 0, player: 0, kind: Decision::Act, legal, answer: Some(1) });
        log.record(&TableEvent::Acted { seat: 0, hand: 0, action: Action::Hit });
        log.record(&TableEvent::Settled { seat: 0, hand: 0, bet: 2, returned: 0, outcome: Outcome::Bust });
        log.record(&TableEvent::RoundVoid { round: 2 });
        log.record(&TableEvent::RoundEnd { round: 2 });
        let out = log.finish();
        let (player, banker) = (&out[0].0, &out[1].0);
        assert_eq!((player.net(), banker.net()), (-4, 4));
        assert_eq!(banker.bank, Bank { rounds: 1, hands: 1, staked: 4, net: 4 });
        assert_eq!((player.hands[Outcome::Lose], player.hands[Outcome::Bust]), (1, 0));
        assert_eq!(player.by_dealer_up[9], UpCard { hands: 1, staked: 4, net: -4 });
        assert_eq!(
            (player.decisions[Decision::Act], player.actions[Action::Hit]),
            (1, 1),
            "the bot was asked and answered"
        );
    }
}
