//! `verify` catches a wrong value even when the file's checksums are intact.

mod common;

use common::run;
use millbase::Variant;
use millbase::build::complete::read_complete;
use millbase::build::generate::{Silent, generate};
use millbase::build::verify::{Scope, Unwatched, VerifyReport, verify_tables};
use millbase::index::plan::Limits;
use millbase::index::{Indexer, Subspace};
use millbase::solve::known::Kind;
use millbase::solve::known::count_values;
use millbase::solve::value::{Cell, Value};
use millbase::storage::Speed;
use millbase::storage::dir::{DbDir, encoding_for, file_name};
use millbase::storage::write_table;

/// Builds the game's tables (no rule tables) of the game with at most
/// `max_stones` a side and `max_total` in all, flying, into `dir`.
fn build(dir: &std::path::Path, max_stones: u8, max_total: u8) {
    let limits = Limits {
        max_stones,
        max_total,
        placement: true,
        move_limit: None,
    };
    generate(dir, Variant::default(), limits, &Indexer::new(), &Silent).unwrap();
}

/// The table of `sub` as its file in `dir` holds it.
fn read(dir: &std::path::Path, sub: Subspace) -> Vec<Cell> {
    let db = DbDir::open(dir).unwrap();
    db.open_table(Kind::Game, sub).unwrap().read_all().unwrap()
}

/// Writes `cells` as the file of `sub` in `dir`, its checksums intact.
fn rewrite(dir: &std::path::Path, sub: Subspace, cells: &[Cell]) {
    let counts = count_values(&Indexer::new(), sub, cells);
    let path = dir.join(file_name(sub));
    write_table(
        &path,
        Variant::default(),
        sub,
        (cells, None),
        counts,
        encoding_for(Kind::Game, sub),
        Speed::Small,
    )
    .unwrap();
}

/// `verify_tables` of `sub` alone in `dir`, every `sample`-th class checked.
fn check(dir: &std::path::Path, sub: Subspace, sample: usize) -> Vec<VerifyReport> {
    let db = DbDir::open(dir).unwrap();
    verify_tables(
        &db,
        &Indexer::new(),
        Scope {
            only: &[sub],
            sample,
            ..Scope::all(Kind::Game)
        },
        &Unwatched,
        &mut |_| true,
    )
    .unwrap()
}

