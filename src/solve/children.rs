//! A position's value from its children's values in known tables, by forward
//! move generation: the computation behind `verify` and the plies of files
//! that store none (for the solver's removal tables and `verify`). A probe's
//! one-ply search does the same over the database's decoded blocks
//! ([`crate::answer::query`]); both reduce the children by [`Value::try_from_children`].

use crate::index::{Index, Indexer, RecentContexts, Subspace};
use crate::rules::moves::{self, Move};
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::solve::counter;
use crate::solve::known::{Entry, Known, SolveError};
use crate::solve::value::{Cell, Value};
use rayon::prelude::*;

/// The distance-table value under the no-removal rule with move limit `limit`
/// ([`crate::solve::counter`]) of `pos`, from the distance-table values `eval` gives
/// each of its children: after a removing move the counter starts again, so
/// that child counts as a win, loss or draw at 0 plies; a distance beyond the
/// limit is none (a draw). `None` when the plies overflow.
pub fn distance_from_children<E>(
    pos: &Position,
    variant: Variant,
    limit: u16,
    buf: &mut Vec<Move>,
    mut eval: impl FnMut(&Position) -> Result<Value, E>,
) -> Result<Option<Value>, E> {
    let v = from_moves(pos, variant, buf, |child, mv| {
        Ok(rule_child(eval(child)?, mv))
    })?;
    Ok(v.map(|v| counter::cut(v, limit)))
}

/// The distance-table value `v` of the child reached by `mv`, as its parent
/// counts it: after a removing move the counter starts again.
pub(crate) fn rule_child(v: Value, mv: Move) -> Value {
    match mv.remove {
        Some(_) => counter::after_removal(v),
        None => v,
    }
}

/// [`Value::from_children`] of the values `eval` gives each move's child.
fn from_moves<E>(
    pos: &Position,
    variant: Variant,
    buf: &mut Vec<Move>,
    mut eval: impl FnMut(&Position, Move) -> Result<Value, E>,
) -> Result<Option<Value>, E> {
    buf.clear();
    moves::generate(pos, variant, buf);
    Value::try_from_children(buf.iter().map(|&mv| eval(&moves::apply(pos, mv), mv)))
}

/// The value of `pos` from its children's values in `known`.
pub fn value_from_known<'k>(
    ix: &'k Indexer,
    variant: Variant,
    known: &'k Known,
    pos: &Position,
    scratch: &mut Scratch<'k>,
) -> Result<Value, SolveError> {
    from_known(ix, variant, known, pos, scratch, |v, _| v)?
        .ok_or(SolveError::PliesOverflow(Subspace::of(pos)))
}

/// The distance-table value under the no-removal rule with move limit
/// `limit` of `pos` ([`distance_from_children`]), from its children's
/// distance tables in `known`.
pub fn distance_from_known<'k>(
    ix: &'k Indexer,
    variant: Variant,
    known: &'k Known,
    pos: &Position,
    limit: u16,
    scratch: &mut Scratch<'k>,
) -> Result<Value, SolveError> {
    from_known(ix, variant, known, pos, scratch, rule_child)?
        .map(|v| counter::cut(v, limit))
        .ok_or(SolveError::PliesOverflow(Subspace::of(pos)))
}

/// Reusable buffers for the children of one position after another.
#[derive(Default)]
pub struct Scratch<'k> {
    moves: Vec<Move>,
    entries: Vec<Entry<'k>>,
    contexts: RecentContexts<'k>,
}

/// [`from_moves`] with the children's values from `known`, turned by `adjust`
/// (given the move): every child's entry is located first, then all are read,
/// so that the reads of large tables, random in memory, overlap.
fn from_known<'k>(
    ix: &'k Indexer,
    variant: Variant,
    known: &'k Known,
    pos: &Position,
    scratch: &mut Scratch<'k>,
    adjust: impl Fn(Value, Move) -> Value,
) -> Result<Option<Value>, SolveError> {
    let Scratch {
        moves,
        entries,
        contexts,
    } = scratch;
    moves.clear();
    moves::generate(pos, variant, moves);
    entries.clear();
    for &mv in moves.iter() {
        let child = moves::apply(pos, mv);
        entries.push(known.entry_ranked(&child, |c| contexts.rank(ix, c.mover, c.opponent))?);
    }
    Value::try_from_children(
        entries
            .iter()
            .zip(moves.iter())
            .map(|(e, &mv)| Ok(adjust(e.value()?, mv))),
    )
}

/// Completes `sub`'s table read from a file that stores no plies: every
/// [`Cell::WON`] and [`Cell::LOST`] gets its exact value from its children in
/// `known` (the colour swap and the subspace removals lead into, whose files
/// store plies). Fails if a stored outcome disagrees with the children.
pub fn derive_plies(
    ix: &Indexer,
    variant: Variant,
    sub: Subspace,
    mut cells: Vec<Cell>,
    known: &Known,
) -> Result<Vec<Cell>, SolveError> {
    let block = ix.block_size(sub) as usize;
    cells.par_chunks_mut(block).enumerate().try_for_each_init(
        Scratch::default,
        |scratch, (orbit, chunk)| {
            for (j, c) in chunk.iter_mut().enumerate() {
                if !c.lacks_plies() {
                    continue;
                }
                let i = (orbit * block + j) as Index;
                let (m, o) = ix.sets(sub, i);
                let v = value_from_known(ix, variant, known, &sub.position(m, o), scratch)?;
                if !c.agrees_with(v) {
                    return Err(SolveError::Inconsistent(sub, i));
                }
                *c = Cell::from_value(v);
            }
            Ok(())
        },
    )?;
    Ok(cells)
}

/// The complete table of the no-removal rule with move limit `limit` of `sub`,
/// whose file stores counts only: every entry the game's table `game`
/// decides gets its distance from its children's rule tables in `known`
/// ([`distance_from_children`]; their files store distances); the game's
/// draws are the rule's. Fails where the rule would win what the game does
/// not.
pub fn derive_distances(
    ix: &Indexer,
    variant: Variant,
    sub: Subspace,
    game: &[Cell],
    limit: u16,
    known: &Known,
) -> Result<Vec<Cell>, SolveError> {
    let block = ix.block_size(sub) as usize;
    let mut cells = game.to_vec();
    cells.par_chunks_mut(block).enumerate().try_for_each_init(
        Scratch::default,
        |scratch, (orbit, chunk)| {
            for (j, c) in chunk.iter_mut().enumerate() {
                let code = c.wdl_code();
                if code < 2 {
                    continue;
                }
                let i = (orbit * block + j) as Index;
                let (m, o) = ix.sets(sub, i);
                let pos = sub.position(m, o);
                let v = distance_from_known(ix, variant, known, &pos, limit, scratch)?;
                if !counter::fits_game(v, code) {
                    return Err(SolveError::Inconsistent(sub, i));
                }
                *c = Cell::from_value(v);
            }
            Ok(())
        },
    )?;
    Ok(cells)
}
