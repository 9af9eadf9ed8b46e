//! Format 2: files of subspaces where the side to move has fewer stones, and of
//! placement sectors with White to move, store no plies; they come back exactly (from work files during generation, by one ply
//! of search otherwise). Format 1 files are still read and `upgrade` rewrites
//! them. Damage to a file without plies is detected like any other.

mod common;
mod damage;

use common::run;
use millbase::Variant;
use millbase::answer::query::Database;
use millbase::build::complete::load_known;
use millbase::build::generate::{Silent, generate};
use millbase::build::verify::{Scope, Unwatched, verify_tables};
use millbase::index::plan::Limits;
use millbase::index::{Indexer, Subspace};
use millbase::solve::known::Kind;
use millbase::solve::known::Known;
use millbase::solve::known::count_values;
use millbase::solve::solver::movement_position;
use millbase::solve::value::{Cell, Value};
use millbase::storage::dir::{DbDir, WORK_DIR, encoding_for, file_name};
use millbase::storage::{Encoding, Speed, Table, write_table};
use std::path::Path;

/// 3-3, 4-3 and 3-4.
const SMALL: Limits = Limits {
    max_stones: 4,
    max_total: 7,
    placement: true,
    move_limit: None,
};

fn subs() -> [Subspace; 3] {
    [(3, 3), (4, 3), (3, 4)].map(|(m, o)| Subspace::movement(m, o))
}

fn build(dir: &Path, limits: Limits) {
    generate(dir, Variant::default(), limits, &Indexer::new(), &Silent).unwrap();
}

/// The complete tables (plies everywhere) of `subs()` as the library loads them.
fn complete(dir: &Path) -> Vec<Vec<Cell>> {
    let ix = Indexer::new();
    subs()
        .iter()
        .map(|&s| {
            let mut known = Known::new();
            load_known(
                &DbDir::open(dir).unwrap(),
                &ix,
                Kind::Game,
                &[s],
                &mut known,
            )
            .unwrap();
            known.table(s).unwrap().to_vec()
        })
        .collect()
}

/// Rewrites the files of `subs()` in format 1 from their complete tables.
fn rewrite_in_format_1(dir: &Path, tables: &[Vec<Cell>]) {
    let ix = Indexer::new();
    for (s, cells) in subs().into_iter().zip(tables) {
        let counts = count_values(&ix, s, cells);
        write_table(
            &dir.join(file_name(s)),
            Variant::default(),
            s,
            (cells, None),
            counts,
            Encoding::Code8,
            Speed::Small,
        )
        .unwrap();
    }
}

#[test]
fn files_store_plies_only_where_the_mover_has_at_least_as_many_stones() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), SMALL);
    for s in subs() {
        let t = DbDir::open(dir.path())
            .unwrap()
            .open_table(Kind::Game, s)
            .unwrap();
        assert_eq!(t.header.version, 2);
        assert_eq!(t.has_plies(), s.mover >= s.opponent, "{s}");
        let cells = t.read_all().unwrap();
        let without = cells.iter().filter(|c| c.lacks_plies());
        if t.has_plies() {
            assert_eq!(without.count(), 0, "{s}");
        } else {
            // every win and loss lacks plies, and there are some
            assert!(
                cells
                    .iter()
                    .all(|c| c.value().is_none_or(|v| v == Value::Draw))
            );
            assert!(without.count() > 0, "{s}");
        }
    }
    // a file in the encoding of the other side is refused
    let s = Subspace::movement(3, 4);
    let cells = complete(dir.path()).remove(2);
    let counts = count_values(&Indexer::new(), s, &cells);
    write_table(
        &dir.path().join(file_name(s)),
        Variant::default(),
        s,
        (&cells, None),
        counts,
        Encoding::WdlPlies,
        Speed::Small,
    )
    .unwrap();
    let e = DbDir::open(dir.path())
        .unwrap()
        .open_table(Kind::Game, s)
        .err()
        .unwrap();
    assert!(e.to_string().contains("encoding"), "{e}");
}

