//! The placement phase: exact values by alpha-beta search over the placements,
//! with the movement database at the leaves.
//!
//! Scores are integers: a win in `n` plies scores `BIG - n`, a loss in `n` plies
//! `-(BIG - n)`, a draw 0. A child's score seen from its parent is negated and
//! moved one step toward zero (one ply further from the end), so plain negamax on
//! scores finds the fastest win and the slowest loss: the exact plies. In
//! win/draw/loss mode the step is omitted, which prunes far more and is enough to
//! tell a draw. The placement phase has no cycles, so the search is exact; a
//! transposition table keyed by symmetry class holds bounds and best moves.
//!
//! In win/draw/loss mode the value comes from two null-window searches (is the
//! position lost? is it won?) run side by side on two threads, each with its own
//! table, with whole-table [`WdlMaps`] shared at the leaves; moves
//! are ordered by the table's best move, mill closing, mill blocking and a
//! history of cutoffs.

use crate::answer::query::{Database, QueryError};
use crate::answer::wdl::{WdlMap, WdlMaps};
use crate::index::{Indexer, Subspace};
use crate::rules::geometry::in_mill;
use crate::rules::moves::{self, Move};
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::solve::value::Value;
use rustc_hash::FxHashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const BIG: i32 = 1 << 20;
/// Ordering weight of a placement that blocks a mill of the opponent, against
/// the history counts (measured on `w 6 6`: 1.91 M nodes without, 1.51 M with).
const BLOCK_BONUS: u32 = 1_000_000;

/// What the search computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// Win, draw or loss, with no plies.
    WinDrawLoss,
    /// The value with the exact plies to the end.
    ExactPlies,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// What the table keeps of a searched position: a bound on its score and the
/// move that gave it.
#[derive(Clone, Copy)]
struct Entry {
    score: i32,
    bound: Bound,
    best: Move,
}

/// Counters of a running search, readable from another thread while it runs.
#[derive(Default, Debug)]
pub struct SearchProgress {
    /// Positions searched, updated every [`NODES_PER_REPORT`] per thread.
    pub nodes: AtomicU64,
}

/// Each searcher's transposition table grows by default up to 2^26 slots
/// (1.5 GiB); [`OpeningSearch::with_table_bits`] sets another cap.
pub const TABLE_BITS: u32 = 26;

/// Default leaf probes a win/draw/loss searcher makes through the block cache
/// before it switches to whole-table maps.
pub const MAPS_AFTER_PROBES: u64 = 1 << 18;

/// How many nodes a thread searches between updates of [`SearchProgress`].
pub const NODES_PER_REPORT: u64 = 1 << 16;

/// A transposition table that grows by doubling up to a fixed number of slots,
/// then replaces: buckets of two slots; a new entry takes its own key's slot, else
/// an empty one, else the one with the smaller subtree (fewer stones in hand).
struct TransTable {
    slots: Vec<Slot>,
    bits: u32,
    max_bits: u32,
    len: usize,
}

#[derive(Clone, Copy)]
struct Slot {
    /// 0: empty (interior positions have stones in hand, so their keys are not 0).
    key: u64,
    /// Stones in hand of both sides: the plies left to place.
    depth: u8,
    entry: Entry,
}

const EMPTY: Slot = Slot {
    key: 0,
    depth: 0,
    entry: Entry {
        score: 0,
        bound: Bound::Exact,
        best: Move {
            from: None,
            to: 0,
            remove: None,
        },
    },
};

impl TransTable {
    fn new(max_bits: u32) -> TransTable {
        let bits = 10.min(max_bits);
        TransTable {
            slots: vec![EMPTY; 1 << bits],
            bits,
            max_bits,
            len: 0,
        }
    }

    fn bucket(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize & !1
    }

