//! The check plans, one per league of the competition: what an upload is
//! checked against (`pitboss check --league` with each league's rules and
//! limits).

use std::path::{Path, PathBuf};

use pitboss_host::Sandbox;
use pitboss_league::check::Plan;

use crate::competition::Competition;
use crate::error::Error;

/// The check plans, one per league.
pub struct Checker {
    pub(crate) plans: Vec<(String, Plan)>,
    /// The sandbox scores and comparisons play in.
    pub(crate) sandbox: Sandbox,
}

impl Checker {
    /// A plan per league of `competition`, from its league file with a
    /// placeholder bot written to `DIR/leagues/` (a plan is read from a
    /// league file; its bots are not).
    pub fn new(dir: &Path, competition: &Competition, sandbox: &Sandbox) -> Result<Checker, Error> {
        let folder = dir.join("leagues");
        std::fs::create_dir_all(&folder)?;
        let mut plans = Vec::new();
        for (i, league) in competition.leagues.iter().enumerate() {
            let path: PathBuf = folder.join(format!("league-{}.toml", i + 1));
            let text = league.with_bots([("placeholder", String::new())]).replace("path = \"\"", "builtin = \"basic\"");
            std::fs::write(&path, text)?;
            // A fault's replay command is read by the entrant, who has
            // no copy of this file: its limits go in as flags.
            let plan = Plan::league(&path, sandbox).and_then(Plan::limits_as_flags).map_err(Error::Plan)?;
            plans.push((league.name.clone(), plan));
        }
        Ok(Checker { plans, sandbox: sandbox.clone() })
    }
}
