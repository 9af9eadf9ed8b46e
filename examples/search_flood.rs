//! A bounded flood of searching moves against `millbase serve` on loopback:
//! does a crowd asking for `expert` moves starve everyone else?
//!
//! ```text
//! cargo run --release --example search_flood -- DB [CLIENTS] [SECONDS]
//! ```
//!
//! Starts `target/release/millbase serve --db DB` on a free port; CLIENTS
//! threads (default 300) each loop `GET /api/play?level=expert` on a
//! movement position for SECONDS (default 10); meanwhile one prober asks a
//! plain query and `/api/health` every 100 ms. Prints the flood's statuses
//! (200, 429 over the client's token bucket, 503 over the search slots) and
//! the probes' statuses and slowest answers; exits 1 if a probe failed or
//! took a second or more. Stops by itself; loopback only.

#[path = "support/http.rs"]
mod http;

use http::{request, start};
use std::collections::BTreeMap;
use std::io::BufReader;
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let db = args
        .get(1)
        .expect("usage: search_flood DB [CLIENTS] [SECONDS]");
    let clients: usize = args.get(2).map_or(300, |s| s.parse().unwrap());
    let seconds: u64 = args.get(3).map_or(10, |s| s.parse().unwrap());
    let exe = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/millbase");
    let (mut server, host) = start(&exe, db);
    let stop = Arc::new(AtomicBool::new(false));
    let flood: Arc<Mutex<BTreeMap<u16, u64>>> = Arc::default();
    let pos = "W.W.B..B.W..BW...B.W..B.%20w%200%200";
    let threads: Vec<_> = (0..clients)
        .map(|k| {
            let (host, stop, flood) = (host.clone(), stop.clone(), flood.clone());
            std::thread::spawn(move || {
                let path = format!("/api/play?position={pos}&level=expert&seed={k}");
                while !stop.load(Ordering::Relaxed) {
                    let Ok(s) = TcpStream::connect(&host) else {
                        continue;
                    };
                    let mut reader = BufReader::new(s);
                    let (status, _) = request(&mut reader, &host, &path);
                    *flood.lock().unwrap().entry(status).or_default() += 1;
                }
            })
        })
        .collect();
    // the probes: a plain query and health, each on a new connection
    let probes = [
        "/api/query?position=WW.....BB..........W.B..%20w%200%200",
        "/api/health",
    ];
    let (mut slowest, mut statuses) = ([Duration::ZERO; 2], BTreeMap::<u16, u64>::new());
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        for (k, path) in probes.iter().enumerate() {
            let began = Instant::now();
            let s = TcpStream::connect(&host).expect("connect");
            let mut reader = BufReader::new(s);
            let (status, _) = request(&mut reader, &host, path);
            slowest[k] = slowest[k].max(began.elapsed());
            *statuses.entry(status).or_default() += 1;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    let _ = server.kill();
    let _ = server.wait();
    println!("{clients} clients looping expert moves for {seconds} s");
    println!("flood statuses: {:?}", flood.lock().unwrap());
    println!("probe statuses: {statuses:?}");
    println!(
        "slowest probe: query {:.0} ms, health {:.0} ms",
        slowest[0].as_secs_f64() * 1e3,
        slowest[1].as_secs_f64() * 1e3
    );
    let failed = statuses.keys().any(|&s| s != 200);
    if failed || slowest.iter().any(|d| *d >= Duration::from_secs(1)) {
        std::process::exit(1);
    }
}
