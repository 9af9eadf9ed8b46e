//! Rank and unrank throughput on the largest subspaces, on random positions.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use millbase::index::{Indexer, Subspace};
use millbase::rules::geometry::{Bits, POINTS};
use std::hint::black_box;

fn random_positions(w: u32, b: u32, n: usize) -> Vec<(Bits, Bits)> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % POINTS as u64) as u32
    };
    (0..n)
        .map(|_| {
            let (mut m, mut o) = (0u32, 0u32);
            while m.count_ones() < w {
                m |= 1 << next();
            }
            while o.count_ones() < b {
                let p = next();
                if m & (1 << p) == 0 {
                    o |= 1 << p;
                }
            }
            (m, o)
        })
        .collect()
}

fn index(c: &mut Criterion) {
    let ix = Indexer::new();
    const N: usize = 4096;
    let mut group = c.benchmark_group("index");
    group.throughput(Throughput::Elements(N as u64));
    for (w, b) in [(8u8, 8u8), (9, 9)] {
        let sub = Subspace::movement(w, b);
        let positions = random_positions(w as u32, b as u32, N);
        let size = ix.index_size(sub);
        let indices: Vec<u64> = (0..N as u64).map(|i| (i * 0x9E37_79B9) % size).collect();
        group.bench_function(format!("rank/{sub}"), |bch| {
            bch.iter(|| {
                positions.iter().fold(0u64, |acc, &(m, o)| {
                    acc ^ ix.rank(black_box(m), black_box(o))
                })
            })
        });
        group.bench_function(format!("unrank/{sub}"), |bch| {
            bch.iter(|| {
                indices
                    .iter()
                    .fold(0u32, |acc, &i| acc ^ ix.slot(sub, black_box(i)).1)
            })
        });
    }
    group.finish();
}

/// What a reader started for one query pays to rank its first 9-against-9
/// position: a whole table built, or the orbits kept in a database's
/// `index/` folder read and checked.
fn first_rank(c: &mut Criterion) {
    use millbase::storage::orbits::DirOrbits;
    let dir = tempfile::tempdir().unwrap();
    let kept = Indexer::new();
    kept.build_tables(9);
    kept.save_orbits(&DirOrbits::at(dir.path(), 24));
    let (m, o) = random_positions(9, 9, 1)[0];
    let mut group = c.benchmark_group("first rank 9-9");
    group.sample_size(20);
    group.bench_function("table built", |bch| {
        bch.iter(|| Indexer::new().rank(black_box(m), black_box(o)))
    });
    group.bench_function("orbits read", |bch| {
        bch.iter(|| {
            Indexer::with_store(
                millbase::rules::geometry::Geometry::nine(),
                Box::new(DirOrbits::at(dir.path(), 24)),
            )
            .rank(black_box(m), black_box(o))
        })
    });
    group.finish();
    // a rank from read orbits: a search of the least sets per mover set
    let read = Indexer::with_store(
        millbase::rules::geometry::Geometry::nine(),
        Box::new(DirOrbits::at(dir.path(), 24)),
    );
    let positions = random_positions(9, 9, 4096);
    let mut group = c.benchmark_group("index");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("rank/9-9 from read orbits", |bch| {
        bch.iter(|| {
            positions.iter().fold(0u64, |acc, &(m, o)| {
                acc ^ read.rank(black_box(m), black_box(o))
            })
        })
    });
    group.finish();
}

criterion_group!(benches, index, first_rank);
criterion_main!(benches);
