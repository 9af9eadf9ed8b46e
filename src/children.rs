//! A position's value from its children's values, by forward move generation:
//! the one computation behind `verify`, the plies of files that store none
//! (the solver's removal tables, `verify`, and the probe's one-ply search).

use crate::index::{Index, Indexer, Subspace};
use crate::moves::{self, Move};
use crate::position::Position;
use crate::rules::Rules;
use crate::solver::{Known, SolveError};
use crate::value::{Cell, Value};
use rayon::prelude::*;

/// The value of `pos` from the values `eval` gives each of its children, or
/// `None` when the plies overflow ([`Value::from_children`]). `buf` is a reusable
/// move buffer.
pub fn value_from_children<E>(
    pos: &Position,
    rules: Rules,
    buf: &mut Vec<Move>,
    mut eval: impl FnMut(&Position) -> Result<Value, E>,
) -> Result<Option<Value>, E> {
    buf.clear();
    moves::generate(pos, rules, buf);
    let children = buf
        .iter()
        .map(|&mv| eval(&moves::apply(pos, mv)))
        .collect::<Result<Vec<Value>, E>>()?;
    Ok(Value::from_children(children))
}

/// The value of movement position `pos` from its children's values in `known`.
pub fn value_from_known(
    ix: &Indexer,
    rules: Rules,
    known: &Known,
    pos: &Position,
    buf: &mut Vec<Move>,
) -> Result<Value, SolveError> {
    value_from_children(pos, rules, buf, |child| known.value(ix, child))?
        .ok_or(SolveError::PliesOverflow(Subspace::of(pos)))
}

/// Completes `sub`'s table read from a file that stores no plies: every
/// [`Cell::WON`] and [`Cell::LOST`] gets its exact value from its children in
/// `known` (the colour swap and the subspace removals lead into, whose files
/// store plies). Fails if a stored outcome disagrees with the children.
pub fn derive_plies(
    ix: &Indexer,
    rules: Rules,
    sub: Subspace,
    mut cells: Vec<Cell>,
    known: &Known,
) -> Result<Vec<Cell>, SolveError> {
    let block = Indexer::block_size(sub) as usize;
    cells.par_chunks_mut(block).enumerate().try_for_each_init(
        Vec::new,
        |buf, (orbit, chunk)| {
            for (j, c) in chunk.iter_mut().enumerate() {
                if !c.lacks_plies() {
                    continue;
                }
                let i = (orbit * block + j) as Index;
                let (m, o, _) = ix.slot(sub, i);
                let v = value_from_known(ix, rules, known, &sub.position(m, o), buf)?;
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
