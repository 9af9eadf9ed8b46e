//! The reference counts in `data/` (`millbase stats --json` of the complete
//! databases, both rule variants, generated on the project machine): they must be
//! consistent in themselves and with the index, and a fresh small database must
//! reproduce their lines for its subspaces.

mod common;

use common::run;
use millbase::index::{BINOM, Indexer, Subspace};
use millbase::storage::dir::file_name;
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A rule variant and its reference files in `data/`.
#[derive(Clone, Copy)]
enum Variant {
    Flying,
    NoFlying,
}

impl Variant {
    /// The flags that select the variant on the command line.
    fn flags(self) -> &'static [&'static str] {
        match self {
            Variant::Flying => &[],
            Variant::NoFlying => &["--no-flying"],
        }
    }

    /// `millbase stats --json` of the complete database.
    fn stats_file(self) -> &'static str {
        match self {
            Variant::Flying => "stats-flying.jsonl",
            Variant::NoFlying => "stats-no-flying.jsonl",
        }
    }

    /// `millbase stats --rule --json` of the complete database (limit 100).
    fn rule_file(self) -> &'static str {
        match self {
            Variant::Flying => "rule-100-flying.jsonl",
            Variant::NoFlying => "rule-100-no-flying.jsonl",
        }
    }

    /// `millbase checksums` of the complete database.
    fn checksums_file(self) -> &'static str {
        match self {
            Variant::Flying => "checksums-flying.txt",
            Variant::NoFlying => "checksums-no-flying.txt",
        }
    }

    /// A fresh database of the variant's game up to 4 stones a side, game
    /// and rule tables (31 subspaces and sectors), generated once per run of
    /// these tests, under Cargo's directory for test files.
    fn small_db(self) -> &'static Path {
        static FLYING: OnceLock<PathBuf> = OnceLock::new();
        static NO_FLYING: OnceLock<PathBuf> = OnceLock::new();
        let (cell, name) = match self {
            Variant::Flying => (&FLYING, "reference-flying"),
            Variant::NoFlying => (&NO_FLYING, "reference-no-flying"),
        };
        cell.get_or_init(|| {
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
            let _ = std::fs::remove_dir_all(&dir);
            let db = dir.to_str().unwrap();
            let mut args = vec!["generate", "--db", db, "--max-stones", "4", "--quiet"];
            args.extend_from_slice(self.flags());
            let o = run(&args);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            dir
        })
    }

    /// `stats --json` (with `stats_flags`) of [`Variant::small_db`]: its 31
    /// lines.
    fn small_stats(self, stats_flags: &[&str]) -> HashMap<Key, Json> {
        let mut args = vec!["stats", "--db", self.small_db().to_str().unwrap(), "--json"];
        args.extend_from_slice(stats_flags);
        let o = run(&args);
        assert!(o.status.success());
        let fresh = lines(&String::from_utf8(o.stdout).unwrap());
        assert_eq!(
            fresh.len(),
            31,
            "4 movement subspaces, 27 placement sectors"
        );
        fresh
    }
}

const FIELDS: [&str; 9] = [
    "classes",
    "wins",
    "losses",
    "draws",
    "all_wins",
    "all_losses",
    "all_draws",
    "max_win_plies",
    "max_loss_plies",
];

/// A line's sector: stones on the board and in hand of the side to move and of
/// the other side (the hands are 0, or absent, on a movement line).
type Key = (u64, u64, u64, u64);

fn lines(text: &str) -> HashMap<Key, Json> {
    text.lines()
        .map(|l| {
            let v: Json = serde_json::from_str(l).expect("a JSON line");
            let board = |k: &str| v[k].as_u64().expect("stones on the board");
            let hand = |k: &str| v[k].as_u64().unwrap_or(0);
            let key = (
                board("mover"),
                board("opponent"),
                hand("mover_hand"),
                hand("opponent_hand"),
            );
            (key, v)
        })
        .collect()
}

fn key(sub: Subspace) -> Key {
    (
        sub.mover as u64,
        sub.opponent as u64,
        sub.mover_hand as u64,
        sub.opponent_hand as u64,
    )
}

fn reference(file: &str) -> HashMap<Key, Json> {
    let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
    lines(&std::fs::read_to_string(&path).expect("reference file"))
}