#[test]
fn a_planted_wrong_value_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let ix = Indexer::new();
    build(dir.path(), 3, 6);
    let sub = Subspace::movement(3, 3);
    let clean = verify_tables(
        &DbDir::open(dir.path()).unwrap(),
        &ix,
        Scope {
            only: &[],
            sample: 1,
            ..Scope::all(Kind::Game)
        },
        &Unwatched,
        &mut |_| true,
    )
    .unwrap();
    assert_eq!(clean[0].mismatches, 0);
    assert_eq!(clean[0].checked, ix.classes(sub));

    let mut cells = read(dir.path(), sub);
    let (i, n) = cells
        .iter()
        .enumerate()
        .find_map(|(i, c)| match c.value() {
            Some(Value::Win(n)) if n > 1 => Some((i, n)),
            _ => None,
        })
        .unwrap();
    cells[i] = Cell::from_value(Value::Win(n + 2));
    rewrite(dir.path(), sub, &cells);

    let bad = check(dir.path(), sub, 1);
    assert!(bad[0].mismatches >= 1);
    assert!(
        bad[0]
            .examples
            .iter()
            .any(|m| m.index == i as u64 && m.stored == Cell::from_value(Value::Win(n + 2)))
    );

    // a sample of every k-th class of opponent sets checks exactly those
    // classes' positions and finds the planted value only when it is among them
    for k in [2, 3] {
        let r = check(dir.path(), sub, k);
        let mut sampled = vec![];
        for orbit in (0..ix.orbits(sub.opponent)).step_by(k) {
            ix.for_each_by_opponent(sub, orbit, |m, o| sampled.push(ix.rank(m, o)));
        }
        assert_eq!(r[0].checked, sampled.len() as u64);
        assert!(r[0].checked < ix.classes(sub));
        let found = r[0].examples.iter().any(|m| m.index == i as u64);
        assert_eq!(
            found,
            sampled.contains(&(i as u64)),
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

#[test]
fn a_value_in_a_slot_that_holds_no_position_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let ix = Indexer::new();
    build(dir.path(), 3, 6);
    let sub = Subspace::movement(3, 3);
    let mut cells = read(dir.path(), sub);
    let slot = (0..cells.len() as u64)
        .find(|&i| ix.unrank(sub, i).is_none())
        .unwrap() as usize;
    assert_eq!(cells[slot], Cell::UNUSED);
    cells[slot] = Cell::DRAW;
    rewrite(dir.path(), sub, &cells);
    let r = check(dir.path(), sub, 1);
    assert_eq!(r[0].mismatches, 1);
    assert_eq!(r[0].checked, ix.classes(sub));
}

/// The reports of `verify_tables` with budget `kept` on the database in
/// `dir`, as (subspace, checked, mismatches, example indices), sorted.
fn reports(dir: &std::path::Path, kept: usize) -> Vec<(Subspace, u64, u64, Vec<u64>)> {
    let ix = Indexer::new();
    let mut r: Vec<_> = verify_tables(
        &DbDir::open(dir).unwrap(),
        &ix,
        Scope {
            only: &[],
            sample: 1,
            kept_bytes: kept,
            ..Scope::all(Kind::Game)
        },
        &Unwatched,
        &mut |_| true,
    )
    .unwrap()
    .into_iter()
    .map(|r| {
        let ex = r.examples.iter().map(|m| m.index).collect();
        (r.subspace, r.checked, r.mismatches, ex)
    })
    .collect();
    r.sort_by_key(|x| x.0);
    r
}

#[test]
fn a_whole_database_check_finds_a_wrong_outcome_in_a_file_without_plies() {
    // the whole check completes each file without plies from its own check
    // and keeps it for the files whose moves lead into it; with no memory
    // for that, each is derived again where needed: the same reports
    let dir = tempfile::tempdir().unwrap();
    let ix = Indexer::new();
    build(dir.path(), 4, 7);
    let clean = reports(dir.path(), usize::MAX);
    assert_eq!(clean, reports(dir.path(), 0));
    let subs = DbDir::open(dir.path()).unwrap().present();
    assert_eq!(clean.len(), subs.len());
    for (s, checked, bad, _) in &clean {
        assert_eq!((*checked, *bad), (ix.classes(*s), 0), "{s}");
    }

    // a White-to-move sector (win/draw/loss only) that a Black-to-move
    // sector's moves lead into: a win planted where the children say loss
    let sub = (subs.iter().copied())
        .find(|s| {
            !s.is_movement()
                && encoding_for(Kind::Game, *s) == millbase::storage::Encoding::WdlOnly
                && subs.iter().any(|p| p.successors().contains(s))
        })
        .unwrap();
    let mut cells = read(dir.path(), sub);
    let i = cells.iter().position(|&c| c == Cell::LOST).unwrap();
    cells[i] = Cell::WON;
    rewrite(dir.path(), sub, &cells);
    let bad = reports(dir.path(), usize::MAX);
    for (s, checked, n, ex) in &bad {
        assert_eq!(*checked, ix.classes(*s), "{s}");
        if *s == sub {
            assert_eq!((*n, ex.as_slice()), (1, [i as u64].as_slice()));
        } else {
            assert_eq!(*n, 0, "{s}");
        }
    }
}

#[test]
fn an_interrupted_check_goes_on_from_its_json_output() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), 3, 6);
    let db = dir.path().to_str().unwrap();
    let whole = run(&["verify", "--db", db, "--json"]);
    assert_eq!(whole.status.code(), Some(0));
    let whole = String::from_utf8(whole.stdout).unwrap();
    let rows: Vec<&str> = whole.lines().collect();
    assert!(rows.len() > 4, "{whole}");

    // the first rows, and half a row as a killed run leaves it
    let done = dir.path().join("v.jsonl");
    let half = &rows[3][..rows[3].len() / 2];
    std::fs::write(&done, format!("{}\n{half}", rows[..3].join("\n"))).unwrap();
    let go_on = |done: &std::path::Path| {
        run(&[
            "verify",
            "--db",
            db,
            "--json",
            "--done",
            done.to_str().unwrap(),
        ])
    };
    let rest = go_on(&done);
    assert_eq!(rest.status.code(), Some(0));
    let rest = String::from_utf8(rest.stdout).unwrap();
    let mut all: Vec<&str> = rows[..3].iter().copied().chain(rest.lines()).collect();
    let mut want = rows.clone();
    all.sort();
    want.sort();
    assert_eq!(all, want);
    // the text verdict counts the rows already done
    let o = run(&["verify", "--db", db, "--done", done.to_str().unwrap()]);
    let text = String::from_utf8(o.stdout).unwrap();
    let checked: u64 = (rows.iter())
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["checked"]
                .as_u64()
                .unwrap()
        })
        .sum();
    assert!(
        text.contains(&format!("ok: {checked} positions in {} tables", rows.len())),
        "{text}"
    );

    // a mismatch reported earlier still fails the check
    let bad = rows[0].replace("\"mismatches\":0", "\"mismatches\":2");
    assert_ne!(bad, rows[0]);
    std::fs::write(&done, format!("{bad}\n")).unwrap();
    let o = go_on(&done);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("2 mismatches"));

    // a file that is not such output is refused, by name and line
    std::fs::write(&done, format!("{}\nnot json\n", rows[0])).unwrap();
    let o = go_on(&done);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("v.jsonl") && err.contains("line 2"), "{err}");
}

