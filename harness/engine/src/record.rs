//! The event stream a table emits for observers (transcripts, statistics,
//! tests). Observers are `Recorder`s; adding one never touches the rules.

use pitboss_sdk::{Action, ActionSet, Card, Decision};

use crate::player::Fault;
use crate::shoe::ShuffleKind;

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Went over 21.
    Bust,
    /// Gave up half the bet.
    Surrender,
    /// Beat the dealer (or the dealer busted).
    Win,
    /// A natural paid at the blackjack rate.
    Blackjack,
    /// Equal totals.
    Push,
    /// Lower total (or a tie the dealer wins).
    Lose,
    /// Lost to the dealer's blackjack (only the original stake when the
    /// rules say "original bets only").
    DealerBlackjack,
    /// A blackjack facing an ace took 1:1 at once.
    EvenMoney,
}

/// One thing that happened at a table. Unlike the bot-facing ABI events,
/// these include hidden cards: observers see everything. A `seat` field
/// is always a box (the wire's word for it), a `player` field a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableEvent {
    /// The shoe was shuffled.
    Shuffle(ShuffleKind),
    /// A round began.
    RoundStart {
        /// 1-based round number.
        round: u64,
    },
    /// A player was asked a decision and answered.
    Asked {
        /// The box the decision is about.
        seat: u8,
        /// The player asked (player index; for a back bet, not the box's
        /// holder).
        player: u8,
        /// What was asked.
        kind: Decision,
        /// Legal actions offered (for `Act`).
        legal: ActionSet,
        /// The raw answer, if the player produced one.
        answer: Option<i64>,
    },
    /// What a player logged while deciding (never shown to the bots).
    BotLog {
        /// The box the decision was about.
        seat: u8,
        /// The player that logged.
        player: u8,
        /// The decision it was deciding.
        kind: Decision,
        /// The text, as the player's host bounded it.
        text: String,
    },
    /// The answer could not be used; the safe default was applied.
    Fault {
        /// The box the decision was about.
        seat: u8,
        /// The player at fault (player index).
        player: u8,
        /// The round (1-based).
        round: u64,
        /// The decision that faulted.
        kind: Decision,
        /// What went wrong.
        fault: Fault,
    },
    /// A player reached the fault limit and is out for the rest of the
    /// match.
    Disqualified {
        /// The box.
        seat: u8,
        /// The round (1-based).
        round: u64,
    },
    /// A box staked a bet.
    Bet {
        /// The box.
        seat: u8,
        /// Chips staked.
        amount: i64,
    },
    /// An Over/Under 13 side bet was placed.
    SideBet {
        /// The box.
        seat: u8,
        /// Over or under.
        side: pitboss_sdk::SideBet,
        /// Chips staked.
        amount: i64,
    },
    /// An Over/Under 13 side bet was settled; `returned` includes the stake.
    SideBetSettled {
        /// The box.
        seat: u8,
        /// Chips paid back.
        returned: i64,
    },
    /// A back bet was placed behind a box.
    BackBet {
        /// The box bet behind.
        seat: u8,
        /// The betting player (player index).
        player: u8,
        /// Chips staked.
        amount: i64,
    },
    /// A back stake riding on a hand was settled like the hand.
    BackSettled {
        /// The box.
        seat: u8,
        /// The hand.
        hand: u8,
        /// The betting player (player index).
        player: u8,
        /// The stake (after following doubles).
        stake: i64,
        /// Chips paid back.
        returned: i64,
    },
    /// Banker game: who holds the bank this round (`None`: the house).
    Banker {
        /// The banking player's box (its own number).
        seat: Option<u8>,
    },
    /// Banker game: the banker doubled every stake.
    BankerDoubled,
    /// Banker game: a player's face-down card (observers see it).
    HiddenCard {
        /// The player's box (`None`: the banker).
        seat: Option<u8>,
        /// The card.
        card: Card,
    },
    /// Banker game: a player's hidden card turned face up (after a bust,
    /// or at the showdown).
    Revealed {
        /// The player's box.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// The round was void: the cards ran out mid-round beyond recovery
    /// (the banker game's single deck, a stacked shoe) and every chip went
    /// back where it was when the round began, so nothing this round's
    /// `Bet`, `Settled` and other chip events booked stands. With the
    /// banker game's deck play goes on and `RoundEnd` follows; otherwise
    /// play ends, and the round does not count (see `Table::play_round`).
    RoundVoid {
        /// 1-based round number.
        round: u64,
    },
    /// A card went to a player's hand.
    Card {
        /// The box.
        seat: u8,
        /// The hand on the box.
        hand: u8,
        /// The card.
        card: Card,
    },
    /// A card went to the dealer; `hole` when dealt face down.
    DealerCard {
        /// The card.
        card: Card,
        /// Dealt face down.
        hole: bool,
    },
    /// The hole card was turned up.
    HoleRevealed {
        /// The card.
        card: Card,
    },
    /// An insurance bet was placed.
    Insurance {
        /// The box.
        seat: u8,
        /// Chips staked.
        amount: i64,
    },
    /// An insurance bet was settled; `returned` includes the stake.
    InsuranceSettled {
        /// The box.
        seat: u8,
        /// Chips paid back to the player.
        returned: i64,
    },
    /// A legal action was applied to a hand.
    Acted {
        /// The box.
        seat: u8,
        /// The hand.
        hand: u8,
        /// The action.
        action: Action,
    },
    /// A hand was settled; `returned` includes the stake.
    Settled {
        /// The box.
        seat: u8,
        /// The hand.
        hand: u8,
        /// The hand's final stake.
        bet: i64,
        /// Chips paid back to the player (0 when lost).
        returned: i64,
        /// How it ended.
        outcome: Outcome,
    },
    /// A round ended.
    RoundEnd {
        /// 1-based round number.
        round: u64,
    },
}

