//! The luck of the cards at a league's table, for each bot's luck-adjusted
//! result: a recorder that, for every card revealed after a round starts,
//! adds to the luck of each player whose boxes it touches V(after the
//! card) − E[V(after)], the expectation over the card's exact chance
//! given every card seen face up before it ([`weights`]). V is the cheap
//! one of [`LuckTable`] (fixed tables off the top of a full shoe), so the
//! sum has mean zero whatever the bots do, and the result less it (the
//! luck-adjusted result) estimates the same EV as the chips, with far less
//! spread.
//!
//! Corrected: the deal (each box's two cards and the up card, and an
//! Over/Under 13 bet's payoff), every card to a hand after it (hits,
//! doubles, split hands) and every dealer card after the up card, for
//! every box of every player. Left with their luck ([`UNCORRECTED`]):
//! insurance and even money, the peek itself, back bets, and the banker
//! game entirely (no recorder runs there).

use std::sync::{Arc, Mutex};

use pitboss_engine::{Recorder, Rules, ShuffleKind, TableEvent};
use pitboss_sdk::{Action, SideBet};
use pitboss_strategy::deck::{ACE, RANKS, value};
use pitboss_strategy::luck::{DealerState, LuckTable, NATURAL_CLASS, weights};

/// What the luck adjustment leaves uncorrected in a dealer game.
pub const UNCORRECTED: &[&str] = &["insurance and even money", "the peek for a dealer natural", "back bets"];

/// What it leaves uncorrected in the banker game: everything.
pub const UNCORRECTED_BANKER: &[&str] = &["the banker game (luck-adjusted figures are the chips' own)"];

/// The parts of a round left uncorrected under `rules`.
pub fn uncorrected(rules: &Rules) -> Vec<String> {
    let list = if rules.game == pitboss_engine::Game::Banker { UNCORRECTED_BANKER } else { UNCORRECTED };
    list.iter().map(|s| s.to_string()).collect()
}

/// The tables of `rules`, made once per process and rule set and shared
/// by every table (from the stored tables for a rule set's defaults, in
/// well under a millisecond; a league that overrides rules computes its
/// own, about a quarter of a second); `None` for the banker game, which
/// is not corrected.
pub fn table_for(rules: &Rules) -> anyhow::Result<Option<Arc<LuckTable>>> {
    static TABLES: Mutex<Vec<(Rules, Arc<LuckTable>)>> = Mutex::new(Vec::new());
    if rules.game == pitboss_engine::Game::Banker {
        return Ok(None);
    }
    let mut tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, t)) = tables.iter().find(|(r, _)| r == rules) {
        return Ok(Some(t.clone()));
    }
    let t = Arc::new(LuckTable::new(rules).map_err(|e| anyhow::anyhow!("luck adjustment: {e}"))?);
    tables.push((rules.clone(), t.clone()));
    Ok(Some(t))
}

/// One hand of a box, as its value depends on it.
#[derive(Clone, Copy, Debug, Default)]
struct HandLuck {
    /// Sum with every ace 1.
    hard: u8,
    /// Holds an ace.
    ace: bool,
    /// Cards.
    len: u8,
    /// The first card's rank (a split hand's pair).
    first: u8,
    /// Doubled: two bets, one card.
    doubled: bool,
    /// After a soft double where aces turn low.
    aces_low: bool,
    /// From a split.
    from_split: bool,
    /// Settled (bust, surrendered, a natural paid, even money): no longer
    /// decided by the dealer's cards.
    done: bool,
}

impl HandLuck {
    fn with(mut self, rank: usize) -> HandLuck {
        if self.len == 0 {
            self.first = rank as u8;
        }
        self.hard = self.hard.saturating_add(value(rank));
        self.ace |= rank == ACE;
        self.len = self.len.saturating_add(1);
        self
    }

    /// Its total as it stands against the dealer.
    fn total(&self) -> u8 {
        if self.ace && !self.aces_low && self.hard <= 11 { self.hard + 10 } else { self.hard }
    }
}

/// One box this round.
#[derive(Clone, Debug, Default)]
struct BoxLuck {
    bet: i64,
    side: Option<(SideBet, i64)>,
    /// A split happened: no card to it is a deal card any more.
    split: bool,
    hands: Vec<HandLuck>,
}

impl BoxLuck {
    fn hand(&mut self, h: usize) -> &mut HandLuck {
        if h >= self.hands.len() {
            self.hands.resize(h + 1, HandLuck::default());
        }
        &mut self.hands[h]
    }

