//! `hilo`: Hi-Lo card counting on top of basic strategy.
//!
//! - **Count:** 2–6 count +1, 7–9 count 0, tens and aces −1, over every
//!   card turned face up (the request's events); a shuffle resets it. The
//!   true count is the running count per deck still in the shoe, which the
//!   bot knows from the rules block (decks) and the cards it has seen.
//! - **Bets:** a 1–12 ramp of the table minimum — true count ≤ 1: 1 unit,
//!   2: 2, 3: 4, 4: 8, 5 or more: 12 — and it sits out (bets 0) at a true
//!   count of −2 or less while other boxes keep the cards coming: where
//!   another box was dealt a card the round before.
//! - **Plays:** the Illustrious 18 index plays, the "Fab 4" surrenders
//!   (and 16 against 9, ten and ace) and splitting tens against 5 and 6,
//!   insurance against an ace, each at the index number the analyzer
//!   computes for the rule set (`pitboss_strategy::index`, generated into
//!   `bots/chart`, [`Indices`]); everything else is basic strategy.
//!
//! In the banker game, where a single deck is shuffled every round, it
//! plays plain basic strategy.
//!
//! - **Keys (ABI v6):** its acts depend only on the legal set, the up
//!   card's value, the hand's summary and the true count; its insurance on
//!   the up card's value, the amounts and the true count; its bet on the
//!   amounts, the true count and whether another box was dealt the round
//!   before. It names its Hi-Lo weights ([`WEIGHTS`]) and those keys, so
//!   the host keeps the count of the cards it shows and asks each such
//!   question once a session; the events come with its next call (a new
//!   key, or every few hundred events).

#![cfg_attr(target_arch = "wasm32", no_std)]

use pitboss_chart::{Basic, Indices, Table, rank};
use pitboss_sdk::key::{self, Weights, part};
use pitboss_sdk::{Action, ActionSet, Card, Decision, Event, Strategy, Total, Variant, View, event_kind};

/// Hi-Lo value of a card.
pub const fn hilo_value(card: Card) -> i32 {
    match card.value() {
        2..=6 => 1,
        7..=9 => 0,
        _ => -1,
    }
}

/// [`hilo_value`] by card value (ace first), the weights of the count it
/// names to the host (`pitboss_count`).
pub const WEIGHTS: Weights = {
    let mut w = [0i8; 10];
    let mut v = 0;
    while v < 10 {
        w[v] = hilo_value(Card::from_byte(v as u8 + 1)) as i8;
        v += 1;
    }
    w
};

/// [`hilo_value`] of every card byte.
const HILO_BY_BYTE: [i8; 256] = {
    let mut t = [0i8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = hilo_value(Card::from_byte(b as u8)) as i8;
        b += 1;
    }
    t
};

/// The event kinds that show a card, as bits: those of the 32 lowest for
/// which [`Event::reveals_card`] says so.
const REVEALS: u32 = {
    let mut bits = 0;
    let mut kind = 0;
    while kind < 32 {
        if (Event { kind, seat: 0, hand: 0, card: Card::ACE }).reveals_card() {
            bits |= 1 << kind;
        }
        kind += 1;
    }
    bits
};

/// The event kinds that restart the count, as bits.
const SHUFFLES: u32 = 1 << event_kind::SHUFFLE | 1 << event_kind::PARTIAL_SHUFFLE;

/// A Hi-Lo counter playing basic strategy with index plays.
#[derive(Clone, Copy, Debug, Default)]
pub struct HiLo {
    basic: Basic,
    running: i32,
    seen: u32,
    /// The boxes dealt a card face up since the last `ROUND` event, and
    /// between the two before it (the round before), one bit a box.
    dealt: u32,
    dealt_before: u32,
}

impl HiLo {
    /// The true count: running count per remaining deck (at least half a
    /// deck), rounded toward zero.
    pub fn true_count(&self, decks: u8) -> i32 {
        key::true_count(self.running, self.seen, decks)
    }

    fn tc(&self, view: &View<'_>) -> i32 {
        self.true_count(view.rules().decks.max(1))
    }
}

