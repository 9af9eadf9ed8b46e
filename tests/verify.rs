//! `verify` catches a wrong value even when the file's checksums are intact.

mod common;

use common::run;
use millbase::Rules;
use millbase::db::{DbDir, encoding_for, file_name};
use millbase::generate::{Silent, generate};
use millbase::index::{Indexer, Subspace};
use millbase::plan::Limits;
use millbase::solver::count_values;
use millbase::storage::write_table;
use millbase::value::{Cell, Value};
use millbase::verify::verify_dir;

#[test]
fn a_planted_wrong_value_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let rules = Rules::default();
    let ix = Indexer::new();
    generate(
        dir.path(),
        rules,
        Limits {
            max_stones: 3,
            max_total: 6,
            placement: true,
            move_limit: None,
        },
        &ix,
        &Silent,
    )
    .unwrap();
    let sub = Subspace::movement(3, 3);
    let clean = verify_dir(&DbDir::open(dir.path()).unwrap(), &ix, &[], 1, &mut |_| {
        true
    })
    .unwrap();
    assert_eq!(clean[0].mismatches, 0);
    assert_eq!(clean[0].checked, ix.classes(sub));

    let mut cells = DbDir::open(dir.path())
        .unwrap()
        .open_table(sub)
        .unwrap()
        .read_all()
        .unwrap();
    let (i, n) = cells
        .iter()
        .enumerate()
        .find_map(|(i, c)| match c.value() {
            Some(Value::Win(n)) if n > 1 => Some((i, n)),
            _ => None,
        })
        .unwrap();
    cells[i] = Cell::from_value(Value::Win(n + 2));
    let counts = count_values(&ix, sub, &cells);
    write_table(
        &dir.path().join(file_name(sub)),
        rules,
        sub,
        &cells,
        counts,
        encoding_for(sub),
    )
    .unwrap();

    let bad = verify_dir(
        &DbDir::open(dir.path()).unwrap(),
        &ix,
        &[sub],
        1,
        &mut |_| true,
    )
    .unwrap();
    assert!(bad[0].mismatches >= 1);
    assert!(
        bad[0]
            .examples
            .iter()
            .any(|m| m.index == i as u64 && m.stored == Cell::from_value(Value::Win(n + 2)))
    );

    // a sample of every k-th orbit block checks exactly those blocks' positions
    // and finds the planted value only when its block is among them
    let block = Indexer::block_size(sub) as usize;
    let blocks = cells.len() / block;
    for k in [2, 3] {
        let r = verify_dir(
            &DbDir::open(dir.path()).unwrap(),
            &ix,
            &[sub],
            k,
            &mut |_| true,
        )
        .unwrap();
        let mut expected = 0;
        for orbit in (0..blocks).step_by(k) {
            ix.for_each_in_orbit(sub, orbit, |_, _, _| expected += 1);
        }
        assert_eq!(r[0].checked, expected);
        assert!(expected < ix.classes(sub));
        let found = r[0].examples.iter().any(|m| m.index == i as u64);
        assert_eq!(
            found,
            (i / block).is_multiple_of(k),
            "sample {k}: {:?}",
            r[0]
        );
    }

    let o = run(&[
        "verify",
        "--db",
        dir.path().to_str().unwrap(),
        "--subspace",
        "3-3",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let line: serde_json::Value =
        serde_json::from_slice(o.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(line["mover"], 3);
    assert!(line["mismatches"].as_u64().unwrap() >= 1);

    let o = run(&[
        "verify",
        "--db",
        dir.path().to_str().unwrap(),
        "--subspace",
        "2-3",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("MOVER-OPPONENT"));
}
