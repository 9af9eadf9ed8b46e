//! Solver for the placement phase: the sectors where a side has stones in hand.
//!
//! Every placement takes a stone from the hand of the side to move, so no
//! placement position can recur: the sectors form layers by the stones left to
//! place, and each position's value follows in one forward pass from its
//! children, in the sectors of the layer below (or the movement phase, once the
//! last stone is placed). A sector is solved when the tables its moves lead into
//! are known: the one of a placement without removal ([`Subspace::negate`]) and
//! the one of a placement that closes a mill ([`Subspace::after_removal`]).

use crate::index::{Index, Indexer, Subspace};
use crate::moves::{self, Move};
use crate::position::Position;
use crate::rules::Rules;
use crate::solver::{Known, Progress, SolveError, Solved, count_values};
use crate::value::{Cell, Value};
use rayon::prelude::*;

/// The tables the moves of one sector lead into.
struct ChildTables<'a> {
    plain: &'a [Cell],
    removal: Option<&'a [Cell]>,
    plain_sub: Subspace,
    removal_sub: Option<Subspace>,
}

impl<'a> ChildTables<'a> {
    fn new(sub: Subspace, known: &'a Known) -> Result<ChildTables<'a>, SolveError> {
        let plain_sub = sub.negate();
        let plain = known
            .table(plain_sub)
            .ok_or(SolveError::MissingTable(plain_sub))?;
        let removal_sub = sub.after_removal();
        let removal = match removal_sub {
            Some(r) => Some(known.table(r).ok_or(SolveError::MissingTable(r))?),
            None => None,
        };
        Ok(ChildTables {
            plain,
            removal,
            plain_sub,
            removal_sub,
        })
    }

    /// The value, for its side to move, of the position after `mv`.
    fn value_after(&self, ix: &Indexer, pos: &Position, mv: Move) -> Result<Value, SolveError> {
        let child = moves::apply(pos, mv);
        let (table, sub) = match mv.remove {
            None => (self.plain, self.plain_sub),
            Some(_) => match (self.removal, self.removal_sub) {
                (Some(t), Some(s)) => (t, s),
                // the removal leaves the opponent below 3 stones
                _ => return Ok(Value::Loss(0)),
            },
        };
        let i = ix.rank(child.mover, child.opponent);
        table
            .get(i as usize)
            .and_then(|c| c.value())
            .ok_or(SolveError::UndecidedEntry(sub, i))
    }
}

/// Solves the placement sector `sub` from the tables of the sectors its moves
/// lead into, which must be in `known` (complete, plies included).
pub fn solve_sector(
    ix: &Indexer,
    rules: Rules,
    sub: Subspace,
    known: &Known,
    progress: &dyn Progress,
) -> Result<Solved, SolveError> {
    assert!(!sub.is_movement(), "{sub} is a movement subspace");
    let children = ChildTables::new(sub, known)?;
    let block = Indexer::block_size(sub) as usize;
    let mut cells = vec![Cell::UNUSED; ix.index_size(sub) as usize];
    cells.par_chunks_mut(block).enumerate().try_for_each_init(
        || (Vec::with_capacity(64), Vec::with_capacity(64)),
        |(buf, values), (orbit, chunk)| -> Result<(), SolveError> {
            let base = (orbit * block) as Index;
            let mut result = Ok(());
            ix.for_each_in_orbit(sub, orbit, |i, m, o| {
                if result.is_err() {
                    return;
                }
                let pos = sub.position(m, o);
                buf.clear();
                moves::generate(&pos, rules, buf);
                values.clear();
                for &mv in buf.iter() {
                    match children.value_after(ix, &pos, mv) {
                        Ok(v) => values.push(v),
                        Err(e) => {
                            result = Err(e);
                            return;
                        }
                    }
                }
                match Value::from_children(values.iter().copied()) {
                    Some(v) => chunk[(i - base) as usize] = Cell::from_value(v),
                    None => result = Err(SolveError::PliesOverflow(sub)),
                }
            });
            progress.initialised(chunk.len() as u64);
            result
        },
    )?;
    let counts = count_values(ix, sub, &cells);
    Ok(Solved {
        subspace: sub,
        cells,
        counts,
    })
}
