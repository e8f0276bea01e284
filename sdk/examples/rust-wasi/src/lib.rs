//! A Pitboss bot in Rust with the standard library, built for
//! `wasm32-wasip1`: `Vec`, `HashMap`, `String`, `format!` and `println!`
//! (which reaches the bot's log through the host's `fd_write`, see
//! sdk/ABI.md, "WASI subset"). It plays exactly like `basic`: every
//! decision is `pitboss_chart::Basic`'s; the std part only counts the
//! decisions by kind and prints a tally every `EVERY` decisions.
//! `pitboss_sdk::log` works too; a panic is printed to the log by std's
//! own panic handler (`export_bot!` adds none on WASI).
//!
//! Build:
//!   cargo build --release --target wasm32-wasip1 \
//!         --manifest-path sdk/examples/rust-wasi/Cargo.toml

use std::collections::HashMap;

use pitboss_chart::Basic;
use pitboss_sdk::{Action, Event, SideBet, Strategy, View};

/// How many decisions between two tally lines in the log.
pub const EVERY: u64 = 100;

/// `basic`, plus a tally of its decisions kept in std collections.
#[derive(Default)]
pub struct StdBasic {
    inner: Basic,
    decisions: u64,
    /// Decisions made, by kind ("bet", "hit", "stand", …).
    counts: HashMap<String, u64>,
}

impl StdBasic {
    /// Counts one decision of `kind`; every `EVERY` decisions, prints the
    /// tally, sorted by kind so the line reads the same on every run.
    fn count(&mut self, kind: &str) {
        *self.counts.entry(kind.to_string()).or_default() += 1;
        self.decisions += 1;
        if self.decisions == 1 {
            // The SDK's own log call works beside std's stdout.
            pitboss_sdk::log("rust-wasi: std on wasm32-wasip1\n");
        }
        if self.decisions.is_multiple_of(EVERY) {
            let mut tally: Vec<(&String, &u64)> = self.counts.iter().collect();
            tally.sort();
            let line: Vec<String> = tally.iter().map(|(k, n)| format!("{k}={n}")).collect();
            println!("rust-wasi: {} decisions: {}", self.decisions, line.join(" "));
        }
    }
}

impl Strategy for StdBasic {
    fn observe(&mut self, events: &[Event]) {
        self.inner.observe(events)
    }

    fn bet(&mut self, view: &View<'_>) -> i64 {
        self.count("bet");
        self.inner.bet(view)
    }

    fn insurance(&mut self, view: &View<'_>) -> i64 {
        self.count("insurance");
        self.inner.insurance(view)
    }

    fn even_money(&mut self, view: &View<'_>) -> bool {
        self.count("even-money");
        self.inner.even_money(view)
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        let action = self.inner.act(view);
        self.count(&format!("{action:?}").to_lowercase());
        action
    }

    fn side_bet(&mut self, view: &View<'_>) -> (SideBet, i64) {
        self.count("side-bet");
        self.inner.side_bet(view)
    }

    fn back_bet(&mut self, view: &View<'_>) -> i64 {
        self.count("back-bet");
        self.inner.back_bet(view)
    }

    fn banker_double(&mut self, view: &View<'_>) -> bool {
        self.count("banker-double");
        self.inner.banker_double(view)
    }

    fn banker_draw(&mut self, view: &View<'_>) -> bool {
        self.count("banker-draw");
        self.inner.banker_draw(view)
    }
}

pitboss_sdk::export_bot!(StdBasic, StdBasic::default());
