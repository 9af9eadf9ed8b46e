//! Resuming and upgrading at small scale: the paths a complete run takes only when
//! something went wrong (a pair half there, a damaged file, a stale work file, a
//! killed run, an old format) end in the same bytes as a clean run.

mod common;

use common::run;
use millbase::Variant;
use millbase::build::complete::load_known;
use millbase::index::{Indexer, Subspace};
use millbase::solve::known::Kind;
use millbase::solve::known::Known;
use millbase::solve::known::count_values;
use millbase::solve::value::{Cell, Value};
use millbase::storage::dir::{DbDir, RULE_DIR_PREFIX, WORK_DIR, file_name};
use millbase::storage::{Encoding, Speed, write_table};
use std::collections::BTreeMap;
use std::path::Path;

fn generate(dir: &Path, args: &[&str]) {
    let mut all = vec!["generate", "--db", dir.to_str().unwrap(), "--quiet"];
    all.extend_from_slice(args);
    let o = run(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The database files (`*.mdb`) of `dir` with their bytes, the tables of the
/// no-removal rule (limit 100, the default) included.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let in_dir = |sub: &str| -> Vec<(String, Vec<u8>)> {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            return vec![];
        };
        entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "mdb"))
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                (format!("{sub}{name}"), std::fs::read(&p).unwrap())
            })
            .collect()
    };
    let mut all = in_dir("");
    all.extend(in_dir(&format!("{RULE_DIR_PREFIX}100/")));
    all.into_iter().collect()
}

fn assert_same(dir: &Path, reference: &BTreeMap<String, Vec<u8>>, what: &str) {
    let got = files(dir);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        reference.keys().collect::<Vec<_>>(),
        "{what}"
    );
    for (name, bytes) in reference {
        assert!(got[name] == *bytes, "{what}: {name} differs");
    }
}

#[test]
fn a_pair_half_there_or_damaged_is_rebuilt_to_the_same_bytes() {
    let clean = tempfile::tempdir().unwrap();
    generate(clean.path(), &["--max-stones", "4"]);
    let reference = files(clean.path());
    // 4 movement subspaces and the placement sectors of the 4-stone game
    let sectors = millbase::index::plan::placement_plan(millbase::index::plan::Limits {
        max_stones: 4,
        ..Default::default()
    });
    // and a table of the no-removal rule for each
    assert_eq!(reference.len(), 2 * (4 + sectors.len()));

    let d = tempfile::tempdir().unwrap();
    generate(d.path(), &["--max-stones", "4"]);
    // one file of the 4-3/3-4 pair missing
    std::fs::remove_file(d.path().join(file_name(Subspace::movement(4, 3)))).unwrap();
    generate(d.path(), &["--max-stones", "4"]);
    assert_same(d.path(), &reference, "4-3 missing");
    // one file of the pair damaged inside its data
    let p = d.path().join(file_name(Subspace::movement(3, 4)));
    let mut bytes = std::fs::read(&p).unwrap();
    let n = bytes.len();
    bytes[n - 100] ^= 0x40;
    std::fs::write(&p, &bytes).unwrap();
    generate(d.path(), &["--max-stones", "4"]);
    assert_same(d.path(), &reference, "3-4 damaged");
    // a placement sector missing, another damaged
    std::fs::remove_file(d.path().join(file_name(sectors[3]))).unwrap();
    let p = d.path().join(file_name(sectors[5]));
    let mut bytes = std::fs::read(&p).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0x40;
    std::fs::write(&p, &bytes).unwrap();
    generate(d.path(), &["--max-stones", "4"]);
    assert_same(
        d.path(),
        &reference,
        "placement sectors missing and damaged",
    );
}

