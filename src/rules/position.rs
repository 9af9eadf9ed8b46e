//! Positions: each side's stones, stones in hand and the side to move, with the
//! docs/RULES.md position string (`BOARD SIDE WHITE_IN_HAND BLACK_IN_HAND`).
//!
//! A [`Position`] is stored relative to the side to move ("mover"), so a position
//! with Black to move and its colour swap with White to move share everything but
//! [`Position::side`].

use crate::rules::geometry::{Bits, Geometry, POINTS, points};
use crate::rules::variant::{MIN_STONES, STONES_PER_SIDE, Variant};
use std::fmt;
use std::str::FromStr;

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White, who moves first.
    White,
    /// Black.
    Black,
}

impl Color {
    /// The other player.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Capitalised name, as in error messages and `show`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// Lower-case name, as in JSON answers: `white` or `black`.
    pub fn json_name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

/// A position between moves, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stones of the side to move.
    pub mover: Bits,
    /// Stones of the other side.
    pub opponent: Bits,
    /// Stones the side to move still has in hand.
    pub mover_hand: u8,
    /// Stones the other side still has in hand.
    pub opponent_hand: u8,
    /// Which colour is to move.
    pub side: Color,
}

/// Why a position string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Not exactly four space-separated fields.
    FieldCount(usize),
    /// The board field is not one character a point long.
    BoardLength {
        /// Characters found.
        found: usize,
        /// The board's points.
        points: usize,
    },
    /// A board character other than `W`, `B`, `.`.
    BoardChar {
        /// The offending character.
        ch: char,
        /// Its 0-based index in the board field.
        index: usize,
        /// The name of the point it stands for.
        point: String,
    },
    /// The side field is not `w` or `b`.
    Side(String),
    /// An in-hand count that is not a number from 0 to the rules' stones.
    Count {
        /// Whose count.
        color: Color,
        /// The field as given.
        text: String,
        /// The rules' stones a side.
        stones: u8,
    },
    /// A side has more than the rules' stones on board plus in hand.
    TooManyStones {
        /// Which side.
        color: Color,
        /// Stones on board plus in hand.
        total: u32,
        /// The rules' stones a side.
        stones: u8,
    },
    /// In-hand counts that cannot occur with this side to move.
    HandCounts {
        /// Side to move.
        side: Color,
        /// White's stones in hand.
        white: u8,
        /// Black's stones in hand.
        black: u8,
    },
    /// A side has fewer than 3 stones on board plus in hand: the game is over.
    GameOver {
        /// The side that has lost.
        color: Color,
        /// Its stones on board plus in hand.
        total: u32,
        /// Whether it is the side to move.
        to_move: bool,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            FieldCount(n) => write!(
                f,
                "expected 4 fields \"BOARD SIDE WHITE_IN_HAND BLACK_IN_HAND\" separated by spaces, found {n}"
            ),
            BoardLength { found, points } => write!(
                f,
                "the board must be {points} characters (W, B or .), found {found}"
            ),
            BoardChar { ch, index, point } => write!(
                f,
                "invalid board character {ch:?} at position {} (point {point}); use W, B or .",
                index + 1,
            ),
            Side(s) => write!(f, "side to move must be w or b, found {s:?}"),
            Count {
                color,
                text,
                stones,
            } => write!(
                f,
                "{}'s stones in hand must be a number from 0 to {stones}, found {text:?}",
                color.name()
            ),
            TooManyStones {
                color,
                total,
                stones,
            } => write!(
                f,
                "{} has {total} stones on board plus in hand; at most {stones} are allowed",
                color.name()
            ),
            HandCounts { side, white, black } => write!(
                f,
                "impossible stones in hand with {} to move: White {white}, Black {black} \
                 (with White to move both counts are equal; with Black to move White has one \
                 fewer, or both are 0)",
                side.name()
            ),
            GameOver {
                color,
                total,
                to_move,
            } => write!(
                f,
                "{} {} only {total} stones on board plus in hand: the game is already over",
                color.name(),
                if *to_move {
                    "(to move) has"
                } else {
                    "(not to move) has"
                }
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The initial position: empty board, 9 stones in hand each, White to move.
    pub fn initial() -> Position {
        Position::initial_with(STONES_PER_SIDE)
    }

    /// The start of the game with `n` stones a side (at most
    /// [`STONES_PER_SIDE`]): an empty board, White to move.
    pub fn initial_with(n: u8) -> Position {
        let n = n.min(STONES_PER_SIDE);
        Position {
            mover: 0,
            opponent: 0,
            mover_hand: n,
            opponent_hand: n,
            side: Color::White,
        }
    }

    /// White's and Black's stones on the board.
    pub fn white_black(&self) -> (Bits, Bits) {
        match self.side {
            Color::White => (self.mover, self.opponent),
            Color::Black => (self.opponent, self.mover),
        }
    }

    /// White's and Black's stones in hand.
    pub fn hands(&self) -> (u8, u8) {
        match self.side {
            Color::White => (self.mover_hand, self.opponent_hand),
            Color::Black => (self.opponent_hand, self.mover_hand),
        }
    }

    /// Builds a position from White's and Black's stones and hands.
    pub fn from_colors(white: Bits, black: Bits, hands: (u8, u8), side: Color) -> Position {
        let (mover, opponent, mover_hand, opponent_hand) = match side {
            Color::White => (white, black, hands.0, hands.1),
            Color::Black => (black, white, hands.1, hands.0),
        };
        Position {
            mover,
            opponent,
            mover_hand,
            opponent_hand,
            side,
        }
    }

    /// Stones of the side to move, on board plus in hand.
    pub fn mover_total(&self) -> u32 {
        self.mover.count_ones() + self.mover_hand as u32
    }

    /// Stones of the other side, on board plus in hand.
    pub fn opponent_total(&self) -> u32 {
        self.opponent.count_ones() + self.opponent_hand as u32
    }

    /// Whether the side to move has fewer than [`MIN_STONES`] stones on board
    /// plus in hand: it has lost.
    pub fn mover_below_minimum(&self) -> bool {
        self.mover_total() < MIN_STONES as u32
    }

    /// Whether the other side has fewer than [`MIN_STONES`] stones on board plus
    /// in hand: the game ended before this position.
    pub fn opponent_below_minimum(&self) -> bool {
        self.opponent_total() < MIN_STONES as u32
    }

    /// Whether both sides have placed all their stones.
    pub fn is_movement_phase(&self) -> bool {
        self.mover_hand == 0 && self.opponent_hand == 0
    }

    /// Checks every rule of docs/RULES.md for a valid position string.
    /// A side to move below [`MIN_STONES`] is a finished game, not an error
    /// (it has lost); the other side below it cannot be (the game ended
    /// before).
    pub fn validate(&self) -> Result<(), PositionError> {
        self.validate_in(Variant::default())
    }

    /// [`Position::validate`] under the stone counts of `variant`.
    pub fn validate_in(&self, variant: Variant) -> Result<(), PositionError> {
        self.validate_setup(variant.stones())?;
        if self.opponent_below_minimum() {
            return Err(PositionError::GameOver {
                color: self.side.other(),
                total: self.opponent_total(),
                to_move: false,
            });
        }
        Ok(())
    }

    /// Parses a position string that may show a finished game (a side below
    /// [`MIN_STONES`]): every other rule of [`Position::validate`] holds.
    pub fn parse_finished(s: &str) -> Result<Position, PositionError> {
        Position::parse_finished_in(s, Variant::default())
    }

    /// [`Position::parse_finished`] on the board of `variant`.
    pub fn parse_finished_in(s: &str, variant: Variant) -> Result<Position, PositionError> {
        let pos = parse_fields(s, variant)?;
        pos.validate_setup(variant.stones())?;
        Ok(pos)
    }

    /// A position string on the board of `variant` ([`FromStr`] is nine's).
    pub fn parse_in(s: &str, variant: Variant) -> Result<Position, PositionError> {
        let pos = parse_fields(s, variant)?;
        pos.validate_in(variant)?;
        Ok(pos)
    }

    /// The position string on board `g` (one character a point, in its
    /// canonical order); [`fmt::Display`] writes it on the nine board.
    pub fn text(&self, g: &Geometry) -> String {
        self.text_of(g.len())
    }

    fn text_of(&self, points: usize) -> String {
        let board: String = (0..points).map(|p| self.point_char(p)).collect();
        let (wh, bh) = self.hands();
        let side = match self.side {
            Color::White => 'w',
            Color::Black => 'b',
        };
        format!("{board} {side} {wh} {bh}")
    }

    /// The rules of [`Position::validate`] but the end of the game, with
    /// `stones` a side.
    fn validate_setup(&self, stones: u8) -> Result<(), PositionError> {
        let (white, black) = self.white_black();
        let (wh, bh) = self.hands();
        for (color, set, hand) in [(Color::White, white, wh), (Color::Black, black, bh)] {
            if hand > stones {
                return Err(PositionError::Count {
                    color,
                    text: hand.to_string(),
                    stones,
                });
            }
            let total = set.count_ones() + hand as u32;
            if total > stones as u32 {
                return Err(PositionError::TooManyStones {
                    color,
                    total,
                    stones,
                });
            }
        }
        let counts_ok = match self.side {
            Color::White => wh == bh,
            Color::Black => wh + 1 == bh || (wh == 0 && bh == 0),
        };
        if !counts_ok {
            return Err(PositionError::HandCounts {
                side: self.side,
                white: wh,
                black: bh,
            });
        }
        Ok(())
    }

    /// The character of point `p`: `W`, `B` or `.`.
    pub fn point_char(&self, p: usize) -> char {
        let (white, black) = self.white_black();
        if white & (1 << p) != 0 {
            'W'
        } else if black & (1 << p) != 0 {
            'B'
        } else {
            '.'
        }
    }

    /// The board drawn as in docs/RULES.md, with stones instead of point names.
    pub fn diagram(&self) -> String {
        use crate::rules::geometry::{COORDS, NEIGHBOURS};
        const W: usize = 25;
        let mut grid = vec![vec![' '; W]; 13];
        let cell = |p: usize| (2 * (6 - COORDS[p].1 as usize), 4 * COORDS[p].0 as usize);
        for (p, &neighbours) in NEIGHBOURS.iter().enumerate() {
            let (r, c) = cell(p);
            grid[r][c] = self.point_char(p);
            for q in points(neighbours).filter(|&q| q > p) {
                let (r2, c2) = cell(q);
                if r == r2 {
                    (c + 1..c2).for_each(|x| grid[r][x] = '-');
                } else {
                    (r2 + 1..r).for_each(|y| grid[y][c] = '|');
                }
            }
        }
        let mut out = String::new();
        for (i, row) in grid.iter().enumerate() {
            let label = if i % 2 == 0 {
                format!("{} ", 7 - i / 2)
            } else {
                "  ".into()
            };
            out.push_str(&label);
            out.push_str(row.iter().collect::<String>().trim_end());
            out.push('\n');
        }
        out.push_str("  a   b   c   d   e   f   g\n");
        out
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text_of(POINTS))
    }
}