    fn get(&self, key: u64) -> Option<&Entry> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|s| s.key == key)
            .map(|s| &s.entry)
    }

    fn insert(&mut self, key: u64, depth: u8, entry: Entry) {
        if self.len * 4 >= self.slots.len() * 3 && self.bits < self.max_bits {
            self.grow();
        }
        let b = self.bucket(key);
        let pair = &mut self.slots[b..b + 2];
        let k = if pair[0].key == key || pair[0].key == 0 {
            0
        } else if pair[1].key == key || pair[1].key == 0 || pair[1].depth <= pair[0].depth {
            1
        } else {
            0
        };
        if pair[k].key == 0 {
            self.len += 1;
        }
        pair[k] = Slot { key, depth, entry };
    }

    fn grow(&mut self) {
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; 1 << (self.bits + 1)]);
        self.bits += 1;
        self.len = 0;
        for s in old.into_iter().filter(|s| s.key != 0) {
            self.insert(s.key, s.depth, s.entry);
        }
    }
}

/// What the searching threads share: the database, the indexer, the leaf maps.
struct Shared<'a> {
    db: &'a Database,
    ix: Indexer,
    maps: WdlMaps,
    /// Leaf probes a win/draw/loss searcher makes through the block cache before
    /// it switches to whole-table maps.
    maps_after: u64,
    progress: Arc<SearchProgress>,
}

/// One searcher's state: what it computes, its transposition table, move-ordering
/// history and the leaf maps it has looked up.
struct Worker {
    precision: Precision,
    table: TransTable,
    /// For (stones in hand of the mover, point), how often placing there caused a
    /// cutoff, weighted by the square of the plies left.
    history: [[u32; 24]; 10],
    leaves: FxHashMap<Subspace, Arc<WdlMap>>,
    /// Leaves probed through the database's block cache.
    leaf_probes: u64,
    nodes: u64,
}

/// A search over the placement phase against an open database. Reuse one for many
/// queries: its tables keep what earlier searches proved.
///
/// Every value is first proved win, draw or loss by two win/draw/loss searches
/// side by side; in exact mode a win or loss is then searched again for its plies
/// inside the window that proof allows (draws need no plies).
pub struct OpeningSearch<'a> {
    precision: Precision,
    shared: Shared<'a>,
    /// The "is it lost?" and "is it won?" searchers, and the exact one.
    workers: [Worker; 3],
}

fn score_of(v: Value, precision: Precision) -> i32 {
    match (v, precision) {
        (Value::Draw, _) => 0,
        (Value::Win(_), Precision::WinDrawLoss) => BIG,
        (Value::Loss(_), Precision::WinDrawLoss) => -BIG,
        (Value::Win(n), Precision::ExactPlies) => BIG - n as i32,
        (Value::Loss(n), Precision::ExactPlies) => -(BIG - n as i32),
    }
}

impl Precision {
    fn step(self) -> i32 {
        match self {
            Precision::WinDrawLoss => 0,
            Precision::ExactPlies => 1,
        }
    }

    /// The highest score of a position with a legal move (in exact mode a win
    /// takes at least one ply).
    fn top(self) -> i32 {
        BIG - self.step()
    }

    /// A child's score as seen by its parent.
    fn to_parent(self, child: i32) -> i32 {
        let t = -child;
        t - t.signum() * self.step()
    }

    /// The child score that a parent score corresponds to (inverse of `to_parent`).
    fn to_child(self, parent: i32) -> i32 {
        -(parent + parent.signum() * self.step())
    }

    fn value_of(self, score: i32) -> Value {
        match (score.signum(), self) {
            (0, _) => Value::Draw,
            (1, Precision::WinDrawLoss) => Value::Win(0),
            (_, Precision::WinDrawLoss) => Value::Loss(0),
            (1, Precision::ExactPlies) => Value::Win((BIG - score) as u16),
            (_, Precision::ExactPlies) => Value::Loss((BIG + score) as u16),
        }
    }
}

