//! A hand's first two cards: every play's expectation, and the value of
//! the hand played by a policy, splits included.

use crate::chart::{Code, Play};
use crate::deck::Hand;
use crate::player::{Ctx, Policy};

/// What a two-card hand may do besides hitting and standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Doubling is allowed.
    pub double: bool,
    /// Surrender is allowed.
    pub surrender: bool,
}

impl Options {
    /// A hand from the deal.
    pub fn initial(ctx: &Ctx, hand: &Hand) -> Options {
        Options { double: ctx.game.may_double(hand.hard, hand.is_soft()), surrender: ctx.game.surrender }
    }

    /// A hand from a split (never surrender).
    pub fn after_split(ctx: &Ctx, hand: &Hand) -> Options {
        Options { double: ctx.game.das && ctx.game.may_double(hand.hard, hand.is_soft()), surrender: false }
    }
}

/// The expectation of each play open to a two-card hand (split apart).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plays {
    /// Standing.
    pub stand: f64,
    /// Hitting and playing on by the policy.
    pub hit: f64,
    /// Doubling, if allowed.
    pub double: Option<f64>,
    /// Surrendering, if allowed.
    pub surrender: Option<f64>,
}

impl Plays {
    /// Every play's expectation.
    pub fn of(ctx: &mut Ctx, hand: &Hand, options: Options, policy: Policy<'_>) -> Plays {
        Plays {
            stand: ctx.stand(hand),
            hit: ctx.hit(hand, policy),
            double: options.double.then(|| ctx.double(hand)),
            surrender: options.surrender.then_some(-0.5),
        }
    }

    /// The plays as (play, expectation), allowed ones only.
    pub fn list(&self) -> impl Iterator<Item = (Play, f64)> {
        [
            Some((Play::Stand, self.stand)),
            Some((Play::Hit, self.hit)),
            self.double.map(|v| (Play::Double, v)),
            self.surrender.map(|v| (Play::Surrender, v)),
        ]
        .into_iter()
        .flatten()
    }

    /// The best expectation.
    pub fn best(&self) -> f64 {
        self.list().map(|(_, v)| v).fold(f64::NEG_INFINITY, f64::max)
    }
}

/// A two-card hand (not split) played by `policy`.
pub fn two_card(ctx: &mut Ctx, hand: &Hand, options: Options, policy: Policy<'_>) -> f64 {
    if hand.best() == 21 {
        return ctx.stand(hand);
    }
    match policy {
        Policy::Optimal => Plays::of(ctx, hand, options, policy).best(),
        Policy::Chart(chart) => {
            let code = chart.cell(hand.is_soft(), hand.best(), ctx.up).two;
            play_code(ctx, hand, code, options, policy)
        }
    }
}

/// A two-card hand played as a chart code says, with its fallback.
pub fn play_code(ctx: &mut Ctx, hand: &Hand, code: Code, options: Options, policy: Policy<'_>) -> f64 {
    match code.first() {
        Some(Play::Double) if options.double => ctx.double(hand),
        Some(Play::Surrender) if options.surrender => -0.5,
        _ if code.hits() => ctx.hit(hand, policy),
        _ => ctx.stand(hand),
    }
}
