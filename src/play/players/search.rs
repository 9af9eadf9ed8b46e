//! The computer levels of the Russian rule text (seed 004): alpha-beta
//! searches of the project's own, which read no database.
//!
//! - `simple`: 2 plies; stones and closed mills.
//! - `hard`: 6 plies; adds open twos (two own stones on a line whose third
//!   point is empty) and mobility, one evaluation for every phase.
//! - `expert`: iterative deepening up to 16 plies (6 while stones are in
//!   hand), two at a time, within a node budget (not a clock, so that a
//!   seed replays the same game), a transposition table, an evaluation by
//!   phase (placement: open twos, blocking the opponent's, and mobility;
//!   movement: mobility; flying: the bare stone count), and repetitions: a
//!   position already seen in the game or on the search path scores as a
//!   draw, so that it steers into a repetition when it stands worse.

use crate::rules::geometry::{Bits, Geometry};
use crate::rules::moves::{self, Move};
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use rustc_hash::{FxHashMap, FxHashSet};

/// A won position's score; a win in fewer plies scores higher.
const WIN: i32 = 1_000_000;
/// A stone on board or in hand.
const STONE: i32 = 100;

/// Which evaluation a search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Stones and closed mills.
    Simple,
    /// Stones, closed mills, open twos and mobility.
    Hard,
    /// By phase: placement blocks the opponent's open twos, movement counts
    /// mobility, a flying side counts bare stones.
    Expert,
}

/// How a level searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The deepest search, in plies.
    pub depth: u32,
    /// The deepest search from a position with stones in hand.
    pub placement_depth: u32,
    /// Deepen one ply at a time from 1 (else search `depth` at once).
    pub iterative: bool,
    /// Deepen two plies at a time from 2 instead: every completed search
    /// ends on the root side's move, so that the evaluation, which favours
    /// the side to move (its open twos close next), does not sway between an
    /// odd and an even depth.
    pub even_depths: bool,
    /// Stop deepening once this many nodes are searched (0: no budget).
    pub node_budget: u64,
    /// Keep a transposition table.
    pub table: bool,
    /// Score positions seen before (in the game or on the path) as draws.
    pub repetitions: bool,
    /// The evaluation.
    pub eval: Eval,
}

impl Config {
    /// `simple`: 2 plies, stones and mills.
    pub const SIMPLE: Config = Config {
        depth: 2,
        placement_depth: 2,
        iterative: false,
        even_depths: false,
        node_budget: 0,
        table: false,
        repetitions: false,
        eval: Eval::Simple,
    };
    /// `hard`: 6 plies, open twos and mobility too; deepened one ply at a
    /// time within 2.4 M nodes (about 0.4 s at the slowest 6 M nodes a
    /// second measured on one core), so that the flying endgame's many moves
    /// stop at a shallower depth.
    pub const HARD: Config = Config {
        depth: 6,
        placement_depth: 6,
        iterative: true,
        even_depths: false,
        node_budget: 2_400_000,
        table: false,
        repetitions: false,
        eval: Eval::Hard,
    };
    /// `expert`: up to 16 plies, two at a time, within 3 M nodes (0.55 s
    /// at the slowest 5.5 M nodes a second seen on one core of an AMD
    /// EPYC, Zen 3, in the complete game; 0.7 s is the target). While
    /// stones are in hand 6 plies at most: searched deeper, its placements
    /// turned more draws into losses against `hard` (docs/RESULTS.md,
    /// Players).
    pub const EXPERT: Config = Config {
        depth: 16,
        placement_depth: 6,
        iterative: true,
        even_depths: true,
        node_budget: 3_000_000,
        table: true,
        repetitions: true,
        eval: Eval::Expert,
    };
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The root's moves with the best score (one of them is played).
    pub best: Vec<Move>,
    /// That score, for the side to move.
    pub score: i32,
    /// The depth of the last search completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// What the transposition table keeps of a position: its best move found.
#[derive(Clone, Copy)]
struct Entry {
    best: Option<Move>,
}

/// Entries kept in the transposition table at most (it is cleared beyond).
const TABLE_ENTRIES: usize = 1 << 20;

/// A position packed into one word, the transposition table's key: a
/// single integer hashes and compares faster than the struct's fields.
fn key(pos: &Position) -> u64 {
    u64::from(pos.mover)
        | u64::from(pos.opponent) << 24
        | u64::from(pos.mover_hand) << 48
        | u64::from(pos.opponent_hand) << 52
        | (pos.side as u64) << 56
}

/// One search of one position.
struct Searcher<'a> {
    variant: Variant,
    config: Config,
    /// Positions of the game so far (repetitions).
    seen: &'a FxHashSet<Position>,
    path: Vec<Position>,
    table: FxHashMap<u64, Entry>,
    /// One move list per ply of the path, reused from node to node.
    lists: Vec<Vec<Move>>,
    /// Room for `order`.
    spare: Vec<Move>,
    nodes: u64,
    /// Set when the budget ran out within an iteration: its result is void.
    out_of_budget: bool,
}

