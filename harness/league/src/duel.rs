//! Two bots on the same shoes: a league of exactly two bots in the
//! duplicate (`solo`) format, each alone at its own table dealt the same
//! cards, so luck is shared and the difference is skill. Gives each bot's
//! EV with its 95 % interval and the paired difference of their net chips
//! per round with its own interval (which is far narrower than either
//! EV's, the cards being the same). The competition server scores every
//! passing submission against `basic` this way and compares two of one's
//! submissions.

use std::path::Path;

use anyhow::{Result, bail};
use pitboss_host::Sandbox;
use pitboss_results::{Format, Status};
use serde::Serialize;

use crate::file::LeagueFile;
use crate::league::{assemble, run_sessions};

/// One side of a duel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Side {
    pub name: String,
    /// Net per 100 chips initially staked.
    pub ev_pct: f64,
    /// Half-width of its 95 % interval.
    pub ci95_pct: f64,
    /// Net chips over the duel.
    pub net: i64,
    pub faults: u64,
    /// `in play`, `broke` or `disqualified`.
    pub status: String,
}

/// What a duel found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Duel {
    /// Rounds each bot played (every session's).
    pub rounds: u64,
    /// The league's bots, in its order.
    pub sides: [Side; 2],
    /// The first bot's net minus the second's, in chips per 100 rounds.
    pub diff_per_100_rounds: f64,
    /// Half-width of the paired 95 % interval of that difference.
    pub diff_ci95: f64,
}

/// Plays `league` (two bots, any format but the bank's, played as
/// `solo`), its file at `path`, on one thread.
pub fn duel(league: &LeagueFile, path: &Path, sandbox: &Sandbox) -> Result<Duel> {
    if league.bots.len() != 2 {
        bail!("a duel is two bots; {} has {}", league.origin, league.bots.len());
    }
    if league.format == Format::Bank {
        bail!("the banker game's bank format has no duplicate shoes to compare two bots on");
    }
    let mut league = league.clone();
    league.format = Format::Solo;
    let played = run_sessions(&league, path, sandbox, Some(1), &|_| (), None)?;
    let (result, _) = assemble(&league, played.sources, &played.sessions)?;
    let (mut stats, mut pair) = ([pitboss_engine::Stats::default(); 2], 0i128);
    for s in &played.sessions {
        stats[0].merge(&s.bots[0].stats);
        stats[1].merge(&s.bots[1].stats);
        pair += s.pairs[1];
    }
    let rounds = league.rounds * league.sessions;
    let r = rounds.max(1) as f64;
    let d = (stats[0].net - stats[1].net) as f64 / r;
    let e_d2 = (stats[0].net_sq + stats[1].net_sq - 2 * pair) as f64 / r;
    let se = ((e_d2 - d * d).max(0.0) / r).sqrt();
    let side = |name: &str| -> Result<Side> {
        let Some(s) = result.standings.iter().find(|s| s.result.name == name) else {
            bail!("bot {name} is missing from the duel's standings")
        };
        let status = match s.status {
            Status::Active => "in play",
            Status::Broke => "broke",
            Status::Disqualified => "disqualified",
        };
        Ok(Side {
            name: name.to_string(),
            ev_pct: s.ev_pct,
            ci95_pct: s.ev_ci95_pct,
            net: s.result.net,
            faults: s.result.faults,
            status: status.to_string(),
        })
    };
    let names: Vec<&str> = result.standings.iter().map(|s| s.result.name.as_str()).collect();
    let first = played_name(&league, 0, &names)?;
    let second = played_name(&league, 1, &names)?;
    Ok(Duel {
        rounds,
        sides: [side(&first)?, side(&second)?],
        diff_per_100_rounds: d * 100.0,
        diff_ci95: 1.96 * se * 100.0,
    })
}

/// The name bot `k` of `league` played under (its `name`, which a duel's
/// league always gives).
fn played_name(league: &LeagueFile, k: usize, names: &[&str]) -> Result<String> {
    match league.bots[k].name.as_deref() {
        Some(name) if names.contains(&name) => Ok(name.to_string()),
        _ => bail!("bot {} of a duel needs a name", k + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn league(a: (&str, &str), b: (&str, &str)) -> LeagueFile {
        let text = format!(
            "name = \"duel\"\nvariant = \"north-american\"\nrounds = 4000\nsessions = 2\nseed = 3\nbankroll = 1000000\n\
             [[bot]]\nname = \"{}\"\nbuiltin = \"{}\"\n[[bot]]\nname = \"{}\"\nbuiltin = \"{}\"\n",
            a.0, a.1, b.0, b.1
        );
        crate::file::parse_text(&text, "duel.toml", "duel.toml").unwrap()
    }

    #[test]
    fn a_bot_against_itself_differs_by_nothing_and_basic_beats_random_clearly() {
        let sandbox = crate::sandbox().unwrap();
        let at = Path::new("duel.toml");
        let same = duel(&league(("a", "basic"), ("b", "basic")), at, &sandbox).unwrap();
        assert_eq!((same.diff_per_100_rounds, same.diff_ci95), (0.0, 0.0), "same shoes, same play: {same:?}");
        assert_eq!(same.sides[0].ev_pct, same.sides[1].ev_pct);
        let d = duel(&league(("basic", "basic"), ("random", "random")), at, &sandbox).unwrap();
        assert_eq!(d.rounds, 8000);
        assert_eq!(d.sides[0].name, "basic");
        assert!(d.diff_per_100_rounds > d.diff_ci95 && d.diff_ci95 > 0.0, "basic is clearly ahead of random: {d:?}");
        let again = duel(&league(("basic", "basic"), ("random", "random")), at, &sandbox).unwrap();
        assert_eq!(d, again, "deterministic");
        let flipped = duel(&league(("random", "random"), ("basic", "basic")), at, &sandbox).unwrap();
        assert!((flipped.diff_per_100_rounds + d.diff_per_100_rounds).abs() < 1e-9, "{flipped:?}");
        assert!((flipped.diff_ci95 - d.diff_ci95).abs() < 1e-9);
    }
}
