//! An upload from its slot to its verdict, for the API and the upload
//! form alike: the entrant is known and holds an upload slot
//! ([`crate::guards::UploadSlot`]) before any byte of the body is read;
//! the check then waits its turn for a check slot (one per core, first
//! come first served) and runs off the async threads. The slots travel
//! into the blocking work, so a request that times out frees nothing
//! while its check still runs.

use axum::body::Bytes;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};

use crate::auth::{EntrantCaller, EntrantVisitor};
use crate::db::{Entrant, Outcome};
use crate::guards::UploadSlot;
use crate::state::{Failure, Shared};
use crate::verdict::{Upload, Verdict, judge};

/// An entrant by bearer token, holding an upload slot.
pub struct ApiUpload {
    pub entrant: Entrant,
    pub slot: UploadSlot,
}

impl FromRequestParts<Shared> for ApiUpload {
    type Rejection = Failure;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Failure> {
        let EntrantCaller(entrant) = EntrantCaller::from_request_parts(parts, app).await?;
        let slot = app.guards.upload_slot(entrant.id)?;
        Ok(ApiUpload { entrant, slot })
    }
}

/// An entrant's browser session, holding an upload slot.
pub struct PageUpload {
    pub visitor: EntrantVisitor,
    pub slot: UploadSlot,
}

impl FromRequestParts<Shared> for PageUpload {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Response> {
        let visitor = EntrantVisitor::from_request_parts(parts, app).await?;
        let slot = app.guards.upload_slot(visitor.entrant.id).map_err(IntoResponse::into_response)?;
        Ok(PageUpload { visitor, slot })
    }
}

/// Judges an upload: waits for a check slot, checks off the async
/// threads, records the verdict; a pass queues a run after the debounce.
pub async fn judge_upload(
    app: &Shared,
    who: Entrant,
    slot: UploadSlot,
    file_name: String,
    bytes: Bytes,
) -> Result<Verdict, Failure> {
    let asked = std::time::Instant::now();
    let permit = app.guards.check_slot().await?;
    let waited_ms = u64::try_from(asked.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mut verdict = app
        .blocking(move |app| {
            let _held = (slot, permit);
            let up = Upload { entrant: &who, file_name: &file_name, bytes: &bytes };
            judge(app, &up)
        })
        .await?;
    verdict.waited_ms = waited_ms;
    if verdict.outcome == Outcome::Passed {
        app.changed();
    }
    Ok(verdict)
}

/// The largest upload body: the module and the form's framing (a larger
/// one is refused in words by [`crate::oversize`]).
pub fn upload_limit(max_bytes: usize) -> usize {
    max_bytes + (64 << 10)
}
