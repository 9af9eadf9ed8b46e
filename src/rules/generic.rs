//! Positions, moves and the end of the game on any board a [`Rules`] value
//! describes, the plain way: every preset's moves (placement, slides,
//! flying on the board or in total, Lasker's turn, the removal rule, a full
//! board), for `perft --rules` and the tests. Nine's compiled tables
//! ([`crate::rules::moves`]) stay its fast path, and agree with these.

use crate::rules::ruleset::{Flying, FullBoard, Removal, Rules};
use std::fmt;

/// The tables of a board, made once from its rules.
pub struct Play {
    rules: Rules,
    /// Per point, the points adjacent to it.
    neighbours: Vec<u32>,
    /// Per point, the mills through it.
    through: Vec<Vec<u32>>,
    /// Every mill.
    mills: Vec<u32>,
    /// Every point.
    all: u32,
}

/// A position: the stones of the side to move and of the other, the stones
/// in hand of each, and which colour moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Points of the side to move.
    pub mover: u32,
    /// Points of the other side.
    pub opponent: u32,
    /// Stones in hand of the side to move.
    pub mover_hand: u8,
    /// Stones in hand of the other side.
    pub opponent_hand: u8,
    /// Whether White is to move.
    pub white_to_move: bool,
}

/// A move: a placement (`from` none) or a move of a stone, and the stone
/// it takes, if it closes a mill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the stone comes from; `None` for a placement.
    pub from: Option<u8>,
    /// Where it goes.
    pub to: u8,
    /// The opponent's stone taken.
    pub remove: Option<u8>,
}

/// How a game ended, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The side to move has lost (below the stones it needs, blocked, or a
    /// full board that the rules count as its loss).
    Lost,
    /// Drawn: a full board that the rules count as a draw.
    Drawn,
}

