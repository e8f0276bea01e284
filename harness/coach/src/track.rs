//! `Tracker`: a table's events read back into what the bot knew at each
//! of its decisions — the cards it had not seen, its hand, the up card,
//! what it was offered and what it did — one [`RoundLog`] a round.
//!
//! The coached bot plays alone at the table, one box (box 0, player 0).
//! The cards it has not seen are the shoe since the last full shuffle
//! less every face-up card; the dealer's hole card counts as unseen until
//! it is turned up, as it is for the bot. Every card dealt, hole card
//! included, is also kept in order for the luck adjustment.

use pitboss_engine::{Outcome, Recorder, Rules, ShuffleKind, TableEvent};
use pitboss_sdk::{Action, ActionSet, Decision, SideBet};
use pitboss_strategy::Game;
use pitboss_strategy::deck::Hand;

pub use pitboss_strategy::value::How;
use pitboss_strategy::value::{Counts, rank};

/// A hand played: what the bot knew, was offered and did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Play {
    /// Cards the bot had not seen (its hand and the up card excluded).
    pub unseen: Counts,
    /// The hand.
    pub hand: Hand,
    /// The hand came from a split.
    pub from_split: bool,
    /// Hands on the box.
    pub hands: u8,
    /// What the engine offered.
    pub legal: ActionSet,
    /// What was applied (a refused answer stands).
    pub action: Action,
}

/// One decision of the bot, with what it knew.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    /// Playing a hand.
    Act(Play),
    /// Insurance.
    Insurance {
        /// Cards the bot had not seen.
        unseen: Counts,
        /// Chips staked (0: declined).
        stake: i64,
        /// The most it could stake.
        max: i64,
    },
    /// Even money on a blackjack against an ace.
    EvenMoney {
        /// Cards the bot had not seen.
        unseen: Counts,
        /// Taken.
        took: bool,
    },
}

/// Who a card went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    /// The bot's hand with this index (at the time it was dealt).
    Hand(u8),
    /// The dealer, face up.
    Dealer,
    /// The dealer's hole card.
    Hole,
}

/// A hand still in play when the dealer draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Live {
    /// Its total (aces low after a soft double where the rules say so).
    pub total: u8,
    /// Chips on it.
    pub stake: i64,
    /// A two-card 21 from the deal (no split).
    pub natural: bool,
}

/// A card revealed after the deal, with what was known just before it.
#[derive(Clone, Debug, PartialEq)]
pub enum Draw {
    /// To the bot's hand `hand` (its cards before this one).
    Player {
        /// The card's rank.
        rank: usize,
        /// Cards the bot had not seen just before it.
        unseen: Counts,
        /// The hand before the card.
        hand: Hand,
        /// Hit, double or a split hand's second card.
        how: How,
    },
    /// To the dealer at the dealer's turn (the hole card turned up, or a
    /// draw).
    Dealer {
        /// The card's rank.
        rank: usize,
        /// Cards the bot had not seen just before it.
        unseen: Counts,
        /// The dealer's cards before it (ranks).
        before: Vec<usize>,
        /// The hole card turned up after a peek: it cannot be this rank.
        barred: Option<usize>,
        /// The bot's hands still in play.
        live: Vec<Live>,
    },
}

/// One round as the bot played it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundLog {
    /// 1-based round number.
    pub round: u64,
    /// The bot's stake (0: it sat the round out).
    pub bet: i64,
    /// Cards left at the round's start.
    pub start: Counts,
    /// The side bet placed, if any.
    pub side: Option<(SideBet, i64)>,
    /// A side bet was offered (up to `bet` chips).
    pub side_offered: bool,
    /// The up card's rank.
    pub up: Option<usize>,
    /// The bot's first two cards.
    pub dealt: Hand,
    /// Cards the bot had not seen once the up card and its two cards were
    /// dealt.
    pub after_deal: Option<Counts>,
    /// The decisions, in order.
    pub choices: Vec<Choice>,
    /// Every card dealt this round, in order, with where it went.
    pub cards: Vec<(usize, To)>,
    /// The cards revealed after the deal, for the luck adjustment.
    pub draws: Vec<Draw>,
    /// Chips won (negative: lost), everything included.
    pub net: i64,
}

