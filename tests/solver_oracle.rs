//! The solver against an independent brute-force solver: plain iteration over all
//! placements of the stones (no symmetry, no index of the engine), forward moves
//! only, one sweep per ply level. Every position of every subspace with at most 4
//! stones a side is compared, value and plies, for both rule variants; the
//! database is then checked by `verify`.

use millbase::index::Indexer;
use millbase::moves::{self, Rules};
use millbase::position::{Color, Position};
use millbase::query::Database;
use millbase::value::Value;
use rayon::prelude::*;
use std::process::Command;

const UNKNOWN: i16 = -1;

/// Binomial coefficients by Pascal's triangle.
fn binom_table() -> [[u64; 25]; 25] {
    let mut t = [[0u64; 25]; 25];
    for n in 0..25 {
        t[n][0] = 1;
        for k in 1..=n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
        }
    }
    t
}

fn binom(n: u32, k: u32) -> u64 {
    binom_table()[n as usize][k as usize]
}

/// All `k`-subsets of the 24 points, by plain recursion, in increasing order.
fn all_sets(k: u32) -> Vec<u32> {
    fn rec(start: u32, k: u32, acc: u32, out: &mut Vec<u32>) {
        if k == 0 {
            out.push(acc);
            return;
        }
        for p in start..24 {
            rec(p + 1, k - 1, acc | (1 << p), out);
        }
    }
    let mut v = vec![];
    rec(0, k, 0, &mut v);
    v.sort();
    v
}

/// Plies to the end (odd: win, even: loss), or UNKNOWN (a draw once done), for
/// every (mover set, opponent set) of sizes (w, b), overlapping pairs included:
/// `tables[w][b][rank(mover) * C(24, b) + rank(opponent)]`.
struct Brute {
    rules: Rules,
    binom: [[u64; 25]; 25],
    tables: Vec<Vec<Vec<i16>>>,
}

impl Brute {
    fn new(rules: Rules) -> Brute {
        Brute {
            rules,
            binom: binom_table(),
            tables: vec![vec![vec![]; 10]; 10],
        }
    }

    /// Rank of a set among all sets of its size (colex).
    fn rank(&self, set: u32) -> u64 {
        let mut r = 0;
        let mut rest = set;
        let mut i = 0;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i += 1;
            r += self.binom[p][i];
        }
        r
    }

    fn slot(&self, mover: u32, opp: u32) -> usize {
        (self.rank(mover) * self.binom[24][opp.count_ones() as usize] + self.rank(opp)) as usize
    }

    /// Plies of a position as known before sweep `level`; None if not known yet.
    fn known(&self, pos: &Position, level: i16) -> Option<i16> {
        if pos.mover_total() < 3 {
            return Some(0);
        }
        let (w, b) = (
            pos.mover.count_ones() as usize,
            pos.opponent.count_ones() as usize,
        );
        let v = self.tables[w][b][self.slot(pos.mover, pos.opponent)];
        (v != UNKNOWN && v < level).then_some(v)
    }

    /// Whether position `(m, o)` is decided at exactly `level`, judged only by the
    /// values of its children (forward moves) known before that level.
    fn decided_at(&self, m: u32, o: u32, level: i16) -> bool {
        let pos = Position {
            mover: m,
            opponent: o,
            mover_hand: 0,
            opponent_hand: 0,
            side: Color::White,
        };
        let mut all_won = true;
        for mv in moves::legal_moves(&pos, self.rules) {
            match self.known(&moves::apply(&pos, mv), level) {
                Some(p) if p % 2 == 0 && p + 1 == level => return true,
                Some(p) if p % 2 == 1 => {}
                _ => all_won = false,
            }
        }
        // all children won, the slowest at level - 1 (else decided before)
        all_won && level % 2 == 0
    }

    /// Solves the subspaces of `group` (which lead only into each other and into
    /// groups solved before), level by level. A position can be decided at level
    /// `L` only if a child has plies `L - 1`: a child in an earlier group (found by
    /// one pass over all positions) or one decided at `L - 1` in this group. For the
    /// latter, every position that differs from it by one stone of the side that
    /// just moved is a candidate (a superset of its predecessors). Candidates are
    /// judged by their own forward moves only, so extra ones do no harm.
    fn solve_group(&mut self, group: &[(u32, u32)]) {
        let mut events: Vec<Vec<(u32, u32)>> = vec![vec![]; 1];
        let push_event = |events: &mut Vec<Vec<(u32, u32)>>, level: usize, p: (u32, u32)| {
            if events.len() <= level {
                events.resize(level + 1, vec![]);
            }
            events[level].push(p);
        };
        for &(w, b) in group {
            self.tables[w as usize][b as usize] =
                vec![UNKNOWN; (binom(24, w) * binom(24, b)) as usize];
        }
        for &(w, b) in group {
            let movers = all_sets(w);
            let found: Vec<Vec<(usize, (u32, u32))>> = all_sets(b)
                .par_iter()
                .map(|&o| {
                    let mut ev = vec![];
                    for &m in movers.iter().filter(|&&m| m & o == 0) {
                        let pos = Position {
                            mover: m,
                            opponent: o,
                            mover_hand: 0,
                            opponent_hand: 0,
                            side: Color::White,
                        };
                        let list = moves::legal_moves(&pos, self.rules);
                        if list.is_empty() {
                            ev.push((0, (m, o)));
                        }
                        for mv in list.into_iter().filter(|mv| mv.remove.is_some()) {
                            // earlier groups are final: unknown there is a draw, which decides nothing
                            if let Some(p) = self.known(&moves::apply(&pos, mv), i16::MAX) {
                                ev.push((p as usize + 1, (m, o)));
                            }
                        }
                    }
                    ev
                })
                .collect();
            for (level, p) in found.into_iter().flatten() {
                push_event(&mut events, level, p);
            }
        }
        let mut frontier: Vec<(u32, u32)> = vec![];
        let mut level: usize = 0;
        while level < events.len() || !frontier.is_empty() {
            let mut cands: Vec<(u32, u32)> = events.get(level).cloned().unwrap_or_default();
            for &(cm, co) in &frontier {
                let empty = 0xFF_FFFF & !(cm | co);
                for y in (0..24).filter(|y| co & (1 << y) != 0) {
                    for x in (0..24).filter(|x| empty & (1 << x) != 0) {
                        cands.push((co & !(1 << y) | (1 << x), cm));
                    }
                }
            }
            cands.sort_unstable();
            cands.dedup();
            let lv = level as i16;
            let decided: Vec<(u32, u32)> = cands
                .into_par_iter()
                .filter(|&(m, o)| {
                    let (w, b) = (m.count_ones(), o.count_ones());
                    group.contains(&(w, b))
                        && self.tables[w as usize][b as usize][self.slot(m, o)] == UNKNOWN
                        && self.decided_at(m, o, lv)
                })
                .collect();
            for &(m, o) in &decided {
                let slot = self.slot(m, o);
                self.tables[m.count_ones() as usize][o.count_ones() as usize][slot] = lv;
            }
            frontier = decided;
            level += 1;
        }
    }

    fn value(&self, mover: u32, opp: u32) -> Value {
        let (w, b) = (mover.count_ones() as usize, opp.count_ones() as usize);
        match self.tables[w][b][self.slot(mover, opp)] {
            UNKNOWN => Value::Draw,
            p if p % 2 == 1 => Value::Win(p as u16),
            p => Value::Loss(p as u16),
        }
    }
}

