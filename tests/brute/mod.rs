//! An independent brute-force solver of the movement phase: plain iteration over
//! all placements of the stones (no symmetry, no index of the engine), forward
//! moves only, one level of plies at a time; and a plain memoized minimax over the
//! placement phase on top of it. Moves come from the naive rules of
//! `tests/naive`, never from the engine's move generation.
#![allow(dead_code)]

pub mod rule;

use crate::naive::Naive;
use millbase::Variant;
use millbase::rules::geometry::NEIGHBOURS;
use millbase::rules::position::{Color, Position};
use millbase::solve::value::Value;
use rayon::prelude::*;
use std::collections::HashMap;

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

/// The movement-phase position with mover stones `m` and opponent stones `o`
/// (White to move).
pub fn movement(m: u32, o: u32) -> Position {
    Position {
        mover: m,
        opponent: o,
        mover_hand: 0,
        opponent_hand: 0,
        side: Color::White,
    }
}

pub fn binom(n: u32, k: u32) -> u64 {
    binom_table()[n as usize][k as usize]
}

/// All `k`-subsets of the 24 points, by plain recursion, in increasing order.
pub fn all_sets(k: u32) -> Vec<u32> {
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
pub struct Brute {
    variant: Variant,
    binom: [[u64; 25]; 25],
    tables: Vec<Vec<Vec<i16>>>,
}

impl Brute {
    pub fn new(variant: Variant) -> Brute {
        Brute {
            variant,
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
        let pos = movement(m, o);
        let mut all_won = true;
        for (_, child) in Naive::successors(&pos, self.variant.flies()) {
            match self.known(&child, level) {
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
    /// latter, every position where the side that just moved has one stone on a
    /// neighbouring point instead (or on any empty point, for a side that flies) is
    /// a candidate: a superset of its predecessors. Candidates are judged by their
    /// own forward moves only, so extra ones do no harm, and a missing one would
    /// leave its position unknown (a draw), which the comparisons catch.
    pub fn solve_group(&mut self, group: &[(u32, u32)]) {
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
            // by chunks of opponent sets, so that events are filed as found
            for opps in all_sets(b).chunks(4096) {
                let found: Vec<Vec<(u16, (u32, u32))>> = opps
                    .par_iter()
                    .map(|&o| {
                        let mut ev = vec![];
                        for &m in movers.iter().filter(|&&m| m & o == 0) {
                            let pos = movement(m, o);
                            let list = Naive::successors(&pos, self.variant.flies());
                            if list.is_empty() {
                                ev.push((0, (m, o)));
                            }
                            // earlier groups are final: unknown there is a draw, which decides nothing
                            let mut levels: Vec<u16> = list
                                .into_iter()
                                .filter(|c| c.0)
                                .filter_map(|(_, child)| self.known(&child, i16::MAX))
                                .map(|p| p as u16 + 1)
                                .collect();
                            levels.sort_unstable();
                            levels.dedup();
                            ev.extend(levels.into_iter().map(|l| (l, (m, o))));
                        }
                        ev
                    })
                    .collect();
                for (level, p) in found.into_iter().flatten() {
                    push_event(&mut events, level as usize, p);
                }
            }
        }
        // Positions decided at a level never decide others at the same level
        // (`decided_at` reads only values below it), so the candidates of a
        // level can be judged in chunks: memory stays bounded on large groups.
        const CHUNK: usize = 1 << 18;
        let mut frontier: Vec<(u32, u32)> = vec![];
        let mut level: usize = 0;
        while level < events.len() || !frontier.is_empty() {
            let lv = level as i16;
            let from_events = events
                .get_mut(level)
                .map(std::mem::take)
                .unwrap_or_default();
            let from_events = from_events
                .into_par_iter()
                .filter(|&p| self.open(group, p))
                .collect();
            let mut decided = self.judge(from_events, lv);
            for chunk in frontier.chunks(CHUNK) {
                let flying = self.variant.flies();
                let cands = chunk
                    .par_iter()
                    .flat_map_iter(|&(cm, co)| {
                        // where the stone now on `y` can have come from: any empty
                        // point for a side that flies, else a neighbour
                        let fly = flying && co.count_ones() == 3;
                        let empty = 0xFF_FFFF & !(cm | co);
                        (0..24usize)
                            .filter(move |&y| co & (1 << y) != 0)
                            .flat_map(move |y| {
                                let from = if fly { empty } else { empty & NEIGHBOURS[y] };
                                (0..24usize)
                                    .filter(move |&x| from & (1 << x) != 0)
                                    .map(move |x| (co & !(1 << y) | (1 << x), cm))
                            })
                    })
                    .filter(|&p| self.open(group, p))
                    .collect();
                decided.extend(self.judge(cands, lv));
            }
            frontier = decided;
            level += 1;
        }
    }

    /// Whether `(m, o)` belongs to `group` and is not decided yet.
    fn open(&self, group: &[(u32, u32)], (m, o): (u32, u32)) -> bool {
        let (w, b) = (m.count_ones(), o.count_ones());
        group.contains(&(w, b)) && self.tables[w as usize][b as usize][self.slot(m, o)] == UNKNOWN
    }

    /// Of the open candidates `cands`, those decided at `level` by their
    /// children: recorded in the tables and returned.
    fn judge(&mut self, mut cands: Vec<(u32, u32)>, level: i16) -> Vec<(u32, u32)> {
        cands.par_sort_unstable();
        cands.dedup();
        let decided: Vec<(u32, u32)> = cands
            .into_par_iter()
            .filter(|&(m, o)| self.decided_at(m, o, level))
            .collect();
        for &(m, o) in &decided {
            let slot = self.slot(m, o);
            self.tables[m.count_ones() as usize][o.count_ones() as usize][slot] = level;
        }
        decided
    }

    pub fn value(&self, mover: u32, opp: u32) -> Value {
        let (w, b) = (mover.count_ones() as usize, opp.count_ones() as usize);
        match self.tables[w][b][self.slot(mover, opp)] {
            UNKNOWN => Value::Draw,
            p if p % 2 == 1 => Value::Win(p as u16),
            p => Value::Loss(p as u16),
        }
    }
}

/// Exact value of any position (placement phase included) by plain minimax with
/// memoization on the exact position, movement-phase values from [`Brute`]. The
/// rule that combines children is written out here, independently of the engine.
pub struct Minimax<'a> {
    pub brute: &'a Brute,
    pub memo: HashMap<u64, Value>,
}

impl<'a> Minimax<'a> {
    pub fn new(brute: &'a Brute) -> Minimax<'a> {
        Minimax {
            brute,
            memo: HashMap::new(),
        }
    }

    pub fn value(&mut self, pos: &Position) -> Value {
        if pos.mover_total() < 3 {
            return Value::Loss(0);
        }
        if pos.mover_hand == 0 && pos.opponent_hand == 0 {
            return self.brute.value(pos.mover, pos.opponent);
        }
        let key = pos.mover as u64
            | (pos.opponent as u64) << 24
            | (pos.mover_hand as u64) << 48
            | (pos.opponent_hand as u64) << 52;
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let (mut fastest_win, mut draw, mut slowest_loss): (Option<u16>, bool, Option<u16>) =
            (None, false, None);
        let mut any = false;
        for (_, child) in Naive::successors(pos, self.brute.variant.flies()) {
            any = true;
            match self.value(&child) {
                Value::Loss(n) => fastest_win = Some(fastest_win.map_or(n + 1, |w| w.min(n + 1))),
                Value::Draw => draw = true,
                Value::Win(n) => slowest_loss = Some(slowest_loss.map_or(n + 1, |l| l.max(n + 1))),
            }
        }
        let v = if let Some(w) = fastest_win {
            Value::Win(w)
        } else if draw {
            Value::Draw
        } else if any {
            Value::Loss(slowest_loss.unwrap())
        } else {
            Value::Loss(0)
        };
        self.memo.insert(key, v);
        v
    }
}

/// A placement sector: stones on board and in hand of the side to move and of
/// the opponent.
pub type Sector = (u32, u32, u8, u8);

const UNSET: i16 = -1;
const DRAWN_PLIES: i16 = -2;

/// The position of `sector` with the stone sets `m` and `o`: Black is to move
/// exactly when it has one stone more in hand (White places first).
pub fn sector_position((_, _, mh, oh): Sector, m: u32, o: u32) -> Position {
    Position {
        mover: m,
        opponent: o,
        mover_hand: mh,
        opponent_hand: oh,
        side: if mh > oh { Color::Black } else { Color::White },
    }
}

/// Exact values of every placement-phase position of the game where each side
/// starts with `n` stones, by backward induction over the sectors in order of
/// the stones left to place (placements never recur), movement-phase values from
/// [`Brute`]. Sectors and sets are enumerated by plain loops (no symmetry, no
/// index of the engine); moves come from the naive rules.
pub struct Placement<'a> {
    brute: &'a Brute,
    tables: HashMap<Sector, Vec<i16>>,
}

impl<'a> Placement<'a> {
    /// The sectors of the game with `n` stones a side, written out from the rules:
    /// the side to move has a stone in hand, White places first (so the opponent
    /// has as many in hand, or one fewer when Black is to move), each side has
    /// at most `n` stones on board plus in hand and at least 3.
    pub fn sectors(n: u8) -> Vec<Sector> {
        let mut v = vec![];
        for mh in 1..=n {
            for oh in [mh - 1, mh] {
                for m in 0..=(n - mh) as u32 {
                    for o in 0..=(n - oh) as u32 {
                        if m + mh as u32 >= 3 && o + oh as u32 >= 3 {
                            v.push((m, o, mh, oh));
                        }
                    }
                }
            }
        }
        v.sort_by_key(|s| s.2 + s.3);
        v
    }

    pub fn solve(brute: &'a Brute, n: u8) -> Placement<'a> {
        let mut p = Placement {
            brute,
            tables: HashMap::new(),
        };
        for sector in Placement::sectors(n) {
            let (m, o, _, _) = sector;
            let movers = all_sets(m);
            let opps = all_sets(o);
            let width = opps.len();
            let table: Vec<i16> = movers
                .par_iter()
                .flat_map_iter(|&ms| {
                    let p = &p;
                    opps.iter().map(move |&os| {
                        if ms & os != 0 {
                            return UNSET;
                        }
                        p.plies_from_children(&sector_position(sector, ms, os))
                    })
                })
                .collect();
            assert_eq!(table.len(), movers.len() * width);
            p.tables.insert(sector, table);
        }
        p
    }

    /// Plies (odd: win, even: loss) or [`DRAWN_PLIES`] of `pos` from its children.
    fn plies_from_children(&self, pos: &Position) -> i16 {
        let (mut fastest_win, mut draw, mut slowest_loss) = (None::<i16>, false, None::<i16>);
        for (_, child) in Naive::successors(pos, self.brute.variant.flies()) {
            match self.value(&child) {
                Value::Loss(n) => {
                    fastest_win = Some(fastest_win.map_or(n as i16 + 1, |w| w.min(n as i16 + 1)))
                }
                Value::Draw => draw = true,
                Value::Win(n) => {
                    slowest_loss = Some(slowest_loss.map_or(n as i16 + 1, |l| l.max(n as i16 + 1)))
                }
            }
        }
        fastest_win.unwrap_or(if draw {
            DRAWN_PLIES
        } else {
            slowest_loss.unwrap_or(0)
        })
    }

    /// The value of any position of the game (placement or movement).
    pub fn value(&self, pos: &Position) -> Value {
        if pos.mover_total() < 3 {
            return Value::Loss(0);
        }
        if pos.mover_hand == 0 && pos.opponent_hand == 0 {
            return self.brute.value(pos.mover, pos.opponent);
        }
        let sector = (
            pos.mover.count_ones(),
            pos.opponent.count_ones(),
            pos.mover_hand,
            pos.opponent_hand,
        );
        let table = &self.tables[&sector];
        let width = self.brute.binom[24][sector.1 as usize];
        let slot = self.brute.rank(pos.mover) * width + self.brute.rank(pos.opponent);
        match table[slot as usize] {
            DRAWN_PLIES => Value::Draw,
            UNSET => panic!("{pos}: not solved"),
            p if p % 2 == 1 => Value::Win(p as u16),
            p => Value::Loss(p as u16),
        }
    }
}

/// An outcome under the no-removal rule at one counter: win, draw or loss
/// for the side to move.
pub type Outcome = i8;
pub const WON: Outcome = 1;
pub const DRAWN: Outcome = 0;
pub const LOST: Outcome = -1;
