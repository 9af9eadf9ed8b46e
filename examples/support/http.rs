//! What the load examples share: a server started on a free port, HTTP/1.1
//! requests on kept-alive connections, positions of random games, the
//! server's peak memory.
#![allow(dead_code)]

use millbase::Variant;
use millbase::rules::moves;
use millbase::rules::position::Position;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// Positions of random games (at most 60 plies) from the initial position
/// with `stones` a side, seeded.
pub fn random_positions(n: usize, stones: u8, variant: Variant, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let root: Position = format!("........................ w {stones} {stones}")
        .parse()
        .unwrap();
    let mut out = vec![];
    while out.len() < n {
        let mut p = root;
        for _ in 0..rng.random_range(0..60) {
            let list = moves::legal_moves(&p, variant);
            if list.is_empty() {
                break;
            }
            p = moves::apply(&p, list[rng.random_range(0..list.len())]);
        }
        if !p.mover_below_minimum() && p.validate().is_ok() {
            out.push(p);
        }
    }
    out
}

/// Starts `exe serve --db db` on a free loopback port (its standard error
/// discarded): the process and the `HOST:PORT` it printed.
pub fn start(exe: &std::path::Path, db: &str) -> (Child, String) {
    started(Command::new(exe).args(["serve", "--db", db, "--addr", "127.0.0.1:0"]))
}

/// [`start`] under an open-file limit of `files` (`ulimit -n`).
pub fn start_limited(exe: &std::path::Path, db: &str, files: u64) -> (Child, String) {
    let script = format!("ulimit -n {files} && exec \"$0\" serve --db \"$1\" --addr 127.0.0.1:0");
    started(Command::new("sh").args(["-c", &script]).arg(exe).arg(db))
}

/// The open-file limit `exe serve --db db` asks for at least, from the
/// error it gives under a limit of 16.
pub fn files_needed(exe: &std::path::Path, db: &str) -> u64 {
    let script = "ulimit -n 16 && exec \"$0\" serve --db \"$1\" --addr 127.0.0.1:0";
    let o = (Command::new("sh").args(["-c", script]).arg(exe).arg(db))
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    let at = e
        .find("ulimit -n ")
        .unwrap_or_else(|| panic!("no limit named in {e:?}"));
    e[at + 10..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no limit named in {e:?}"))
}

/// The server `command` starts: the process and the `HOST:PORT` it printed.
fn started(command: &mut Command) -> (Child, String) {
    let mut server = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("start the server (cargo build --release first): {e}"));
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let host = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (server, host)
}

/// One request on a kept-alive connection: the status (0 if the server
/// closed the connection, or it failed) and the body.
pub fn request(reader: &mut BufReader<TcpStream>, host: &str, path: &str) -> (u16, Vec<u8>) {
    // one write: the request goes out in one segment
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n");
    if reader.get_mut().write_all(request.as_bytes()).is_err() {
        return (0, vec![]);
    }
    let (mut status, mut length, mut line) = (0, 0usize, String::new());
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return (0, vec![]);
        }
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
    match reader.read_exact(&mut body) {
        Ok(()) => (status, body),
        Err(_) => (0, vec![]),
    }
}

/// The peak memory of process `pid` in MB (`VmHWM`), or 0.
pub fn peak_mb(pid: u32) -> f64 {
    status_kb(pid, "VmHWM:") / 1024.0
}

/// The `n` sectors of the database `db` (served at `host`) with the most
/// entries, as `/api/stats/SECTOR` names them, and how many of them the
/// database keeps a report of in `reports/` (a kept report is read, not made).
pub fn largest_sectors(
    reader: &mut BufReader<TcpStream>,
    host: &str,
    db: &str,
    n: usize,
) -> (Vec<String>, usize) {
    let rows: serde_json::Value = serde_json::from_slice(&request(reader, host, "/api/stats").1)
        .expect("the rows of /api/stats");
    let mut sectors: Vec<(u64, String, String)> = (rows["tables"].as_array().unwrap().iter())
        .map(|row| {
            let n = |k: &str| row[k].as_u64().unwrap();
            let hands = (n("mover_hand"), n("opponent_hand"));
            let name = if hands == (0, 0) {
                format!("{}-{}", n("mover"), n("opponent"))
            } else {
                format!("{}-{}/{}-{}", n("mover"), n("opponent"), hands.0, hands.1)
            };
            let file = format!(
                "{}-{}-{}-{}.mdb.json",
                n("mover"),
                n("opponent"),
                hands.0,
                hands.1
            );
            (n("raw_bytes"), name, file)
        })
        .collect();
    sectors.sort_by(|a, b| b.cmp(a));
    sectors.truncate(n);
    let reports = std::path::Path::new(db).join("reports");
    let kept = (sectors.iter())
        .filter(|s| reports.join(&s.2).exists())
        .count();
    (sectors.into_iter().map(|s| s.1).collect(), kept)
}

/// The memory of process `pid` now in MB (`VmRSS`), or 0.
pub fn resident_mb(pid: u32) -> f64 {
    status_kb(pid, "VmRSS:") / 1024.0
}

/// A `kB` field of `/proc/PID/status`, or 0.
fn status_kb(pid: u32, field: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .unwrap_or(0.0)
}
