//! The server's connections: accepted one by one and each served by hyper's HTTP/1 with a
//! timeout on reading a request's head, so that idle or slow clients cannot hold the server:
//!
//! - A connection that sends no complete request head within [`HEADER_READ_TIMEOUT`] (a new
//!   one, one kept alive between requests, or one sending its headers a byte at a time) is closed.
//! - At most [`Limits::connections`] are open at once (fewer than the process may open files):
//!   past that, the oldest connection not computing is closed for the new one, so that a
//!   thousand idle sockets cannot stop the page from answering. At most `--jobs` (64) compute,
//!   far fewer than the connections: there is always one to close.
//! - A request is answered within [`Limits::request_deadline`] whatever it does (a body sent
//!   slowly included), or gets a 408 and its connection is closed.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, StatusCode, header};
use axum::response::IntoResponse;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tower::ServiceExt;

/// How long a connection may take to send a request's head (from when it opens, or from its
/// last answer when kept alive).
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The most connections open at once, whatever the limit on open files allows.
pub const MOST_CONNECTIONS: usize = 512;
/// Files the server keeps for everything but connections: the runtime's, the listening socket,
/// temporary files.
const FILES_BESIDES_CONNECTIONS: u64 = 64;
/// Files each computing request holds: its child's three pipes and its process handle.
const FILES_PER_JOB: u64 = 4;

/// What bounds the connections.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most connections open at once.
    pub connections: usize,
    /// The longest one request may take, from its head read to its answer.
    pub request_deadline: Duration,
}

impl Limits {
    /// As many connections as the open-file limit leaves room for (besides `jobs` children),
    /// at most [`MOST_CONNECTIONS`] and at least 8.
    pub fn connections_for(open_files: u64, jobs: usize) -> usize {
        let reserved = FILES_BESIDES_CONNECTIONS + FILES_PER_JOB * jobs as u64;
        usize::try_from(open_files.saturating_sub(reserved)).unwrap_or(usize::MAX).clamp(8, MOST_CONNECTIONS)
    }
}

/// What the handlers know of the connection a request came on.
#[derive(Clone)]
pub struct Client {
    /// Who asks, for the fairness of turns: its IP address, and within it the page's client
    /// token or else the connection.
    pub who: Who,
    activity: Arc<AtomicUsize>,
}

/// Who asks, as the turns tell clients apart ([`crate::serve::turns`]): first by IP address
/// (many connections or tokens from one address share its turns with other addresses), then,
/// within an address (local users of one machine, all on 127.0.0.1), by the page's token: the
/// page sends a random one per tab in [`CLIENT_TOKEN_HEADER`]; a request without it (curl, a
/// script) is told apart by its connection.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Who {
    pub address: IpAddr,
    pub within: Within,
}

/// A client within its IP address (see [`Who`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Within {
    /// The page's token (at most [`MOST_TOKEN_BYTES`] letters, digits, `-` or `_`).
    Token(String),
    /// The connection's number, for requests without a token.
    Connection(u64),
}

/// The header in which the page sends its client token.
pub const CLIENT_TOKEN_HEADER: &str = "x-grundy-client";
/// The longest client token taken; a longer or odd one is ignored (the connection counts).
pub const MOST_TOKEN_BYTES: usize = 64;

impl Who {
    /// Who sends `request` on connection `connection` from `address`.
    fn of<B>(address: IpAddr, connection: u64, request: &Request<B>) -> Who {
        let token = request.headers().get(CLIENT_TOKEN_HEADER).and_then(|value| value.to_str().ok()).filter(|token| {
            !token.is_empty()
                && token.len() <= MOST_TOKEN_BYTES
                && token.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
        });
        let within = token.map_or(Within::Connection(connection), |token| Within::Token(token.to_owned()));
        Who { address, within }
    }
}

impl Client {
    /// Marks the connection as computing until the guard is dropped: it is not closed for a
    /// new connection meanwhile.
    pub fn computing(&self) -> Computing {
        self.activity.fetch_add(1, Ordering::SeqCst);
        Computing(self.activity.clone())
    }
}

/// See [`Client::computing`].
pub struct Computing(Arc<AtomicUsize>);

impl Drop for Computing {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The open connections, oldest first.
#[derive(Default)]
struct Open {
    connections: Mutex<BTreeMap<u64, OpenConnection>>,
    next_id: std::sync::atomic::AtomicU64,
}

struct OpenConnection {
    /// How many of its requests are computing (0 or 1 with HTTP/1).
    activity: Arc<AtomicUsize>,
    /// Closes it.
    close: Arc<Notify>,
}

/// A connection's place among the open ones, given up when dropped.
struct Admitted {
    open: Arc<Open>,
    id: u64,
    activity: Arc<AtomicUsize>,
    close: Arc<Notify>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.open.lock().remove(&self.id);
    }
}

impl Open {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, OpenConnection>> {
        self.connections.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Closes the oldest connection not computing; false if every one is.
    fn close_oldest_idle(connections: &mut BTreeMap<u64, OpenConnection>) -> bool {
        let oldest = connections
            .iter()
            .find(|(_, connection)| connection.activity.load(Ordering::SeqCst) == 0)
            .map(|(id, _)| *id);
        match oldest.and_then(|id| connections.remove(&id)) {
            Some(connection) => {
                // A stored permit: the connection's task closes it even if not waiting yet.
                connection.close.notify_one();
                true
            }
            None => false,
        }
    }

