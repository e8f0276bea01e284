//! Who is slow, as text: each bot's fuel a decision (its mean and its
//! largest), the mean against the league's `fuel_per_decision` cap, and
//! its share of all the bots' decision fuel; one row a bot in the
//! standings' order, the same cells for the terminal (`pitboss run`),
//! the report and the server's pages. A builtin runs natively and spends
//! no fuel: "native" and dashes, never a share of 0.

use pitboss_results::cost::{percent, permille, shares};
use pitboss_results::{Cost, Standing};

use crate::format::whole;

/// A share above this many tenths of a percent, of a run of at least
/// [`HOGS_FROM`] bots, is marked: one bot taking most of the run.
pub const HOG_PERMILLE: u64 = 500;

/// Bots a run needs before a share is marked (of two, one is always at
/// least half).
pub const HOGS_FROM: usize = 3;

/// One bot's cost, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostCells {
    /// The bot's name.
    pub name: String,
    /// Mean fuel a decision (`1,234`), or `native`.
    pub mean: String,
    /// The most fuel one decision spent, or `—`.
    pub max: String,
    /// The mean as a share of the cap (`1.2 %`), or `—`.
    pub of_cap: String,
    /// Its share of all the bots' decision fuel (`61.0 %`), or `—`.
    pub share: String,
    /// That share in tenths of a percent, where it has one.
    pub share_permille: Option<u64>,
    /// Its share is above [`HOG_PERMILLE`] in a run of [`HOGS_FROM`] bots
    /// or more.
    pub hog: bool,
}

/// A row per bot of `standings`, in their order, under a cap of `cap`
/// fuel a decision; empty when no bot has a cost (only builtins, or
/// results written before it was measured).
pub fn cost_cells(standings: &[Standing], cap: u64) -> Vec<CostCells> {
    let bots: Vec<(&str, Option<&Cost>)> =
        standings.iter().map(|s| (s.result.name.as_str(), s.result.cost.as_ref())).collect();
    cost_cells_of(&bots, cap)
}

/// [`cost_cells`] of bots given by name and cost, in their order (the
/// server keeps its standings' rows so).
pub fn cost_cells_of(bots: &[(&str, Option<&Cost>)], cap: u64) -> Vec<CostCells> {
    if bots.iter().all(|(_, c)| c.is_none()) {
        return Vec::new();
    }
    let many = bots.len() >= HOGS_FROM;
    let shares = shares(bots.iter().map(|(_, c)| *c));
    bots.iter()
        .zip(shares)
        .map(|((name, cost), share)| {
            let name = name.to_string();
            let dash = || "—".to_string();
            match cost {
                Some(c) => CostCells {
                    name,
                    mean: whole(c.per_decision()),
                    max: whole(c.fuel_max),
                    of_cap: percent(permille(c.per_decision(), cap)),
                    share: share.map_or_else(dash, percent),
                    share_permille: share,
                    hog: many && share.is_some_and(|p| p > HOG_PERMILLE),
                },
                None => CostCells {
                    name,
                    mean: "native".into(),
                    max: dash(),
                    of_cap: dash(),
                    share: dash(),
                    share_permille: None,
                    hog: false,
                },
            }
        })
        .collect()
}

/// The sentence that explains the cells, naming the cap.
pub fn cost_legend(cap: u64) -> String {
    format!(
        "Fuel a decision: what each bot's answers cost in the sandbox (the same on every machine; start-up not \
         counted; the league's cap is {} a decision). \"of run\": its share of all the bots' decision fuel, marked where one \
         bot of three or more takes more than half. A builtin runs natively: no fuel.",
        whole(cap)
    )
}