fn check(variant: Variant) {
    let file = variant.stats_file();
    let reference = reference(file);
    // all 49 subspaces, and all placement sectors or none; counts add up;
    // classes as the index counts them; every placement of the stones counted
    // once over all images
    let ix = Indexer::new();
    let movement = Subspace::all_movement();
    let placement = Subspace::all_placement();
    let movement_only = reference.len() == movement.len();
    let sectors = if movement_only {
        movement
    } else {
        assert_eq!(
            reference.len(),
            movement.len() + placement.len(),
            "{file}: the 49 movement subspaces, and all placement sectors or none"
        );
        movement.into_iter().chain(placement).collect()
    };
    for sub in sectors {
        let r = &reference[&key(sub)];
        let n = |k: &str| r[k].as_u64().unwrap();
        assert_eq!(n("classes"), ix.classes(sub), "{file} {sub}");
        assert_eq!(n("wins") + n("losses") + n("draws"), n("classes"), "{sub}");
        let (m, o) = (sub.mover as usize, sub.opponent as usize);
        let placements = BINOM[24][m] as u64 * BINOM[24 - m][o] as u64;
        assert_eq!(
            n("all_wins") + n("all_losses") + n("all_draws"),
            placements,
            "{file} {sub}"
        );
        assert_eq!(n("wins") == 0, n("max_win_plies") == 0, "{file} {sub}");
        // (a blocked side loses at 0 plies)
        assert!(n("losses") > 0 || n("max_loss_plies") == 0, "{file} {sub}");
        // the mover wins in an odd number of plies and loses in an even one
        assert!(
            n("wins") == 0 || n("max_win_plies") % 2 == 1,
            "{file} {sub}"
        );
        assert!(n("max_loss_plies") % 2 == 0, "{file} {sub}");
    }

    let fresh = variant.small_stats(&[]);
    compare(file, &reference, &fresh, &FIELDS, movement_only);
}

/// The fresh database's lines equal the reference lines of their subspaces
/// (and sectors, unless the reference file has movement lines only) in
/// `fields`.
fn compare(
    file: &str,
    reference: &HashMap<Key, Json>,
    fresh: &HashMap<Key, Json>,
    fields: &[&str],
    movement_only: bool,
) {
    let mut compared = 0;
    for (key, line) in fresh {
        let Some(reference) = reference.get(key) else {
            assert!(key.2 + key.3 > 0, "{file}: no line for movement {key:?}");
            continue;
        };
        for f in fields {
            assert_eq!(line[f], reference[f], "{file} {key:?} {f}");
        }
        compared += 1;
    }
    assert_eq!(compared, if movement_only { 4 } else { 31 }, "{file}");
}

#[test]
fn flying_reference_counts() {
    check(Variant::Flying);
}

#[test]
fn no_flying_reference_counts() {
    check(Variant::NoFlying);
}

/// The published table of an independent solver (`data/published-flying.tsv`,
/// see `data/README.md`): `(mover, opponent) -> (wins, losses, draws)`.
fn published() -> HashMap<Key, (u64, u64, u64)> {
    let path = format!("{}/data/published-flying.tsv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("published table");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("subspace"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let (m, o) = f[0].split_once('-').unwrap();
            let n = |i: usize| f[i].parse::<u64>().unwrap();
            let (m, o) = (m.parse().unwrap(), o.parse().unwrap());
            ((m, o, 0, 0), (n(1), n(2), n(3)))
        })
        .collect()
}

#[test]
fn flying_counts_equal_the_published_table_of_an_independent_solver() {
    let published = published();
    let ours = reference("stats-flying.jsonl");
    assert_eq!(published.len(), 49);
    for sub in Subspace::all_movement() {
        let k = key(sub);
        let r = &ours[&k];
        let n = |field: &str| r[field].as_u64().unwrap();
        assert_eq!(
            (n("wins"), n("losses"), n("draws")),
            published[&k],
            "{sub}: wins, losses, draws"
        );
    }
}

const RULE_FIELDS: [&str; 14] = [
    "move_limit",
    "classes",
    "wins",
    "cursed_wins",
    "draws",
    "blessed_losses",
    "losses",
    "all_wins",
    "all_cursed_wins",
    "all_draws",
    "all_blessed_losses",
    "all_losses",
    "max_win_dtc",
    "max_loss_dtc",
];

/// The counts under the no-removal rule of `variant` (`millbase stats --rule
/// --json` of a complete database, limit 100): a line for every movement
/// subspace, and for every placement sector or none, each splitting the
/// game's counts (a win of the game is a win or a cursed win under the
/// rule, a loss a loss or a blessed loss); and a fresh database of the game
/// up to 4 stones a side reproduces its lines.
fn check_rule(variant: Variant) {
    let file = variant.rule_file();
    let rule = reference(file);
    let game = reference(variant.stats_file());
    let movement = Subspace::all_movement().len();
    assert!(
        rule.len() == movement || rule.len() == game.len(),
        "{file}: the 49 movement subspaces, and all placement sectors or none"
    );
    for (key, r) in &rule {
        let g = &game[key];
        let n = |k: &str| r[k].as_u64().unwrap();
        let gn = |k: &str| g[k].as_u64().unwrap();
        assert_eq!(n("move_limit"), 100, "{file} {key:?}");
        assert_eq!(n("classes"), gn("classes"), "{file} {key:?}");
        for pre in ["", "all_"] {
            let f = |k: &str| n(&format!("{pre}{k}"));
            let gf = |k: &str| gn(&format!("{pre}{k}"));
            assert_eq!(
                f("wins") + f("cursed_wins"),
                gf("wins"),
                "{file} {key:?} {pre}"
            );
            assert_eq!(
                f("losses") + f("blessed_losses"),
                gf("losses"),
                "{file} {key:?} {pre}"
            );
            assert_eq!(f("draws"), gf("draws"), "{file} {key:?} {pre}");
        }
        // a win under the rule reaches the next removal (by either side) or
        // the end within the limit, after at least one ply; a blocked side
        // loses at 0
        assert_eq!(n("wins") == 0, n("max_win_dtc") == 0, "{file} {key:?}");
        assert!(n("losses") > 0 || n("max_loss_dtc") == 0, "{file} {key:?}");
        assert!(
            n("max_win_dtc").max(n("max_loss_dtc")) <= 100,
            "{file} {key:?}"
        );
    }
    let fresh = variant.small_stats(&["--rule"]);
    compare(file, &rule, &fresh, &RULE_FIELDS, rule.len() == movement);
}