/// The index plays for a hand against `up` (a rank: 0 the ace, 9 the
/// tens) at true count `tc`, by the rule set's index numbers `ix` and its
/// chart `table`; `None` leaves the play to basic strategy.
///
/// Surrender first (two cards), then splitting tens, doubling (two
/// cards) and standing on hard 12–16 (any number of cards). A decision
/// with an index is decided by it both ways: below the index the
/// alternative is played (hit, stand, or the chart's fallback after a
/// surrender not taken), whatever the chart says at a count of zero.
pub fn index_play(ix: &Indices, table: &Table, hand: &[Card], up: usize, tc: i32, legal: ActionSet) -> Option<Action> {
    let total = Total::of(hand);
    if total.is_soft() {
        return None;
    }
    let t = total.best();
    let two = hand.len() == 2;
    let pair = two && hand[0].value() == hand[1].value();
    if two
        && legal.contains(Action::Surrender)
        && let Some(surrender) = ix.surrenders(t, up, tc)
    {
        if surrender {
            return Some(Action::Surrender);
        }
        let hits = ix.stands(t, up, tc).map_or_else(|| table.two_cards(false, t, up).hits(), |stand| !stand);
        return Some(if hits { Action::Hit } else { Action::Stand });
    }
    if pair
        && hand[0].is_ten()
        && legal.contains(Action::Split)
        && let Some(split) = ix.splits_tens(up, tc)
    {
        return Some(if split { Action::Split } else { Action::Stand });
    }
    if pair && legal.contains(Action::Split) && table.splits(rank(hand[0]), up) {
        return None;
    }
    if two
        && legal.contains(Action::Double)
        && let Some(double) = ix.doubles(t, up, tc)
    {
        return Some(if double { Action::Double } else { Action::Hit });
    }
    ix.stands(t, up, tc).map(|stand| if stand { Action::Stand } else { Action::Hit })
}

impl Strategy for HiLo {
    /// Its bets follow the count and insurance is an index play; even
    /// money, side bets and back bets it never takes.
    fn defaults(&self, _: Variant, kind: Decision) -> bool {
        matches!(kind, Decision::EvenMoney | Decision::SideBet | Decision::BackBet)
    }

    /// Outside the banker game, its decisions depend on the true count
    /// and the parts named here, nothing else (the bet's sitting out on
    /// whether another box was dealt the round before: `OTHERS`).
    fn decision_key(&self, variant: Variant, kind: Decision) -> Option<u32> {
        if variant.banker_game() {
            return None;
        }
        match kind {
            Decision::Act => Some(part::LEGAL | part::UP_VALUE | part::SUMMARY | part::TRUE_COUNT),
            Decision::Insurance => Some(part::UP_VALUE | part::AMOUNTS | part::TRUE_COUNT),
            Decision::Bet => Some(part::AMOUNTS | part::TRUE_COUNT | part::OTHERS),
            _ => None,
        }
    }

    fn count(&self, variant: Variant) -> Option<Weights> {
        (!variant.banker_game()).then_some(WEIGHTS)
    }

    fn observe(&mut self, events: &[Event]) {
        self.basic.observe(events);
        // The per-event loop is most of what this bot does (about half its
        // fuel), so it is kept lean: kinds tested by bitmask, the Hi-Lo
        // value read from a table, the sums kept in locals — and without a
        // branch on what the event is: every event does all the work,
        // masked (a card that shows adds its value, a shuffle clears the
        // sums). That is more instructions, but the kinds follow the deal,
        // which no predictor can guess: 2-3 % less CPU a heads-up round
        // (docs/performance.md, "Issue 31, a branch-free count").
        let (mut running, mut seen) = (self.running, self.seen);
        let (mut dealt, mut before) = (self.dealt, self.dealt_before);
        for e in events {
            let kind = 1u32.checked_shl(u32::from(e.kind)).unwrap_or(0);
            let reveals = kind & REVEALS != 0;
            running += i32::from(HILO_BY_BYTE[usize::from(e.card.rank())]) * i32::from(reveals);
            seen += u32::from(reveals);
            let keep = if kind & SHUFFLES != 0 { 0 } else { u32::MAX };
            running &= keep as i32;
            seen &= keep;
            // A `ROUND` moves this round's boxes to the round before; a
            // `CARD` marks its box.
            let new_round = u32::from(e.kind == event_kind::ROUND).wrapping_neg();
            before = before & !new_round | dealt & new_round;
            dealt &= !new_round;
            dealt |= u32::from(e.kind == event_kind::CARD) * key::box_bit(e.seat);
        }
        (self.running, self.seen) = (running, seen);
        (self.dealt, self.dealt_before) = (dealt, before);
    }

    #[inline(always)]
    fn bet(&mut self, view: &View<'_>) -> i64 {
        if view.variant().banker_game() {
            return self.basic.bet(view);
        }
        let tc = self.tc(view);
        // Sit out at bad counts — but only while others keep dealing cards:
        // alone at the table, sitting out would freeze the count forever.
        let others_playing = key::others_dealt(self.dealt_before, view.seat());
        if tc <= -2 && others_playing {
            return 0;
        }
        let units = match tc {
            ..=1 => 1,
            2 => 2,
            3 => 4,
            4 => 8,
            _ => 12,
        };
        let (min, max, unit) = (view.min(), view.max(), view.unit().max(1));
        let wanted = (min * units).min(max);
        let bet = wanted - wanted.rem_euclid(unit);
        if bet < min { 0 } else { bet }
    }

