//! Writes the work files (docs/FORMAT.md) of the movement tables of a database
//! that store no plies, as the movement phase of a whole `generate` run leaves
//! them for the placement phase: so that `generate` on a directory holding only
//! the movement files times the placement phase as it runs in a whole run,
//! without deriving those plies first.
//!
//! ```text
//! cargo run --release --example work_files -- DB
//! ```
//!
//! Prints each file written, with the seconds its plies took to derive.

use millbase::db::{DbDir, stores_plies};
use millbase::index::Indexer;
use millbase::solver::Known;
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let db = DbDir::open(Path::new(args.get(1).expect("usage: work_files DB")))
        .expect("open the database");
    let ix = Indexer::new();
    for sub in db.present() {
        if stores_plies(sub) {
            continue;
        }
        let start = Instant::now();
        let mut known = Known::new();
        db.load_known(&ix, &[sub], &mut known)
            .expect("derive the plies from the children");
        let cells = known.take(sub).expect("the table just loaded");
        let counts = db.open_table(sub).expect("the table").header.counts;
        let bytes = db
            .write_work_table(sub, &cells, counts)
            .expect("write the work file");
        println!(
            "{}: {bytes} bytes, {:.1} s",
            db.work_path(sub).display(),
            start.elapsed().as_secs_f64()
        );
    }
}
