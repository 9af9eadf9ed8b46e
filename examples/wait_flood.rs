//! Waits that cannot hold `millbase serve`: a crowd from many addresses
//! asking for statistics reports still to be made, and a server whose
//! open-file limit leaves room for few connections beyond its tables.
//!
//! ```text
//! cargo run --release --example wait_flood -- DB [CLIENTS] [SECONDS]
//! ```
//!
//! Two rounds, each SECONDS long (default 10), against
//! `target/release/millbase serve` on a free loopback port:
//!
//! 1. **Reports.** A copy of DB without its kept reports, so that each
//!    report is to be made. CLIENTS threads (default 1000), each from a
//!    loopback address of its own (127.0.x.y, so that every client has its
//!    own token bucket), ask `GET /api/stats/SECTOR` for the tables in turn,
//!    each starting at a table of its own: again after the `Retry-After` of
//!    a refusal (5 s for "being made", 1 s for a busy server), as a client
//!    that waits does, and the next table a second after an answer.
//! 2. **File limit.** DB served under the lowest open-file limit it accepts
//!    (`ulimit -n`, from its own refusal at 16) plus 16: a connection cap of
//!    16 or so. CLIENTS threads hold idle connections open, each opening
//!    another a second after the server closes it.
//!
//! In both, one prober asks a plain query and `/api/health` every 100 ms, on
//! a new connection each (asked again once if the connection is closed
//! before any answer, as HTTP clients do for a GET). Prints the crowd's statuses and the probes'
//! statuses and slowest answers; exits 1 if a probe failed or took 2 s or
//! more. Stops by itself; loopback only.

#[path = "support/http.rs"]
mod http;

use http::{files_needed, largest_sectors, request, start, start_limited};
use socket2::{Domain, Socket, Type};
use std::collections::BTreeMap;
use std::io::BufReader;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Statuses by count (0: the connection closed or failed).
type Tally = Arc<Mutex<BTreeMap<u16, u64>>>;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let db = args
        .get(1)
        .expect("usage: wait_flood DB [CLIENTS] [SECONDS]");
    let clients: usize = args.get(2).map_or(1000, |s| s.parse().unwrap());
    let seconds: u64 = args.get(3).map_or(10, |s| s.parse().unwrap());
    millbase::server::listen::raise_open_file_limit();
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/millbase");
    let mut failed = false;

    // 1. report waiters from many addresses
    let copy = tempfile::tempdir().unwrap();
    copy_without_reports(Path::new(db), copy.path());
    let copy_db = copy.path().to_str().unwrap();
    let (mut server, host) = start(&exe, copy_db);
    let sectors = {
        let mut r = BufReader::new(TcpStream::connect(&host).unwrap());
        largest_sectors(&mut r, &host, copy_db, usize::MAX).0
    };
    let (crowd, stop) = (Tally::default(), Arc::new(AtomicBool::new(false)));
    let threads: Vec<_> = (0..clients)
        .map(|k| {
            let (host, stop, crowd) = (host.clone(), stop.clone(), crowd.clone());
            let sectors = sectors.clone();
            std::thread::spawn(move || {
                let mut next = k;
                while !stop.load(Ordering::Relaxed) {
                    let path = format!("/api/stats/{}", sectors[next % sectors.len()]);
                    let status = match connect_from(k, &host) {
                        Some(s) => request(&mut BufReader::new(s), &host, &path).0,
                        None => 0,
                    };
                    count(&crowd, status);
                    // as a client that waits does: again after Retry-After
                    // (5 s for a report being made, 1 s for a busy server)
                    let pause = match status {
                        202 => 5,
                        _ => 1,
                    };
                    // answered: the next table's report, a second later
                    if status == 200 {
                        next += 1;
                    }
                    pausing(&stop, Duration::from_secs(pause));
                }
            })
        })
        .collect();
    let probed = probe_during(&host, seconds, &stop, threads, &mut server);
    let made = std::fs::read_dir(copy.path().join("reports")).map_or(0, |d| d.count());
    println!(
        "reports: {clients} clients from {clients} addresses asking for the reports of {} tables \
         for {seconds} s; {made} reports made",
        sectors.len()
    );
    failed |= probed.print(&crowd);

    // 2. a file limit that leaves room for few connections
    let files = files_needed(&exe, db) + 16;
    let (mut server, host) = start_limited(&exe, db, files);
    let (crowd, stop) = (Tally::default(), Arc::new(AtomicBool::new(false)));
    let threads: Vec<_> = (0..clients)
        .map(|k| {
            let (host, stop, crowd) = (host.clone(), stop.clone(), crowd.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    // connected and silent until the server closes it
                    let Some(mut s) = connect_from(k, &host) else {
                        count(&crowd, 0);
                        pausing(&stop, Duration::from_secs(1));
                        continue;
                    };
                    s.set_read_timeout(Some(Duration::from_millis(200)))
                        .unwrap();
                    let mut buf = [0u8; 512];
                    loop {
                        use std::io::Read;
                        match s.read(&mut buf) {
                            Ok(0) => break,
                            Ok(_) => count(&crowd, 503),
                            Err(_) if stop.load(Ordering::Relaxed) => return,
                            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                            Err(_) => break,
                        }
                    }
                    count(&crowd, 0);
                    // closed: a client keeping a connection opens another
                    pausing(&stop, Duration::from_secs(1));
                }
            })
        })
        .collect();
    let probed = probe_during(&host, seconds, &stop, threads, &mut server);
    println!(
        "file limit: served under ulimit -n {files}; {clients} clients holding idle connections \
         for {seconds} s (0: closed by the server, 503: refused at once)"
    );
    failed |= probed.print(&crowd);
    if failed {
        std::process::exit(1);
    }
}

