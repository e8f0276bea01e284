//! `Chart`: a total-dependent basic strategy, the form a bot plays.
//!
//! A cell holds what to do with the first two cards of a hand (with the
//! fallback when doubling or surrendering is not allowed, as after a
//! split) and whether to hit with three or more cards; pairs have their
//! own split table. Up cards and pairs are indexed by rank (0 = ace, 9 =
//! ten-valued).

use serde::Serialize;

use crate::deck::RANKS;

/// The lowest hard total in the chart (2 + 2).
pub const HARD_MIN: u8 = 4;
/// Rows of hard totals, 4–21.
pub const HARD_ROWS: usize = 18;
/// The lowest soft total (A + A).
pub const SOFT_MIN: u8 = 12;
/// Rows of soft totals, 12–21.
pub const SOFT_ROWS: usize = 10;

/// The play for a hand's first two cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Code {
    /// Stand.
    #[serde(rename = "S")]
    Stand,
    /// Hit.
    #[serde(rename = "H")]
    Hit,
    /// Double if allowed, else hit.
    #[serde(rename = "Dh")]
    DoubleHit,
    /// Double if allowed, else stand.
    #[serde(rename = "Ds")]
    DoubleStand,
    /// Surrender if allowed, else hit.
    #[serde(rename = "Rh")]
    SurrenderHit,
    /// Surrender if allowed, else stand.
    #[serde(rename = "Rs")]
    SurrenderStand,
}

impl Code {
    /// Every code, in encoding order.
    pub const ALL: [Code; 6] =
        [Code::Stand, Code::Hit, Code::DoubleHit, Code::DoubleStand, Code::SurrenderHit, Code::SurrenderStand];

    /// Chart notation.
    pub const fn symbol(self) -> &'static str {
        match self {
            Code::Stand => "S",
            Code::Hit => "H",
            Code::DoubleHit => "Dh",
            Code::DoubleStand => "Ds",
            Code::SurrenderHit => "Rh",
            Code::SurrenderStand => "Rs",
        }
    }

    /// Hit when the first choice is not allowed (or for a plain code).
    pub const fn hits(self) -> bool {
        matches!(self, Code::Hit | Code::DoubleHit | Code::SurrenderHit)
    }

    /// The code for `first` (double, surrender, or `None` for hit/stand)
    /// falling back to hitting or standing.
    pub const fn of(first: Option<Play>, hit: bool) -> Code {
        match (first, hit) {
            (Some(Play::Double), true) => Code::DoubleHit,
            (Some(Play::Double), false) => Code::DoubleStand,
            (Some(Play::Surrender), true) => Code::SurrenderHit,
            (Some(Play::Surrender), false) => Code::SurrenderStand,
            (_, true) => Code::Hit,
            (_, false) => Code::Stand,
        }
    }

    /// The first choice, if it is doubling or surrendering.
    pub const fn first(self) -> Option<Play> {
        match self {
            Code::DoubleHit | Code::DoubleStand => Some(Play::Double),
            Code::SurrenderHit | Code::SurrenderStand => Some(Play::Surrender),
            _ => None,
        }
    }
}

/// One of the player's plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Play {
    /// Stand.
    Stand,
    /// Hit.
    Hit,
    /// Double.
    Double,
    /// Split.
    Split,
    /// Surrender.
    Surrender,
}

/// One chart cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The first two cards.
    pub two: Code,
    /// Hit with three or more cards.
    pub more_hit: bool,
}

impl Cell {
    /// The cell's byte in generated bot data: the code's index, plus 8
    /// when three or more cards hit.
    pub fn byte(self) -> u8 {
        Code::ALL.iter().position(|&c| c == self.two).unwrap_or(0) as u8 | (u8::from(self.more_hit) << 3)
    }
}

/// A total-dependent strategy for one rule set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Chart {
    /// Hard totals 4–21 (row `t - 4`) by up card rank.
    pub hard: [[Cell; RANKS]; HARD_ROWS],
    /// Soft totals 12–21 (row `t - 12`) by up card rank.
    pub soft: [[Cell; RANKS]; SOFT_ROWS],
    /// Split this pair (by rank) against this up card.
    pub split: [[bool; RANKS]; RANKS],
}

impl Chart {
    /// Hit below 17, stand from 17, never double, split or surrender: the
    /// starting point the analysis improves row by row.
    pub fn dealer_like() -> Chart {
        let cell = |t: u8| {
            let hit = t < 17;
            Cell { two: Code::of(None, hit), more_hit: hit }
        };
        Chart {
            hard: std::array::from_fn(|i| [cell(HARD_MIN + i as u8); RANKS]),
            soft: std::array::from_fn(|i| [cell(SOFT_MIN + i as u8); RANKS]),
            split: [[false; RANKS]; RANKS],
        }
    }

    /// The cell for a hand's `best` total.
    pub fn cell(&self, soft: bool, best: u8, up: usize) -> Cell {
        if soft {
            self.soft[usize::from(best.clamp(SOFT_MIN, 21) - SOFT_MIN)][up]
        } else {
            self.hard[usize::from(best.clamp(HARD_MIN, 21) - HARD_MIN)][up]
        }
    }

    /// The cell to change.
    pub fn cell_mut(&mut self, soft: bool, best: u8, up: usize) -> &mut Cell {
        if soft {
            &mut self.soft[usize::from(best.clamp(SOFT_MIN, 21) - SOFT_MIN)][up]
        } else {
            &mut self.hard[usize::from(best.clamp(HARD_MIN, 21) - HARD_MIN)][up]
        }
    }
}
