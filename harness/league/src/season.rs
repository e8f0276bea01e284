//! Seasons: a file listing leagues; overall standings by season points,
//! with each league's rank beside it.
//!
//! **The ranking rule** is [`pitboss_results::overall`]'s, which the
//! competition server's leaderboard shares: a point for every bot finished
//! above plus one, none when disqualified or absent; points rank, total net
//! chips break ties. (Summed chips, the old rule, let a bot entered in one
//! league outrank one that won three.)

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use tabled::builder::Builder;
use tabled::settings::Style;

use crate::league::{self};
use pitboss_results::LeagueResult;

/// A season file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonFile {
    /// Display name.
    pub name: String,
    /// League files, relative to the season file, in display order.
    pub leagues: Vec<String>,
}

/// One bot's season.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeasonRow {
    /// 1-based overall rank.
    pub rank: usize,
    /// The bot's name (the same name across leagues is the same bot).
    pub name: String,
    /// Season points: in each league it entered, one point for every bot
    /// it finished above plus one (last place: 1), none if disqualified;
    /// a league it skipped gives none.
    pub points: u64,
    /// Net chips summed over its leagues (breaks ties on points).
    pub net: i64,
    /// Its rank in each league, `None` where it did not play.
    pub league_ranks: Vec<Option<usize>>,
}

/// A finished season.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeasonResult {
    /// Display name.
    pub name: String,
    /// Each league's result, in file order.
    pub leagues: Vec<LeagueResult>,
    /// Overall standings.
    pub standings: Vec<SeasonRow>,
}

/// Most leagues in a season.
pub const MAX_LEAGUES: usize = 100;

/// Reads, runs and ranks a season.
pub fn run(path: &Path, threads: Option<usize>) -> Result<SeasonResult> {
    let text = pitboss_host::files::read_text(path, pitboss_host::files::Kind::Season)?;
    let season: SeasonFile =
        toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.message()))?;
    if season.leagues.is_empty() || season.leagues.len() > MAX_LEAGUES {
        bail!("{}: a season lists 1 to {MAX_LEAGUES} leagues, this one {}", path.display(), season.leagues.len());
    }
    let base = path.parent().unwrap_or(Path::new("."));
    // Every league file is read and checked before any is played, so a
    // typo in the last one does not cost the first ones' running time.
    let mut parsed = Vec::new();
    for file in &season.leagues {
        let league_path: PathBuf = base.join(file);
        parsed.push((crate::file::parse(&league_path)?, league_path));
    }
    let sandbox = crate::sandbox()?;
    let mut leagues = Vec::new();
    for (league, league_path) in &parsed {
        let (result, _) = league::run_with(league, league_path, &sandbox, threads, &|_| ())?;
        leagues.push(result);
    }
    let mut names: Vec<String> = Vec::new();
    for l in &leagues {
        for s in &l.standings {
            if !names.contains(&s.result.name) {
                names.push(s.result.name.clone());
            }
        }
    }
    let mut rows: Vec<SeasonRow> = names
        .into_iter()
        .map(|name| {
            let (mut net, mut points): (i64, u64) = (0, 0);
            let league_ranks = leagues
                .iter()
                .map(|l| {
                    let s = l.standings.iter().find(|s| s.result.name == name)?;
                    // Each league's chips are bounded by 2^62 (its chip
                    // range); a sum of many saturates rather than wraps.
                    net = net.saturating_add(s.result.net);
                    let dq = s.status == pitboss_results::Status::Disqualified;
                    points += pitboss_results::overall::points(s.rank, l.standings.len(), dq);
                    Some(s.rank)
                })
                .collect();
            SeasonRow { rank: 0, name, points, net, league_ranks }
        })
        .collect();
    rows.sort_by(|a, b| pitboss_results::overall::order((a.points, a.net, &a.name), (b.points, b.net, &b.name)));
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i + 1;
    }
    Ok(SeasonResult { name: season.name, leagues, standings: rows })
}

/// The overall standings as a table: rank, bot, total net, then one rank
/// column per league.
pub fn table(season: &SeasonResult) -> String {
    let mut builder = Builder::default();
    let mut header = vec!["#".to_string(), "bot".to_string(), "points".to_string(), "total net chips".to_string()];
    header.extend(season.leagues.iter().map(|l| l.name.clone()));
    builder.push_record(header);
    for row in &season.standings {
        let mut record = vec![row.rank.to_string(), row.name.clone(), row.points.to_string(), row.net.to_string()];
        record.extend(row.league_ranks.iter().map(|r| r.map_or("-".to_string(), |r| r.to_string())));
        builder.push_record(record);
    }
    let mut out = builder.build().with(Style::rounded()).to_string();
    out.push_str("\nPoints: in each league, one for every bot finished above, plus one; none when disqualified or absent. League columns: rank in that league, - if absent.");
    out
}
