//! `pitboss rules`: a rule set (or all four, or a league's) in plain words, generated
//! from the rules the engine enforces.

use anyhow::Result;
use pitboss_engine::Rules;

/// Print a rule set (or all four, or the rules of a league file) in plain words, generated from the
/// rules the engine enforces.
#[derive(clap::Args)]
pub struct Args {
    /// north-american, swedish, danish or norwegian-home.
    #[arg(conflicts_with = "league")]
    variant: Option<String>,
    /// The rules in force in this league file: its rule set with its
    /// `[rules]` overrides.
    #[arg(long, value_name = "FILE")]
    league: Option<std::path::PathBuf>,
}

/// Prints the rules, a list per rule set.
pub fn run(args: Args) -> Result<()> {
    if let Some(path) = &args.league {
        let league = pitboss_league::file::parse(path)?;
        for line in pitboss_league::file::league_rules(&league)?.describe() {
            out!("- {line}");
        }
        return Ok(());
    }
    let variants = match args.variant {
        Some(id) => vec![Rules::variant_by_id(&id)?],
        None => pitboss_sdk::Variant::ALL.to_vec(),
    };
    for (i, v) in variants.into_iter().enumerate() {
        if i > 0 {
            out!();
        }
        for line in Rules::for_variant(v).describe() {
            out!("- {line}");
        }
    }
    Ok(())
}
