//! A deliberately naive implementation of the rules, written separately from the
//! engine for cross-checks. It shares nothing with the engine but the geometry
//! tables (point names, mills, adjacency) and the `Position` struct as plain data:
//! a board is an array of cells, and positions are written out by hand in the
//! docs/RULES.md string format.
#![allow(dead_code)]

use millbase::rules::geometry::{MILLS, NEIGHBOURS, POINT_NAMES};
use millbase::rules::position::{Color, Position};

/// Cell contents.
pub const EMPTY: u8 = 0;
/// White stone (player 0).
pub const WHITE: u8 = 1;
/// Black stone (player 1).
pub const BLACK: u8 = 2;

/// A naive game state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Naive {
    /// 24 cells in canonical point order.
    pub cells: [u8; 24],
    /// 0 = White to move, 1 = Black to move.
    pub turn: usize,
    /// Stones in hand, White then Black.
    pub hand: [u8; 2],
    /// Whether flying is allowed.
    pub flying: bool,
}

fn stone(player: usize) -> u8 {
    if player == 0 { WHITE } else { BLACK }
}

impl Naive {
    /// Reads a RULES.md position string (assumed valid).
    pub fn parse(s: &str, flying: bool) -> Naive {
        let f: Vec<&str> = s.split(' ').collect();
        let mut cells = [EMPTY; 24];
        for (i, c) in f[0].chars().enumerate() {
            cells[i] = match c {
                'W' => WHITE,
                'B' => BLACK,
                _ => EMPTY,
            };
        }
        Naive {
            cells,
            turn: if f[1] == "w" { 0 } else { 1 },
            hand: [f[2].parse().unwrap(), f[3].parse().unwrap()],
            flying,
        }
    }

    /// Writes the RULES.md position string.
    pub fn text(&self) -> String {
        let board: String = self
            .cells
            .iter()
            .map(|&c| match c {
                WHITE => 'W',
                BLACK => 'B',
                _ => '.',
            })
            .collect();
        format!(
            "{} {} {} {}",
            board,
            if self.turn == 0 { "w" } else { "b" },
            self.hand[0],
            self.hand[1]
        )
    }

    /// Stones of `player` on the board.
    pub fn on_board(&self, player: usize) -> usize {
        self.cells.iter().filter(|&&c| c == stone(player)).count()
    }

    /// Stones of `player` on board plus in hand.
    pub fn total(&self, player: usize) -> usize {
        self.on_board(player) + self.hand[player] as usize
    }

    fn adjacent(a: usize, b: usize) -> bool {
        NEIGHBOURS[a] & (1 << b) != 0
    }

    fn in_complete_mill(cells: &[u8; 24], p: usize) -> bool {
        let who = cells[p];
        MILLS.iter().any(|m| {
            m.iter().any(|&q| q as usize == p) && m.iter().all(|&q| cells[q as usize] == who)
        })
    }

