//! Retrograde solver for the movement phase.
//!
//! A subspace `(w, b)` and its colour swap `(b, w)` are solved together: every
//! non-removing move of one leads into the other. Removing moves lead into smaller
//! subspaces, already solved, whose tables are looked up ([`Known`]).
//!
//! Each position gets a [`Cell`]: at first the number of distinct child classes
//! inside the pair not yet proven won, or a final value when removals already
//! decide it. Levels `n = 0, 1, 2, ...` are then processed in order: every
//! position decided at exactly `n` plies pushes to its predecessors (un-slides and
//! un-flies, which never close a mill): a loss at `n` makes them wins at `n + 1`;
//! a win at `n` lowers their counts, and a count reaching zero makes a loss (or a
//! draw, when a removal leads to a draw). Whatever is still open at the end is a draw.
//! A level visits only the chunks of the table noted to hold positions decided
//! at it (chunks of 256 cells, one bit map per level).
//!
//! The same solver computes the game's values and the distances of the
//! no-removal rule ([`Layer`]): only the values the removals lead to differ.

use crate::index::{Index, Indexer, Subspace};
use crate::rules::geometry::{Bits, points};
use crate::rules::moves::{self, Move};
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::solve::counter;
use crate::solve::known::{Kind, Known, SolveError, count_values, prefetch};
use crate::solve::value::{Cell, Counts, MAX_PLIES, Value};
use rayon::prelude::*;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

/// A movement position with `mover` to move.
pub fn movement_position(mover: Bits, opponent: Bits) -> Position {
    Subspace::movement(0, 0).position(mover, opponent)
}

/// Progress callbacks of a solve.
pub trait Progress: Sync {
    /// `done` more index slots were initialised.
    fn initialised(&self, done: u64);
    /// Level `plies` was processed.
    fn level(&self, plies: u16);
}

/// A progress sink that reports nothing.
pub struct NoProgress;

impl Progress for NoProgress {
    fn initialised(&self, _: u64) {}
    fn level(&self, _: u16) {}
}

/// What a solve computes, with the tables it reads: the game's values, or the
/// distances of the no-removal rule. The two differ only in the values that
/// removals lead to and where the levels stop.
#[derive(Clone, Copy)]
pub struct Layer<'a> {
    /// What the tables hold.
    pub kind: Kind,
    /// Solved tables of the same target that the moves lead into: those of
    /// removals, and for a placement sector that of a plain placement.
    pub children: &'a Known,
    /// For [`Kind::Rule`]: the game's own tables of the positions solved,
    /// when they are there already. Where the game draws, the rule draws too,
    /// and such positions are settled with no work.
    pub game: Option<&'a Known>,
}

impl<'a> Layer<'a> {
    /// The game's values, from `children`.
    pub fn game(children: &'a Known) -> Layer<'a> {
        Layer {
            kind: Kind::Game,
            children,
            game: None,
        }
    }

    /// The distances of the rule with move limit `limit`, from the rule's
    /// `children` (and the game's tables of the positions solved, if `game`).
    pub fn rule(limit: u16, children: &'a Known, game: Option<&'a Known>) -> Layer<'a> {
        Layer {
            kind: Kind::Rule(limit),
            children,
            game,
        }
    }

    /// The value of a removal's child as this layer counts it.
    pub(crate) fn removal_value(self, v: Value) -> Value {
        match self.kind {
            Kind::Game => v,
            Kind::Rule(_) => counter::after_removal(v),
        }
    }

    /// [`Layer::removal_value`] for [`crate::solve::value::BestChild::add`]: the payload bits of
    /// a removal's child's cell that count.
    pub(crate) fn removal_keep(self) -> u16 {
        match self.kind {
            Kind::Game => MAX_PLIES,
            Kind::Rule(_) => 0,
        }
    }

    /// `v` as stored: for the rule, a distance beyond the limit is a draw.
    pub(crate) fn cut(self, v: Value) -> Value {
        match self.kind {
            Kind::Game => v,
            Kind::Rule(l) => counter::cut(v, l),
        }
    }

