//! Entrants as the organiser manages them: registering one (a name unique
//! whatever its letter case, under the competition's `[entrants] max`),
//! disabling and re-enabling, removing, and giving a new token. Blocking
//! (SQLite): called through [`crate::state::App::blocking`].

use axum::http::StatusCode;

use crate::auth;
use crate::competition::valid_name;
use crate::db::{Db, Entrant, NotAdded};
use crate::error::Error;
use crate::state::App;

/// Registers `name` under `max` entrants; returns their token (shown
/// once).
pub fn register(db: &Db, name: &str, max: u64) -> Result<String, Error> {
    if !valid_name(name) {
        return Err(Error::BadName(pitboss_host::text::excerpt(name, 40)));
    }
    let token = auth::new_secret("pbe_")?;
    match db.add_entrant(name, &auth::hash(&token), max)? {
        Ok(_) => Ok(token),
        Err(NotAdded::Taken) => Err(Error::Taken(name.to_string())),
        Err(NotAdded::Full) => Err(Error::Full(max)),
    }
}

/// What the organiser does to an entrant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Disable,
    Enable,
    Remove,
    /// A new token; the old one and their sessions stop working.
    NewToken,
}

impl Action {
    /// The action a form's `action` field names.
    pub fn parse(text: &str) -> Option<Action> {
        Some(match text {
            "disable" => Action::Disable,
            "enable" => Action::Enable,
            "remove" => Action::Remove,
            "token" => Action::NewToken,
            _ => return None,
        })
    }
}

/// Does `action` to the entrant named `name` (letter case aside): `None`
/// when there is no such entrant, else the entrant and, for
/// [`Action::NewToken`], the new token.
pub fn manage(app: &App, name: &str, action: Action) -> Result<Option<(Entrant, Option<String>)>, Error> {
    let Some(entrant) = app.db.entrant_by_name(name)? else { return Ok(None) };
    let token = match action {
        Action::Disable | Action::Enable => {
            app.db.set_disabled(entrant.id, action == Action::Disable)?;
            None
        }
        Action::Remove => {
            let shas = app.db.remove_entrant(entrant.id)?;
            app.modules.forget(&app.dir, &app.db, &shas)?;
            None
        }
        Action::NewToken => {
            let token = auth::new_secret("pbe_")?;
            app.db.set_token(entrant.id, &auth::hash(&token))?;
            Some(token)
        }
    };
    if action != Action::NewToken {
        // Who plays changed.
        app.changed();
    }
    Ok(Some((entrant, token)))
}

/// The status of a registration that did not happen.
pub fn refused_registration(e: &Error) -> Option<StatusCode> {
    match e {
        Error::BadName(_) => Some(StatusCode::BAD_REQUEST),
        Error::Taken(_) => Some(StatusCode::CONFLICT),
        Error::Full(_) => Some(StatusCode::FORBIDDEN),
        _ => None,
    }
}
