//! `Valuer`: the exact analyzer asked about one round's situations, each
//! from the shoe's composition at that moment (the coach's valuation),
//! and the deal table off the top that both the coach and a league's
//! luck adjustment (`luck`) read.
//!
//! A hand's values come from an [`Analyzer`] built on the composition the
//! hand's cards came from (the cards the bot has not seen, plus its own
//! hand and the up card). Hitting moves a card from the unseen cards into
//! the hand, so that composition stays the same for every decision of one
//! hand: its analyzer, with every value it has memoised, serves them all.
//! Analyzers are therefore cached by composition for the round and
//! forgotten at its end (compositions of different rounds never repeat).

use crate::deck::{ACE, Hand, RANKS, Shoe, value};
use crate::hand::{Options, two_card};
use crate::resplit::SplitCtx;
use crate::{Analyzer, Game, Policy, StrategyError};
use pitboss_engine::Rules;
use pitboss_sdk::{Action, ActionSet, SideBet};

/// How a card after the deal reached a player's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// A hit.
    Hit,
    /// The one card of a double.
    Double,
    /// A split hand's second card.
    Split,
}

/// Cards of each rank (ace, 2–9, ten-valued), whole cards.
pub type Counts = [u16; RANKS];

/// The rank index (0 = ace … 9 = ten-valued) of a card.
pub fn rank(card: pitboss_sdk::Card) -> usize {
    usize::from(card.value() - 1)
}

/// A full shoe of `decks` decks.
pub fn full_shoe(decks: u8) -> Counts {
    let mut c = [4 * u16::from(decks); RANKS];
    c[RANKS - 1] = 16 * u16::from(decks);
    c
}

fn shoe_of(counts: &Counts) -> Shoe {
    Shoe { counts: counts.map(f64::from) }
}

fn plus(mut counts: Counts, hand: &Hand) -> Counts {
    for (c, &n) in counts.iter_mut().zip(&hand.counts) {
        *c += u16::from(n);
    }
    counts
}

/// Index of a two-card hand of ranks `a ≤ b` in a deal table.
fn pair_index(a: usize, b: usize) -> usize {
    a.min(b) * RANKS + a.max(b)
}

/// How many analyzers one round keeps (a hand, its splits, the deal).
const LIVE: usize = 8;

/// The splits valued from one composition, by (up card, pair).
type Splits = Vec<((usize, usize), SplitCtx)>;

/// One composition's analyzer and the splits valued from it.
#[derive(Debug)]
struct Live {
    counts: Counts,
    an: Analyzer,
    splits: Splits,
}

/// Hands a box may hold under `game` (the engine's cap where the rules
/// set none).
fn max_hands(game: &Game) -> u32 {
    match game.max_hands {
        0 => u32::from(u8::MAX),
        n => u32::from(n),
    }
}

/// The analyzer of one rule set, asked about compositions.
#[derive(Debug)]
pub struct Valuer {
    game: Game,
    full: Counts,
    /// Off the top of the full shoe: the dealer's enumerations, shared by
    /// every analyzer made from it, and the deal table's values.
    base: Analyzer,
    base_splits: Splits,
    live: Vec<Live>,
    /// The deal table: each (up card, two-card hand)'s optimal value off
    /// the top of a full shoe, per unit bet (insurance at half the bet).
    deal: Vec<f64>,
    /// Analyzers made (each a composition valued from scratch).
    pub made: u64,
}

impl Valuer {
    /// A valuer for `rules` (the dealer games only): its deal table read
    /// from the stored luck tables for a rule set's defaults (the same
    /// values), else computed as [`Valuer::computed`] does.
    pub fn new(rules: &Rules) -> Result<Valuer, StrategyError> {
        let Some(stored) = crate::stored::Stored::of(rules) else { return Valuer::computed(rules) };
        let mut v = Valuer::empty(rules)?;
        for up in 0..RANKS {
            for a in 0..RANKS {
                for b in a..RANKS {
                    v.deal[up * RANKS * RANKS + pair_index(a, b)] = stored.deal3[(up * RANKS + a) * RANKS + b];
                }
            }
        }
        Ok(v)
    }

