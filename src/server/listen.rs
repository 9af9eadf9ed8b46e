//! The server's connections: accepted here and served by hyper, with the
//! limits an open network needs. A connection that has no request in flight
//! for [`Limits::idle_timeout`] is closed, whether it is a kept-alive
//! connection, a silent socket or a request whose header never ends. At most
//! [`Limits::max_connections`] are open: a new one closes the longest idle to
//! make room, or is answered 503 when every one is busy. A stop (the
//! `shutdown` future) closes idle connections at once and the rest within
//! [`Limits::stop_grace`].

use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tower::ServiceExt;

/// The limits of [`serve_router`].
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// A connection with no request in flight for this long is closed (idle
    /// keep-alive, silent socket, unfinished request header).
    pub idle_timeout: Duration,
    /// Connections open at once; beyond that the longest idle is closed, or
    /// the new one answered 503 if none is idle.
    pub max_connections: usize,
    /// How long a stop waits for requests in flight.
    pub stop_grace: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            idle_timeout: Duration::from_secs(20),
            max_connections: 1000,
            stop_grace: Duration::from_secs(2),
        }
    }
}

/// One open connection, as the accept loop sees it.
struct Conn {
    /// Requests being answered.
    busy: AtomicUsize,
    /// Of those, the ones only waiting ([`Waiting`]): evicted as idle ones are.
    waiting: Arc<AtomicUsize>,
    /// When the last request was answered (or the connection accepted), in
    /// ms since the server started.
    last_active: AtomicU64,
    /// Asks the connection to close (once idle).
    close: Notify,
    /// Set once it has been asked to close to make room: not picked again.
    closing: AtomicBool,
}

impl Conn {
    /// Whether no request is being answered but those only waiting.
    fn evictable(&self) -> bool {
        self.busy.load(Ordering::Relaxed) <= self.waiting.load(Ordering::Relaxed)
    }
}

/// The open connections, by a number of their own.
struct Conns {
    started: Instant,
    open: Mutex<HashMap<u64, Arc<Conn>>>,
    /// Told when a connection ends.
    ended: Notify,
}

impl Conns {
    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Conn>>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Makes room for one more connection: `true` if there is room now or an
    /// idle one was asked to close (the longest idle).
    fn make_room(&self, max: usize) -> bool {
        let open = self.lock();
        if open.len() < max {
            return true;
        }
        // those already asked to close count as gone: a burst of new
        // connections closes as many idle ones
        let closing = (open.values())
            .filter(|c| c.closing.load(Ordering::Relaxed))
            .count();
        if open.len() - closing < max {
            return true;
        }
        // the longest idle, else the one waiting longest
        let idle = (open.values())
            .filter(|c| c.evictable() && !c.closing.load(Ordering::Relaxed))
            .min_by_key(|c| {
                (
                    c.busy.load(Ordering::Relaxed),
                    c.last_active.load(Ordering::Relaxed),
                )
            });
        match idle {
            Some(c) => {
                c.closing.store(true, Ordering::Relaxed);
                c.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Raises this process's limit of open files to its hard limit, so that the
/// connection cap, not the file limit, bounds the connections; returns the
/// limit now in force.
pub fn raise_open_file_limit() -> u64 {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return 1024;
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: lim.rlim_max,
                rlim_max: lim.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                lim = raised;
            }
        }
    }
    lim.rlim_cur
}

/// The address a request came from, in its extensions: what the
/// per-client limits of the expensive routes count by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientIp(pub std::net::IpAddr);

/// The connection of a request, in its extensions: a request that only
/// waits (for a report being made) says so ([`Waiting::wait`]), and its
/// connection may then be closed to make room, as an idle one is.
#[derive(Clone, Debug)]
pub struct Waiting(Arc<AtomicUsize>);

impl Waiting {
    /// Marks the request as only waiting until the guard is dropped.
    pub fn wait(&self) -> impl Drop + use<> {
        struct Guard(Arc<AtomicUsize>);
        impl Drop for Guard {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::Relaxed);
            }
        }
        self.0.fetch_add(1, Ordering::Relaxed);
        Guard(self.0.clone())
    }
}

/// The answer to a connection over the cap when none is idle.
const FULL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
content-length: 57\r\nconnection: close\r\n\r\n{\"error\":\"too many connections: try again in a moment\"}\n";

/// Serves `router` on `listener` within `limits` until `shutdown` completes.
pub async fn serve_router(
    router: Router,
    listener: TcpListener,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let conns = Arc::new(Conns {
        started: Instant::now(),
        open: Mutex::new(HashMap::new()),
        ended: Notify::new(),
    });
    let mut next_id = 0u64;
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // out of files or a connection reset before it was taken:
                // wait a moment rather than spin
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        if !conns.make_room(limits.max_connections) {
            tokio::spawn(async move {
                let mut stream = stream;
                let _ = stream.write_all(FULL).await;
                let _ = stream.shutdown().await;
                // read what the client sends for a moment before closing:
                // closing with its request unread would reset the
                // connection and could discard the 503 before it is read
                let mut sink = [0u8; 4096];
                let drain = async {
                    let mut left = 64 * 1024usize;
                    while left > 0 {
                        match stream.read(&mut sink).await {
                            Ok(0) | Err(_) => break,
                            Ok(n) => left = left.saturating_sub(n),
                        }
                    }
                };
                let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
            });
            continue;
        }
        next_id += 1;
        let conn = Arc::new(Conn {
            busy: AtomicUsize::new(0),
            waiting: Arc::new(AtomicUsize::new(0)),
            last_active: AtomicU64::new(conns.now_ms()),
            close: Notify::new(),
            closing: AtomicBool::new(false),
        });
        conns.lock().insert(next_id, conn.clone());
        let (conns2, router) = (conns.clone(), router.clone());
        let id = next_id;
        tokio::spawn(async move {
            serve_connection(stream, peer.ip(), router, &conn, &conns2, limits).await;
            conns2.lock().remove(&id);
            conns2.ended.notify_waiters();
        });
    }
    // the stop: every connection asked to close, then a grace for those busy
    for c in conns.lock().values() {
        c.close.notify_one();
    }
    let deadline = tokio::time::Instant::now() + limits.stop_grace;
    while !conns.lock().is_empty() {
        let ended = conns.ended.notified();
        if tokio::time::timeout_at(deadline, ended).await.is_err() {
            break;
        }
    }
    Ok(())
}

