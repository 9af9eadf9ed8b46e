//! `millbase serve`: the web explorer and its JSON API on one database.

use super::{DbArgs, Failure, LimitArgs};
use clap::Args;
use millbase::server::listen;
use std::io::Write;
use std::time::Duration;

#[derive(Args)]
pub struct ServeArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    limit: LimitArgs,
    /// Address to listen on (loopback by default; 0.0.0.0:PORT serves other
    /// machines too; port 0 picks a free port).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    addr: String,
    /// The port to listen on, in place of the one of --addr (0 picks a free
    /// port).
    #[arg(long, value_name = "PORT")]
    port: Option<u16>,
    /// Seconds a connection may stay without a request in flight (idle
    /// keep-alive, silent socket, unfinished request header) before it is
    /// closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0)]
    idle_timeout: f64,
    /// Connections open at once; beyond that the longest idle is closed, or a
    /// new one answered 503 when all are busy.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_connections: usize,
    /// Nodes of an `expert` move of /api/play at most (the level's own
    /// budget, 3,000,000, is about 0.55 s a move; the default about 0.2 s
    /// on one core).
    #[arg(long, value_name = "N", default_value_t = millbase::server::SERVED_EXPERT_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    expert_nodes: u64,
    /// Moves of the searching levels (simple, hard, expert) computed at once,
    /// apart from every other request (default and most: one per core); 4
    /// more wait, the rest are answered 503 with Retry-After.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    searches: Option<u64>,
}

pub fn run(a: ServeArgs, out: &mut impl Write) -> Result<(), Failure> {
    if !(a.idle_timeout.is_finite() && a.idle_timeout > 0.0 && a.idle_timeout <= 86_400.0) {
        return Err(Failure::input(format!(
            "--idle-timeout {}: give seconds above 0, at most 86400",
            a.idle_timeout
        )));
    }
    if a.max_connections == 0 {
        return Err(Failure::input("--max-connections 0: give at least 1"));
    }
    let addr = listen_address(&a.addr, a.port)?;
    let db = a.limit.open(&a.db.db)?;
    // the indexer's tables before the first request, not inside it
    db.prepare();
    // the connection cap, not the file limit, bounds the connections; the
    // file limit holds every table open besides them (each file is kept
    // open once read) and 64 for the rest
    let files = listen::raise_open_file_limit();
    let tables = table_files(&db) as u64;
    let spare = files.saturating_sub(tables + 64);
    if spare == 0 {
        return Err(Failure::input(format!(
            "the open-file limit is {files}, too low for the {tables} table files of {} \
             and the server's own: raise it to at least {} (ulimit -n {}), and by as many \
             connections as it should hold",
            db.path().display(),
            tables + 65,
            tables + 65,
        )));
    }
    let limits = listen::Limits {
        idle_timeout: Duration::from_secs_f64(a.idle_timeout),
        max_connections: a.max_connections.min(spare as usize),
        ..listen::Limits::default()
    };
    let variant = db.variant();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::fault(format!("cannot start the server runtime: {e}")))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
            let hint = match e.kind() {
                std::io::ErrorKind::AddrInUse => " (another server there? choose another --port)",
                std::io::ErrorKind::AddrNotAvailable => " (not an address of this machine)",
                std::io::ErrorKind::PermissionDenied => " (ports below 1024 need root)",
                _ => "",
            };
            Failure::fault(format!("cannot listen on {addr}: {e}{hint}"))
        })?;
        let local = listener
            .local_addr()
            .map_err(|e| Failure::fault(format!("cannot read the address listened on: {e}")))?;
        if !local.ip().is_loopback() {
            eprintln!(
                "warning: listening on {local}, not on loopback: other machines can reach \
                 this server (use --addr 127.0.0.1:PORT to serve this machine only)"
            );
        }
        writeln!(
            out,
            "millbase explorer ({} rules, {}): open http://{local}/  (Ctrl-C stops)",
            variant.name(),
            a.db.db.display()
        )?;
        out.flush()?;
        let cores = millbase::server::Options::default().searches;
        let options = millbase::server::Options {
            expert_nodes: a.expert_nodes,
            searches: a.searches.map_or(cores, |n| (n as usize).min(cores)),
        };
        millbase::server::serve(db, listener, limits, options, stop_signal())
            .await
            .map_err(|e| Failure::fault(format!("server stopped: {e}")))
    })?;
    // a lookup still running on the blocking pool is not waited for
    runtime.shutdown_timeout(Duration::from_millis(500));
    Ok(())
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM.
async fn stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// The address to listen on: `addr` (`HOST:PORT`, a host name resolved)
/// with `port` in place of its port where given; an input error naming
/// what is wrong otherwise.
fn listen_address(addr: &str, port: Option<u16>) -> Result<std::net::SocketAddr, Failure> {
    use std::net::ToSocketAddrs;
    let bad = |why: String| {
        Failure::input(format!(
            "--addr {addr:?}: {why}; give HOST:PORT, e.g. 127.0.0.1:8080, or --port N"
        ))
    };
    let (host, given) = addr
        .rsplit_once(':')
        .ok_or_else(|| bad("no port".to_string()))?;
    let given: u16 = given
        .parse()
        .map_err(|_| bad(format!("{given:?} is not a port from 0 to 65535")))?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let mut found = (host, port.unwrap_or(given))
        .to_socket_addrs()
        .map_err(|e| bad(format!("{host:?} is not a host here ({e})")))?;
    found
        .next()
        .ok_or_else(|| bad(format!("{host:?} has no address")))
}

/// The table files the server may hold open: the game's table of every
/// subspace and sector, and its table of the no-removal rule where the
/// database has them.
fn table_files(db: &millbase::answer::query::Database) -> usize {
    let present = db.dir().present().len();
    present * if db.move_limit().is_some() { 2 } else { 1 }
}
