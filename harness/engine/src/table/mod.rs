//! `Table`: the players, the shoe, the house and what both games share —
//! round start and end, dealing from the shoe, the bot-visible event log
//! (`log`), stake caps, asking players (`ask`). The dealer games' phases live
//! beside it, one file each (`bets`, `deal`, `play`, `settle`), the boxes
//! and hands they work on in `hand`. The banker game (`crate::banker`)
//! builds on this module, and `crate::round` picks the game each round:
//! nothing here depends on either.
//!
//! Chips only ever move between a player's balance, the stakes on the
//! table and the house, in whole numbers: **players' balances plus the
//! house's stay constant across every round.**

mod ask;
mod bets;
mod deal;
mod hand;
mod log;
mod play;
mod settle;
mod shown;

use std::ops::{Index, IndexMut};

use pitboss_sdk::abi::{RulesBlock, event_kind};
use pitboss_sdk::{Card, Decision, Event, Variant, key};

use crate::answers::Answers;
use crate::audit::KeyAudit;
use crate::id::{BoxId, BoxSet, PlayerId};
use crate::player::Player;
use crate::record::{Recorder, TableEvent};
use crate::rules::{Banker, Game, Rules, RulesError};
use crate::shoe::{Shoe, ShoeExhausted, ShuffleKind};
use crate::stats::Stats;
use hand::{BoxState, Hand, Hands};
pub(crate) use play::illegal_act;
pub(crate) use shown::Shown;

/// A player at a table: the bot, its chips and statistics.
pub struct PlayerState {
    pub(crate) player: Box<dyn Player + Send>,
    /// Chips not on the table.
    pub balance: i64,
    /// Statistics over the rounds played.
    pub stats: Stats,
    /// Reached the fault limit: sits out every later round, chips frozen.
    pub disqualified: bool,
    /// Index of the first event in the table log this player has not seen.
    pub(crate) cursor: usize,
    /// Reads events ([`Player::wants_events`]): only then are they sent.
    pub(crate) told_events: bool,
    /// Reads events and keys its bet (ABI v6), so no question need bring
    /// them every round: it is told the `ROUND` of a round that dealt
    /// nothing as one asked every round is, and put a keyed question when
    /// [`FLUSH_AT`](log::FLUSH_AT) events wait for it.
    pub(crate) reads_late: bool,
    /// Decisions it is never asked, answered by default
    /// ([`Player::defaults`]): bit `code` of each such decision kind.
    pub(crate) defaulted: u32,
    /// The parts of each decision's key ([`Player::decision_key`]), by
    /// decision code; none where it reads events and its bet is keyed or
    /// left to the default (`declared_keys`).
    pub(crate) keys: [Option<u32>; Decision::ALL.len()],
    /// The weights of its count ([`Player::count`]), where a key names the
    /// true count.
    pub(crate) weights: Option<key::Weights>,
    /// Its answers to the keys asked so far this session.
    pub(crate) answers: Answers,
    /// Its keys under audit ([`Table::audit_keys`]): then `keys` is empty.
    pub(crate) audit: Option<Box<KeyAudit>>,
    /// Balance before the current round's bets.
    pub(crate) round_start_balance: i64,
    /// Sum of the current round's initial bets.
    pub(crate) round_bet: i64,
}

/// A blackjack table: rules, shoe, seated players and the house.
pub struct Table {
    pub(crate) rules: Rules,
    pub(crate) block: RulesBlock,
    pub(crate) shoe: Shoe,
    pub(crate) players: Vec<PlayerState>,
    /// `players.len()`, checked to fit the ids.
    pub(crate) player_count: u8,
    /// The boxes, `box_count` of them in use: a fixed array indexed by a
    /// masked [`BoxId`], so no look-up of a box checks its bounds.
    boxes: [BoxState; BOX_SLOTS],
    /// The boxes in use, checked to fit the ids.
    box_count: u8,
    dealer: Hand,
    hole: Option<Card>,
    pub(crate) house: i64,
    pub(crate) round: u64,
    /// Bot-visible events; each player reads from its own cursor.
    pub(crate) log: Vec<Event>,
    /// Some player reads events or keys a true count: otherwise none are
    /// logged.
    logging: bool,
    /// The cards shown since the last shuffle, where some player keys a
    /// true count (`counting`).
    pub(crate) shown: Shown,
    counting: bool,
    /// Boxes with a bet this round (played in box order).
    active: BoxSet,
    /// Some box holds an insurance stake this round (so settling it is
    /// skipped in the many rounds none does).
    insured: bool,
    /// The boxes dealt a card face up (a `CARD` event) the round before,
    /// one bit each: the key part `OTHERS` (ABI v6), taken from the log at
    /// each round's start where some player's key names it
    /// (`tracks_dealt`); `round_from`, where this round's entries begin.
    dealt_before: u32,
    tracks_dealt: bool,
    round_from: usize,
    /// Faults after which a player is disqualified; 0 = never.
    fault_limit: u64,
    /// A balance this large always covers the minimum stake (see
    /// [`Table::may_be_asked`]).
    covers_min: i64,
}

