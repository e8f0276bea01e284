//! The charts as source for the bots that play them: Rust for
//! `bots/chart` (`src/generated.rs`), plain byte tables a `no_std` bot
//! reads without allocating.
//!
//! Encoding (the reader is `pitboss_chart::table`): a cell byte is the code's index in [`Code::ALL`]
//! (0 S, 1 H, 2 Dh, 3 Ds, 4 Rh, 5 Rs) plus 8 when three or more cards hit;
//! `hard[t - 4][up]`, `soft[t - 12][up]`; `split[pair]` and
//! `banker_double` are bitmasks by rank (bit 0 the ace, bit 9 the tens).

use std::fmt::Write;

use pitboss_engine::Rules;

use crate::chart::Code;
use crate::game::StrategyError;
use crate::index::{Indices, describe, indices};
use crate::report::{Report, analyze};

/// The rule sets with a generated chart, by their constant's name, in the
/// order of their variant codes.
pub fn rule_sets() -> [(&'static str, Rules); 4] {
    [
        ("NORTH_AMERICAN", Rules::north_american()),
        ("SWEDISH", Rules::swedish()),
        ("DANISH", Rules::danish()),
        ("NORWEGIAN_HOME", Rules::norwegian_home()),
    ]
}

/// The generated files, each a whole file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sources {
    /// `bots/chart/src/generated.rs`.
    pub rust: String,
}

/// A rule set's chart as the generated files hold it.
struct Tables {
    name: &'static str,
    /// The variant's id and its par, for the comment.
    about: String,
    hard: Vec<[u8; 10]>,
    soft: Vec<[u8; 10]>,
    split: [u16; 10],
    banker_double: u16,
}

fn bits(flags: impl IntoIterator<Item = bool>) -> u16 {
    flags.into_iter().enumerate().fold(0, |m, (i, on)| m | u16::from(on) << i)
}

fn tables(name: &'static str, r: &Report) -> Tables {
    let ev = r.chart_ev.ev * 100.0;
    Tables {
        name,
        about: format!("`{}`: par {ev:+.4} % per original bet.", r.variant),
        hard: r.chart.hard.iter().map(|row| row.map(|c| c.byte())).collect(),
        soft: r.chart.soft.iter().map(|row| row.map(|c| c.byte())).collect(),
        split: r.chart.split.map(bits),
        banker_double: r.banker.as_ref().map_or(0, |b| bits(b.double)),
    }
}

fn rust_table(out: &mut String, t: &Tables) {
    let _ = writeln!(out, "\n/// {}", t.about);
    let _ = writeln!(out, "pub const {}: Table = Table {{", t.name);
    let _ = writeln!(out, "    hard: [");
    for row in &t.hard {
        let _ = writeln!(out, "        {row:?},");
    }
    let _ = writeln!(out, "    ],\n    soft: [");
    for row in &t.soft {
        let _ = writeln!(out, "        {row:?},");
    }
    let _ = writeln!(out, "    ],");
    let _ = writeln!(out, "    split: {:?},", t.split);
    let _ = writeln!(out, "    banker_double: {},\n}};", t.banker_double);
}

fn rust_indices(out: &mut String, name: &str, variant: &str, ix: &Indices) {
    let _ = writeln!(out, "\n/// `{variant}`: Hi-Lo indices (count-favoured play at this true count or above).");
    if ix.list.is_empty() {
        let _ = writeln!(out, "/// One deck shuffled every round: nothing to count.");
    }
    for i in &ix.list {
        let crossing = i.crossing.map_or_else(|| "none in -10..=10".to_string(), |c| format!("{c:+.2}"));
        let _ = writeln!(out, "/// - {}: {:+} (crossing {crossing})", describe(i.decision), i.index);
    }
    let _ = writeln!(out, "pub const {name}_INDICES: Indices = Indices {{");
    let _ = writeln!(out, "    insurance: {},", ix.insurance);
    for (field, rows) in [("stand", &ix.stand[..]), ("double", &ix.double[..]), ("surrender", &ix.surrender[..])] {
        let _ = writeln!(out, "    {field}: [");
        for row in rows {
            let _ = writeln!(out, "        {row:?},");
        }
        let _ = writeln!(out, "    ],");
    }
    let _ = writeln!(out, "    split_tens: {:?},\n}};", ix.split_tens);
}

const REGENERATE: &str = "PITBOSS_BLESS=1 cargo test --release -p pitboss-strategy --test generated";

/// The generated chart file, from one analysis of each rule set.
pub fn generated_sources() -> Result<Sources, StrategyError> {
    debug_assert_eq!(Code::ALL[0], Code::Stand);
    let mut all = Vec::new();
    let mut counts = Vec::new();
    for (name, rules) in rule_sets() {
        all.push(tables(name, &analyze(&rules)?));
        counts.push((name, rules.variant.id(), indices(&rules)?));
    }

    let mut rust = format!(
        "//! Basic strategy charts computed by `pitboss-strategy` for each rule set's\n\
         //! defaults, and each rule set's Hi-Lo index numbers. Generated: do not\n\
         //! edit. Regenerate with\n\
         //! `{REGENERATE}`.\n\n\
         use crate::table::{{Indices, Table}};\n",
    );
    for t in &all {
        rust_table(&mut rust, t);
    }
    for (name, variant, ix) in &counts {
        rust_indices(&mut rust, name, variant, ix);
    }

    Ok(Sources { rust })
}

/// The rule sets whose luck tables are stored (the dealer games), by
/// their variant's name in the SDK.
fn luck_rule_sets() -> [(&'static str, Rules); 3] {
    [("NorthAmerican", Rules::north_american()), ("Swedish", Rules::swedish()), ("Danish", Rules::danish())]
}

/// `harness/strategy/src/stored/generated.rs`: the analyzer's part of each
/// dealer rule set's luck tables ([`crate::stored::Stored`]), so a league
/// reads them rather than spending a quarter of a second on them. Every
/// value is written as Rust's shortest round-trip decimal, so it reads
/// back to the same bits.
pub fn luck_source() -> Result<String, StrategyError> {
    let sets = luck_rule_sets();
    let mut out = format!(
        "//! The analyzer's part of each dealer rule set's luck tables\n\
         //! (`super::Stored`), for its defaults: what `Stored::compute` gives.\n\
         //! Generated: do not edit. Regenerate with\n\
         //! `{REGENERATE}`.\n\n\
         use pitboss_sdk::Variant;\n\n\
         use super::Stored;\n\n\
         /// Each dealer rule set's stored tables, by variant.\n\
         pub static BY_VARIANT: [(Variant, Stored); {}] = [\n",
        sets.len()
    );
    for (name, rules) in sets {
        let s = crate::luck::Stored::compute(&rules)?;
        let _ = writeln!(out, "    (\n        Variant::{name},\n        Stored {{");
        for (field, values) in
            [("deal3", &s.deal3[..]), ("hit", &s.hit[..]), ("doubled", &s.doubled[..]), ("split", &s.split[..])]
        {
            let _ = writeln!(out, "            {field}: [");
            for row in values.chunks(6) {
                let row: Vec<String> = row.iter().map(|v| format!("{v:?}")).collect();
                let _ = writeln!(out, "                {},", row.join(", "));
            }
            let _ = writeln!(out, "            ],");
        }
        let _ = writeln!(out, "        }},\n    ),");
    }
    out.push_str("];\n");
    Ok(out)
}