    fn insurance(&mut self, view: &View<'_>) -> i64 {
        let ace_up = view.dealer_up().is_some_and(Card::is_ace);
        if ace_up && Indices::for_variant(view.variant()).insures(self.tc(view)) { view.max() } else { 0 }
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        let variant = view.variant();
        if !variant.banker_game() {
            let up = rank(view.dealer_up().unwrap_or(Card::TEN));
            let (ix, table) = (Indices::for_variant(variant), Table::for_variant(variant));
            if let Some(a) = index_play(ix, table, view.hand(), up, self.tc(view), view.legal())
                && view.legal().contains(a)
            {
                return a;
            }
        }
        self.basic.act(view)
    }

    fn banker_double(&mut self, view: &View<'_>) -> bool {
        self.basic.banker_double(view)
    }

    fn banker_draw(&mut self, view: &View<'_>) -> bool {
        self.basic.banker_draw(view)
    }
}

pitboss_sdk::export_bot!(HiLo, HiLo::default());

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(ranks: &[u8]) -> Vec<Card> {
        ranks.iter().map(|&r| Card::new(r).unwrap()).collect()
    }

    fn all() -> ActionSet {
        Action::ALL.iter().fold(ActionSet::EMPTY, |s, a| s.with(*a))
    }

    #[test]
    fn the_count_and_the_true_count() {
        let mut h = HiLo::default();
        let ev = |r| Event { kind: event_kind::CARD, seat: 0, hand: 0, card: Card::new(r).unwrap() };
        h.observe(&[ev(2), ev(5), ev(13), ev(1), ev(6), ev(8)]);
        assert_eq!((h.running, h.seen), (1, 6));
        h.running = 10;
        assert_eq!(h.true_count(6), 10 * 52 / (312 - 6));
        h.observe(&[Event::table(event_kind::SHUFFLE, 0)]);
        assert_eq!((h.running, h.seen), (0, 0));
        assert_eq!(WEIGHTS, [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1]);
    }

    #[test]
    fn the_boxes_dealt_the_round_before_are_those_between_the_last_two_rounds() {
        let mut h = HiLo::default();
        let ev = |kind, seat| Event { kind, seat, hand: 0, card: Card::new(5).unwrap() };
        let round = Event::table(event_kind::ROUND, 3);
        h.observe(&[round, ev(event_kind::CARD, 0), ev(event_kind::CARD, 2), ev(event_kind::DEALER_CARD, 0)]);
        assert_eq!((h.dealt, h.dealt_before), (0b101, 0));
        h.observe(&[round]);
        assert_eq!((h.dealt, h.dealt_before), (0, 0b101));
        // A round nobody played: the round before it dealt nothing.
        h.observe(&[round]);
        assert_eq!((h.dealt, h.dealt_before), (0, 0));
    }

    #[test]
    fn index_plays_follow_the_generated_numbers() {
        let na = (Indices::for_variant(Variant::NorthAmerican), Table::for_variant(Variant::NorthAmerican));
        let play = |h: &[u8], up: usize, tc: i32, legal: ActionSet| index_play(na.0, na.1, &hand(h), up, tc, legal);
        let no_surrender = without(all(), Action::Surrender);
        assert_eq!(play(&[10, 6], 9, 0, no_surrender), Some(Action::Stand));
        assert_eq!(play(&[10, 6], 9, -1, no_surrender), Some(Action::Hit));
        assert_eq!(play(&[10, 10], 5, 5, all()), Some(Action::Split));
        assert_eq!(play(&[10, 10], 5, 4, all()), Some(Action::Stand));
        assert_eq!(play(&[6, 5], 0, 1, all()), Some(Action::Double));
        assert_eq!(play(&[6, 5], 0, 0, all()), Some(Action::Hit));
        assert_eq!(play(&[10, 2], 2, 1, all()), Some(Action::Stand));
        assert_eq!(play(&[10, 4], 9, 3, all()), Some(Action::Surrender));
        assert_eq!(play(&[10, 5], 9, -1, all()), Some(Action::Hit), "no surrender at negative counts");
        assert_eq!(play(&[6, 6], 3, 5, all()), None, "the chart splits 6,6 against a 4");
        assert_eq!(play(&[10, 7], 9, 0, all()), None, "no index: basic strategy");
        assert_eq!(play(&[1, 5], 9, 0, all()), None, "soft hands: basic strategy");
        let danish = (Indices::for_variant(Variant::Danish), Table::for_variant(Variant::Danish));
        assert_eq!(index_play(danish.0, danish.1, &hand(&[6, 4]), 9, 10, all()), Some(Action::Hit));
        assert!(Indices::for_variant(Variant::NorthAmerican).insures(3));
        assert!(!Indices::for_variant(Variant::NorthAmerican).insures(2));
        assert!(!Indices::for_variant(Variant::NorwegianHome).insures(10));
    }

    fn without(set: ActionSet, a: Action) -> ActionSet {
        ActionSet(set.0 & !(1 << a as u8))
    }
}