/// Serves one connection until the client closes it, it stays idle too long,
/// or it is asked to close.
async fn serve_connection(
    stream: TcpStream,
    peer: std::net::IpAddr,
    router: Router,
    conn: &Arc<Conn>,
    conns: &Arc<Conns>,
    limits: Limits,
) {
    // answers are small: send them at once (no Nagle delay against the
    // client's delayed acknowledgement)
    let _ = stream.set_nodelay(true);
    let (c, cs) = (conn.clone(), conns.clone());
    let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
        let (c, cs) = (c.clone(), cs.clone());
        c.busy.fetch_add(1, Ordering::Relaxed);
        let mut req = req.map(axum::body::Body::new);
        req.extensions_mut().insert(ClientIp(peer));
        req.extensions_mut().insert(Waiting(c.waiting.clone()));
        let answer = router.clone().oneshot(req);
        async move {
            let r = answer.await;
            c.last_active.store(cs.now_ms(), Ordering::Relaxed);
            c.busy.fetch_sub(1, Ordering::Relaxed);
            r
        }
    });
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.idle_timeout)
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(served);
    let tick = (limits.idle_timeout / 4).clamp(Duration::from_millis(50), Duration::from_secs(1));
    let mut closing: Option<tokio::time::Instant> = None;
    loop {
        let idle = conn.busy.load(Ordering::Relaxed) == 0;
        if let Some(deadline) = closing {
            // asked to close: an idle or only waiting connection goes now, a
            // busy one once its answer is out or the grace is over
            if conn.evictable() || tokio::time::Instant::now() >= deadline {
                return;
            }
        }
        tokio::select! {
            _ = served.as_mut() => return,
            _ = conn.close.notified() => {
                served.as_mut().graceful_shutdown();
                closing = Some(tokio::time::Instant::now() + limits.stop_grace);
            }
            _ = tokio::time::sleep(tick) => {
                let since = conns.now_ms().saturating_sub(conn.last_active.load(Ordering::Relaxed));
                if idle && since >= limits.idle_timeout.as_millis() as u64 {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use tokio::io::AsyncReadExt;

    /// One request on a new connection: the answer read whole, or what came
    /// before the connection closed.
    async fn ask(addr: std::net::SocketAddr, path: &str) -> String {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let req = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let _ = s.write_all(req.as_bytes()).await;
        let mut out = String::new();
        let _ = s.read_to_string(&mut out).await;
        out
    }

    /// At the connection cap, a connection whose request only waits is
    /// closed to make room, as an idle one is, while one whose request is
    /// being worked on is not: the new connection is answered.
    #[tokio::test]
    async fn requests_only_waiting_make_room_as_idle_ones_do() {
        let router = Router::new()
            .route(
                "/wait",
                get(|axum::Extension(w): axum::Extension<Waiting>| async move {
                    let _mark = w.wait();
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    "waited"
                }),
            )
            .route(
                "/work",
                get(|| async {
                    tokio::time::sleep(Duration::from_secs(3)).await;
                    "worked"
                }),
            )
            .route("/now", get(|| async { "now" }));
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let limits = Limits {
            max_connections: 2,
            ..Limits::default()
        };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve_router(router, listener, limits, async {
            let _ = stopped.await;
        }));
        let waiter = tokio::spawn(ask(addr, "/wait"));
        let worker = tokio::spawn(ask(addr, "/work"));
        tokio::time::sleep(Duration::from_millis(300)).await;
        // the waiting connection closed for this one
        let now = ask(addr, "/now").await;
        assert!(now.starts_with("HTTP/1.1 200"), "{now}");
        let waited = tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("the waiting connection was not closed")
            .unwrap();
        assert!(!waited.contains("waited"), "{waited}");
        // the one at work was kept and answered
        let worked = worker.await.unwrap();
        assert!(worked.ends_with("worked"), "{worked}");
        // with both at work, a third is refused
        let a = tokio::spawn(ask(addr, "/work"));
        let b = tokio::spawn(ask(addr, "/work"));
        tokio::time::sleep(Duration::from_millis(300)).await;
        let refused = ask(addr, "/now").await;
        assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
        assert!(a.await.unwrap().ends_with("worked"));
        assert!(b.await.unwrap().ends_with("worked"));
        let _ = stop.send(());
        server.await.unwrap().unwrap();
    }
}
