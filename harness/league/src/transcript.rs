//! Recorders that write a table's events as they happen: a transcript
//! for people, one line per event, and a hand history in JSON lines.

use std::io::Write;

use pitboss_engine::{Recorder, TableEvent};

/// A recorder printing one line per event: deals, decisions, payouts.
pub struct Transcript<W: Write> {
    out: W,
}

impl<W: Write> Transcript<W> {
    /// Writes to `out`.
    pub fn new(out: W) -> Self {
        Transcript { out }
    }
}

impl<W: Write> Recorder for Transcript<W> {
    fn record(&mut self, event: &TableEvent) {
        let line = match event {
            TableEvent::Shuffle(kind) => format!("shuffle ({kind:?})"),
            TableEvent::RoundStart { round } => format!("-- round {round}"),
            TableEvent::Asked { .. } => return,
            TableEvent::BotLog { seat, kind, text, .. } => {
                let text = pitboss_host::text::excerpt(text, pitboss_host::LOG_PER_DECISION);
                format!("box {seat}: log during {}: {text}", kind.name())
            }
            TableEvent::Fault { seat, kind, fault, .. } => {
                format!("box {seat}: FAULT in {} ({}): {}", kind.name(), fault.kind.name(), fault.message)
            }
            TableEvent::Disqualified { seat, .. } => format!("box {seat}: DISQUALIFIED at the fault limit"),
            TableEvent::Bet { seat, amount } => format!("box {seat}: bets {amount}"),
            TableEvent::SideBet { seat, side, amount } => format!("box {seat}: side bet {amount} on {side:?} 13"),
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
                format!("box {seat} hand {hand}: {outcome:?}, bet {bet}, {returned} come back")
            }
            TableEvent::RoundEnd { .. } => return,
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
        TableEvent::Shuffle(kind) => json!({"event": "shuffle", "kind": format!("{kind:?}").to_lowercase()}),
        TableEvent::RoundStart { .. } => json!({"event": "round-start"}),
        TableEvent::Asked { seat, player, kind, legal, answer } => {
            let legal: Vec<&str> = legal.iter().map(pitboss_sdk::Action::name).collect();
            json!({"event": "asked", "box": seat, "player": player, "decision": kind.name(), "legal": legal, "answer": answer})
        }
        TableEvent::BotLog { seat, player, kind, text } => {
            json!({"event": "log", "box": seat, "player": player, "decision": kind.name(), "text": text})
        }
        TableEvent::Fault { seat, player, kind, fault, .. } => {
            json!({"event": "fault", "box": seat, "player": player, "decision": kind.name(), "kind": fault.kind.name(), "message": fault.message})
        }
        TableEvent::Disqualified { seat, .. } => json!({"event": "disqualified", "box": seat}),
        TableEvent::Bet { seat, amount } => json!({"event": "bet", "box": seat, "amount": amount}),
        TableEvent::SideBet { seat, side, amount } => {
            json!({"event": "side-bet", "box": seat, "side": format!("{side:?}").to_lowercase(), "amount": amount})
        }
        TableEvent::SideBetSettled { seat, returned } => {
            json!({"event": "side-bet-settled", "box": seat, "returned": returned})
        }
        TableEvent::BackBet { seat, player, amount } => {
            json!({"event": "back-bet", "box": seat, "player": player, "amount": amount})
        }
        TableEvent::BackSettled { seat, hand, player, stake, returned } => {
            json!({"event": "back-settled", "box": seat, "hand": hand, "player": player, "stake": stake, "returned": returned})
        }
        TableEvent::Banker { seat } => json!({"event": "banker", "seat": seat}),
        TableEvent::BankerDoubled => json!({"event": "banker-doubled"}),
        TableEvent::HiddenCard { seat, card: c } => json!({"event": "hidden-card", "seat": seat, "card": card(c)}),
        TableEvent::Revealed { seat, card: c } => json!({"event": "revealed", "seat": seat, "card": card(c)}),
        TableEvent::RoundVoid { .. } => json!({"event": "round-void"}),
        TableEvent::Card { seat, hand, card: c } => {
            json!({"event": "card", "box": seat, "hand": hand, "card": card(c)})
        }
        TableEvent::DealerCard { card: c, hole } => {
            json!({"event": "dealer-card", "card": card(c), "face_down": hole})
        }
        TableEvent::HoleRevealed { card: c } => json!({"event": "hole-revealed", "card": card(c)}),
        TableEvent::Insurance { seat, amount } => json!({"event": "insurance", "box": seat, "amount": amount}),
        TableEvent::InsuranceSettled { seat, returned } => {
            json!({"event": "insurance-settled", "box": seat, "returned": returned})
        }
        TableEvent::Acted { seat, hand, action } => {
            json!({"event": "acted", "box": seat, "hand": hand, "action": action.name()})
        }
        TableEvent::Settled { seat, hand, bet, returned, outcome } => {
            json!({"event": "settled", "box": seat, "hand": hand, "bet": bet, "returned": returned, "outcome": format!("{outcome:?}").to_lowercase()})
        }
        TableEvent::RoundEnd { .. } => json!({"event": "round-end"}),
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
