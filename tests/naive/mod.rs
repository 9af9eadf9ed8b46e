//! A deliberately naive implementation of the rules, written separately from the
//! engine for cross-checks. It shares nothing with the engine but the geometry
//! tables (point names, mills, adjacency): a board is an array of cells, and
//! positions are written out by hand in the RULES.md string format.
#![allow(dead_code)]

use millbase::geometry::{MILLS, NEIGHBOURS, POINT_NAMES};

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
        MILLS
            .iter()
            .any(|m| m.contains(&(p as u8)) && m.iter().all(|&q| cells[q as usize] == who))
    }

    /// Every legal move as (notation, resulting state).
    pub fn children(&self) -> Vec<(String, Naive)> {
        let me = self.turn;
        let them = 1 - me;
        let mut out = vec![];
        if self.total(me) < 3 || self.total(them) < 3 {
            return out;
        }
        // (from, to) pairs
        let mut steps: Vec<(Option<usize>, usize)> = vec![];
        if self.hand[me] > 0 {
            for to in 0..24 {
                if self.cells[to] == EMPTY {
                    steps.push((None, to));
                }
            }
        } else {
            let fly = self.flying && self.on_board(me) == 3;
            for from in 0..24 {
                if self.cells[from] != stone(me) {
                    continue;
                }
                for to in 0..24 {
                    if self.cells[to] == EMPTY && (fly || Self::adjacent(from, to)) {
                        steps.push((Some(from), to));
                    }
                }
            }
        }
        for (from, to) in steps {
            let mut next = self.clone();
            if let Some(f) = from {
                next.cells[f] = EMPTY;
            } else {
                next.hand[me] -= 1;
            }
            next.cells[to] = stone(me);
            next.turn = them;
            let name = match from {
                Some(f) => format!("{}-{}", POINT_NAMES[f], POINT_NAMES[to]),
                None => POINT_NAMES[to].to_string(),
            };
            if Self::in_complete_mill(&next.cells, to) {
                let theirs: Vec<usize> =
                    (0..24).filter(|&p| next.cells[p] == stone(them)).collect();
                let unprotected: Vec<usize> = theirs
                    .iter()
                    .copied()
                    .filter(|&p| !Self::in_complete_mill(&next.cells, p))
                    .collect();
                let targets = if unprotected.is_empty() {
                    theirs
                } else {
                    unprotected
                };
                if targets.is_empty() {
                    out.push((name.clone(), next.clone()));
                }
                for r in targets {
                    let mut n2 = next.clone();
                    n2.cells[r] = EMPTY;
                    out.push((format!("{}x{}", name, POINT_NAMES[r]), n2));
                }
            } else {
                out.push((name, next));
            }
        }
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
