//! A fixed workload of warm probes for an instruction count: opens the
//! database DIR, probes about 2,000 positions spread over subspace SUB
//! (default 5-4: 1,891 positions) once (the blocks come into the cache), then
//! ROUNDS times more. Run under
//! `valgrind --tool=callgrind` with ROUNDS 0 and 20: the difference over the
//! probes is the instructions of one warm probe, repeatable whatever
//! else the machine does (build without `target-cpu=native`, which valgrind
//! may not decode: `RUSTFLAGS="-C target-cpu=x86-64-v2"`).
//!
//! `cargo run --release --example warm_probes -- DIR ROUNDS [SUB]` (DIR: a
//! database of at least 9 stones in all, e.g. the benches' `target/bench-db-v2`;
//! SUB another of its subspaces, e.g. 4-5, whose file stores no plies: each
//! win or loss then costs a one-ply search).

use millbase::answer::query::Database;
use millbase::index::{Indexer, Subspace};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(rounds)) = (
        args.get(1),
        args.get(2).and_then(|r| r.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: warm_probes DIR ROUNDS [SUB]");
        std::process::exit(2);
    };
    let sub: Subspace = match args.get(3).map(|s| s.parse()) {
        None => Subspace {
            mover: 5,
            opponent: 4,
            mover_hand: 0,
            opponent_hand: 0,
        },
        Some(Ok(sub)) => sub,
        Some(Err(e)) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let db = Database::open(std::path::Path::new(dir)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1);
    });
    let ix = Indexer::new();
    let positions = ix.spread(sub, 2000);
    for p in &positions {
        db.probe(p).expect("a probe");
    }
    let mut plies = 0u64;
    for _ in 0..rounds {
        for p in &positions {
            let v = std::hint::black_box(db.probe(p).expect("a probe"));
            plies += u64::from(v.plies().unwrap_or(0));
        }
    }
    println!("{} probes, {plies} plies in all", positions.len() * rounds);
}
