//! `Report`: everything `pitboss strategy` shows for one rule set, as
//! serialisable data and as text.

use std::fmt::Write;

use pitboss_engine::Rules;
use serde::Serialize;

use crate::analyzer::Analyzer;
use crate::banker::{BankerGame, banker_game};
use crate::chart::{Cell, Chart, HARD_MIN, SOFT_MIN};
use crate::deck::{ACE, RANKS, Shoe, TEN};
use crate::derive::{Margins, derive};
use crate::game::{Game, StrategyError};
use crate::offtop::{OffTop, off_top};
use crate::player::Policy;

/// A side option's expectation per chip put on it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideOption {
    /// What it is.
    pub name: String,
    /// Expectation per chip, off the top (negative: never take it).
    pub ev: f64,
}

/// The analysis of one rule set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The rule set's id.
    pub variant: &'static str,
    /// The rules analysed, in words.
    pub rules: Vec<String>,
    /// The total-dependent basic strategy.
    pub chart: Chart,
    /// What each decision is worth over the next best.
    pub margins: Margins,
    /// Playing the chart, per original bet.
    pub chart_ev: OffTop,
    /// Optimal composition-dependent play, per original bet.
    pub optimal_ev: OffTop,
    /// Insurance and even money, which the chart never takes.
    pub options: Vec<SideOption>,
    /// The banker game's extra figures.
    pub banker: Option<BankerGame>,
}

/// The full analysis of `rules`.
pub fn analyze(rules: &Rules) -> Result<Report, StrategyError> {
    let game = Game::new(rules)?;
    let mut an = Analyzer::new(game, Shoe::decks(f64::from(rules.decks)));
    let (chart, margins) = derive(&mut an);
    let chart_ev = off_top(&mut an, Policy::Chart(&chart));
    an.forget();
    let optimal_ev = off_top(&mut an, Policy::Optimal);
    let banker = an.game.banker.then(|| banker_game(&an, &chart));
    Ok(Report {
        variant: rules.variant.id(),
        rules: rules.describe(),
        options: options(&an),
        chart,
        margins,
        chart_ev,
        optimal_ev,
        banker,
    })
}

/// Insurance against each up card that offers it, and even money.
fn options(an: &Analyzer) -> Vec<SideOption> {
    let mut out = Vec::new();
    for up in [ACE, TEN] {
        if !an.game.insurance_offered(up) {
            continue;
        }
        let partner = Game::natural_partner(up).unwrap_or(TEN);
        let left = an.shoe.without(up);
        let p = left.counts[partner] / left.total();
        let name = if up == ACE { "insurance against an ace" } else { "insurance against a ten" };
        out.push(SideOption { name: name.into(), ev: 3.0 * p - 1.0 });
    }
    if an.game.even_money {
        // A blackjack against an ace: 1 now, or 3:2 unless the dealer's
        // second card is a ten; per chip bet, even money less declining.
        let left = an.shoe.without(ACE).without(ACE).without(TEN);
        let p = left.counts[TEN] / left.total();
        out.push(SideOption { name: "even money (over declining it)".into(), ev: 1.0 - an.game.blackjack * (1.0 - p) });
    }
    out
}

/// Up cards in chart order: 2–10, then the ace.
const COLUMNS: [usize; RANKS] = [1, 2, 3, 4, 5, 6, 7, 8, TEN, ACE];

fn header(out: &mut String, title: &str) {
    let _ = write!(out, "{title:<8}");
    for up in COLUMNS {
        let _ = write!(out, "{:>9}", if up == ACE { "A".to_string() } else { (up + 1).to_string() });
    }
    out.push('\n');
}

/// One cell: its code (with `/h` or `/s` when three or more cards play
/// differently from the fallback) and its margin in % of a bet.
fn cell_text(cell: Cell, margin: f64) -> String {
    let code = cell.two.symbol();
    let more = if cell.more_hit != cell.two.hits() { if cell.more_hit { "/h" } else { "/s" } } else { "" };
    format!("{code}{more} {:.1}", margin * 100.0)
}

fn rows(out: &mut String, title: &str, soft: bool, totals: std::ops::RangeInclusive<u8>, r: &Report) {
    header(out, title);
    for t in totals.rev() {
        let _ = write!(out, "{:<8}", if soft { format!("A,{}", t - 11) } else { t.to_string() });
        for up in COLUMNS {
            let cell = r.chart.cell(soft, t, up);
            let margin = if soft {
                r.margins.soft[usize::from(t - SOFT_MIN)][up]
            } else {
                r.margins.hard[usize::from(t - HARD_MIN)][up]
            };
            let _ = write!(out, "{:>9}", cell_text(cell, margin));
        }
        out.push('\n');
    }
}