    /// A valuer for `rules` whose deal table is computed here (about a
    /// quarter of a second): what the stored tables are generated from.
    pub fn computed(rules: &Rules) -> Result<Valuer, StrategyError> {
        let mut v = Valuer::empty(rules)?;
        let full = v.full;
        for up in 0..RANKS {
            for a in 0..RANKS {
                for b in a..RANKS {
                    let hand = Hand::of(&[a, b]);
                    let mut unseen = full;
                    unseen[up] -= 1;
                    unseen[a] -= 1;
                    unseen[b] -= 1;
                    v.deal[up * RANKS * RANKS + pair_index(a, b)] = v.deal_value(&unseen, up, &hand, 0.5);
                }
            }
        }
        Ok(v)
    }

    /// A valuer with an empty deal table.
    fn empty(rules: &Rules) -> Result<Valuer, StrategyError> {
        let game = Game::new(rules)?;
        let full = full_shoe(rules.decks);
        let base = Analyzer::new(game.clone(), shoe_of(&full));
        Ok(Valuer {
            game,
            full,
            base,
            base_splits: Vec::new(),
            live: Vec::new(),
            deal: vec![0.0; RANKS * RANKS * RANKS],
            made: 0,
        })
    }

    /// The rules as the analyzer reads them.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The cards a player holding `hand` against `up` has not seen, off the
    /// top of a full shoe.
    pub fn off_top(&self, up: usize, hand: &Hand) -> Counts {
        let mut unseen = self.full;
        unseen[up] -= 1;
        for (c, &n) in unseen.iter_mut().zip(&hand.counts) {
            *c -= u16::from(n);
        }
        unseen
    }

    /// The full shoe.
    pub fn full(&self) -> &Counts {
        &self.full
    }

    /// Forgets the round's analyzers.
    pub fn end_round(&mut self) {
        self.live.clear();
    }

    /// The analyzer of the shoe `counts` (up card and hand included), and
    /// the splits valued from it.
    fn analyzer(&mut self, counts: Counts) -> (&mut Analyzer, &mut Splits) {
        if counts == self.full {
            return (&mut self.base, &mut self.base_splits);
        }
        let at = match self.live.iter().position(|l| l.counts == counts) {
            Some(at) => at,
            None => {
                if self.live.len() == LIVE {
                    self.live.remove(0);
                }
                self.made += 1;
                self.live.push(Live { counts, an: self.base.with_shoe(shoe_of(&counts)), splits: Vec::new() });
                self.live.len() - 1
            }
        };
        let live = &mut self.live[at];
        (&mut live.an, &mut live.splits)
    }

    /// Splitting `pair` against `up` from the shoe `counts`, `left` more
    /// splits allowed after it ([`SplitCtx`]; the analyzer's own split
    /// where a dealer natural takes only the original bet).
    fn split(&mut self, counts: Counts, up: usize, pair: usize, left: u32) -> f64 {
        let obo = self.game.original_bets_only;
        let (an, splits) = self.analyzer(counts);
        if obo {
            return an.split(up, pair, Policy::Optimal);
        }
        let at = match splits.iter().position(|(k, _)| *k == (up, pair)) {
            Some(at) => at,
            None => {
                splits.push(((up, pair), SplitCtx::new(an.ctx(up), pair)));
                splits.len() - 1
            }
        };
        splits[at].1.value(left)
    }

    /// The chance the dealer holds (or, without a hole card, will make) a
    /// natural under `up`, drawing from the cards the player has not seen.
    pub fn natural_chance(unseen: &Counts, up: usize) -> f64 {
        match Game::natural_partner(up) {
            Some(partner) => {
                let n: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
                if n == 0 { 0.0 } else { f64::from(unseen[partner]) / f64::from(n) }
            }
            None => 0.0,
        }
    }

