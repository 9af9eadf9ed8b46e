//! `millbase serve` as an open network sees it: idle, silent and half-sent
//! connections are closed after the idle timeout; a client holding more
//! sockets than the connection cap does not lock others out; SIGTERM and
//! SIGINT stop the server whatever its clients do; a file truncated or
//! replaced under the running server gives errors, never a crash, and is
//! read anew once good; health names damaged files; no answer shows the
//! database's absolute path or echoes much of a request.

mod common;

use common::{Killed, serve_with};
use millbase::index::plan::Limits;
use millbase::index::{Indexer, Subspace};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The whole 4-stone game (flying), without the no-removal rule's tables,
/// shared by the tests that only read it.
fn small_db() -> &'static common::Fixture {
    common::shared_db(&["--max-stones", "4", "--no-rule-tables"])
}

/// The same database, a test's own: for a test that changes its files.
fn own_db() -> tempfile::TempDir {
    common::flying_db(Limits {
        max_stones: 4,
        max_total: 8,
        placement: true,
        move_limit: None,
    })
}

/// One request on a new connection (closed after it): status and body.
fn get(host: &str, path: &str) -> (u16, String) {
    answer(sent(host, path), path)
}

/// A connection with one request sent on it (and the connection to close
/// after it).
fn sent(host: &str, path: &str) -> TcpStream {
    let mut s = TcpStream::connect(host).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    s
}

/// The answer read from a connection `sent` made: status and body.
fn answer(mut s: TcpStream, path: &str) -> (u16, String) {
    let mut response = String::new();
    s.read_to_string(&mut response).unwrap();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{path}: no status in {response:?}"));
    let body = response.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

/// Whether the server closed `s` within `within` (it reads end of file).
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 256];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue, // an answer (a 408 or 400) before the close
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

const QUERY: &str = "/api/query?position=WW.....BB..........W.B..%20w%200%200";

/// Raises this test process's limit of open files (the client below holds
/// over a thousand sockets).
fn raise_open_files() {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on a local struct.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim), 0);
        lim.rlim_cur = lim.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
    }
}