/// The report as text: the rules, the chart with each decision's margin,
/// and the expectations off the top.
pub fn render(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Basic strategy for `{}`, computed exactly from these rules:", r.variant);
    for line in &r.rules {
        let _ = writeln!(out, "  {line}");
    }
    let _ = writeln!(
        out,
        "\nEach cell: the play for the first two cards, then the margin over the next best play in % of the bet.\n\
         S stand, H hit, Dh/Ds double (else hit/stand), Rh/Rs surrender (else hit/stand), P split;\n\
         /h or /s: with three or more cards hit or stand instead.\n"
    );
    rows(&mut out, "hard", false, 5..=20, r);
    out.push('\n');
    rows(&mut out, "soft", true, 13..=20, r);
    if r.chart.split.iter().flatten().any(|&s| s) || r.margins.split.iter().flatten().any(|&m| m > 0.0) {
        out.push('\n');
        header(&mut out, "pair");
        for pair in (0..RANKS).rev() {
            let name = if pair == ACE { "A,A".to_string() } else { format!("{0},{0}", pair + 1) };
            let _ = write!(out, "{name:<8}");
            for up in COLUMNS {
                let text = format!(
                    "{} {:.1}",
                    if r.chart.split[pair][up] { "P" } else { "-" },
                    r.margins.split[pair][up] * 100.0
                );
                let _ = write!(out, "{text:>9}");
            }
            out.push('\n');
        }
    }
    let _ = writeln!(out, "\nEV off the top, per original bet:");
    let _ = writeln!(out, "  this chart (par for `basic`):        {:+.6} %", r.chart_ev.ev * 100.0);
    let _ = writeln!(out, "  optimal composition-dependent play:  {:+.6} %", r.optimal_ev.ev * 100.0);
    for o in &r.options {
        let _ = writeln!(out, "  {}: {:+.2} % per chip (never taken)", o.name, o.ev * 100.0);
    }
    if let Some(b) = &r.banker {
        banker_text(&mut out, b);
    }
    out
}

fn banker_text(out: &mut String, b: &BankerGame) {
    let _ = writeln!(out, "\nAgainst the house banker, by the player's hidden card (% per stake):");
    let _ = write!(out, " ");
    for r in COLUMNS {
        let _ =
            write!(out, " {}:{:+.1}", if r == ACE { "A".into() } else { (r + 1).to_string() }, b.by_hidden[r] * 100.0);
    }
    let _ = writeln!(out, "\nA banker's expectation by its hidden card, against this chart (% per stake; D: double):");
    let _ = write!(out, " ");
    for r in COLUMNS {
        let mark = if b.double[r] { "D" } else { "" };
        let _ = write!(
            out,
            " {}:{:+.1}{mark}",
            if r == ACE { "A".into() } else { (r + 1).to_string() },
            b.banker_by_hidden[r] * 100.0
        );
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::Code;

    #[test]
    fn north_american_is_the_textbook_chart_at_its_known_edge() {
        let r = analyze(&Rules::north_american()).unwrap();
        let c = &r.chart;
        // The six-deck S17 DAS late-surrender chart (Wizard of Odds).
        assert_eq!(c.cell(false, 16, TEN).two, Code::SurrenderHit);
        assert!(!c.cell(false, 16, TEN).more_hit, "16 of three cards stands against a ten");
        assert_eq!(c.cell(false, 15, TEN).two, Code::SurrenderHit);
        assert_eq!(c.cell(false, 11, ACE).two, Code::Hit);
        assert_eq!(c.cell(false, 12, 1).two, Code::Hit); // rank 1 is the two
        assert_eq!(c.cell(true, 18, 1).two, Code::Stand);
        assert_eq!(c.cell(true, 18, 4).two, Code::DoubleStand);
        assert!(c.split[8][5] && !c.split[8][6] && c.split[7][TEN] && !c.split[9][5]);
        assert!(r.chart_ev.ev <= r.optimal_ev.ev);
        assert!((r.chart_ev.ev * 100.0 + 0.3325).abs() < 0.001, "{}", r.chart_ev.ev);
        let text = render(&r);
        assert!(text.contains("Rh/s"), "{text}");
    }

    #[test]
    fn every_rule_set_charts_no_better_than_optimal_play() {
        for rules in [Rules::swedish(), Rules::danish(), Rules::norwegian_home()] {
            let r = analyze(&rules).unwrap();
            assert!(r.chart_ev.ev <= r.optimal_ev.ev + 1e-12, "{}", r.variant);
            assert!(r.chart_ev.ev > -0.2 && r.chart_ev.ev < 0.0, "{}: {}", r.variant, r.chart_ev.ev);
        }
    }
}
