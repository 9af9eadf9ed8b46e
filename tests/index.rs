//! The indexer: exhaustive round trips on small subspaces, randomized checks with
//! every symmetry on the large ones, and class counts against Burnside's lemma.

mod common;

use millbase::index::{Indexer, Subspace};
use millbase::rules::geometry::{ALL, Bits, POINTS, SYMMETRIES, transform};
use millbase::rules::position::Position;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Checks every index of `sub`: canonical slots round-trip and every symmetric
/// image of their position ranks to the same index; other slots decode to a
/// position whose canonical index is a different, smaller one.
fn check_exhaustive(ix: &Indexer, sub: Subspace) -> u64 {
    let size = ix.index_size(sub);
    (0..size)
        .into_par_iter()
        .map(|i| {
            let (m, o, canonical) = ix.slot(sub, i);
            assert_eq!(
                (m.count_ones(), o.count_ones()),
                (sub.mover as u32, sub.opponent as u32)
            );
            assert_eq!(m & o, 0);
            let r = ix.rank(m, o);
            if canonical {
                assert_eq!(r, i, "{sub} slot {i}");
                let s = (i % 16) as usize;
                assert_eq!(
                    ix.rank(transform(s, m), transform(s, o)),
                    i,
                    "{sub} slot {i} sym {s}"
                );
                1
            } else {
                assert!(r < i, "{sub} non-canonical slot {i} ranks to {r}");
                assert_eq!(ix.unrank(sub, i), None);
                0
            }
        })
        .sum()
}

/// Random position with `w` mover and `b` opponent stones.
fn random_position(rng: &mut StdRng, w: u32, b: u32) -> (Bits, Bits) {
    let mut next = || rng.random_range(0..POINTS as u32);
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
}

/// Burnside: the number of classes of (mover set, opponent set) pairs of sizes
/// (w, b) is the average over the 16 symmetries of the pairs each one fixes.
/// A fixed pair is a union of whole cycles, so count cycle colourings.
fn burnside_classes(w: usize, b: usize) -> u64 {
    let mut total = 0u64;
    for perm in SYMMETRIES.iter() {
        let mut seen = [false; POINTS];
        let mut cycles = vec![];
        for p in 0..POINTS {
            if seen[p] {
                continue;
            }
            let mut len = 0;
            let mut q = p;
            while !seen[q] {
                seen[q] = true;
                q = perm[q] as usize;
                len += 1;
            }
            cycles.push(len);
        }
        // ways[i][j]: colourings of the cycles so far with i mover points, j opponent points
        let mut ways = vec![vec![0u64; b + 1]; w + 1];
        ways[0][0] = 1;
        for &len in &cycles {
            let mut next = ways.clone();
            for i in 0..=w {
                for j in 0..=b {
                    if ways[i][j] == 0 {
                        continue;
                    }
                    if i + len <= w {
                        next[i + len][j] += ways[i][j];
                    }
                    if j + len <= b {
                        next[i][j + len] += ways[i][j];
                    }
                }
            }
            ways = next;
        }
        total += ways[w][b];
    }
    assert_eq!(total % 16, 0);
    total / 16
}

#[test]
fn exhaustive_small_movement_subspaces() {
    let ix = Indexer::new();
    for w in 3..=5 {
        for b in 3..=5 {
            let sub = Subspace::movement(w, b);
            let canonical = check_exhaustive(&ix, sub);
            assert_eq!(canonical, ix.classes(sub), "{sub}");
        }
    }
}

#[test]
fn exhaustive_placement_subspaces() {
    let ix = Indexer::new();
    let selection = [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (2, 2),
        (1, 5),
        (2, 6),
        (6, 2),
        (4, 3),
        (9, 1),
    ];
    for (w, b) in selection {
        let sub = Subspace {
            mover: w,
            opponent: b,
            mover_hand: 9 - w.max(b),
            opponent_hand: 9 - w.max(b),
        };
        let canonical = check_exhaustive(&ix, sub);
        assert_eq!(canonical, burnside_classes(w as usize, b as usize), "{sub}");
    }
}