/// The move limit of the rule tables the tests below build: small, so that
/// many wins are cursed.
const LIMIT: u16 = 20;

/// Builds the game's tables and those of the no-removal rule with move
/// limit [`LIMIT`] of the flying game with at most 4 stones a side and 7 in
/// all into `dir`.
fn build_with_rule_tables(dir: &std::path::Path) {
    let limits = Limits {
        max_stones: 4,
        max_total: 7,
        placement: true,
        move_limit: Some(LIMIT),
    };
    generate(dir, Variant::default(), limits, &Indexer::new(), &Silent).unwrap();
}

/// `verify_tables` of `only` (every rule table when empty) in `dir`.
fn check_rule_tables(dir: &std::path::Path, only: &[Subspace]) -> Vec<VerifyReport> {
    let db = DbDir::open(dir).unwrap();
    verify_tables(
        &db,
        &Indexer::new(),
        Scope {
            only,
            sample: 1,
            ..Scope::all(Kind::Rule(LIMIT))
        },
        &Unwatched,
        &mut |_| true,
    )
    .unwrap()
}

#[test]
fn a_planted_wrong_distance_in_a_rule_table_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    build_with_rule_tables(dir.path());
    let db = DbDir::open(dir.path()).unwrap();
    let clean = check_rule_tables(dir.path(), &[]);
    assert_eq!(clean.len(), db.present().len());
    for r in &clean {
        assert_eq!(
            (r.mismatches, r.move_limit),
            (0, Some(LIMIT)),
            "{}",
            r.subspace
        );
        // every position the game decides is recomputed, its draws are not
        let game = db.open_table(Kind::Game, r.subspace).unwrap().header.counts;
        assert_eq!(r.checked, game.wins + game.losses, "{}", r.subspace);
    }
    assert!(clean.iter().map(|r| r.checked).sum::<u64>() > 100_000);

    // a win at a distance the limit leaves room to lengthen, in a file that
    // stores distances, lengthened by two plies (checksums intact)
    let ix = Indexer::new();
    let (sub, i, d, mut cells, game) = (db.present().into_iter())
        .filter(|&s| millbase::storage::dir::stores_plies(s))
        .find_map(|s| {
            let cells = read_complete(&db, &ix, Kind::Rule(LIMIT), s).unwrap();
            let (i, d) = cells
                .iter()
                .enumerate()
                .find_map(|(i, c)| match c.value() {
                    Some(Value::Win(d)) if (3..LIMIT - 2).contains(&d) => Some((i, d)),
                    _ => None,
                })?;
            Some((s, i, d, cells, db.read_outcomes(s).unwrap()))
        })
        .expect("a win in a table that stores distances");
    cells[i] = Cell::from_value(Value::Win(d + 2));
    let counts = db.open_table(Kind::Rule(LIMIT), sub).unwrap().header.counts;
    db.write_table(Kind::Rule(LIMIT), sub, &cells, Some(&game), counts)
        .unwrap();
    let r = &check_rule_tables(dir.path(), &[sub])[0];
    assert_eq!((r.mismatches, r.examples.len()), (1, 1), "{sub}");
    assert_eq!(r.examples[0].index, i as u64);
    assert_eq!(r.examples[0].expected, Value::Win(d));
    assert_eq!(r.examples[0].stored.value(), Some(Value::Win(d + 2)));
    // the game's check of the same file does not see the rule's tables
    assert_eq!(check(dir.path(), sub, 1)[0].mismatches, 0);
}

