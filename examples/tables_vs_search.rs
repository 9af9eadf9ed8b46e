//! Compares the placement tables of a database with the independent search of
//! the placement phase (`solve-opening --search`), position by position: the
//! value and plies of a placement position and of every move from it, on
//! positions taken from random games (a random number of random legal moves
//! from the initial position, or from START such as `"........................ w 5 5"`
//! for a `--max-stones 5` database, stopped inside the placement phase).
//!
//! ```sh
//! cargo run --release --example tables_vs_search -- DIR 1000 [SEED] [START]
//! ```
//!
//! One search serves all positions, so what it learns on one is reused on the
//! next; its memory grows to that of solving the initial position (about
//! 10 GB). Prints a line every 100 positions and a summary; exits with status
//! 1 on any difference.

use millbase::moves;
use millbase::opening::{OpeningSearch, Precision};
use millbase::position::Position;
use millbase::query::Database;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(count)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u64>().ok()))
    else {
        eprintln!(
            "usage: tables_vs_search DIR COUNT [SEED] [START]   (e.g. tables_vs_search data/db 1000)"
        );
        return ExitCode::from(2);
    };
    let mut seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let initial = match args.get(4).map(|s| s.parse::<Position>()) {
        None => Position::initial(),
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            eprintln!("error: START: {e}");
            return ExitCode::from(2);
        }
    };
    let db = match Database::open(std::path::Path::new(dir)) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let rules = db.rules();
    let mut next = move |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % n as u64) as usize
    };
    let mut search = OpeningSearch::new(&db, Precision::ExactPlies);
    let start = Instant::now();
    let (mut compared, mut moves_compared, mut differences) = (0u64, 0u64, 0u64);
    let mut by_ply = [0u64; 18];
    while compared < count {
        // a random game, stopped after 0 to 17 plies (stones still in hand)
        let stop = next(18);
        let mut pos = initial;
        for _ in 0..stop {
            let list = moves::legal_moves(&pos, rules);
            if list.is_empty() {
                break;
            }
            pos = moves::apply(&pos, list[next(list.len())]);
        }
        if pos.mover_hand == 0 || moves::ending(&pos, rules).is_some() {
            continue;
        }
        let tables = match db.answer_from_tables(&pos) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: {pos}: {e}");
                return ExitCode::from(1);
            }
        };
        let searched = match search.answer(&pos) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: {pos}: {e}");
                return ExitCode::from(1);
            }
        };
        let same = tables.value == searched.value
            && tables.moves.len() == searched.moves.len()
            && tables.moves.iter().all(|m| {
                searched
                    .moves
                    .iter()
                    .any(|s| s.mv == m.mv && s.value == m.value)
            });
        if !same {
            differences += 1;
            println!(
                "DIFFERENT {pos}: tables {:?}, search {:?}",
                tables.value, searched.value
            );
        }
        compared += 1;
        moves_compared += tables.moves.len() as u64;
        by_ply[stop] += 1;
        if compared % 100 == 0 {
            println!(
                "{compared} positions, {moves_compared} moves, {differences} differences, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "{} rules: {compared} placement positions from random games ({moves_compared} moves) \
         compared, tables against search: {differences} differences, {:.1} s; positions by \
         plies played: {by_ply:?}",
        rules.name(),
        start.elapsed().as_secs_f64()
    );
    if differences == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
