//! Output: result tables for people, JSON files for programs, and a
//! round-by-round transcript recorder.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use pitboss_engine::{Recorder, TableEvent};
use pitboss_host::files;
use serde::Serialize;
use tabled::settings::Style;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Modify};
use tabled::{Table, Tabled};

use crate::league::{Standing, Status};
use crate::matchplay::BotResult;

#[derive(Tabled)]
struct Row {
    #[tabled(rename = "#")]
    rank: String,
    #[tabled(rename = "bot")]
    name: String,
    #[tabled(rename = "final chips")]
    balance: i64,
    #[tabled(rename = "net chips")]
    net: i64,
    #[tabled(rename = "rounds played")]
    rounds: u64,
    #[tabled(rename = "EV % of stake (± 95 %)")]
    ev: String,
    #[tabled(rename = "faults")]
    faults: String,
}

/// EV with its 95 % interval, both in percent of the initial stakes.
fn ev_cell(ev_pct: f64, ci95_pct: f64) -> String {
    format!("{ev_pct:+.3} % ± {ci95_pct:.3}")
}

fn faults_cell(r: &BotResult) -> String {
    if r.disqualified { format!("{} DQ", r.faults) } else { r.faults.to_string() }
}

fn row(rank: String, r: &BotResult) -> Row {
    Row {
        rank,
        name: r.name.clone(),
        balance: r.balance,
        net: r.net,
        rounds: r.rounds,
        ev: ev_cell(r.ev * 100.0, 1.96 * r.ev_se * 100.0),
        faults: faults_cell(r),
    }
}

fn render(rows: Vec<Row>) -> String {
    Table::new(rows).with(Style::rounded()).with(Modify::new(Columns::new(2..5)).with(Alignment::right())).to_string()
}

/// The result table of `pitboss play`, in seat order, with a line saying
/// what the EV column means.
pub fn results_table(results: &[BotResult]) -> String {
    let mut out = render(results.iter().enumerate().map(|(i, r)| row(format!("{}", i + 1), r)).collect());
    out.push_str("\nEV: net chips per 100 chips initially staked (box and back bets; side bets, insurance, doubles and splits count in the net only); ± is the 95 % interval.");
    out
}

#[derive(Tabled)]
struct StandingRow {
    #[tabled(rename = "#")]
    rank: String,
    #[tabled(rename = "bot")]
    name: String,
    #[tabled(rename = "final chips")]
    balance: i64,
    #[tabled(rename = "net chips")]
    net: i64,
    #[tabled(rename = "rounds played")]
    rounds: u64,
    #[tabled(rename = "EV % of stake (± 95 %)")]
    ev: String,
    #[tabled(rename = "vs next")]
    next: String,
    #[tabled(rename = "faults")]
    faults: String,
}

/// The standings table of a league, then its legend, its verdict in words
/// and any warnings. "vs next" says whether a bot in play is significantly
/// ahead of the next one (paired difference, 95 %): `>` it is, `≈` the gap
/// could be luck. Broke and disqualified bots are ranked below every bot
/// in play, marked, and never compared with them.
pub fn standings_table(standings: &[Standing]) -> String {
    let rows: Vec<StandingRow> = standings
        .iter()
        .map(|s| StandingRow {
            rank: match s.status {
                Status::Active => s.rank.to_string(),
                out => format!("{} {}", s.rank, out.label()),
            },
            name: match s.result.broke_sessions {
                k if k > 0 && s.status == Status::Active => {
                    format!("{} (broke in {k} session{})", s.result.name, plural(k))
                }
                _ => s.result.name.clone(),
            },
            balance: s.result.balance,
            net: s.result.net,
            rounds: s.result.rounds,
            ev: ev_cell(s.ev_pct, s.ev_ci95_pct),
            next: match s.ahead_of_next {
                Some(true) => ">".into(),
                Some(false) => "≈".into(),
                None => String::new(),
            },
            faults: faults_cell(&s.result),
        })
        .collect();
    Table::new(rows).with(Style::rounded()).with(Modify::new(Columns::new(2..5)).with(Alignment::right())).to_string()
}

/// The lines printed under a league's standings: legend, verdict and
/// warnings.
pub fn standings_notes(result: &crate::league::LeagueResult) -> String {
    let mut out = format!("{}\n{}.", crate::league::LEGEND, crate::league::verdict(&result.standings));
    for w in &result.warnings {
        out.push_str(&format!("\nwarning: {w}"));
    }
    out
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A text cell of a CSV file: RFC 4180 quoting, and a cell that a
/// spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`,
/// a tab or a carriage return) is prefixed with `'`, so a bot named
/// `=HYPERLINK(…)` stays text.
pub fn csv_cell(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{text}") } else { text.to_string() };
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
}

/// The standings as CSV (RFC 4180 quoting; names neutralised by
/// [`csv_cell`]).
pub fn standings_csv(standings: &[Standing]) -> String {
    let quote = csv_cell;
    let mut out = String::from(
        "rank,bot,status,final_chips,net_chips,rounds_played,ev_pct,ev_ci95_low_pct,ev_ci95_high_pct,faults,broke_sessions,ahead_of_next\n",
    );
    for s in standings {
        let r = &s.result;
        let status = match s.status {
            Status::Active => "active",
            Status::Broke => "broke",
            Status::Disqualified => "disqualified",
        };
        out.push_str(&format!(
            "{},{},{status},{},{},{},{:.4},{:.4},{:.4},{},{},{}\n",
            s.rank,
            quote(&r.name),
            r.balance,
            r.net,
            r.rounds,
            s.ev_pct,
            s.ev_pct - s.ev_ci95_pct,
            s.ev_pct + s.ev_ci95_pct,
            r.faults,
            r.broke_sessions,
            s.ahead_of_next.map_or(String::new(), |a| a.to_string())
        ));
    }
    out
}

/// Writes `text` to `path` whole or not at all (see
/// [`pitboss_host::files::Output`]): a uniquely named temp file beside it,
/// renamed into place once written and synced; any write error is
/// returned, naming the file, and leaves no temp file behind.
pub fn write_text(path: &Path, text: &str) -> Result<()> {
    Ok(files::write_atomic(path, |out| out.write_all(text.as_bytes()))?)
}

/// Writes `value` as pretty JSON to `path`, whole or not at all, like
/// [`write_text`]: no reader ever sees half a file.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    Ok(files::write_atomic(path, |out| {
        serde_json::to_writer_pretty(&mut *out, value)?;
        out.write_all(b"\n")
    })?)
}

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
