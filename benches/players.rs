//! The time a move takes at each level: `simple`, `hard` and `expert` on
//! three positions of the full game (the initial position, a movement
//! position and a flying one), `perfect` and `ultra` on positions of the
//! 5-stone game (a database of it built once into
//! target/bench-db-players). One thread.

use criterion::{Criterion, criterion_group, criterion_main};
use millbase::Variant;
use millbase::answer::query::Database;
use millbase::build::generate::{Silent, generate};
use millbase::index::Indexer;
use millbase::index::plan::Limits;
use millbase::play::players::Level;
use millbase::rules::game::Game;
use std::path::PathBuf;
use std::sync::Arc;

const POSITIONS: [(&str, &str); 3] = [
    ("initial", "........................ w 9 9"),
    ("movement 6-6", "WBW...BBW....BB.WW..BW.. w 0 0"),
    ("flying 3-5", "W.....W....B.BB..B..BW.. w 0 0"),
];

/// Positions of the 5-stone game for the database players.
const SMALL: [(&str, &str); 2] = [
    ("placement w 5 5", "........................ w 5 5"),
    ("movement 5-5", "......WW..WWW..BBB.BB... b 0 0"),
];

fn database() -> Arc<Database> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-db-players");
    let limits = Limits {
        max_stones: 5,
        max_total: 10,
        placement: true,
        move_limit: Some(100),
    };
    generate(&dir, Variant::default(), limits, &Indexer::new(), &Silent).unwrap();
    Arc::new(Database::open(&dir).unwrap())
}

fn bench(c: &mut Criterion) {
    let variant = Variant::default();
    let mut group = c.benchmark_group("move");
    group.sample_size(10);
    for (name, pos) in POSITIONS {
        let game = Game::new(pos.parse().unwrap(), variant, 0);
        for level in [Level::Simple, Level::Hard, Level::Expert] {
            let mut player = level.player(1, None).unwrap();
            group.bench_function(format!("{level} ({name})"), |b| {
                b.iter(|| player.choose(&game).unwrap())
            });
        }
    }
    let db = database();
    for (name, pos) in SMALL {
        let game = Game::new(pos.parse().unwrap(), variant, 0);
        for level in [Level::Perfect, Level::Ultra] {
            let mut player = level.player(1, Some(db.clone())).unwrap();
            player.choose(&game).unwrap(); // warm: blocks decoded
            group.bench_function(format!("{level} ({name})"), |b| {
                b.iter(|| player.choose(&game).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
