//! The listener: our own accept loop over hyper's HTTP/1 server, because
//! `axum::serve` sets no timer and so closes no idle or slow connection.
//! Each connection holds one of `max_connections` slots (past the cap a
//! client is answered `503` with `Retry-After` and closed at once, so a
//! flood of sockets can neither exhaust the file descriptors nor hang
//! anyone), must send each request's headers within
//! `header_timeout_secs` (which also closes a connection idle that long
//! between requests) and lives at most [`MAX_CONNECTION_SECS`]. Request
//! time and body size are the router's layers ([`crate::routes`]).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

use crate::competition::ServerPolicy;

/// Longest life of one connection, however busy (a client reading its
/// answer a byte a minute cannot keep a slot for ever).
pub const MAX_CONNECTION_SECS: u64 = 900;
/// Longest wait for connections to finish after a stop is asked for.
const DRAIN_SECS: u64 = 10;
/// Largest request head (request line and headers) read, in bytes.
const MAX_HEAD_BYTES: usize = 64 << 10;

/// Serves `router` on `listener` until `stop` resolves; then stops
/// accepting and gives open connections [`DRAIN_SECS`] to finish.
pub async fn serve(listener: TcpListener, router: Router, policy: &ServerPolicy, stop: impl Future<Output = ()>) {
    let slots = Arc::new(Semaphore::new(policy.max_connections as usize));
    let (draining, drain) = watch::channel(false);
    let header_timeout = Duration::from_secs(policy.header_timeout_secs);
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of descriptors or a reset before accept: wait a
                    // little rather than spin.
                    eprintln!("pitboss serve: accept: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tokio::spawn(turn_away(stream));
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let mut drain = drain.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let service = TowerToHyperService::new(router.map_request(move |mut request: hyper::Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            }));
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(header_timeout).max_buf_size(MAX_HEAD_BYTES);
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(connection);
            let life = tokio::time::sleep(Duration::from_secs(MAX_CONNECTION_SECS));
            tokio::pin!(life);
            loop {
                tokio::select! {
                    _ = connection.as_mut() => break,
                    () = &mut life => break,
                    changed = drain.changed() => {
                        if changed.is_err() || *drain.borrow() {
                            connection.as_mut().graceful_shutdown();
                            let _ = tokio::time::timeout(Duration::from_secs(DRAIN_SECS), connection.as_mut()).await;
                            break;
                        }
                    }
                }
            }
        });
    }
    drop(listener);
    let _ = draining.send(true);
    // Every slot back: every connection has ended (or the drain ran out).
    let all = u32::try_from(policy.max_connections).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(Duration::from_secs(DRAIN_SECS + 1), slots.acquire_many(all)).await;
}

/// Answers a connection over the cap with `503` and closes it, giving it
/// a second at most.
async fn turn_away(mut stream: TcpStream) {
    const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: application/json\r\n\
Content-Length: 57\r\nConnection: close\r\n\r\n{\"error\":\"too many connections; try again in 5 seconds\"}\n";
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(BUSY).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// The address a listener is bound to, for the log line tests read.
pub fn local(listener: &TcpListener) -> std::io::Result<SocketAddr> {
    listener.local_addr()
}
