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

use millbase::Rules;
use millbase::moves;
use millbase::position::Position;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Positions of random games from the initial position with `stones` a side.
fn random_positions(n: usize, stones: u8, rules: Rules, seed: u64) -> Vec<Position> {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let root: Position = format!("........................ w {stones} {stones}")
        .parse()
        .unwrap();
    let mut out = vec![];
    while out.len() < n {
        let mut p = root;
        for _ in 0..(next() % 60) {
            let list = moves::legal_moves(&p, rules);
            if list.is_empty() {
                break;
            }
            p = moves::apply(&p, list[(next() % list.len() as u64) as usize]);
        }
        if !p.mover_below_minimum() && p.validate().is_ok() {
            out.push(p);
        }
    }
    out
}

/// One HTTP/1.1 request on a kept-alive connection: the status and the time.
fn request(reader: &mut BufReader<TcpStream>, host: &str, path: &str) -> (u16, Duration) {
    let start = Instant::now();
    // one write: the request goes out in one segment
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n");
    reader.get_mut().write_all(request.as_bytes()).unwrap();
    let mut status = 0;
    let mut length = 0usize;
    let mut line = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some(rest) = l.strip_prefix("HTTP/1.1 ") {
            status = rest[..3].parse().unwrap();
        }
        if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).unwrap();
    (status, start.elapsed())
}

fn peak_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let db = args
        .get(1)
        .expect("usage: load DB [REQUESTS] [CONNECTIONS] [STONES]");
    let requests: usize = args.get(2).map_or(20_000, |s| s.parse().unwrap());
    let connections: usize = args.get(3).map_or(16, |s| s.parse().unwrap());
    let stones: u8 = args.get(4).map_or(9, |s| s.parse().unwrap());
    let rules = millbase::query::Database::open(std::path::Path::new(db))
        .expect("open the database")
        .rules();
    let exe = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/millbase");
    let mut server = Command::new(exe)
        .args(["serve", "--db", db, "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start target/release/millbase (cargo build --release first)");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let host = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let positions = random_positions(requests, stones, rules, 0x9E37_79B9_7F4A_7C15);
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
    let start = Instant::now();
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
                            let (status, t) = request(&mut reader, host, path);
                            (*valid, status, t)
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
    let seconds = start.elapsed().as_secs_f64();
    let peak = peak_kb(server.id());
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
        peak as f64 / 1024.0
    );
    if valid_failed + malformed_not_400 > 0 {
        std::process::exit(1);
    }
}