impl Play {
    /// The tables of `rules`' board.
    pub fn new(rules: Rules) -> Play {
        let b = rules.board();
        let mills = b.mill_masks();
        Play {
            neighbours: (0..b.len()).map(|p| b.neighbours(p)).collect(),
            through: (0..b.len())
                .map(|p| mills.iter().copied().filter(|m| m & 1 << p != 0).collect())
                .collect(),
            all: ((1u64 << b.len()) - 1) as u32,
            mills,
            rules,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The initial position: an empty board, every stone in hand, White to
    /// move.
    pub fn initial(&self) -> Position {
        let s = self.rules.stones();
        Position {
            mover: 0,
            opponent: 0,
            mover_hand: s,
            opponent_hand: s,
            white_to_move: true,
        }
    }

    /// Whether a side with `board` stones on the board and `hand` in hand
    /// has too few to play on.
    fn below(&self, board: u32, hand: u8) -> bool {
        board + u32::from(hand) < u32::from(self.rules.min_stones())
    }

    /// Whether the side to move may move a stone to any empty point.
    pub fn can_fly(&self, pos: &Position) -> bool {
        let on = pos.mover.count_ones();
        match self.rules.flying() {
            Flying::Never => false,
            Flying::OnBoard(k) => pos.mover_hand == 0 && on == u32::from(k),
            Flying::Total(k) => on + u32::from(pos.mover_hand) == u32::from(k),
        }
    }

    /// The opponent's stones a mill may take.
    fn removable(&self, opponent: u32) -> u32 {
        match self.rules.removal() {
            Removal::MillsProtected => {
                let in_mills = (self.mills.iter())
                    .filter(|&&m| opponent & m == m)
                    .fold(0, |s, m| s | m);
                let free = opponent & !in_mills;
                if free != 0 { free } else { opponent }
            }
        }
    }

    /// How the game has ended at `pos`, if it has.
    pub fn end(&self, pos: &Position) -> Option<End> {
        if self.below(pos.mover.count_ones(), pos.mover_hand) {
            return Some(End::Lost);
        }
        if self.below(pos.opponent.count_ones(), pos.opponent_hand) {
            // the side that just moved has lost: never reached by a move
            return None;
        }
        if pos.mover | pos.opponent == self.all && pos.mover_hand == 0 && pos.opponent_hand == 0 {
            return Some(match self.rules.full_board() {
                FullBoard::Draw => End::Drawn,
                FullBoard::LossForSideToMove => End::Lost,
            });
        }
        self.moves(pos).is_empty().then_some(End::Lost)
    }

    /// Every legal move of the side to move; none where the game is over by
    /// the stones or a full board.
    pub fn moves(&self, pos: &Position) -> Vec<Move> {
        let mut out = vec![];
        if self.below(pos.mover.count_ones(), pos.mover_hand)
            || self.below(pos.opponent.count_ones(), pos.opponent_hand)
        {
            return out;
        }
        let empty = self.all & !(pos.mover | pos.opponent);
        if empty == 0 && pos.mover_hand == 0 && pos.opponent_hand == 0 {
            return out;
        }
        let removals = self.removable(pos.opponent);
        let mut push = |from: Option<u8>, to: usize, after: u32| {
            let closes = self.through[to].iter().any(|&m| m & !after == 0);
            if closes && pos.opponent != 0 {
                for r in bits(removals) {
                    out.push(Move {
                        from,
                        to: to as u8,
                        remove: Some(r as u8),
                    });
                }
            } else {
                out.push(Move {
                    from,
                    to: to as u8,
                    remove: None,
                });
            }
        };
        if pos.mover_hand > 0 {
            for to in bits(empty) {
                push(None, to, pos.mover | 1 << to);
            }
        }
        if pos.mover_hand == 0 || self.rules.lasker() {
            let fly = self.can_fly(pos);
            for from in bits(pos.mover) {
                let targets = if fly {
                    empty
                } else {
                    self.neighbours[from] & empty
                };
                for to in bits(targets) {
                    push(Some(from as u8), to, pos.mover ^ 1 << from ^ 1 << to);
                }
            }
        }
        out
    }

    /// The position after `mv`, a legal move of `pos`.
    pub fn apply(&self, pos: &Position, mv: Move) -> Position {
        let mut mover = pos.mover | 1 << mv.to;
        let mut hand = pos.mover_hand;
        match mv.from {
            Some(f) => mover &= !(1 << f),
            None => hand -= 1,
        }
        let opponent = mv.remove.map_or(pos.opponent, |r| pos.opponent & !(1 << r));
        Position {
            mover: opponent,
            opponent: mover,
            mover_hand: pos.opponent_hand,
            opponent_hand: hand,
            white_to_move: !pos.white_to_move,
        }
    }

    /// The positions `depth` plies from `pos` (a move with its removal is
    /// one ply; a finished game has none beyond it).
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(pos);
        if depth == 1 {
            return moves.len() as u64;
        }
        (moves.iter())
            .map(|&m| self.perft(&self.apply(pos, m), depth - 1))
            .sum()
    }

    /// `mv` written as docs/RULES.md writes moves, with this board's names.
    pub fn move_text(&self, mv: Move) -> String {
        let name = |p: u8| self.rules.board().points()[p as usize].name.as_str();
        let mut s = String::new();
        if let Some(f) = mv.from {
            s.push_str(name(f));
            s.push('-');
        }
        s.push_str(name(mv.to));
        if let Some(r) = mv.remove {
            s.push('x');
            s.push_str(name(r));
        }
        s
    }

    /// Reads a position string of this board: its points in canonical order
    /// as `W`, `B` or `.`, the side to move, and the stones in hand of White
    /// and Black (`........................ w 12 12`).
    pub fn parse(&self, s: &str) -> Result<Position, PositionError> {
        let n = self.rules.board().len();
        let parts: Vec<&str> = s.split_whitespace().collect();
        let [board, side, wh, bh] = parts[..] else {
            return Err(PositionError(format!(
                "{s:?}: expected BOARD SIDE WHITE_IN_HAND BLACK_IN_HAND"
            )));
        };
        if board.chars().count() != n {
            return Err(PositionError(format!(
                "{board:?}: the {} board has {n} points, one character each",
                self.rules.name()
            )));
        }
        let (mut white, mut black) = (0u32, 0u32);
        for (p, c) in board.chars().enumerate() {
            match c {
                'W' => white |= 1 << p,
                'B' => black |= 1 << p,
                '.' => {}
                _ => return Err(PositionError(format!("{c:?} at point {p}: W, B or ."))),
            }
        }
        let hand = |h: &str| -> Result<u8, PositionError> {
            h.parse::<u8>()
                .ok()
                .filter(|&k| k <= self.rules.stones())
                .ok_or_else(|| {
                    PositionError(format!("{h:?} in hand: 0 to {}", self.rules.stones()))
                })
        };
        let (wh, bh) = (hand(wh)?, hand(bh)?);
        let max = u32::from(self.rules.stones());
        if white.count_ones() + u32::from(wh) > max || black.count_ones() + u32::from(bh) > max {
            return Err(PositionError(format!(
                "more than {max} stones for a side on the board and in hand"
            )));
        }
        let white_to_move = match side {
            "w" => true,
            "b" => false,
            _ => {
                return Err(PositionError(format!(
                    "{side:?}: the side to move is w or b"
                )));
            }
        };
        Ok(if white_to_move {
            Position {
                mover: white,
                opponent: black,
                mover_hand: wh,
                opponent_hand: bh,
                white_to_move,
            }
        } else {
            Position {
                mover: black,
                opponent: white,
                mover_hand: bh,
                opponent_hand: wh,
                white_to_move,
            }
        })
    }
}

/// A position string that cannot be read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// The points of `set`, ascending.
fn bits(set: u32) -> impl Iterator<Item = usize> {
    let mut s = set;
    std::iter::from_fn(move || {
        (s != 0).then(|| {
            let p = s.trailing_zeros() as usize;
            s &= s - 1;
            p
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::rules::moves;

    /// On nine's presets these moves are the compiled generator's, from
    /// positions of random games of both variants.
    #[test]
    fn on_nine_the_moves_are_the_compiled_ones() {
        for variant in Variant::nines() {
            let play = Play::new(variant.rules().clone());
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            let mut next = |n: usize| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % n as u64) as usize
            };
            for _game in 0..200 {
                let mut pos = crate::rules::position::Position::initial();
                for _ply in 0..80 {
                    let g = Position {
                        mover: pos.mover,
                        opponent: pos.opponent,
                        mover_hand: pos.mover_hand,
                        opponent_hand: pos.opponent_hand,
                        white_to_move: pos.side == crate::Color::White,
                    };
                    let mut ours: Vec<String> = play
                        .moves(&g)
                        .into_iter()
                        .map(|m| play.move_text(m))
                        .collect();
                    let list = moves::legal_moves(&pos, variant);
                    let mut theirs: Vec<String> = list.iter().map(|m| m.to_string()).collect();
                    ours.sort();
                    theirs.sort();
                    assert_eq!(ours, theirs, "{pos}");
                    assert_eq!(
                        play.end(&g) == Some(End::Lost),
                        moves::is_lost(&pos, variant),
                        "{pos}"
                    );
                    if list.is_empty() {
                        break;
                    }
                    pos = moves::apply(&pos, list[next(list.len())]);
                }
            }
        }
    }

    #[test]
    fn perft_of_nine_is_the_compiled_perft() {
        let play = Play::new(Rules::preset("nine").unwrap());
        let start = crate::rules::position::Position::initial();
        for depth in 1..=4 {
            assert_eq!(
                play.perft(&play.initial(), depth),
                moves::perft(&start, depth, Variant::default()),
                "depth {depth}"
            );
        }
    }

    /// Lasker's turn: with stones in hand a side may also move one on the
    /// board; flying counts the stones in hand.
    #[test]
    fn laskers_turn_places_or_moves() {
        let play = Play::new(Rules::preset("lasker").unwrap());
        // White a1 and g1 on the board, 8 in hand; Black none, 9 in hand
        let pos = play.parse("W.W..................... w 8 9").unwrap();
        let texts: Vec<String> = play
            .moves(&pos)
            .into_iter()
            .map(|m| play.move_text(m))
            .collect();
        assert!(texts.contains(&"b2".to_string()));
        assert!(texts.contains(&"a1-a4".to_string()));
        assert!(
            !texts.contains(&"a1-b2".to_string()),
            "no flying with 10 stones"
        );
        // 2 on the board and 1 in hand: 3 in all, White flies (Black the same)
        let fly = play.parse("W.W.................B..B w 1 1").unwrap();
        assert!(play.can_fly(&fly));
        let texts: Vec<String> = play
            .moves(&fly)
            .into_iter()
            .map(|m| play.move_text(m))
            .collect();
        assert!(texts.contains(&"a1-f4".to_string()), "{texts:?}");
    }

    /// Three: a mill takes a stone and the game is won; twelve: a full board
    /// is a draw, and with the loss rule a loss for the side to move.
    #[test]
    fn three_and_a_full_board_end_as_the_rules_say() {
        let play = Play::new(Rules::preset("three").unwrap());
        let pos = play.parse("WW.BB.... w 1 1").unwrap();
        let win = (play.moves(&pos).into_iter())
            .find(|m| m.to == 2 && m.remove.is_some())
            .unwrap();
        assert_eq!(play.end(&play.apply(&pos, win)), Some(End::Lost));
        let twelve = Play::new(Rules::preset("twelve").unwrap());
        // a full board, no mill: White a1 d1 b2 ... in a pattern closing none
        let board: String = (0..24)
            .map(|p| {
                if [0, 2, 4, 6, 9, 11, 13, 15, 17, 19, 21, 23].contains(&p) {
                    'W'
                } else {
                    'B'
                }
            })
            .collect();
        let full = twelve.parse(&format!("{board} w 0 0")).unwrap();
        assert_eq!(twelve.end(&full), Some(End::Drawn));
        let mut spec = twelve.rules().spec();
        spec.full_board = FullBoard::LossForSideToMove;
        let loss = Play::new(Rules::new(spec).unwrap());
        assert_eq!(loss.end(&full), Some(End::Lost));
    }
}