/// Reads events into round logs, handing each finished round to `sink`.
#[derive(Debug)]
pub struct Tracker<F> {
    full: Counts,
    unseen: Counts,
    round: RoundLog,
    hands: Vec<(Hand, bool)>,
    /// Per hand: doubled, surrendered, aces low.
    done: Vec<(bool, bool, bool)>,
    dealer: Vec<usize>,
    hole: Option<usize>,
    rules: Rules,
    asked: Option<(Decision, ActionSet)>,
    insurance_max: fn(i64) -> i64,
    sink: F,
}

impl<F: FnMut(RoundLog)> Tracker<F> {
    /// A tracker for `rules`' shoe of `full` cards; `insurance_max` gives
    /// the most a bet may insure.
    pub fn new(rules: &Rules, full: Counts, insurance_max: fn(i64) -> i64, sink: F) -> Tracker<F> {
        Tracker {
            full,
            unseen: full,
            round: RoundLog::default(),
            hands: Vec::new(),
            done: Vec::new(),
            dealer: Vec::new(),
            hole: None,
            rules: rules.clone(),
            asked: None,
            insurance_max,
            sink,
        }
    }

    fn seen(&mut self, r: usize) {
        self.unseen[r] = self.unseen[r].saturating_sub(1);
    }

    fn card(&mut self, seat: u8, hand: u8, r: usize) {
        self.round.cards.push((r, To::Hand(hand)));
        self.seen(r);
        if seat != 0 {
            return;
        }
        let h = usize::from(hand);
        if h >= self.hands.len() {
            self.hands.resize(h + 1, (Hand::default(), false));
            self.done.resize(h + 1, (false, false, false));
        }
        let before = self.hands[h].0;
        if self.round.after_deal.is_some() {
            let how = if before.len == 1 {
                How::Split
            } else if self.done[h].0 {
                How::Double
            } else {
                How::Hit
            };
            let mut unseen = self.unseen;
            unseen[r] += 1;
            self.round.draws.push(Draw::Player { rank: r, unseen, hand: before, how });
        }
        self.hands[h].0 = self.hands[h].0.with(r);
        if h == 0 && self.hands[0].0.len == 2 && !self.hands[0].1 && self.round.after_deal.is_none() {
            self.round.dealt = self.hands[0].0;
            self.round.after_deal = Some(self.unseen);
        }
    }

    /// A dealer card turned up; after the deal, a draw to record (the
    /// hole card of a peeked natural is no draw: it ends the round).
    fn dealer_card(&mut self, r: usize, barred: Option<usize>) {
        if !self.dealer.is_empty() && self.round.after_deal.is_some() && barred != Some(r) {
            let live = self.live();
            let (unseen, before) = (self.unseen, self.dealer.clone());
            self.round.draws.push(Draw::Dealer { rank: r, unseen, before, barred, live });
        }
        self.dealer.push(r);
        self.seen(r);
    }

    /// The bot's hands the dealer's cards still decide.
    fn live(&self) -> Vec<Live> {
        let took_even_money = self.round.choices.iter().any(|c| matches!(c, Choice::EvenMoney { took: true, .. }));
        let one = self.hands.len() == 1;
        self.hands
            .iter()
            .zip(&self.done)
            .filter_map(|(&(hand, from_split), &(doubled, surrendered, aces_low))| {
                let natural = one && !from_split && hand.is_two_card_21();
                let settled = natural && (self.rules.hole_card || took_even_money);
                (!hand.is_bust() && !surrendered && !settled).then(|| Live {
                    total: if aces_low { hand.hard } else { hand.best() },
                    stake: self.round.bet * if doubled { 2 } else { 1 },
                    natural,
                })
            })
            .collect()
    }

