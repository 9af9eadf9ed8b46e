//! A bounded load test of `millbase serve` on loopback.
//!
//! ```text
//! cargo run --release --example load -- DB [REQUESTS] [CONNECTIONS] [STONES]
//! ```
//!
//! Starts `target/release/millbase serve --db DB` on a free port, then sends
//! REQUESTS (default 20,000) `GET /api/query` requests over CONNECTIONS (default
//! 16) keep-alive connections: four in five are positions of random games of the
//! game with STONES stones a side (default 9; every position of it must be in
//! DB), one in five a malformed position. Prints the throughput, the p50 and p99
//! latency, the statuses, and the server's peak memory; exits 1 if a valid
//! query failed or a malformed one was not a 400.

#[path = "support/http.rs"]
mod http;

use http::{peak_mb, random_positions, request, start};
use std::io::BufReader;
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let db = args
        .get(1)
        .expect("usage: load DB [REQUESTS] [CONNECTIONS] [STONES]");
    let requests: usize = args.get(2).map_or(20_000, |s| s.parse().unwrap());
    let connections: usize = args.get(3).map_or(16, |s| s.parse().unwrap());
    let stones: u8 = args.get(4).map_or(9, |s| s.parse().unwrap());
    let variant = millbase::answer::query::Database::open(std::path::Path::new(db))
        .expect("open the database")
        .variant();
    let exe = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/millbase");
    let (mut server, host) = start(&exe, db);
    let positions = random_positions(requests, stones, variant, 0x9E37_79B9_7F4A_7C15);
    let paths: Vec<(bool, String)> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let text = p.to_string().replace(' ', "%20");
            if i % 5 == 4 {
                // malformed: a board one point short
                (false, format!("/api/query?position={}", &text[1..]))
            } else {
                (true, format!("/api/query?position={text}"))
            }
        })
        .collect();
    let began = Instant::now();
    let results: Vec<(bool, u16, Duration)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..connections)
            .map(|c| {
                let (host, paths) = (&host, &paths);
                s.spawn(move || {
                    let stream = TcpStream::connect(host).unwrap();
                    stream.set_nodelay(true).unwrap();
                    let mut reader = BufReader::new(stream);
                    paths
                        .iter()
                        .skip(c)
                        .step_by(connections)
                        .map(|(valid, path)| {
                            let t = Instant::now();
                            let (status, _) = request(&mut reader, host, path);
                            (*valid, status, t.elapsed())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let seconds = began.elapsed().as_secs_f64();
    let peak = peak_mb(server.id());
    let _ = server.kill();
    let _ = server.wait();
    let mut times: Vec<Duration> = results.iter().map(|r| r.2).collect();
    times.sort();
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3;
    let valid_failed = results.iter().filter(|r| r.0 && r.1 != 200).count();
    let malformed_not_400 = results.iter().filter(|r| !r.0 && r.1 != 400).count();
    println!(
        "{} requests over {connections} connections in {seconds:.2} s: {:.0} requests/s; \
         latency p50 {:.2} ms, p99 {:.2} ms; valid {} ({} failed), malformed {} ({} not 400); \
         server peak memory {:.0} MB",
        results.len(),
        results.len() as f64 / seconds,
        pct(0.5),
        pct(0.99),
        results.iter().filter(|r| r.0).count(),
        valid_failed,
        results.iter().filter(|r| !r.0).count(),
        malformed_not_400,
        peak
    );
    if valid_failed + malformed_not_400 > 0 {
        std::process::exit(1);
    }
}
