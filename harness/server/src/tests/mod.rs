//! In-process tests of the whole router ([`crate::routes::routes`]),
//! called with `tower::ServiceExt::oneshot`: no socket, no process, a
//! fresh data folder per [`Site`]. They cover who may call what, the
//! CSRF extractors, every page's status and key content and every JSON
//! shape. Timeouts, floods, a kill -9 and Chromium stay in the socket
//! tests (`tests/integration/server*.rs`).

mod api;
mod callers;
mod cost;
mod csrf;
mod hostile;
mod journeys;
mod pages;
mod runs;
mod similarity;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use pitboss_host::Sandbox;
use tower::ServiceExt;

use crate::auth;
use crate::competition;
use crate::db::{Db, now};
use crate::guards::Guards;
use crate::plans::Checker;
use crate::state::{App, Bell, Shared};

/// A competition with one league, self-registration and public reports.
pub const COMPETITION: &str = "name = \"Class\"\npublic_reports = true\n[entrants]\ninvite_code = \"letmein-2026\"\n\
    [[league]]\nname = \"Main\"\nvariant = \"north-american\"\nrounds = 100\nseed = 1\nbankroll = 1000\n";

/// One sandbox for every site of the test process (it compiles modules).
fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| pitboss_league::sandbox().expect("the wasm sandbox"))
}

/// A server in this process on a fresh data folder: its state, its
/// router, and the organiser's token.
pub struct Site {
    pub app: Shared,
    pub router: Router,
    pub admin: String,
    pub dir: PathBuf,
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What a request answered: status, headers and the body as text.
pub struct Answered {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
    /// The body as it came (a tar, say).
    pub bytes: Vec<u8>,
}

impl Answered {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// A header's value, or "".
    pub fn header(&self, name: header::HeaderName) -> &str {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
    }
}

impl Site {
    /// A site for `competition` (the text of a competition file).
    pub fn with(competition: &str) -> Site {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = pitboss_testkit::scratch("site", &N.fetch_add(1, Ordering::Relaxed).to_string());
        let competition = Arc::new(competition::parse(competition, "competition.toml").unwrap());
        let db = Db::open(&dir).unwrap();
        let admin = auth::new_secret("pba_").unwrap();
        let checker = Checker::new(&dir, &competition, sandbox()).unwrap();
        let app = Arc::new(App {
            dir: dir.clone(),
            db: Arc::new(db),
            guards: Arc::new(Guards::new(&competition.server, 2)),
            competition,
            checker,
            bell: Arc::new(Bell::default()),
            modules: crate::store::Checking::default(),
            admin_hash: auth::hash(&admin),
        });
        Site { router: crate::routes::routes(app.clone()), app, admin, dir }
    }

    /// A site for [`COMPETITION`].
    pub fn new() -> Site {
        Site::with(COMPETITION)
    }

    /// Registers entrant `name`: their token.
    pub fn entrant(&self, name: &str) -> String {
        crate::entrants::register(&self.app.db, name, 100).unwrap()
    }

    /// A browser session for the entrant with `token` (`None`: the
    /// organiser): its cookie header and CSRF token.
    pub fn session(&self, token: Option<&str>) -> (String, String) {
        let entrant = token.map(|t| self.app.db.entrant_by_token(&auth::hash(t)).unwrap().unwrap().id);
        let (id, csrf) = (auth::new_secret("").unwrap(), auth::new_secret("").unwrap());
        self.app.db.add_session(&auth::hash(&id), entrant, &csrf, now() + 3600).unwrap();
        (format!("{}={id}", auth::COOKIE), csrf)
    }

    /// Sends `request` from 127.0.0.1 through the router.
    pub async fn send(&self, mut request: Request<Body>) -> Answered {
        let peer: SocketAddr = "127.0.0.1:40000".parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(peer));
        let response = self.router.clone().oneshot(request).await.unwrap();
        let (parts, body) = response.into_parts();
        let bytes = axum::body::to_bytes(body, 64 << 20).await.unwrap();
        let body = String::from_utf8_lossy(&bytes).into_owned();
        Answered { status: parts.status, headers: parts.headers, body, bytes: bytes.to_vec() }
    }

    /// `GET path` with these headers.
    pub async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Answered {
        self.send(request(Method::GET, path, headers, Body::empty())).await
    }

    /// `GET path` with a bearer token.
    pub async fn get_as(&self, path: &str, token: &str) -> Answered {
        self.get(path, &[("authorization", &format!("Bearer {token}"))]).await
    }