impl PlayerState {
    /// What its answers have cost so far ([`Player::spent`]).
    pub fn spent(&self) -> Option<crate::player::Spent> {
        self.player.spent()
    }
}

impl Table {
    /// A table with `rules`, `shoe` and the players in order, each
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
        let per = rules.boxes_per_player;
        let most = rules.max_players();
        let counts = u8::try_from(players.len()).ok().and_then(|n| Some((n, n.checked_mul(per)?)));
        let Some((player_count, box_count)) = counts.filter(|&(n, _)| n > 0 && usize::from(n) <= most) else {
            return Err(RulesError {
                field: "boxes",
                problem: format!("{} players do not fit a table of {most} seats", players.len()),
            });
        };
        let players: Vec<PlayerState> = players
            .into_iter()
            .map(|player| {
                let (keys, weights) = declared_keys(player.as_ref(), rules.variant);
                let told_events = player.wants_events(rules.variant);
                PlayerState {
                    told_events,
                    reads_late: told_events && keys[Decision::Bet as usize].is_some(),
                    defaulted: player.defaults(rules.variant) & pitboss_sdk::abi::DEFAULTABLE_MASK,
                    keys,
                    weights,
                    answers: Answers::default(),
                    audit: None,
                    player,
                    balance: bankroll,
                    stats: Stats::default(),
                    disqualified: false,
                    cursor: 0,
                    round_start_balance: bankroll,
                    round_bet: 0,
                }
            })
            .collect();
        // Slots past `box_count` are never dealt to: their holder is only
        // a placeholder.
        let boxes = std::array::from_fn(|b| BoxState {
            holder: PlayerId(u8::try_from(b).map_or(0, |b| b / per)),
            base_bet: 0,
            insurance: 0,
            side: None,
            hands: Hands::default(),
            back: Vec::new(),
        });
        let divisor = rules.stake_divisor(rules.banker == Banker::House);
        let counting = players.iter().any(|p| p.weights.is_some());
        let tracks_dealt = players.iter().flat_map(|p| p.keys).flatten().any(|parts| parts & key::part::OTHERS != 0);
        let logging = counting || tracks_dealt || players.iter().any(|p| p.told_events);
        Ok(Table {
            logging,
            shown: Shown::new(rules.block().decks, players.iter().find_map(|p| p.weights)),
            counting,
            covers_min: rules.min_bet.saturating_mul(i64::from(divisor)),
            block: rules.block(),
            rules,
            shoe,
            players,
            player_count,
            boxes,
            box_count,
            dealer: Hand::new(0),
            hole: None,
            house: 0,
            round: 0,
            log: Vec::with_capacity(1024),
            active: BoxSet::EMPTY,
            insured: false,
            dealt_before: 0,
            tracks_dealt,
            round_from: 0,
            fault_limit: 0,
        })
    }

    /// Disqualifies a player at its `limit`-th fault (0 = never): it is not
    /// asked again, sits out every later round and keeps its chips.
    pub fn set_fault_limit(&mut self, limit: u64) {
        self.fault_limit = limit;
    }

    /// Puts player `p`'s decision keys to the test from now on: it is
    /// asked every decision, as if it keyed nothing, and each answer to a
    /// keyed decision is compared with its earlier answer to the same key
    /// ([`Table::key_audit`] says what was found). What it is asked, and
    /// so the play, is that of a player that keys nothing. Out of range:
    /// nothing happens.
    pub fn audit_keys(&mut self, p: usize) {
        if let Some(state) = self.players.get_mut(p) {
            let parts = std::mem::replace(&mut state.keys, [None; Decision::ALL.len()]);
            state.reads_late = false;
            state.audit = Some(Box::new(KeyAudit::new(parts)));
        }
    }

    /// What the audit of player `p`'s keys found so far, if they are under
    /// audit ([`Table::audit_keys`]).
    pub fn key_audit(&self, p: usize) -> Option<&KeyAudit> {
        self.players.get(p)?.audit.as_deref()
    }

    /// The players, in order.
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }

    /// The house's net chips (what the players lost in all).
    pub fn house(&self) -> i64 {
        self.house
    }

    /// Events kept for players that have not been told them yet (bounded
    /// by a round's events for every player still playing, and by
    /// `FLUSH_AT` and a round's for one whose bet is keyed), and fewer
    /// than [`DRAIN_AT`](log::DRAIN_AT) that all have been told.
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

    /// Voids the current round: every chip goes back where it was when the
    /// round began (`house` is the house's chips then), and observers are
    /// told, so that whatever they booked from this round's bets and
    /// settlements can be undone as well.
    pub(crate) fn void_round<R: Recorder>(&mut self, house: i64, rec: &mut R) {
        self.house = house;
        for s in &mut self.players {
            s.balance = s.round_start_balance;
            s.round_bet = 0;
        }
        rec.record(&TableEvent::RoundVoid { round: self.round });
    }

    /// Whether player `p` (an index into [`Table::players`]) is out for
    /// good: disqualified, or unable to stake the table minimum (broke),
    /// which no later round can change.
    pub fn out_for_good(&self, p: usize) -> bool {
        u8::try_from(p).is_ok_and(|p| !self.may_be_asked(PlayerId(p)))
    }

    /// Whether player `p` can still be asked anything: not disqualified,
    /// and able to stake the minimum (in the banker game a player stakes
    /// at most a quarter or a half of its balance). A player that cannot
    /// is out for good: chips only reach a player through its own stakes
    /// or its bank, and both need more than that.
    fn may_be_asked(&self, p: PlayerId) -> bool {
        let s = &self.players[p];
        // Asked of every player each round: the usual case skips the stake
        // cap's division. Validated rules make the minimum a whole number
        // of units and at most the maximum, so a balance of the minimum
        // times the divisor always covers it.
        !s.disqualified && (s.balance >= self.covers_min || self.stake_cap(p) >= self.rules.min_bet)
    }

    /// The largest main bet player `p` may stake now: its balance (in the
    /// banker game a quarter of it when the banker may double, half when
    /// the house banks: [`Rules::stake_divisor`]) in whole units, capped at
    /// the table maximum.
    #[inline]
    pub(crate) fn stake_cap(&self, p: PlayerId) -> i64 {
        let balance = self.players[p].balance;
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

    /// Starts a round: number, log, shuffle, `ROUND` event, balances.
    /// Every round, with little to do in most: inlined, and the log's
    /// tidying and the shuffle out of line.
    #[inline(always)]
    pub(crate) fn begin_round<R: Recorder>(&mut self, rec: &mut R) {
        self.round += 1;
        if self.tracks_dealt {
            // Before the log is tidied: the entries from `round_from` on
            // are still the last round's.
            self.dealt_before = self.dealt_since(self.round_from);
        }
        // An empty log has every cursor at 0 already (none passes its end).
        if !self.log.is_empty() {
            self.tidy_log();
        }
        if self.rules.shuffle_every_round {
            self.shoe.force_shuffle();
        }
        if self.shoe.start_round() {
            self.announce_shuffle(rec);
        }
        self.emit(event_kind::ROUND, self.box_count, 0, Card::ACE);
        self.round_from = self.log.len();
        rec.record(&TableEvent::RoundStart { round: self.round });
        for s in &mut self.players {
            s.round_start_balance = s.balance;
            s.round_bet = 0;
        }
    }

    /// A full shuffle, told to players (once: not twice with no card
    /// dealt between) and observers.
    #[inline(never)]
    fn announce_shuffle<R: Recorder>(&mut self, rec: &mut R) {
        if self.log.last().is_none_or(|e| e.kind != event_kind::SHUFFLE) {
            self.emit(event_kind::SHUFFLE, 0, 0, Card::ACE);
        }
        rec.record(&TableEvent::Shuffle(ShuffleKind::Full));
    }

    /// Ends a round: statistics, `RoundEnd`.
    pub(crate) fn end_round<R: Recorder>(&mut self, rec: &mut R) {
        for s in &mut self.players {
            // A round counts for a player that staked a hand, or whose
            // chips moved all the same (a side bet alone cannot: it rides
            // on the player's own box).
            if s.round_bet > 0 || s.balance != s.round_start_balance {
                s.stats.add_round(s.round_bet, s.balance - s.round_start_balance);
            }
        }
        rec.record(&TableEvent::RoundEnd { round: self.round });
    }

    /// The next card from the shoe, telling players and observers when
    /// it had to reshuffle the discards first.
    #[inline]
    pub(crate) fn deal<R: Recorder>(&mut self, rec: &mut R) -> Result<Card, ShoeExhausted> {
        let mut partial = false;
        let card = self.shoe.deal(|_| partial = true)?;
        if partial {
            self.emit(event_kind::PARTIAL_SHUFFLE, 0, 0, Card::ACE);
            rec.record(&TableEvent::Shuffle(ShuffleKind::Discards));
        }
        Ok(card)
    }

    /// The largest stake `balance` covers, capped at `cap`, in `unit`s.
    #[inline]
    pub(crate) fn affordable(balance: i64, cap: i64, unit: i64) -> i64 {
        cap.min(balance - rem_unit(balance, unit))
    }

    /// One round of the dealer games: bets, back bets, then the deal and
    /// everything after it.
    pub(crate) fn play_dealer_round<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
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
}

