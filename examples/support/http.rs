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
    let mut server = Command::new(exe)
        .args(["serve", "--db", db, "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("start {} (cargo build --release first): {e}", exe.display()));
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
/// closed the connection) and the body.
pub fn request(reader: &mut BufReader<TcpStream>, host: &str, path: &str) -> (u16, Vec<u8>) {
    // one write: the request goes out in one segment
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n");
    reader.get_mut().write_all(request.as_bytes()).unwrap();
    let (mut status, mut length, mut line) = (0, 0usize, String::new());
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
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
    reader.read_exact(&mut body).unwrap();
    (status, body)
}

/// The peak memory of process `pid` in MB (`VmHWM`), or 0.
pub fn peak_mb(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}
