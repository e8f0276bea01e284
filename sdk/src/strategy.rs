//! The one trait a bot author implements, and the dispatcher that turns a
//! request into a call of the right method.

use crate::abi::{self, Action, Decision, Event, SideBet, Variant, View};

/// A blackjack strategy. Every method has a sensible default, so a bot
/// overrides only the decisions it cares about.
///
/// Each request first delivers the events the bot has not seen yet to
/// [`Strategy::observe`], then asks one decision.
pub trait Strategy {
    /// Whether this strategy reads events under rule set `variant`: a bot
    /// that never counts cards answers `false` and is told none there (no
    /// `observe` calls), which saves the host and the bot the work of
    /// delivering them. Asked once per rule set as the bot starts (ABI v2's
    /// `pitboss_wants_events`), so the answer must not depend on play.
    /// Default: `true`.
    fn observes(&self, variant: Variant) -> bool {
        let _ = variant;
        true
    }

    /// Whether this strategy answers every `kind` decision under rule set
    /// `variant` exactly as the default method does — a bet of the table
    /// minimum when the balance covers it (else 0), and "no" to insurance,
    /// even money, the side bet, back bets and doubling as banker
    /// ([`Decision::DEFAULTABLE`], [`abi::default_answer`]). A strategy
    /// that does may say `true`, and is then never asked it: the host
    /// records the default answer in its place, and the events that
    /// question would have carried come with the next one. Asked once per
    /// rule set and decision kind as the bot starts (ABI v3's
    /// `pitboss_defaults`), so the answer must not depend on play; ignored
    /// for any other kind. Say `true` only where the method is not
    /// overridden, or is overridden to answer the same and change nothing
    /// else. Default: `false`, every decision asked.
    fn defaults(&self, variant: Variant, kind: Decision) -> bool {
        let _ = (variant, kind);
        false
    }

    /// The parts of a request ([`crate::key::part`] bits) that this
    /// strategy's answer to every `kind` decision under rule set `variant`
    /// depends on, and nothing else — not its own state, not the events:
    /// the host then asks a request whose key (those parts' values) it has
    /// seen before in the session no more, and gives the answer the bot
    /// gave to it (ABI v4's `pitboss_decision_key`; sdk/ABI.md). Where
    /// [`Strategy::observes`] is `true`, only if its bet is not left to the
    /// default: the events a question answered from a key would have
    /// carried come with the next call (ABI v5: the bet, asked every
    /// round; v6: the bet may be keyed too, and the host calls the bot at
    /// least every 512 events). A counter names
    /// [`crate::key::part::TRUE_COUNT`] with [`Strategy::count`], and a bet
    /// that reads whether others play [`crate::key::part::OTHERS`]. Asked once
    /// per rule set and kind as the bot starts, so the answer must not
    /// depend on play. Basic strategy's act depends on `LEGAL | UP_VALUE |
    /// SUMMARY`. Default: `None`, every decision asked.
    fn decision_key(&self, variant: Variant, kind: Decision) -> Option<u32> {
        let _ = (variant, kind);
        None
    }

    /// The weights of the card count this strategy keeps under rule set
    /// `variant` (ABI v5's `pitboss_count`; [`crate::key::Weights`]), for
    /// keys that name [`crate::key::part::TRUE_COUNT`]: the host keeps the
    /// count of the cards it shows and builds the key from
    /// [`crate::key::true_count`], so such a key holds only while the
    /// strategy's own count, from the events, is that one. Default: `None`.
    fn count(&self, variant: Variant) -> Option<crate::key::Weights> {
        let _ = variant;
        None
    }

    /// Cards turned face up, shuffles and splits since the previous request.
    fn observe(&mut self, events: &[Event]) {
        let _ = events;
    }

    /// Stake for a box: 0 sits the round out. Default: the table minimum
    /// when affordable.
    fn bet(&mut self, view: &View<'_>) -> i64 {
        abi::default_answer(Decision::Bet, view.balance(), view.min())
    }

    /// Insurance stake, 0 to decline. Default: decline.
    fn insurance(&mut self, view: &View<'_>) -> i64 {
        let _ = view;
        0
    }

    /// Take even money on a blackjack against an ace? Default: no.
    fn even_money(&mut self, view: &View<'_>) -> bool {
        let _ = view;
        false
    }

    /// Play the current hand; must be one of `view.legal()`. Default: hit
    /// below 17, else stand (the dealer's own rule).
    fn act(&mut self, view: &View<'_>) -> Action {
        if view.total().best() < 17 && view.legal().contains(Action::Hit) { Action::Hit } else { Action::Stand }
    }

    /// Over/Under 13 side bet and its stake. Default: none.
    fn side_bet(&mut self, view: &View<'_>) -> (SideBet, i64) {
        let _ = view;
        (SideBet::None, 0)
    }

    /// Back bet on the offered box (`view.seat()`, whose holder staked
    /// `view.bet()`): a stake, or 0 to pass. Default: pass.
    fn back_bet(&mut self, view: &View<'_>) -> i64 {
        let _ = view;
        0
    }

    /// As banker, double every stake? Default: no.
    fn banker_double(&mut self, view: &View<'_>) -> bool {
        let _ = view;
        false
    }

    /// As banker, draw another card? Default: below 17 only.
    fn banker_draw(&mut self, view: &View<'_>) -> bool {
        view.total().best() < 17
    }
}

/// The `pitboss_defaults` mask of `strategy` under `variant`: bit `code`
/// for each [`Decision::DEFAULTABLE`] kind it leaves to the default.
pub fn defaulted<S: Strategy + ?Sized>(strategy: &S, variant: Variant) -> u32 {
    Decision::DEFAULTABLE.iter().filter(|&&kind| strategy.defaults(variant, kind)).fold(0, |mask, d| mask | d.bit())
}

/// Answers one request held in `buf` with `strategy`: what the exported
/// `pitboss_decide` does in wasm, and what a native builtin does in the
/// harness, so both run the very same code. An unreadable request gets 0.
/// Inlined, with the strategy's methods, into the one exported function:
/// in a bot every wasm function call pays a prologue and fuel and deadline
/// checks of its own (sdk/README.md, "Memory: `Vec`, `String`, `BTreeMap`").
#[inline(always)]
pub fn dispatch<S: Strategy + ?Sized>(strategy: &mut S, buf: &[u8]) -> i64 {
    let Some(view) = View::new(buf) else { return 0 };
    let events = view.events();
    if !events.is_empty() {
        strategy.observe(events);
    }
    match view.kind() {
        Decision::Observe => 0,
        Decision::Bet => strategy.bet(&view),
        Decision::Insurance => strategy.insurance(&view),
        Decision::EvenMoney => strategy.even_money(&view) as i64,
        Decision::Act => strategy.act(&view) as i64,
        Decision::SideBet => {
            let (side, amount) = strategy.side_bet(&view);
            abi::side_bet_answer(side, amount)
        }
        Decision::BackBet => strategy.back_bet(&view),
        Decision::BankerDouble => strategy.banker_double(&view) as i64,
        Decision::BankerDraw => strategy.banker_draw(&view) as i64,
    }
}