    /// Every legal action's value for `hand` against `up`, per unit of the
    /// hand's bet, by action code; `unseen` excludes the hand and the up
    /// card. With a peek the values are given no dealer natural.
    /// `hands` is how many hands the box holds.
    pub fn act(&mut self, unseen: &Counts, up: usize, hand: &Hand, legal: ActionSet, hands: u32) -> [Option<f64>; 5] {
        let mut counts = plus(*unseen, hand);
        counts[up] += 1;
        let mut out = [None; 5];
        for action in legal.iter() {
            let ctx = self.analyzer(counts).0.ctx(up);
            let v = match action {
                Action::Stand => ctx.stand(hand),
                Action::Hit => ctx.hit(hand, Policy::Optimal),
                Action::Double => ctx.double(hand),
                Action::Surrender => -0.5,
                Action::Split => match hand.counts.iter().position(|&n| n == 2) {
                    Some(pair) => {
                        let left = max_hands(&self.game).saturating_sub(hands + 1);
                        self.split(counts, up, pair, left)
                    }
                    None => continue,
                },
            };
            out[action as usize] = Some(v);
        }
        out
    }

    /// A hand just dealt, played optimally (splitting when best), per unit
    /// bet; with a peek, given no dealer natural.
    pub fn play_best(&mut self, unseen: &Counts, up: usize, hand: &Hand) -> f64 {
        let mut counts = plus(*unseen, hand);
        counts[up] += 1;
        let unsplit = self.analyzer(counts).0.unsplit(up, hand, Policy::Optimal);
        let pair = (hand.len == 2).then(|| hand.counts.iter().position(|&n| n == 2)).flatten();
        match pair {
            Some(p) if self.game.splits => {
                let left = max_hands(&self.game).saturating_sub(2);
                unsplit.max(self.split(counts, up, p, left))
            }
            _ => unsplit,
        }
    }

    /// The value of the deal `up` and `hand` to optimal play, per unit bet,
    /// from the cards the player has not seen: insurance (at `insurance`
    /// of the bet) and even money taken when they pay, naturals settled,
    /// the hand played optimally.
    pub fn deal_value(&mut self, unseen: &Counts, up: usize, hand: &Hand, insurance: f64) -> f64 {
        let p = Valuer::natural_chance(unseen, up);
        let game = &self.game;
        let ins = if game.insurance_offered(up) { insurance * (3.0 * p - 1.0).max(0.0) } else { 0.0 };
        let (bj, peek, even_money) = (game.blackjack, game.peek, game.even_money);
        if hand.is_two_card_21() {
            let keep = ins + bj * (1.0 - p);
            return if even_money && up == ACE { keep.max(1.0) } else { keep };
        }
        if peek {
            return ins - p + (1.0 - p) * self.play_best(unseen, up, hand);
        }
        ins + self.play_best(unseen, up, hand)
    }

    /// The deal table's value of `up` and a two-card `hand` (see
    /// [`Valuer::expected_deal`]).
    pub fn deal_table(&self, up: usize, hand: &Hand) -> f64 {
        let mut ranks = (0..RANKS).flat_map(|r| std::iter::repeat_n(r, usize::from(hand.counts[r])));
        let (a, b) = (ranks.next().unwrap_or(0), ranks.next().unwrap_or(0));
        self.deal[up * RANKS * RANKS + pair_index(a, b)]
    }

    /// The deal table's exact expectation over the deals `start` can give
    /// (up card, then the hand from the rest): the control variate that
    /// takes the deal's luck out of a round's optimal value.
    pub fn expected_deal(&self, start: &Counts) -> f64 {
        let shoe = shoe_of(start);
        let n = shoe.total();
        let mut ev = 0.0;
        for up in (0..RANKS).filter(|&u| start[u] > 0) {
            let left = shoe.without(up);
            let mut by_up = 0.0;
            for a in 0..RANKS {
                for b in a..RANKS {
                    by_up += left.chance_of(&Hand::of(&[a, b])) * self.deal[up * RANKS * RANKS + pair_index(a, b)];
                }
            }
            ev += shoe.counts[up] / n * by_up;
        }
        ev
    }

    /// What an Over/Under 13 bet of `amount` on `side` wins (negative:
    /// loses) when the first two cards' hard total is `total`.
    pub fn side_payoff(side: SideBet, amount: i64, total: u8) -> i64 {
        match side {
            SideBet::Over if total > 13 => amount,
            SideBet::Under if total == 2 => amount * 3 / 2,
            SideBet::Under if total < 13 => amount,
            SideBet::None => 0,
            _ => -amount,
        }
    }

