//! Compares a database with the brute-force oracle of the tests, position by
//! position, for every movement position with at most `--max-total` stones in
//! all (9: the subspaces 3-3 up to 6-3, 5-4, 4-5 and 3-6). The oracle shares no
//! game logic with the engine: it walks every placement of the stones (no
//! symmetry, no index) with the moves of the naive rules in `tests/naive`.
//!
//! ```sh
//! cargo run --release -- generate --db D --max-total 9
//! cargo run --release --example brute_check -- D 9
//! ```
//!
//! Memory: the oracle keeps two bytes for every pair of stone sets; for
//! `--max-total 9` the process peaks at about 4.4 GB (17 minutes on 2 cores per
//! variant, docs/RESULTS.md). Prints one line per subspace and exits with
//! status 1 on any mismatch.

#[path = "../tests/brute/mod.rs"]
mod brute;
#[path = "../tests/naive/mod.rs"]
mod naive;

use brute::{Brute, all_sets, binom};
use millbase::build::complete::load_known;
use millbase::index::plan::{Limits, plan};
use millbase::index::{Indexer, Subspace};
use millbase::solve::known::Kind;
use millbase::solve::known::Known;
use millbase::storage::dir::DbDir;
use rayon::prelude::*;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(max_total)) =
        (args.get(1), args.get(2).and_then(|t| t.parse::<u8>().ok()))
    else {
        eprintln!("usage: brute_check DIR MAX_TOTAL   (e.g. brute_check data/db-9 9)");
        return ExitCode::from(2);
    };
    let db = match DbDir::open(std::path::Path::new(dir)) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let limits = Limits {
        max_stones: 9,
        max_total,
        placement: false,
        move_limit: None,
    };
    let ix = Indexer::new();
    let mut brute = Brute::new(db.variant());
    let (mut positions, mut mismatches) = (0u64, 0u64);
    let start = Instant::now();
    println!(
        "{} rules, at most {max_total} stones in all",
        db.variant().name()
    );
    for rep in plan(limits) {
        let group: Vec<(u32, u32)> = rep
            .with_swap()
            .iter()
            .map(|s| (s.mover as u32, s.opponent as u32))
            .collect();
        let t = Instant::now();
        brute.solve_group(&group);
        let solved = t.elapsed().as_secs_f64();
        for (w, b) in group {
            let sub = Subspace::movement(w as u8, b as u8);
            let mut known = Known::new();
            if let Err(e) = load_known(&db, &ix, Kind::Game, &[sub], &mut known) {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
            let table = known.table(sub).expect("loaded");
            let opps = all_sets(b);
            let bad: u64 = all_sets(w)
                .par_iter()
                .map(|&m| {
                    opps.iter()
                        .filter(|&&o| o & m == 0)
                        .filter(|&&o| {
                            table[ix.rank(m, o) as usize].value() != Some(brute.value(m, o))
                        })
                        .count() as u64
                })
                .sum();
            let n = binom(24, w) * binom(24 - w, b);
            positions += n;
            mismatches += bad;
            println!("{sub}: {n} positions, {bad} mismatches (group solved in {solved:.1} s)");
        }
    }
    println!(
        "all: {positions} positions, {mismatches} mismatches, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    if mismatches > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
