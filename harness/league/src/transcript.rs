//! Recorders that write a table's events as they happen: a transcript
//! for people, one line per event, and a hand history in JSON lines,
//! whose `event` names are listed once, in [`event`].

use std::io::Write;

use pitboss_engine::{Recorder, TableEvent};
use pitboss_results::names;
pub use pitboss_results::names::event;

mod totals;

/// A recorder printing one line per event: deals (with the hand's total),
/// decisions, payouts, and a bot's log as its lines.
pub struct Transcript<W: Write> {
    out: W,
    totals: totals::Totals,
}

impl<W: Write> Transcript<W> {
    /// Writes to `out`.
    pub fn new(out: W) -> Self {
        Transcript { out, totals: totals::Totals::default() }
    }
}

/// A bot's log as transcript lines: the first after `head`, each further
/// one indented with `  | `, control characters escaped, newlines kept.
fn log_lines(head: &str, text: &str) -> String {
    let text = pitboss_host::text::failure_apart(text.trim_end_matches('\n'));
    let text = pitboss_host::text::printable(&text, pitboss_host::LOG_PER_DECISION);
    let mut lines = text.split('\n');
    let mut out = format!("{head}{}", lines.next().unwrap_or_default());
    for line in lines {
        out.push_str("\n  | ");
        out.push_str(line);
    }
    out
}

/// What answer 0 says, for the decisions it declines without an event of
/// their own.
fn declined(kind: pitboss_sdk::Decision) -> Option<&'static str> {
    use pitboss_sdk::Decision::*;
    Some(match kind {
        Insurance => "declines insurance",
        EvenMoney => "declines even money",
        SideBet => "no side bet",
        BankerDouble => "does not double as banker",
        _ => return None,
    })
}

impl<W: Write> Recorder for Transcript<W> {
    fn record(&mut self, event: &TableEvent) {
        let total = self.totals.follow(event);
        let line = match event {
            TableEvent::Shuffle(kind) => format!("shuffle ({})", names::shuffle(*kind).0),
            TableEvent::RoundStart { round } => format!("-- round {round}"),
            // A "no" leaves no other event: say it, so every decision shows.
            TableEvent::Asked { seat, kind, answer: Some(0), .. } => match declined(*kind) {
                Some(words) => format!("box {seat}: {words}"),
                None => return,
            },
            TableEvent::Asked { .. } => return,
            TableEvent::BotLog { seat, kind, text, .. } => {
                log_lines(&format!("box {seat}: log during {}: ", kind.name()), text)
            }
            TableEvent::Fault { seat, kind, fault, .. } => {
                format!("box {seat}: FAULT in {} ({}): {}", kind.name(), fault.kind.name(), fault.message)
            }
            TableEvent::Disqualified { seat, .. } => format!("box {seat}: DISQUALIFIED at the fault limit"),
            TableEvent::Bet { seat, amount } => format!("box {seat}: bets {amount}"),
            TableEvent::SideBet { seat, side, amount } => {
                format!("box {seat}: side bet {amount} on {} 13", names::side(*side).0)
            }
            TableEvent::SideBetSettled { seat, returned } => format!("box {seat}: side bet returns {returned}"),
            TableEvent::BackBet { seat, player, amount } => format!("player {player}: bets {amount} behind box {seat}"),
            TableEvent::BackSettled { seat, hand, player, stake, returned } => {
                format!("player {player} behind box {seat} hand {hand}: stake {stake}, {returned} come back")
            }
            TableEvent::Banker { seat: Some(s) } => format!("player {s} holds the bank"),
            TableEvent::Banker { seat: None } => "the house holds the bank".to_string(),
            TableEvent::BankerDoubled => "banker doubles every stake".to_string(),
            TableEvent::HiddenCard { seat: Some(s), card } => format!("player {s}: hidden card {card}"),
            TableEvent::HiddenCard { seat: None, card } => format!("banker: hidden card {card}"),
            TableEvent::Revealed { seat, card } => format!("player {seat}: shows hidden card {card}"),
            TableEvent::RoundVoid { round } => format!("round {round} is void: the deck ran out, stakes returned"),
            TableEvent::Card { seat, hand, card } => format!("box {seat} hand {hand}: dealt {card}"),
            TableEvent::DealerCard { card, hole: false } => format!("dealer: dealt {card}"),
            TableEvent::DealerCard { hole: true, .. } => "dealer: hole card face down".to_string(),
            TableEvent::HoleRevealed { card } => format!("dealer: turns up {card}"),
            TableEvent::Insurance { seat, amount } => format!("box {seat}: insures {amount}"),
            TableEvent::InsuranceSettled { seat, returned } => format!("box {seat}: insurance returns {returned}"),
            TableEvent::Acted { seat, hand, action } => format!("box {seat} hand {hand}: {}", action.name()),
            TableEvent::Settled { seat, hand, bet, returned, outcome } => {
                format!("box {seat} hand {hand}: {}, bet {bet}, {returned} come back", names::outcome_words(*outcome))
            }
            TableEvent::RoundEnd { .. } => return,
        };
        let line = match total {
            Some(total) => format!("{line} ({total})"),
            None => line,
        };
        // A closed pipe (e.g. `| head`) must not abort the match.
        let _ = writeln!(self.out, "{line}");
    }
}

