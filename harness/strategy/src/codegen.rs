//! The charts as Rust source for `bots/chart` (`src/generated.rs`):
//! plain byte tables a `no_std` bot reads without allocating.
//!
//! Encoding (the reader is `pitboss_chart::table`): a cell byte is the
//! code's index in [`Code::ALL`] (0 S, 1 H, 2 Dh, 3 Ds, 4 Rh, 5 Rs) plus 8
//! when three or more cards hit; `hard[t - 4][up]`, `soft[t - 12][up]`;
//! `split[pair]` and `banker_double` are bitmasks by rank (bit 0 the ace,
//! bit 9 the tens).

use std::fmt::Write;

use pitboss_engine::Rules;

use crate::chart::Code;
use crate::game::StrategyError;
use crate::report::{Report, analyze};

/// The rule sets with a generated chart, by their constant's name.
pub fn rule_sets() -> [(&'static str, Rules); 4] {
    [
        ("NORTH_AMERICAN", Rules::north_american()),
        ("SWEDISH", Rules::swedish()),
        ("DANISH", Rules::danish()),
        ("NORWEGIAN_HOME", Rules::norwegian_home()),
    ]
}

fn bits(flags: impl IntoIterator<Item = bool>) -> u16 {
    flags.into_iter().enumerate().fold(0, |m, (i, on)| m | u16::from(on) << i)
}

fn table(out: &mut String, name: &str, r: &Report) {
    let ev = r.chart_ev.ev * 100.0;
    let _ = writeln!(out, "\n/// `{}`: par {ev:+.4} % per original bet.", r.variant);
    let _ = writeln!(out, "pub const {name}: Table = Table {{");
    let _ = writeln!(out, "    hard: [");
    for row in &r.chart.hard {
        let _ = writeln!(out, "        {:?},", row.map(|c| c.byte()));
    }
    let _ = writeln!(out, "    ],\n    soft: [");
    for row in &r.chart.soft {
        let _ = writeln!(out, "        {:?},", row.map(|c| c.byte()));
    }
    let _ = writeln!(out, "    ],");
    let split = r.chart.split.map(bits);
    let _ = writeln!(out, "    split: {split:?},");
    let double = r.banker.as_ref().map_or(0, |b| bits(b.double));
    let _ = writeln!(out, "    banker_double: {double},\n}};");
}

/// The whole of `bots/chart/src/generated.rs`.
pub fn generated_source() -> Result<String, StrategyError> {
    let mut out = String::from(
        "//! Basic strategy charts computed by `pitboss-strategy` for each rule set's\n\
         //! defaults. Generated: do not edit. Regenerate with\n\
         //! `PITBOSS_BLESS=1 cargo test --release -p pitboss-strategy --test generated`.\n\n\
         use crate::table::Table;\n",
    );
    debug_assert_eq!(Code::ALL[0], Code::Stand);
    for (name, rules) in rule_sets() {
        let report = analyze(&rules)?;
        table(&mut out, name, &report);
    }
    Ok(out)
}