#[test]
fn probes_without_stored_plies_equal_the_derived_tables() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), SMALL);
    let ix = Indexer::new();
    let db = Database::open(dir.path()).unwrap();
    let s = Subspace::movement(3, 4);
    let table = &complete(dir.path())[2];
    let mut decided = 0;
    for i in 0..ix.index_size(s) {
        let Some((m, o)) = ix.unrank(s, i) else {
            continue;
        };
        let v = db.probe(&movement_position(m, o)).unwrap();
        assert_eq!(Some(v), table[i as usize].value(), "index {i}");
        decided += v.plies().is_some() as u64;
    }
    assert!(decided > 0);
}

#[test]
fn work_files_keep_plies_until_their_pair_is_solved() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), SMALL);
    let s = Subspace::movement(3, 4);
    let work = dir.path().join(WORK_DIR).join(file_name(s));
    // 4-4, whose removals lead into 3-4, is not within the limits: no work file,
    // the plies of 3-4 are derived from its children
    assert!(!work.exists());
    let derived = complete(dir.path());
    // a work file is preferred to deriving: plant one with a changed plies
    let mut planted = derived[2].clone();
    let i = planted
        .iter()
        .position(|c| matches!(c.value(), Some(Value::Win(_))))
        .unwrap();
    let Some(Value::Win(n)) = planted[i].value() else {
        unreachable!()
    };
    planted[i] = Cell::from_value(Value::Win(n + 2));
    let counts = DbDir::open(dir.path())
        .unwrap()
        .open_table(Kind::Game, s)
        .unwrap()
        .header
        .counts;
    std::fs::create_dir_all(work.parent().unwrap()).unwrap();
    write_table(
        &work.parent().unwrap().join(file_name(s)),
        Variant::default(),
        s,
        (&planted, None),
        counts,
        Encoding::WdlPlies,
        Speed::Small,
    )
    .unwrap();
    assert_eq!(complete(dir.path())[2], planted);
    // building 4-4 consumes the (now correct) work file and removes it
    write_table(
        &work.parent().unwrap().join(file_name(s)),
        Variant::default(),
        s,
        (&derived[2], None),
        counts,
        Encoding::WdlPlies,
        Speed::Small,
    )
    .unwrap();
    let more = Limits {
        max_stones: 4,
        max_total: 8,
        placement: true,
        move_limit: None,
    };
    build(dir.path(), more);
    assert!(!work.exists());
    assert_eq!(complete(dir.path()), derived);
    // a fresh run that builds 3-4 and 4-4 together keeps the work file only
    // until 4-4 is done, and gives the same tables
    let fresh = tempfile::tempdir().unwrap();
    build(fresh.path(), more);
    assert!(!fresh.path().join(WORK_DIR).join(file_name(s)).exists());
    assert_eq!(complete(fresh.path()), derived);
    let ix = Indexer::new();
    let four = Subspace::movement(4, 4);
    let tables = |d: &Path| {
        let mut k = Known::new();
        load_known(&DbDir::open(d).unwrap(), &ix, Kind::Game, &[four], &mut k).unwrap();
        k.table(four).unwrap().to_vec()
    };
    assert_eq!(tables(fresh.path()), tables(dir.path()));
}