/// The best moves of `pos` for a searcher of `config`, the game having passed
/// through `seen` (the positions before this one).
pub fn search(
    pos: &Position,
    variant: Variant,
    config: Config,
    seen: &FxHashSet<Position>,
) -> Found {
    let mut s = Searcher {
        variant,
        config,
        seen,
        path: vec![],
        table: FxHashMap::default(),
        lists: vec![],
        spare: vec![],
        nodes: 0,
        out_of_budget: false,
    };
    let moves = ordered(pos, variant);
    let mut found = Found {
        best: moves.clone(),
        score: 0,
        depth: 0,
        nodes: 0,
    };
    let deepest = if pos.is_movement_phase() {
        config.depth
    } else {
        config.depth.min(config.placement_depth)
    };
    let depths: Vec<u32> = if config.iterative {
        let step = if config.even_depths { 2 } else { 1 };
        (step..=deepest).step_by(step as usize).collect()
    } else {
        vec![deepest]
    };
    let mut order = moves;
    for depth in depths {
        let Some((best, score, scored)) = s.root(pos, &order, depth) else {
            break; // the budget ran out: the last complete depth stands
        };
        found = Found {
            best,
            score,
            depth,
            nodes: s.nodes,
        };
        // the next depth tries the best first
        order = scored;
        if score.abs() >= WIN - 1000 {
            break; // a forced win or loss found: deeper finds no other
        }
        if config.node_budget > 0 && s.nodes >= config.node_budget {
            break;
        }
    }
    found.nodes = s.nodes;
    found
}

