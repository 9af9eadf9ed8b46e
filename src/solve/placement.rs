//! Solver for the placement phase: the sectors where a side has stones in hand.
//!
//! Every placement takes a stone from the hand of the side to move, so no
//! placement position can recur: the sectors form layers by the stones left to
//! place, and each position's value follows in one forward pass from its
//! children, in the sectors of the layer below (or the movement phase, once the
//! last stone is placed). A sector is solved when the tables its moves lead into
//! are known: the one of a placement without removal ([`Subspace::negate`]) and
//! the one of a placement that closes a mill ([`Subspace::after_removal`]).
//!
//! Positions are visited grouped by the opponent's set, one symmetry class of it
//! at a time: after a placement the opponent moves, so the children of a group
//! (without removal) all lie in the one block of the child table that belongs
//! to that set, and those with a removal in a few blocks more. The children of
//! one position differ only by the placed stone, so they are ranked together
//! ([`OneMore`]): a few table reads each. The lookups stay in cache; the
//! group's values are written after it, each at its canonical slot, far apart
//! in the sector's table. A solve of the rule's distances reads the game's
//! outcomes of the group's positions (the game's draws are the rule's) from
//! slots as far apart, in a copy of 2 bits a slot, each requested a few
//! positions ahead; the draws are in the rule's table from the start. `verify`
//! checks the result the plain way, by the engine's move generation.

use crate::index::{Extension, Index, Indexer, MoverContext, OneMore, Subspace};
use crate::rules::geometry::{Bits, Geometry, points};
use crate::rules::moves::removable;
use crate::solve::known::count_values;
use crate::solve::known::{Entry, Known, PREFETCH_AHEAD, SolveError, prefetch};
use crate::solve::solver::{Layer, Progress, Solved};
use crate::solve::value::{BestChild, Cell, MAX_PLIES, Value, WDL_PER_WORD, wdl_code_at};
use rayon::prelude::*;
use std::sync::atomic::AtomicU16;
use std::sync::atomic::Ordering::Relaxed;

/// The tables the moves of one sector lead into, in one layer.
struct ChildTables<'a> {
    layer: Layer<'a>,
    plain: (Subspace, &'a [Cell]),
    /// `None` when a removal leaves the opponent below 3 stones (a win).
    removal: Option<(Subspace, &'a [Cell])>,
    /// The game's table of the sector, settling the rule's draws.
    seed: Option<&'a [Cell]>,
}

impl<'a> ChildTables<'a> {
    fn new(sub: Subspace, layer: Layer<'a>) -> Result<ChildTables<'a>, SolveError> {
        let table = |s: Subspace| layer.children.table(s).ok_or(SolveError::MissingTable(s));
        let plain = sub.negate();
        Ok(ChildTables {
            layer,
            plain: (plain, table(plain)?),
            removal: match sub.after_removal() {
                Some(r) => Some((r, table(r)?)),
                None => None,
            },
            seed: layer.seed(sub)?,
        })
    }
}

/// The entry of a child at `index` of its table; its cache line is
/// requested at once ([`prefetch`]), so that the loads of a position's
/// children overlap.
fn locate<'a>((sub, table): (Subspace, &'a [Cell]), index: Index) -> Result<Entry<'a>, SolveError> {
    let cell = table
        .get(index as usize)
        .ok_or(SolveError::UndecidedEntry(sub, index))?;
    prefetch(cell);
    Ok(Entry::Cell { sub, index, cell })
}

/// The work of solving `sub`, in the units [`solve_sector`] reports to
/// [`Progress::initialised`]: the positions it visits.
pub fn work(ix: &Indexer, sub: Subspace) -> u64 {
    ix.orbits(sub.opponent) as u64 * ix.by_opponent_slots(sub)
}

/// Solves the game's values of the placement sector `sub` from the tables of
/// the sectors its moves lead into, which must be in `known` (complete, plies
/// included).
pub fn solve_sector(
    ix: &Indexer,
    sub: Subspace,
    known: &Known,
    progress: &dyn Progress,
) -> Result<Solved, SolveError> {
    solve_sector_layer(ix, sub, Layer::game(known), progress)
}

