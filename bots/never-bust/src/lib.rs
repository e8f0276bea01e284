//! `never-bust`: never risks a bust — stands on any hard 12 or more, hits
//! soft hands below 18. Flat minimum bets.

#![cfg_attr(target_arch = "wasm32", no_std)]

use pitboss_sdk::{Action, Strategy, View};

/// Never busts.
#[derive(Clone, Copy, Debug, Default)]
pub struct NeverBust;

impl Strategy for NeverBust {
    fn act(&mut self, view: &View<'_>) -> Action {
        let total = view.total();
        let hit = if total.is_soft() { total.best() < 18 } else { total.best() < 12 };
        if hit && view.legal().contains(Action::Hit) { Action::Hit } else { Action::Stand }
    }
}

pitboss_sdk::export_bot!(NeverBust, NeverBust);