#[test]
fn flying_rule_reference_counts() {
    check_rule(Variant::Flying);
}

#[test]
fn no_flying_rule_reference_counts() {
    check_rule(Variant::NoFlying);
}

/// A checksum list in `data/` (`millbase checksums` of a complete database)
/// names every file of the complete game once, the game's and the no-removal
/// rule's (limit 100), each with a SHA-256; the files of a fresh database of
/// the game up to 4 stones a side are byte-identical to their namesakes (the
/// files are deterministic and do not depend on the size of the game
/// generated).
fn check_checksums(variant: Variant) {
    let file = variant.checksums_file();
    let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("checksum list");
    let mut listed = HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (hex, name) = line.split_once("  ").expect("a line HEX  FILE");
        assert!(
            hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
            "{file}: {line}"
        );
        assert!(listed.insert(name, hex).is_none(), "{file}: {name} twice");
    }
    let subs: Vec<Subspace> = (Subspace::all_movement().into_iter())
        .chain(Subspace::all_placement())
        .collect();
    for sub in &subs {
        let name = file_name(*sub);
        assert!(listed.contains_key(name.as_str()), "{file}: no {name}");
        let rule = format!("no-removal-100/{name}");
        assert!(listed.contains_key(rule.as_str()), "{file}: no {rule}");
    }
    assert_eq!(listed.len(), 2 * subs.len(), "{file}: files of no subspace");

    let o = run(&["checksums", "--db", variant.small_db().to_str().unwrap()]);
    assert!(o.status.success());
    let fresh = String::from_utf8(o.stdout).unwrap();
    for line in fresh.lines() {
        let (hex, name) = line.split_once("  ").unwrap();
        assert_eq!(listed.get(name), Some(&hex), "{file}: {name}");
    }
    // the 31 subspaces and sectors, each with its rule table
    assert_eq!(fresh.lines().count(), 2 * 31, "{fresh}");
}

#[test]
fn flying_checksums() {
    check_checksums(Variant::Flying);
}

#[test]
fn no_flying_checksums() {
    check_checksums(Variant::NoFlying);
}

/// The rows of `data/results/FILE` (tab-separated, one header line) by the
/// named column's values, as (sector key, column -> value).
fn result_rows(file: &str) -> Vec<(Key, HashMap<String, String>)> {
    let path = format!("{}/data/results/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("a results file");
    let mut rows = text.lines();
    let header: Vec<String> = rows.next().unwrap().split('\t').map(String::from).collect();
    rows.map(|l| {
        let cells: Vec<String> = l.split('\t').map(String::from).collect();
        assert_eq!(cells.len(), header.len(), "{file}: {l}");
        let name = &cells[0];
        let sub: Subspace = name.parse().unwrap_or_else(|_| panic!("{file}: {name}"));
        (key(sub), header.iter().cloned().zip(cells).collect())
    })
    .collect()
}

/// The per-subspace and per-sector tables of docs/RESULTS.md
/// (`data/results/`) hold the reference counts, every row and every table.
#[test]
fn the_results_tables_hold_the_reference_counts() {
    let n = |v: &Json, k: &str| v[k].as_u64().unwrap().to_string();
    for (file, stats, rows_wanted) in [
        ("movement-flying.tsv", "stats-flying.jsonl", 49),
        ("movement-no-flying.tsv", "stats-no-flying.jsonl", 49),
        ("placement-flying.tsv", "stats-flying.jsonl", 497),
    ] {
        let reference = reference(stats);
        let rows = result_rows(file);
        assert_eq!(rows.len(), rows_wanted, "{file}");
        for (key, row) in rows {
            let want = &reference[&key];
            for field in ["classes", "wins", "draws", "losses"] {
                assert_eq!(row[field], n(want, field), "{file} {key:?} {field}");
            }
        }
    }
    let rule = reference("rule-100-flying.jsonl");
    for (file, rows_wanted) in [
        ("rule-movement-flying.tsv", 49),
        ("rule-placement-flying.tsv", 497),
    ] {
        let rows = result_rows(file);
        assert_eq!(rows.len(), rows_wanted, "{file}");
        for (key, row) in rows {
            let want = &rule[&key];
            assert_eq!(row["cursed wins"], n(want, "cursed_wins"), "{file} {key:?}");
            assert_eq!(
                row["blessed losses"],
                n(want, "blessed_losses"),
                "{file} {key:?}"
            );
        }
    }
}