impl TableEvent {
    /// A copy of this event, as [`Clone::clone`] makes it, but without its
    /// jump over every variant: an event of plain data (all but a bot's log
    /// and a fault, which own text) is copied bit for bit. For recorders
    /// that keep every event (a league's stored hands): there the derived
    /// clone's indirect jump, mispredicted from one event kind to the
    /// next, took a tenth of a session's time.
    #[inline(always)]
    pub fn copied(&self) -> TableEvent {
        match self {
            TableEvent::BotLog { .. } | TableEvent::Fault { .. } => self.clone(),
            // SAFETY: every other variant holds only `Copy` fields (numbers,
            // cards, sets, options of them), so the bits are an independent,
            // valid value, and dropping either copy frees nothing. The test
            // `plain_variants_are_copy` names every field of every variant
            // and compiles only while that holds: a variant added or changed
            // must pass it.
            _ => unsafe { std::ptr::read(self) },
        }
    }
}

/// Receives a table's events.
pub trait Recorder {
    /// Called for each event, in order.
    fn record(&mut self, event: &TableEvent);
}

/// Records nothing; compiles away.
impl Recorder for () {
    #[inline(always)]
    fn record(&mut self, _: &TableEvent) {}
}

impl<F: FnMut(&TableEvent)> Recorder for F {
    fn record(&mut self, event: &TableEvent) {
        self(event)
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::{Action, Card};

    use super::{Outcome, TableEvent};
    use crate::player::Fault;
    use crate::player::FaultKind;
    use crate::shoe::ShuffleKind;

    /// Compiles only for a `Copy` value.
    fn copy<T: Copy>(_: &T) {}

    /// What [`TableEvent::copied`]'s bitwise copy rests on: every field of
    /// every variant it copies so is `Copy`. Each pattern names every
    /// field, so a field added or changed must pass here to compile.
    fn plain_variants_are_copy(e: &TableEvent) {
        match e {
            TableEvent::BotLog { .. } | TableEvent::Fault { .. } => {}
            TableEvent::Shuffle(kind) => copy(kind),
            TableEvent::RoundStart { round } | TableEvent::RoundEnd { round } | TableEvent::RoundVoid { round } => {
                copy(round)
            }
            TableEvent::Asked { seat, player, kind, legal, answer } => {
                copy(seat);
                copy(player);
                copy(kind);
                copy(legal);
                copy(answer);
            }
            TableEvent::Disqualified { seat, round } => {
                copy(seat);
                copy(round);
            }
            TableEvent::Bet { seat, amount } | TableEvent::Insurance { seat, amount } => {
                copy(seat);
                copy(amount);
            }
            TableEvent::SideBet { seat, side, amount } => {
                copy(seat);
                copy(side);
                copy(amount);
            }
            TableEvent::SideBetSettled { seat, returned } | TableEvent::InsuranceSettled { seat, returned } => {
                copy(seat);
                copy(returned);
            }
            TableEvent::BackBet { seat, player, amount } => {
                copy(seat);
                copy(player);
                copy(amount);
            }
            TableEvent::BackSettled { seat, hand, player, stake, returned } => {
                copy(seat);
                copy(hand);
                copy(player);
                copy(stake);
                copy(returned);
            }
            TableEvent::Banker { seat } => copy(seat),
            TableEvent::BankerDoubled => {}
            TableEvent::HiddenCard { seat, card } => {
                copy(seat);
                copy(card);
            }
            TableEvent::Revealed { seat, card } => {
                copy(seat);
                copy(card);
            }
            TableEvent::Card { seat, hand, card } => {
                copy(seat);
                copy(hand);
                copy(card);
            }
            TableEvent::DealerCard { card, hole } => {
                copy(card);
                copy(hole);
            }
            TableEvent::HoleRevealed { card } => copy(card),
            TableEvent::Acted { seat, hand, action } => {
                copy(seat);
                copy(hand);
                copy(action);
            }
            TableEvent::Settled { seat, hand, bet, returned, outcome } => {
                copy(seat);
                copy(hand);
                copy(bet);
                copy(returned);
                copy(outcome);
            }
        }
    }

    #[test]
    fn a_copied_event_equals_its_clone() {
        let card = Card::new(12).unwrap();
        let events = [
            TableEvent::Shuffle(ShuffleKind::Full),
            TableEvent::RoundStart { round: 7 },
            TableEvent::Card { seat: 2, hand: 1, card },
            TableEvent::Acted { seat: 2, hand: 1, action: Action::Double },
            TableEvent::Settled { seat: 2, hand: 1, bet: 20, returned: 40, outcome: Outcome::Win },
            TableEvent::BotLog { seat: 1, player: 0, kind: pitboss_sdk::Decision::Act, text: "hi".into() },
            TableEvent::Fault {
                seat: 1,
                player: 0,
                round: 7,
                kind: pitboss_sdk::Decision::Bet,
                fault: Fault::new(FaultKind::Trap, "unreachable"),
            },
        ];
        for e in &events {
            plain_variants_are_copy(e);
            assert_eq!(&e.copied(), e);
        }
    }
}