    /// Off the top, the value per unit bet of hand `before` once it has
    /// taken a card of `rank` `how` (the luck adjustment's V for the
    /// bot's cards).
    pub fn played_on(&mut self, up: usize, before: &Hand, rank: usize, how: How) -> f64 {
        let low = self.game.aces_low && before.is_soft();
        let hand = before.with(rank);
        let ctx = self.base.ctx(up);
        match how {
            How::Hit => ctx.play_on(&hand, Policy::Optimal),
            How::Double if hand.is_bust() => -2.0,
            // After a soft double where aces turn low, every ace is 1.
            How::Double => ctx.stand_on(&hand, if low { hand.hard } else { hand.best() }, 2),
            How::Split if before.counts[ACE] == 1 => ctx.stand(&hand),
            How::Split => {
                let options = Options::after_split(ctx, &hand);
                two_card(ctx, &hand, options, Policy::Optimal)
            }
        }
    }

    /// Off the top, standing on `total` with two bets on `hand` against
    /// `up` (a doubled hand), per unit of the original bet.
    pub fn stand_doubled(&mut self, up: usize, hand: &Hand, total: u8) -> f64 {
        self.base.ctx(up).stand_on(hand, total, 2)
    }

    /// An Over/Under 13 side bet of `amount` chips on `side`: its exact
    /// expectation in chips from the shoe `start` (the player's first two
    /// cards; aces count one).
    pub fn side_bet(start: &Counts, side: SideBet, amount: i64) -> f64 {
        let shoe = shoe_of(start);
        let mut ev = 0.0;
        for a in 0..RANKS {
            for b in a..RANKS {
                let p = shoe.chance_of(&Hand::of(&[a, b]));
                ev += p * Valuer::side_payoff(side, amount, value(a) + value(b)) as f64;
            }
        }
        ev
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deck::TEN;

    #[test]
    fn off_the_top_the_deal_table_is_the_analyzers_optimal_expectation() {
        // North-american off the top: the analyzer's optimal EV, with no
        // insurance worth taking from a full shoe (resplits chosen rather
        // than forced change nothing here: every pair optimal play splits
        // off the top also resplits).
        let rules = Rules::north_american();
        let v = Valuer::new(&rules).unwrap();
        let ours = v.expected_deal(&full_shoe(rules.decks));
        let mut an = Analyzer::new(Game::new(&rules).unwrap(), Shoe::decks(6.0));
        let theirs = crate::off_top(&mut an, Policy::Optimal).ev;
        assert!((ours - theirs).abs() < 1e-12, "{ours} {theirs}");
    }

    #[test]
    fn the_stored_deal_table_is_the_computed_one() {
        let rules = Rules::danish();
        assert_eq!(Valuer::new(&rules).unwrap().deal, Valuer::computed(&rules).unwrap().deal);
    }

    #[test]
    fn hitting_keeps_the_analyzer_and_its_values() {
        let rules = Rules::north_american();
        let mut v = Valuer::new(&rules).unwrap();
        let mut unseen = full_shoe(6);
        for r in [TEN, 5, 3, 2, 7] {
            unseen[r] -= 1;
        }
        unseen[4] -= 1; // the up card, a five
        let hand = Hand::of(&[TEN, 2]);
        let all = ActionSet::EMPTY.with(Action::Stand).with(Action::Hit).with(Action::Double);
        let first = v.act(&unseen, 4, &hand, all, 1);
        unseen[3] -= 1; // a four: 16 now
        let second = v.act(&unseen, 4, &hand.with(3), all, 1);
        assert_eq!(v.made, 1, "one composition for the whole hand");
        assert!(first[1].unwrap() >= second[0].unwrap().max(second[1].unwrap()) - 1.0);
    }

    #[test]
    fn side_bets_lose_off_the_top() {
        let full = full_shoe(6);
        let over = Valuer::side_bet(&full, SideBet::Over, 100);
        let under = Valuer::side_bet(&full, SideBet::Under, 100);
        assert!(over < 0.0 && under < 0.0, "{over} {under}");
    }
}
