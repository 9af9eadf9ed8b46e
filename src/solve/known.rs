//! The tables a solve reads and what they hold: the [`Kind`] of a table,
//! solved tables held in memory ([`Known`]) and where a position's value is in
//! them ([`Entry`]), and why reading or solving them fails ([`SolveError`]).

use crate::index::{Index, Indexer, Subspace};
use crate::rules::geometry::SYMMETRY_COUNT;
use crate::rules::position::Position;
use crate::solve::value::{Cell, Counts, MAX_PLIES, Value};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt;

/// What a table holds: the game's values, or the distances of the
/// no-removal rule with a move limit. Every table of a database, every solve
/// and every check is of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The game's values: win, draw or loss, with the plies to the end of the
    /// game.
    Game,
    /// The distances of the no-removal rule with this move limit
    /// ([`crate::solve::counter`]): a removal ends a distance (the position it leads
    /// to counts as won, drawn or lost at 0 plies), and a distance beyond the
    /// limit is none (a draw).
    Rule(u16),
}

impl Kind {
    /// The move limit of a rule table; `None` for the game's.
    pub fn move_limit(self) -> Option<u16> {
        match self {
            Kind::Game => None,
            Kind::Rule(l) => Some(l),
        }
    }

    /// The kind of `move_limit`: the rule's with that limit, or the game's.
    pub fn of_limit(move_limit: Option<u16>) -> Kind {
        move_limit.map_or(Kind::Game, Kind::Rule)
    }
}

/// Solved tables of smaller subspaces, for the values of removing moves.
#[derive(Default)]
pub struct Known {
    /// Few tables (those one unit of work reads): a list is searched faster
    /// than a hash map, for every child of every position.
    tables: Vec<(Subspace, Vec<Cell>)>,
}

impl Known {
    /// No tables.
    pub fn new() -> Known {
        Known::default()
    }

    /// Adds the table of `sub` (replacing the one there).
    pub fn insert(&mut self, sub: Subspace, cells: Vec<Cell>) {
        self.take(sub);
        self.tables.push((sub, cells));
    }

    /// Whether the table of `sub` is present.
    pub fn contains(&self, sub: Subspace) -> bool {
        self.table(sub).is_some()
    }

    /// Drops every table not in `keep`.
    pub fn retain(&mut self, keep: &[Subspace]) {
        self.tables.retain(|(s, _)| keep.contains(s));
    }

    /// The subspaces whose tables are present.
    pub fn subspaces(&self) -> Vec<Subspace> {
        self.tables.iter().map(|(s, _)| *s).collect()
    }

    /// The memory the table of `sub` takes, in bytes (0 if absent).
    pub fn bytes(&self, sub: Subspace) -> usize {
        self.table(sub).map_or(0, std::mem::size_of_val)
    }

    /// Every table, by subspace.
    pub fn into_map(self) -> HashMap<Subspace, Vec<Cell>> {
        self.tables.into_iter().collect()
    }

    /// Removes and returns the table of `sub`, if present.
    pub fn take(&mut self, sub: Subspace) -> Option<Vec<Cell>> {
        let k = self.tables.iter().position(|(s, _)| *s == sub)?;
        Some(self.tables.swap_remove(k).1)
    }

    /// The table of `sub`, if present.
    pub fn table(&self, sub: Subspace) -> Option<&[Cell]> {
        (self.tables.iter())
            .find(|(s, _)| *s == sub)
            .map(|(_, t)| t.as_slice())
    }

    /// The value of `pos` for its side to move: a loss at 0 plies when that side
    /// has fewer than 3 stones, else the entry of its subspace's table.
    pub fn value(&self, ix: &Indexer, pos: &Position) -> Result<Value, SolveError> {
        self.entry(ix, pos)?.value()
    }

