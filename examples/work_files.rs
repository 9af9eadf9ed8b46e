//! Writes the work files (docs/FORMAT.md) of the tables of a database that
//! store neither plies nor distances, as a whole `generate` run leaves them for
//! the units whose moves lead into those tables: the plies of the game's
//! movement tables that store none, and the distances of the rule tables that
//! store counts only (of every move limit in the database). So that
//! `generate` on a directory holding only the movement files times the
//! placement phase as it runs in a whole run, and so that `verify`, each time
//! it is started again, reads what it would otherwise derive again.
//!
//! ```text
//! cargo run --release --example work_files -- DB [game|rule|both]
//! ```
//!
//! Only tables that the moves of another table lead into get one (those are
//! the ones loaded as children). A work file already there and valid is kept.
//! Prints each file written, with the seconds its entries took to derive.

use millbase::db::{DbDir, rule_encoding_for, stores_plies};
use millbase::index::{Indexer, Subspace};
use millbase::solver::Known;
use millbase::storage::Encoding;
use std::path::Path;
use std::time::Instant;

/// Unless `valid` (a valid work file is at `path`), runs `write`, which
/// derives the entries and writes them to `path`, returning its bytes; prints
/// the file with the seconds it took.
fn write_unless_valid(path: &Path, valid: bool, write: impl FnOnce() -> u64) {
    if valid {
        return;
    }
    let start = Instant::now();
    let bytes = write();
    println!(
        "{}: {bytes} bytes, {:.1} s",
        path.display(),
        start.elapsed().as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: work_files DB [game|rule|both]";
    let db = DbDir::open(Path::new(args.get(1).expect(usage))).expect("open the database");
    let what = args.get(2).map_or("both", String::as_str);
    assert!(["game", "rule", "both"].contains(&what), "{usage}");
    let ix = Indexer::new();
    // only the tables that moves of another lead into: a work file serves
    // the loading of a table's children
    let present: Vec<Subspace> = db.present();
    let children: Vec<Subspace> = present.iter().flat_map(|s| s.successors()).collect();
    let present: Vec<Subspace> = present
        .into_iter()
        .filter(|s| children.contains(s))
        .collect();
    if what != "rule" {
        for &sub in present
            .iter()
            .filter(|s| s.is_movement() && !stores_plies(**s))
        {
            let counts = db.open_table(sub).expect("the table").header.counts;
            let valid = (db.open_work_table(sub)).is_ok_and(|w| w.header.counts == counts);
            write_unless_valid(&db.work_path(sub), valid, || {
                let mut known = Known::new();
                db.load_known(&ix, &[sub], &mut known)
                    .expect("derive the plies from the children");
                let cells = known.take(sub).expect("the table just loaded");
                db.write_work_table(sub, &cells, counts)
                    .expect("write the work file")
            });
        }
    }
    if what == "game" {
        return;
    }
    for limit in db.move_limits() {
        for &sub in &present {
            if rule_encoding_for(sub) != Encoding::CountsOnly {
                continue;
            }
            let Ok(table) = db.open_rule_table(limit, sub) else {
                continue;
            };
            let counts = table.header.counts;
            let valid =
                (db.open_rule_work_table(limit, sub)).is_ok_and(|w| w.header.counts == counts);
            write_unless_valid(&db.rule_work_path(limit, sub), valid, || {
                let cells = db
                    .read_rule_table(&ix, limit, sub)
                    .expect("derive the distances from the children");
                let game = db.read_outcomes(sub).expect("the game's outcomes");
                db.write_rule_work_table(limit, sub, &cells, &game, counts)
                    .expect("write the work file")
            });
        }
    }
}
