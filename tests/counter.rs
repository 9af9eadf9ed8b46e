//! The no-removal rule against an independent brute force: every position of
//! the game with 3 stones a side at every counter of move limit 100, and of
//! the game with 4 stones a side at every counter of move limit 20,
//! placement and movement, in both variants. The brute force walks explicit
//! (position, counter) states with the naive rules' moves; the engine stores
//! one distance per position, from its own solvers. With the 4-stone
//! databases the perfect player under the rule plays itself.

mod brute;
mod common;
mod damage;
mod naive;

use brute::rule::counter_outcomes;
use brute::{DRAWN, LOST, WON};
use millbase::Variant;
use millbase::build::complete::read_complete;
use millbase::index::plan::Limits;
use millbase::index::{Indexer, Subspace};
use millbase::solve::counter::Category;
use millbase::solve::known::Kind;
use millbase::solve::value::Value;
use millbase::storage::Speed;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Stones on board and in hand of the side to move and of the other, as
/// `stats --json` names a subspace or sector.
type Sector = (u64, u64, u64, u64);

/// Checks `Database::line_at` from `pos` at `counter` (`line --counter`)
/// against the brute force's `outcome` there and the naive rules: every move
/// legal, the counter counting on (0 after a removal), and the line as its
/// outcome says: a win or loss runs to the end of the game, won by the side
/// it says, never reaching the limit, its first removal (or its end) at the
/// distance the start shows; a draw stops at the limit or the plies asked
/// for, the game not over.
fn check_line(
    db: &millbase::answer::query::Database,
    pos: &millbase::Position,
    counter: u16,
    limit: u16,
    variant: Variant,
    outcome: brute::Outcome,
) {
    const MAX_DRAW_PLIES: usize = 30;
    let line = db.line_at(pos, counter, MAX_DRAW_PLIES).unwrap();
    let start = line.rule.unwrap();
    assert_eq!(start.counter, counter);
    let (mut p, mut c) = (*pos, counter);
    let mut first_removal = None;
    for (k, step) in line.steps.iter().enumerate() {
        assert_eq!(
            step.rule.unwrap().counter,
            c,
            "{pos} at {counter}: {}",
            step.mv
        );
        let next = naive::Naive::successors(&p, variant.flies())
            .into_iter()
            .find(|(_, q)| *q == step.position);
        let Some((removal, q)) = next else {
            panic!("{pos} at {counter}: {} from {p} is not legal", step.mv);
        };
        if removal && first_removal.is_none() {
            first_removal = Some(k as u16 + 1);
        }
        c = if removal { 0 } else { c + 1 };
        assert!(
            c < limit || k + 1 == line.steps.len(),
            "{pos} at {counter}: past the limit"
        );
        p = q;
    }
    let n = naive::Naive::from_position(&p, variant.flies());
    let over = naive::Naive::successors(&p, variant.flies()).is_empty() || n.total(n.turn) < 3;
    let plies = line.steps.len() as u16;
    match outcome {
        WON | LOST => {
            assert!(
                over,
                "{pos} at {counter}: a decided line ends with the game"
            );
            assert!(
                c < limit,
                "{pos} at {counter}: a decided line ends before the limit"
            );
            // its distance is the plies to the first removal, or to the end
            assert_eq!(
                first_removal.or(Some(plies)),
                start.dtc,
                "{pos} at {counter}"
            );
            // the side to move at the end has lost: the winner moved last
            assert_eq!(plies % 2 == 1, outcome == WON, "{pos} at {counter}");
        }
        _ => {
            assert!(
                !over,
                "{pos} at {counter}: a drawn line ends in a finished game"
            );
            assert!(
                c == limit || line.steps.len() == MAX_DRAW_PLIES,
                "{pos} at {counter}: a drawn line stops after {plies} plies at counter {c}"
            );
        }
    }
}