/// The keys `player` declares under `variant` that the table honours, and
/// the weights of its count where one names the true count: none where it
/// reads events and leaves its bet to the default (a question answered
/// from a key leaves its events for the next one, and a bet, asked or
/// keyed, is the question that comes every round: sdk/ABI.md, "Version
/// 6"), nor any the contract refuses (`pitboss_sdk::key::problem`), nor a
/// true count without weights.
fn declared_keys(
    player: &(dyn Player + Send),
    variant: Variant,
) -> ([Option<u32>; Decision::ALL.len()], Option<key::Weights>) {
    let weights = player.count(variant);
    let keys = Decision::ALL.map(|kind| {
        player.decision_key(variant, kind).filter(|&p| {
            i32::try_from(p).is_ok_and(|p| key::problem(kind, p).is_none())
                && (p & key::part::TRUE_COUNT == 0 || weights.is_some())
        })
    });
    if player.wants_events(variant) && player.defaults(variant) & Decision::Bet.bit() != 0 {
        return ([None; Decision::ALL.len()], None);
    }
    let counts = keys.iter().flatten().any(|p| p & key::part::TRUE_COUNT != 0);
    (keys, weights.filter(|_| counts))
}

/// `a.rem_euclid(unit)` for a positive `unit`, without the division (tens
/// of cycles, on the path of every bet) where the unit is a power of two,
/// as the usual units are.
#[inline]
pub(crate) fn rem_unit(a: i64, unit: i64) -> i64 {
    debug_assert!(unit > 0);
    if unit & (unit - 1) == 0 { a & (unit - 1) } else { a.rem_euclid(unit) }
}

