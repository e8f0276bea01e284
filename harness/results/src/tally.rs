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

/// Faults per bot whose record keeps what the bot wrote while failing
/// ([`FaultRecord::log`], at most [`pitboss_engine::FAULT_LOG_BYTES`]
/// each): the first ones; later records keep their message only.
pub const FAULT_TEXTS_KEPT: usize = 10;

/// Clears the logs of `records` past the first [`FAULT_TEXTS_KEPT`], so a
/// bot's records hold at most that many (after merging sessions' records).
pub fn keep_fault_texts(records: &mut [FaultRecord]) {
    for r in records.iter_mut().skip(FAULT_TEXTS_KEPT) {
        r.log.clear();
    }
}

/// Whether `records` keep logs only for their first [`FAULT_TEXTS_KEPT`],
/// each within [`pitboss_engine::FAULT_LOG_BYTES`]: what a reader checks.
pub fn fault_texts_fit(records: &[FaultRecord]) -> bool {
    records
        .iter()
        .enumerate()
        .all(|(i, r)| r.log.is_empty() || (i < FAULT_TEXTS_KEPT && r.log.len() <= pitboss_engine::FAULT_LOG_BYTES))
}

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
    /// Details: what went wrong, and the line the bot wrote that says why
    /// (its panic, its exception), when it wrote one.
    pub message: String,
    /// What the bot wrote while making the failing decision, its latest
    /// 4 KiB (`FAULT_LOG_BYTES`); kept for a bot's first
    /// [`FAULT_TEXTS_KEPT`] faults, empty when it wrote nothing.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub log: String,
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

    /// Counts what one event that concerns this bot says of its play:
    /// questions, actions and faults (its chips are [`Chips`]).
    #[inline(always)]
    fn count(&mut self, event: &TableEvent) {
        match event {
            TableEvent::Asked { kind, .. } => self.decisions.add(*kind),
            TableEvent::Acted { action, .. } => self.actions.add(*action),
            TableEvent::Fault { fault, .. } => self.faults.add(fault.kind),
            _ => {}
        }
    }

    /// Books a chip event `sign` times: 1 as it happens, -1 to take it
    /// back when its round turns out void. Every chip part changes only
    /// here, by addition, so taking a round's events back leaves the chip
    /// parts exactly as they were before it.
    #[inline(always)]
    fn book(&mut self, chips: Chips, sign: i64) {
        let once = |n: &mut u64, yes: bool| *n = n.wrapping_add_signed(sign * i64::from(yes));
        match chips {
            Chips::Hand { up, bet, returned, outcome } => {
                if let Some(up) = up {
                    let u = &mut self.by_dealer_up[up];
                    once(&mut u.hands, true);
                    u.staked += sign * bet;
                    u.net += sign * (returned - bet);
                }
                self.hands.add_signed(outcome, sign);
            }
            Chips::Banked { bet, returned } => {
                let b = &mut self.bank;
                once(&mut b.hands, true);
                b.staked += sign * bet;
                b.net += sign * (bet - returned);
            }
            Chips::BankRound => once(&mut self.bank.rounds, true),
            Chips::Insurance(amount) => place(&mut self.insurance, amount, sign),
            Chips::InsuranceSettled(returned) => settle(&mut self.insurance, returned, sign),
            Chips::SideBet(amount) => place(&mut self.side_bets, amount, sign),
            Chips::SideBetSettled(returned) => settle(&mut self.side_bets, returned, sign),
            // A back stake may grow (following a double) or split in two
            // (following a split) after it is placed, so its chips are
            // counted when each part settles.
            Chips::BackBet => once(&mut self.back_bets.placed, true),
            Chips::BackSettled { stake, returned } => {
                let w = &mut self.back_bets;
                w.staked += sign * stake;
                w.returned += sign * returned;
                once(&mut w.won, returned > stake);
            }
        }
    }
}

/// What an event does to a bot's chip parts; `Banked` and `BankRound`
/// are the banker's side of the banker game.
#[derive(Clone, Copy)]
enum Chips {
    Hand { up: Option<usize>, bet: i64, returned: i64, outcome: pitboss_engine::Outcome },
    Banked { bet: i64, returned: i64 },
    BankRound,
    Insurance(i64),
    InsuranceSettled(i64),
    SideBet(i64),
    SideBetSettled(i64),
    BackBet,
    BackSettled { stake: i64, returned: i64 },
}

impl Chips {
    /// The chips of a player's event; `up` is the index of the round's
    /// dealer up card in `by_dealer_up`, once dealt.
    #[inline(always)]
    fn of(event: &TableEvent, up: Option<usize>) -> Option<Chips> {
        Some(match *event {
            TableEvent::Settled { outcome, bet, returned, .. } => Chips::Hand { up, bet, returned, outcome },
            TableEvent::Insurance { amount, .. } => Chips::Insurance(amount),
            TableEvent::InsuranceSettled { returned, .. } => Chips::InsuranceSettled(returned),
            TableEvent::SideBet { amount, .. } => Chips::SideBet(amount),
            TableEvent::SideBetSettled { returned, .. } => Chips::SideBetSettled(returned),
            TableEvent::BackBet { .. } => Chips::BackBet,
            TableEvent::BackSettled { stake, returned, .. } => Chips::BackSettled { stake, returned },
            _ => return None,
        })
    }
}

