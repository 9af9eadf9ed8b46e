//! Solver throughput on a fixed small subset: the 4-3/3-4 pair (with 3-3 known).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use millbase::Rules;
use millbase::index::{Indexer, Subspace};
use millbase::solver::{Known, NoProgress, solve_pair};

fn solver(c: &mut Criterion) {
    let ix = Indexer::new();
    let rules = Rules::default();
    let mut known = Known::new();
    let base = solve_pair(&ix, rules, Subspace::movement(3, 3), &known, &NoProgress).unwrap();
    for s in base {
        known.insert(s.subspace, s.cells);
    }
    let sub = Subspace::movement(4, 3);
    let classes = ix.classes(sub) + ix.classes(sub.negate());
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    group.throughput(Throughput::Elements(classes));
    group.bench_function("pair 4-3+3-4 (classes)", |b| {
        b.iter(|| {
            solve_pair(&ix, rules, sub, &known, &NoProgress)
                .unwrap()
                .len()
        })
    });
    group.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
