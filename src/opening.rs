//! The placement phase: exact values by alpha-beta search over the placements,
//! with the movement database at the leaves.
//!
//! Scores are integers: a win in `n` plies scores `BIG - n`, a loss in `n` plies
//! `-(BIG - n)`, a draw 0. A child's score seen from its parent is negated and
//! moved one step toward zero (one ply further from the end), so plain negamax on
//! scores finds the fastest win and the slowest loss: the exact plies. In
//! win/draw/loss mode the step is omitted, which prunes far more and is enough to
//! tell a draw. The placement phase has no cycles, so the search is exact; a
//! transposition table keyed by symmetry class holds bounds.

use crate::geometry::in_mill;
use crate::index::{Indexer, Subspace};
use crate::moves::{self, Move};
use crate::position::Position;
use crate::query::{Answer, Database, EvaluatedMove, QueryError};
use crate::value::Value;
use std::collections::HashMap;

const BIG: i32 = 1 << 20;

/// What the search computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// Win, draw or loss, with no plies.
    WinDrawLoss,
    /// The value with the exact plies to the end.
    ExactPlies,
}

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A search over the placement phase against an open database. Reuse one for many
/// queries: its table keeps what earlier searches proved.
pub struct OpeningSearch<'a> {
    db: &'a Database,
    ix: Indexer,
    precision: Precision,
    table: HashMap<u64, (i32, Bound)>,
    /// Positions searched so far (database probes included).
    pub nodes: u64,
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

impl<'a> OpeningSearch<'a> {
    /// A search with an empty table.
    pub fn new(db: &'a Database, precision: Precision) -> OpeningSearch<'a> {
        OpeningSearch {
            db,
            ix: Indexer::new(),
            precision,
            table: HashMap::new(),
            nodes: 0,
        }
    }

    fn step(&self) -> i32 {
        match self.precision {
            Precision::WinDrawLoss => 0,
            Precision::ExactPlies => 1,
        }
    }

    /// A child's score as seen by its parent.
    fn to_parent(&self, child: i32) -> i32 {
        let t = -child;
        t - t.signum() * self.step()
    }

    /// The child score that a parent score corresponds to (inverse of `to_parent`).
    fn to_child(&self, parent: i32) -> i32 {
        -(parent + parent.signum() * self.step())
    }

    fn value_of(&self, score: i32) -> Value {
        match (score.signum(), self.precision) {
            (0, _) => Value::Draw,
            (1, Precision::WinDrawLoss) => Value::Win(0),
            (_, Precision::WinDrawLoss) => Value::Loss(0),
            (1, Precision::ExactPlies) => Value::Win((BIG - score) as u16),
            (_, Precision::ExactPlies) => Value::Loss((BIG + score) as u16),
        }
    }

    fn key(&self, pos: &Position) -> u64 {
        let s = Subspace::of(pos);
        let i = self.ix.rank(pos.mover, pos.opponent);
        (i << 16)
            | ((s.mover as u64) << 12)
            | ((s.opponent as u64) << 8)
            | ((s.mover_hand as u64) << 4)
            | s.opponent_hand as u64
    }

    /// The value of `pos`. In win/draw/loss mode, wins and losses carry 0 plies.
    pub fn value(&mut self, pos: &Position) -> Result<Value, QueryError> {
        let s = self.search(pos, -BIG - 1, BIG + 1)?;
        Ok(self.value_of(s))
    }

    /// The value of `pos` and of every legal move, best first.
    pub fn answer(&mut self, pos: &Position) -> Result<Answer, QueryError> {
        let value = self.value(pos)?;
        let mut list = vec![];
        for mv in moves::legal_moves(pos, self.db.rules()) {
            let after = moves::apply(pos, mv);
            list.push(EvaluatedMove {
                mv,
                position: after,
                value: self.value(&after)?,
            });
        }
        list.sort_by(|a, b| a.value.cmp_as_child(b.value));
        Ok(Answer {
            position: *pos,
            value,
            moves: list,
        })
    }

    fn search(&mut self, pos: &Position, mut alpha: i32, mut beta: i32) -> Result<i32, QueryError> {
        self.nodes += 1;
        if pos.mover_total() < 3 {
            return Ok(score_of(Value::Loss(0), self.precision));
        }
        if pos.is_movement_phase() {
            return Ok(score_of(self.db.probe(pos)?, self.precision));
        }
        let key = self.key(pos);
        let alpha0 = alpha;
        if let Some(&(s, bound)) = self.table.get(&key) {
            match bound {
                Bound::Exact => return Ok(s),
                Bound::Lower => alpha = alpha.max(s),
                Bound::Upper => beta = beta.min(s),
            }
            if alpha >= beta {
                return Ok(s);
            }
        }
        let mut list = moves::legal_moves(pos, self.db.rules());
        if list.is_empty() {
            return Ok(score_of(Value::Loss(0), self.precision));
        }
        order(pos, &mut list);
        let mut best = -BIG - 1;
        for mv in list {
            let child = moves::apply(pos, mv);
            let (lo, hi) = (self.to_child(beta), self.to_child(alpha));
            let child_score = self.search(&child, lo, hi)?;
            let s = self.to_parent(child_score);
            best = best.max(s);
            alpha = alpha.max(s);
            if alpha >= beta {
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
        self.table.insert(key, (best, bound));
        Ok(best)
    }
}

/// Mill-closing moves first, then placements next to own stones.
fn order(pos: &Position, list: &mut [Move]) {
    list.sort_by_key(|m| {
        let after = pos.mover | (1 << m.to);
        let closes = in_mill(after, m.to as usize);
        (!closes, m.remove.is_none())
    });
}
