//! `pitboss strategy`: a rule set's exact basic strategy (or a league's,
//! overrides included), each decision's margin and the EV off the top.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use pitboss_engine::Rules;

use crate::common::variant_parser;

/// Print a rule set's basic strategy, computed exactly: the chart (hard,
/// soft, pairs × up card) with each cell's margin over the next best play,
/// and the EV off the top of a fresh shoe.
#[derive(clap::Args)]
pub struct Args {
    /// Rule set: north-american, swedish, danish or norwegian-home.
    #[arg(value_parser = variant_parser())]
    variant: pitboss_sdk::Variant,
    /// Apply this league file's [rules] overrides (its variant must match).
    #[arg(long, value_name = "FILE.toml")]
    league: Option<PathBuf>,
    /// Print the analysis as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Analyses the rules and prints the chart.
pub fn run(args: Args) -> Result<()> {
    let rules = match &args.league {
        None => Rules::for_variant(args.variant),
        Some(path) => {
            let league = pitboss_league::file::parse(path)?;
            if Rules::variant_by_id(&league.variant)? != args.variant {
                bail!("{}: its variant is {}, not {}", path.display(), league.variant, args.variant.id());
            }
            pitboss_league::file::league_rules(&league)?
        }
    };
    let report = pitboss_strategy::analyze(&rules).context("analysing the rules")?;
    if args.json {
        out!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out_raw!("{}", pitboss_strategy::render(&report));
    }
    Ok(())
}