impl<'a> OpeningSearch<'a> {
    /// A search with empty tables.
    pub fn new(db: &'a Database, precision: Precision) -> OpeningSearch<'a> {
        OpeningSearch {
            precision,
            shared: Shared {
                db,
                ix: Indexer::of(db.variant().geometry()),
                maps: WdlMaps::new(),
                maps_after: MAPS_AFTER_PROBES,
                progress: Arc::default(),
            },
            workers: [
                Worker::new(Precision::WinDrawLoss),
                Worker::new(Precision::WinDrawLoss),
                Worker::new(Precision::ExactPlies),
            ],
        }
    }

    /// Sets after how many leaf probes through the block cache each win/draw/loss
    /// searcher decodes whole leaf tables instead (0: from the start).
    pub fn with_maps_after(mut self, probes: u64) -> Self {
        self.shared.maps_after = probes;
        self
    }

    /// Caps each searcher's transposition table at `2^bits` slots (at least 2;
    /// default [`TABLE_BITS`]), emptying the tables. Past the cap, entries are
    /// replaced.
    pub fn with_table_bits(mut self, bits: u32) -> Self {
        let bits = bits.clamp(1, TABLE_BITS);
        for w in &mut self.workers {
            w.table = TransTable::new(bits);
        }
        self
    }

    /// Counters to watch the search from another thread.
    pub fn progress(&self) -> Arc<SearchProgress> {
        self.shared.progress.clone()
    }

    /// Positions searched so far by all threads (database probes included).
    pub fn nodes(&self) -> u64 {
        self.workers.iter().map(|w| w.nodes).sum()
    }

    /// Bytes held by the leaf maps (win/draw/loss mode).
    pub fn leaf_bytes(&self) -> u64 {
        self.shared.maps.bytes()
    }

    /// The value of `pos`. In win/draw/loss mode, wins and losses carry 0 plies.
    pub fn value(&mut self, pos: &Position) -> Result<Value, QueryError> {
        let sh = &self.shared;
        let [w0, w1, exact] = &mut self.workers;
        // "is it lost (below 0)?" and "is it won (above 0)?", side by side
        let (low, high) = rayon::join(|| w0.search(sh, pos, -1, 0), || w1.search(sh, pos, 0, 1));
        let (low, high) = (low?, high?);
        let p = self.precision;
        let s = if low >= 0 && high <= 0 {
            0
        } else {
            match (p, low < 0) {
                (Precision::WinDrawLoss, true) => low,
                (Precision::WinDrawLoss, false) => high,
                (Precision::ExactPlies, true) => exact.search(sh, pos, -BIG, 0)?,
                (Precision::ExactPlies, false) => exact.search(sh, pos, 0, BIG)?,
            }
        };
        Ok(p.value_of(s))
    }

    /// The rule variant of the database searched.
    pub fn variant(&self) -> Variant {
        self.shared.db.variant()
    }
}

impl Shared<'_> {
    fn key(&self, pos: &Position) -> u64 {
        let s = Subspace::of(pos);
        let i = self.ix.rank(pos.mover, pos.opponent);
        (i << 16)
            | ((s.mover as u64) << 12)
            | ((s.opponent as u64) << 8)
            | ((s.mover_hand as u64) << 4)
            | s.opponent_hand as u64
    }
}

impl Worker {
    fn new(precision: Precision) -> Worker {
        Worker {
            precision,
            table: TransTable::new(TABLE_BITS),
            history: [[0; 24]; 10],
            leaves: FxHashMap::default(),
            leaf_probes: 0,
            nodes: 0,
        }
    }

    /// The score of a movement-phase position, from the database.
    fn leaf(&mut self, sh: &Shared, pos: &Position) -> Result<i32, QueryError> {
        let v = match self.precision {
            Precision::ExactPlies => sh.db.probe(pos)?,
            // a small search probes through the block cache; a large one decodes
            // the leaf tables whole (seconds each, then a memory read per leaf)
            Precision::WinDrawLoss if self.leaf_probes < sh.maps_after => {
                self.leaf_probes += 1;
                sh.db.probe_outcome(pos)?
            }
            Precision::WinDrawLoss => {
                let (sub, i) = sh.ix.rank_position(pos);
                let map = match self.leaves.get(&sub) {
                    Some(m) => m,
                    None => {
                        let m = sh.maps.get(sh.db, sub)?;
                        self.leaves.entry(sub).or_insert(m)
                    }
                };
                map.value(i)?
            }
        };
        Ok(score_of(v, self.precision))
    }

