//! A submission's source on its page (`GET /submissions/ID/source`): a
//! bot's `bot.py` or `bot.js` as the server keeps it, escaped, with line
//! numbers, in the site's layout. Only the entrant who uploaded it and the
//! organiser may read it (anyone else: "no such submission", as if it did
//! not exist). Only modules that passed are kept ([`crate::store`]), so a
//! failed upload's source is not there to show.

use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use maud::html;
use pitboss_host::lang::Runtime;
use pitboss_host::text::{excerpt, printable};

use crate::answer::Answer;
use crate::auth::Visitor;
use crate::db::Db;
use crate::error::Error;
use crate::page::{page, refuse};
use crate::state::{Shared, Who};

/// Most characters of a source shown (a source is at most `max_kib`).
const SHOWN_SOURCE: usize = 1 << 20;

/// A submission as its source page needs it.
struct Found {
    entrant: i64,
    entrant_name: String,
    file_name: String,
    sha256: Option<String>,
}

impl Db {
    /// Submission `id`: who sent it, its file name and its module's hash.
    fn submission_source(&self, id: i64) -> Result<Option<Found>, Error> {
        use rusqlite::OptionalExtension;
        let sql =
            "SELECT s.entrant, e.name, s.file_name, s.sha256 FROM submissions s JOIN entrants e ON e.id = s.entrant
                   WHERE s.id = ?1";
        let found = self.lock().query_row(sql, [id], |r| {
            Ok(Found { entrant: r.get(0)?, entrant_name: r.get(1)?, file_name: r.get(2)?, sha256: r.get(3)? })
        });
        Ok(found.optional()?)
    }
}

/// `GET /submissions/ID/source`: the entrant who sent it or the
/// organiser, by browser session.
pub async fn source_page(State(app): State<Shared>, Visitor(session): Visitor, UrlPath(id): UrlPath<i64>) -> Answer {
    let Some(session) = session else { return Ok(Redirect::to("/login").into_response()) };
    let organiser = matches!(session.who, Who::Admin);
    let own = match &session.who {
        Who::Entrant(e) => Some(e.id),
        Who::Admin => None,
    };
    let shown = app
        .blocking(move |app| {
            let Some(found) = app.db.submission_source(id)? else { return Ok(None) };
            if !organiser && own != Some(found.entrant) {
                return Ok(None);
            }
            // Only a bot's source is text; a kept module is the
            // passed bytes, stored by their hash.
            let path = found.sha256.as_deref().map(|sha| crate::paths::module_path(&app.dir, sha));
            let source = match path {
                Some(path) if Runtime::of(&path.to_string_lossy()).is_some() && path.is_file() => {
                    Some(String::from_utf8_lossy(&std::fs::read(path)?).into_owned())
                }
                _ => None,
            };
            Ok(Some((found, source)))
        })
        .await?;
    let Some((found, source)) = shown else {
        return Ok(refuse(StatusCode::NOT_FOUND, "No such submission of yours."));
    };
    let file_name = excerpt(&found.file_name, 100);
    let title = format!("#{id} {file_name}");
    let back =
        if organiser { format!("/admin/submissions?entrant={}", found.entrant_name) } else { format!("/me#sub-{id}") };
    let body = html! {
        h1 { "Submission #" (id) ": " (file_name) }
        p.small { "Sent by " (found.entrant_name)
            @if let Some(sha) = &found.sha256 { " · SHA-256 " code { (sha) } }
            " · " a href=(back) { "back" } }
        @match &source {
            Some(text) => {
                pre.source { @for (n, line) in printable(text, SHOWN_SOURCE).lines().enumerate() {
                    span.n { (n + 1) } (line) "\n"
                } }
            }
            None => p { "No source to show: only a bot's source (a .py or .js file) is text, and only a submission \
                         that passed its check is kept." }
        }
    };
    Ok(page(&title, Some(&session), body))
}