#[test]
fn idle_silent_and_half_sent_connections_are_closed_after_the_timeout() {
    let dir = small_db();
    let (_server, host) = serve_with(dir.path(), &["--idle-timeout", "1"]);
    let mut silent: Vec<TcpStream> = (0..20)
        .map(|_| TcpStream::connect(&host).unwrap())
        .collect();
    let mut half = TcpStream::connect(&host).unwrap();
    half.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    // a kept-alive connection after one answer
    let mut kept = TcpStream::connect(&host).unwrap();
    write!(kept, "GET /api/health HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
    let mut first = [0u8; 12];
    kept.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    let start = Instant::now();
    for s in silent.iter_mut().chain([&mut half, &mut kept]) {
        assert!(
            closed_within(s, Duration::from_secs(5)),
            "a connection still open {:?} after the 1 s idle timeout",
            start.elapsed()
        );
    }
    // not before the timeout: a connection opened now is still open at 0.5 s
    let mut fresh = TcpStream::connect(&host).unwrap();
    assert!(!closed_within(&mut fresh, Duration::from_millis(500)));
    assert!(closed_within(&mut fresh, Duration::from_secs(5)));
}

#[test]
fn a_client_holding_1100_idle_sockets_does_not_lock_others_out() {
    raise_open_files();
    let dir = small_db();
    // the default cap (1,000 connections) and idle timeout (20 s): the idle
    // sockets stay until the cap makes room for new ones
    let (_server, host) = serve_with(dir.path(), &[]);
    let mut idle = vec![];
    for _ in 0..1100 {
        idle.push(TcpStream::connect(&host).unwrap());
    }
    // the server has taken them (accepts run ahead of this loop)
    std::thread::sleep(Duration::from_millis(300));
    for round in 0..5 {
        let (status, body) = get(&host, QUERY);
        assert_eq!(status, 200, "round {round}: {body}");
        assert!(body.contains("\"value\":\"win\""), "{body}");
    }
    // the queries were answered while the newest idle sockets were still
    // held, not after the idle timeout freed them; the oldest were closed
    // to make room
    let mut newest_open = 0;
    for s in idle.iter_mut().rev().take(50) {
        newest_open += usize::from(!closed_within(s, Duration::from_millis(20)));
    }
    assert_eq!(newest_open, 50, "the newest idle sockets were closed");
    let mut closed = 0;
    for s in idle.iter_mut().take(50) {
        closed += usize::from(closed_within(s, Duration::from_millis(100)));
    }
    drop(idle);
    assert!(closed > 0, "no idle socket was closed to make room");
}

#[test]
fn sigterm_and_sigint_stop_the_server_whatever_clients_do() {
    let dir = small_db();
    for signal in ["-TERM", "-INT"] {
        let (mut server, host) = serve_with(dir.path(), &[]);
        // a half-sent request, a silent socket and a kept-alive connection
        let mut half = TcpStream::connect(&host).unwrap();
        half.write_all(b"GET /api/query?position=").unwrap();
        let _silent = TcpStream::connect(&host).unwrap();
        let mut kept = TcpStream::connect(&host).unwrap();
        write!(kept, "GET /api/health HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
        let mut first = [0u8; 12];
        kept.read_exact(&mut first).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        let start = Instant::now();
        let kill = std::process::Command::new("kill")
            .args([signal, &server.0.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        loop {
            if let Some(status) = server.0.try_wait().unwrap() {
                assert!(status.success(), "{signal}: {status}");
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "still running 5 s after kill {signal}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Positions spread over the 4-4 table (many blocks), as query paths.
fn spread_over_4_4(n: u64) -> Vec<String> {
    let ix = Indexer::new();
    let sub = Subspace {
        mover: 4,
        opponent: 4,
        mover_hand: 0,
        opponent_hand: 0,
    };
    (ix.spread(sub, n).into_iter())
        .map(|p| format!("/api/query?position={}", p.to_string().replace(' ', "%20")))
        .collect()
}

#[test]
fn a_file_truncated_or_replaced_under_the_server_is_an_error_then_read_anew() {
    let dir = own_db();
    let path = dir.path().join("4-4-0-0.mdb");
    let good = std::fs::read(&path).unwrap();
    let (mut server, host) = serve_with(dir.path(), &[]);
    let queries = spread_over_4_4(40);
    let (status, answer) = get(&host, &queries[0]);
    assert_eq!(status, 200, "{answer}");
    // truncated in place, under the open file: an error naming the file,
    // relative to the database, and the server lives on
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(good.len() as u64 / 2).unwrap();
    drop(f);
    // past the moment between two looks at the file
    std::thread::sleep(Duration::from_millis(600));
    let absolute = dir.path().display().to_string();
    let mut errors = 0;
    for q in &queries[1..] {
        let (status, body) = get(&host, q);
        assert!(status == 200 || status == 500, "{status} {body}");
        assert!(!body.contains(&absolute), "{body}");
        if status == 500 {
            assert!(body.contains("4-4-0-0.mdb"), "{body}");
            errors += 1;
        }
    }
    assert!(errors > 0, "no query read the truncated file");
    assert!(server.0.try_wait().unwrap().is_none(), "the server died");
    let (status, health) = get(&host, "/api/health");
    assert_eq!(status, 200);
    assert!(health.contains("\"status\":\"damaged\""), "{health}");
    assert!(health.contains("4-4-0-0.mdb"), "{health}");
    assert!(!health.contains(&absolute), "{health}");
    // repaired by rename: every query answered again, health ok
    let tmp = path.with_extension("new");
    std::fs::write(&tmp, &good).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    std::thread::sleep(Duration::from_millis(600));
    let (status, again) = get(&host, &queries[0]);
    assert_eq!(status, 200, "{again}");
    assert_eq!(again, answer);
    for q in &queries[1..] {
        let (status, body) = get(&host, q);
        assert_eq!(status, 200, "{body}");
    }
    let (_, health) = get(&host, "/api/health");
    assert!(health.contains("\"status\":\"ok\""), "{health}");
    // replaced by rename with a damaged file: noticed, the old copy not used
    let mut bad = good.clone();
    bad[20] ^= 1;
    std::fs::write(&tmp, &bad).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    std::thread::sleep(Duration::from_millis(600));
    let (_, health) = get(&host, "/api/health");
    assert!(health.contains("\"status\":\"damaged\""), "{health}");
    let (status, body) = get(&host, &queries[0]);
    assert_eq!(status, 500, "{body}");
    assert!(server.0.try_wait().unwrap().is_none(), "the server died");
}

/// The descriptors of process `pid`: how many, and how many name a deleted
/// file.
fn open_files(pid: u32) -> (usize, usize) {
    let links: Vec<_> = (std::fs::read_dir(format!("/proc/{pid}/fd")).unwrap())
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .collect();
    let deleted = (links.iter())
        .filter(|l| l.to_string_lossy().ends_with(" (deleted)"))
        .count();
    (links.len(), deleted)
}

/// Files replaced by rename, again and again, under the server: each old
/// file is closed once the server has moved to the new one, so no
/// descriptor of a deleted file stays open (its disk space comes back) and
/// the count of descriptors does not grow; every answer stays right.
#[test]
fn replaced_files_are_closed_and_their_space_given_back() {
    let dir = own_db();
    let (server, host) = serve_with(dir.path(), &[]);
    let pid = server.0.id();
    let queries = spread_over_4_4(20);
    let right: Vec<_> = queries.iter().map(|q| get(&host, q)).collect();
    // health opens every table
    assert_eq!(get(&host, "/api/health").0, 200);
    let (before, deleted) = open_files(pid);
    assert_eq!(deleted, 0);
    let files: Vec<_> = (std::fs::read_dir(dir.path()).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mdb"))
        .collect();
    assert!(files.len() > 20, "{} files", files.len());
    for _ in 0..4 {
        for f in &files {
            let tmp = f.with_extension("new");
            std::fs::copy(f, &tmp).unwrap();
            std::fs::rename(&tmp, f).unwrap();
        }
        // past the moment between two looks at each file
        std::thread::sleep(Duration::from_millis(600));
        let (status, health) = get(&host, "/api/health");
        assert_eq!(status, 200);
        assert!(health.contains("\"status\":\"ok\""), "{health}");
        for (q, want) in queries.iter().zip(&right) {
            assert_eq!(&get(&host, q), want, "{q}");
        }
        let (now, deleted) = open_files(pid);
        assert_eq!(deleted, 0, "descriptors of deleted files open");
        assert!(now <= before + 2, "{before} descriptors, then {now}");
    }
}

#[test]
fn errors_echo_little_of_a_request() {
    let dir = small_db();
    let (_server, host) = serve_with(dir.path(), &[]);
    for path in [
        format!("/api/stats/{}", "9".repeat(3000)),
        format!("/api/stats/{}", "x".repeat(3000)),
        format!("/{}", "y".repeat(3000)),
        format!("/api/mainline?max_plies={}", "1".repeat(400)),
        format!(
            "/api/mainline?position=WW.....BB..........W.B..%20w%200%200&max_plies={}",
            "1".repeat(400)
        ),
        format!(
            "/api/query?position=WW.....BB..........W.B..%20w%200%200&counter={}",
            "1".repeat(400)
        ),
    ] {
        let (status, body) = get(&host, &path);
        assert!((400..500).contains(&status), "{status}");
        assert!(body.len() < 400, "{status}: {} bytes: {body}", body.len());
        // what of the request comes back is an excerpt, not a long run
        for c in ['9', 'x', 'y', '1'] {
            assert!(!body.contains(&c.to_string().repeat(100)), "{body}");
        }
    }
}

#[test]
fn serving_beyond_loopback_warns() {
    let dir = small_db();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args([
            "serve",
            "--db",
            dir.path().to_str().unwrap(),
            "--addr",
            "0.0.0.0:0",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut text = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().unwrap()),
        &mut text,
    )
    .unwrap();
    let _ = Killed(child);
    assert!(
        text.contains("warning") && text.contains("loopback"),
        "{text}"
    );
}

/// Tables rewritten in place in a loop (truncated, then written back whole,
/// as `cp backup/x.mdb db/x.mdb` does) while queries run and the server
/// opens the files anew: the server stays up, and every answer is the right
/// one or an error naming the file. No served table is read through a
/// memory map, so a page that vanished under it cannot kill it (SIGBUS).
#[test]
fn tables_rewritten_in_place_under_the_server_never_kill_it() {
    let dir = own_db();
    let (mut server, host) = serve_with(dir.path(), &[]);
    let queries = spread_over_4_4(30);
    let right: Vec<String> = queries.iter().map(|q| get(&host, q).1).collect();
    let files = ["4-4-0-0.mdb", "3-4-1-0.mdb", "4-3-0-1.mdb"]
        .map(|f| dir.path().join(f))
        .into_iter()
        .filter(|p| p.is_file())
        .collect::<Vec<_>>();
    assert!(!files.is_empty());
    let goods: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (files, goods, stop) = (files.clone(), goods.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut rounds = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for (p, good) in files.iter().zip(&goods) {
                    // in place: the same inode, cut short then written whole
                    let mut f = std::fs::OpenOptions::new().write(true).open(p).unwrap();
                    f.set_len(good.len() as u64 / 3).unwrap();
                    std::thread::sleep(Duration::from_millis(3));
                    f.set_len(0).unwrap();
                    f.write_all(good).unwrap();
                }
                rounds += 1;
            }
            rounds
        })
    };
    let (mut ok, mut errors) = (0, 0);
    let until = Instant::now() + Duration::from_secs(4);
    while Instant::now() < until {
        for (q, want) in queries.iter().zip(&right) {
            let (status, body) = get(&host, q);
            match status {
                200 => {
                    assert_eq!(&body, want, "{q}: a wrong answer from a rewritten table");
                    ok += 1;
                }
                500 | 404 => {
                    assert!(
                        body.contains(".mdb"),
                        "{q}: an error naming no file: {body}"
                    );
                    errors += 1;
                }
                _ => panic!("{q}: {status} {body}"),
            }
        }
        let (status, _) = get(&host, "/api/health");
        assert_eq!(status, 200);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let rounds = writer.join().unwrap();
    assert!(server.0.try_wait().unwrap().is_none(), "the server died");
    assert!(
        rounds > 10 && ok > 0,
        "{rounds} rewrites, {ok} answers, {errors} errors"
    );
    // whole again: every answer right
    std::thread::sleep(Duration::from_millis(600));
    for (q, want) in queries.iter().zip(&right) {
        let (status, body) = get(&host, q);
        assert_eq!((status, &body), (200, want), "{q}");
    }
}

/// A stop lets a request in flight finish: an `expert` move asked just
/// before SIGTERM is answered whole, and the server then exits cleanly.
#[test]
fn a_stop_lets_a_request_in_flight_finish() {
    let dir = small_db();
    // the level's own budget: a move of some tenths of a second
    let (mut server, host) = serve_with(dir.path(), &["--expert-nodes", "3000000"]);
    let pos = "W.W.B..B.W..BW...B.W..B.%20w%200%200";
    let uri = format!("/api/play?position={pos}&level=expert");
    let asked = {
        let (host, uri) = (host.clone(), uri.clone());
        std::thread::spawn(move || get(&host, &uri))
    };
    // the request on its way, then the stop
    std::thread::sleep(Duration::from_millis(40));
    assert!(
        !asked.is_finished(),
        "the move was made before the stop: choose a longer search"
    );
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &server.0.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let (status, body) = asked.join().unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"move\""), "{body}");
    let status = server.0.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// The file descriptors are counted: under an open-file limit too low for
/// the database's tables the server refuses to start, naming the number
/// needed.
#[test]
fn an_open_file_limit_too_low_for_the_tables_is_refused_at_start() {
    let dir = small_db();
    let tables = millbase::storage::dir::DbDir::open(dir.path())
        .unwrap()
        .present()
        .len();
    let exe = env!("CARGO_BIN_EXE_millbase");
    let db = dir.path().to_str().unwrap();
    let o = std::process::Command::new("sh")
        .args([
            "-c",
            &format!(
                "ulimit -n {}; exec {exe} serve --db {db} --port 0",
                tables / 2
            ),
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains(&format!("{tables} table files")), "{e}");
    assert!(e.contains(&format!("ulimit -n {}", tables + 65)), "{e}");
}

/// The connection cap's 503: with every connection busy (requests in
/// flight, here `expert` moves queued behind one search slot), a new
/// connection is answered 503 at once, and the busy ones are answered.
#[test]
fn a_connection_over_the_cap_with_all_busy_is_a_503() {
    let dir = small_db();
    let args = [
        "--max-connections",
        "3",
        "--searches",
        "1",
        "--expert-nodes",
        "10000000",
    ];
    let (_server, host) = serve_with(dir.path(), &args);
    let pos = "W.W.B..B.W..BW...B.W..B.%20w%200%200";
    // the three requests sent (and given time to be read), then one more
    // connection; each move takes about a second, one after the other
    let busy: Vec<_> = (0..3)
        .map(|k| {
            let uri = format!("/api/play?position={pos}&level=expert&seed={k}");
            let s = sent(&host, &uri);
            std::thread::spawn(move || answer(s, &uri))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(150));
    let mut extra = TcpStream::connect(&host).unwrap();
    extra
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    // the server may answer before the request is sent: a failed write is
    // no failure, the 503 is read all the same
    let _ = write!(
        extra,
        "GET /api/health HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    );
    let mut answer = String::new();
    let _ = extra.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("too many connections"), "{answer}");
    for b in busy {
        let (status, body) = b.join().unwrap();
        assert_eq!(status, 200, "{body}");
    }
}

/// A client that asks for searching moves faster than its token bucket
/// refills gets 429 with Retry-After, while its plain queries answer.
#[test]
fn a_client_over_its_token_bucket_gets_429s_and_keeps_its_queries() {
    let dir = small_db();
    let (_server, host) = serve_with(dir.path(), &[]);
    let pos = "W.W.B..B.W..BW...B.W..B.%20w%200%200";
    let uri = format!("/api/play?position={pos}&level=simple");
    let mut refused = 0;
    for _ in 0..40 {
        let (status, body) = get(&host, &uri);
        match status {
            200 => {}
            429 => {
                assert!(body.contains("too many expensive requests"), "{body}");
                refused += 1;
            }
            s => panic!("{s} {body}"),
        }
    }
    assert!(refused > 0, "40 searches at once and none refused");
    let (status, body) = get(&host, QUERY);
    assert_eq!(status, 200, "{body}");
}
