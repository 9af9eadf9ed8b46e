//! Times the solves of one movement pair of a database, the game's and the
//! no-removal rule's, each split into its starting cells and its levels, and
//! checks every solved table's counts against its file.
//!
//! ```text
//! cargo run --release --example pair_time -- DB PAIR [game|rule|both]
//! ```
//!
//! DB must hold the pair (for example `7-6`, solved with `6-7`), its rule
//! tables for the database's move limit, and the tables its removals lead
//! into. Prints the loading time of those tables, then per solve its wall time
//! and the time to the end of level 0 (the starting cells, then the first
//! level); exits 1 if any table's counts differ from its file's.

use millbase::build::complete::load_known;
use millbase::index::{Indexer, Subspace};
use millbase::solve::known::Kind;
use millbase::solve::known::Known;
use millbase::solve::solver::{Layer, Progress, Solved, solve_pair_layer};
use millbase::solve::value::Counts;
use millbase::storage::dir::DbDir;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Instant;

/// Notes when the first level was processed.
struct FirstLevel {
    start: Instant,
    at: OnceLock<f64>,
}

impl Progress for FirstLevel {
    fn initialised(&self, _: u64) {}
    fn level(&self, _: u16) {
        self.at.get_or_init(|| self.start.elapsed().as_secs_f64());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: pair_time DB PAIR [game|rule|both]";
    let db = DbDir::open(Path::new(args.get(1).expect(usage))).expect("open the database");
    let sub: Subspace = args
        .get(2)
        .expect(usage)
        .parse()
        .expect("a movement subspace such as 7-6");
    assert!(sub.is_movement(), "{sub} is not a movement subspace");
    let what = args.get(3).map_or("both", String::as_str);
    assert!(["game", "rule", "both"].contains(&what), "{usage}");
    let limit = *db
        .move_limits()
        .first()
        .expect("the database holds no rule tables");
    let ix = Indexer::new();
    let members = sub.with_swap();
    let removals: Vec<Subspace> = members.iter().filter_map(|s| s.after_removal()).collect();
    let start = Instant::now();
    let (mut game_children, mut rule_children, mut game) =
        (Known::new(), Known::new(), Known::new());
    if what != "rule" {
        load_known(&db, &ix, Kind::Game, &removals, &mut game_children)
            .expect("load the game's tables of the removals");
    }
    if what != "game" {
        load_known(&db, &ix, Kind::Rule(limit), &removals, &mut rule_children)
            .expect("load the rule's tables of the removals");
        for &s in &members {
            let table = db.open_table(Kind::Game, s).and_then(|t| t.read_all());
            game.insert(s, table.expect("read the pair's game tables"));
        }
    }
    println!(
        "{sub}: tables loaded in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let mut differ = false;
    let mut run = |name: &str, layer: Layer<'_>, stored: &dyn Fn(Subspace) -> Counts| {
        let progress = FirstLevel {
            start: Instant::now(),
            at: OnceLock::new(),
        };
        let solved: Vec<Solved> =
            solve_pair_layer(&ix, db.variant(), sub, layer, &progress).expect("solve");
        let seconds = progress.start.elapsed().as_secs_f64();
        let first = progress.at.get().copied().unwrap_or(seconds);
        for s in &solved {
            let same = s.counts == stored(s.subspace);
            differ |= !same;
            println!(
                "{sub} {name}: {seconds:.2} s, {first:.2} s to the end of level 0; {}: {} classes, counts {}",
                s.subspace,
                s.counts.classes,
                if same {
                    "equal to the file's"
                } else {
                    "DIFFER from the file's"
                }
            );
        }
    };
    if what != "rule" {
        let stored = |s| {
            db.open_table(Kind::Game, s)
                .expect("open a game file")
                .header
                .counts
        };
        run("game", Layer::game(&game_children), &stored);
    }
    if what != "game" {
        let stored = |s| {
            let t = db
                .open_table(Kind::Rule(limit), s)
                .expect("open a rule file");
            t.header.counts
        };
        run(
            "rule",
            Layer::rule(limit, &rule_children, Some(&game)),
            &stored,
        );
    }
    if differ {
        std::process::exit(1);
    }
}