#[test]
fn format_1_files_are_read_and_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), SMALL);
    let want = complete(dir.path());
    rewrite_in_format_1(dir.path(), &want);
    for (s, cells) in subs().into_iter().zip(&want) {
        let t = DbDir::open(dir.path())
            .unwrap()
            .open_table(Kind::Game, s)
            .unwrap();
        assert_eq!(t.header.version, 1);
        assert_eq!(&t.read_all().unwrap(), cells);
    }
    let o = run(&["upgrade", "--db", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("upgraded 3 files"));
    for s in subs() {
        let t = DbDir::open(dir.path())
            .unwrap()
            .open_table(Kind::Game, s)
            .unwrap();
        assert_eq!(t.header.version, 2);
        assert_eq!(t.header.encoding, encoding_for(Kind::Game, s));
    }
    assert_eq!(complete(dir.path()), want);
    // nothing left to do the second time
    let o = run(&["upgrade", "--db", dir.path().to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("upgraded 0 files"));
}

#[test]
fn verify_finds_a_wrong_outcome_where_no_plies_are_stored() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), SMALL);
    let ix = Indexer::new();
    let s = Subspace::movement(3, 4);
    let check = || {
        let db = DbDir::open(dir.path()).unwrap();
        verify_tables(
            &db,
            &ix,
            Scope {
                only: &[s],
                sample: 1,
                ..Scope::all(Kind::Game)
            },
            &Unwatched,
            &mut |_| true,
        )
        .unwrap()
    };
    let clean = check();
    assert_eq!((clean[0].mismatches, clean[0].checked), (0, ix.classes(s)));
    let mut cells = DbDir::open(dir.path())
        .unwrap()
        .open_table(Kind::Game, s)
        .unwrap()
        .read_all()
        .unwrap();
    let i = cells.iter().position(|&c| c == Cell::WON).unwrap();
    cells[i] = Cell::LOST;
    let counts = DbDir::open(dir.path())
        .unwrap()
        .open_table(Kind::Game, s)
        .unwrap()
        .header
        .counts;
    write_table(
        &dir.path().join(file_name(s)),
        Variant::default(),
        s,
        (&cells, None),
        counts,
        Encoding::WdlOnly,
        Speed::Small,
    )
    .unwrap();
    let bad = check();
    assert_eq!(bad[0].mismatches, 1);
    assert_eq!(bad[0].examples[0].index, i as u64);
    assert_eq!(bad[0].examples[0].stored, Cell::LOST);
    // a probe of it finds the disagreement instead of answering
    let (m, o) = ix.unrank(s, i as u64).unwrap();
    let e = Database::open(dir.path())
        .unwrap()
        .probe(&movement_position(m, o))
        .unwrap_err();
    assert!(e.to_string().contains("disagrees"), "{e}");
}

#[test]
fn damage_to_a_file_without_plies_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), SMALL);
    let s = Subspace::movement(3, 4);
    let path = dir.path().join(file_name(s));
    let bytes = std::fs::read(&path).unwrap();
    let accepted = |b: Vec<u8>| -> bool {
        Table::from_bytes(&path, b, Variant::default(), s)
            .and_then(|t| t.check())
            .is_ok()
    };
    assert!(accepted(bytes.clone()));
    // every byte flipped, every truncation
    let mut damages = damage::every_flip(bytes.len(), 0x5A);
    damages.extend(damage::every_truncation(bytes.len()));
    let missed = damage::undetected_in_memory(&bytes, damages, accepted);
    assert!(
        missed.is_empty(),
        "undetected: {:?}",
        &missed[..missed.len().min(10)]
    );
}

#[test]
fn win_draw_loss_maps_agree_with_probes_in_every_encoding() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), SMALL);
    let want = complete(dir.path());
    let check = |d: &Path| {
        let db = Database::open(d).unwrap();
        let maps = millbase::answer::wdl::WdlMaps::new();
        for (s, table) in subs().into_iter().zip(&want) {
            let map = maps.get(&db, s).unwrap();
            for (i, c) in table.iter().enumerate() {
                match c.value() {
                    None => assert!(map.value(i as u64).is_err(), "{s} {i}"),
                    Some(v) => assert_eq!(map.value(i as u64).unwrap().name(), v.name()),
                }
            }
        }
    };
    check(dir.path());
    // format 1 files
    rewrite_in_format_1(dir.path(), &want);
    check(dir.path());
}