/// Solves the table of `layer` of the placement sector `sub`. The tables the
/// moves lead into must be in the layer's children.
pub fn solve_sector_layer(
    ix: &Indexer,
    sub: Subspace,
    layer: Layer<'_>,
    progress: &dyn Progress,
) -> Result<Solved, SolveError> {
    assert!(!sub.is_movement(), "{sub} is a movement subspace");
    let children = ChildTables::new(sub, layer)?;
    // the game's draws are the rule's: they are in place from the start, and
    // only the other positions' values are stored as they are solved
    let cells = match children.seed {
        Some(seed) => Cell::draws_atomic(seed),
        None => Cell::unused_atomic(ix.index_size(sub)),
    };
    // the game's outcomes, 2 bits a slot: read far apart, a table an eighth
    // of the cells' size
    let outcomes: Option<Vec<u64>> = children
        .seed
        .map(|seed| seed.par_chunks(WDL_PER_WORD).map(Cell::pack_wdl).collect());
    (0..ix.orbits(sub.opponent))
        .into_par_iter()
        .try_for_each_init(
            || (Vec::with_capacity(64), vec![], vec![]),
            |(entries, group, results), orbit| -> Result<(), SolveError> {
                let opponent = ix.orbit_rep(sub.opponent, orbit);
                // the children's mover is the opponent: one context for every
                // placement without removal, one per stone a mill may remove
                let plain = ix.mover_context(opponent);
                let plain = OneMore::new(&plain);
                let removed: Vec<MoverContext<'_>> = if opponent == 0 {
                    vec![]
                } else {
                    points(removable(ix.geometry(), opponent))
                        .map(|r| ix.mover_context(opponent & !(1 << r)))
                        .collect()
                };
                let removals: Vec<OneMore<'_, '_>> = removed.iter().map(OneMore::new).collect();
                let mut scratch = Scratch {
                    entries,
                    removals: Vec::with_capacity(removals.len()),
                };
                group.clear();
                ix.for_each_by_opponent(sub, orbit, |mover, opponent| {
                    group.push((ix.rank(mover, opponent) as usize, mover));
                });
                results.clear();
                for (k, &(i, mover)) in group.iter().enumerate() {
                    // the game's outcomes of the group lie far apart, like
                    // its slots: each is requested a few positions ahead
                    let game = outcomes.as_deref().map(|o| {
                        if let Some(&(ahead, _)) = group.get(k + PREFETCH_AHEAD) {
                            prefetch(&o[ahead / WDL_PER_WORD]);
                        }
                        wdl_code_at(o, i as u64)
                    });
                    if game == Some(Cell::DRAW.wdl_code()) {
                        continue;
                    }
                    let ranks = Ranks {
                        g: ix.geometry(),
                        plain: plain.of(mover),
                        removals: &removals,
                    };
                    let game_wins = game == Some(Cell::WON.wdl_code());
                    let pos = (mover, opponent);
                    let v = value(&children, sub, pos, game_wins, &ranks, &mut scratch)?;
                    results.push((i, Cell::from_value(v).0));
                }
                store_scattered(&cells, results);
                progress.initialised(ix.by_opponent_slots(sub));
                Ok(())
            },
        )?;
    let cells = Cell::from_atomic(cells);
    let counts = count_values(ix, sub, &cells);
    Ok(Solved {
        subspace: sub,
        cells,
        counts,
    })
}

/// Stores each `(slot, cell)` of `results`. The slots of a group's
/// positions lie far apart, in as many blocks as there are positions: writing
/// them after the group, each cache line requested a few stores ahead, keeps
/// the children's blocks in cache while the group is solved.
fn store_scattered(cells: &[AtomicU16], results: &[(usize, u16)]) {
    for (k, &(i, c)) in results.iter().enumerate() {
        if let Some(&(ahead, _)) = results.get(k + PREFETCH_AHEAD) {
            prefetch(&cells[ahead]);
        }
        cells[i].store(c, Relaxed);
    }
}

/// How the children of one position are ranked: `plain` those without
/// removal, `removals` (one per stone a mill may remove) the others.
struct Ranks<'r, 'c, 'a> {
    g: &'static Geometry,
    plain: Extension<'r, 'a>,
    removals: &'r [OneMore<'c, 'a>],
}

/// Reusable buffers of [`value`].
struct Scratch<'s, 'r, 't> {
    /// The children's entries, and whether each came by a removal.
    entries: &'s mut Vec<(Entry<'t>, bool)>,
    /// `removals` of [`Ranks`], for the position's set.
    removals: Vec<Extension<'r, 'r>>,
}

/// The value, in the layer of `t`, of the position `(mover, opponent)` of
/// sector `sub`, from its children, ranked by `ranks`: every child is located
/// first, then all are read.
///
/// A placement that closes a mill wins at once when the opponent is left
/// with 2 stones. Under the no-removal rule a removal starts the counter
/// again, so one that leaves the opponent lost under the rule wins in 1 ply,
/// the fastest a position can: where the game says the position wins
/// (`game_wins`), the removals are read first, and the other children only
/// if none of them is such a loss.
fn value<'t, 'r>(
    t: &ChildTables<'t>,
    sub: Subspace,
    (mover, opponent): (Bits, Bits),
    game_wins: bool,
    ranks: &Ranks<'r, '_, '_>,
    scratch: &mut Scratch<'_, 'r, 't>,
) -> Result<Value, SolveError> {
    let entries = &mut *scratch.entries;
    entries.clear();
    scratch.removals.clear();
    let g = ranks.g;
    let empty = !(mover | opponent) & g.all();
    let (mills, plain) = if opponent == 0 {
        (0, empty)
    } else {
        let mills = points(empty)
            .filter(|&to| g.in_mill(mover | (1 << to), to))
            .fold(0, |m, to| m | (1 << to));
        (mills, empty & !mills)
    };
    if mills != 0 {
        let Some(table) = t.removal else {
            // the opponent is left with 2 stones
            return Ok(t.layer.cut(Value::Win(1)));
        };
        scratch
            .removals
            .extend(ranks.removals.iter().map(|r| r.of(mover)));
        for to in points(mills) {
            for r in &scratch.removals {
                entries.push((locate(table, r.rank(to))?, true));
            }
        }
        if game_wins
            && t.layer.removal_keep() == 0
            && entries
                .iter()
                .any(|(e, _)| e.cell().wdl_code() == Cell::LOST.wdl_code())
        {
            return Ok(Value::Win(1));
        }
    }
    for to in points(plain) {
        entries.push((locate(t.plain, ranks.plain.rank(to))?, false));
    }
    let mut best = BestChild::default();
    let keep = t.layer.removal_keep();
    for &(e, removal) in entries.iter() {
        best.add(e.cell(), if removal { keep } else { MAX_PLIES });
    }
    let v = match best.value() {
        Some(v) => v,
        // a child without a value: the first such names the error
        None => Value::try_from_children(entries.iter().map(|&(e, removal)| {
            let v = e.value()?;
            Ok(if removal { t.layer.removal_value(v) } else { v })
        }))?,
    };
    let v = v.ok_or(SolveError::PliesOverflow(sub))?;
    Ok(t.layer.cut(v))
}
