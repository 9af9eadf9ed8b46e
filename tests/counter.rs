//! The no-removal rule against an independent brute force: every position of
//! the game with 3 stones a side, placement and movement, at every counter,
//! for move limits 100 and 20, in both variants. The brute force walks
//! explicit (position, counter) states with the naive rules' moves; the engine
//! stores one distance per position, from its own solvers.

mod brute;
mod naive;

use brute::{Brute, DRAWN, LOST, Placement, WON, counter_outcomes_3};
use millbase::Rules;
use millbase::counter::{self, Category};
use millbase::index::{Indexer, Subspace};
use millbase::plan::Limits;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

fn check(rules: Rules, limit: u16) {
    let ix = Indexer::new();
    let limits = Limits {
        max_stones: 3,
        max_total: 6,
        placement: true,
        move_limit: Some(limit),
    };
    let distances = counter::solve(&ix, rules, limits, limit).unwrap();
    // the same through a database's files and the query API, on a sample
    let dir = tempfile::tempdir().unwrap();
    millbase::generate::generate(dir.path(), rules, limits, &ix, &millbase::generate::Silent)
        .unwrap();
    let db = millbase::query::Database::open(dir.path()).unwrap();
    let answered = AtomicU64::new(0);
    let mut brute = Brute::new(rules);
    brute.solve_group(&[(3, 3)]);
    let plain = Placement::solve(&brute, 3);
    let checked = AtomicU64::new(0);
    let by_category: Mutex<[u64; 5]> = Mutex::new([0; 5]);
    let bad: Mutex<Vec<String>> = Mutex::new(vec![]);
    counter_outcomes_3(rules, limit, &|pos, c, outcome| {
        let sub = Subspace::of(pos);
        let d = distances[&sub][ix.rank(pos.mover, pos.opponent) as usize]
            .value()
            .unwrap();
        let cat = Category::of(plain.value(pos), d, limit, c);
        let want = match cat {
            Category::Win => WON,
            Category::Loss => LOST,
            _ => DRAWN,
        };
        checked.fetch_add(1, Relaxed);
        // one state in about 2,000: the answer of the query API at this counter
        let h = ((pos.mover as u64 * 0x9E37_79B9)
            ^ (pos.opponent as u64 * 0x85EB_CA6B)
            ^ (c as u64 * 31))
            .wrapping_mul(0x2545_F491_4F6C_DD1D);
        if h >> 53 == 0 {
            let a = db.answer_at(pos, c).unwrap();
            let r = a.rule.unwrap();
            assert_eq!((r.counter, r.category), (c, cat), "{pos} at {c}");
            // the best move keeps what the position has under the rule
            if let Some(best) = a.moves.first() {
                let child = best.rule.unwrap().category;
                let kept = match cat {
                    Category::Win => child == Category::Loss,
                    Category::Loss => child == Category::Win,
                    _ => !matches!(child, Category::Win | Category::Loss),
                };
                assert!(
                    kept,
                    "{pos} at {c}: {cat:?}, best move {} to {child:?}",
                    best.mv
                );
            }
            answered.fetch_add(1, Relaxed);
        }
        if c == 0 {
            by_category.lock().unwrap()[cat as usize] += 1;
        }
        if want != outcome {
            let mut b = bad.lock().unwrap();
            if b.len() < 5 {
                b.push(format!(
                    "{pos} at counter {c}: brute force {outcome}, engine {cat:?} ({d:?})"
                ));
            }
        }
    });
    let bad = bad.into_inner().unwrap();
    assert!(bad.is_empty(), "limit {limit}: {bad:?}");
    assert!(checked.load(Relaxed) > 2_000_000, "{checked:?}");
    assert!(answered.load(Relaxed) > 500, "{answered:?}");
    let counts = by_category.into_inner().unwrap();
    assert!(
        counts[0] > 0 && counts[2] > 0 && counts[4] > 0,
        "{counts:?}"
    );
    if limit == 20 {
        // the 3-3 endgame's longest wins take 25 plies or more: cursed at 20
        assert!(counts[1] > 0, "cursed wins at counter 0: {counts:?}");
    }
}

#[test]
fn flying_limit_100() {
    check(Rules { flying: true }, 100);
}

#[test]
fn flying_limit_20() {
    check(Rules { flying: true }, 20);
}

#[test]
fn no_flying_limit_100() {
    check(Rules { flying: false }, 100);
}