/// A connection to `host` from loopback address number `k` (127.0.x.y).
fn connect_from(k: usize, host: &str) -> Option<TcpStream> {
    let to: SocketAddr = host.parse().ok()?;
    let from = Ipv4Addr::new(127, 0, 1 + (k / 250) as u8, 1 + (k % 250) as u8);
    let s = Socket::new(Domain::IPV4, Type::STREAM, None).ok()?;
    s.bind(&SocketAddr::from((from, 0)).into()).ok()?;
    s.connect_timeout(&to.into(), Duration::from_secs(5)).ok()?;
    Some(s.into())
}

/// Sleeps `d`, or less once `stop` is set.
fn pausing(stop: &AtomicBool, d: Duration) {
    let until = Instant::now() + d;
    while Instant::now() < until && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn count(t: &Tally, status: u16) {
    *t.lock().unwrap().entry(status).or_default() += 1;
}

/// What the prober saw.
struct Probed {
    statuses: BTreeMap<u16, u64>,
    /// Probes whose connection was closed before an answer, asked again.
    retried: u64,
    slowest: [Duration; 2],
}

impl Probed {
    /// Prints the crowd's and the probes' statuses; whether a probe failed.
    fn print(&self, crowd: &Tally) -> bool {
        println!("  crowd statuses: {:?}", crowd.lock().unwrap());
        println!(
            "  probe statuses: {:?}, {} asked again after a close before any answer",
            self.statuses, self.retried
        );
        println!(
            "  slowest probe: query {:.0} ms, health {:.0} ms",
            self.slowest[0].as_secs_f64() * 1e3,
            self.slowest[1].as_secs_f64() * 1e3
        );
        self.statuses.keys().any(|&s| s != 200)
            || self.slowest.iter().any(|d| *d >= Duration::from_secs(2))
    }
}

/// [`probe`] while the crowd's `threads` run, then the crowd and the server
/// stopped.
fn probe_during(
    host: &str,
    seconds: u64,
    stop: &AtomicBool,
    threads: Vec<std::thread::JoinHandle<()>>,
    server: &mut std::process::Child,
) -> Probed {
    let probed = probe(host, seconds);
    stop.store(true, Ordering::Relaxed);
    threads.into_iter().for_each(|t| t.join().unwrap());
    let _ = server.kill();
    let _ = server.wait();
    probed
}

/// A plain query and `/api/health` every 100 ms for `seconds`, each on a
/// new connection from 127.0.0.1.
fn probe(host: &str, seconds: u64) -> Probed {
    let paths = [
        "/api/query?position=WW.....BB..........W.B..%20w%200%200",
        "/api/health",
    ];
    let mut p = Probed {
        statuses: BTreeMap::new(),
        retried: 0,
        slowest: [Duration::ZERO; 2],
    };
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        for (k, path) in paths.iter().enumerate() {
            let began = Instant::now();
            let ask = || match TcpStream::connect(host) {
                Ok(s) => request(&mut BufReader::new(s), host, path),
                Err(_) => (0, vec![]),
            };
            // a connection closed before any answer is asked again once, as
            // HTTP clients do for a GET
            let (mut status, mut body) = ask();
            if status == 0 {
                p.retried += 1;
                (status, body) = ask();
            }
            if status != 200 && !p.statuses.contains_key(&status) {
                println!("  a probe's {status}: {}", String::from_utf8_lossy(&body));
            }
            p.slowest[k] = p.slowest[k].max(began.elapsed());
            *p.statuses.entry(status).or_default() += 1;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    p
}

/// Copies the database `from` into `to`, without its kept reports (nor its
/// lock or work files).
fn copy_without_reports(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let name = e.file_name();
        let name = name.to_string_lossy();
        if ["reports", "work", "millbase.lock"].contains(&name.as_ref()) {
            continue;
        }
        let target = to.join(&*name);
        if e.file_type().unwrap().is_dir() {
            std::fs::create_dir(&target).unwrap();
            copy_without_reports(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}