/// A recorder writing one JSON object per event (a hand history in JSON
/// lines): `{"round": R, "event": "card", "box": 0, "hand": 0, "card": "K"}`.
pub struct JsonLines<W: Write> {
    out: W,
    round: u64,
}

impl<W: Write> JsonLines<W> {
    /// Writes to `out`.
    pub fn new(out: W) -> Self {
        JsonLines { out, round: 0 }
    }
}

/// One event as the hand history writes it: `event` and the event's
/// fields (the round is added by [`JsonLines`]).
pub fn event_json(event: &TableEvent) -> serde_json::Value {
    use serde_json::json;
    let card = |c: &pitboss_sdk::Card| c.symbol().to_string();
    match event {
        TableEvent::Shuffle(kind) => json!({"event": event::SHUFFLE, "kind": names::shuffle(*kind).0}),
        TableEvent::RoundStart { .. } => json!({"event": event::ROUND_START}),
        TableEvent::Asked { seat, player, kind, legal, answer } => {
            let legal: Vec<&str> = legal.iter().map(pitboss_sdk::Action::name).collect();
            json!({"event": event::ASKED, "box": seat, "player": player, "decision": kind.name(), "legal": legal, "answer": answer})
        }
        TableEvent::BotLog { seat, player, kind, text } => {
            json!({"event": event::LOG, "box": seat, "player": player, "decision": kind.name(), "text": text})
        }
        TableEvent::Fault { seat, player, kind, fault, .. } => {
            json!({"event": event::FAULT, "box": seat, "player": player, "decision": kind.name(), "kind": fault.kind.name(), "message": fault.message})
        }
        TableEvent::Disqualified { seat, .. } => json!({"event": event::DISQUALIFIED, "box": seat}),
        TableEvent::Bet { seat, amount } => json!({"event": event::BET, "box": seat, "amount": amount}),
        TableEvent::SideBet { seat, side, amount } => {
            json!({"event": event::SIDE_BET, "box": seat, "side": names::side(*side).0, "amount": amount})
        }
        TableEvent::SideBetSettled { seat, returned } => {
            json!({"event": event::SIDE_BET_SETTLED, "box": seat, "returned": returned})
        }
        TableEvent::BackBet { seat, player, amount } => {
            json!({"event": event::BACK_BET, "box": seat, "player": player, "amount": amount})
        }
        TableEvent::BackSettled { seat, hand, player, stake, returned } => {
            json!({"event": event::BACK_SETTLED, "box": seat, "hand": hand, "player": player, "stake": stake, "returned": returned})
        }
        TableEvent::Banker { seat } => json!({"event": event::BANKER, "seat": seat}),
        TableEvent::BankerDoubled => json!({"event": event::BANKER_DOUBLED}),
        TableEvent::HiddenCard { seat, card: c } => json!({"event": event::HIDDEN_CARD, "seat": seat, "card": card(c)}),
        TableEvent::Revealed { seat, card: c } => json!({"event": event::REVEALED, "seat": seat, "card": card(c)}),
        TableEvent::RoundVoid { .. } => json!({"event": event::ROUND_VOID}),
        TableEvent::Card { seat, hand, card: c } => {
            json!({"event": event::CARD, "box": seat, "hand": hand, "card": card(c)})
        }
        TableEvent::DealerCard { card: c, hole } => {
            json!({"event": event::DEALER_CARD, "card": card(c), "face_down": hole})
        }
        TableEvent::HoleRevealed { card: c } => json!({"event": event::HOLE_REVEALED, "card": card(c)}),
        TableEvent::Insurance { seat, amount } => json!({"event": event::INSURANCE, "box": seat, "amount": amount}),
        TableEvent::InsuranceSettled { seat, returned } => {
            json!({"event": event::INSURANCE_SETTLED, "box": seat, "returned": returned})
        }
        TableEvent::Acted { seat, hand, action } => {
            json!({"event": event::ACTED, "box": seat, "hand": hand, "action": action.name()})
        }
        TableEvent::Settled { seat, hand, bet, returned, outcome } => {
            json!({"event": event::SETTLED, "box": seat, "hand": hand, "bet": bet, "returned": returned, "outcome": names::outcome(*outcome).0})
        }
        TableEvent::RoundEnd { .. } => json!({"event": event::ROUND_END}),
    }
}

