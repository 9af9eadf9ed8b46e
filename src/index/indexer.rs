//! The perfect hash: a position's index inside its subspace, folded by
//! the 16 symmetries ([`Indexer`]), and the set tables behind it.

use super::Index;
use super::combinatorics::{
    BINOM, colex_rank, colex_rank_by_bytes, colex_unrank, colex_unrank_below, next_same_size,
    squeeze_rank, unsqueeze,
};
use super::subspace::Subspace;
use crate::rules::geometry::{Bits, Geometry, MAX_ENGINE_POINTS, points};
use crate::rules::position::Position;
use crate::rules::variant::MAX_STONES;
use smallvec::SmallVec;
use std::sync::OnceLock;

/// Symmetry classes of the sets of one size.
struct SetTable {
    /// The board.
    g: &'static Geometry,
    /// Per set, by colex rank: `orbit << 5 | nontrivial_stabiliser << 4 | symmetry`,
    /// where the symmetry maps the set to its orbit's least element. Empty in
    /// a table read from an [`OrbitStore`]: each entry is then found from
    /// the set's least image ([`SetTable::entry_of`]).
    entries: Vec<u32>,
    /// Least element of each orbit, ascending.
    reps: Vec<Bits>,
    /// Per orbit, the symmetries that fix its least element (bit `s`).
    stabilisers: Vec<u16>,
}

impl SetTable {
    /// Builds the table of `k`-sets in two parallel passes: first the least
    /// elements of the orbits (a set is one unless an image is smaller, which
    /// most sets show after a few of the 16 symmetries), in increasing order,
    /// numbering the orbits; then the 16 images of each least element get their
    /// entries (the least symmetry where several reach it).
    fn build(g: &'static Geometry, k: usize) -> SetTable {
        use rayon::prelude::*;
        use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
        const CHUNK: usize = 1 << 14;
        let n = BINOM[g.len()][k] as usize;
        let least: Vec<(Bits, u16)> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .flat_map_iter(|c| {
                let end = ((c + 1) * CHUNK).min(n);
                let mut set = colex_unrank((c * CHUNK) as u32, k);
                let mut out = vec![];
                for r in c * CHUNK..end {
                    if let Some(stab) = stabiliser_if_least(g, set) {
                        out.push((set, stab));
                    }
                    if k > 0 && r + 1 < end {
                        set = next_same_size(set);
                    }
                }
                out
            })
            .collect();
        let entries: Vec<AtomicU32> = (0..n)
            .into_par_iter()
            .map(|_| AtomicU32::new(u32::MAX))
            .collect();
        least
            .par_iter()
            .enumerate()
            .for_each(|(orbit, &(rep, stab))| {
                let head = ((orbit as u32) << 5) | (((stab != 1) as u32) << 4);
                for t in 0..g.symmetry_count() {
                    // the inverse of t maps this image back to the least element
                    let img = g.transform(t, rep);
                    entries[colex_rank(img) as usize]
                        .fetch_min(head | g.inverse(t) as u32, Relaxed);
                }
            });
        SetTable {
            g,
            entries: entries.into_par_iter().map(AtomicU32::into_inner).collect(),
            reps: least.iter().map(|l| l.0).collect(),
            stabilisers: least.iter().map(|l| l.1).collect(),
        }
    }

    /// The table of the `k`-sets from the orbits an [`OrbitStore`] kept,
    /// without the entries of every set: `None` unless they are the orbits
    /// of the `k`-sets (as many as Burnside's lemma counts, ascending, each
    /// the least of its images, with its stabiliser).
    fn from_orbits(
        g: &'static Geometry,
        k: usize,
        reps: Vec<Bits>,
        stabilisers: Vec<u16>,
    ) -> Option<SetTable> {
        use rayon::prelude::*;
        let whole = reps.len() as u64 == orbit_count(g, k)
            && stabilisers.len() == reps.len()
            && reps.windows(2).all(|w| w[0] < w[1])
            && (reps.par_iter().zip(&stabilisers)).all(|(&r, &stab)| {
                r.count_ones() as usize == k && stabiliser_if_least(g, r) == Some(stab)
            });
        whole.then_some(SetTable {
            g,
            entries: Vec::new(),
            reps,
            stabilisers,
        })
    }

