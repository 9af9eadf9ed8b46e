//! Solver throughput on fixed small subsets: the 4-3/3-4 pair (with 3-3 known),
//! and the placement sector 4-4/1-0 (with the movement phase of the 5-stone
//! game known).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use millbase::Variant;
use millbase::index::plan::{Limits, plan};
use millbase::index::{Indexer, Subspace};
use millbase::solve::known::Known;
use millbase::solve::placement::solve_sector;
use millbase::solve::solver::{NoProgress, solve_pair};

fn solver(c: &mut Criterion) {
    let ix = Indexer::new();
    let variant = Variant::default();
    let mut known = Known::new();
    let base = solve_pair(&ix, variant, Subspace::movement(3, 3), &known, &NoProgress).unwrap();
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
            solve_pair(&ix, variant, sub, &known, &NoProgress)
                .unwrap()
                .len()
        })
    });
    group.finish();
}

fn placement(c: &mut Criterion) {
    let ix = Indexer::new();
    let variant = Variant::default();
    let limits = Limits {
        max_stones: 5,
        placement: false,
        move_limit: None,
        ..Limits::default()
    };
    let mut known = Known::new();
    for rep in plan(limits) {
        for s in solve_pair(&ix, variant, rep, &known, &NoProgress).unwrap() {
            known.insert(s.subspace, s.cells);
        }
    }
    let sub: Subspace = "4-4/1-0".parse().unwrap();
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ix.classes(sub)));
    group.bench_function("placement sector 4-4/1-0 (classes)", |b| {
        b.iter(|| {
            solve_sector(&ix, sub, &known, &NoProgress)
                .unwrap()
                .counts
                .classes
        })
    });
    group.finish();
}

criterion_group!(benches, solver, placement);
criterion_main!(benches);