fn check(variant: Variant, n: u8, limit: u16) {
    let ix = Indexer::new();
    let limits = Limits {
        max_stones: n,
        max_total: 2 * n,
        placement: true,
        move_limit: Some(limit),
    };
    let dir = tempfile::tempdir().unwrap();
    millbase::build::generate::generate(
        dir.path(),
        variant,
        limits,
        &ix,
        &millbase::build::generate::Silent,
    )
    .unwrap();
    let db = millbase::answer::query::Database::open(dir.path()).unwrap();
    let (checked, answered) = (AtomicU64::new(0), AtomicU64::new(0));
    let by_category: Mutex<[u64; 5]> = Mutex::new([0; 5]);
    let by_sector: Mutex<HashMap<Sector, [u64; 5]>> = Mutex::new(HashMap::new());
    let bad: Mutex<Vec<String>> = Mutex::new(vec![]);
    counter_outcomes(variant, n, limit, &|pos, images, outcomes| {
        let plain = db.probe(pos).unwrap();
        let d = db.probe_distance(pos, limit).unwrap();
        for (c, &outcome) in (0..limit).zip(outcomes) {
            let cat = Category::of(plain, d, limit, c);
            let want = match cat {
                Category::Win => WON,
                Category::Loss => LOST,
                _ => DRAWN,
            };
            checked.fetch_add(u64::from(images), Relaxed);
            if want != outcome {
                let mut b = bad.lock().unwrap();
                if b.len() < 5 {
                    b.push(format!(
                        "{pos} at counter {c}: brute force {outcome}, engine {cat:?} ({d:?})"
                    ));
                }
            }
            if c == 0 {
                by_category.lock().unwrap()[cat as usize] += u64::from(images);
                // the brute force's outcome, split by the plain value
                let own = match (outcome, plain) {
                    (WON, _) => Category::Win,
                    (LOST, _) => Category::Loss,
                    (_, Value::Win(_)) => Category::CursedWin,
                    (_, Value::Loss(_)) => Category::BlessedLoss,
                    _ => Category::Draw,
                };
                let key = (
                    pos.mover.count_ones() as u64,
                    pos.opponent.count_ones() as u64,
                    u64::from(pos.mover_hand),
                    u64::from(pos.opponent_hand),
                );
                by_sector.lock().unwrap().entry(key).or_default()[own as usize] +=
                    u64::from(images);
            }
            // one state in about 2,000: the answer of the query API at this counter
            let h = ((pos.mover as u64 * 0x9E37_79B9)
                ^ (pos.opponent as u64 * 0x85EB_CA6B)
                ^ (u64::from(pos.mover_hand) << 40)
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
                        _ => child.is_draw(),
                    };
                    assert!(
                        kept,
                        "{pos} at {c}: {cat:?}, best move {} to {child:?}",
                        best.mv
                    );
                }
                check_line(&db, pos, c, limit, variant, outcome);
                answered.fetch_add(1, Relaxed);
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
        assert!(counts[1] > 0 && counts[3] > 0, "at counter 0: {counts:?}");
    }
    // `stats --rule --json` counts every position's category at counter 0 as
    // the brute force does
    let by_sector = by_sector.into_inner().unwrap();
    let db_dir = dir.path().to_str().unwrap();
    let o = common::run(&["stats", "--db", db_dir, "--rule", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), by_sector.len());
    for r in &rows {
        let n = |k: &str| r[k].as_u64().unwrap();
        let key = (
            n("mover"),
            n("opponent"),
            n("mover_hand"),
            n("opponent_hand"),
        );
        let fields = [
            "all_wins",
            "all_cursed_wins",
            "all_draws",
            "all_blessed_losses",
            "all_losses",
        ];
        let stats: Vec<u64> = fields.iter().map(|f| n(f)).collect();
        assert_eq!(stats, by_sector[&key], "{key:?}: {fields:?}");
        assert_eq!(n("move_limit"), u64::from(limit));
    }
    if n == 4 {
        perfect_player(&db, limit);
    }
}

#[test]
fn three_stones_flying_limit_100() {
    check(Variant::nine(true), 3, 100);
}

#[test]
fn three_stones_no_flying_limit_100() {
    check(Variant::nine(false), 3, 100);
}

#[test]
fn four_stones_flying_limit_20() {
    check(Variant::nine(true), 4, 20);
}

#[test]
fn four_stones_no_flying_limit_20() {
    check(Variant::nine(false), 4, 20);
}

#[test]
fn distance_tables_round_trip_through_files() {
    use millbase::solve::value::Value;
    use millbase::storage::{self, Encoding, Table};
    const CODED: Encoding = Encoding::DistanceCode;
    let ix = Indexer::new();
    let limits = Limits {
        max_stones: 3,
        max_total: 6,
        placement: true,
        move_limit: None,
    };
    let variant = Variant::default();
    let (game, distances) =
        millbase::build::generate::solve_in_memory(&ix, variant, limits, 20).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (sub, cells) in &distances {
        let path = dir.path().join(millbase::storage::dir::file_name(*sub));
        let counts = millbase::solve::known::count_values(&ix, *sub, cells);
        let tables = (&cells[..], &game[sub][..]);
        millbase::storage::write_table(
            &path,
            variant,
            *sub,
            (tables.0, Some(tables.1)),
            counts,
            CODED,
            Speed::Small,
        )
        .unwrap();
        let t = Table::open(&path, variant, *sub).unwrap();
        assert_eq!(t.header.encoding, CODED);
        assert!(t.read_along(&game[sub]).unwrap() == *cells, "{sub}");
        // it decodes along the game's table only
        assert!(t.read_all().is_err());
        // a work file, compressed faster, holds the same distances, and the
        // earlier layouts, with their own win/draw/loss or with uncoded
        // distances, read the same
        let along = Some(tables.1);
        for (name, with, encoding, speed) in [
            ("work.mdb", along, Encoding::DistanceCode, Speed::Fast),
            ("old.mdb", None, Encoding::WdlDistance, Speed::Small),
            ("old.mdb", along, Encoding::Distance, Speed::Small),
        ] {
            let path = dir.path().join(name);
            let at = (&path, variant, *sub);
            storage::write_table(at.0, at.1, at.2, (cells, with), counts, encoding, speed).unwrap();
            let t = Table::open(&path, variant, *sub).unwrap();
            assert_eq!(t.header.encoding, encoding, "{sub}");
            assert!(
                t.read_along(&game[sub]).unwrap() == *cells,
                "{sub} {encoding:?}"
            );
        }
    }
    // a loser whose every move removes a stone, each into a position the
    // opponent wins, converts at once (a loss at distance 1, a win at 2
    // before it): distances of any parity round-trip, up to the largest limit
    let sub = Subspace::movement(3, 3);
    let mut cells = distances[&sub].clone();
    let max = millbase::rules::variant::MAX_MOVE_LIMIT;
    let (wins, losses) = (
        [Value::Win(2), Value::Win(max)],
        [Value::Loss(1), Value::Loss(max - 1)],
    );
    let of_kind = |win: bool| {
        let cells = &cells;
        (0..cells.len())
            .filter(move |&i| match cells[i].value() {
                Some(Value::Win(_)) => win,
                Some(Value::Loss(_)) => !win,
                _ => false,
            })
            .take(2)
            .collect::<Vec<usize>>()
    };
    let (won, lost) = (of_kind(true), of_kind(false));
    assert_eq!((won.len(), lost.len()), (2, 2));
    for (i, v) in won
        .into_iter()
        .zip(wins)
        .chain(lost.into_iter().zip(losses))
    {
        cells[i] = millbase::solve::value::Cell::from_value(v);
    }
    let path = dir.path().join("synthetic.mdb");
    let counts = millbase::solve::known::count_values(&ix, sub, &cells);
    for encoding in [CODED, Encoding::Distance] {
        let tables = (&cells[..], &game[&sub][..]);
        millbase::storage::write_table(
            &path,
            variant,
            sub,
            (tables.0, Some(tables.1)),
            counts,
            encoding,
            Speed::Small,
        )
        .unwrap();
        let t = Table::open(&path, variant, sub).unwrap();
        assert!(t.read_along(&game[&sub]).unwrap() == cells, "{encoding:?}");
    }
    // a rule's win where the game loses is refused
    let lost = (0..cells.len())
        .find(|&i| matches!(game[&sub][i].value(), Some(Value::Loss(_))))
        .unwrap();
    cells[lost] = millbase::solve::value::Cell::from_value(Value::Win(3));
    let tables = (&cells[..], &game[&sub][..]);
    assert!(
        millbase::storage::write_table(
            &path,
            variant,
            sub,
            (tables.0, Some(tables.1)),
            counts,
            CODED,
            Speed::Small
        )
        .is_err()
    );
    // every single-byte change of a distance file is found
    let sub = Subspace::movement(3, 3);
    let path = dir.path().join(millbase::storage::dir::file_name(sub));
    let bytes = std::fs::read(&path).unwrap();
    let missed = damage::undetected_in_memory(&bytes, damage::every_flip(bytes.len(), 0x21), |b| {
        Table::from_bytes(&path, b, variant, sub)
            .and_then(|t| t.read_along(&game[&sub]))
            .is_ok()
    });
    assert!(missed.is_empty(), "changes went unnoticed: {missed:?}");
}

/// Every distance of a win or loss round-trips through its byte of
/// encoding 7, the usual parity (odd for a win, even for a loss) below 128;
/// no two distances share a byte, none takes the draw's, and every byte that
/// decodes codes back.
#[test]
fn distance_codes_round_trip() {
    use millbase::rules::variant::MAX_MOVE_LIMIT;
    use millbase::storage::codec::distance::{
        DRAW as RULE_DRAW, code as distance_code, distance_of as distance_of_code,
    };
    for win in [true, false] {
        let mut seen = std::collections::HashSet::new();
        for d in 0..=MAX_MOVE_LIMIT {
            let Some(c) = distance_code(d, win) else {
                assert!(win && d == 0, "{d} {win}");
                continue;
            };
            assert_ne!(c, RULE_DRAW);
            assert!(seen.insert(c), "{d} {win}");
            assert_eq!(distance_of_code(c, win), Some(d));
            assert_eq!(c < 128, (d % 2 == 1) == win, "{d} {win}");
        }
        assert_eq!(distance_code(MAX_MOVE_LIMIT + 1, win), None);
        for c in 0..=u8::MAX {
            if let Some(d) = distance_of_code(c, win) {
                assert_eq!(distance_code(d, win), Some(c), "{c} {win}");
            }
        }
        assert_eq!(seen.len(), if win { 254 } else { 255 });
    }
}

/// The 3-stone game with the tables of move limit 20.
const THREE_STONES_LIMIT_20: Limits = Limits {
    max_stones: 3,
    max_total: 6,
    placement: true,
    move_limit: Some(20),
};

/// A database of the 3-stone game of `rules` with the tables of move limit 20,
/// made by `generate`.
fn three_stones_limit_20(variant: Variant) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let (ix, limits) = (Indexer::new(), THREE_STONES_LIMIT_20);
    millbase::build::generate::generate(
        dir.path(),
        variant,
        limits,
        &ix,
        &millbase::build::generate::Silent,
    )
    .unwrap();
    dir
}

