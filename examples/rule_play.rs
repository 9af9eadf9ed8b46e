//! The perfect player under the no-removal rule, database against database,
//! on a complete database.
//!
//! ```text
//! cargo run --release --example rule_play -- DB [WINS] [SEED] [STONES]
//! ```
//!
//! Takes positions of random games (uniformly random legal moves from the
//! initial position of the game with STONES stones a side, default 9, every
//! position of which DB must hold; stopped after a random number of plies below 80) at a
//! random counter: for a win at counter 0 with distance `dtc`, a third of the
//! time the largest counter at which it still fits in the limit `L` (`L -
//! dtc`, where a slow conversion would trip the rule), a third of the time the
//! next one (a cursed win), otherwise a uniformly random counter below `L`. Where the database
//! calls the position a win under the rule, both sides play
//! `Database::line_at` (the best move of `Database::best_move_at` at each
//! ply) and the winner must win the game: the loser is left without a move or
//! with two stones before the counter reaches the limit, and the first removal
//! or the end comes after exactly the `dtc` plies the database gave. Where it
//! calls the position a cursed win, the defender must reach the draw: the
//! counter reaches the limit and the game does not end. Stops after WINS
//! (default 1,000) wins and at least a tenth as many cursed wins (or 200,000
//! positions); prints the counts and the time; exits 1 at the first game that
//! goes otherwise.

use millbase::answer::query::Database;
use millbase::rules::moves;
use millbase::rules::position::Position;
use millbase::solve::counter::Category;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::process::ExitCode;
use std::time::Instant;

/// How a game played out by both sides' perfect play under the rule ended.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// The side to move at the start won, the first removal or the end
    /// coming after this many plies.
    Won { conversion: u16 },
    /// The side to move at the start lost.
    Lost,
    /// The counter reached the limit.
    Drawn,
}

/// Plays `pos` at `counter` out under the rule of `limit` plies.
fn play(db: &Database, pos: &Position, counter: u16, limit: u16) -> Outcome {
    let line = db
        .line_at(pos, counter, 20 * limit as usize)
        .unwrap_or_else(|e| panic!("{pos} at {counter}: {e}"));
    let mut c = counter;
    let mut conversion = None;
    for (ply, step) in line.steps.iter().enumerate() {
        let ply = ply as u16 + 1;
        c = if step.mv.remove.is_some() { 0 } else { c + 1 };
        let over = step.position.mover_below_minimum()
            || moves::legal_moves(&step.position, db.variant()).is_empty();
        if conversion.is_none() && (step.mv.remove.is_some() || over) {
            conversion = Some(ply);
        }
        if over {
            return if ply % 2 == 1 {
                Outcome::Won {
                    conversion: conversion.unwrap_or(ply),
                }
            } else {
                Outcome::Lost
            };
        }
        if c >= limit {
            return Outcome::Drawn;
        }
    }
    panic!("{pos} at {counter}: the line stops before the game ends")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: rule_play DB [WINS] [SEED] [STONES]");
        return ExitCode::from(2);
    };
    let wanted: u64 = args.get(1).map_or(1_000, |s| s.parse().expect("WINS"));
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("SEED"));
    let db = Database::open(std::path::Path::new(dir)).unwrap_or_else(|e| panic!("{dir}: {e}"));
    let Some(limit) = db.move_limit() else {
        eprintln!("{dir} holds no tables of the no-removal rule");
        return ExitCode::from(2);
    };
    let variant = db.variant();
    let stones: u8 = args.get(3).map_or(9, |s| s.parse().expect("STONES"));
    let start: Position = format!("........................ w {stones} {stones}")
        .parse()
        .expect("STONES from 3 to 9");
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut wins, mut cursed, mut positions) = (0u64, 0u64, 0u64);
    let clock = Instant::now();
    while (wins < wanted || cursed < wanted / 10) && positions < 200_000 {
        positions += 1;
        let mut pos = start;
        for _ in 0..rng.random_range(0..80) {
            let legal = moves::legal_moves(&pos, variant);
            if pos.mover_below_minimum() || legal.is_empty() {
                break;
            }
            pos = moves::apply(&pos, legal[rng.random_range(0..legal.len())]);
        }
        if pos.mover_below_minimum() || moves::legal_moves(&pos, variant).is_empty() {
            continue;
        }
        let at = |c: u16| {
            db.answer_at(&pos, c)
                .unwrap_or_else(|e| panic!("{pos} at {c}: {e}"))
                .rule
                .expect("a rule value")
        };
        let zero = at(0);
        // a win at counter 0 of dtc d is a win up to counter L - d and a
        // cursed win from L - d + 1 on
        let counter = match (zero.category, zero.dtc, rng.random_range(0..3)) {
            (Category::Win, Some(d), 0) => limit - d,
            (Category::Win, Some(d), 1) => (limit - d + 1).min(limit - 1),
            _ => rng.random_range(0..limit),
        };
        let r = at(counter);
        let expected = match r.category {
            Category::Win => Outcome::Won {
                conversion: r.dtc.expect("a win's dtc"),
            },
            Category::CursedWin => Outcome::Drawn,
            _ => continue,
        };
        let got = play(&db, &pos, counter, limit);
        if got != expected {
            eprintln!("{pos} at counter {counter}: {r:?}, but the game went {got:?}");
            return ExitCode::FAILURE;
        }
        match r.category {
            Category::Win => wins += 1,
            _ => cursed += 1,
        }
    }
    println!(
        "{wins} wins won inside the {limit}-ply rule, {cursed} cursed wins drawn by it; \
         {positions} positions drawn from random games (seed {seed}); {:.1} s",
        clock.elapsed().as_secs_f64()
    );
    if wins < wanted {
        eprintln!("fewer wins than asked for in 200,000 positions");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
