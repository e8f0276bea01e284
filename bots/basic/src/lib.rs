//! `basic`: basic strategy for every rule set, from the shared strategy
//! library (`bots/chart`): the textbook chart for `north-american`, no
//! doubling or splitting into an exposed ten or ace without a hole card,
//! no soft doubles where aces turn low, and both sides of the banker game.
//! Flat minimum bets, never insurance, even money or side bets.
//!
//! Built twice from this one file: to `wasm32-unknown-unknown` as
//! `basic.wasm`, and natively as the harness builtin `builtin:basic`.

#![cfg_attr(target_arch = "wasm32", no_std)]

pub use pitboss_chart::Basic;

pitboss_sdk::export_bot!(Basic, Basic::default());