    /// The ply levels a retrograde solve walks: `0..levels()`. For the rule,
    /// positions decided at level `n` decide others at `n + 1` at the
    /// earliest, so the levels from the limit on give only draws.
    fn levels(self) -> u16 {
        match self.kind {
            Kind::Game => MAX_PLIES,
            Kind::Rule(l) => l,
        }
    }

    /// The game's table of `sub` for settling its draws, if this layer has
    /// one.
    pub(crate) fn seed(self, sub: Subspace) -> Result<Option<&'a [Cell]>, SolveError> {
        match (self.kind, self.game) {
            (Kind::Rule(_), Some(game)) => game
                .table(sub)
                .map(Some)
                .ok_or(SolveError::MissingTable(sub)),
            _ => Ok(None),
        }
    }
}

/// Cells per chunk of a table in an [`Agenda`]: small enough that a level
/// with few positions scans little beyond them.
const CHUNK: usize = 256;

/// For one table, which chunks of [`CHUNK`] cells hold positions decided at
/// each level, so that a level visits only those chunks instead of scanning
/// the whole table. A chunk may be listed at a level it no longer holds (a
/// win improved to a faster one); visiting it then finds nothing.
struct Agenda {
    words: usize,
    levels: Vec<OnceLock<Box<[AtomicU64]>>>,
}