impl<W: Write> Recorder for JsonLines<W> {
    fn record(&mut self, event: &TableEvent) {
        if let TableEvent::RoundStart { round } = event {
            self.round = *round;
        }
        let value = event_json(event);
        // A full shuffle opens the round that follows it.
        let round = match event {
            TableEvent::Shuffle(pitboss_engine::ShuffleKind::Full) => self.round + 1,
            _ => self.round,
        };
        let mut line = serde_json::Map::new();
        line.insert("round".into(), round.into());
        if let serde_json::Value::Object(fields) = value {
            line.extend(fields);
        }
        // A recorder cannot stop the table: a failed write is the writer's
        // to keep (`files::Output` keeps the first and `finish` reports it).
        let _ = writeln!(self.out, "{}", serde_json::Value::Object(line));
    }
}

#[cfg(test)]
mod tests {
    use pitboss_engine::{Fault, FaultKind, Outcome, ShuffleKind, TableEvent};
    use pitboss_sdk::{Action, ActionSet, Card, Decision, SideBet};

    use super::{event, event_json};

    /// One event of every kind. The match lists every variant, so a new
    /// one fails to compile here until it is added to the list below.
    fn one_of_each() -> Vec<TableEvent> {
        let card = Card::new(10).unwrap();
        let fault = || Fault::new(FaultKind::Trap, "x");
        let all = vec![
            TableEvent::Shuffle(ShuffleKind::Full),
            TableEvent::RoundStart { round: 1 },
            TableEvent::Asked { seat: 0, player: 0, kind: Decision::Bet, legal: ActionSet::EMPTY, answer: None },
            TableEvent::BotLog { seat: 0, player: 0, kind: Decision::Act, text: "x".into() },
            TableEvent::Fault { seat: 0, player: 0, round: 1, kind: Decision::Act, fault: fault() },
            TableEvent::Disqualified { seat: 0, round: 1 },
            TableEvent::Bet { seat: 0, amount: 1 },
            TableEvent::SideBet { seat: 0, side: SideBet::Over, amount: 1 },
            TableEvent::SideBetSettled { seat: 0, returned: 0 },
            TableEvent::BackBet { seat: 0, player: 1, amount: 1 },
            TableEvent::BackSettled { seat: 0, hand: 0, player: 1, stake: 1, returned: 0 },
            TableEvent::Banker { seat: None },
            TableEvent::BankerDoubled,
            TableEvent::HiddenCard { seat: Some(0), card },
            TableEvent::Revealed { seat: 0, card },
            TableEvent::RoundVoid { round: 1 },
            TableEvent::Card { seat: 0, hand: 0, card },
            TableEvent::DealerCard { card, hole: true },
            TableEvent::HoleRevealed { card },
            TableEvent::Insurance { seat: 0, amount: 1 },
            TableEvent::InsuranceSettled { seat: 0, returned: 0 },
            TableEvent::Acted { seat: 0, hand: 0, action: Action::Hit },
            TableEvent::Settled { seat: 0, hand: 0, bet: 1, returned: 2, outcome: Outcome::Win },
            TableEvent::RoundEnd { round: 1 },
        ];
        for e in &all {
            match e {
                TableEvent::Shuffle(_)
                | TableEvent::RoundStart { .. }
                | TableEvent::Asked { .. }
                | TableEvent::BotLog { .. }
                | TableEvent::Fault { .. }
                | TableEvent::Disqualified { .. }
                | TableEvent::Bet { .. }
                | TableEvent::SideBet { .. }
                | TableEvent::SideBetSettled { .. }
                | TableEvent::BackBet { .. }
                | TableEvent::BackSettled { .. }
                | TableEvent::Banker { .. }
                | TableEvent::BankerDoubled
                | TableEvent::HiddenCard { .. }
                | TableEvent::Revealed { .. }
                | TableEvent::RoundVoid { .. }
                | TableEvent::Card { .. }
                | TableEvent::DealerCard { .. }
                | TableEvent::HoleRevealed { .. }
                | TableEvent::Insurance { .. }
                | TableEvent::InsuranceSettled { .. }
                | TableEvent::Acted { .. }
                | TableEvent::Settled { .. }
                | TableEvent::RoundEnd { .. } => {}
            }
        }
        all
    }

    #[test]
    fn every_event_name_written_is_listed_once() {
        let written: Vec<String> =
            one_of_each().iter().map(|e| event_json(e)["event"].as_str().expect("an event name").to_owned()).collect();
        let listed: Vec<&str> = event::ALL.iter().map(|(_, name)| *name).collect();
        for name in &written {
            assert!(listed.contains(&name.as_str()), "{name} is written but not in event::ALL");
        }
        // One kind of event, one name: nothing listed twice or unused.
        let mut sorted = written.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), written.len(), "two kinds of event share a name");
        assert_eq!(listed.len(), written.len(), "event::ALL lists a name nothing writes");
    }

    #[test]
    fn the_constants_are_named_after_their_names() {
        for (konst, name) in event::ALL {
            assert_eq!(konst.to_lowercase().replace('_', "-"), *name);
        }
    }
}
