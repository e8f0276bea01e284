//! `pitboss rules`: a rule set (or all four) in plain words, generated
//! from the rules the engine enforces.

use anyhow::Result;
use pitboss_engine::Rules;

/// Print a rule set (or all four) in plain words, generated from the
/// rules the engine enforces.
#[derive(clap::Args)]
pub struct Args {
    /// north-american, swedish, danish or norwegian-home.
    variant: Option<String>,
}

/// Prints the rules, a list per rule set.
pub fn run(args: Args) -> Result<()> {
    let variants = match args.variant {
        Some(id) => vec![Rules::variant_by_id(&id)?],
        None => pitboss_sdk::Variant::ALL.to_vec(),
    };
    for (i, v) in variants.into_iter().enumerate() {
        if i > 0 {
            out!();
        }
        for line in Rules::for_variant(v)?.describe() {
            out!("- {line}");
        }
    }
    Ok(())
}
