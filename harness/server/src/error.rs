//! The server's one error type: what can stop the server or one of its
//! requests ([`crate::answer::Failure`] is how a request's error is
//! answered), typed by what failed.
//!
//! The libraries a run, a check, a replay or a report goes through
//! (`pitboss-league`, `-report`, `-cluster`, `-coach`) answer with
//! `anyhow` chains; the server keeps such a chain whole in the variant
//! of the step that failed ([`Error::Sandbox`], [`Error::Plan`],
//! [`Error::LeagueFile`], [`Error::Play`], [`Error::Replay`],
//! [`Error::Report`], [`Error::Slurm`], [`Error::NotImportable`]), and
//! writes it the one way, `a: b: c` on one line, here. Such a variant
//! has no `source`: its text is the whole chain already, and a caller
//! printing `{:#}` (the CLI) would repeat it.

use std::path::PathBuf;

/// What can stop the server or one of its requests.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The competition file is wrong (one line, `file:line: problem`).
    #[error("{0}")]
    Competition(String),
    /// A league could not be checked or played (the server's own words).
    #[error("{0}")]
    League(String),
    /// The wasm sandbox could not start.
    #[error("{0:#}")]
    Sandbox(anyhow::Error),
    /// A league's check plan could not be made.
    #[error("{0:#}")]
    Plan(anyhow::Error),
    /// A league file (a run's, a duel's) could not be read.
    #[error("{0:#}")]
    LeagueFile(anyhow::Error),
    /// A league or a duel could not be played.
    #[error("{0:#}")]
    Play(anyhow::Error),
    /// A round could not be replayed.
    #[error("{0:#}")]
    Replay(anyhow::Error),
    /// A report or the coach's section could not be written.
    #[error("{0:#}")]
    Report(anyhow::Error),
    /// A league could not be staged, played or proved on Slurm.
    #[error("{0:#}")]
    Slurm(anyhow::Error),
    /// A results file an import refuses because it cannot be read, replayed
    /// or added up (the file's label and the step in its context).
    #[error("{0:#}")]
    NotImportable(anyhow::Error),
    /// The database.
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// A file or socket.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A results file that cannot be read or trusted.
    #[error(transparent)]
    Results(#[from] pitboss_results::Error),
    /// A file that cannot be read or written whole.
    #[error(transparent)]
    File(#[from] pitboss_host::files::FileError),
    /// JSON.
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
    /// A name that cannot be an entrant's.
    #[error("`{0}` is not an entrant name: 1 to 32 letters, digits, - or _")]
    BadName(String),
    /// An entrant of that name exists.
    #[error("there is already an entrant named `{0}`")]
    Taken(String),
    /// A results file that cannot be imported (one line: why).
    #[error("{0}")]
    Import(String),
    /// Over a rate limit: what, and the seconds to wait.
    #[error("{0}")]
    Limited(String, u64),
    /// The competition has its most entrants.
    #[error("this competition has its most entrants ({0}); the organiser may raise [entrants] max")]
    Full(u64),
    /// The data folder cannot be used.
    #[error("data folder {0}: {1}")]
    Data(PathBuf, String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_librarys_chain_is_one_line_in_its_own_words_and_not_repeated() {
        let chain = || anyhow::anyhow!("no such file").context("cannot read bot.wasm").context("cannot replay it");
        let typed = [
            Error::Sandbox(chain()),
            Error::Plan(chain()),
            Error::LeagueFile(chain()),
            Error::Play(chain()),
            Error::Replay(chain()),
            Error::Report(chain()),
            Error::Slurm(chain()),
            Error::NotImportable(chain()),
        ];
        for e in typed {
            // The words `format!("{e:#}")` wrote before, once.
            assert_eq!(e.to_string(), "cannot replay it: cannot read bot.wasm: no such file");
            assert!(std::error::Error::source(&e).is_none(), "{e:?} would be printed twice by `{{:#}}`");
            assert_eq!(format!("{:#}", anyhow::Error::new(e)), "cannot replay it: cannot read bot.wasm: no such file");
        }
    }
}