    /// Class and stake of each hand the dealer's cards still decide.
    fn live(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        let one = self.hands.len() == 1;
        self.hands.iter().filter(|h| !h.done && h.hard <= 21 && h.len > 0).map(move |h| {
            let natural = one && !h.from_split && h.len == 2 && h.ace && h.hard == 11;
            let class = if natural { NATURAL_CLASS } else { usize::from(h.total()) };
            (class, (self.bet * if h.doubled { 2 } else { 1 }) as f64)
        })
    }
}

/// The luck of one table's players, round by round.
#[derive(Debug)]
pub struct LuckLog {
    table: Arc<LuckTable>,
    per: usize,
    peek: bool,
    aces_low: bool,
    full: [f64; RANKS],
    /// The cards not seen face up since the shuffle (a hole card among
    /// them), and how many.
    unseen: [f64; RANKS],
    left: f64,
    /// Cards seen face up this round (for a mid-round reshuffle).
    round_seen: [f64; RANKS],
    dealer: DealerState,
    boxes: Vec<BoxLuck>,
    /// Each player's luck this round, in chips.
    pub luck: Vec<f64>,
}

impl LuckLog {
    /// A log for `players` players of `per` boxes each under `rules`.
    pub fn new(table: Arc<LuckTable>, rules: &Rules, players: usize) -> LuckLog {
        let per = usize::from(rules.boxes_per_player).max(1);
        let full = table.full().map(f64::from);
        LuckLog {
            per,
            peek: table.game().peek,
            aces_low: rules.aces_low_after_soft_double,
            full,
            unseen: full,
            left: full.iter().sum(),
            round_seen: [0.0; RANKS],
            dealer: DealerState::default(),
            boxes: vec![BoxLuck::default(); players * per],
            luck: vec![0.0; players],
            table,
        }
    }

    fn seen(&mut self, r: usize) {
        if self.unseen[r] >= 1.0 {
            self.unseen[r] -= 1.0;
            self.left -= 1.0;
        }
        self.round_seen[r] += 1.0;
    }

    /// The chance weights of the next card (see [`weights`]).
    #[inline]
    fn next(&self, barred: Option<usize>, hole: bool) -> Option<([f64; RANKS], f64)> {
        weights(&self.unseen, self.left, barred, hole)
    }

    fn up(&self) -> Option<usize> {
        (self.dealer.cards > 0).then_some(usize::from(self.dealer.up))
    }

    fn add(&mut self, seat: usize, chips: f64) {
        if let Some(l) = self.luck.get_mut(owner(seat, self.per)) {
            *l += chips;
        }
    }

    /// A card to box `seat`'s hand `h`.
    #[inline(never)]
    fn card(&mut self, seat: usize, h: usize, r: usize) {
        let up = self.up();
        let (t, peek) = (&*self.table, self.peek);
        let Some(bx) = self.boxes.get_mut(seat) else { return };
        let hand = *bx.hand(h);
        let deal = h == 0 && !bx.split && hand.len < 2;
        let barred = match up {
            Some(up) if peek && !deal => pitboss_strategy::Game::natural_partner(up),
            _ => None,
        };
        let chance = weights(&self.unseen, self.left, barred, false);
        let luck = if let Some(p) = &chance
            && deal
        {
            // A deal card: the deal's value knowing it, then the side bet's.
            let first = (hand.len == 1).then_some(usize::from(hand.first));
            let row = t.deal_row(up, first);
            let mut luck = bx.bet as f64 * (row[r] - dot(p, row));
            if let Some((side, amount)) = bx.side {
                let s = |x: usize| match first {
                    None => t.side(side, amount, x, None),
                    Some(a) => t.side(side, amount, a, Some(x)),
                };
                luck += s(r) - expect(p, s);
            }
            luck
        } else if let (Some(p), Some(up)) = (&chance, up) {
            let bet = bx.bet as f64;
            if hand.len == 1 {
                let row = t.split_row(up, usize::from(hand.first));
                bet * (row[r] - dot(p, row))
            } else if hand.doubled {
                let v = |x: usize| {
                    let after = hand.with(x);
                    t.doubled(up, after.hard, after.total())
                };
                bet * (v(r) - expect(p, v))
            } else {
                let row = t.hit_row(up, hand.hard, hand.ace);
                bet * (row[r] - dot(p, row))
            }
        } else {
            0.0
        };
        *bx.hand(h) = hand.with(r);
        self.add(seat, luck);
        self.seen(r);
    }

