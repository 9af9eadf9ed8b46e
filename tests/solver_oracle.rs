//! The solver against an independent brute-force solver: plain iteration over all
//! placements of the stones (no symmetry, no index of the engine), forward moves
//! of the naive rules (`tests/naive`) only, one sweep per ply level. Every position
//! of every subspace with at most 4 stones a side is compared, value and plies, for
//! both rule variants, and so are the counts over every symmetric image (`all_*`);
//! the placement phase of the 4-stone game is compared position by position
//! with backward induction over its sectors; the database is then checked by
//! `verify`.

mod brute;
mod common;
mod naive;

use brute::{Brute, Minimax, Placement, Sector, all_sets, binom, sector_position};
use common::run;
use millbase::Variant;
use millbase::answer::opening::{OpeningSearch, Precision};
use millbase::answer::query::Database;
use millbase::build::complete::load_known;
use millbase::index::Indexer;
use millbase::rules::moves;
use millbase::rules::position::{Color, Position};
use millbase::solve::known::Kind;
use millbase::solve::value::Value;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

fn check_variant(variant: Variant) {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec![
        "generate",
        "--db",
        dir.path().to_str().unwrap(),
        "--max-stones",
        "4",
        "--quiet",
    ];
    if !variant.flies() {
        args.push("--no-flying");
    }
    let o = run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let mut brute = Brute::new(variant);
    for group in [vec![(3, 3)], vec![(3, 4), (4, 3)], vec![(4, 4)]] {
        brute.solve_group(&group);
    }

    let ix = Indexer::new();
    let mut compared = 0u64;
    for (w, b) in [(3u32, 3u32), (3, 4), (4, 3), (4, 4)] {
        let sub = millbase::index::Subspace::movement(w as u8, b as u8);
        // complete tables: where a file stores no plies (fewer stones for the
        // side to move), they are derived from the children by one ply of search
        let mut known = millbase::solve::known::Known::new();
        let db = millbase::storage::dir::DbDir::open(dir.path()).unwrap();
        millbase::build::complete::load_known(&db, &ix, Kind::Game, &[sub], &mut known).unwrap();
        let table = known.table(sub).unwrap();
        let opps = all_sets(b);
        let mismatches: Vec<String> = all_sets(w)
            .par_iter()
            .flat_map_iter(|&m| {
                let ix = &ix;
                let brute = &brute;
                opps.iter()
                    .filter(move |&&o| o & m == 0)
                    .filter_map(move |&o| {
                        let stored = table[ix.rank(m, o) as usize].value();
                        let want = brute.value(m, o);
                        (stored != Some(want)).then(|| {
                            format!(
                                "{sub} {m:024b}/{o:024b}: stored {stored:?}, brute force {want:?}"
                            )
                        })
                    })
            })
            .collect();
        assert!(
            mismatches.is_empty(),
            "{} mismatches, first: {:?}",
            mismatches.len(),
            &mismatches[..mismatches.len().min(5)]
        );
        // the counts over every placement of the stones, from the brute force alone
        let mut all = [0u64; 3];
        for &m in &all_sets(w) {
            for &o in opps.iter().filter(|&&o| o & m == 0) {
                all[match brute.value(m, o) {
                    Value::Win(_) => 0,
                    Value::Loss(_) => 1,
                    Value::Draw => 2,
                }] += 1;
            }
        }
        let c = millbase::storage::dir::DbDir::open(dir.path())
            .unwrap()
            .open_table(Kind::Game, sub)
            .unwrap()
            .header
            .counts;
        assert_eq!([c.all_wins, c.all_losses, c.all_draws], all, "{sub} all_*");
        compared += c.all_wins + c.all_losses + c.all_draws;
    }
    // the database's counts of symmetric images cover every placement of the
    // stones: C(24, w) C(24 - w, b) each
    assert_eq!(
        compared,
        [(3, 3), (3, 4), (4, 3), (4, 4)]
            .iter()
            .map(|&(w, b)| binom(24, w) * binom(24 - w, b))
            .sum::<u64>()
    );

    // the placement phase of the 4-stone game, every position of every sector,
    // against backward induction over the sectors written out from the rules
    let placement = Placement::solve(&brute, 4);
    let db_dir = millbase::storage::dir::DbDir::open(dir.path()).unwrap();
    let present: Vec<Sector> = db_dir
        .present()
        .into_iter()
        .filter(|s| !s.is_movement())
        .map(|s| {
            (
                s.mover as u32,
                s.opponent as u32,
                s.mover_hand,
                s.opponent_hand,
            )
        })
        .collect();
    let mut want_sectors = Placement::sectors(4);
    want_sectors.sort();
    let mut present_sorted = present.clone();
    present_sorted.sort();
    assert_eq!(present_sorted, want_sectors, "the placement sectors built");
    let mut placement_compared = 0u64;
    // the sectors with White to move store win/draw/loss only: their plies come
    // from the children by one ply, in the complete table and in every probe
    let probes = Database::open(dir.path()).unwrap();
    let mut without_plies = 0;
    for (m, o, mh, oh) in present {
        let sub = millbase::index::Subspace {
            mover: m as u8,
            opponent: o as u8,
            mover_hand: mh,
            opponent_hand: oh,
        };
        let stored = db_dir
            .open_table(Kind::Game, sub)
            .unwrap()
            .read_all()
            .unwrap();
        let stores_plies = millbase::storage::dir::stores_plies(sub);
        without_plies += usize::from(!stores_plies);
        let mut known = millbase::solve::known::Known::new();
        load_known(&db_dir, &ix, Kind::Game, &[sub], &mut known).unwrap();
        let cells = known.table(sub).unwrap();
        let opps = all_sets(o);
        let mismatches: Vec<String> = all_sets(m)
            .par_iter()
            .flat_map_iter(|&ms| {
                let (ix, cells, stored, placement, probes) =
                    (&ix, cells, &stored, &placement, &probes);
                opps.iter()
                    .filter(move |&&os| os & ms == 0)
                    .enumerate()
                    .filter_map(move |(k, &os)| {
                        let pos = sector_position((m, o, mh, oh), ms, os);
                        let i = ix.rank(ms, os) as usize;
                        let complete = cells[i].value();
                        let want = placement.value(&pos);
                        if complete != Some(want) || !stored[i].agrees_with(want) {
                            return Some(format!(
                                "{pos}: stored {:?}, complete {complete:?}, brute force {want:?}",
                                stored[i]
                            ));
                        }
                        if stores_plies != stored[i].value().is_some() && want != Value::Draw {
                            return Some(format!("{pos}: plies stored: {:?}", stored[i]));
                        }
                        // the query API, on a spread of positions
                        let probed = (k % 7 == 0).then(|| probes.probe(&pos).unwrap());
                        probed
                            .filter(|&p| p != want)
                            .map(|p| format!("{pos}: probe {p:?}, brute force {want:?}"))
                    })
            })
            .collect();
        assert!(
            mismatches.is_empty(),
            "{sub}: {} mismatches, first: {:?}",
            mismatches.len(),
            &mismatches[..mismatches.len().min(5)]
        );
        placement_compared += all_sets(m)
            .iter()
            .map(|&ms| opps.iter().filter(|&&os| os & ms == 0).count() as u64)
            .sum::<u64>();
    }
    assert!(placement_compared > 1_000_000, "{placement_compared}");
    assert!(without_plies > 10, "{without_plies} sectors without plies");

    // golden positions, probed through the query API (compressed blocks, cache),
    // with either colour to move
    let db = Database::open(dir.path()).unwrap();
    assert_eq!(db.variant(), variant);
    // a cache of two blocks: nearly every probe evicts one
    let evicting = Database::open(dir.path()).unwrap().with_cache_blocks(2);
    let mut probed = 0;
    for (w, b) in [(3u32, 3u32), (3, 4), (4, 3), (4, 4)] {
        let opps = all_sets(b);
        for (k, m) in all_sets(w).into_iter().enumerate().step_by(37) {
            for &o in opps
                .iter()
                .filter(|&&o| o & m == 0)
                .skip(k % 11)
                .step_by(101)
            {
                let want = brute.value(m, o);
                for side in [Color::White, Color::Black] {
                    let pos = Position {
                        mover: m,
                        opponent: o,
                        mover_hand: 0,
                        opponent_hand: 0,
                        side,
                    };
                    let text = pos.to_string();
                    let parsed: Position = text.parse().unwrap();
                    let answer = db.answer(&parsed).unwrap();
                    assert_eq!(answer.value, want, "{text}");
                    assert_eq!(evicting.probe(&parsed).unwrap(), want, "{text}");
                    assert_eq!(
                        Value::from_children(answer.moves.iter().map(|m| m.value)),
                        Some(want),
                        "{text}"
                    );
                    probed += 1;
                }
            }
        }
    }
    assert!(probed > 1000, "{probed}");

    // the placement phase: reduced games with 3 and 4 stones each, against a plain
    // memoized minimax over exact positions with the brute-force values at its leaves
    let mut minimax = Minimax::new(&brute);
    let mut search = OpeningSearch::new(&db, Precision::ExactPlies);
    let mut wdl = OpeningSearch::new(&db, Precision::WinDrawLoss);
    // the same with whole-table leaf maps from the first leaf
    let mut mapped = OpeningSearch::new(&db, Precision::WinDrawLoss).with_maps_after(0);
    for root in [
        "........................ w 3 3",
        "........................ w 4 4",
    ] {
        let root: Position = root.parse().unwrap();
        let want = minimax.value(&root);
        assert_eq!(search.value(&root).unwrap(), want, "{root}");
        assert_eq!(wdl.value(&root).unwrap().name(), want.name(), "{root}");
        assert_eq!(mapped.value(&root).unwrap().name(), want.name(), "{root}");
        // every position one and two plies in, and random deeper ones
        let mut checked = 0;
        let mut frontier = vec![root];
        for _ in 0..2 {
            let mut next = vec![];
            for p in &frontier {
                for mv in moves::legal_moves(p, variant) {
                    let c = moves::apply(p, mv);
                    let want = minimax.value(&c);
                    assert_eq!(search.value(&c).unwrap(), want, "{c}");
                    assert_eq!(wdl.value(&c).unwrap().name(), want.name(), "{c}");
                    assert_eq!(mapped.value(&c).unwrap().name(), want.name(), "{c}");
                    checked += 1;
                    next.push(c);
                }
            }
            frontier = next;
        }
        let mut rng = StdRng::seed_from_u64(0x51_7C_C1_B7_27_22_0A_95);
        for _ in 0..300 {
            let mut p = root;
            loop {
                let list = moves::legal_moves(&p, variant);
                if list.is_empty() || p.is_movement_phase() || p.opponent_total() < 3 {
                    break;
                }
                p = moves::apply(&p, list[rng.random_range(0..list.len())]);
                if p.mover_total() >= 3 {
                    let answer = search.answer(&p).unwrap();
                    assert_eq!(answer.value, minimax.value(&p), "{p}");
                    for m in &answer.moves {
                        assert_eq!(m.value, minimax.value(&m.position), "{p} then {}", m.mv);
                    }
                    // the tables and the search give the same answer, move for move
                    let tables = db.answer(&p).unwrap();
                    assert_eq!(tables.source, millbase::answer::answers::Source::Table);
                    assert_eq!(answer.source, millbase::answer::answers::Source::Search);
                    assert_eq!(
                        (tables.value, &tables.moves),
                        (answer.value, &answer.moves),
                        "{p}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 500);
    }
    assert!(mapped.leaf_bytes() > 0 && wdl.leaf_bytes() == 0);

    // the paths a full-size search takes only at scale: transposition tables at
    // their cap with heavy replacement (1,024 slots against tens of thousands of
    // positions), and the switch from block-cache probes to whole-table maps in
    // the middle of a search
    let mut capped = OpeningSearch::new(&db, Precision::ExactPlies).with_table_bits(10);
    let mut switching = OpeningSearch::new(&db, Precision::WinDrawLoss)
        .with_table_bits(10)
        .with_maps_after(64);
    for root in [
        "........................ w 3 3",
        "........................ w 4 4",
    ] {
        let root: Position = root.parse().unwrap();
        let mut positions = vec![root];
        positions.extend(
            moves::legal_moves(&root, variant)
                .iter()
                .map(|&mv| moves::apply(&root, mv)),
        );
        for p in positions {
            let want = minimax.value(&p);
            assert_eq!(capped.value(&p).unwrap(), want, "capped table: {p}");
            assert_eq!(
                switching.value(&p).unwrap().name(),
                want.name(),
                "switch to maps: {p}"
            );
        }
    }
    assert!(switching.leaf_bytes() > 0, "the search switched to maps");
    let o = run(&[
        "query",
        "--db",
        dir.path().to_str().unwrap(),
        "W..B.W..B............... w 2 2",
        "--json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let want = minimax.value(&"W..B.W..B............... w 2 2".parse().unwrap());
    assert_eq!(v["value"], want.name());
    assert_eq!(v["plies"].as_u64(), want.plies().map(u64::from));

    let out = run(&["verify", "--db", dir.path().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn max_stones_4_flying_matches_brute_force() {
    check_variant(Variant::nine(true));
}

#[test]
fn max_stones_4_no_flying_matches_brute_force() {
    check_variant(Variant::nine(false));
}
