//! Importing a run played elsewhere (`pitboss serve FILE --data DIR
//! --import-run results.json --league K`): a league exported from a run's
//! bundle, played as shards on a cluster and merged with `pitboss merge`,
//! comes back as a finished run on the leaderboard and in the history.
//!
//! The results file is trusted only as far as it proves itself: its
//! embedded league text (checked against its SHA-256 and parse) must be
//! exactly the league file this server writes for league K with the same
//! bots, every bot must be an entrant's module stored here (by SHA-256),
//! and every session must be there. The run's files are written to a
//! staging folder first and moved into `DIR/runs/N/` in the same database
//! transaction that records it `done`, so a failed import leaves nothing.

use std::path::Path;

use pitboss_results::ResultsFile;

use crate::app::Options;
use crate::competition::{self, Competition};
use crate::db::{Db, now};
use crate::worker::{LeagueStandings, Summary, overall, rows, run_dir};
use crate::{Error, store};

/// What was imported.
#[derive(Debug)]
pub struct Imported {
    /// The new run's id.
    pub run: i64,
    /// The league's name.
    pub league: String,
    /// Bots that played.
    pub bots: usize,
}

/// Imports the merged results at `path` as a finished run of league
/// `league` (1-based); refuses with a one-line reason
/// ([`Error::Import`]) anything that is not a complete run of that league
/// with bots stored here.
pub fn import_run(options: &Options, path: &Path, league: usize) -> Result<Imported, Error> {
    let competition = competition::read(&options.competition)?;
    let (db, _) = crate::app::open(options, &competition)?;
    let results = pitboss_results::read(path).map_err(|e| Error::Import(format!("{e:#}")))?;
    let label = path.display().to_string();
    verify(&competition, &db, &options.data, &results, &label, league)?;

    let folder = format!("league-{league}");
    let stage = options.data.join("runs").join(format!(".import-{}-{}", std::process::id(), now()));
    let written = write_files(&options.data, &stage.join(&folder), path, &results);
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&stage);
        return Err(e);
    }
    let r = &results.result;
    let standings = LeagueStandings {
        name: r.name.clone(),
        variant: r.variant.clone(),
        folder,
        rounds: r.rounds,
        sessions: r.sessions,
        rows: rows(&r.standings),
    };
    let bots: Vec<(String, String)> =
        results.bots.iter().map(|b| (b.name.clone(), b.sha256.clone().unwrap_or_default())).collect();
    let n_bots = bots.len();
    let file_name = path.file_name().map_or_else(|| label.clone(), |n| n.to_string_lossy().into_owned());
    let reason = format!("imported {file_name} (league {league})");
    let id = db.add_done_run(&reason, |id| {
        let to = run_dir(&options.data, id);
        if to.exists() {
            std::fs::remove_dir_all(&to)?;
        }
        std::fs::rename(&stage, &to)?;
        let leagues = vec![standings];
        let overall = overall(&leagues);
        Ok(serde_json::to_string(&Summary { run: id, finished: now(), bots, leagues, overall })?)
    });
    if id.is_err() {
        let _ = std::fs::remove_dir_all(&stage);
    }
    Ok(Imported { run: id?, league: r.name.clone(), bots: n_bots })
}

/// Whether `results` is a complete run of league `league` of
/// `competition` with bots stored in `dir`; else the one-line reason.
fn verify(
    competition: &Competition,
    db: &Db,
    dir: &Path,
    results: &ResultsFile,
    label: &str,
    league: usize,
) -> Result<(), Error> {
    let refuse = |why: String| Err(Error::Import(format!("{label}: {why}")));
    let count = competition.leagues.len();
    let Some(template) = league.checked_sub(1).and_then(|i| competition.leagues.get(i)) else {
        return refuse(format!("this competition has no league {league} (it has 1 to {count})"));
    };
    pitboss_league::file::embedded(&results.league, label).map_err(|e| Error::Import(format!("{e:#}")))?;
    let mut paths = Vec::new();
    for bot in &results.bots {
        let Some(sha) = bot.sha256.as_deref().filter(|s| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit()))
        else {
            return refuse(format!("bot `{}` is not an uploaded module", pitboss_host::text::excerpt(&bot.name, 40)));
        };
        if !store::module_path(dir, sha).is_file() || !db.has_entrant(&bot.name)? {
            return refuse(format!(
                "bot `{}` ({}…) is not an entrant's module stored here",
                pitboss_host::text::excerpt(&bot.name, 40),
                &sha[..16]
            ));
        }
        paths.push((bot.name.as_str(), format!("bots/{sha}.wasm")));
    }
    if results.league.text != template.with_bots(paths) {
        let played = &results.league.parsed;
        return refuse(format!(
            "not a run of league {league} (`{}`) of this competition: it embeds league `{}` (seed {}, {} sessions × {} rounds), \
             not the league file this server writes for these bots",
            template.name,
            pitboss_host::text::excerpt(&played.name, 40),
            played.seed,
            played.sessions,
            played.rounds
        ));
    }
    if results.sessions.len() as u64 != results.league.parsed.sessions {
        return refuse(format!(
            "holds {} of the league's {} sessions: merge every shard first (`pitboss merge`)",
            results.sessions.len(),
            results.league.parsed.sessions
        ));
    }
    Ok(())
}

/// Writes a run's league folder at `to`: the league file, its bots, the
/// results file as given, and its report.
fn write_files(dir: &Path, to: &Path, path: &Path, results: &ResultsFile) -> Result<(), Error> {
    std::fs::create_dir_all(to.join("bots"))?;
    std::fs::write(to.join("league.toml"), &results.league.text)?;
    for sha in results.bots.iter().filter_map(|b| b.sha256.as_deref()) {
        store::copy_out(dir, sha, &to.join("bots").join(format!("{sha}.wasm")))?;
    }
    std::fs::copy(path, to.join("results.json"))?;
    crate::worker::write_reports(to, results)
}