impl Searcher<'_> {
    /// One depth at the root: the best moves, their score, and every move
    /// ordered best first; `None` if the budget ran out on the way.
    fn root(
        &mut self,
        pos: &Position,
        moves: &[Move],
        depth: u32,
    ) -> Option<(Vec<Move>, i32, Vec<Move>)> {
        let mut scored: Vec<(i32, Move)> = Vec::with_capacity(moves.len());
        self.path.push(*pos);
        let mut top = -WIN - 1;
        for &mv in moves {
            let child = moves::apply(pos, mv);
            // a window just below the best so far: a move as good is scored
            // exactly (ties are kept), a worse one only bounded
            let score = -self.negamax(&child, depth - 1, -WIN - 1, -(top - 1), 1);
            top = top.max(score);
            if self.out_of_budget {
                self.path.pop();
                return None;
            }
            scored.push((score, mv));
        }
        self.path.pop();
        scored.sort_by_key(|&(s, _)| -s);
        let top = scored.first().map_or(0, |s| s.0);
        let best = (scored.iter())
            .filter(|s| s.0 == top)
            .map(|s| s.1)
            .collect();
        Some((best, top, scored.into_iter().map(|s| s.1).collect()))
    }

    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if self.config.node_budget > 0 && self.nodes > self.config.node_budget {
            self.out_of_budget = true;
            return 0;
        }
        if pos.mover_below_minimum() {
            return -WIN + ply;
        }
        if self.config.repetitions
            // a position with stones in hand cannot have been seen before:
            // the stones in hand only decrease
            && pos.is_movement_phase()
            && (self.seen.contains(pos) || self.path.contains(pos))
        {
            return 0;
        }
        if depth == 0 {
            // a leaf: whether it can move at all, not all its moves
            if !moves::has_legal_move(pos, self.variant) {
                return -WIN + ply;
            }
            return evaluate(pos, self.variant, self.config.eval);
        }
        let level = ply as usize;
        if self.lists.len() <= level {
            self.lists.resize_with(level + 1, || Vec::with_capacity(64));
        }
        let mut list = std::mem::take(&mut self.lists[level]);
        list.clear();
        moves::generate(pos, self.variant, &mut list);
        if list.is_empty() {
            self.lists[level] = list;
            return -WIN + ply;
        }
        // the table orders the moves (its best move first); its scores cut
        // nothing, as a score found through a repetition, or a win counted
        // from another root, holds on one path only
        let hint = if self.config.table {
            self.table.get(&key(pos)).and_then(|e| e.best)
        } else {
            None
        };
        order(&mut list, hint, &mut self.spare);
        let mut best = -WIN - 1;
        let mut best_move = None;
        self.path.push(*pos);
        for &mv in &list {
            let child = moves::apply(pos, mv);
            let score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
            if self.out_of_budget {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.path.pop();
        self.lists[level] = list;
        if self.out_of_budget {
            return 0;
        }
        if self.config.table {
            if self.table.len() >= TABLE_ENTRIES {
                self.table.clear();
            }
            self.table.insert(key(pos), Entry { best: best_move });
        }
        best
    }
}

/// The legal moves of `pos`, the likeliest best first.
fn ordered(pos: &Position, variant: Variant) -> Vec<Move> {
    let mut list = moves::legal_moves(pos, variant);
    order(&mut list, None, &mut Vec::new());
    list
}

/// Orders `list`: the hint first, then removals, then the rest, each group
/// in the order it had (a stable partition; `spare` holds the rest meanwhile).
fn order(list: &mut Vec<Move>, hint: Option<Move>, spare: &mut Vec<Move>) {
    if !list.iter().any(|m| m.remove.is_some()) {
        // no removal (most positions): only the hint moves
        if let Some(i) = hint.and_then(|h| list.iter().position(|&m| m == h)) {
            list[..=i].rotate_right(1);
        }
        return;
    }
    spare.clear();
    let mut kept = 0;
    let mut hinted = None;
    for i in 0..list.len() {
        let m = list[i];
        if Some(m) == hint {
            hinted = Some(m);
        } else if m.remove.is_some() {
            list[kept] = m;
            kept += 1;
        } else {
            spare.push(m);
        }
    }
    list.truncate(kept);
    if let Some(h) = hinted {
        list.insert(0, h);
    }
    list.extend_from_slice(spare);
}

/// What the lines of the board hold for each side (the mover first).
#[derive(Debug, PartialEq, Eq)]
struct Lines {
    /// Mills closed.
    mills: [i32; 2],
    /// Open twos: lines with two of the side's stones and the third point
    /// empty.
    twos: [i32; 2],
}

/// The lines of `me` and `them`, counted in one pass over the mill masks.
fn lines(g: &Geometry, me: Bits, them: Bits) -> Lines {
    let mut l = Lines {
        mills: [0; 2],
        twos: [0; 2],
    };
    for &m in g.mills() {
        let (a, b) = ((me & m).count_ones(), (them & m).count_ones());
        l.mills[0] += i32::from(a == 3);
        l.mills[1] += i32::from(b == 3);
        // a line of three points with two of one side is open when the
        // other side has none on it
        l.twos[0] += i32::from(a == 2 && b == 0);
        l.twos[1] += i32::from(b == 2 && a == 0);
    }
    l
}

