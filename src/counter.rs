//! Values under the no-removal rule (`docs/RULES.md`): a ply without a
//! removal that brings the counter of plies since the last removal to the move
//! limit `L` draws the game, unless that ply ended it otherwise.
//!
//! As in chess's DTZ50, one number per position serves every counter: the
//! *distance* of a position is the number of plies to the next removal or the
//! end of the game on the winner's fastest path that keeps the win under the
//! rule (the loser's longest), or none when the winner cannot convert within
//! `L` plies. At counter `c` a position wins (loses) under the rule exactly
//! when its distance fits in `L - c`; otherwise a win is a *cursed win* and a
//! loss a *blessed loss*, both draws under the rule.
//!
//! The distances come from the engine's own solvers, fed different children:
//! after a removal the counter is 0, so a removing move leads to a position
//! whose value under the rule at counter 0 is final — a win, loss or draw at 0
//! plies (a conversion ends the distance). A movement pair is then solved by
//! [`crate::solver::solve_pair`] over those exits, a placement sector by
//! [`crate::placement::solve_sector`], and every distance beyond `L` becomes a
//! draw. Cutting at `L` afterwards gives the same tables as cutting during the
//! solve: a distance through a child beyond `L` is itself beyond `L`.

use crate::index::{Indexer, Subspace};
use crate::placement;
use crate::plan::{Limits, placement_plan, plan};
use crate::rules::{MAX_MOVE_LIMIT, Rules};
use crate::solver::{self, Known, NoProgress, Progress, SolveError, Solved, count_values};
use crate::value::{Cell, Value};
use rayon::prelude::*;
use std::collections::HashMap;

/// A position's outcome under the rule at a given counter, best first for the
/// side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// A win that the rule does not stop.
    Win,
    /// A win without the rule, a draw with it at this counter.
    CursedWin,
    /// A draw with or without the rule.
    Draw,
    /// A loss without the rule, a draw with it at this counter.
    BlessedLoss,
    /// A loss that the rule does not save.
    Loss,
}

impl Category {
    /// Whether the game is drawn under the rule: a cursed win, a draw or a
    /// blessed loss.
    pub fn is_draw(self) -> bool {
        !matches!(self, Category::Win | Category::Loss)
    }

    /// `win`, `cursed-win`, `draw`, `blessed-loss` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Category::Win => "win",
            Category::CursedWin => "cursed-win",
            Category::Draw => "draw",
            Category::BlessedLoss => "blessed-loss",
            Category::Loss => "loss",
        }
    }

    /// The category from the plain value of a position, its distance-table
    /// value (`Win(d)`/`Loss(d)` with `d` the distance, or `Draw` for none),
    /// the move limit and the counter (`0 <= counter < limit`).
    pub fn of(plain: Value, distance: Value, limit: u16, counter: u16) -> Category {
        let fits = |d: u16| u32::from(d) + u32::from(counter) <= u32::from(limit);
        match (plain, distance) {
            (Value::Win(_), Value::Win(d)) if fits(d) => Category::Win,
            (Value::Win(_), _) => Category::CursedWin,
            (Value::Loss(_), Value::Loss(d)) if fits(d) => Category::Loss,
            (Value::Loss(_), _) => Category::BlessedLoss,
            (Value::Draw, _) => Category::Draw,
        }
    }
}

/// The value a removing move leads to, as the solvers see it: the child's
/// outcome under the rule at counter 0, at 0 plies.
fn exit(distance: Cell) -> Cell {
    match distance.value() {
        Some(Value::Win(_)) => Cell::from_value(Value::Win(0)),
        Some(Value::Loss(_)) => Cell::from_value(Value::Loss(0)),
        Some(Value::Draw) => Cell::DRAW,
        None => distance,
    }
}

/// The table of exits of a distance table.
fn exits(distances: &[Cell]) -> Vec<Cell> {
    distances.par_iter().map(|&c| exit(c)).collect()
}

/// A solved table with every distance beyond `limit` made a draw.
fn cut(cells: Vec<Cell>, limit: u16) -> Vec<Cell> {
    cells
        .into_par_iter()
        .map(|c| match c.value() {
            Some(Value::Win(d) | Value::Loss(d)) if d > limit => Cell::DRAW,
            _ => c,
        })
        .collect()
}

/// The subspaces whose distance tables solving `sub` needs: the one of its
/// removals and, for a placement sector, the one of a plain placement (a
/// movement pair solves its own).
pub fn needs(sub: Subspace) -> Vec<Subspace> {
    let plain = (!sub.is_movement()).then(|| sub.negate());
    plain.into_iter().chain(sub.after_removal()).collect()
}

/// The distance tables of the movement pair of `rep` (one per member), from
/// the distance tables in `children` of the subspaces its removals lead into.
pub fn solve_pair(
    ix: &Indexer,
    rules: Rules,
    rep: Subspace,
    children: &Known,
    limit: u16,
    progress: &dyn Progress,
) -> Result<Vec<Solved>, SolveError> {
    let mut known = Known::new();
    for r in rep.with_swap().iter().filter_map(|s| s.after_removal()) {
        let table = children.table(r).ok_or(SolveError::MissingTable(r))?;
        known.insert(r, exits(table));
    }
    Ok(solver::solve_pair(ix, rules, rep, &known, progress)?
        .into_iter()
        .map(|s| finish(ix, s, limit))
        .collect())
}

/// The distance table of placement sector `sector`, from the distance tables
/// in `children` of the sectors (or subspaces) its moves lead into.
pub fn solve_sector(
    ix: &Indexer,
    sector: Subspace,
    children: &Known,
    limit: u16,
    progress: &dyn Progress,
) -> Result<Solved, SolveError> {
    let table = |s: Subspace| children.table(s).ok_or(SolveError::MissingTable(s));
    let mut known = Known::new();
    known.insert(sector.negate(), table(sector.negate())?.to_vec());
    if let Some(r) = sector.after_removal() {
        known.insert(r, exits(table(r)?));
    }
    let s = placement::solve_sector(ix, sector, &known, progress)?;
    Ok(finish(ix, s, limit))
}

/// A solved table cut at `limit`, its counts those of the rule.
fn finish(ix: &Indexer, s: Solved, limit: u16) -> Solved {
    let cells = cut(s.cells, limit);
    let counts = count_values(ix, s.subspace, &cells);
    Solved {
        subspace: s.subspace,
        cells,
        counts,
    }
}

/// The distance tables of every subspace and sector within `limits` under
/// move limit `limit` (`1..=MAX_MOVE_LIMIT`), by subspace: `Win(d)`/`Loss(d)`
/// with the distance `d <= limit`, `Draw` where there is none. All in memory:
/// for small databases and tests (`generate` writes them to files).
pub fn solve(
    ix: &Indexer,
    rules: Rules,
    limits: Limits,
    limit: u16,
) -> Result<HashMap<Subspace, Vec<Cell>>, SolveError> {
    assert!((1..=MAX_MOVE_LIMIT).contains(&limit), "move limit {limit}");
    let mut distances = Known::new();
    for rep in plan(limits) {
        for s in solve_pair(ix, rules, rep, &distances, limit, &NoProgress)? {
            distances.insert(s.subspace, s.cells);
        }
    }
    for sector in placement_plan(limits) {
        let s = solve_sector(ix, sector, &distances, limit, &NoProgress)?;
        distances.insert(sector, s.cells);
    }
    Ok(distances.into_map())
}
