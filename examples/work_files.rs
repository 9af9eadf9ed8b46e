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

use millbase::build::complete::read_complete;
use millbase::index::{Indexer, Subspace};
use millbase::solve::known::Kind;
use millbase::storage::dir::{DbDir, stores_plies};
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
    let kinds: Vec<Kind> = std::iter::once(Kind::Game)
        .chain(db.move_limits().into_iter().map(Kind::Rule))
        .filter(|k| match k {
            Kind::Game => what != "rule",
            Kind::Rule(_) => what != "game",
        })
        .collect();
    for kind in kinds {
        for &sub in present.iter().filter(|s| !stores_plies(**s)) {
            if kind == Kind::Game && !sub.is_movement() {
                continue;
            }
            let Ok(table) = db.open_table(kind, sub) else {
                continue;
            };
            let counts = table.header.counts;
            let valid = (db.open_work_table(kind, sub)).is_ok_and(|w| w.header.counts == counts);
            write_unless_valid(&db.work_path(kind, sub), valid, || {
                let cells = read_complete(&db, &ix, kind, sub).expect("derive from the children");
                let game = match kind {
                    Kind::Game => None,
                    Kind::Rule(_) => Some(db.read_outcomes(sub).expect("the game's outcomes")),
                };
                db.write_work_table(kind, sub, &cells, game.as_deref(), counts)
                    .expect("write the work file")
            });
        }
    }
}