/// Slides of `set` to an empty neighbour.
fn mobility(g: &Geometry, set: Bits, empty: Bits) -> i32 {
    let mut n = 0;
    let mut s = set;
    while s != 0 {
        let p = s.trailing_zeros() as usize;
        s &= s - 1;
        n += (g.neighbours(p) & empty).count_ones() as i32;
    }
    n
}

/// The static score of `pos` for its side to move (positive: better).
pub fn evaluate(pos: &Position, variant: Variant, eval: Eval) -> i32 {
    let (me, them) = (pos.mover, pos.opponent);
    let g = variant.geometry();
    let empty = g.all() & !(me | them);
    let stones = (pos.mover_total() as i32 - pos.opponent_total() as i32) * STONE;
    let l = lines(g, me, them);
    let mills = l.mills[0] - l.mills[1];
    let twos = l.twos[0] - l.twos[1];
    match eval {
        Eval::Simple => stones + 30 * mills,
        Eval::Hard => {
            let room = mobility(g, me, empty) - mobility(g, them, empty);
            stones + 30 * mills + 10 * twos + 3 * room
        }
        Eval::Expert => {
            if variant.can_fly(me.count_ones(), pos.mover_hand)
                || variant.can_fly(them.count_ones(), pos.opponent_hand)
            {
                // the flying endgame: the stones are all that counts
                return stones;
            }
            let room = mobility(g, me, empty) - mobility(g, them, empty);
            if pos.is_movement_phase() {
                stones + 25 * mills + 6 * twos + 8 * room
            } else {
                // placement: open twos, own and the opponent's alike, and the
                // room to move that the movement phase will need
                stones + 25 * mills + 10 * twos + 4 * room
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::MILLS;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// With stones in hand `expert` stops at 6 plies, where its budget would
    /// take it deeper.
    #[test]
    fn placement_depth_caps_the_search() {
        use crate::rules::position::Color;
        // the last placement of each side, 8 points empty
        let (white, black) = (0x5555 as Bits, 0xAAAA as Bits);
        let pos = Position::from_colors(white, black, (1, 1), Color::White);
        let seen = FxHashSet::default();
        let capped = search(&pos, Variant::default(), Config::EXPERT, &seen);
        assert_eq!(capped.depth, 6);
        let deeper = Config {
            placement_depth: 16,
            ..Config::EXPERT
        };
        assert!(search(&pos, Variant::default(), deeper, &seen).depth > 6);
    }

    /// The mill counts of the evaluation against a count point by point,
    /// on random boards.
    #[test]
    fn lines_are_counted_as_point_by_point() {
        let has = |set: Bits, p: u8| set & (1 << p) != 0;
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..20_000 {
            let (mut me, mut them) = (0 as Bits, 0 as Bits);
            for p in 0..24 {
                match rng.random_range(0..3) {
                    0 => me |= 1 << p,
                    1 => them |= 1 << p,
                    _ => {}
                }
            }
            let empty = crate::rules::geometry::ALL & !(me | them);
            let count = |set: Bits| {
                let closed = MILLS.iter().filter(|m| m.iter().all(|&p| has(set, p)));
                let twos = MILLS.iter().filter(|m| {
                    let own = m.iter().filter(|&&p| has(set, p)).count();
                    let free = m.iter().filter(|&&p| has(empty, p)).count();
                    own == 2 && free == 1
                });
                (closed.count() as i32, twos.count() as i32)
            };
            let ((m0, t0), (m1, t1)) = (count(me), count(them));
            let expected = Lines {
                mills: [m0, m1],
                twos: [t0, t1],
            };
            assert_eq!(lines(Geometry::nine(), me, them), expected);
        }
    }
}
