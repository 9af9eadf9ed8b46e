//! The memory of `millbase serve` while it makes statistics: 8 concurrent
//! `/api/stats/SECTOR` requests for the 8 sectors with the most entries, on
//! a server of its own, its memory sampled every second.
//!
//! ```text
//! cargo run --release --example stats_load -- DB [SECONDS] [EXE]
//! ```
//!
//! Starts `EXE serve --db DB` (default `target/release/millbase`) on a free
//! port and sends the 8 requests at once, each on its own connection, waiting
//! as long as they take. On a complete database a report of a table without
//! plies takes long (a one-ply search for every win and loss, see
//! docs/FORMAT.md), so the run ends after SECONDS (default 600) even if
//! answers are missing. Prints a line a minute and one at the end: the
//! requests answered (and their statuses), the server's memory now and its
//! peak (`VmHWM`).

#[path = "support/http.rs"]
mod http;

use http::{largest_sectors, peak_mb, request, resident_mb, start};
use std::io::BufReader;
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let db = args.get(1).expect("usage: stats_load DB [SECONDS] [EXE]");
    let seconds: u64 = args.get(2).map_or(600, |s| s.parse().unwrap());
    let exe = args.get(3).map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/millbase"),
        std::path::PathBuf::from,
    );
    let (mut server, host) = start(&exe, db);
    let connect = || BufReader::new(TcpStream::connect(&host).unwrap());
    let (sectors, kept) = largest_sectors(&mut connect(), &host, db, 8);
    println!(
        "server: {} on {db}; 8 concurrent requests for {} ({kept} of them kept in reports/)",
        exe.display(),
        sectors.join(" ")
    );
    let before = peak_mb(server.id());
    let t = Instant::now();
    let (tx, rx) = mpsc::channel();
    for name in &sectors {
        let (tx, host, path) = (tx.clone(), host.clone(), format!("/api/stats/{name}"));
        let mut reader = connect();
        std::thread::spawn(move || {
            let status = request(&mut reader, &host, &path).0;
            let _ = tx.send((path, status, Instant::now()));
        });
    }
    drop(tx);
    let (mut answered, mut statuses) = (vec![], vec![]);
    let mut last_line = Instant::now();
    let deadline = Duration::from_secs(seconds);
    while answered.len() < sectors.len() && t.elapsed() < deadline {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok((path, status, at)) => {
                println!(
                    "{:>7.1} s  {path}: {status}",
                    at.duration_since(t).as_secs_f64()
                );
                answered.push(path);
                statuses.push(status);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if last_line.elapsed() >= Duration::from_secs(60) {
            last_line = Instant::now();
            println!(
                "{:>7.1} s  {} of 8 answered; server {:.0} MB now, peak {:.0} MB",
                t.elapsed().as_secs_f64(),
                answered.len(),
                resident_mb(server.id()),
                peak_mb(server.id())
            );
        }
    }
    println!(
        "statistics: {} of 8 answered in {:.1} s (statuses {statuses:?}); server peak memory \
         {before:.0} MB before the requests, {:.0} MB after",
        answered.len(),
        t.elapsed().as_secs_f64(),
        peak_mb(server.id())
    );
    let _ = server.kill();
}