impl Index<PlayerId> for Vec<PlayerState> {
    type Output = PlayerState;
    #[inline]
    fn index(&self, p: PlayerId) -> &PlayerState {
        &self[p.index()]
    }
}

impl IndexMut<PlayerId> for Vec<PlayerState> {
    #[inline]
    fn index_mut(&mut self, p: PlayerId) -> &mut PlayerState {
        &mut self[p.index()]
    }
}

/// Box slots a table has: the most boxes of either game.
const BOX_SLOTS: usize = 8;

const _: () = assert!(
    Game::Dealer.max_boxes() as usize <= BOX_SLOTS
        && Game::Banker.max_boxes() as usize <= BOX_SLOTS
        && BOX_SLOTS.is_power_of_two()
);

// A box id is below the table's box count, at most `BOX_SLOTS`: masked, it
// is the index itself, and the look-up needs no bounds check.
impl Index<BoxId> for [BoxState; BOX_SLOTS] {
    type Output = BoxState;
    #[inline]
    fn index(&self, b: BoxId) -> &BoxState {
        debug_assert!(b.index() < BOX_SLOTS);
        &self[b.index() & (BOX_SLOTS - 1)]
    }
}

impl IndexMut<BoxId> for [BoxState; BOX_SLOTS] {
    #[inline]
    fn index_mut(&mut self, b: BoxId) -> &mut BoxState {
        debug_assert!(b.index() < BOX_SLOTS);
        &mut self[b.index() & (BOX_SLOTS - 1)]
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::{Action, Decision, Total, Variant};

    use super::Table;
    use crate::id::PlayerId;
    use crate::player::{FnPlayer, Player, Request};
    use crate::rules::{Banker, Game, Rules};
    use crate::shoe::Shoe;
    use crate::testkit::{BANKROLL, Script, chips, stacked};

    /// A player that bets the minimum and takes every other offer it can:
    /// the most insurance and back bet, side bets, splits and doubles, and
    /// hits below 17.
    fn greedy() -> Box<dyn Player + Send> {
        Box::new(FnPlayer(|r: &Request<'_>| {
            let h = r.header;
            match h.kind {
                Decision::Bet => h.min,
                Decision::Insurance | Decision::BackBet => h.max,
                Decision::SideBet => 2 << 32 | h.min,
                Decision::EvenMoney | Decision::BankerDouble => 1,
                Decision::Act => {
                    let best = Total::of(r.hand).best();
                    let pick = [Action::Split, Action::Double].into_iter().find(|&a| h.legal.contains(a));
                    let fallback = if best < 17 && h.legal.contains(Action::Hit) { Action::Hit } else { Action::Stand };
                    pick.unwrap_or(fallback) as i64
                }
                _ => 0,
            }
        }))
    }