    /// Fail-soft alpha-beta (negamax) on scores.
    fn search(
        &mut self,
        sh: &Shared,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, QueryError> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(NODES_PER_REPORT) {
            sh.progress.nodes.fetch_add(NODES_PER_REPORT, Relaxed);
        }
        let p = self.precision;
        if pos.mover_below_minimum() {
            return Ok(score_of(Value::Loss(0), p));
        }
        if pos.is_movement_phase() {
            return self.leaf(sh, pos);
        }
        // a placement position always has a legal move (a stone in hand and an
        // empty point), so every score lies in [-BIG, top]: a window outside it
        // is already decided
        if alpha >= p.top() {
            return Ok(p.top());
        }
        if beta <= -BIG {
            return Ok(-BIG);
        }
        beta = beta.min(p.top());
        let key = sh.key(pos);
        let alpha0 = alpha;
        let mut hint = None;
        if let Some(e) = self.table.get(key) {
            match e.bound {
                Bound::Exact => return Ok(e.score),
                Bound::Lower => alpha = alpha.max(e.score),
                Bound::Upper => beta = beta.min(e.score),
            }
            if alpha >= beta {
                return Ok(e.score);
            }
            // stored in the orientation of whichever image was searched: on another
            // image it only orders moves less well
            hint = Some(e.best);
        }
        // generated only when the table did not decide the position
        let mut list = moves::legal_moves(pos, sh.db.variant());
        if list.is_empty() {
            return Ok(score_of(Value::Loss(0), p));
        }
        if let Some(s) = self.known_cutoff(sh, pos, &list, beta) {
            return Ok(s);
        }
        self.order(pos, &mut list, hint);
        let mut best = -BIG - 1;
        let mut best_move = list[0];
        for &mv in &list {
            let child = moves::apply(pos, mv);
            let (lo, hi) = (p.to_child(beta), p.to_child(alpha));
            let s = p.to_parent(self.search(sh, &child, lo, hi)?);
            if s > best {
                best = s;
                best_move = mv;
            }
            alpha = alpha.max(s);
            if alpha >= beta {
                let left = (pos.mover_hand + pos.opponent_hand) as u32;
                let h = &mut self.history[pos.mover_hand as usize][mv.to as usize];
                *h = h.saturating_add(left * left);
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(
            key,
            pos.mover_hand + pos.opponent_hand,
            Entry {
                score: best,
                bound,
                best: best_move,
            },
        );
        Ok(best)
    }

    /// Enhanced transposition cutoff: a child whose stored bound already refutes
    /// the window ends the search of its parent (measured on `w 7 7`: 60.6 M
    /// nodes without it and history ordering, 17.8 M with both).
    fn known_cutoff(&self, sh: &Shared, pos: &Position, list: &[Move], beta: i32) -> Option<i32> {
        if pos.mover_hand + pos.opponent_hand <= 1 {
            return None; // the children are leaves, never in the table
        }
        list.iter().find_map(|&mv| {
            let child = moves::apply(pos, mv);
            if child.mover_below_minimum() || child.is_movement_phase() {
                return None;
            }
            let e = self.table.get(sh.key(&child))?;
            let s = self.precision.to_parent(e.score);
            (e.bound != Bound::Lower && s >= beta).then_some(s)
        })
    }

    /// Orders placements: the table's best move first, then mill-closing moves,
    /// then by the history of cutoffs, with a bonus for blocking a mill of the
    /// opponent.
    fn order(&self, pos: &Position, list: &mut [Move], hint: Option<Move>) {
        let history = &self.history[pos.mover_hand as usize];
        list.sort_by_cached_key(|m| {
            let to = m.to as usize;
            let closes = in_mill(pos.mover | (1 << to), to);
            let blocks = in_mill(pos.opponent | (1 << to), to);
            let weight = history[to].saturating_add(if blocks { BLOCK_BONUS } else { 0 });
            (Some(*m) != hint, !closes, std::cmp::Reverse(weight))
        });
    }
}