fn check_variant(rules: Rules) {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec![
        "generate",
        "--db",
        dir.path().to_str().unwrap(),
        "--max-stones",
        "4",
        "--quiet",
    ];
    if !rules.flying {
        args.push("--no-flying");
    }
    let st = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(&args)
        .status()
        .unwrap();
    assert!(st.success());

    let mut brute = Brute::new(rules);
    for group in [vec![(3, 3)], vec![(3, 4), (4, 3)], vec![(4, 4)]] {
        brute.solve_group(&group);
    }

    let ix = Indexer::new();
    let mut compared = 0u64;
    for (w, b) in [(3u32, 3u32), (3, 4), (4, 3), (4, 4)] {
        let sub = millbase::index::Subspace::movement(w as u8, b as u8);
        let table = millbase::generate::open_table(dir.path(), rules, sub)
            .unwrap()
            .read_all()
            .unwrap();
        let opps = all_sets(b);
        let mismatches: Vec<String> = all_sets(w)
            .par_iter()
            .flat_map_iter(|&m| {
                let table = &table;
                let ix = &ix;
                let brute = &brute;
                opps.iter()
                    .filter(move |&&o| o & m == 0)
                    .filter_map(move |&o| {
                        let stored = table[ix.rank(m, o) as usize].value();
                        let want = brute.value(m, o);
                        (stored != Some(want)).then(|| {
                            format!(
                                "{sub} {m:024b}/{o:024b}: stored {stored:?}, brute force {want:?}"
                            )
                        })
                    })
            })
            .collect();
        assert!(
            mismatches.is_empty(),
            "{} mismatches, first: {:?}",
            mismatches.len(),
            &mismatches[..mismatches.len().min(5)]
        );
        compared += binom(24, w) * binom(24 - w, b);
    }
    assert_eq!(compared, 2 * 2024 * 5985 + 2024 * 1330 + 10626 * 4845);

    // golden positions, probed through the query API (compressed blocks, cache),
    // with either colour to move
    let db = Database::open(dir.path()).unwrap();
    assert_eq!(db.rules(), rules);
    let mut probed = 0;
    for (w, b) in [(3u32, 3u32), (3, 4), (4, 3), (4, 4)] {
        let opps = all_sets(b);
        for (k, m) in all_sets(w).into_iter().enumerate().step_by(37) {
            for &o in opps
                .iter()
                .filter(|&&o| o & m == 0)
                .skip(k % 11)
                .step_by(101)
            {
                let want = brute.value(m, o);
                for side in [Color::White, Color::Black] {
                    let pos = Position {
                        mover: m,
                        opponent: o,
                        mover_hand: 0,
                        opponent_hand: 0,
                        side,
                    };
                    let text = pos.to_string();
                    let parsed: Position = text.parse().unwrap();
                    let answer = db.answer(&parsed).unwrap();
                    assert_eq!(answer.value, want, "{text}");
                    assert_eq!(
                        Value::from_children(answer.moves.iter().map(|m| m.value)),
                        Some(want),
                        "{text}"
                    );
                    probed += 1;
                }
            }
        }
    }
    assert!(probed > 1000, "{probed}");

    let out = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(["verify", "--db", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn max_stones_4_flying_matches_brute_force() {
    check_variant(Rules { flying: true });
}

#[test]
fn max_stones_4_no_flying_matches_brute_force() {
    check_variant(Rules { flying: false });
}
