//! The names Pitboss gives what happens at a table, listed once: the
//! hand history's event names (results' stored hands, `pitboss replay
//! --log`, the report's viewer) and the words for outcomes, shuffles and
//! side bets.

use pitboss_engine::{Outcome, ShuffleKind};
use pitboss_sdk::SideBet;

/// The `event` names of the hand history, listed once: [`event_json`]
/// writes them and the report's viewer switches on them (it gets them as
/// `EV.ACTED` and so on, from [`event::ALL`]), so the two cannot drift apart.
pub mod event {
    macro_rules! names {
        ($($konst:ident = $name:literal,)*) => {
            $(pub const $konst: &str = $name;)*
            /// Every name, after the name of its constant.
            pub const ALL: &[(&str, &str)] = &[$((stringify!($konst), $name)),*];
        };
    }
    names! {
        SHUFFLE = "shuffle",
        ROUND_START = "round-start",
        ASKED = "asked",
        LOG = "log",
        FAULT = "fault",
        DISQUALIFIED = "disqualified",
        BET = "bet",
        SIDE_BET = "side-bet",
        SIDE_BET_SETTLED = "side-bet-settled",
        BACK_BET = "back-bet",
        BACK_SETTLED = "back-settled",
        BANKER = "banker",
        BANKER_DOUBLED = "banker-doubled",
        HIDDEN_CARD = "hidden-card",
        REVEALED = "revealed",
        ROUND_VOID = "round-void",
        CARD = "card",
        DEALER_CARD = "dealer-card",
        HOLE_REVEALED = "hole-revealed",
        INSURANCE = "insurance",
        INSURANCE_SETTLED = "insurance-settled",
        ACTED = "acted",
        SETTLED = "settled",
        ROUND_END = "round-end",
    }
}

// The names hand histories (and results' stored hands) and transcripts
// give outcomes, shuffles and side bets: `(in JSON, in a transcript)`,
// mapped by hand in this one place rather than taken from `Debug`.

/// An outcome's name: `(in JSON, in a transcript)`.
pub fn outcome(outcome: Outcome) -> (&'static str, &'static str) {
    match outcome {
        Outcome::Win => ("win", "Win"),
        Outcome::Blackjack => ("blackjack", "Blackjack"),
        Outcome::EvenMoney => ("evenmoney", "EvenMoney"),
        Outcome::Push => ("push", "Push"),
        Outcome::Lose => ("lose", "Lose"),
        Outcome::Bust => ("bust", "Bust"),
        Outcome::Surrender => ("surrender", "Surrender"),
        Outcome::DealerBlackjack => ("dealerblackjack", "DealerBlackjack"),
    }
}

/// A shuffle's name: `(in JSON, in a transcript)`.
pub fn shuffle(kind: ShuffleKind) -> (&'static str, &'static str) {
    match kind {
        ShuffleKind::Full => ("full", "Full"),
        ShuffleKind::Discards => ("discards", "Discards"),
    }
}

/// A side bet's name: `(in JSON, in a transcript)`.
pub fn side(side: SideBet) -> (&'static str, &'static str) {
    match side {
        SideBet::None => ("none", "None"),
        SideBet::Over => ("over", "Over"),
        SideBet::Under => ("under", "Under"),
    }
}

/// An outcome in words for people (`dealer blackjack`), as the report's
/// hand viewer writes it.
pub fn outcome_words(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win => "win",
        Outcome::Blackjack => "blackjack",
        Outcome::EvenMoney => "even money",
        Outcome::Push => "push",
        Outcome::Lose => "lose",
        Outcome::Bust => "bust",
        Outcome::Surrender => "surrender",
        Outcome::DealerBlackjack => "dealer blackjack",
    }
}

/// What a hand does, in a sentence's verb (`splits`).
pub fn action_verb(action: pitboss_sdk::Action) -> &'static str {
    use pitboss_sdk::Action;
    match action {
        Action::Stand => "stands",
        Action::Hit => "hits",
        Action::Double => "doubles",
        Action::Split => "splits",
        Action::Surrender => "surrenders",
    }
}
