//! `pitboss check BOT.wasm`: validate a module, play a short smoke match
//! in every playable rule set, and report per decision kind how often it
//! was asked, how often it faulted and how much fuel it used.

use std::path::Path;

use anyhow::Result;
use pitboss_engine::{Player, Rules, Shoe, Table, TableEvent, derive_seed};
use pitboss_host::{Sandbox, files};
use pitboss_sdk::{Decision, Variant};
use tabled::Tabled;
use tabled::settings::Style;

/// Rounds of each smoke match.
pub const SMOKE_ROUNDS: u64 = 2_000;

/// One row of the report: a decision kind in one rule set.
#[derive(Clone, Debug, PartialEq, Eq, Tabled)]
pub struct KindReport {
    /// Decision kind.
    #[tabled(rename = "decision")]
    pub decision: &'static str,
    /// Times asked.
    #[tabled(rename = "asked")]
    pub asked: u64,
    /// Times it faulted.
    #[tabled(rename = "faults")]
    pub faults: u64,
    /// Median fuel per call.
    #[tabled(rename = "fuel median")]
    pub fuel_median: u64,
    /// Most fuel of one call.
    #[tabled(rename = "fuel max")]
    pub fuel_max: u64,
    /// The per-decision limit.
    #[tabled(rename = "limit")]
    pub limit: u64,
}

/// The outcome of checking one bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// Per rule set: the variant and its rows (empty if unplayable yet).
    pub variants: Vec<(Variant, Vec<KindReport>)>,
    /// First fault message per rule set, if any.
    pub first_faults: Vec<String>,
}

impl CheckReport {
    /// Did any decision fault?
    pub fn faulted(&self) -> bool {
        self.variants.iter().flat_map(|(_, rows)| rows).any(|r| r.faults > 0)
    }

    /// The report as text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (variant, rows) in &self.variants {
            if rows.is_empty() {
                out.push_str(&format!("{}: not playable yet, skipped\n", variant.id()));
                continue;
            }
            out.push_str(&format!("{}: {SMOKE_ROUNDS} rounds\n", variant.id()));
            out.push_str(&tabled::Table::new(rows).with(Style::rounded()).to_string());
            out.push('\n');
        }
        for line in &self.first_faults {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// Loads `path` (an error is the load-time refusal) and smoke-tests it.
pub fn check(path: &Path, sandbox: &Sandbox) -> Result<CheckReport> {
    let bytes = files::read_regular(path, files::Kind::Bot)?;
    let module = sandbox.load(&path.display().to_string(), &bytes)?;
    let limit = sandbox.limits().fuel_per_decision;
    let mut variants = Vec::new();
    let mut first_faults = Vec::new();
    for variant in Variant::ALL {
        let Ok(rules) = Rules::for_variant(variant) else {
            variants.push((variant, Vec::new()));
            continue;
        };
        let mut player = module.instantiate()?;
        let profile = player.profile();
        let players: Vec<Box<dyn Player + Send>> = vec![Box::new(player)];
        let shoe = Shoe::seeded(rules.decks, rules.cut_card, derive_seed(0x5eed, variant as u64));
        let mut table = Table::new(rules, shoe, players, 1_000_000)?;
        let mut asked = [0u64; Decision::ALL.len()];
        let mut faults = [0u64; Decision::ALL.len()];
        let mut first = None;
        for _ in 0..SMOKE_ROUNDS {
            let played = table.play_round(&mut |e: &TableEvent| match e {
                TableEvent::Asked { kind, .. } => asked[*kind as usize] += 1,
                TableEvent::Fault { kind, fault, round, .. } => {
                    faults[*kind as usize] += 1;
                    first.get_or_insert_with(|| {
                        format!(
                            "{}: first fault in round {round}, {} decision: {} ({})",
                            variant.id(),
                            kind.name(),
                            fault.message,
                            fault.kind.name()
                        )
                    });
                }
                _ => {}
            });
            played?;
        }
        first_faults.extend(first);
        let profile = profile.lock().expect("profile lock");
        let rows = Decision::ALL
            .into_iter()
            .filter(|k| asked[*k as usize] > 0)
            .map(|k| {
                let mut used = profile.used[k as usize].clone();
                used.sort_unstable();
                KindReport {
                    decision: k.name(),
                    asked: asked[k as usize],
                    faults: faults[k as usize],
                    fuel_median: used.get(used.len() / 2).copied().unwrap_or(0),
                    fuel_max: used.last().copied().unwrap_or(0),
                    limit,
                }
            })
            .collect();
        variants.push((variant, rows));
    }
    Ok(CheckReport { variants, first_faults })
}