#[test]
fn generate_writes_the_distance_tables_and_rebuilds_a_damaged_one() {
    use millbase::build::generate::{Silent, generate};
    use millbase::storage::dir::DbDir;
    let ix = Indexer::new();
    let variant = Variant::nine(false);
    let limits = THREE_STONES_LIMIT_20;
    let dir = three_stones_limit_20(variant);
    let (_, want) = millbase::build::generate::solve_in_memory(&ix, variant, limits, 20).unwrap();
    let db = DbDir::open(dir.path()).unwrap();
    assert_eq!(db.move_limits(), [20]);
    let present = db.present();
    assert_eq!(present.len(), want.len());
    let mut counts_only = vec![];
    for &sub in &present {
        // where the file stores counts only, by one ply from the children
        let t = db.open_table(Kind::Rule(20), sub).unwrap();
        let stored = t.header.encoding == millbase::storage::Encoding::DistanceCode;
        assert_eq!(stored, millbase::storage::dir::stores_plies(sub), "{sub}");
        if !stored {
            counts_only.push(sub);
            let counts = millbase::solve::known::count_values(&ix, sub, &want[&sub]);
            assert_eq!(t.header.counts, counts, "{sub}");
        }
        let cells = read_complete(&db, &ix, Kind::Rule(20), sub).unwrap();
        assert!(cells == want[&sub], "{sub}");
    }
    assert!(counts_only.len() >= 3, "{counts_only:?}");
    // the work files are gone
    let work = db
        .dir_of(Kind::Rule(20))
        .join(millbase::storage::dir::WORK_DIR);
    assert!(std::fs::read_dir(&work).map_or(true, |mut d| d.next().is_none()));
    // a damaged rule table is built again, to the same bytes
    let path = db
        .dir_of(Kind::Rule(20))
        .join(millbase::storage::dir::file_name(present[0]));
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let n = bad.len();
    bad[n - 5] ^= 4;
    std::fs::write(&path, &bad).unwrap();
    let reports = generate(dir.path(), variant, limits, &ix, &Silent).unwrap();
    let rebuilt: Vec<_> = reports.iter().filter(|r| !r.skipped).collect();
    assert_eq!(rebuilt.len(), 1);
    assert_eq!(rebuilt[0].move_limit, Some(20));
    assert_eq!(std::fs::read(&path).unwrap(), good);
    // a table in the first layout (its own win/draw/loss) is read the same,
    // kept by generate, and rewritten by upgrade; so are those below
    let sub = present[1];
    let path = db
        .dir_of(Kind::Rule(20))
        .join(millbase::storage::dir::file_name(sub));
    let new_layout = std::fs::read(&path).unwrap();
    let counts = db.open_table(Kind::Rule(20), sub).unwrap().header.counts;
    let enc = millbase::storage::Encoding::WdlDistance;
    millbase::storage::write_table(
        &path,
        variant,
        sub,
        (&want[&sub], None),
        counts,
        enc,
        Speed::Small,
    )
    .unwrap();
    assert!(read_complete(&db, &ix, Kind::Rule(20), sub).unwrap() == want[&sub]);
    // `s`'s rule table rewritten in the distance encoding `encoding` reads
    // the same: its path and the bytes generate wrote there
    let rewrite = |s: Subspace, encoding| {
        let path = db
            .dir_of(Kind::Rule(20))
            .join(millbase::storage::dir::file_name(s));
        let bytes = std::fs::read(&path).unwrap();
        let game = db.read_outcomes(s).unwrap();
        let counts = db.open_table(Kind::Rule(20), s).unwrap().header.counts;
        let tables = (&want[&s][..], &game[..]);
        millbase::storage::write_table(
            &path,
            variant,
            s,
            (tables.0, Some(tables.1)),
            counts,
            encoding,
            Speed::Small,
        )
        .unwrap();
        assert!(
            read_complete(&db, &ix, Kind::Rule(20), s).unwrap() == want[&s],
            "{s}"
        );
        (path, bytes)
    };
    // and one that stores the distances of a table that now stores counts only
    let other = counts_only[counts_only.len() / 2];
    let (other_path, other_new) = rewrite(other, millbase::storage::Encoding::DistanceCode);
    // and one with uncoded distances (encoding 5)
    let third = *(present.iter())
        .find(|&&s| s != present[0] && s != sub && millbase::storage::dir::stores_plies(s))
        .unwrap();
    let (third_path, third_new) = rewrite(third, millbase::storage::Encoding::Distance);
    let reports = generate(dir.path(), variant, limits, &ix, &Silent).unwrap();
    assert!(reports.iter().all(|r| r.skipped));
    let mut upgraded: Vec<_> = millbase::build::generate::upgrade(dir.path(), &mut |_| {})
        .unwrap()
        .into_iter()
        .map(|u| (u.subspace, u.move_limit))
        .collect();
    upgraded.sort();
    let mut expected = vec![(sub, Some(20)), (other, Some(20)), (third, Some(20))];
    expected.sort();
    assert_eq!(upgraded, expected);
    assert_eq!(std::fs::read(&path).unwrap(), new_layout);
    assert_eq!(std::fs::read(&other_path).unwrap(), other_new);
    assert_eq!(std::fs::read(&third_path).unwrap(), third_new);
}