/// `for_each_slot_where` walks any stretch of slots, across the mover's
/// orbits, giving each wanted slot the sets `slot` decodes it to, and no
/// other slot.
#[test]
fn slot_walk_decodes_as_slot() {
    let ix = Indexer::new();
    let sector = |w, b, hand| Subspace {
        mover: w,
        opponent: b,
        mover_hand: hand,
        opponent_hand: hand,
    };
    let small = [
        Subspace::movement(3, 3),
        Subspace::movement(5, 4),
        sector(0, 0, 9),
        sector(1, 0, 8),
        sector(2, 6, 3),
    ];
    let mut rng = StdRng::seed_from_u64(0x9e37_79b9_7f4a_7c15);
    for sub in small.into_iter().chain([Subspace::movement(7, 6)]) {
        let size = ix.index_size(sub);
        // stretches of 1 to 300 slots: all of a small subspace, 300 random ones of a large one
        let stretches: Vec<(u64, u64)> = if size < 1 << 22 {
            let mut v = vec![];
            let mut start = 0;
            while start < size {
                let end = (start + 1 + start % 300).min(size);
                v.push((start, end));
                start = end;
            }
            v
        } else {
            (0..300)
                .map(|_| {
                    let start = rng.random_range(0..size);
                    (start, (start + 1 + rng.random_range(0..300)).min(size))
                })
                .collect()
        };
        for (start, end) in stretches {
            let want = |i: u64| !(i * 7 + start).is_multiple_of(3);
            let mut got = vec![];
            ix.for_each_slot_where(sub, start..end, want, |i, m, o| got.push((i, m, o)));
            let expected: Vec<(u64, Bits, Bits)> = (start..end)
                .filter(|&i| want(i))
                .map(|i| {
                    let (m, o, _) = ix.slot(sub, i);
                    assert_eq!(ix.sets(sub, i), (m, o));
                    (i, m, o)
                })
                .collect();
            assert_eq!(got, expected, "{sub}, slots {start}..{end}");
        }
    }
}

#[test]
fn randomized_large_subspaces_every_symmetry() {
    let ix = Indexer::new();
    let subs: Vec<Subspace> = Subspace::all_movement()
        .into_iter()
        .filter(|s| s.mover > 5 || s.opponent > 5)
        .collect();
    let per_subspace = 3_000_000 / subs.len() as u64;
    subs.par_iter().enumerate().for_each(|(k, &sub)| {
        let mut rng = StdRng::seed_from_u64(k as u64 + 1);
        let size = ix.index_size(sub);
        for _ in 0..per_subspace {
            let (m, o) = random_position(&mut rng, sub.mover as u32, sub.opponent as u32);
            let r = ix.rank(m, o);
            assert!(r < size);
            for s in 1..16 {
                assert_eq!(
                    ix.rank(transform(s, m), transform(s, o)),
                    r,
                    "{sub} sym {s}"
                );
            }
            let (cm, co) = ix.unrank(sub, r).expect("rank gives a canonical slot");
            assert!(
                (0..16).any(|s| transform(s, m) == cm && transform(s, o) == co),
                "{sub}: unrank(rank(p)) is not an image of p"
            );
            assert_eq!(m & !ALL, 0);
        }
    });
}

#[test]
fn class_counts_match_burnside_for_all_49_subspaces() {
    let ix = Indexer::new();
    for sub in Subspace::all_movement() {
        assert_eq!(
            ix.classes(sub),
            burnside_classes(sub.mover as usize, sub.opponent as usize),
            "{sub}"
        );
    }
}

#[test]
fn placement_sectors_are_those_the_position_string_admits() {
    // every stone count written as a position string, kept where it parses,
    // has stones in hand and the game goes on
    let mut admitted = std::collections::HashSet::new();
    for side in ["w", "b"] {
        for (wh, bh) in (0..=9).flat_map(|w| (0..=9).map(move |b| (w, b))) {
            for (wb, bb) in (0..=9).flat_map(|w| (0..=9).map(move |b| (w, b))) {
                let board: String = (0..24)
                    .map(|p| match p {
                        p if p < wb => 'W',
                        p if p < wb + bb => 'B',
                        _ => '.',
                    })
                    .collect();
                // a finished game (the side to move below 3 stones) parses,
                // but is in no sector
                if let Ok(pos) = format!("{board} {side} {wh} {bh}").parse::<Position>()
                    && !pos.is_movement_phase()
                    && !pos.mover_below_minimum()
                {
                    admitted.insert(Subspace::of(&pos));
                }
            }
        }
    }
    let listed = Subspace::all_placement();
    let set: std::collections::HashSet<Subspace> = listed.iter().copied().collect();
    assert_eq!(set.len(), listed.len(), "no sector twice");
    assert_eq!(set, admitted);
}

#[test]
fn placement_sector_class_counts_match_burnside() {
    let o = common::run(&["subspaces", "--json"]);
    assert!(o.status.success());
    let rows: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let placement: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| r["mover_hand"].as_u64().unwrap() > 0)
        .collect();
    assert_eq!(placement.len(), Subspace::all_placement().len());
    for r in placement {
        let n = |k: &str| r[k].as_u64().unwrap() as usize;
        let sub = Subspace {
            mover: n("mover") as u8,
            opponent: n("opponent") as u8,
            mover_hand: n("mover_hand") as u8,
            opponent_hand: n("opponent_hand") as u8,
        };
        assert_eq!(
            n("classes") as u64,
            burnside_classes(n("mover"), n("opponent")),
            "{sub}"
        );
        assert_eq!(
            n("index_size") as u64,
            Indexer::index_size_of(millbase::rules::geometry::Geometry::nine(), sub),
            "{sub}"
        );
    }
}
