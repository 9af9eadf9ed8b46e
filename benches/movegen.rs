//! Move generation throughput over a fixed set of positions from both phases.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use millbase::Variant;
use millbase::rules::moves;
use millbase::rules::position::Position;
use std::hint::black_box;

const POSITIONS: [&str; 8] = [
    "........................ w 9 9",
    "WW.B.....B.W............ w 6 6",
    "WW.......B.......WBBB... w 5 5",
    "W.W.B.W.B.W.B........... b 5 6",
    "WWW.B....B....B.....B... w 0 0",
    "WW.W.W...B.B..B.B.....B. w 0 0",
    "WWWW.B.B.B.B..W......... b 0 0",
    "W.W..W..B..BW...B..B.... w 0 0",
];

fn movegen(c: &mut Criterion) {
    let positions: Vec<Position> = POSITIONS.iter().map(|s| s.parse().unwrap()).collect();
    let variant = Variant::default();
    let per_round: usize = positions
        .iter()
        .map(|p| moves::legal_moves(p, variant).len())
        .sum();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(per_round as u64));
    let mut buf = Vec::with_capacity(256);
    group.bench_function("generate", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                buf.clear();
                moves::generate(black_box(p), variant, &mut buf);
                n += buf.len();
            }
            n
        })
    });
    group.bench_function("generate_and_apply", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for p in &positions {
                buf.clear();
                moves::generate(black_box(p), variant, &mut buf);
                for &m in &buf {
                    acc ^= moves::apply(p, m).mover;
                }
            }
            acc
        })
    });
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