/// The outcome of a game under the no-removal rule as the naive rules judge
/// it, for the side to move at its start.
#[derive(Debug, PartialEq, Eq)]
enum Played {
    Won,
    Drawn,
    Lost,
}

/// Plays `pos` from `counter` to the end with [`Database::best_move_at`] on
/// both sides, refereed by the naive rules: each move must be one of the
/// naive successors (whose removal flag resets the counter), a side without
/// a move or with fewer than 3 stones has lost, and the counter reaching
/// `limit` without that draws.
fn self_play(
    db: &millbase::answer::query::Database,
    pos: millbase::rules::position::Position,
    counter: u16,
    limit: u16,
) -> Played {
    let flying = db.variant().flies();
    let (mut pos, mut c) = (pos, counter);
    let mut plies = 0;
    loop {
        let successors = naive::Naive::successors(&pos, flying);
        if pos.mover_total() < 3 || successors.is_empty() {
            return if plies % 2 == 0 {
                Played::Lost
            } else {
                Played::Won
            };
        }
        if c >= limit {
            return Played::Drawn;
        }
        let best = db.best_move_at(&pos, c).unwrap().expect("a legal move");
        let removed = successors
            .iter()
            .find(|(_, child)| *child == best.position)
            .map(|(removed, _)| *removed)
            .unwrap_or_else(|| panic!("{pos}: {} is not a legal move", best.mv));
        c = if removed { 0 } else { c + 1 };
        pos = best.position;
        plies += 1;
        assert!(plies < 1_000, "the game does not end");
    }
}

