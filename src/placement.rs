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
//! to that set, and those with a removal in a few blocks more. The lookups stay
//! in cache; each position is written once, at its canonical slot. `verify`
//! checks the result the plain way, by the engine's move generation.

use crate::geometry::{ALL, Bits, in_mill, points};
use crate::index::{Indexer, MoverContext, Subspace};
use crate::moves::removable;
use crate::solver::{Known, Layer, Progress, SolveError, Solved, count_values};
use crate::value::{Cell, Value};
use rayon::prelude::*;
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

/// The value of a child from its table, at the index `ctx` ranks its opponent
/// set to.
fn lookup(
    (sub, table): (Subspace, &[Cell]),
    ctx: &MoverContext<'_>,
    opponent: Bits,
) -> Result<Value, SolveError> {
    let i = Indexer::rank_with(ctx, opponent);
    table
        .get(i as usize)
        .and_then(|c| c.value())
        .ok_or(SolveError::UndecidedEntry(sub, i))
}

/// The work of solving `sub`, in the units [`solve_sector`] reports to
/// [`Progress::initialised`]: the positions it visits.
pub fn work(ix: &Indexer, sub: Subspace) -> u64 {
    ix.orbits(sub.opponent) as u64 * Indexer::by_opponent_slots(sub)
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
    let cells = Cell::unused_atomic(ix.index_size(sub));
    (0..ix.orbits(sub.opponent))
        .into_par_iter()
        .try_for_each_init(
            || Vec::with_capacity(64),
            |values, orbit| -> Result<(), SolveError> {
                let opponent = ix.orbit_rep(sub.opponent, orbit);
                // the children's mover is the opponent: one context for every
                // placement without removal, one per stone a mill may remove
                let plain = ix.mover_context(opponent);
                let removals: Vec<MoverContext<'_>> = if opponent == 0 {
                    vec![]
                } else {
                    points(removable(opponent))
                        .map(|r| ix.mover_context(opponent & !(1 << r)))
                        .collect()
                };
                let mut result = Ok(());
                ix.for_each_by_opponent(sub, orbit, |mover, opponent| {
                    if result.is_err() {
                        return;
                    }
                    let i = ix.rank(mover, opponent) as usize;
                    let v = if children.seed.is_some_and(|s| s[i] == Cell::DRAW) {
                        Ok(Value::Draw)
                    } else {
                        value(&children, sub, (mover, opponent), &plain, &removals, values)
                    };
                    match v {
                        Ok(v) => cells[i].store(Cell::from_value(v).0, Relaxed),
                        Err(e) => result = Err(e),
                    }
                });
                progress.initialised(Indexer::by_opponent_slots(sub));
                result
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

/// The value, in the layer of `t`, of the position `(mover, opponent)` of
/// sector `sub`, from its children (`plain` and `removals` rank them;
/// `values` is scratch).
fn value(
    t: &ChildTables<'_>,
    sub: Subspace,
    (mover, opponent): (Bits, Bits),
    plain: &MoverContext<'_>,
    removals: &[MoverContext<'_>],
    values: &mut Vec<Value>,
) -> Result<Value, SolveError> {
    values.clear();
    let empty = !(mover | opponent) & ALL;
    for to in points(empty) {
        let after = mover | (1 << to);
        if opponent != 0 && in_mill(after, to) {
            for ctx in removals {
                let v = match t.removal {
                    Some(table) => lookup(table, ctx, after)?,
                    None => Value::Loss(0),
                };
                values.push(t.layer.removal_value(v));
            }
        } else {
            values.push(lookup(t.plain, plain, after)?);
        }
    }
    let v = Value::from_children(values.iter().copied()).ok_or(SolveError::PliesOverflow(sub))?;
    Ok(t.layer.cut(v))
}
