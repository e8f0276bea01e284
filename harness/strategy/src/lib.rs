//! Exact combinatorial analysis of the Pitboss rule sets.
//!
//! From the same [`Rules`](pitboss_engine::Rules) value the engine
//! enforces (league overrides included), the analysis computes the
//! dealer's final-total probabilities for each up card from the shoe's
//! composition, the expectation of every play for every two-card hand,
//! the total-dependent basic strategy (a [`Chart`]) and the expectation
//! off the top, both of optimal composition-dependent play and of the
//! chart (the par our `basic` bot plays to).
//!
//! The method: the dealer's draws from each up card are enumerated once
//! as multisets ([`dealer::DealerTable`]), so any shoe's distribution is
//! one pass of falling-factorial products; the player's hands are
//! compositions valued recursively ([`player::Ctx`]); splits use the
//! standard approximation that tracks only how many hands were split
//! ([`split`]); the chart is chosen total by total from those exact
//! values ([`mod@derive`]) and then valued exactly like any policy
//! ([`offtop`]). The analysis reproduces the Wizard of Odds' published
//! exact figures within 0.004 % (tests in `offtop.rs`).
//!
//! ```
//! use pitboss_engine::Rules;
//!
//! let report = pitboss_strategy::analyze(&Rules::north_american()).unwrap();
//! assert!((report.chart_ev.ev * 100.0 + 0.3325).abs() < 0.001);
//! assert!(pitboss_strategy::render(&report).contains("EV off the top"));
//! ```

pub mod analyzer;
pub mod banker;
pub mod chart;
pub mod codegen;
pub mod dealer;
pub mod deck;
pub mod derive;
pub mod game;
pub mod hand;
pub mod index;
pub mod luck;
pub mod offtop;
pub mod player;
pub mod report;
pub mod resplit;
pub mod split;
pub mod stored;
pub mod value;

pub use analyzer::Analyzer;
pub use chart::{Cell, Chart, Code, Play};
pub use game::{Game, StrategyError};
pub use offtop::{OffTop, off_top};
pub use player::Policy;
pub use report::{Report, analyze, render};