    /// The up card: every box's deal changes value.
    fn up_card(&mut self, r: usize) {
        let Some(p) = self.next(None, false) else { return };
        let p = &p;
        let t = &*self.table;
        for (seat, bx) in self.boxes.iter().enumerate() {
            if bx.bet == 0 {
                continue;
            }
            let h = bx.hands.first().copied().unwrap_or_default();
            let cards = [h.first, h.hard.wrapping_sub(value(usize::from(h.first))).wrapping_sub(1)];
            let (a, b) = match h.len {
                0 => (None, None),
                1 => (Some(usize::from(cards[0])), None),
                _ => (Some(usize::from(cards[0])), Some(usize::from(cards[1]).min(RANKS - 1))),
            };
            let row = t.deal_by_up(a, b);
            let luck = bx.bet as f64 * (row[r] - dot(p, row));
            if let Some(l) = self.luck.get_mut(owner(seat, self.per)) {
                *l += luck;
            }
        }
    }

    /// A dealer card after the up card (`barred`: the hole card turned up
    /// after a peek, which cannot be that rank).
    fn dealer_card(&mut self, r: usize, barred: Option<usize>) {
        let Some(p) = self.next(barred, barred.is_some()) else { return };
        let p = &p;
        let (t, dealer) = (&*self.table, self.dealer);
        for (seat, bx) in self.boxes.iter().enumerate() {
            if bx.bet == 0 {
                continue;
            }
            let mut luck = 0.0;
            for (class, stake) in bx.live() {
                let row = t.against_next(dealer, class);
                luck += stake * (row[r] - dot(p, row));
            }
            if luck != 0.0
                && let Some(l) = self.luck.get_mut(owner(seat, self.per))
            {
                *l += luck;
            }
        }
    }

    #[inline(never)]
    fn acted(&mut self, seat: usize, h: usize, action: Action) {
        let aces_low = self.aces_low;
        let Some(bx) = self.boxes.get_mut(seat) else { return };
        match action {
            Action::Double => {
                let hand = bx.hand(h);
                hand.doubled = true;
                hand.aces_low = aces_low && hand.ace && hand.hard <= 11;
            }
            Action::Split => {
                bx.split = true;
                let first = usize::from(bx.hand(h).first);
                let one = HandLuck { from_split: true, ..HandLuck::default() }.with(first);
                bx.hands[h] = one;
                bx.hands.insert(h + 1, one);
            }
            _ => {}
        }
    }

    #[inline(never)]
    fn shuffled(&mut self, kind: ShuffleKind) {
        match kind {
            ShuffleKind::Full => self.unseen = self.full,
            ShuffleKind::Discards => {
                // This round's cards stay out; a hole card is still unseen.
                for r in 0..RANKS {
                    self.unseen[r] = (self.full[r] - self.round_seen[r]).max(0.0);
                }
            }
        }
        self.left = self.unseen.iter().sum();
    }

    /// A dealer card face up: the up card, or a draw.
    #[inline(never)]
    fn dealer_up(&mut self, r: usize) {
        if self.dealer.cards == 0 {
            self.up_card(r);
        } else {
            self.dealer_card(r, None);
        }
        self.dealer = self.dealer.with(r);
        self.seen(r);
    }

    /// The hole card turned up.
    #[inline(never)]
    fn hole_revealed(&mut self, r: usize) {
        let barred = match self.up() {
            Some(up) if self.peek => pitboss_strategy::Game::natural_partner(up),
            _ => None,
        };
        // The hole card of a peeked natural ends the round: the peek is
        // not corrected.
        if barred != Some(r) {
            self.dealer_card(r, barred);
        }
        self.dealer = self.dealer.with(r);
        self.seen(r);
    }

    #[inline(never)]
    fn start_round(&mut self) {
        self.round_seen = [0.0; RANKS];
        self.dealer = DealerState::default();
        for bx in &mut self.boxes {
            bx.bet = 0;
            bx.side = None;
            bx.split = false;
            bx.hands.clear();
        }
        self.luck.iter_mut().for_each(|l| *l = 0.0);
    }
}

/// The player of box `seat`, `per` boxes a player: no division in the
/// usual case of one box each (a division costs about as much as a
/// card's whole expectation).
#[inline(always)]
fn owner(seat: usize, per: usize) -> usize {
    if per == 1 { seat } else { seat / per }
}

/// E[row[card]] over the chance weights `(w, scale)` of [`weights`].
#[inline(always)]
fn dot(p: &([f64; RANKS], f64), row: &[f64]) -> f64 {
    let (w, scale) = p;
    let row = &row[..RANKS];
    let mut sum = 0.0;
    for x in 0..RANKS {
        sum += w[x] * row[x];
    }
    sum * scale
}

/// E[v(card)] over the chance weights `(w, scale)` of [`weights`].
#[inline(always)]
fn expect(p: &([f64; RANKS], f64), v: impl Fn(usize) -> f64) -> f64 {
    let (w, scale) = p;
    let mut sum = 0.0;
    for (x, w) in w.iter().enumerate() {
        sum += w * v(x);
    }
    sum * scale
}

