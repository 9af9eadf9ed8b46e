//! The hard cases of `millbase serve` on loopback, bounded in count and time:
//! a cache filled by random traffic, slow clients, abandoned pipelined
//! requests.
//!
//! ```text
//! cargo run --release --example server_cases -- DB [STONES] [EXE]
//! ```
//!
//! Starts `EXE serve --db DB` (default `target/release/millbase`) on a free
//! port; DB must hold every position of the game with STONES stones a side
//! (default 5). Then, printing one line each:
//!
//! 0. **statistics**, on a server of its own: 8 concurrent
//!    `/api/stats/SECTOR` requests for the 8 sectors with the most entries,
//!    the time until all are answered and the server's peak memory (the line
//!    says how many of those reports the database already keeps in
//!    `reports/`: a kept report is read, not made).
//! 1. **cache**: the same `/api/mainline` request (a 29-ply win) over 4
//!    connections for 3 s, fresh; then 20,000 `/api/query` requests of
//!    positions of random games (every block they touch decoded, the cache
//!    filled past its 16,384 blocks); then the same main line again for 3 s.
//!    The second rate over the first is what the block cache keeps.
//! 2. **slow clients**: 1,100 sockets that send nothing and 100 that send
//!    half a request, held while 200 queries are timed on one more
//!    connection; then how many of the held sockets the server has closed
//!    after its idle timeout (20 s by default: the case waits 25 s).
//! 3. **abandoned**: one connection sends 1,000 pipelined `/api/mainline`
//!    requests and closes at once; the time until `/api/health` is answered
//!    on a new connection.

#[path = "support/http.rs"]
mod http;

use http::{largest_sectors, peak_mb, random_positions, request, start};
use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A 29-ply win of the 5-stone game (README): its main line asks 29 move
/// lists.
const LONG_WIN: &str = "......WW..WWW..BBB.B.... w 0 0";

fn path_of(api: &str, p: &str) -> String {
    format!("/api/{api}?position={}", p.replace(' ', "%20"))
}

/// One request's status.
fn status(reader: &mut BufReader<TcpStream>, host: &str, path: &str) -> u16 {
    request(reader, host, path).0
}

fn connect(host: &str) -> BufReader<TcpStream> {
    let s = TcpStream::connect(host).unwrap();
    s.set_nodelay(true).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    BufReader::new(s)
}