#[test]
fn wrong_counts_in_a_rule_table_that_stores_none_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    build_with_rule_tables(dir.path());
    let db = DbDir::open(dir.path()).unwrap();
    let ix = Indexer::new();
    let sub = (db.present().into_iter())
        .filter(|&s| !millbase::storage::dir::stores_plies(s))
        .max_by_key(|&s| {
            db.open_table(Kind::Rule(LIMIT), s)
                .unwrap()
                .header
                .counts
                .wins
        })
        .unwrap();
    let file = db.open_table(Kind::Rule(LIMIT), sub).unwrap();
    assert_eq!(
        file.header.encoding,
        millbase::storage::Encoding::CountsOnly
    );
    let mut counts = file.header.counts;
    assert!(counts.wins > 0, "{sub}");
    let cells = read_complete(&db, &ix, Kind::Rule(LIMIT), sub).unwrap();
    let game = db.read_outcomes(sub).unwrap();
    assert_eq!(count_values(&ix, sub, &cells), counts);
    assert_eq!(check_rule_tables(dir.path(), &[sub])[0].mismatches, 0);

    // one win counted as a draw (the rule may draw what the game wins)
    counts.wins -= 1;
    counts.draws += 1;
    db.write_table(Kind::Rule(LIMIT), sub, &cells, Some(&game), counts)
        .unwrap();
    let r = &check_rule_tables(dir.path(), &[sub])[0];
    assert!(r.counts_differ, "{sub}");
    assert_eq!((r.mismatches, r.examples.len()), (1, 0), "{sub}");
}

#[test]
fn the_command_checks_rule_tables_and_resumes_between_them() {
    let dir = tempfile::tempdir().unwrap();
    build_with_rule_tables(dir.path());
    let db = dir.path().to_str().unwrap();
    let files = DbDir::open(dir.path()).unwrap().present().len();
    let rows = |args: &[&str]| -> Vec<serde_json::Value> {
        let o = run(&[&["verify", "--db", db, "--json"], args].concat());
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        (String::from_utf8(o.stdout).unwrap().lines())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let is_rule = |r: &serde_json::Value| r.get("move_limit").is_some();
    let all = rows(&[]);
    // progress on stderr (not a terminal here): a line as each table starts
    let o = run(&["verify", "--db", db]);
    let err = String::from_utf8(o.stderr).unwrap();
    let starts = err
        .lines()
        .filter(|l| l.contains(": reading the tables its moves lead into, then checking "))
        .count();
    assert_eq!(starts, 2 * files, "{err}");
    assert_eq!(all.len(), 2 * files);
    assert_eq!(all.iter().filter(|r| is_rule(r)).count(), files);
    assert!(
        all.iter()
            .filter(|r| is_rule(r))
            .all(|r| r["move_limit"] == LIMIT)
    );
    // the game's rows come first, then the rule's
    assert!(all[..files].iter().all(|r| !is_rule(r)));
    assert!(rows(&["--no-rule-tables"]).iter().all(|r| !is_rule(r)));

    // the game's rows and a few of the rule's done: the rest only
    let done = dir.path().join("v.jsonl");
    let lines: Vec<String> = all[..files + 3].iter().map(|r| r.to_string()).collect();
    std::fs::write(&done, lines.join("\n") + "\n").unwrap();
    let rest = rows(&["--done", done.to_str().unwrap()]);
    assert_eq!(rest.len(), files - 3);
    assert!(rest.iter().all(is_rule));
    assert_eq!(rest[..], all[files + 3..]);
}

#[test]
fn a_damaged_rule_table_is_an_error_that_names_its_file() {
    let dir = tempfile::tempdir().unwrap();
    build_with_rule_tables(dir.path());
    let db = DbDir::open(dir.path()).unwrap();
    let sub = (db.present().into_iter())
        .filter(|&s| millbase::storage::dir::stores_plies(s))
        .max_by_key(|&s| db.open_table(Kind::Rule(LIMIT), s).unwrap().file_len())
        .unwrap();
    let path = db.dir_of(Kind::Rule(LIMIT)).join(file_name(sub));
    let name = path.to_str().unwrap().to_string();
    let intact = std::fs::read(&path).unwrap();
    let verify = || run(&["verify", "--db", dir.path().to_str().unwrap()]);
    // a byte in the middle of the file flipped, then the file cut short
    let mut flipped = intact.clone();
    flipped[intact.len() / 2] ^= 0x40;
    for damaged in [flipped, intact[..intact.len() / 3].to_vec()] {
        std::fs::write(&path, &damaged).unwrap();
        let o = verify();
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains(&name) && !err.contains("panicked"), "{err}");
    }
}