impl Recorder for LuckLog {
    /// Inlined where the table records each event, whose kind is known
    /// there: the events this log ignores cost nothing, and the work of
    /// the others is out of line.
    #[inline(always)]
    fn record(&mut self, event: &TableEvent) {
        match *event {
            TableEvent::Shuffle(kind) => self.shuffled(kind),
            TableEvent::RoundStart { .. } => self.start_round(),
            TableEvent::Bet { seat, amount } => {
                if let Some(bx) = self.boxes.get_mut(usize::from(seat)) {
                    bx.bet = amount;
                }
            }
            TableEvent::SideBet { seat, side, amount } => {
                if let Some(bx) = self.boxes.get_mut(usize::from(seat)) {
                    bx.side = Some((side, amount));
                }
            }
            TableEvent::Card { seat, hand, card } => {
                self.card(usize::from(seat), usize::from(hand), usize::from(card.value() - 1))
            }
            TableEvent::DealerCard { card, hole: false } => self.dealer_up(usize::from(card.value() - 1)),
            TableEvent::HoleRevealed { card } => self.hole_revealed(usize::from(card.value() - 1)),
            TableEvent::Acted { seat, hand, action } => self.acted(usize::from(seat), usize::from(hand), action),
            TableEvent::Settled { seat, hand, .. } => {
                if let Some(bx) = self.boxes.get_mut(usize::from(seat)) {
                    bx.hand(usize::from(hand)).done = true;
                }
            }
            TableEvent::RoundVoid { .. } => self.luck.iter_mut().for_each(|l| *l = 0.0),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use pitboss_engine::Stats;
    use pitboss_results::luck::LuckSums;

    use crate::bots::Bot;
    use crate::session::{LeaguePlay, play_session};

    /// `builtin:basic` alone over `sessions` sessions of `rounds` rounds:
    /// its chips' statistics and luck-adjusted sums, all sessions merged.
    fn basic(rules: &pitboss_engine::Rules, sessions: u64, rounds: u64) -> (Stats, LuckSums) {
        let table = super::table_for(rules).unwrap().unwrap();
        let bots = [("basic".to_string(), Bot::builtin("basic").unwrap())];
        let (mut stats, mut luck) = (Stats::default(), LuckSums::default());
        let play = LeaguePlay {
            rules,
            bots: &bots,
            seed: 41,
            rounds,
            bankroll: 1_000_000,
            fault_limit: 0,
            luck: Some(&table),
        };
        for s in 0..sessions {
            let played = play_session(&play, s, &vec![vec![0]], &|_| ()).unwrap();
            stats.merge(&played.bots[0].stats);
            luck.merge(&played.bots[0].luck.unwrap());
        }
        (stats, luck)
    }

    /// Over 100 sessions of a few hundred rounds, on each casino rule set,
    /// `basic`'s luck-adjusted EV agrees with its chips' EV within the
    /// chips' 95 % interval (the correction has mean zero), and its own
    /// interval is at least four times narrower (16 times fewer rounds
    /// for the same precision).
    #[test]
    fn the_luck_adjusted_ev_is_unbiased_and_at_least_four_times_narrower() {
        for rules in
            [pitboss_engine::Rules::north_american(), pitboss_engine::Rules::swedish(), pitboss_engine::Rules::danish()]
        {
            let (stats, luck) = basic(&rules, 100, 300);
            let (ev, se) = (stats.ev(), stats.ev_standard_error());
            let (adjusted, adjusted_se) = luck.ev(&stats);
            eprintln!(
                "{}: chips {:+.3} ± {:.3} %, luck-adjusted {:+.3} ± {:.3} % ({:.1}x narrower)",
                rules.variant.id(),
                100.0 * ev,
                196.0 * se,
                100.0 * adjusted,
                196.0 * adjusted_se,
                se / adjusted_se
            );
            assert_eq!(stats.rounds, 30_000, "{}", rules.variant.id());
            assert!((adjusted - ev).abs() <= 1.96 * se, "{}: {adjusted} vs {ev} ± {se}", rules.variant.id());
            assert!(adjusted_se * 4.0 <= se, "{}: {adjusted_se} vs {se}", rules.variant.id());
        }
    }

    #[test]
    fn the_banker_game_has_no_tables_and_says_so() {
        let rules = pitboss_engine::Rules::norwegian_home();
        assert!(super::table_for(&rules).unwrap().is_none());
        assert!(super::uncorrected(&rules)[0].contains("banker game"));
    }
}