    /// A place for a new connection, making room past `most` by closing the oldest idle one;
    /// `None` when all are computing.
    fn admit(self: &Arc<Self>, most: usize) -> Option<Admitted> {
        let mut connections = self.lock();
        if connections.len() >= most && !Open::close_oldest_idle(&mut connections) {
            return None;
        }
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let (activity, close) = (Arc::new(AtomicUsize::new(0)), Arc::new(Notify::new()));
        connections.insert(id, OpenConnection { activity: activity.clone(), close: close.clone() });
        Some(Admitted { open: self.clone(), id, activity, close })
    }
}

/// Serves `router` on the connections of `listener` until the future is dropped.
pub async fn serve(listener: TcpListener, router: Router, limits: Limits) {
    let open = Arc::new(Open::default());
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of file descriptors (or memory) for now: free one and try again soon.
                // Other errors are the failed connection's own (reset before accepted).
                if matches!(error.raw_os_error(), Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)) {
                    Open::close_oldest_idle(&mut open.lock());
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                continue;
            }
        };
        // Every connection computing (only with fewer connections allowed than `--jobs`): this
        // one is closed at once, and the client may try again when a computation ends.
        let Some(admitted) = open.admit(limits.connections) else { continue };
        tokio::spawn(serve_connection(stream, peer, router.clone(), limits, admitted));
    }
}

async fn serve_connection(stream: TcpStream, peer: SocketAddr, router: Router, limits: Limits, admitted: Admitted) {
    let (address, connection, activity) = (peer.ip(), admitted.id, admitted.activity.clone());
    let service = hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
        let client = Client { who: Who::of(address, connection, &request), activity: activity.clone() };
        request.extensions_mut().insert(client);
        let answer = router.clone().oneshot(request.map(Body::new));
        async move {
            Ok::<_, std::convert::Infallible>(match tokio::time::timeout(limits.request_deadline, answer).await {
                Ok(Ok(response)) => response,
                Ok(Err(never)) => match never {},
                Err(_) => too_slow(limits.request_deadline),
            })
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    // A client that shuts its sending side down after its request (`shutdown(SHUT_WR)`, as
    // `curl --http1.0` or a one-shot script may) still gets its answer: the end of its input is
    // not taken for a client gone. A request still ends at its deadline.
    builder.timer(TokioTimer::new()).header_read_timeout(HEADER_READ_TIMEOUT).half_close(true);
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    // Dropping the connection closes its socket, and drops the request it was answering
    // (which kills that request's child).
    tokio::select! {
        _ = connection => {}
        () = admitted.close.notified() => {}
    }
}

/// The answer to a request past its deadline; its connection is closed after it.
fn too_slow(deadline: Duration) -> Response<Body> {
    let message = format!(
        "the request took longer than the {} s the server gives one (sending it, waiting and computing): send it at once and ask for something smaller",
        deadline.as_secs_f64()
    );
    let body = serde_json::json!({ "error": { "kind": "timeout", "message": message } });
    (StatusCode::REQUEST_TIMEOUT, [(header::CONNECTION, "close")], axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(connection: u64) -> Who {
        Who { address: IpAddr::from([127, 0, 0, 1]), within: Within::Connection(connection) }
    }

    #[test]
    fn a_client_is_its_address_and_its_token_or_else_its_connection() {
        let address = IpAddr::from([127, 0, 0, 1]);
        let with = |token: &str| Request::builder().header(CLIENT_TOKEN_HEADER, token).body(()).unwrap();
        assert_eq!(Who::of(address, 7, &with("tab-1_A")).within, Within::Token("tab-1_A".to_owned()));
        assert_eq!(Who::of(address, 7, &Request::new(())).within, Within::Connection(7));
        for odd in ["", "a b", "é", &"x".repeat(MOST_TOKEN_BYTES + 1)] {
            assert_eq!(Who::of(address, 7, &with(odd)).within, Within::Connection(7), "{odd:?}");
        }
        assert_eq!(Who::of(address, 7, &with(&"x".repeat(MOST_TOKEN_BYTES))).address, address);
    }

    #[test]
    fn room_for_connections_is_left_by_the_open_file_limit() {
        assert_eq!(Limits::connections_for(1024, 4), MOST_CONNECTIONS);
        assert_eq!(Limits::connections_for(256, 4), 256 - 64 - 16);
        assert_eq!(Limits::connections_for(20, 64), 8);
        assert_eq!(Limits::connections_for(u64::MAX, 64), MOST_CONNECTIONS);
    }

    #[test]
    fn the_oldest_idle_connection_makes_room() {
        let open = Arc::new(Open::default());
        let first = open.admit(2).unwrap();
        let second = open.admit(2).unwrap();
        let _computing = Client { who: local(1), activity: first.activity.clone() }.computing();
        // The first computes: the second, idle, is closed for the third.
        let _third = open.admit(2).unwrap();
        assert!(open.lock().contains_key(&first.id) && !open.lock().contains_key(&second.id));
        let closed = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(async { tokio::time::timeout(Duration::from_secs(1), second.close.notified()).await });
        assert!(closed.is_ok(), "the second connection is told to close");
        // The first computes and the third is idle: the third goes for a fourth.
        let _fourth = open.admit(2).unwrap();
        assert_eq!(open.lock().len(), 2);
        // Every connection computing: a new one is refused.
        let _also_computing = Client { who: local(4), activity: _fourth.activity.clone() }.computing();
        assert!(open.admit(2).is_none());
        drop(_computing);
        assert!(open.admit(2).is_some());
    }
}