#[test]
fn no_flying_limit_20() {
    check(Rules { flying: false }, 20);
}

#[test]
fn distance_tables_round_trip_through_files() {
    use millbase::storage::{self, Encoding, Table};
    use millbase::value::Value;
    let ix = Indexer::new();
    let limits = Limits {
        max_stones: 3,
        max_total: 6,
        placement: true,
        move_limit: None,
    };
    let rules = Rules::default();
    let distances = counter::solve(&ix, rules, limits, 20).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (sub, cells) in &distances {
        let path = dir.path().join(millbase::db::file_name(*sub));
        let counts = millbase::solver::count_values(&ix, *sub, cells);
        storage::write_table(&path, rules, *sub, cells, counts, Encoding::WdlDistance).unwrap();
        let t = Table::open(&path, rules, *sub).unwrap();
        assert_eq!(t.header.encoding, Encoding::WdlDistance);
        t.check().unwrap();
        assert!(t.read_all().unwrap() == *cells, "{sub}");
    }
    // a loser whose every move removes a stone, each into a position the
    // opponent wins, converts at once (a loss at distance 1, a win at 2
    // before it): distances of any parity round-trip, up to the largest limit
    let sub = Subspace::movement(3, 3);
    let mut cells = distances[&sub].clone();
    let odd_and_even = [
        Value::Win(2),
        Value::Loss(1),
        Value::Win(millbase::rules::MAX_MOVE_LIMIT),
        Value::Loss(millbase::rules::MAX_MOVE_LIMIT - 1),
    ];
    let decided: Vec<usize> = (0..cells.len())
        .filter(|&i| matches!(cells[i].value(), Some(Value::Win(_) | Value::Loss(_))))
        .take(odd_and_even.len())
        .collect();
    for (&i, &v) in decided.iter().zip(&odd_and_even) {
        cells[i] = millbase::value::Cell::from_value(v);
    }
    let path = dir.path().join("synthetic.mdb");
    let counts = millbase::solver::count_values(&ix, sub, &cells);
    storage::write_table(&path, rules, sub, &cells, counts, Encoding::WdlDistance).unwrap();
    assert!(Table::open(&path, rules, sub).unwrap().read_all().unwrap() == cells);
    // every single-byte change of a distance file is found
    let sub = Subspace::movement(3, 3);
    let path = dir.path().join(millbase::db::file_name(sub));
    let bytes = std::fs::read(&path).unwrap();
    let scratch = dir.path().join("scratch.mdb");
    for i in (0..bytes.len()).step_by(7) {
        let mut b = bytes.clone();
        b[i] ^= 0x21;
        std::fs::write(&scratch, &b).unwrap();
        let r = Table::open(&scratch, rules, sub).and_then(|t| {
            t.check()?;
            t.read_all()
        });
        assert!(r.is_err(), "a change at byte {i} went unnoticed");
    }
}

#[test]
fn generate_writes_the_distance_tables_and_rebuilds_a_damaged_one() {
    use millbase::db::DbDir;
    use millbase::generate::{Silent, generate};
    let ix = Indexer::new();
    let rules = Rules { flying: false };
    let limits = Limits {
        max_stones: 3,
        max_total: 6,
        placement: true,
        move_limit: Some(20),
    };
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), rules, limits, &ix, &Silent).unwrap();
    let want = counter::solve(&ix, rules, limits, 20).unwrap();
    let db = DbDir::open(dir.path()).unwrap();
    assert_eq!(db.move_limits(), [20]);
    let present = db.present();
    assert_eq!(present.len(), want.len());
    for &sub in &present {
        let cells = db.open_rule_table(20, sub).unwrap().read_all().unwrap();
        assert!(cells == want[&sub], "{sub}");
    }
    // a damaged rule table is built again, to the same bytes
    let path = db.rule_dir(20).join(millbase::db::file_name(present[0]));
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let n = bad.len();
    bad[n - 5] ^= 4;
    std::fs::write(&path, &bad).unwrap();
    let reports = generate(dir.path(), rules, limits, &ix, &Silent).unwrap();
    let rebuilt: Vec<_> = reports.iter().filter(|r| !r.skipped).collect();
    assert_eq!(rebuilt.len(), 1);
    assert_eq!(rebuilt[0].move_limit, Some(20));
    assert_eq!(std::fs::read(&path).unwrap(), good);
}
