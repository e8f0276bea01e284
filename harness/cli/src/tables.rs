//! Tables for people: the results of a match and the standings of a
//! league, drawn with `tabled`, with the notes printed under them.

use pitboss_results::BotResult;
use pitboss_results::standings::{league_luck_note, legend, resolution_note, verdict};
use pitboss_results::{LeagueResult, Standing, Status};
use tabled::settings::Style;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Modify, Remove};
use tabled::{Table, Tabled};

/// A bot of a match, by its seat (from 0, as transcripts and replays
/// number seats): a match ranks nobody.
#[derive(Tabled)]
struct Row {
    #[tabled(rename = "seat")]
    seat: String,
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

fn row(seat: String, r: &BotResult) -> Row {
    Row {
        seat,
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

/// The result table of `pitboss play`, in seat order (seats from 0), with
/// a line saying what the EV column means.
pub fn results_table(results: &[BotResult]) -> String {
    let mut out = render(results.iter().enumerate().map(|(i, r)| row(i.to_string(), r)).collect());
    out.push_str("\nEV: net chips per 100 chips initially staked (box and back bets; side bets, insurance, doubles and splits count in the net only); ± is the 95 % interval.");
    out
}

#[derive(Tabled)]
struct StandingRow {
    #[tabled(rename = "rank")]
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
    #[tabled(rename = "luck-adjusted EV %")]
    luck: String,
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
            luck: match (s.luck_ev_pct, s.luck_ci95_pct) {
                (Some(ev), Some(ci)) => ev_cell(ev, ci),
                _ => String::new(),
            },
            next: s.mark().into(),
            faults: faults_cell(&s.result),
        })
        .collect();
    let mut table = Table::new(rows);
    table.with(Style::rounded()).with(Modify::new(Columns::new(2..5)).with(Alignment::right()));
    // Results without luck-adjusted figures (a league with `luck = false`,
    // or written before they existed) show no empty column for them.
    if standings.iter().all(|s| s.luck_ev_pct.is_none()) {
        table.with(Remove::column(Columns::one(6)));
    }
    table.to_string()
}

#[derive(Tabled)]
struct CostRow {
    #[tabled(rename = "bot")]
    name: String,
    #[tabled(rename = "fuel/decision")]
    mean: String,
    #[tabled(rename = "max")]
    max: String,
    #[tabled(rename = "of cap")]
    cap: String,
    #[tabled(rename = "of run")]
    share: String,
}

/// Who is slow: each bot's mean and largest fuel a decision, the mean
/// against the league's `fuel_per_decision` cap and its share of all the
/// bots' decision fuel ([`pitboss_report::cost`]), in the standings'
/// order, under its legend. Empty when no bot has a cost.
pub fn cost_table(standings: &[Standing], cap: u64) -> String {
    let cells = pitboss_report::cost::cost_cells(standings, cap);
    if cells.is_empty() {
        return String::new();
    }
    let rows: Vec<CostRow> = cells
        .into_iter()
        .map(|c| CostRow {
            share: if c.hog { format!("{} (most)", c.share) } else { c.share },
            name: c.name,
            mean: c.mean,
            max: c.max,
            cap: c.of_cap,
        })
        .collect();
    let mut table = Table::new(rows);
    table.with(Style::rounded()).with(Modify::new(Columns::new(1..5)).with(Alignment::right()));
    format!("{table}\n{}", pitboss_report::cost::cost_legend(cap))
}

/// The lines printed under a league's standings: legend, verdict and
/// warnings.
pub fn standings_notes(result: &LeagueResult) -> String {
    let mut out = format!("{}\n{}.", legend(&result.standings), verdict(&result.standings));
    if let Some(r) = &result.resolution {
        out.push_str(&format!("\n{}", resolution_note(r)));
    }
    if let Some(note) = league_luck_note(result) {
        out.push_str(&format!("\n{note}"));
    }
    for w in &result.warnings {
        out.push_str(&format!("\nwarning: {w}"));
    }
    out
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