    /// Calls `f` with every legal ply as (from, to, removed point, resulting
    /// state), without collecting them: the brute-force oracle calls this for
    /// every position of the small games, so it allocates nothing.
    fn each_ply(&self, mut f: impl FnMut(Option<usize>, usize, Option<usize>, &Naive)) {
        let me = self.turn;
        let them = 1 - me;
        if self.total(me) < 3 || self.total(them) < 3 {
            return;
        }
        let fly = self.flying && self.on_board(me) == 3;
        // (from, to) pairs: a placement from the hand, else a step or a flight
        let mut step = |from: Option<usize>, to: usize| {
            let mut next = self.clone();
            if let Some(fr) = from {
                next.cells[fr] = EMPTY;
            } else {
                next.hand[me] -= 1;
            }
            next.cells[to] = stone(me);
            next.turn = them;
            if !Self::in_complete_mill(&next.cells, to) {
                f(from, to, None, &next);
                return;
            }
            // a mill: remove a stone of theirs outside mills, or any if all are in mills
            let theirs = |p: usize| next.cells[p] == stone(them);
            let unprotected = |p: usize| theirs(p) && !Self::in_complete_mill(&next.cells, p);
            let any_unprotected = (0..24).any(unprotected);
            let mut removed_any = false;
            for r in (0..24).filter(|&p| {
                if any_unprotected {
                    unprotected(p)
                } else {
                    theirs(p)
                }
            }) {
                let mut n2 = next.clone();
                n2.cells[r] = EMPTY;
                f(from, to, Some(r), &n2);
                removed_any = true;
            }
            if !removed_any {
                f(from, to, None, &next);
            }
        };
        if self.hand[me] > 0 {
            for to in 0..24 {
                if self.cells[to] == EMPTY {
                    step(None, to);
                }
            }
        } else {
            for from in 0..24 {
                if self.cells[from] != stone(me) {
                    continue;
                }
                for to in 0..24 {
                    if self.cells[to] == EMPTY && (fly || Self::adjacent(from, to)) {
                        step(Some(from), to);
                    }
                }
            }
        }
    }

    /// Every legal ply as (from, to, removed point, resulting state).
    fn plies(&self) -> Vec<(Option<usize>, usize, Option<usize>, Naive)> {
        let mut out = vec![];
        self.each_ply(|from, to, removed, next| out.push((from, to, removed, next.clone())));
        out
    }

    /// Every legal move as (notation, resulting state).
    pub fn children(&self) -> Vec<(String, Naive)> {
        self.plies()
            .into_iter()
            .map(|(from, to, removed, next)| {
                let mut name = match from {
                    Some(f) => format!("{}-{}", POINT_NAMES[f], POINT_NAMES[to]),
                    None => POINT_NAMES[to].to_string(),
                };
                if let Some(r) = removed {
                    name = format!("{name}x{}", POINT_NAMES[r]);
                }
                (name, next)
            })
            .collect()
    }

    /// The state of an engine position (its fields read as data).
    pub fn from_position(pos: &Position, flying: bool) -> Naive {
        let (me, them) = if pos.side == Color::White {
            (0, 1)
        } else {
            (1, 0)
        };
        let mut cells = [EMPTY; 24];
        let mut hand = [0; 2];
        for p in 0..24 {
            if pos.mover & (1 << p) != 0 {
                cells[p] = stone(me);
            } else if pos.opponent & (1 << p) != 0 {
                cells[p] = stone(them);
            }
        }
        hand[me] = pos.mover_hand;
        hand[them] = pos.opponent_hand;
        Naive {
            cells,
            turn: me,
            hand,
            flying,
        }
    }

    /// The engine position of this state (its fields written as data).
    pub fn to_position(&self) -> Position {
        let (me, them) = (self.turn, 1 - self.turn);
        // the points of each cell content, EMPTY, WHITE and BLACK, in one pass
        let mut sets = [0u32; 3];
        for (p, &c) in self.cells.iter().enumerate() {
            sets[c as usize] |= 1 << p;
        }
        let set = |player: usize| sets[stone(player) as usize];
        Position {
            mover: set(me),
            opponent: set(them),
            mover_hand: self.hand[me],
            opponent_hand: self.hand[them],
            side: if me == 0 { Color::White } else { Color::Black },
        }
    }

    /// Every child of `pos` by these rules, with whether its move removed a
    /// stone: what the brute-force oracle walks, so that it shares no move
    /// generation with the engine.
    pub fn successors(pos: &Position, flying: bool) -> Vec<(bool, Position)> {
        let mut out = Vec::with_capacity(32);
        Naive::from_position(pos, flying)
            .each_ply(|_, _, removed, next| out.push((removed.is_some(), next.to_position())));
        out
    }

    /// Leaf count `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children()
            .iter()
            .map(|(_, c)| c.perft(depth - 1))
            .sum()
    }
}
