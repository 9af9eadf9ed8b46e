//! Query speed against a generated database (positions with at most 9 stones in
//! all, on board and in hand, built once into target/bench-db-v2): warm single
//! probes and full move lists in a subspace whose file stores plies (5-4), one
//! whose file does not (4-5: plies by one ply of search) and three placement
//! sectors (4-4/1-0, whose moves lead into the movement phase, 2-2/3-2, and
//! 3-3/1-1 with White to move, whose file stores no plies); the
//! search of the reduced placement game `w 4 4`; probes that decode their
//! block each time (5-4, 4-4/1-0); and `millbase query` as a new
//! process. With `MILLBASE_BENCH_DB=DIR` (a complete database) also probes and
//! move lists in 9-8, 8-9 and the largest placement sectors (9-8 and 8-8/1-0
//! also decoding their block each time), and what they
//! would cost in a layout that stores fewer values.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use millbase::Variant;
use millbase::answer::opening::{OpeningSearch, Precision};
use millbase::answer::query::Database;
use millbase::build::generate::{Silent, generate};
use millbase::index::plan::Limits;
use millbase::index::{Indexer, Subspace};
use millbase::rules::position::Position;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;

fn bench_db() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-db-v2");
    generate(
        &dir,
        Variant::default(),
        Limits {
            max_stones: 6,
            max_total: 9,
            placement: true,
            move_limit: None,
        },
        &Indexer::new(),
        &Silent,
    )
    .unwrap();
    dir
}

/// The placement sector with `mover` and `opponent` stones on board and
/// `mover_hand` and `opponent_hand` in hand.
fn sector(mover: u8, opponent: u8, mover_hand: u8, opponent_hand: u8) -> Subspace {
    Subspace {
        mover,
        opponent,
        mover_hand,
        opponent_hand,
    }
}

/// Warm probes of `probes` positions and move lists of `move_lists` of them,
/// spread over `sub`. Warm means every block they touch stays in the
/// database's cache ([`millbase::answer::query::CACHE_BLOCKS`] blocks): a probe where
/// the file stores no plies touches each child's block, a move list where the
/// children's files store none each grandchild's too, so the counts are kept
/// small enough for that.
fn probes_and_moves(
    c: &mut Criterion,
    db: &Database,
    sub: Subspace,
    probes: u64,
    move_lists: usize,
) {
    let ix = Indexer::new();
    let positions = ix.spread(sub, probes);
    probe_all(db, &positions); // warm
    let mut group = c.benchmark_group("query");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function(format!("probe warm ({sub})"), |b| {
        b.iter(|| probe_all(db, &positions))
    });
    let few = &positions[..move_lists];
    for p in few {
        db.moves(p).unwrap();
    }
    group.throughput(Throughput::Elements(few.len() as u64));
    group.bench_function(format!("move list warm ({sub})"), |b| {
        b.iter(|| {
            few.iter()
                .map(|p| db.moves(black_box(p)).unwrap().len())
                .sum::<usize>()
        })
    });
    group.finish();
}

/// Probes every position of `positions`: how many have plies.
fn probe_all(db: &Database, positions: &[Position]) -> usize {
    positions
        .iter()
        .filter(|p| db.probe(black_box(p)).unwrap().plies().is_some())
        .count()
}

/// Probes of `probes` positions spread over `sub` through a cache of one
/// block, so that nearly every probe reads and decodes its block (from the
/// page cache: the files are read before).
fn probes_cold(c: &mut Criterion, dir: &std::path::Path, sub: Subspace, probes: u64) {
    let db = Database::open(dir).unwrap().with_cache_blocks(1);
    let positions = Indexer::new().spread(sub, probes);
    probe_all(&db, &positions); // the files into the page cache
    let mut group = c.benchmark_group("query");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function(format!("probe, block decoded ({sub})"), |b| {
        b.iter(|| probe_all(&db, &positions))
    });
    group.finish();
}

