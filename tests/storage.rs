//! Database files under damage: every single-byte corruption and every truncation
//! of a small file gives a clean error; the other variant, a missing subspace and
//! garbage position strings give clean errors too.

mod common;
mod damage;

use common::run;
use millbase::Variant;
use millbase::answer::opening::{OpeningSearch, Precision};
use millbase::answer::query::{Database, QueryError};
use millbase::answer::wdl::WdlMaps;
use millbase::build::generate::{Report, Silent, generate};
use millbase::index::plan::Limits;
use millbase::index::{Indexer, Subspace};
use millbase::rules::position::Position;
use millbase::solve::value::Value;
use millbase::storage::dir::{DbError, file_name};
use millbase::storage::{StorageError, Table};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;

/// Generates the 3-3 subspace into `dir`.
fn generate_small(dir: &Path, variant: Variant) -> Result<Vec<Report>, DbError> {
    generate(
        dir,
        variant,
        Limits {
            max_stones: 3,
            max_total: 6,
            placement: true,
            move_limit: None,
        },
        &Indexer::new(),
        &Silent,
    )
}

fn small_db(variant: Variant) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    generate_small(dir.path(), variant).unwrap();
    dir
}

/// Opens the file and reads it two ways, each of which must catch every
/// damage on its own: the block checksums alone (what a resumed `generate`
/// checks of a finished file), and a full decode (`check`, `read_all`). The
/// error is the checksums'.
fn open_and_check(t: Result<Table, StorageError>) -> Result<(), StorageError> {
    let t = t?;
    let decoded = t.check().and_then(|()| t.read_all().map(|_| ()));
    match (t.check_checksums(), decoded) {
        (Err(e), Err(_)) => Err(e),
        _ => Ok(()),
    }
}

/// A placement sector of the 3-stone game: Black to move with a stone in hand.
const SECTOR: Subspace = Subspace {
    mover: 2,
    opponent: 3,
    mover_hand: 1,
    opponent_hand: 0,
};

/// Every single-byte change of the file of `sub` is an error naming the file.
fn every_byte_flip_is_detected_in(sub: Subspace) {
    let dir = small_db(Variant::default());
    let path = dir.path().join(file_name(sub));
    let bytes = std::fs::read(&path).unwrap();
    assert!(open_and_check(Table::open(&path, Variant::default(), sub)).is_ok());
    let undetected =
        damage::undetected_in_memory(&bytes, damage::every_flip(bytes.len(), 0x5A), |b| {
            match open_and_check(Table::from_bytes(&path, b, Variant::default(), sub)) {
                Ok(()) => true,
                Err(e) => {
                    let msg = e.to_string();
                    assert!(
                        msg.contains(&file_name(sub)),
                        "error does not name the file: {msg}"
                    );
                    false
                }
            }
        });
    assert!(
        undetected.is_empty(),
        "{sub}: flips not detected: {:?}",
        &undetected[..undetected.len().min(10)]
    );
}

/// A header whose block size is 0 (its checksum matching) is an error naming
/// the file, not a division by zero.
#[test]
fn a_block_size_of_zero_is_an_error() {
    let dir = small_db(Variant::default());
    let path = dir.path().join(file_name(SECTOR));
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(open_and_check(Table::open(&path, Variant::default(), SECTOR)).is_ok());
    // the block size: bytes 24..28 of the header (docs/FORMAT.md)
    bytes[24..28].copy_from_slice(&0u32.to_le_bytes());
    // and the header's checksum made to match (bytes 124..128)
    let crc = crc32fast::hash(&bytes[..124]);
    bytes[124..128].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let e = open_and_check(Table::open(&path, Variant::default(), SECTOR))
        .unwrap_err()
        .to_string();
    assert!(e.contains(&file_name(SECTOR)), "{e}");
    assert!(e.contains("block size"), "{e}");
}

#[test]
fn every_byte_flip_is_detected() {
    every_byte_flip_is_detected_in(Subspace::movement(3, 3));
}

#[test]
fn every_byte_flip_of_a_placement_file_is_detected() {
    every_byte_flip_is_detected_in(SECTOR);
}

/// Every truncation of the file of `sub`, and one byte too many, is an error.
fn every_truncation_is_detected_in(sub: Subspace) {
    let dir = small_db(Variant::default());
    let path = dir.path().join(file_name(sub));
    let bytes = std::fs::read(&path).unwrap();
    let accepted = damage::undetected(
        &bytes,
        &file_name(sub),
        damage::every_truncation(bytes.len()),
        |p| {
            let e = open_and_check(Table::open(p, Variant::default(), sub)).err();
            if let Some(e) = &e {
                assert!(matches!(e, StorageError::Corrupt { .. }), "{e}");
            }
            e.is_none()
        },
    );
    assert!(accepted.is_empty(), "truncations accepted: {accepted:?}");
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join(file_name(sub));
    let mut longer = bytes.clone();
    longer.push(0);
    std::fs::write(&p, &longer).unwrap();
    assert!(open_and_check(Table::open(&p, Variant::default(), sub)).is_err());
}

