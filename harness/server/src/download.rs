//! `/download`: the very `pitboss` this server runs, for entrants to
//! install with one line (no toolchain, and every local `pitboss verify`
//! is the server's version), and its SHA-256. The running binary is
//! opened once (on Linux through `/proc/self/exe`, so a binary replaced
//! on disk since the start is not what is served) and hashed once, at
//! start; each download streams it in chunks of [`CHUNK`] bytes. A
//! starter `bot.py` ([`crate::editor::STARTER_PATH`]) is offered beside it.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use maud::html;
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

use crate::answer::Answer;
use crate::auth::Visitor;
use crate::page::page;
use crate::state::Failure;

/// Bytes read and sent at a time.
pub const CHUNK: usize = 64 << 10;

/// The running binary: open, its size and SHA-256.
pub struct Binary {
    file: Arc<File>,
    pub size: u64,
    pub sha256: String,
}

static BINARY: OnceLock<Result<Binary, String>> = OnceLock::new();

/// Opens and hashes the running binary, once (blocking; `serve` calls
/// it at start); why not, if it cannot be read.
pub fn binary() -> Result<&'static Binary, &'static str> {
    BINARY.get_or_init(open).as_ref().map_err(String::as_str)
}

fn open() -> Result<Binary, String> {
    let path = if cfg!(target_os = "linux") {
        std::path::PathBuf::from("/proc/self/exe")
    } else {
        std::env::current_exe().map_err(|e| format!("cannot find the running binary: {e}"))?
    };
    let why = |e: std::io::Error| format!("cannot read the running binary {}: {e}", path.display());
    let mut file = File::open(&path).map_err(why)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; CHUNK];
    let mut size = 0u64;
    loop {
        let n = file.read(&mut buf).map_err(why)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        size += n as u64;
    }
    let sha256 = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok(Binary { file: Arc::new(file), size, sha256 })
}

/// `GET /download`: what the binary is, its SHA-256 and the line that
/// installs it. Public.
pub async fn download_page(headers: HeaderMap, Visitor(session): Visitor) -> Answer {
    let os = std::env::consts::OS;
    let arch = std::env::consts::ARCH;
    let body = match binary() {
        Err(why) => {
            eprintln!("pitboss serve: error: /download: {why}");
            html! { h1 { "Download pitboss" } p.error { "The server cannot offer its binary (the organiser's log says why)." } }
        }
        Ok(b) => {
            let origin = crate::copy::origin(&headers);
            let line = format!(
                "curl -fsSo pitboss {origin}/download/pitboss && echo \"{}  pitboss\" | sha256sum -c && chmod +x pitboss && sudo mv pitboss /usr/local/bin/",
                b.sha256
            );
            html! {
                h1 { "Download pitboss" }
                p { "The very " code { "pitboss" } " this server runs (version " (env!("CARGO_PKG_VERSION")) ", for "
                    (os) " " (arch) "): with it, " code { "pitboss check" } " and " code { "pitboss verify" }
                    " on your machine answer as the server does, and you need no Rust toolchain to install it." }
                p { a id="binary" href="/download/pitboss" download="pitboss" { "pitboss" } " · " (b.size) " bytes" }
                p { "SHA-256: " code id="sha256" { (b.sha256) } }
                h2 { "Install it with one line" }
                p.small { "On " (os) " " (arch) " (on Windows, in WSL): it downloads, checks the SHA-256 and installs." }
                pre id="install" { (line) }
                p { "A first Python bot to start from: " a #starter href=(crate::editor::STARTER_PATH) download="bot.py" { "bot.py" } "." }
                p { "On another system, use your page instead: " a href="/me" { "upload your bot.py" }
                    " there (Python needs nothing installed), or build " code { "pitboss" } " from source." }
            }
        }
    };
    Ok(page("Download pitboss", session.as_ref(), body))
}

/// `GET /download/bot.py`: the scaffold's Python bot (what `pitboss new
/// --lang python` writes and the editor starts from), as a file to save:
/// it passes an upload's check as it is, with nothing to build. Public.
pub async fn starter() -> impl IntoResponse {
    let headers = [
        (header::CONTENT_TYPE, "text/x-python; charset=utf-8"),
        (header::CONTENT_DISPOSITION, "attachment; filename=\"bot.py\""),
    ];
    (headers, pitboss_scaffold::python_bot("bot"))
}

/// `GET /download/pitboss`: the running binary, streamed. Public.
pub async fn download_binary() -> Answer {
    let b = binary().map_err(|why| {
        eprintln!("pitboss serve: error: /download/pitboss: {why}");
        Failure::new(StatusCode::SERVICE_UNAVAILABLE, "the server cannot offer its binary")
    })?;
    let (tx, rx) = mpsc::channel::<std::io::Result<Bytes>>(2);
    let (file, size) = (b.file.clone(), b.size);
    tokio::spawn(async move {
        let mut at = 0u64;
        while at < size {
            let file = file.clone();
            let len = CHUNK.min((size - at) as usize);
            let chunk = tokio::task::spawn_blocking(move || {
                let mut buf = vec![0u8; len];
                file.read_exact_at(&mut buf, at).map(|()| Bytes::from(buf))
            })
            .await
            .unwrap_or_else(|e| Err(std::io::Error::other(e.to_string())));
            let failed = chunk.is_err();
            // The client left: stop reading.
            if tx.send(chunk).await.is_err() || failed {
                return;
            }
            at += len as u64;
        }
    });
    let headers = [
        (header::CONTENT_TYPE, "application/octet-stream".to_string()),
        (header::CONTENT_LENGTH, size.to_string()),
        (header::CONTENT_DISPOSITION, "attachment; filename=\"pitboss\"".to_string()),
    ];
    Ok((headers, Body::new(Chunks(rx))).into_response())
}

/// A body of the chunks a reading task sends.
struct Chunks(mpsc::Receiver<std::io::Result<Bytes>>);

impl hyper::body::Body for Chunks {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, std::io::Error>>> {
        self.0.poll_recv(cx).map(|chunk| chunk.map(|c| c.map(hyper::body::Frame::data)))
    }
}