/// The perfect player under the rule, database against database from random
/// positions of random games of the 4-stone game at random counters: every
/// win under the rule is won inside the rule, and every cursed win ends in a
/// draw.
fn perfect_player(db: &millbase::answer::query::Database, limit: u16) {
    use millbase::rules::position::Position;
    let variant = db.variant();
    let mut rng = StdRng::seed_from_u64(u64::from(variant.flies()));
    let mut next = move |n: usize| rng.random_range(0..n);
    let start: Position = "........................ w 4 4".parse().unwrap();
    let (mut wins, mut cursed, mut games) = (0, 0, 0);
    while wins < 1_000 || cursed < 100 {
        games += 1;
        assert!(games < 200_000, "{wins} wins, {cursed} cursed wins");
        // a random game, stopped at a random ply
        let mut pos = start;
        for _ in 0..next(40) {
            let kids = naive::Naive::successors(&pos, variant.flies());
            if pos.mover_total() < 3 || kids.is_empty() {
                break;
            }
            pos = kids[next(kids.len())].1;
        }
        if pos.mover_total() < 3 || naive::Naive::successors(&pos, variant.flies()).is_empty() {
            continue;
        }
        // a random counter, or every other time the largest at which a win
        // still fits (where a slow conversion trips the rule)
        let c = match db.answer_at(&pos, 0).unwrap().rule.unwrap() {
            r if r.category == Category::Win && next(2) == 0 => limit - r.dtc.unwrap(),
            _ => next(limit as usize) as u16,
        };
        let category = db.answer_at(&pos, c).unwrap().rule.unwrap().category;
        match category {
            Category::Win => {
                assert_eq!(self_play(db, pos, c, limit), Played::Won, "{pos} at {c}");
                wins += 1;
            }
            Category::CursedWin => {
                assert_eq!(self_play(db, pos, c, limit), Played::Drawn, "{pos} at {c}");
                cursed += 1;
            }
            _ => {}
        }
    }
}