    /// `POST path` with a form (`application/x-www-form-urlencoded`).
    pub async fn post_form(&self, path: &str, headers: &[(&str, &str)], fields: &[(&str, &str)]) -> Answered {
        let body = fields.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect::<Vec<_>>().join("&");
        let mut all = vec![("content-type", "application/x-www-form-urlencoded")];
        all.extend_from_slice(headers);
        self.send(request(Method::POST, path, &all, Body::from(body))).await
    }

    /// `method path` with a bearer token and a JSON body (or none).
    pub async fn call(&self, method: Method, path: &str, token: Option<&str>, json: Option<&str>) -> Answered {
        let bearer = token.map(|t| format!("Bearer {t}"));
        let mut headers: Vec<(&str, &str)> = bearer.iter().map(|b| ("authorization", b.as_str())).collect();
        if json.is_some() {
            headers.push(("content-type", "application/json"));
        }
        let body = json.map_or_else(Body::empty, |j| Body::from(j.to_string()));
        self.send(request(method, path, &headers, body)).await
    }
}

impl Site {
    /// Uploads `bytes` as `name` for the entrant with `token` by the API.
    pub async fn upload(&self, token: &str, name: &str, bytes: Vec<u8>) -> Answered {
        let bearer = format!("Bearer {token}");
        let headers = [("authorization", bearer.as_str()), ("content-type", "application/wasm")];
        let path = format!("/api/submissions?name={}", encode(name));
        self.send(request(Method::POST, &path, &headers, Body::from(bytes))).await
    }

    /// The organiser queues a run and the worker plays it to its end: the
    /// run's id.
    pub async fn play_run(&self) -> i64 {
        let queued = self.call(Method::POST, "/api/runs", Some(&self.admin), None).await;
        assert_eq!(queued.status, StatusCode::ACCEPTED, "{}", queued.body);
        let id = queued.json()["run"].as_i64().unwrap();
        self.work_until(|db| db.run_state(id).unwrap().is_some_and(|s| s == "done" || s == "failed")).await;
        assert_eq!(self.app.db.run_state(id).unwrap().as_deref(), Some("done"), "{:?}", self.app.db.runs(5).unwrap());
        id
    }

    /// Runs the worker (a thread of this process) until `done` says so,
    /// then stops it.
    pub async fn work_until(&self, done: impl Fn(&Db) -> bool) {
        self.app.bell.signal.lock().unwrap().stop = false;
        let work = crate::worker::Work {
            dir: self.dir.clone(),
            db: self.app.db.clone(),
            competition: self.app.competition.clone(),
            sandbox: sandbox().clone(),
            bell: self.app.bell.clone(),
        };
        let worker = crate::worker::start(work).unwrap();
        let started = Instant::now();
        while !done(&self.app.db) {
            assert!(started.elapsed() < Duration::from_secs(300), "the worker took over 300 s");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        self.app.bell.stop();
        tokio::task::spawn_blocking(move || worker.join().unwrap()).await.unwrap();
    }

    /// A site where `alice` (basic) and `bob` (never_bust) have passing
    /// bots and run 1 has been played: their tokens.
    pub async fn played() -> (Site, String, String) {
        let site = Site::new();
        let (alice, bob) = (site.entrant("alice"), site.entrant("bob"));
        for (token, bot) in [(&alice, "basic"), (&bob, "never_bust")] {
            let answer = site.upload(token, &format!("{bot}.wasm"), wasm(bot)).await;
            assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
        }
        assert_eq!(site.play_run().await, 1);
        (site, alice, bob)
    }
}

/// A request with headers and a body.
pub fn request(method: Method, path: &str, headers: &[(&str, &str)], body: Body) -> Request<Body> {
    let mut builder = Request::builder().method(method).uri(path).header(header::HOST, "localhost");
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    builder.body(body).unwrap()
}

/// A bot `bash scripts/build-bots` built (`basic`, `never_bust`, …).
pub fn wasm(bot: &str) -> Vec<u8> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let path = target.join("wasm32-unknown-unknown/release").join(format!("{bot}.wasm"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}: run `bash scripts/build-bots` first", path.display()))
}

/// The sorted keys of a JSON object.
pub fn keys(value: &serde_json::Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
    keys.sort_unstable();
    keys
}

/// Percent-encodes a form value.
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