#[test]
fn every_truncation_is_detected() {
    every_truncation_is_detected_in(Subspace::movement(3, 3));
}

#[test]
fn every_truncation_of_a_placement_file_is_detected() {
    every_truncation_is_detected_in(SECTOR);
}

#[test]
fn a_damaged_placement_file_is_an_error_never_a_wrong_answer() {
    let dir = small_db(Variant::default());
    let path = dir.path().join(file_name(SECTOR));
    let good = Table::open(&path, Variant::default(), SECTOR)
        .unwrap()
        .read_all()
        .unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 10] ^= 1; // inside the last block: found when it is decoded
    std::fs::write(&path, &bytes).unwrap();
    let db = Database::open(dir.path()).unwrap();
    let ix = Indexer::new();
    let (mut right, mut errors) = (0, 0);
    // every position of the sector: its value, or an error naming the file
    for i in 0..ix.index_size(SECTOR) {
        let Some((m, o)) = ix.unrank(SECTOR, i) else {
            continue;
        };
        match db.probe(&SECTOR.position(m, o)) {
            Ok(v) => {
                assert_eq!(Some(v), good[i as usize].value(), "index {i}");
                right += 1;
            }
            Err(e) => {
                assert!(e.to_string().contains(&file_name(SECTOR)), "{e}");
                errors += 1;
            }
        }
    }
    assert!(right > 0 && errors > 0, "{right} {errors}");
}

#[test]
fn a_missing_placement_sector_is_named_and_searched() {
    let dir = small_db(Variant::default());
    let complete = Database::open(dir.path()).unwrap();
    let pos: Position = "W....WB................B w 1 1".parse().unwrap();
    let want = complete.answer(&pos).unwrap();
    assert_eq!(want.source, millbase::answer::answers::Source::Table);
    let sector = Subspace::of(&pos);
    std::fs::remove_file(dir.path().join(file_name(sector))).unwrap();
    let db = Database::open(dir.path()).unwrap();
    let e = db.probe(&pos).unwrap_err();
    assert!(matches!(e, QueryError::PlacementPhase(_)), "{e}");
    assert!(
        e.to_string().contains(&sector.to_string()) && e.to_string().contains("millbase generate"),
        "{e}"
    );
    // the answer falls back to search, says so, and agrees with the tables
    let searched = db.answer(&pos).unwrap();
    assert_eq!(searched.source, millbase::answer::answers::Source::Search);
    assert_eq!(
        (searched.value, searched.moves.clone()),
        (want.value, want.moves.clone())
    );
    let query = || {
        let o = run(&[
            "query",
            "--db",
            dir.path().to_str().unwrap(),
            &pos.to_string(),
            "--json",
        ]);
        assert!(o.status.success());
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (v, String::from_utf8_lossy(&o.stderr).to_string())
    };
    let (v, stderr) = query();
    assert_eq!(v["source"], "search");
    assert_eq!(v["value"], want.value.name());
    assert!(stderr.contains(&sector.to_string()), "{stderr}");
    // generate builds the missing sector again: answers come from the table
    generate_small(dir.path(), Variant::default()).unwrap();
    assert_eq!(query().0["source"], "table");
}

#[test]
fn other_variant_and_missing_subspace_are_clean_errors() {
    let dir = small_db(Variant::nine(false));
    let sub = Subspace::movement(3, 3);
    let e = Table::open(&dir.path().join(file_name(sub)), Variant::default(), sub)
        .err()
        .unwrap();
    assert!(matches!(e, StorageError::WrongVariant { .. }), "{e}");
    // a no-flying file copied into a flying directory is refused too
    let flying = small_db(Variant::default());
    std::fs::copy(
        dir.path().join(file_name(sub)),
        flying.path().join(file_name(sub)),
    )
    .unwrap();
    let db = Database::open(flying.path()).unwrap();
    let pos: Position = "WW.....BB..........W.B.. w 0 0".parse().unwrap();
    let e = db.probe(&pos).unwrap_err();
    assert!(
        matches!(e, QueryError::Storage(StorageError::WrongVariant { .. })),
        "{e}"
    );
    // generate refuses to mix variants in one directory
    let e = generate_small(flying.path(), Variant::nine(false)).unwrap_err();
    assert!(e.to_string().contains("no-flying"), "{e}");
    // a subspace that was never generated
    let pos: Position = "WWW....BB..........W.B.. w 0 0".parse().unwrap();
    let e = db.probe(&pos).unwrap_err();
    assert!(
        matches!(e, QueryError::Storage(StorageError::Missing { .. })),
        "{e}"
    );
    assert!(e.to_string().contains("4-3"), "{e}");
}

