//! `template`: the smallest complete Pitboss bot, commented for newcomers.
//! Every guide in `sdk/README.md` starts here; `pitboss new NAME` copies it.
//!
//! A bot is a type that implements `Strategy`. Every method has a default,
//! so you override only the decisions you care about. This one bets the
//! table minimum and plays a simple rule: hit below 17, stand otherwise,
//! double on 10 or 11 when it may.
//!
//! With the SDK's `alloc` feature (on in `Cargo.toml`) a bot may also keep
//! `Vec`s, `String`s, `Box`es and `BTreeMap`s: import them from
//! `pitboss_sdk::alloc`, e.g. `use pitboss_sdk::alloc::vec::Vec;`. There is
//! no `HashMap` (it needs `std`); a `BTreeMap` serves, in a fixed order.

// On wasm32 a bot runs with no operating system, so it is `no_std` (keep
// this line: without it the wasm build fails with "duplicate lang item
// `panic_impl`"); built natively (for `cargo test`, or as a harness
// builtin) it may use std.
#![cfg_attr(target_arch = "wasm32", no_std)]

use pitboss_sdk::{Action, Strategy, View};

/// Your strategy's state lives here (this one needs none). To keep some,
/// give it fields, e.g. `pub struct MyBot { hands: u32, seen: Vec<u8> }`
/// (with `use pitboss_sdk::alloc::vec::Vec;`): `Default` starts each at
/// zero or empty, and nothing else needs to change.
#[derive(Debug, Default)]
pub struct MyBot;

impl Strategy for MyBot {
    /// Called for every decision on a hand. `view` tells you the hand
    /// (`view.hand()`, `view.total()`), the dealer's up card
    /// (`view.dealer_up()`), and which actions are legal now
    /// (`view.legal()`): answer one of those, or the harness stands for
    /// you and counts a fault.
    fn act(&mut self, view: &View<'_>) -> Action {
        let total = view.total();
        let legal = view.legal();
        if (total.best() == 10 || total.best() == 11) && legal.contains(Action::Double) {
            Action::Double
        } else if total.best() < 17 && legal.contains(Action::Hit) {
            Action::Hit
        } else {
            Action::Stand
        }
    }

    // The other decisions keep their defaults: bet the minimum (`bet`),
    // never insure (`insurance`), no even money, side or back bets, and as
    // a banker never double and draw below 17. See `sdk/ABI.md`.
    //
    // Counting cards? Override `observe` to see every card turned face up.
    // A bot that never looks at them may override `observes` to answer
    // `false`: it is then sent none, and every decision costs less. One
    // that keeps a default (the minimum bet, "no" to every offer) may
    // override `defaults` to answer `true` for it: it is never asked that.
}

// Generates the wasm exports (`pitboss_abi_version`, `pitboss_buffer`,
// `pitboss_decide`, `pitboss_wants_events`, `pitboss_defaults`). It builds
// your strategy with `MyBot::default()`; to build it otherwise, say how:
// `export_bot!(MyBot, MyBot { hands: 0, seen: Vec::new() })`.
pitboss_sdk::export_bot!(MyBot);

#[cfg(test)]
mod tests {
    //! Strategies are plain Rust: test them natively with a sample request.
    use super::*;
    use pitboss_sdk::abi::{BUFFER_LEN, sample};
    use pitboss_sdk::{ActionSet, Card, Decision};

    // `MyBot::default()`, not `MyBot`: it keeps working once MyBot has fields.
    #[allow(clippy::default_constructed_unit_structs)]
    fn play(ranks: &[u8]) -> Action {
        let hand: Vec<Card> = ranks.iter().map(|&r| Card::new(r).unwrap()).collect();
        let all = ActionSet::EMPTY.with(Action::Stand).with(Action::Hit).with(Action::Double);
        let mut buf = [0u8; BUFFER_LEN];
        MyBot::default().act(&sample(&mut buf, Decision::Act, &hand, Card::new(9), all))
    }

    #[test]
    fn doubles_eleven_hits_twelve_stands_on_seventeen() {
        assert_eq!(play(&[6, 5]), Action::Double);
        assert_eq!(play(&[10, 2]), Action::Hit);
        assert_eq!(play(&[10, 7]), Action::Stand);
    }
}
