//! `random`: uniformly random among the legal actions and the legal bets —
//! the best fuzzer of the engine, and the baseline every bot must beat.
//! Deterministic: its generator is seeded from the round number and seat,
//! so a replay makes the same choices.

#![cfg_attr(target_arch = "wasm32", no_std)]

use pitboss_sdk::{Action, SideBet, Strategy, Variant, View};

/// A random player (and banker).
#[derive(Clone, Copy, Debug, Default)]
pub struct Random {
    state: u64,
}

impl Random {
    /// SplitMix64 over a state stirred by each request.
    fn next(&mut self, view: &View<'_>) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15 ^ (view.round() as u64) << 8 ^ view.seat() as u64);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform amount from `{0} ∪ [min, max]` in steps of `unit`.
    fn amount(&mut self, view: &View<'_>, allow_zero: bool) -> i64 {
        let (min, max, unit) = (view.min(), view.max(), view.unit().max(1));
        if max < min {
            return 0;
        }
        let steps = ((max - min) / unit + 1) as u64 + allow_zero as u64;
        let pick = self.next(view) % steps;
        if allow_zero && pick == 0 { 0 } else { min + (pick - allow_zero as u64) as i64 * unit }
    }
}

impl Strategy for Random {
    fn observes(&self, _: Variant) -> bool {
        false
    }

    fn bet(&mut self, view: &View<'_>) -> i64 {
        self.amount(view, true)
    }

    fn insurance(&mut self, view: &View<'_>) -> i64 {
        self.amount(view, true)
    }

    fn even_money(&mut self, view: &View<'_>) -> bool {
        self.next(view) & 1 == 1
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        let legal = view.legal();
        let n = legal.iter().count() as u64;
        if n == 0 {
            return Action::Stand;
        }
        let pick = self.next(view) % n;
        legal.iter().nth(pick as usize).unwrap_or(Action::Stand)
    }

    fn side_bet(&mut self, view: &View<'_>) -> (SideBet, i64) {
        match self.next(view) % 3 {
            0 => (SideBet::None, 0),
            1 => (SideBet::Over, self.amount(view, false)),
            _ => (SideBet::Under, self.amount(view, false)),
        }
    }

    fn back_bet(&mut self, view: &View<'_>) -> i64 {
        self.amount(view, true)
    }

    fn banker_double(&mut self, view: &View<'_>) -> bool {
        self.next(view) & 1 == 1
    }

    fn banker_draw(&mut self, view: &View<'_>) -> bool {
        self.next(view) & 1 == 1
    }
}

pitboss_sdk::export_bot!(Random, Random::default());

#[cfg(test)]
mod tests {
    use super::*;
    use pitboss_sdk::abi::{BUFFER_LEN, sample};
    use pitboss_sdk::{ActionSet, Card, Decision};

    #[test]
    fn only_legal_actions_and_amounts_and_all_of_them() {
        let legal = ActionSet::EMPTY.with(Action::Stand).with(Action::Hit).with(Action::Surrender);
        let hand = [Card::TEN, Card::new(6).unwrap()];
        let mut bot = Random::default();
        let mut seen = [0u32; 5];
        let mut bets = std::collections::BTreeSet::new();
        for _ in 0..3_000 {
            let mut buf = [0u8; BUFFER_LEN];
            let a = bot.act(&sample(&mut buf, Decision::Act, &hand, Card::new(9), legal));
            assert!(legal.contains(a));
            seen[a as usize] += 1;
            let mut buf = [0u8; BUFFER_LEN];
            let bet = bot.bet(&sample(&mut buf, Decision::Bet, &[], None, ActionSet::EMPTY));
            assert!(bet == 0 || (2..=1000).contains(&bet) && bet % 2 == 0, "{bet}");
            bets.insert(bet);
        }
        assert!(seen[0] > 800 && seen[1] > 800 && seen[4] > 800, "{seen:?}");
        assert!(bets.len() > 300, "spread over the range");
    }
}