/// The rule pass settles the game's draws without solving them and stops
/// its levels at the limit; a pass without the seed (every position solved)
/// must give the same distances. On the 5-stone flying game up to 9 stones
/// in all (5-4, 4-5 and their placement sectors) at limit 12, where many wins
/// are cursed, beyond the brute force's reach.
#[test]
fn seeding_with_the_games_draws_changes_no_distance() {
    use millbase::build::generate::{solve_in_memory, solve_unit};
    use millbase::index::plan::{placement_plan, plan};
    use millbase::solve::known::Known;
    use millbase::solve::solver::{Layer, NoProgress};
    let ix = Indexer::new();
    let variant = Variant::default();
    let limits = Limits {
        max_stones: 5,
        max_total: 9,
        placement: true,
        move_limit: None,
    };
    let limit = 12;
    let (game, seeded) = solve_in_memory(&ix, variant, limits, limit).unwrap();
    let mut plain = Known::new();
    let (mut cursed, mut draws) = (0, 0);
    for rep in plan(limits).into_iter().chain(placement_plan(limits)) {
        let layer = Layer::rule(limit, &plain, None);
        for s in solve_unit(&ix, variant, rep, layer, &NoProgress).unwrap() {
            let sub = s.subspace;
            assert!(s.cells == seeded[&sub], "{sub}");
            for (g, d) in game[&sub].iter().zip(&s.cells) {
                match (g.value(), d.value()) {
                    (Some(Value::Win(_) | Value::Loss(_)), Some(Value::Draw)) => cursed += 1,
                    (Some(Value::Draw), _) => draws += 1,
                    _ => {}
                }
            }
            plain.insert(sub, s.cells);
        }
    }
    // both kinds of position the seeding and the cut touch are there
    assert!(cursed > 1000 && draws > 1000, "{cursed} cut, {draws} draws");
}