/// Places an insurance or side bet (`sign` -1: takes it back).
fn place(w: &mut Wager, amount: i64, sign: i64) {
    w.placed = w.placed.wrapping_add_signed(sign);
    w.staked += sign * amount;
}

/// Settles an insurance or side bet: any return is a win.
fn settle(w: &mut Wager, returned: i64, sign: i64) {
    w.returned += sign * returned;
    w.won = w.won.wrapping_add_signed(sign * i64::from(returned > 0));
}

/// Keeps each player's tally and first faults, passing every event on.
/// Events name boxes; a player holds `per` consecutive boxes.
///
/// A round can turn out void (the cards ran out mid-round) and give every
/// chip back, so each chip event of the round is kept (a few small copies
/// a round): a void round books them again with the opposite sign, and
/// the chip parts go back to where they were, as the table's balances do.
/// (Copying every tally as each round began cost 3 % of a heads-up round.)
///
/// `TALLY` false keeps the first faults only, every tally staying zero:
/// for a match whose tallies nobody reads (`pitboss play` without
/// `--json`), where counting them was 11 % of a heads-up round.
pub struct SeatLog<'a, R, const TALLY: bool = true> {
    inner: &'a mut R,
    per: usize,
    /// This round's dealer up card (index into `Tally::by_dealer_up`).
    up: Option<usize>,
    /// This round's banking player (banker game).
    banker: Option<usize>,
    tallies: Vec<Tally>,
    /// This round's chip events so far, by player.
    booked: Vec<(usize, Chips)>,
    faults: Vec<Vec<FaultRecord>>,
}

impl<'a, R> SeatLog<'a, R> {
    /// A log for `players` players of `per` boxes each, in front of `inner`.
    pub fn new(inner: &'a mut R, players: usize, per: usize) -> Self {
        SeatLog::counting(inner, players, per)
    }
}

impl<'a, R, const TALLY: bool> SeatLog<'a, R, TALLY> {
    /// A log for `players` players of `per` boxes each, in front of
    /// `inner`, counting their tallies if `TALLY`.
    pub fn counting(inner: &'a mut R, players: usize, per: usize) -> Self {
        SeatLog {
            inner,
            per: per.max(1),
            up: None,
            banker: None,
            tallies: vec![Tally::default(); players],
            booked: Vec::with_capacity(16),
            faults: vec![Vec::new(); players],
        }
    }

    /// Each player's tally so far, in seat order.
    pub fn tallies(&self) -> &[Tally] {
        &self.tallies
    }

    /// The recorder every event is passed on to.
    pub fn inner(&mut self) -> &mut R {
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
                if let Some(b) = self.banker {
                    self.book(b, Chips::Banked { bet: *bet, returned: *returned });
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
        // A division takes tens of cycles, on the path of every event.
        Some(if self.per == 1 { b } else { b / self.per })
    }

    /// A round begins: its up card and banker are not known yet, nor any
    /// of its chips.
    #[inline(always)]
    fn start_round(&mut self) {
        self.up = None;
        self.banker = None;
        self.booked.clear();
    }

    /// Books player `p`'s chips, keeping them for a void round to take back.
    #[inline(always)]
    fn book(&mut self, p: usize, chips: Chips) {
        if let Some(tally) = self.tallies.get_mut(p) {
            tally.book(chips, 1);
            self.booked.push((p, chips));
        }
    }

    /// Banker game: who banks this round (`None`: the house).
    #[inline(never)]
    fn set_banker(&mut self, seat: Option<u8>) {
        self.banker = seat.map(usize::from);
        if let Some(b) = self.banker {
            self.book(b, Chips::BankRound);
        }
    }

    /// Every chip of the round went back: so do the chip parts.
    #[cold]
    #[inline(never)]
    fn void_round(&mut self) {
        for (p, chips) in self.booked.drain(..) {
            self.tallies[p].book(chips, -1);
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
                log: if log.len() < FAULT_TEXTS_KEPT { fault.log.clone() } else { String::new() },
            });
        }
    }
}

impl<R: Recorder, const TALLY: bool> Recorder for SeatLog<'_, R, TALLY> {
    #[inline(always)]
    fn record(&mut self, event: &TableEvent) {
        if !TALLY {
            if let TableEvent::Fault { player, .. } = event {
                self.keep(usize::from(*player), event);
            }
        } else if let Some(p) = self.follow(event)
            && let Some(tally) = self.tallies.get_mut(p)
        {
            tally.count(event);
            if let Some(chips) = Chips::of(event, self.up) {
                tally.book(chips, 1);
                self.booked.push((p, chips));
            }
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
        let fault = Fault::new(FaultKind::Trap, "boom");
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