#[test]
fn rerun_redoes_a_corrupt_file_and_keeps_good_ones() {
    let dir = small_db(Variant::default());
    let sub = Subspace::movement(3, 3);
    let path = dir.path().join(file_name(sub));
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let n = bad.len();
    bad[n - 10] ^= 1;
    std::fs::write(&path, &bad).unwrap();
    std::fs::write(dir.path().join("3-3-0-0.mdb.tmp"), b"partial").unwrap();
    let reports = generate_small(dir.path(), Variant::default()).unwrap();
    assert!(!reports[0].skipped);
    assert_eq!(std::fs::read(&path).unwrap(), good);
    assert!(!dir.path().join("3-3-0-0.mdb.tmp").exists());
    let reports = generate_small(dir.path(), Variant::default()).unwrap();
    assert!(reports[0].skipped);
}

#[test]
fn garbage_position_strings_are_clean_errors() {
    let mut rng = StdRng::seed_from_u64(0x1234_5678_9ABC_DEF1);
    let alphabet: Vec<char> = "WB.wb0123456789 xé\t-".chars().collect();
    for _ in 0..200_000 {
        let x: u64 = rng.random();
        let len = (x % 40) as usize;
        let s: String = (0..len)
            .map(|i| alphabet[((x >> (i % 50)) as usize + i * 7) % alphabet.len()])
            .collect();
        parses_or_says_why(&s);
        // mutate a valid string in one place
        let mut v: Vec<char> = "WWW.BBB.........B....... w 0 0".chars().collect();
        let k = (x as usize / 7) % v.len();
        v[k] = alphabet[(x as usize / 131) % alphabet.len()];
        let t: String = v.into_iter().collect();
        if let Ok(p) = t.parse::<Position>() {
            assert_eq!(
                p.to_string(),
                t.split_whitespace().collect::<Vec<_>>().join(" ")
            );
        }
    }
    let o = run(&[
        "query",
        "--db",
        "/nonexistent",
        "WWW.BBB.........B....... x 0 0",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("side to move"));
}

#[test]
fn win_draw_loss_maps_agree_with_probes() {
    let dir = small_db(Variant::default());
    let db = Database::open(dir.path()).unwrap();
    let ix = Indexer::new();
    let sub = Subspace::movement(3, 3);
    let maps = WdlMaps::new();
    let map = maps.get(&db, sub).unwrap();
    let mut seen = [0u64; 3];
    for i in 0..ix.index_size(sub) {
        let Some((m, o)) = ix.unrank(sub, i) else {
            assert!(map.value(i).is_err(), "unused slot {i} has a value");
            continue;
        };
        let pos = millbase::solve::solver::movement_position(m, o);
        let want = db.probe(&pos).unwrap();
        let got = map.value(i).unwrap();
        assert_eq!(got.name(), want.name(), "{pos}");
        seen[match want {
            Value::Win(_) => 0,
            Value::Loss(_) => 1,
            Value::Draw => 2,
        }] += 1;
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    assert_eq!(maps.bytes(), map.bytes());
}

#[test]
fn solve_opening_on_a_damaged_file_is_a_clean_error() {
    let dir = small_db(Variant::default());
    let sub = Subspace::movement(3, 3);
    let path = dir.path().join(file_name(sub));
    let good = std::fs::read(&path).unwrap();
    // every line of this placement position ends in 3-3 (or a side below 3)
    let pos: Position = "W....WB................B w 1 1".parse().unwrap();
    let mut bytes = good.clone();
    let n = bytes.len();
    bytes[n - 10] ^= 1; // inside the last block: found only when it is decoded
    std::fs::write(&path, &bytes).unwrap();
    let db = Database::open(dir.path()).unwrap();
    let mut search = OpeningSearch::new(&db, Precision::WinDrawLoss).with_maps_after(0);
    let e = search.value(&pos).unwrap_err().to_string();
    assert!(e.contains("3-3-0-0.mdb") && e.contains("checksum"), "{e}");
    // a damaged header, through the command line
    let mut bytes = good;
    bytes[20] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let o = run(&[
        "solve-opening",
        "--search",
        "--db",
        dir.path().to_str().unwrap(),
        "--position",
        &pos.to_string(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("3-3-0-0.mdb"), "{err}");
}

/// `s` parses to a position that prints back to a string parsing to the same
/// position, with `s`'s board; or it is refused with a message.
fn parses_or_says_why(s: &str) {
    match s.parse::<Position>() {
        Ok(p) => {
            let shown = p.to_string();
            assert_eq!(shown.parse::<Position>().unwrap(), p, "{s:?}");
            assert_eq!(s.trim().get(..24), Some(&shown[..24]), "{s:?}");
        }
        Err(e) => assert!(!e.to_string().trim().is_empty(), "{s:?}"),
    }
}