impl Agenda {
    fn new(chunks: usize) -> Agenda {
        Agenda {
            words: chunks.div_ceil(64),
            levels: (0..=MAX_PLIES).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Notes that chunk `chunk` holds a position decided at `plies`.
    fn mark(&self, plies: u16, chunk: usize) {
        let Some(level) = self.levels.get(plies as usize) else {
            return;
        };
        let set = level.get_or_init(|| (0..self.words).map(|_| AtomicU64::new(0)).collect());
        let (word, bit) = (&set[chunk / 64], 1u64 << (chunk % 64));
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }

    /// The chunks noted at `plies`, in increasing order.
    fn chunks(&self, plies: u16) -> Vec<usize> {
        let Some(set) = self.levels.get(plies as usize).and_then(OnceLock::get) else {
            return vec![];
        };
        let mut out = vec![];
        for (w, word) in set.iter().enumerate() {
            let mut bits = word.load(Relaxed);
            while bits != 0 {
                out.push(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        out
    }
}

/// Shared state of one solve.
struct Pair<'a> {
    ix: &'a Indexer,
    variant: Variant,
    layer: Layer<'a>,
    subs: Vec<Subspace>,
    /// Per member, the subspace its removals lead into and that subspace's
    /// table (`None`: a removal leaves the opponent 2 stones and wins).
    removal: Vec<Option<(Subspace, &'a [Cell])>>,
    /// Per member, the game's table that settles draws ([`Layer::seed`]).
    seed: Vec<Option<&'a [Cell]>>,
    cells: Vec<Vec<AtomicU16>>,
    agendas: Vec<Agenda>,
    max_level: AtomicU32,
    error: std::sync::Mutex<Option<SolveError>>,
}

/// Reusable buffers of one worker.
#[derive(Default)]
struct Scratch {
    moves: Vec<Move>,
    indices: Vec<Index>,
    values: Vec<Value>,
    /// The removals' children's indices ([`Pair::removal_values`]).
    removal_at: Vec<Index>,
}

/// The open count of a position that only a lost child can decide (one the
/// game wins, under the rule): more than any position has children, so the
/// won children never run it out, and no need to count them.
const UNCOUNTED: u16 = MAX_PLIES;

/// Positions decided at a level from which a chunk's slots are decoded one
/// from the other ([`Indexer::for_each_slot_where`]) rather than each alone.
const DENSE_CHUNK: usize = 16;

/// Most predecessor updates gathered before they are applied (4 bytes each).
const BATCH_UPDATES: usize = 1 << 25;

/// Index bit that marks an update from a lost child; indices stay below it.
const LOST_BIT: u32 = 1 << 31;

/// Slots of a table per bucket of updates, as a shift: about 2^19 cells (1 MB,
/// cache-resident while its bucket is applied), fewer for small tables so that
/// there are at least about 64 buckets to share among threads.
fn bucket_shift(len: usize) -> u32 {
    let bits = usize::BITS - len.leading_zeros();
    bits.saturating_sub(6).min(19)
}

/// Predecessor updates of one batch, by bucket (index `>> shift`): the index,
/// with [`LOST_BIT`] set when the child was lost.
struct Updates {
    buckets: Vec<Vec<u32>>,
}

impl Updates {
    fn new(buckets: usize) -> Updates {
        Updates {
            buckets: vec![Vec::new(); buckets],
        }
    }

    fn push(&mut self, shift: u32, r: Index, lost: bool) {
        let tag = if lost { LOST_BIT } else { 0 };
        self.buckets[(r >> shift) as usize].push(r as u32 | tag);
    }

    fn decode(u: u32) -> (Index, bool) {
        ((u & !LOST_BIT) as Index, u & LOST_BIT != 0)
    }
}

impl Pair<'_> {
    /// Table number of the subspace that non-removing moves from table `k` lead to.
    fn other(&self, k: usize) -> usize {
        if self.subs.len() == 1 { 0 } else { 1 - k }
    }

    fn fail(&self, e: SolveError) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(e);
    }

    /// Notes that position `i` of table `k` was decided as `v`.
    fn note_decided(&self, k: usize, i: Index, v: Value) {
        let Some(n) = v.plies() else {
            return;
        };
        if n >= MAX_PLIES {
            self.fail(SolveError::PliesOverflow(self.subs[k]));
        }
        // a plain load first: the shared maximum rarely changes
        if n as u32 > self.max_level.load(Relaxed) {
            self.max_level.fetch_max(n as u32, Relaxed);
        }
        self.agendas[k].mark(n, i as usize / CHUNK);
    }

    /// The values, as the layer counts them, of the children of `pos` (in
    /// table `k`) reached by removing moves among `moves`, into `out`.
    fn removal_values(
        &self,
        k: usize,
        pos: &Position,
        moves: &[Move],
        at: &mut Vec<Index>,
        out: &mut Vec<Value>,
    ) -> Result<(), SolveError> {
        out.clear();
        let removals = moves.iter().filter(|m| m.remove.is_some());
        let Some((sub, table)) = self.removal[k] else {
            // the opponent is left with 2 stones
            out.extend(removals.map(|_| self.layer.removal_value(Value::Loss(0))));
            return Ok(());
        };
        // every child's entry is located first, then all are read, so that
        // the reads, random in the removal's table, overlap
        at.clear();
        for &m in removals {
            let child = moves::apply(pos, m);
            let i = self.ix.rank(child.mover, child.opponent);
            let cell = table
                .get(i as usize)
                .ok_or(SolveError::UndecidedEntry(sub, i))?;
            prefetch(cell);
            at.push(i);
        }
        for &i in at.iter() {
            let v = table[i as usize]
                .value()
                .ok_or(SolveError::UndecidedEntry(sub, i))?;
            out.push(self.layer.removal_value(v));
        }
        Ok(())
    }

    /// The starting cell of position `i` = `(mover, opponent)` of table `k`:
    /// a draw where the seed has one (no moves generated), a win when a
    /// removal wins, the final value when no move stays inside the pair, else
    /// open with its count of distinct child classes inside the pair — or,
    /// where the seed has a win, with [`UNCOUNTED`].
    fn initial_cell(
        &self,
        k: usize,
        i: Index,
        mover: Bits,
        opponent: Bits,
        scratch: &mut Scratch,
    ) -> Result<Cell, SolveError> {
        let seed = self.seed[k].map(|s| s[i as usize]);
        if seed == Some(Cell::DRAW) {
            return Ok(Cell::DRAW);
        }
        let pos = movement_position(mover, opponent);
        let Scratch {
            moves: buf,
            indices: kids,
            values,
            removal_at,
        } = scratch;
        buf.clear();
        moves::generate(&pos, self.variant, buf);
        self.removal_values(k, &pos, buf, removal_at, values)?;
        let fastest_loss = values.iter().filter_map(|v| match v {
            Value::Loss(n) => Some(*n),
            _ => None,
        });
        if let Some(n) = fastest_loss.min() {
            return Ok(Cell::from_value(Value::Win(n + 1)));
        }
        if seed.is_some_and(|c| c.wdl_code() == Cell::WON.wdl_code()) {
            // the game wins here, so the rule cannot lose it (a loss under the
            // rule needs every child won under the rule, hence in the game):
            // only a lost child decides it, and its children need no count
            return Ok(Cell::open(UNCOUNTED));
        }
        // every non-removing child has the opponent's set as its mover set
        let ctx = self.ix.mover_context(opponent);
        kids.clear();
        for &m in buf.iter().filter(|m| m.remove.is_none()) {
            let from = m.from.map_or(0, |f| 1 << f);
            kids.push(Indexer::rank_with(&ctx, (mover & !from) | (1 << m.to)));
        }
        if !ctx.is_asymmetric() {
            // two moves lead to one class only through a symmetry that maps
            // the children's mover set to itself
            kids.sort_unstable();
            kids.dedup();
        }
        if kids.is_empty() {
            let v = Value::from_children(values.iter().copied())
                .ok_or(SolveError::PliesOverflow(self.subs[k]))?;
            return Ok(Cell::from_value(v));
        }
        Ok(Cell::open(kids.len() as u16))
    }

    fn initialise(&self, progress: &dyn Progress) {
        for k in 0..self.subs.len() {
            let sub = self.subs[k];
            let orbits = self.ix.orbits(sub.mover);
            (0..orbits)
                .into_par_iter()
                .for_each_init(Scratch::default, |scratch, orbit| {
                    self.ix.for_each_in_orbit(sub, orbit, |i, m, o| {
                        match self.initial_cell(k, i, m, o, scratch) {
                            Ok(c) => {
                                if let Some(v) = c.value() {
                                    self.note_decided(k, i, v);
                                }
                                self.cells[k][i as usize].store(c.0, Relaxed);
                            }
                            Err(e) => self.fail(e),
                        }
                    });
                    progress.initialised(self.ix.block_size(sub));
                });
        }
    }

    /// The final value of a position of table `k` whose internal children are
    /// all won, the last of them at `n` plies.
    fn resolve_all_won(
        &self,
        k: usize,
        mover: Bits,
        opponent: Bits,
        n: u16,
        scratch: &mut Scratch,
    ) -> Result<Value, SolveError> {
        let pos = movement_position(mover, opponent);
        scratch.moves.clear();
        moves::generate(&pos, self.variant, &mut scratch.moves);
        self.removal_values(
            k,
            &pos,
            &scratch.moves,
            &mut scratch.removal_at,
            &mut scratch.values,
        )?;
        scratch.values.push(Value::Win(n));
        Value::from_children(scratch.values.iter().copied())
            .ok_or(SolveError::PliesOverflow(self.subs[k]))
    }

    /// The distinct indices of the predecessors of position `(mover, opponent)`,
    /// into `preds`: positions of the colour-swapped subspace from which the
    /// opponent (to move there) moved a stone x -> y without closing a mill.
    /// `asymmetric`: whether only the identity maps `mover` to itself; then
    /// no two of them share a class (a symmetry mapping one onto another
    /// would map `mover`, their common opponent set, to itself), and they
    /// need no sorting out.
    fn predecessors(&self, mover: Bits, opponent: Bits, asymmetric: bool, preds: &mut Vec<Index>) {
        let g = self.variant.geometry();
        let empty = g.all() & !(mover | opponent);
        let fly = self.variant.can_fly(opponent.count_ones(), 0);
        preds.clear();
        for y in points(opponent) {
            if g.in_mill(opponent, y) {
                continue;
            }
            let from = if fly { empty } else { g.neighbours(y) & empty };
            let base = opponent & !(1 << y);
            for x in points(from) {
                preds.push(self.ix.rank(base | (1 << x), mover));
            }
        }
        if !asymmetric {
            preds.sort_unstable();
            preds.dedup();
        }
    }

    /// Applies to position `r` of table `k` the news that one of its children
    /// was decided at `n` plies: lost (`child_lost`), making `r` a win at
    /// `n + 1` unless it already wins faster, or won, taking one from its count
    /// of open children and resolving it when none are left. Only the thread
    /// that owns `r`'s bucket calls this during a level, so plain loads and
    /// stores suffice.
    fn apply(&self, k: usize, r: Index, n: u16, child_lost: bool, scratch: &mut Scratch) {
        let cell = &self.cells[k][r as usize];
        let c = Cell(cell.load(Relaxed));
        if child_lost {
            let better = match c.value() {
                None => c.open_count().is_some(),
                Some(Value::Win(m)) => m > n + 1,
                Some(_) => false,
            };
            if better {
                cell.store(Cell::from_value(Value::Win(n + 1)).0, Relaxed);
                self.note_decided(k, r, Value::Win(n + 1));
            }
            return;
        }
        match c.open_count() {
            Some(1) => {
                let (rm, ro) = self.ix.sets(self.subs[k], r);
                match self.resolve_all_won(k, rm, ro, n, scratch) {
                    Ok(val) => {
                        self.note_decided(k, r, val);
                        cell.store(Cell::from_value(val).0, Relaxed);
                    }
                    Err(e) => self.fail(e),
                }
            }
            Some(open) if open > 1 => cell.store(Cell::open(open - 1).0, Relaxed),
            _ => {}
        }
    }

    /// At most how many predecessors a position of `sub` has: each opponent
    /// stone moved back from a neighbour, or from any empty point when it flies.
    fn max_predecessors(&self, sub: Subspace) -> usize {
        let opponent = sub.opponent as usize;
        let g = self.variant.geometry();
        let empty = g.len() - sub.mover as usize - opponent;
        let from = if self.variant.can_fly(opponent as u32, 0) {
            empty
        } else {
            (0..g.len())
                .map(|p| g.neighbours(p).count_ones() as usize)
                .max()
                .unwrap_or(0)
        };
        opponent * from
    }

    /// Processes level `n`: every position decided at `n` plies
    /// tells its predecessors. Table by table, the positions' predecessor
    /// indices are gathered in batches, sorted into buckets of neighbouring
    /// indices, and each bucket is then applied by one thread: the updates of
    /// a bucket touch a small stretch of the table (cache-resident) and need
    /// no atomic read-modify-write, where updating predecessors in place would
    /// wait on a cache miss and a locked instruction for each.
    fn process_level(&self, n: u16) {
        for k in 0..self.subs.len() {
            let into = self.other(k);
            let sub = self.subs[k];
            let cells = &self.cells[k];
            let chunk_of = |c: usize| &cells[c * CHUNK..((c + 1) * CHUNK).min(cells.len())];
            let shift = bucket_shift(self.cells[into].len());
            let buckets = (self.cells[into].len() >> shift) + 1;
            let chunks = self.agendas[k].chunks(n);
            let block = self.ix.block_size(sub);
            // positions decided at n per chunk, to size the batches
            let decided: Vec<usize> = chunks
                .par_iter()
                .map(|&c| {
                    chunk_of(c)
                        .iter()
                        .filter(|c| Cell(c.load(Relaxed)).decided_at(n))
                        .count()
                })
                .collect();
            let most = self.max_predecessors(sub);
            let mut rest = &chunks[..];
            let mut counts = &decided[..];
            while !rest.is_empty() {
                let mut take = 0;
                let mut bound = 0;
                while take < rest.len()
                    && (take == 0 || bound + counts[take] * most <= BATCH_UPDATES)
                {
                    bound += counts[take] * most;
                    take += 1;
                }
                let (now, later) = rest.split_at(take);
                let (now_counts, later_counts) = counts.split_at(take);
                (rest, counts) = (later, later_counts);
                let parts: Vec<Updates> = (now.par_iter().zip(now_counts))
                    .fold(
                        || (Scratch::default(), Updates::new(buckets)),
                        |(mut scratch, mut out), (&chunk, &decided)| {
                            let cells = chunk_of(chunk);
                            let start = (chunk * CHUNK) as Index;
                            let cell = |i: Index| Cell(cells[(i - start) as usize].load(Relaxed));
                            let mut tell = |i: Index, m: Bits, o: Bits| {
                                let orbit = (i / block) as usize;
                                let asymmetric = self.ix.stabiliser(sub.mover, orbit) == 1;
                                let lost = matches!(cell(i).value(), Some(Value::Loss(_)));
                                self.predecessors(m, o, asymmetric, &mut scratch.indices);
                                for &r in &scratch.indices {
                                    out.push(shift, r, lost);
                                }
                            };
                            let range = start..start + cells.len() as Index;
                            if decided >= DENSE_CHUNK {
                                let decided_now = |i| cell(i).decided_at(n);
                                self.ix.for_each_slot_where(sub, range, decided_now, tell);
                            } else {
                                for i in range.filter(|&i| cell(i).decided_at(n)) {
                                    let (m, o) = self.ix.sets(sub, i);
                                    tell(i, m, o);
                                }
                            }
                            (scratch, out)
                        },
                    )
                    .map(|(_, out)| out)
                    .collect();
                (0..buckets)
                    .into_par_iter()
                    .for_each_init(Scratch::default, |scratch, b| {
                        for part in &parts {
                            for &u in &part.buckets[b] {
                                let (r, lost) = Updates::decode(u);
                                self.apply(into, r, n, lost, scratch);
                            }
                        }
                    });
            }
        }
    }

    fn take_error(&self) -> Option<SolveError> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// A solved subspace: its cells and value counts.
pub struct Solved {
    /// The subspace.
    pub subspace: Subspace,
    /// One cell per index; canonical slots hold values, others [`Cell::UNUSED`].
    pub cells: Vec<Cell>,
    /// Value counts.
    pub counts: Counts,
}

/// Solves the game's values of the movement subspace `sub` together with its
/// colour swap. The tables of the subspaces that removals lead into must be in
/// `known`.
pub fn solve_pair(
    ix: &Indexer,
    variant: Variant,
    sub: Subspace,
    known: &Known,
    progress: &dyn Progress,
) -> Result<Vec<Solved>, SolveError> {
    solve_pair_layer(ix, variant, sub, Layer::game(known), progress)
}

/// Solves the tables of `layer` of the movement subspace `sub` together with
/// its colour swap. The tables of the subspaces that removals lead into must
/// be in the layer's children.
pub fn solve_pair_layer(
    ix: &Indexer,
    variant: Variant,
    sub: Subspace,
    layer: Layer<'_>,
    progress: &dyn Progress,
) -> Result<Vec<Solved>, SolveError> {
    let subs = sub.with_swap();
    let mut removal = vec![];
    let mut seed = vec![];
    for &s in &subs {
        // indices travel as u32 with a tag bit; every movement subspace has
        // fewer than 2^30 slots
        assert!(
            ix.index_size(s) < LOST_BIT as u64,
            "subspace {s} is too large"
        );
        removal.push(match s.after_removal() {
            None => None,
            Some(r) => Some((
                r,
                layer.children.table(r).ok_or(SolveError::MissingTable(r))?,
            )),
        });
        seed.push(layer.seed(s)?);
    }
    let pair = Pair {
        ix,
        variant,
        layer,
        subs: subs.clone(),
        removal,
        seed,
        cells: subs
            .iter()
            .map(|&s| Cell::unused_atomic(ix.index_size(s)))
            .collect(),
        agendas: subs
            .iter()
            .map(|&s| Agenda::new(ix.index_size(s).div_ceil(CHUNK as u64) as usize))
            .collect(),
        max_level: AtomicU32::new(0),
        error: std::sync::Mutex::new(None),
    };
    pair.initialise(progress);
    let levels = u32::from(layer.levels());
    let mut n: u32 = 0;
    while n < levels && n <= pair.max_level.load(Relaxed) {
        if let Some(e) = pair.take_error() {
            return Err(e);
        }
        pair.process_level(n as u16);
        progress.level(n as u16);
        n += 1;
    }
    if let Some(e) = pair.take_error() {
        return Err(e);
    }
    let mut out = vec![];
    for (k, cells) in pair.cells.into_iter().enumerate() {
        let sub = subs[k];
        // still open: a draw (for the rule also what a level beyond the limit
        // would have decided)
        let cells: Vec<Cell> = cells
            .into_par_iter()
            .map(|c| {
                let c = Cell(c.into_inner());
                if c.open_count().is_some() {
                    Cell::DRAW
                } else {
                    c
                }
            })
            .collect();
        let counts = count_values(ix, sub, &cells);
        out.push(Solved {
            subspace: sub,
            cells,
            counts,
        });
    }
    Ok(out)
}