#[test]
fn every_byte_flip_and_truncation_of_a_counts_only_table_is_detected() {
    use millbase::storage::dir::{DbDir, file_name};
    use millbase::storage::{Encoding, Table};
    let variant = Variant::default();
    let dir = three_stones_limit_20(variant);
    let db = DbDir::open(dir.path()).unwrap();
    let sub = (db.present().into_iter())
        .find(|&s| !millbase::storage::dir::stores_plies(s))
        .unwrap();
    let t = db.open_table(Kind::Rule(20), sub).unwrap();
    assert_eq!(t.header.encoding, Encoding::CountsOnly);
    // it has no blocks to read: an error, never a value
    assert!(t.block(0).is_err() && t.read_along(&db.read_outcomes(sub).unwrap()).is_err());
    let bytes = std::fs::read(db.dir_of(Kind::Rule(20)).join(file_name(sub))).unwrap();
    let path = db.dir_of(Kind::Rule(20)).join(file_name(sub));
    let opens = |b: Vec<u8>| Table::from_bytes(&path, b, variant, sub).is_ok();
    assert!(opens(bytes.clone()));
    let mut damages = damage::every_flip(bytes.len(), 0x10);
    damages.extend(damage::every_truncation(bytes.len()));
    let missed = damage::undetected_in_memory(&bytes, damages, opens);
    assert!(missed.is_empty(), "changes went unnoticed: {missed:?}");
}