#[test]
fn a_stale_work_file_is_not_used() {
    let clean = tempfile::tempdir().unwrap();
    generate(clean.path(), &["--max-stones", "4"]);
    let reference = files(clean.path());

    // 3-3, 4-3 and 3-4 only; 4-4, whose removals lead into 3-4, comes later
    let d = tempfile::tempdir().unwrap();
    generate(d.path(), &["--max-stones", "4", "--max-total", "7"]);
    let db = DbDir::open(d.path()).unwrap();
    let s = Subspace::movement(3, 4);
    let mut known = Known::new();
    load_known(&db, &Indexer::new(), Kind::Game, &[s], &mut known).unwrap();
    // a work file from some other run: its plies are wrong, and so are its counts
    let mut stale: Vec<Cell> = known.table(s).unwrap().to_vec();
    for c in stale.iter_mut() {
        if let Some(Value::Win(n)) = c.value() {
            *c = Cell::from_value(Value::Win(n + 2));
        }
    }
    let counts = count_values(&Indexer::new(), s, &stale);
    assert_ne!(counts, db.open_table(Kind::Game, s).unwrap().header.counts);
    std::fs::create_dir_all(d.path().join(WORK_DIR)).unwrap();
    write_table(
        &db.work_path(Kind::Game, s),
        Variant::default(),
        s,
        (&stale, None),
        counts,
        Encoding::WdlPlies,
        Speed::Small,
    )
    .unwrap();
    generate(d.path(), &["--max-stones", "4"]);
    assert_same(d.path(), &reference, "stale work file ignored");
    assert!(
        !db.work_path(Kind::Game, s).exists(),
        "the work file is removed after its pair"
    );
}

#[test]
fn a_run_killed_in_the_middle_of_a_pair_resumes_to_the_same_bytes() {
    // the 5-stone game up to 8 stones in all: 5-3/3-5 comes after 4-4
    let limits = ["--max-stones", "5", "--max-total", "8"];
    let clean = tempfile::tempdir().unwrap();
    generate(clean.path(), &limits);
    let reference = files(clean.path());

    let d = tempfile::tempdir().unwrap();
    let mut child = common::spawn_silent(&[
        "generate",
        "--db",
        d.path().to_str().unwrap(),
        "--max-stones",
        "5",
        "--max-total",
        "8",
        "--quiet",
    ]);
    // kill it as soon as 4-4 is written: it is then inside the 5-3/3-5 pair
    let marker = d.path().join(file_name(Subspace::movement(4, 4)));
    for _ in 0..12000 {
        if marker.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(marker.exists(), "4-4 was never written");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the run finished before it was killed"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let before = files(d.path()).len();
    assert!(
        before < reference.len(),
        "killed before the end ({before} files)"
    );
    generate(d.path(), &limits);
    assert_same(d.path(), &reference, "resumed after kill -9");
}

#[test]
fn upgrade_of_a_no_flying_directory_with_a_work_file() {
    let variant = Variant::nine(false);
    let clean = tempfile::tempdir().unwrap();
    generate(
        clean.path(),
        &["--max-stones", "4", "--max-total", "7", "--no-flying"],
    );
    let reference = files(clean.path());

    let d = tempfile::tempdir().unwrap();
    generate(
        d.path(),
        &["--max-stones", "4", "--max-total", "7", "--no-flying"],
    );
    let db = DbDir::open(d.path()).unwrap();
    let ix = Indexer::new();
    let subs = [(3, 3), (4, 3), (3, 4)].map(|(m, o)| Subspace::movement(m, o));
    for s in subs {
        let mut known = Known::new();
        load_known(&db, &ix, Kind::Game, &[s], &mut known).unwrap();
        let cells = known.table(s).unwrap();
        let counts = count_values(&ix, s, cells);
        write_table(
            &db.table_path(Kind::Game, s),
            variant,
            s,
            (cells, None),
            counts,
            Encoding::Code8,
            Speed::Small,
        )
        .unwrap();
        if s == Subspace::movement(3, 4) {
            // as an interrupted generate leaves it
            std::fs::create_dir_all(d.path().join(WORK_DIR)).unwrap();
            write_table(
                &db.work_path(Kind::Game, s),
                variant,
                s,
                (cells, None),
                counts,
                Encoding::WdlPlies,
                Speed::Small,
            )
            .unwrap();
        }
    }
    let work = std::fs::read(db.work_path(Kind::Game, subs[2])).unwrap();
    let o = run(&["upgrade", "--db", d.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("upgraded 3 files"));
    assert_same(d.path(), &reference, "upgraded no-flying files");
    assert_eq!(
        std::fs::read(db.work_path(Kind::Game, subs[2])).unwrap(),
        work
    );
    // the upgraded directory resumes like a fresh one
    generate(d.path(), &["--max-stones", "4", "--no-flying"]);
    let more = tempfile::tempdir().unwrap();
    generate(more.path(), &["--max-stones", "4", "--no-flying"]);
    assert_same(d.path(), &files(more.path()), "resumed after upgrade");
}