    #[test]
    fn every_rule_set_conserves_chips_round_by_round() {
        for variant in Variant::ALL {
            let mut rules = Rules { max_bet: 50, ..Rules::for_variant(variant) };
            if rules.game == Game::Banker {
                rules.banker = Banker::Rotate;
            }
            let shoe = Shoe::seeded(rules.decks, rules.cut_card, 7);
            let players = (0..3).map(|_| greedy()).collect();
            let mut table = Table::new(rules, shoe, players, BANKROLL).unwrap();
            for _ in 0..2_000 {
                table.play_round(&mut ()).unwrap();
                assert_eq!(chips(&table), 3 * BANKROLL, "{variant:?}, round {}", table.rounds());
            }
            let staked: u64 = table.players().iter().map(|p| p.stats.rounds).sum();
            assert!(staked > 1_000, "{variant:?}: the players played ({staked})");
        }
    }

    #[test]
    fn a_table_seats_one_to_its_most_players() {
        let na = Rules::north_american();
        let players = |n: usize| (0..n).map(|_| Script::new(0, &[]).boxed()).collect::<Vec<_>>();
        let table = |n, rules: &Rules| Table::new(rules.clone(), Shoe::seeded(6, 78, 1), players(n), BANKROLL);
        assert_eq!(table(0, &na).err().unwrap().field, "boxes");
        assert!(table(7, &na).is_ok());
        assert!(table(8, &na).is_err());
        let two_each = Rules { boxes_per_player: 2, ..na };
        assert!(table(3, &two_each).is_ok());
        assert!(table(4, &two_each).is_err());
        let bank = Rules { banker: Banker::Rotate, ..Rules::norwegian_home() };
        assert!(table(9, &bank).is_ok(), "8 boxes and a banking player");
        assert!(table(9, &Rules::norwegian_home()).is_err());
    }

    #[test]
    fn the_remainder_by_a_unit_is_the_euclidean_one() {
        for unit in [1, 2, 3, 4, 5, 8, 10, 25, 64, 1000, 1024] {
            for a in [-1025, -64, -7, -1, 0, 1, 2, 3, 7, 63, 64, 999, 1000, 1025, i64::MAX, i64::MIN + 1] {
                assert_eq!(super::rem_unit(a, unit), a.rem_euclid(unit), "{a} by {unit}");
            }
        }
    }

    #[test]
    fn the_stake_cap_divides_the_balance_as_the_rules_say() {
        let cap = |rules: Rules, balance: i64| {
            let mut table = stacked(rules, "", vec![Script::new(0, &[]).boxed()]);
            table.players[PlayerId(0)].balance = balance;
            table.stake_cap(PlayerId(0))
        };
        assert_eq!(cap(Rules::north_american(), 999), 998, "whole units");
        assert_eq!(cap(Rules::north_american(), 5_000), 1000, "the table maximum");
        assert_eq!(cap(Rules::norwegian_home(), 999), 499, "half, the house banking");
        let rotate = Rules { banker: Banker::Rotate, ..Rules::norwegian_home() };
        assert_eq!(cap(rotate, 999), 249, "a quarter, a player banking");
    }
}