    fn acted(&mut self, hand: u8, action: Action) {
        let h = usize::from(hand);
        let Some((_, legal)) = self.asked.take() else { return };
        let Some(&(cards, from_split)) = self.hands.get(h) else { return };
        match action {
            Action::Double => {
                self.done[h].0 = true;
                self.done[h].2 = self.rules.aces_low_after_soft_double && cards.is_soft();
            }
            Action::Surrender => self.done[h].1 = true,
            _ => {}
        }
        self.round.choices.push(Choice::Act(Play {
            unseen: self.unseen,
            hand: cards,
            from_split,
            hands: self.hands.len() as u8,
            legal,
            action,
        }));
        if action == Action::Split {
            let ranks: Vec<usize> =
                (0..cards.counts.len()).flat_map(|r| std::iter::repeat_n(r, usize::from(cards.counts[r]))).collect();
            let one = Hand::of(&ranks[..1]);
            self.hands[h] = (one, true);
            self.hands.insert(h + 1, (one, true));
            self.done.insert(h + 1, (false, false, false));
        }
    }

    fn shuffled(&mut self, kind: ShuffleKind) {
        self.unseen = self.full;
        if kind == ShuffleKind::Discards {
            // This round's cards stay out; the hole card is still unseen.
            let hole = self.hole;
            for (r, to) in self.round.cards.clone() {
                if to != To::Hole || hole.is_none() {
                    self.seen(r);
                }
            }
        }
    }

    fn asked(&mut self, kind: Decision, legal: ActionSet) {
        match kind {
            Decision::Act => self.asked = Some((kind, legal)),
            Decision::Insurance => {
                let max = (self.insurance_max)(self.round.bet);
                self.round.choices.push(Choice::Insurance { unseen: self.unseen, stake: 0, max });
            }
            Decision::EvenMoney => self.round.choices.push(Choice::EvenMoney { unseen: self.unseen, took: false }),
            Decision::SideBet => self.round.side_offered = true,
            _ => {}
        }
    }
}

impl<F: FnMut(RoundLog)> Recorder for Tracker<F> {
    fn record(&mut self, event: &TableEvent) {
        match *event {
            TableEvent::Shuffle(kind) => self.shuffled(kind),
            TableEvent::RoundStart { round } => {
                self.round = RoundLog { round, start: self.unseen, ..RoundLog::default() };
                self.hands.clear();
                self.done.clear();
                self.dealer.clear();
                self.hole = None;
            }
            TableEvent::Bet { seat: 0, amount } => self.round.bet = amount,
            TableEvent::SideBet { seat: 0, side, amount } => {
                self.round.side = Some((side, amount));
                self.round.net -= amount;
            }
            TableEvent::SideBetSettled { seat: 0, returned } => self.round.net += returned,
            TableEvent::Asked { seat: 0, kind, legal, .. } => self.asked(kind, legal),
            TableEvent::Insurance { seat: 0, amount } => {
                self.round.net -= amount;
                if let Some(Choice::Insurance { stake, .. }) = self.round.choices.last_mut() {
                    *stake = amount;
                }
            }
            TableEvent::InsuranceSettled { seat: 0, returned } => self.round.net += returned,
            TableEvent::Card { seat, hand, card } => self.card(seat, hand, rank(card)),
            TableEvent::DealerCard { card, hole } => {
                let r = rank(card);
                if hole {
                    self.hole = Some(r);
                    self.round.cards.push((r, To::Hole));
                } else {
                    self.round.cards.push((r, To::Dealer));
                    self.round.up.get_or_insert(r);
                    self.dealer_card(r, None);
                }
            }
            TableEvent::HoleRevealed { card } => {
                self.hole = None;
                let barred = self.dealer.first().and_then(|&up| Game::natural_partner(up));
                self.dealer_card(rank(card), barred);
            }
            TableEvent::Acted { seat: 0, hand, action } => self.acted(hand, action),
            TableEvent::Settled { seat: 0, bet, returned, outcome, .. } => {
                self.round.net += returned - bet;
                if outcome == Outcome::EvenMoney
                    && let Some(Choice::EvenMoney { took, .. }) = self.round.choices.last_mut()
                {
                    *took = true;
                }
            }
            TableEvent::RoundEnd { .. } => (self.sink)(std::mem::take(&mut self.round)),
            _ => {}
        }
    }
}