    /// Where the value of `pos` is ([`Known::value`]), with the memory of its
    /// table entry already being fetched: locating several positions first and
    /// reading their values after lets the random reads of large tables overlap.
    pub fn entry(&self, ix: &Indexer, pos: &Position) -> Result<Entry<'_>, SolveError> {
        self.entry_ranked(pos, |p| ix.rank(p.mover, p.opponent))
    }

    /// [`Known::entry`], with `rank` giving the index of `pos` in its
    /// subspace (called only when a table holds its value).
    pub fn entry_ranked(
        &self,
        pos: &Position,
        rank: impl FnOnce(&Position) -> Index,
    ) -> Result<Entry<'_>, SolveError> {
        if pos.mover_below_minimum() {
            return Ok(Entry::Known(Value::Loss(0)));
        }
        let sub = Subspace::of(pos);
        let table = self.table(sub).ok_or(SolveError::MissingTable(sub))?;
        let index = rank(pos);
        let cell = &table[index as usize];
        prefetch(cell);
        Ok(Entry::Cell { sub, index, cell })
    }
}

/// A position's value in [`Known`], as [`Known::entry`] locates it.
#[derive(Clone, Copy, Debug)]
pub enum Entry<'a> {
    /// Known without a table (the side to move is below 3 stones).
    Known(Value),
    /// The table entry at `index` of `sub`.
    Cell {
        /// The subspace.
        sub: Subspace,
        /// The index in it.
        index: Index,
        /// The entry.
        cell: &'a Cell,
    },
}

impl Entry<'_> {
    /// The value; an error if the table holds none there.
    pub fn value(self) -> Result<Value, SolveError> {
        match self {
            Entry::Known(v) => Ok(v),
            Entry::Cell { sub, index, cell } => {
                cell.value().ok_or(SolveError::UndecidedEntry(sub, index))
            }
        }
    }

    /// The cell: the table's, or that of the value known without one.
    #[inline]
    pub fn cell(self) -> Cell {
        match self {
            Entry::Known(v) => Cell::from_value(v),
            Entry::Cell { cell, .. } => *cell,
        }
    }
}

/// How many positions ahead of its use a far-apart entry is requested
/// ([`prefetch`]) where positions are visited grouped by the opponent's set:
/// their own slots then lie in as many blocks as there are positions.
pub const PREFETCH_AHEAD: usize = 16;

/// Asks the processor to bring `x` into its caches (a hint; no effect on the
/// result).
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE, which the instruction needs, is part of every x86_64
    // processor; a prefetch reads nothing the program sees and cannot fault
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (x as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Why solving failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// A removal leads into a subspace whose table is not loaded.
    MissingTable(Subspace),
    /// A table holds no value where a position must be.
    UndecidedEntry(Subspace, Index),
    /// Plies beyond what a cell can hold.
    PliesOverflow(Subspace),
    /// A stored win, draw or loss disagrees with the position's children.
    Inconsistent(Subspace, Index),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::MissingTable(s) => {
                write!(f, "the table of subspace {s} is needed but not loaded")
            }
            SolveError::UndecidedEntry(s, i) => write!(f, "subspace {s} has no value at index {i}"),
            SolveError::PliesOverflow(s) => write!(f, "subspace {s}: plies exceed {MAX_PLIES}"),
            SolveError::Inconsistent(s, i) => write!(
                f,
                "subspace {s}: the value stored at index {i} disagrees with its children \
                 (run verify; regenerate the damaged files)"
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// Value counts of a solved table, over classes and over all symmetric images.
pub fn count_values(ix: &Indexer, sub: Subspace, cells: &[Cell]) -> Counts {
    let block = ix.block_size(sub) as usize;
    cells
        .par_chunks(block)
        .enumerate()
        .map(|(orbit, chunk)| {
            let mut c = Counts::default();
            let free = ix.stabiliser(sub.mover, orbit) == 1;
            for (j, cell) in chunk.iter().enumerate() {
                if let Some(v) = cell.value() {
                    let images = if free {
                        SYMMETRY_COUNT as u32
                    } else {
                        let (m, o) = ix.sets(sub, (orbit * block + j) as Index);
                        ix.images(m, o)
                    };
                    c.add(v, images);
                }
            }
            c
        })
        .reduce(Counts::default, Counts::merge)
}
