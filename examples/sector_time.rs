//! Times the solve of one placement sector of a database, the game's or the
//! no-removal rule's, apart from loading the tables it reads, and checks the
//! result against the sector's file.
//!
//! ```text
//! cargo run --release --example sector_time -- DB SECTOR [REPEATS] [game|rule]
//! ```
//!
//! DB must hold the sector (for example `6-6/2-2`) and the tables its moves lead
//! into; for `rule`, their tables of the no-removal rule for the database's
//! move limit too. Prints the loading time, then per repeat the solve's wall
//! time and how it compares with the file: the game's entries that differ
//! (win/draw/loss, and plies where the file stores them), or whether the rule
//! table's counts equal the file's. Exits 1 if any differ.

use millbase::build::complete::load_known;
use millbase::index::{Indexer, Subspace};
use millbase::solve::known::Kind;
use millbase::solve::known::Known;
use millbase::solve::placement::solve_sector_layer;
use millbase::solve::solver::{Layer, NoProgress};
use millbase::storage::dir::DbDir;
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: sector_time DB SECTOR [REPEATS] [game|rule]";
    let db = DbDir::open(Path::new(args.get(1).expect(usage))).expect("open the database");
    let sub: Subspace = args
        .get(2)
        .expect(usage)
        .parse()
        .expect("a sector such as 6-6/2-2");
    let repeats: usize = args.get(3).map_or(1, |s| s.parse().expect(usage));
    let rule = match args.get(4).map_or("game", String::as_str) {
        "game" => None,
        "rule" => Some(
            *db.move_limits()
                .first()
                .expect("the database holds no rule tables"),
        ),
        _ => panic!("{usage}"),
    };
    let ix = Indexer::new();
    let (mut children, mut game) = (Known::new(), Known::new());
    let start = Instant::now();
    let stored = db
        .open_table(Kind::Game, sub)
        .and_then(|t| t.read_all())
        .expect("read the sector's file");
    match rule {
        None => load_known(&db, &ix, Kind::Game, &sub.successors(), &mut children),
        Some(limit) => load_known(
            &db,
            &ix,
            Kind::Rule(limit),
            &sub.successors(),
            &mut children,
        ),
    }
    .expect("load the tables the sector's moves lead into");
    println!(
        "{sub}: tables loaded in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let layer = match rule {
        None => Layer::game(&children),
        Some(limit) => {
            game.insert(sub, stored.clone());
            Layer::rule(limit, &children, Some(&game))
        }
    };
    let mut differ = 0;
    for _ in 0..repeats {
        let start = Instant::now();
        let solved = solve_sector_layer(&ix, sub, layer, &NoProgress).expect("solve");
        let seconds = start.elapsed().as_secs_f64();
        let bad = match rule {
            None => solved
                .cells
                .iter()
                .zip(&stored)
                .filter(|(a, b)| a.wdl_code() != b.wdl_code() || (!b.lacks_plies() && a != b))
                .count(),
            Some(limit) => {
                let file = db
                    .open_table(Kind::Rule(limit), sub)
                    .expect("open the rule file");
                usize::from(file.header.counts != solved.counts)
            }
        };
        println!(
            "{sub}: solved in {seconds:.2} s ({} classes, {:.2} M/s); {bad} {} differ from the file",
            solved.counts.classes,
            solved.counts.classes as f64 / seconds / 1e6,
            if rule.is_some() { "counts" } else { "entries" }
        );
        differ += bad;
    }
    if differ > 0 {
        std::process::exit(1);
    }
}