/// `text` as it is if short, else its first 40 characters and its length, for
/// error messages about input of any size.
pub fn excerpt(text: &str) -> String {
    const SHOWN: usize = 40;
    let n = text.chars().count();
    if n <= SHOWN {
        return text.to_string();
    }
    let head: String = text.chars().take(SHOWN).collect();
    format!("{head}... ({n} characters)")
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::parse_in(s, Variant::default())
    }
}

/// The four fields of a position string, each checked on its own.
fn parse_fields(s: &str, variant: Variant) -> Result<Position, PositionError> {
    let g = variant.geometry();
    // fields are separated by any run of white space
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() != 4 {
        return Err(PositionError::FieldCount(fields.len()));
    }
    let board = fields[0];
    let n = board.chars().count();
    if n != g.len() {
        return Err(PositionError::BoardLength {
            found: n,
            points: g.len(),
        });
    }
    let (mut white, mut black) = (0, 0);
    for (index, ch) in board.chars().enumerate() {
        match ch {
            'W' => white |= 1 << index,
            'B' => black |= 1 << index,
            '.' => {}
            _ => {
                return Err(PositionError::BoardChar {
                    ch,
                    index,
                    point: g.name(index).to_string(),
                });
            }
        }
    }
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(PositionError::Side(excerpt(other))),
    };
    let stones = variant.stones();
    let count = |color: Color, text: &str| match text.parse::<u8>() {
        Ok(v) if v <= stones && text.len() <= 2 && !(text.len() == 2 && text.starts_with('0')) => {
            Ok(v)
        }
        _ => Err(PositionError::Count {
            color,
            text: excerpt(text),
            stones,
        }),
    };
    let wh = count(Color::White, fields[2])?;
    let bh = count(Color::Black, fields[3])?;
    Ok(Position::from_colors(white, black, (wh, bh), side))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> PositionError {
        s.parse::<Position>().expect_err(s)
    }

    #[test]
    fn round_trips() {
        for s in [
            "........................ w 9 9",
            "W....................... b 8 9",
            "WWW.BBB................. w 0 0",
            "WWW.BBB................. b 0 0",
            "WW.B.....B.W............ w 6 6",
            "WWWWWWWWW.BBBBBBBBB..... b 0 0",
        ] {
            let p: Position = s.parse().unwrap();
            assert_eq!(p.to_string(), s);
        }
    }

    #[test]
    fn mover_is_side_to_move() {
        let p: Position = "WWW.BBB................. b 0 0".parse().unwrap();
        assert_eq!(p.mover, 0b111_0000);
        assert_eq!(p.opponent, 0b111);
    }

    #[test]
    fn rejections_name_the_problem() {
        assert_eq!(
            err("........................ w 9"),
            PositionError::FieldCount(3)
        );
        assert_eq!(
            err("........................ w 9 9 x"),
            PositionError::FieldCount(5)
        );
        assert_eq!(
            err("....................... w 9 9"),
            PositionError::BoardLength {
                found: 23,
                points: 24
            }
        );
        assert_eq!(
            err("......x................. w 9 9"),
            PositionError::BoardChar {
                ch: 'x',
                index: 6,
                point: "c3".into()
            }
        );
        assert!(
            err("......x................. w 9 9")
                .to_string()
                .contains("c3")
        );
        assert_eq!(
            err("........................ W 9 9"),
            PositionError::Side("W".into())
        );
        assert!(matches!(
            err("........................ w 10 9"),
            PositionError::Count {
                color: Color::White,
                ..
            }
        ));
        assert!(matches!(
            err("........................ w 9 -1"),
            PositionError::Count {
                color: Color::Black,
                ..
            }
        ));
        assert!(matches!(
            err("WWWWWWWWWW.............. w 0 0"),
            PositionError::TooManyStones {
                color: Color::White,
                total: 10,
                stones: 9
            }
        ));
        assert!(matches!(
            err("W....................... w 9 9"),
            PositionError::TooManyStones { .. }
        ));
        assert!(matches!(
            err("........................ w 8 9"),
            PositionError::HandCounts { .. }
        ));
        assert!(matches!(
            err("........................ b 9 9"),
            PositionError::HandCounts { .. }
        ));
        // the side to move below 3 stones: a finished game, not an error
        let over: Position = "WW.BBB.................. w 0 0".parse().unwrap();
        assert!(over.mover_below_minimum());
        assert!(matches!(
            err("WWW.BB.................. w 0 0"),
            PositionError::GameOver { to_move: false, .. }
        ));
        // any run of white space separates fields
        for spaced in [
            "........................  w 9 9",
            " ........................\tw 9 9 ",
        ] {
            assert_eq!(spaced.parse::<Position>(), Ok(Position::initial()));
        }
        assert!(matches!(
            err("........................ w9 9"),
            PositionError::FieldCount(3)
        ));
        // long input is shortened in messages
        let long = format!("........................ {} 9 9", "w".repeat(100_000));
        let msg = err(&long).to_string();
        assert!(
            msg.len() < 200 && msg.contains("100000 characters"),
            "{msg}"
        );
    }

    #[test]
    fn diagram_has_all_points() {
        let p: Position = "WWW.BBB................. w 0 0".parse().unwrap();
        let d = p.diagram();
        assert_eq!(d.matches('W').count(), 3);
        assert_eq!(d.matches('B').count(), 3);
        assert_eq!(d.matches('.').count(), 18);
        assert!(d.starts_with("7 .-----------.-----------."));
    }
}
