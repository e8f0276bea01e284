//! Every route, and the layers every request passes, declared once: a
//! time limit on the whole request (`408`), a body limit per route
//! (`413` from the `Content-Length` alone, before any byte is read), and
//! security headers on every answer (pages: a strict
//! `Content-Security-Policy`; reports set their own, which lets their
//! inline script run), and a refusal to a browser shown as a page of the
//! site (`browsed.rs`).

use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::routing::{get, post};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

use crate::answer::PAGE_POLICY;
use crate::state::Shared;
use crate::uploads::upload_limit;
use crate::{api, coaching, compare, download, login, organiser, pages, replays, scrimmage_pages, similarity, tries};

/// Largest body of any request but an upload, in bytes.
pub const SMALL_BODY: usize = 16 << 10;

/// Every route of `app`, with its layers.
pub fn routes(app: Shared) -> Router {
    let timeout = Duration::from_secs(app.competition.server.request_timeout_secs);
    let uploads = Router::new()
        .route("/api/submissions", post(api::upload).get(api::submissions))
        .route("/me/upload", post(pages::upload))
        .layer(RequestBodyLimitLayer::new(upload_limit(app.competition.uploads.max_bytes)))
        .layer(DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn_with_state(app.clone(), crate::oversize::refuse));
    let edited = tries::body_limit(app.competition.uploads.max_bytes);
    let editor = Router::new()
        .route("/me/try", get(tries::try_round).post(tries::try_post))
        .route("/me/submit", post(tries::submit))
        .layer(RequestBodyLimitLayer::new(edited))
        .layer(DefaultBodyLimit::max(edited));
    let small = Router::new()
        .route("/api/submissions/compare", get(compare::compare_json))
        .route("/me/compare", get(compare::compare_page))
        .route("/api/submissions/{id}", get(api::submission))
        .route("/submissions/{id}/source", get(crate::sources::source_page))
        .route("/api/submissions/{id}/activate", post(api::activate))
        .route("/api/me", get(api::me))
        .route("/api/leaderboard", get(api::leaderboard))
        .route("/api/leaderboard.csv", get(api::leaderboard_csv))
        .route("/api/grades.csv", get(api::grades))
        .route("/api/runs", get(api::runs).post(api::start_run))
        .route("/api/runs/final", post(api::start_final_run))
        .route("/api/runs/final/publish", post(api::publish))
        .route("/api/runs/{id}/bundle.tar", get(api::bundle))
        .route("/api/entrants", get(api::entrants).post(api::add_entrant))
        .route("/api/entrants/{name}", axum::routing::delete(api::remove_entrant))
        .route("/api/entrants/{name}/disable", post(api::disable_entrant))
        .route("/api/entrants/{name}/enable", post(api::enable_entrant))
        .route("/api/entrants/{name}/token", post(api::rotate_token))
        .route("/api/register", post(api::register))
        .route("/runs/{id}/{league}/{file}", get(api::run_file))
        .route("/runs/{id}/{league}/replay", get(replays::replay_page))
        .route("/runs/{id}/{league}/coach", get(coaching::coach_page))
        .route("/api/runs/{id}/{league}/coach", get(coaching::coach_json))
        .route("/api/runs/{id}/{league}/replay", get(replays::replay_json))
        .route("/api/runs/{id}/{league}/mine.tar", get(replays::mine_tar))
        .route("/api/scrimmages", post(scrimmage_pages::ask_json).get(scrimmage_pages::list_json))
        .route("/api/scrimmages/{id}/replay", get(replays::scrimmage_json))
        .route("/api/me/allow-scrimmages", post(scrimmage_pages::allow_json))
        .route("/me/scrimmages", get(scrimmage_pages::page_get).post(scrimmage_pages::page_post))
        .route("/me/scrimmages/allow", post(scrimmage_pages::allow_post))
        .route("/scrimmages/{id}/replay", get(replays::scrimmage_page))
        .route("/scrimmages/{id}/{file}", get(scrimmage_pages::file))
        .route("/", get(pages::leaderboard))
        .route("/download", get(download::download_page))
        .route("/download/pitboss", get(download::download_binary))
        .route("/download/bot.py", get(download::starter))
        .route("/copy.js", get(crate::copy::script))
        .route("/login", get(login::login_form).post(login::login))
        .route("/logout", post(login::logout))
        .route("/register", get(login::register_form).post(login::register))
        .route("/me", get(pages::me))
        .route("/me/activate", post(pages::activate))
        .route("/editor/lines.svg", get(tries::lines))
        .route("/editor/editor.js", get(tries::script))
        .route("/admin", get(organiser::admin))
        .route("/admin/entrants", post(organiser::admin_add))
        .route("/admin/entrant", post(organiser::admin_entrant))
        .route("/admin/runs", post(organiser::admin_run))
        .route("/admin/final", post(organiser::admin_final))
        .route("/admin/publish", post(organiser::admin_publish))
        .route("/admin/runs/{id}/verify", post(organiser::admin_verify))
        .route("/admin/submissions", get(organiser::submission_log))
        .route("/admin/grades.csv", get(organiser::admin_grades))
        .route("/admin/similarity", get(similarity::similarity_page))
        .route("/api/similarity", get(similarity::similarity_json))
        .layer(RequestBodyLimitLayer::new(SMALL_BODY));
    let header = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    small
        .merge(uploads)
        .merge(editor)
        .with_state(app.clone())
        .layer(axum::middleware::from_fn_with_state(app, crate::browsed::errors_as_pages))
        .layer(header(header::CONTENT_SECURITY_POLICY, PAGE_POLICY))
        .layer(header(header::X_FRAME_OPTIONS, "DENY"))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        .layer(header(header::CACHE_CONTROL, "no-store"))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, timeout))
}