    /// The entry of `set` (as [`SetTable::entries`] holds it), found from
    /// its least image: the least symmetry that reaches it, and its orbit
    /// by a search of the least sets.
    #[inline]
    fn entry(&self, set: Bits) -> u32 {
        match self.entries.get(colex_rank(set) as usize) {
            Some(&e) => e,
            None => self.entry_of(set),
        }
    }

    #[inline(never)]
    fn entry_of(&self, set: Bits) -> u32 {
        let (mut least, mut sym) = (set, 0);
        for s in 1..self.g.symmetry_count() {
            let img = self.g.transform(s, set);
            if img < least {
                (least, sym) = (img, s);
            }
        }
        // every least image is among the least sets (checked on reading)
        let orbit = self.reps.partition_point(|&r| r < least);
        ((orbit as u32) << 5) | (((self.stabilisers[orbit] != 1) as u32) << 4) | sym as u32
    }
}

/// The orbits of the sets of one size: their least sets, ascending, and the
/// stabiliser of each (bit `s` for symmetry `s`).
pub type Orbits = (Vec<Bits>, Vec<u16>);

/// Where an indexer finds the orbits of its set tables kept from an earlier
/// run (a database's `index/` files), so that a short-lived reader need not
/// build a whole table (up to about 80 ms for 9 stones) for its few ranks.
pub trait OrbitStore: Send + Sync {
    /// The orbits of the `k`-point sets kept, if any.
    fn load(&self, k: u8) -> Option<Orbits>;
    /// Keeps the orbits of the `k`-point sets, where it can.
    fn save(&self, k: u8, reps: &[Bits], stabilisers: &[u16]);
}

/// The symmetries fixing `set` (bit `s` for symmetry `s`) if no image of `set`
/// is smaller than it, else `None`.
#[inline(always)]
fn stabiliser_if_least(g: &Geometry, set: Bits) -> Option<u16> {
    let mut stab = 0;
    for s in 0..g.symmetry_count() {
        let img = g.transform(s, set);
        if img < set {
            return None;
        }
        if img == set {
            stab |= 1 << s;
        }
    }
    Some(stab)
}

/// A mover set's symmetry class, for ranking many positions with that mover set.
pub struct MoverContext<'a> {
    sym: usize,
    least: Bits,
    base: u64,
    stabiliser: u16,
    free_points: u8,
    g: &'static Geometry,
    _indexer: std::marker::PhantomData<&'a Indexer>,
}

impl MoverContext<'_> {
    /// Whether no symmetry but the identity maps the mover set to itself.
    /// Then positions with this mover set and different opponent sets lie in
    /// different classes, so their ranks differ.
    #[inline]
    pub fn is_asymmetric(&self) -> bool {
        self.stabiliser == 1
    }
}