/// What the smallest placement layout within 2.5 GB would cost (docs/RESULTS.md,
/// Open targets): no plies stored in the `1-0` sectors and no values in the
/// White-to-move sectors, each then found by a search over the children. The
/// searches run here on today's tables: a `1-0` position's plies by its move
/// list, a `1-1` position's value by its children's move lists, and a `2-1`
/// position's move list by those of its children's children.
fn unstored_values(c: &mut Criterion, full: &std::path::Path) {
    let ix = Indexer::new();
    let db = Database::open(full).unwrap();
    // the position's value in that layout, found by the search it would need
    let value_10 = |p: &Position| db.moves(p).unwrap().len();
    let value_11 = |p: &Position| -> usize {
        db.moves(p)
            .unwrap()
            .iter()
            .map(|m| value_10(&m.position))
            .sum()
    };
    let mut group = c.benchmark_group("unstored");
    let p10: Vec<Position> = ix.spread(sector(8, 8, 1, 0), 500)[..20].to_vec();
    let p11: Vec<Position> = ix.spread(sector(8, 8, 1, 1), 500)[..20].to_vec();
    // two: the blocks that 20 move lists touch would exceed the cache
    let p21: Vec<Position> = ix.spread(sector(7, 8, 2, 1), 500)[..2].to_vec();
    group.throughput(Throughput::Elements(p10.len() as u64));
    group.bench_function("probe by search (8-8/1-0)", |b| {
        b.iter(|| p10.iter().map(|p| value_10(black_box(p))).sum::<usize>())
    });
    group.throughput(Throughput::Elements(p11.len() as u64));
    group.bench_function("probe by search (8-8/1-1)", |b| {
        b.iter(|| p11.iter().map(|p| value_11(black_box(p))).sum::<usize>())
    });
    group.throughput(Throughput::Elements(p21.len() as u64));
    group.bench_function("move list by search (7-8/2-1)", |b| {
        b.iter(|| {
            p21.iter()
                .flat_map(|p| db.moves(black_box(p)).unwrap())
                .map(|m| value_11(&m.position))
                .sum::<usize>()
        })
    });
    group.finish();
}

fn query(c: &mut Criterion) {
    if let Some(full) = std::env::var_os("MILLBASE_BENCH_DB") {
        unstored_values(c, std::path::Path::new(&full));
        for sub in [
            Subspace::movement(9, 8),
            Subspace::movement(8, 9),
            sector(8, 8, 1, 0),
            sector(8, 8, 1, 1),
            sector(7, 8, 2, 1),
        ] {
            // a database (and its block cache) for each: the blocks that one
            // subspace's benches touch would otherwise push out the next's
            let db = Database::open(std::path::Path::new(&full)).unwrap();
            // in the largest sectors the touched blocks of 2,000 probes or
            // 100 move lists exceed the cache
            probes_and_moves(c, &db, sub, 500, 20);
        }
        for sub in [Subspace::movement(9, 8), sector(8, 8, 1, 0)] {
            probes_cold(c, std::path::Path::new(&full), sub, 200);
        }
    }
    let dir = bench_db();
    let db = Database::open(&dir).unwrap();
    let ix = Indexer::new();
    for sub in [
        Subspace::movement(5, 4),
        Subspace::movement(4, 5),
        sector(4, 4, 1, 0),
        sector(2, 2, 3, 2),
        sector(3, 3, 1, 1),
    ] {
        probes_and_moves(c, &db, sub, 2000, 100);
    }
    for sub in [Subspace::movement(5, 4), sector(4, 4, 1, 0)] {
        probes_cold(c, &dir, sub, 200);
    }
    let positions = ix.spread(Subspace::movement(5, 4), 2000);

    // the placement phase: reduced games solved from scratch (fresh tables each time)
    let mut g = c.benchmark_group("opening");
    g.sample_size(10);
    for (root, precision) in [
        ("........................ w 4 4", Precision::WinDrawLoss),
        ("........................ w 4 4", Precision::ExactPlies),
    ] {
        let root: Position = root.parse().unwrap();
        g.bench_function(format!("solve {root} ({precision:?})"), |b| {
            b.iter(|| {
                OpeningSearch::new(&db, precision)
                    .value(black_box(&root))
                    .unwrap()
            })
        });
    }
    g.finish();

    let exe = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/millbase");
    if exe.exists() {
        let pos = positions[7].to_string();
        let mut g = c.benchmark_group("process");
        g.sample_size(20);
        g.bench_function("millbase query (new process)", |b| {
            b.iter(|| {
                let o = Command::new(&exe)
                    .args(["query", "--db", dir.to_str().unwrap(), &pos])
                    .output()
                    .unwrap();
                assert!(o.status.success());
            })
        });
        g.finish();
    }
}

criterion_group!(benches, query);
criterion_main!(benches);