#[test]
fn large_plies_round_trip_through_the_exception_tables() {
    // plies past what a byte holds: from 253 in format 1, from 510 in format 2
    // (one byte of plies / 2), on both sides of each boundary
    let s = Subspace::movement(3, 3);
    let n = Indexer::new().index_size(s) as usize;
    let values = [
        Value::Win(1),
        Value::Loss(0),
        Value::Draw,
        Value::Win(251),
        Value::Loss(252),
        Value::Win(253),
        Value::Loss(254),
        Value::Win(509),
        Value::Loss(510),
        Value::Win(511),
        Value::Loss(1000),
        Value::Win(16383),
    ];
    let cells: Vec<Cell> = (0..n)
        .map(|i| match i % 13 {
            12 => Cell::UNUSED,
            k => Cell::from_value(values[k]),
        })
        .collect();
    for (encoding, first_exception) in [(Encoding::Code8, 253), (Encoding::WdlPlies, 510)] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(file_name(s));
        let counts = count_values(&Indexer::new(), s, &cells);
        write_table(
            &path,
            Variant::default(),
            s,
            (&cells, None),
            counts,
            encoding,
            Speed::Small,
        )
        .unwrap();
        let t = Table::open(&path, Variant::default(), s).unwrap();
        let large = values
            .iter()
            .filter(|v| v.plies().is_some_and(|p| p >= first_exception))
            .count() as u64;
        let expected = cells
            .iter()
            .filter(|c| {
                c.value()
                    .and_then(Value::plies)
                    .is_some_and(|p| p >= first_exception)
            })
            .count() as u64;
        assert!(large > 0 && expected > 0);
        assert_eq!(t.header.exceptions as u64, expected, "{encoding:?}");
        assert_eq!(t.read_all().unwrap(), cells, "{encoding:?}");
        // and block by block, as queries read them
        for b in [0, t.header.blocks as usize - 1] {
            let block = t.block(b).unwrap();
            let start = b * t.header.block_entries as usize;
            assert_eq!(
                block[..],
                cells[start..start + block.len()],
                "{encoding:?} block {b}"
            );
        }
    }
}

/// The placement sectors of the 4-stone game.
const PLACEMENT_4: Limits = Limits {
    max_stones: 4,
    max_total: 8,
    placement: true,
    move_limit: None,
};

#[test]
fn placement_files_store_plies_only_with_black_to_move_and_the_earlier_layout_is_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), PLACEMENT_4);
    let db = DbDir::open(dir.path()).unwrap();
    let ix = Indexer::new();
    let sectors: Vec<Subspace> = db
        .present()
        .into_iter()
        .filter(|s| !s.is_movement())
        .collect();
    let white_to_move: Vec<Subspace> = sectors
        .iter()
        .copied()
        .filter(|s| s.mover_hand == s.opponent_hand)
        .collect();
    assert!(white_to_move.len() > 5 && white_to_move.len() < sectors.len());
    for &s in &sectors {
        let t = db.open_table(Kind::Game, s).unwrap();
        assert_eq!(t.has_plies(), s.mover_hand > s.opponent_hand, "{s}");
    }
    // rewritten in the earlier layout (plies everywhere), from the complete tables
    let mut complete = Known::new();
    load_known(&db, &ix, Kind::Game, &white_to_move, &mut complete).unwrap();
    let before: Vec<Vec<u8>> = white_to_move
        .iter()
        .map(|&s| std::fs::read(db.table_path(Kind::Game, s)).unwrap())
        .collect();
    for &s in &white_to_move {
        let cells = complete.table(s).unwrap();
        assert!(cells.iter().all(|c| !c.lacks_plies()), "{s}");
        let counts = db.open_table(Kind::Game, s).unwrap().header.counts;
        write_table(
            &db.table_path(Kind::Game, s),
            Variant::default(),
            s,
            (cells, None),
            counts,
            Encoding::WdlPlies,
            Speed::Small,
        )
        .unwrap();
    }
    // still read, with the same values, by the tables and by probes
    let probes = Database::open(dir.path()).unwrap();
    for &s in &white_to_move {
        let t = db.open_table(Kind::Game, s).unwrap();
        assert_eq!(t.header.encoding, Encoding::WdlPlies);
        let cells = t.read_all().unwrap();
        assert_eq!(cells, complete.table(s).unwrap(), "{s}");
        for i in (0..ix.index_size(s)).step_by(13) {
            if let Some((m, o)) = ix.unrank(s, i) {
                let v = probes.probe(&s.position(m, o)).unwrap();
                assert_eq!(Some(v), cells[i as usize].value(), "{s} index {i}");
            }
        }
    }
    // upgrade writes what generate writes
    let o = run(&["upgrade", "--db", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains(&format!("upgraded {} files", white_to_move.len())),
        "{said}"
    );
    for (&s, bytes) in white_to_move.iter().zip(&before) {
        assert_eq!(
            &std::fs::read(db.table_path(Kind::Game, s)).unwrap(),
            bytes,
            "{s}"
        );
    }
}