/// Requests of `path` over `connections` connections for `seconds`: the
/// rate and whether all were 200.
fn rate(host: &str, path: &str, connections: usize, seconds: f64) -> (f64, bool) {
    let start = Instant::now();
    let counts: Vec<(usize, bool)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..connections)
            .map(|_| {
                s.spawn(move || {
                    let mut r = connect(host);
                    let (mut n, mut ok) = (0, true);
                    while start.elapsed().as_secs_f64() < seconds {
                        ok &= status(&mut r, host, path) == 200;
                        n += 1;
                    }
                    (n, ok)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let n: usize = counts.iter().map(|c| c.0).sum();
    (
        n as f64 / start.elapsed().as_secs_f64(),
        counts.iter().all(|c| c.1),
    )
}

/// Whether the server has closed `s` (end of file or reset, at once).
fn closed(s: &mut TcpStream) -> bool {
    s.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 512];
    let mut saw_close = false;
    loop {
        match s.read(&mut buf) {
            Ok(0) => {
                saw_close = true;
                break;
            }
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(_) => {
                saw_close = true;
                break;
            }
        }
    }
    saw_close
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let db = args.get(1).expect("usage: server_cases DB [STONES] [EXE]");
    let stones: u8 = args.get(2).map_or(5, |s| s.parse().unwrap());
    let exe = args.get(3).map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/millbase"),
        std::path::PathBuf::from,
    );
    millbase::server::listen::raise_open_file_limit();
    let variant = millbase::answer::query::Database::open(std::path::Path::new(db))
        .expect("open the database")
        .variant();
    println!("server: {} on {db}", exe.display());

    // 0. statistics of the largest sectors, on a fresh server
    let (mut server, host) = start(&exe, db);
    let mut r = connect(&host);
    let (sectors, kept) = largest_sectors(&mut r, &host, db, 8);
    let before = peak_mb(server.id());
    let t = Instant::now();
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (sectors.iter())
            .map(|name| {
                let host = &host;
                s.spawn(move || status(&mut connect(host), host, &format!("/api/stats/{name}")))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    println!(
        "statistics: 8 concurrent requests for {} ({kept} of them kept in reports/): all \
         answered in {:.2} s, statuses {statuses:?}; server peak memory {before:.0} MB before, \
         {:.0} MB after",
        sectors.join(" "),
        t.elapsed().as_secs_f64(),
        peak_mb(server.id())
    );
    let _ = server.kill();
    let _ = server.wait();

    let (mut server, host) = start(&exe, db);

    // 1. the cache, fresh and after random traffic has filled it
    let mainline = path_of("mainline", LONG_WIN);
    rate(&host, &mainline, 4, 1.0); // warm-up: the line's blocks decoded
    let conns: usize = std::env::var("CONNS").map_or(4, |v| v.parse().unwrap());
    let (fresh, ok1) = rate(&host, &mainline, conns, 3.0);
    let traffic: Vec<String> = random_positions(20_000, stones, variant, 7)
        .iter()
        .map(|p| path_of("query", &p.to_string()))
        .collect();
    let start = Instant::now();
    std::thread::scope(|s| {
        for part in traffic.chunks(traffic.len().div_ceil(4)) {
            let host = &host;
            s.spawn(move || {
                let mut r = connect(host);
                for p in part {
                    status(&mut r, host, p);
                }
            });
        }
    });
    let fill = start.elapsed().as_secs_f64();
    let (after, ok2) = rate(&host, &mainline, conns, 3.0);
    println!(
        "cache: /api/mainline {fresh:.0} requests/s fresh, {after:.0} after 20,000 random \
         queries ({fill:.1} s): {:.0}% of the fresh rate{}",
        100.0 * after / fresh,
        if ok1 && ok2 { "" } else { " (some not 200)" }
    );

    // 2. slow clients: idle and half-sent sockets held while queries run
    let mut held: Vec<TcpStream> = vec![];
    for i in 0..1200 {
        match TcpStream::connect(&host) {
            Ok(mut s) => {
                if i >= 1100 {
                    let _ = s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n");
                }
                held.push(s);
            }
            Err(e) => {
                println!("slow clients: connection {i} refused: {e}");
                break;
            }
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    let query = path_of("query", LONG_WIN);
    let mut times = vec![];
    let mut failed = 0;
    for _ in 0..200 {
        let t = Instant::now();
        let ok = TcpStream::connect(&host).is_ok_and(|s| {
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut r = BufReader::new(s);
            status(&mut r, &host, &query) == 200
        });
        failed += usize::from(!ok);
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let count_closed =
        |held: &mut Vec<TcpStream>| held.iter_mut().map(closed).filter(|&c| c).count();
    let closed_now = count_closed(&mut held);
    std::thread::sleep(Duration::from_secs(25));
    let closed_later = count_closed(&mut held);
    println!(
        "slow clients: {} sockets held (1,100 silent, 100 half-sent); 200 queries on new \
         connections: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {failed} failed; held sockets \
         closed by the server: {closed_now} at once, {closed_later} after 25 s",
        held.len(),
        times[100],
        times[198],
        times[199],
    );
    drop(held);

    // 3. abandoned pipelined requests
    let lines: Vec<String> = random_positions(1000, stones, variant, 11)
        .iter()
        .map(|p| path_of("mainline", &p.to_string()))
        .collect();
    let mut burst = String::new();
    for p in &lines {
        burst.push_str(&format!("GET {p} HTTP/1.1\r\nHost: {host}\r\n\r\n"));
    }
    let mut s = TcpStream::connect(&host).unwrap();
    s.write_all(burst.as_bytes()).unwrap();
    drop(s);
    let t = Instant::now();
    let mut r = connect(&host);
    let health = status(&mut r, &host, "/api/health");
    println!(
        "abandoned: 1,000 pipelined /api/mainline requests, connection closed; /api/health \
         answered {health} after {:.3} s",
        t.elapsed().as_secs_f64()
    );
    println!("server peak memory {:.0} MB", peak_mb(server.id()));
    let _ = server.kill();
    let _ = server.wait();
}
