//! Compares a database with the brute-force oracle of the tests, position by
//! position: every movement position with at most `MAX_TOTAL` stones in all
//! (9: the subspaces 3-3 up to 6-3, 5-4, 4-5 and 3-6), each side at most
//! `STONES` (9 when not given); with `STONES`, also every placement position
//! of the game where each side starts with `STONES` stones. The oracle shares
//! no game logic with the engine: it walks every placement of the stones (no
//! symmetry, no index) with the moves of the naive rules in `tests/naive`, and
//! solves the placement phase by backward induction over its sectors.
//!
//! ```sh
//! cargo run --release -- generate --db D --max-total 9
//! cargo run --release --example brute_check -- D 9
//! # the whole 5-stone game, placement included
//! cargo run --release -- generate --db D5 --max-stones 5
//! cargo run --release --example brute_check -- D5 10 5
//! ```
//!
//! Memory: the oracle keeps two bytes for every pair of stone sets; for
//! `MAX_TOTAL` 9 the process peaks at about 4.4 GB (docs/RESULTS.md). Prints
//! one line per subspace and sector and exits with status 1 on any mismatch.

#[path = "../tests/brute/mod.rs"]
mod brute;
#[path = "../tests/naive/mod.rs"]
mod naive;

use brute::{Brute, Placement, all_sets, binom, sector_position};
use millbase::build::complete::{load_known, read_complete};
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
        eprintln!(
            "usage: brute_check DIR MAX_TOTAL [STONES]   (e.g. brute_check data/db-9 9, \
             or brute_check D5 10 5 for the whole 5-stone game)"
        );
        return ExitCode::from(2);
    };
    let stones: Option<u8> = match args.get(3).map(|t| t.parse::<u8>()) {
        None => None,
        Some(Ok(n)) if (3..=9).contains(&n) => Some(n),
        Some(_) => {
            eprintln!("error: STONES must be a number from 3 to 9");
            return ExitCode::from(2);
        }
    };
    let db = match DbDir::open(std::path::Path::new(dir)) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let limits = Limits {
        max_stones: stones.unwrap_or(9),
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
    if let Some(n) = stones {
        let t = Instant::now();
        let placement = Placement::solve(&brute, n);
        println!(
            "placement phase of the {n}-stone game solved in {:.1} s",
            t.elapsed().as_secs_f64()
        );
        for sector in Placement::sectors(n) {
            let (m, o, mh, oh) = sector;
            let sub = Subspace {
                mover: m as u8,
                opponent: o as u8,
                mover_hand: mh,
                opponent_hand: oh,
            };
            let table = match read_complete(&db, &ix, Kind::Game, sub) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            };
            let opps = all_sets(o);
            let bad: u64 = all_sets(m)
                .par_iter()
                .map(|&ms| {
                    (opps.iter())
                        .filter(|&&os| os & ms == 0)
                        .filter(|&&os| {
                            let want = placement.value(&sector_position(sector, ms, os));
                            table[ix.rank(ms, os) as usize].value() != Some(want)
                        })
                        .count() as u64
                })
                .sum();
            let n = binom(24, m) * binom(24 - m, o);
            positions += n;
            mismatches += bad;
            println!("{sub}: {n} positions, {bad} mismatches");
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
