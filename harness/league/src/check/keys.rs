//! The audit of a bot's decision keys in `pitboss check`: the smoke match
//! asks a bot that keys its decisions every decision, and compares each
//! answer with its earlier answer to the same key
//! ([`pitboss_engine::Table::audit_keys`]). Two answers to one key mean
//! the key leaves out something the answer reads: played keyed, the second
//! request would have been answered with the first answer, silently. The
//! check fails, naming the request and both answers.

use pitboss_engine::{KeyAudit, KeyConflict};
use pitboss_sdk::{Action, Decision};
use serde::Serialize;

/// The first answer unlike the earlier answer to its key, in one rule
/// set's smoke match, and how many there were.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeyConflictReport {
    /// The decision whose key is not true.
    pub decision: &'static str,
    /// Its key's parts, by name.
    pub parts: Vec<&'static str>,
    /// The round of the first such answer.
    pub round: u64,
    /// The request it answered: the hand, the up card, the legal actions
    /// and (where the key names them) the true count and whether others
    /// were dealt the round before, in words.
    pub request: String,
    /// What the bot answered to the key before.
    pub earlier: String,
    /// What it answered in `round`.
    pub answer: String,
    /// Such answers, over every decision kind.
    pub conflicts: u64,
    /// Answers to a key answered before, over every keyed kind.
    pub repeated: u64,
    /// A `pitboss play` command that replays the match to that round with a
    /// transcript, where one can: played keyed, as a league plays it, so
    /// the transcript shows the earlier answer given again.
    pub replay: Option<String>,
}

impl KeyConflictReport {
    /// What `audit` found, if any answer conflicted; `replay` makes the
    /// command that plays to a round.
    pub(super) fn of(audit: &KeyAudit, replay: impl Fn(u64) -> Option<String>) -> Option<Self> {
        let first = audit.first.as_ref()?;
        Some(KeyConflictReport {
            decision: first.kind.name(),
            parts: super::key_parts(first.parts),
            round: first.round,
            request: request_text(first),
            earlier: answer_text(first.kind, first.earlier),
            answer: answer_text(first.kind, first.answer),
            conflicts: audit.conflicts.iter().sum(),
            repeated: audit.repeated.iter().sum(),
            replay: replay(first.round),
        })
    }

    /// The finding, one line: `act keyed by legal, summary answered hit in
    /// round 37 (…) where the same key was answered stand before`.
    pub fn line(&self) -> String {
        format!(
            "its {} key ({}) is not true: in round {} it answered {} ({}) where it had answered {} to the same key",
            self.decision,
            if self.parts.is_empty() {
                "no part: one answer to every request".to_string()
            } else {
                self.parts.join(", ")
            },
            self.round,
            self.answer,
            self.request,
            self.earlier
        )
    }

    /// The finding and what to do, for the full report.
    pub fn render(&self) -> String {
        let mut out = format!(
            "{}; {} of {} answers to a key answered before differed. Played keyed, each would have been given the earlier answer without the bot being asked: key the {} by every part of the request it reads (pitboss_decision_key, sdk/ABI.md \"Version 4\"), or not at all\n",
            self.line(),
            self.conflicts,
            self.repeated,
            self.decision
        );
        if let Some(replay) = &self.replay {
            out.push_str(&format!("  played keyed, as a league plays it: {replay}\n"));
        }
        out
    }
}

/// An answer in words: an act's action by name, any other as its number.
fn answer_text(kind: Decision, answer: i64) -> String {
    match (kind, Action::from_answer(answer)) {
        (Decision::Act, Some(action)) => action.name().to_string(),
        _ => answer.to_string(),
    }
}

/// The request of `c` in words: `hand 10 3, up 9, legal stand hit double`.
fn request_text(c: &KeyConflict) -> String {
    let mut parts = Vec::new();
    if !c.hand.is_empty() {
        parts.push(format!("hand {}", c.hand.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")));
    }
    if let Some(up) = c.dealer_up {
        parts.push(format!("up {up}"));
    }
    if c.legal.0 != 0 {
        parts.push(format!("legal {}", c.legal.iter().map(Action::name).collect::<Vec<_>>().join(" ")));
    }
    if c.parts & pitboss_sdk::key::part::TRUE_COUNT != 0 {
        parts.push(format!("true count {}", c.count));
    }
    if c.parts & pitboss_sdk::key::part::OTHERS != 0 {
        parts.push(format!("others dealt {}", if c.others { "yes" } else { "no" }));
    }
    parts.join(", ")
}