/// The mover contexts of the mover sets ranked last: the children of one
/// position share their mover set (the parent's opponent set, less a stone a
/// mill removed), so ranking them through this cache computes few contexts.
#[derive(Default)]
pub struct RecentContexts<'a> {
    recent: SmallVec<[(Bits, MoverContext<'a>); RECENT_CONTEXTS]>,
}

/// Most contexts [`RecentContexts`] keeps: more than a position's children need.
const RECENT_CONTEXTS: usize = 16;

impl<'a> RecentContexts<'a> {
    /// [`Indexer::rank`] of `(mover, opponent)`.
    #[inline]
    pub fn rank(&mut self, ix: &'a Indexer, mover: Bits, opponent: Bits) -> Index {
        let k = match self.recent.iter().position(|(m, _)| *m == mover) {
            Some(k) => k,
            None => {
                if self.recent.len() == RECENT_CONTEXTS {
                    self.recent.clear();
                }
                self.recent.push((mover, ix.mover_context(mover)));
                self.recent.len() - 1
            }
        };
        Indexer::rank_with(&self.recent[k].1, opponent)
    }
}

/// Ranks the opponent sets that add one point to a common set, for one mover
/// context: the children of a placement position without removal share their
/// mover set (the parent's opponent) and differ only by the placed stone.
/// [`OneMore::of`] does the work common to a set's extensions, then
/// [`Extension::rank`] ranks each in a few table reads.
pub struct OneMore<'c, 'a> {
    ctx: &'c MoverContext<'a>,
    /// Each point's image under the context's symmetry, as a coordinate
    /// among the points not in the least mover set (meaningless for the
    /// mover's own points, which are never added).
    squeezed: [u8; MAX_ENGINE_POINTS],
}

/// [`OneMore`] for one common set.
pub struct Extension<'c, 'a> {
    ctx: &'c MoverContext<'a>,
    set: Bits,
    squeezed_at: &'c [u8; MAX_ENGINE_POINTS],
    /// The squeezed image of the set.
    image: Bits,
    /// The index of the extensions' block.
    block_start: u64,
}

impl<'c, 'a> OneMore<'c, 'a> {
    /// The ranker for positions with the mover set of `ctx`.
    pub fn new(ctx: &'c MoverContext<'a>) -> OneMore<'c, 'a> {
        let free = ctx.g.all() & !ctx.least;
        let mut squeezed = [0; MAX_ENGINE_POINTS];
        for (p, q) in squeezed.iter_mut().enumerate().take(ctx.g.len()) {
            let img = ctx.g.transform(ctx.sym, 1 << p);
            *q = (free & (img - 1)).count_ones() as u8;
        }
        OneMore { ctx, squeezed }
    }

    /// The extensions of `set` (disjoint from the mover set, at most 8 points).
    #[inline]
    pub fn of(&self, set: Bits) -> Extension<'_, 'a> {
        let ctx = self.ctx;
        let mut image: Bits = 0;
        if ctx.stabiliser == 1 {
            for p in points(set) {
                image |= 1 << self.squeezed[p];
            }
        }
        let block = BINOM[ctx.free_points as usize][set.count_ones() as usize + 1] as u64;
        Extension {
            ctx,
            set,
            squeezed_at: &self.squeezed,
            image,
            block_start: ctx.base * block,
        }
    }
}

impl Extension<'_, '_> {
    /// [`Indexer::rank_with`] of the context and the set plus `point` (not in
    /// either set).
    #[inline]
    pub fn rank(&self, point: usize) -> Index {
        if self.ctx.stabiliser != 1 {
            return Indexer::rank_with(self.ctx, self.set | 1 << point);
        }
        // at most 9 points: three table reads, no branch on the points
        let q = self.squeezed_at[point];
        self.block_start + colex_rank_by_bytes(self.image | 1 << q) as u64
    }
}

/// The number of orbits of `k`-point sets of board `g` under its symmetries,
/// by Burnside's lemma: the average over the symmetries of the sets each one
/// fixes (a fixed set is a union of the symmetry's cycles).
pub fn orbit_count(g: &Geometry, k: usize) -> u64 {
    let n = g.len();
    let fixed: u64 = (0..g.symmetry_count())
        .map(|s| {
            // ways[j]: unions of the cycles seen so far with j points
            let mut ways = [0u64; MAX_ENGINE_POINTS + 1];
            ways[0] = 1;
            let mut seen: Bits = 0;
            for p in 0..n {
                if seen & (1 << p) != 0 {
                    continue;
                }
                let (mut len, mut q) = (0, p);
                while seen & (1 << q) == 0 {
                    seen |= 1 << q;
                    len += 1;
                    q = g.transform(s, 1 << q).trailing_zeros() as usize;
                }
                for j in (len..=n).rev() {
                    ways[j] += ways[j - len];
                }
            }
            ways[k]
        })
        .sum();
    fixed / g.symmetry_count() as u64
}

/// Ranks and unranks positions in any subspace of one board. Tables are
/// built on first use, or up front by [`Indexer::build_tables`].
pub struct Indexer {
    g: &'static Geometry,
    tables: [OnceLock<SetTable>; MAX_STONES as usize + 1],
    store: Option<Box<dyn OrbitStore>>,
}

impl Default for Indexer {
    fn default() -> Indexer {
        Indexer::of(Geometry::nine())
    }
}

impl Indexer {
    /// An indexer of the nine board with no tables built yet.
    pub fn new() -> Indexer {
        Indexer::default()
    }

    /// An indexer of board `g` with no tables built yet.
    pub fn of(g: &'static Geometry) -> Indexer {
        Indexer {
            g,
            tables: Default::default(),
            store: None,
        }
    }

    /// An indexer of board `g` that reads its tables' orbits from `store`
    /// where it kept them, else builds the tables and keeps their orbits
    /// there. A table read so finds each rank by a search of its orbits (a
    /// few dozen operations more than a built table's lookup): for readers
    /// that rank few positions.
    pub fn with_store(g: &'static Geometry, store: Box<dyn OrbitStore>) -> Indexer {
        Indexer {
            store: Some(store),
            ..Indexer::of(g)
        }
    }

    /// The board.
    #[inline(always)]
    pub fn geometry(&self) -> &'static Geometry {
        self.g
    }

    fn table(&self, k: u8) -> &SetTable {
        self.tables[k as usize].get_or_init(|| {
            let kept = (self.store.as_ref())
                .and_then(|store| store.load(k))
                .and_then(|(r, s)| SetTable::from_orbits(self.g, k as usize, r, s));
            kept.unwrap_or_else(|| self.built(k))
        })
    }

    /// The whole table of the `k`-sets, built, its orbits kept in the store.
    fn built(&self, k: u8) -> SetTable {
        let t = SetTable::build(self.g, k as usize);
        if let Some(store) = &self.store {
            store.save(k, &t.reps, &t.stabilisers);
        }
        t
    }

    /// Keeps the orbits of every table built so far in `store`.
    pub fn save_orbits(&self, store: &dyn OrbitStore) {
        for (k, t) in self.tables.iter().enumerate() {
            if let Some(t) = t.get() {
                store.save(k as u8, &t.reps, &t.stabilisers);
            }
        }
    }

    /// Builds now the whole tables of every set size up to `max_stones` (at
    /// most [`MAX_STONES`]), so that no later rank pays for one and each
    /// is a lookup: a table takes up to about 80 ms (9 stones). Tables already
    /// there are kept.
    pub fn build_tables(&self, max_stones: u8) {
        use rayon::prelude::*;
        (0..=max_stones.min(MAX_STONES))
            .into_par_iter()
            .for_each(|k| {
                // whole tables, whatever the store keeps: the fastest ranks
                self.tables[k as usize].get_or_init(|| self.built(k));
            });
    }

    /// Whether the table of `k`-stone sets is built.
    pub fn has_table(&self, k: u8) -> bool {
        self.tables
            .get(k as usize)
            .is_some_and(|t| t.get().is_some())
    }

    /// Number of symmetry classes of mover sets with `k` stones.
    pub fn orbits(&self, k: u8) -> usize {
        self.table(k).reps.len()
    }

    /// The least set of orbit `orbit` of `k`-point sets (the mover set of that
    /// orbit's block of slots).
    pub fn orbit_rep(&self, k: u8, orbit: usize) -> Bits {
        self.table(k).reps[orbit]
    }

    /// The symmetries (bit `s` for symmetry `s`) that fix the least mover set of
    /// orbit `orbit` of `k`-stone sets; `1` (identity only) for most orbits.
    pub fn stabiliser(&self, k: u8, orbit: usize) -> u16 {
        self.table(k).stabilisers[orbit]
    }

    /// Number of slots per mover orbit in `sub`.
    #[inline]
    pub fn block_size(&self, sub: Subspace) -> u64 {
        BINOM[self.g.len() - sub.mover as usize][sub.opponent as usize] as u64
    }

    /// The index range of `sub`: indices are `0..index_size(sub)`.
    pub fn index_size(&self, sub: Subspace) -> u64 {
        self.orbits(sub.mover) as u64 * self.block_size(sub)
    }

    /// [`Indexer::index_size`] on board `g` without building any table: the
    /// orbits of the mover's sets are counted by Burnside's lemma. For
    /// checking file sizes.
    pub fn index_size_of(g: &Geometry, sub: Subspace) -> u64 {
        let block = BINOM[g.len() - sub.mover as usize][sub.opponent as usize] as u64;
        orbit_count(g, sub.mover as usize) * block
    }

    /// The index of the position with mover stones `mover` and opponent stones
    /// `opponent` in the subspace of their sizes (hands do not change the index).
    #[inline]
    pub fn rank(&self, mover: Bits, opponent: Bits) -> Index {
        Self::rank_with(&self.mover_context(mover), opponent)
    }

    /// What ranking needs to know about a mover set; see [`Indexer::rank_with`].
    #[inline]
    pub fn mover_context(&self, mover: Bits) -> MoverContext<'_> {
        let w = mover.count_ones() as u8;
        let t = self.table(w);
        let e = t.entry(mover);
        let sym = (e & 15) as usize;
        let orbit = e >> 5;
        MoverContext {
            sym,
            least: self.g.transform(sym, mover),
            base: orbit as u64,
            stabiliser: if e & 16 != 0 {
                t.stabilisers[orbit as usize]
            } else {
                1
            },
            free_points: self.g.len() as u8 - w,
            g: self.g,
            _indexer: std::marker::PhantomData,
        }
    }

    /// [`Indexer::rank`] of `(mover, opponent)` given the mover's context: ranking
    /// many positions with one mover set costs one table lookup.
    #[inline]
    pub fn rank_with(ctx: &MoverContext<'_>, opponent: Bits) -> Index {
        let mut opp = ctx.g.transform(ctx.sym, opponent);
        if ctx.stabiliser != 1 {
            let base = opp;
            for s in points(ctx.stabiliser as Bits) {
                opp = opp.min(ctx.g.transform(s, base));
            }
        }
        let block = BINOM[ctx.free_points as usize][opponent.count_ones() as usize] as u64;
        ctx.base * block + squeeze_rank(opp, ctx.least) as u64
    }

    /// The index of a position in its subspace.
    pub fn rank_position(&self, pos: &Position) -> (Subspace, Index) {
        (Subspace::of(pos), self.rank(pos.mover, pos.opponent))
    }

    /// The canonical `(mover, opponent)` sets of index `i` of `sub`, or `None` when
    /// the slot is not canonical. `i` must be below `index_size(sub)`.
    pub fn unrank(&self, sub: Subspace, i: Index) -> Option<(Bits, Bits)> {
        let (mover, opp, canonical) = self.slot(sub, i);
        canonical.then_some((mover, opp))
    }

    /// Positions spread evenly over `sub`: those of every `size / n`-th index
    /// slot that holds a canonical position (at most about `n`), in
    /// [`Subspace::position`]'s colours; for samples that touch many blocks.
    pub fn spread(&self, sub: Subspace, n: u64) -> Vec<Position> {
        let size = self.index_size(sub);
        (0..size)
            .step_by((size / n.max(1)).max(1) as usize)
            .filter_map(|i| self.unrank(sub, i))
            .map(|(m, o)| sub.position(m, o))
            .collect()
    }

    /// The `(mover, opponent)` sets that slot `i` of `sub` decodes to, and whether
    /// they are canonical (the least of their symmetric images). `i` must be below
    /// `index_size(sub)`.
    pub fn slot(&self, sub: Subspace, i: Index) -> (Bits, Bits, bool) {
        let (orbit, mover, opp) = self.decode(sub, i);
        let t = self.table(sub.mover);
        (mover, opp, self.canonical_in_orbit(t, orbit, opp))
    }

    /// The `(mover, opponent)` sets of slot `i` of `sub` ([`Indexer::slot`]
    /// without the check whether they are canonical): for slots known to
    /// hold a position.
    #[inline]
    pub fn sets(&self, sub: Subspace, i: Index) -> (Bits, Bits) {
        let (_, mover, opp) = self.decode(sub, i);
        (mover, opp)
    }

    /// The mover's orbit and the sets of slot `i` of `sub`.
    #[inline]
    fn decode(&self, sub: Subspace, i: Index) -> (usize, Bits, Bits) {
        let t = self.table(sub.mover);
        let block = self.block_size(sub);
        let orbit = (i / block) as usize;
        let mover = t.reps[orbit];
        let free = self.g.len() - sub.mover as usize;
        let squeezed = colex_unrank_below((i % block) as u32, sub.opponent as usize, free);
        (orbit, mover, unsqueeze(squeezed, mover))
    }

    fn canonical_in_orbit(&self, t: &SetTable, orbit: usize, opp: Bits) -> bool {
        let stab = t.stabilisers[orbit];
        stab == 1 || points(stab as Bits).all(|s| self.g.transform(s, opp) >= opp)
    }

    /// Calls `f(index, mover, opponent)` for the slots of `range` in `sub`
    /// for which `want(index)` holds, in index order: the slots' sets follow
    /// one from the other, so that where many slots of a range are wanted
    /// this costs less than [`Indexer::sets`] for each.
    pub fn for_each_slot_where(
        &self,
        sub: Subspace,
        range: std::ops::Range<Index>,
        mut want: impl FnMut(Index) -> bool,
        mut f: impl FnMut(Index, Bits, Bits),
    ) {
        if range.is_empty() {
            return;
        }
        let t = self.table(sub.mover);
        let block = self.block_size(sub);
        let (k, free) = (sub.opponent as usize, self.g.len() - sub.mover as usize);
        let mut orbit = (range.start / block) as usize;
        let mut r = range.start % block;
        let mut squeezed = colex_unrank_below(r as u32, k, free);
        for i in range {
            if want(i) {
                let mover = t.reps[orbit];
                f(i, mover, unsqueeze(squeezed, mover));
            }
            r += 1;
            if r == block {
                (r, orbit, squeezed) = (0, orbit + 1, (1 << k) - 1);
            } else if k > 0 {
                squeezed = next_same_size(squeezed);
            }
        }
    }

    /// Calls `f(index, mover, opponent)` for every canonical position of orbit
    /// `orbit` of `sub`, in index order.
    pub fn for_each_in_orbit(
        &self,
        sub: Subspace,
        orbit: usize,
        mut f: impl FnMut(Index, Bits, Bits),
    ) {
        let t = self.table(sub.mover);
        let block = self.block_size(sub);
        let mover = t.reps[orbit];
        let check = t.stabilisers[orbit] != 1;
        let mut squeezed: Bits = (1 << sub.opponent) - 1;
        let base = orbit as u64 * block;
        for r in 0..block {
            let opp = unsqueeze(squeezed, mover);
            if !check || self.canonical_in_orbit(t, orbit, opp) {
                f(base + r, mover, opp);
            }
            if sub.opponent > 0 {
                squeezed = next_same_size(squeezed);
            }
        }
    }

    /// Calls `f(mover, opponent)` once for every symmetry class of `sub` whose
    /// opponent set lies in orbit `orbit` of the `sub.opponent`-point sets
    /// (`0..orbits(sub.opponent)`): the opponent set is the orbit's least set,
    /// the mover set the least of its images under that set's own symmetries.
    /// Over all orbits, every class of `sub` once; [`Indexer::rank`] gives
    /// its slot. After a move the opponent moves, so the children of one
    /// call's positions have few mover sets (the opponent set, or that set
    /// less a removed stone) and lie in few blocks of their tables.
    pub fn for_each_by_opponent(&self, sub: Subspace, orbit: usize, mut f: impl FnMut(Bits, Bits)) {
        let opponent = self.orbit_rep(sub.opponent, orbit);
        let stabiliser = self.stabiliser(sub.opponent, orbit);
        let mut squeezed: Bits = (1 << sub.mover) - 1;
        for _ in 0..self.by_opponent_slots(sub) {
            let mover = unsqueeze(squeezed, opponent);
            if sub.mover > 0 {
                squeezed = next_same_size(squeezed);
            }
            if stabiliser == 1
                || points(stabiliser as Bits).all(|s| self.g.transform(s, mover) >= mover)
            {
                f(mover, opponent);
            }
        }
    }

    /// The mover sets [`Indexer::for_each_by_opponent`] considers for one
    /// opponent set of `sub` (every placement of the mover's stones on the
    /// other points, before the symmetry test).
    pub fn by_opponent_slots(&self, sub: Subspace) -> u64 {
        BINOM[self.g.len() - sub.opponent as usize][sub.mover as usize] as u64
    }

    /// Number of canonical positions (symmetry classes) in `sub`.
    pub fn classes(&self, sub: Subspace) -> u64 {
        let t = self.table(sub.mover);
        let block = self.block_size(sub);
        let mut total = 0;
        for orbit in 0..t.reps.len() {
            if t.stabilisers[orbit] == 1 {
                total += block;
            } else {
                let mut n = 0;
                self.for_each_in_orbit(sub, orbit, |_, _, _| n += 1);
                total += n;
            }
        }
        total
    }

    /// Number of symmetric images of the canonical position `(mover, opponent)`
    /// (the symmetries' count divided by the size of its stabiliser).
    pub fn images(&self, mover: Bits, opponent: Bits) -> u32 {
        let g = self.g;
        let fixed = (0..g.symmetry_count())
            .filter(|&s| g.transform(s, mover) == mover && g.transform(s, opponent) == opponent)
            .count();
        (g.symmetry_count() / fixed) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{ALL, POINTS, SYMMETRY_COUNT, transform};
    use crate::rules::variant::STONES_PER_SIDE;

    /// A store in memory, for the tests.
    #[derive(Default)]
    struct Kept(std::sync::Mutex<std::collections::HashMap<u8, Orbits>>);

    impl OrbitStore for std::sync::Arc<Kept> {
        fn load(&self, k: u8) -> Option<Orbits> {
            self.0.lock().unwrap().get(&k).cloned()
        }
        fn save(&self, k: u8, reps: &[Bits], stabilisers: &[u16]) {
            self.0
                .lock()
                .unwrap()
                .insert(k, (reps.to_vec(), stabilisers.to_vec()));
        }
    }

    /// Tables read from kept orbits give every set the entry a built table
    /// gives it; damaged orbits are not used (the table is built again).
    #[test]
    fn kept_orbits_rank_as_built_tables_and_damaged_ones_are_not_used() {
        let kept = std::sync::Arc::new(Kept::default());
        let built = Indexer::with_store(Geometry::nine(), Box::new(kept.clone()));
        built.build_tables(STONES_PER_SIDE);
        assert_eq!(kept.0.lock().unwrap().len(), STONES_PER_SIDE as usize + 1);
        let read = Indexer::with_store(Geometry::nine(), Box::new(kept.clone()));
        for k in 0..=STONES_PER_SIDE {
            let (b, r) = (built.table(k), read.table(k));
            assert!(r.entries.is_empty(), "{k}: read, not built");
            let mut set = colex_unrank(0, k as usize);
            for i in 0..BINOM[POINTS][k as usize] {
                assert_eq!(r.entry(set), b.entries[i as usize], "{k}-set {set:#x}");
                if k > 0 {
                    set = next_same_size(set);
                }
            }
        }
        let (reps, stabs) = kept.load(6).unwrap();
        let damaged: [(&str, Vec<Bits>, Vec<u16>); 4] = [
            ("one orbit missing", reps[1..].to_vec(), stabs[1..].to_vec()),
            (
                "two swapped",
                [&[reps[1], reps[0]], &reps[2..]].concat(),
                stabs.clone(),
            ),
            (
                "a stabiliser wrong",
                reps.clone(),
                [&[stabs[0] ^ 2], &stabs[1..]].concat(),
            ),
            (
                "a set not least",
                [&[reps[0] << 1], &reps[1..]].concat(),
                stabs.clone(),
            ),
        ];
        for (what, r, s) in damaged {
            assert!(
                SetTable::from_orbits(Geometry::nine(), 6, r, s).is_none(),
                "{what}"
            );
        }
        assert!(SetTable::from_orbits(Geometry::nine(), 6, reps, stabs).is_some());
    }

    /// The set tables the plain way: every image of every set.
    fn naive_table(k: usize) -> (Vec<u32>, Vec<Bits>, Vec<u16>) {
        let n = BINOM[POINTS][k] as usize;
        let (mut entries, mut reps, mut stabs): (Vec<u32>, Vec<Bits>, Vec<u16>) =
            (vec![], vec![], vec![]);
        let mut set = colex_unrank(0, k);
        for r in 0..n {
            let (mut least, mut sym, mut stab) = (set, 0, 0u16);
            for s in 0..SYMMETRY_COUNT {
                let img = transform(s, set);
                if img < least {
                    (least, sym) = (img, s);
                }
                if img == set {
                    stab |= 1 << s;
                }
            }
            let entry = if least == set {
                reps.push(set);
                stabs.push(stab);
                ((reps.len() as u32 - 1) << 5) | (((stab != 1) as u32) << 4)
            } else {
                (entries[colex_rank(least) as usize] & !15) | sym as u32
            };
            entries.push(entry);
            if k > 0 && r + 1 < n {
                set = next_same_size(set);
            }
        }
        (entries, reps, stabs)
    }

    #[test]
    fn set_tables_equal_the_plain_construction() {
        for k in 0..=9 {
            let t = SetTable::build(Geometry::nine(), k);
            let (entries, reps, stabs) = naive_table(k);
            assert!(t.entries == entries, "entries of {k}-sets");
            assert_eq!(t.reps, reps, "{k}");
            assert_eq!(t.stabilisers, stabs, "{k}");
        }
    }

    /// [`OneMore`] against [`Indexer::rank_with`] on random mover and
    /// opponent sets of every size, stabilised mover sets included.
    #[test]
    fn one_more_ranks_as_rank_with() {
        let ix = Indexer::new();
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut stabilised = 0;
        for _ in 0..4000 {
            let m = (next() % 10) as usize;
            let mover = colex_unrank((next() % BINOM[POINTS][m] as u64) as u32, m);
            let o = (next() % 9) as usize;
            let free = ALL & !mover;
            if (free.count_ones() as usize) < o + 1 {
                continue;
            }
            let pick = colex_unrank(
                (next() % BINOM[free.count_ones() as usize][o] as u64) as u32,
                o,
            );
            let set = unsqueeze(pick, mover);
            let ctx = ix.mover_context(mover);
            stabilised += (ctx.stabiliser != 1) as u32;
            let more = OneMore::new(&ctx);
            let ext = more.of(set);
            for p in points(free & !set) {
                assert_eq!(
                    ext.rank(p),
                    Indexer::rank_with(&ctx, set | 1 << p),
                    "mover {mover:#x}, set {set:#x}, point {p}"
                );
            }
        }
        assert!(stabilised > 0, "no stabilised mover set drawn");
    }

    #[test]
    fn orbit_counts_by_burnside_equal_the_tables() {
        let ix = Indexer::new();
        for k in 0..=STONES_PER_SIDE {
            assert_eq!(
                orbit_count(Geometry::nine(), k as usize),
                ix.orbits(k) as u64,
                "{k}-sets"
            );
        }
    }

    #[test]
    fn by_opponent_visits_every_canonical_slot_once() {
        let ix = Indexer::new();
        for (m, o) in [(3, 3), (4, 3), (2, 5), (0, 2), (3, 0), (1, 1)] {
            let sub = Subspace {
                mover: m,
                opponent: o,
                mover_hand: 9 - m,
                opponent_hand: 9 - o,
            };
            let mut canonical = vec![];
            for orbit in 0..ix.orbits(m) {
                ix.for_each_in_orbit(sub, orbit, |i, _, _| canonical.push(i));
            }
            let mut visited = vec![];
            for orbit in 0..ix.orbits(o) {
                ix.for_each_by_opponent(sub, orbit, |mover, opponent| {
                    assert_eq!(
                        (mover.count_ones(), opponent.count_ones()),
                        (m as u32, o as u32)
                    );
                    assert_eq!(mover & opponent, 0);
                    visited.push(ix.rank(mover, opponent));
                });
            }
            visited.sort_unstable();
            assert_eq!(visited, canonical, "{sub}");
        }
    }

    #[test]
    fn three_three_has_169626_classes() {
        let ix = Indexer::new();
        assert_eq!(ix.classes(Subspace::movement(3, 3)), 169_626);
    }
}
