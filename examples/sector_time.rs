//! Times the solve of one placement sector of a database, apart from loading
//! its children, and checks the result against the sector's file.
//!
//! ```text
//! cargo run --release --example sector_time -- DB SECTOR [REPEATS]
//! ```
//!
//! DB must hold the sector (for example `6-6/2-2`) and the tables its moves lead
//! into. Prints the loading time of the children, then per repeat the solve's
//! wall time and the entries that differ from the file (win/draw/loss, and plies
//! where the file stores them); exits 1 if any differ.

use millbase::db::DbDir;
use millbase::index::{Indexer, Subspace};
use millbase::placement::solve_sector;
use millbase::solver::{Known, NoProgress};
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: sector_time DB SECTOR [REPEATS]";
    let db = DbDir::open(Path::new(args.get(1).expect(usage))).expect("open the database");
    let sub: Subspace = args
        .get(2)
        .expect(usage)
        .parse()
        .expect("a sector such as 6-6/2-2");
    let repeats: usize = args.get(3).map_or(1, |s| s.parse().expect(usage));
    let ix = Indexer::new();
    let mut known = Known::new();
    let start = Instant::now();
    db.load_known(&ix, &sub.successors(), &mut known)
        .expect("load the sector's children");
    println!(
        "{sub}: children loaded in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let stored = db
        .open_table(sub)
        .and_then(|t| t.read_all())
        .expect("read the sector's file");
    let mut differ = 0;
    for _ in 0..repeats {
        let start = Instant::now();
        let solved = solve_sector(&ix, sub, &known, &NoProgress).expect("solve");
        let seconds = start.elapsed().as_secs_f64();
        let bad = solved
            .cells
            .iter()
            .zip(&stored)
            .filter(|(a, b)| a.wdl_code() != b.wdl_code() || (!b.lacks_plies() && a != b))
            .count();
        println!(
            "{sub}: solved in {seconds:.2} s ({} classes, {:.2} M/s); {bad} entries differ from the file",
            solved.counts.classes,
            solved.counts.classes as f64 / seconds / 1e6
        );
        differ += bad;
    }
    if differ > 0 {
        std::process::exit(1);
    }
}
