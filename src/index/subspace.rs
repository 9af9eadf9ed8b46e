//! Subspaces and sectors: the stones on board and in hand of the side to
//! move and of the opponent, the unit of indexing, solving and storage.

use crate::rules::geometry::{Bits, POINTS};
use crate::rules::position::{Color, Position};
use crate::rules::variant::{MIN_STONES, STONES_PER_SIDE};
use std::fmt;

/// A set of positions: stones on board and in hand for the side to move and the
/// opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Subspace {
    /// Stones of the side to move on the board.
    pub mover: u8,
    /// Stones of the opponent on the board.
    pub opponent: u8,
    /// Stones of the side to move in hand.
    pub mover_hand: u8,
    /// Stones of the opponent in hand.
    pub opponent_hand: u8,
}

impl fmt::Display for Subspace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.mover, self.opponent)?;
        if !self.is_movement() {
            write!(f, "/{}-{}", self.mover_hand, self.opponent_hand)?;
        }
        Ok(())
    }
}

/// A string that names no subspace or placement sector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubspaceParseError(pub String);

impl fmt::Display for SubspaceParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a subspace: write MOVER-OPPONENT stones on board, \
             {MIN_STONES}..{STONES_PER_SIDE} each (e.g. 7-6), or a placement sector \
             MOVER-OPPONENT/MOVER_HAND-OPPONENT_HAND (e.g. 4-4/5-5; see `millbase subspaces`)",
            crate::rules::position::excerpt(&self.0)
        )
    }
}

impl std::error::Error for SubspaceParseError {}

/// Reads the form [`Subspace`]'s `Display` writes: `M-O` for a movement
/// subspace, `M-O/MH-OH` for a placement sector; only subspaces and sectors that
/// hold positions of the game are accepted.
impl std::str::FromStr for Subspace {
    type Err = SubspaceParseError;

    fn from_str(s: &str) -> Result<Subspace, SubspaceParseError> {
        let numbers = |t: &str| -> Option<(u8, u8)> {
            let (a, b) = t.split_once('-')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        };
        let parsed = match s.split_once('/') {
            None => numbers(s).map(|(m, o)| Subspace::movement(m, o)),
            Some((board, hands)) => numbers(board)
                .zip(numbers(hands))
                .map(|((m, o), (mh, oh))| Subspace {
                    mover: m,
                    opponent: o,
                    mover_hand: mh,
                    opponent_hand: oh,
                }),
        };
        match parsed {
            Some(sub) if sub.is_movement() && sub.is_valid() => Ok(sub),
            Some(sub) if Subspace::all_placement().contains(&sub) => Ok(sub),
            _ => Err(SubspaceParseError(s.to_string())),
        }
    }
}

impl Subspace {
    /// The movement-phase subspace with `mover` and `opponent` stones on board.
    pub const fn movement(mover: u8, opponent: u8) -> Subspace {
        Subspace {
            mover,
            opponent,
            mover_hand: 0,
            opponent_hand: 0,
        }
    }

    /// The subspace of a position.
    pub fn of(pos: &Position) -> Subspace {
        Subspace {
            mover: pos.mover.count_ones() as u8,
            opponent: pos.opponent.count_ones() as u8,
            mover_hand: pos.mover_hand,
            opponent_hand: pos.opponent_hand,
        }
    }

    /// The position of this subspace with `mover` and `opponent` on the board:
    /// its stones in hand, and Black to move exactly when Black (the mover) has
    /// one stone more in hand than White (White places first). A movement
    /// position is given White to move; values do not depend on the colour.
    pub fn position(&self, mover: Bits, opponent: Bits) -> Position {
        let side = if self.mover_hand > self.opponent_hand {
            Color::Black
        } else {
            Color::White
        };
        Position {
            mover,
            opponent,
            mover_hand: self.mover_hand,
            opponent_hand: self.opponent_hand,
            side,
        }
    }

    /// The 49 movement subspaces, [`MIN_STONES`]..=[`STONES_PER_SIDE`] stones a
    /// side, in the order (mover, opponent).
    pub fn all_movement() -> Vec<Subspace> {
        let mut v = vec![];
        for m in MIN_STONES..=STONES_PER_SIDE {
            for o in MIN_STONES..=STONES_PER_SIDE {
                v.push(Subspace::movement(m, o));
            }
        }
        v
    }

    /// The placement-phase sectors: every stone count that a position string
    /// admits with stones in hand. The side to move has at least one stone in
    /// hand; the other side has as many (White to move) or one fewer (Black to
    /// move: White placed first); each side has at most [`STONES_PER_SIDE`]
    /// minus its hand on the board and at least [`MIN_STONES`] on board plus in
    /// hand. Ordered by the stones left to place, fewest first (placements lead
    /// only to sectors earlier in the list, or to the movement phase).
    pub fn all_placement() -> Vec<Subspace> {
        let mut v = vec![];
        for mover_hand in 1..=STONES_PER_SIDE {
            for opponent_hand in [mover_hand - 1, mover_hand] {
                for mover in 0..=STONES_PER_SIDE - mover_hand {
                    for opponent in 0..=STONES_PER_SIDE - opponent_hand {
                        let s = Subspace {
                            mover,
                            opponent,
                            mover_hand,
                            opponent_hand,
                        };
                        if s.is_valid() {
                            v.push(s);
                        }
                    }
                }
            }
        }
        v
    }

    /// This subspace and its colour swap (once, when they are the same), the
    /// subspaces solved together.
    pub fn with_swap(&self) -> Vec<Subspace> {
        if self.negate() == *self {
            vec![*self]
        } else {
            vec![*self, self.negate()]
        }
    }

    /// Whether both sides have no stones in hand.
    pub fn is_movement(&self) -> bool {
        self.mover_hand == 0 && self.opponent_hand == 0
    }

    /// The subspace after a move of the side to move that removes nothing.
    pub fn negate(&self) -> Subspace {
        let (mover, mover_hand) = if self.mover_hand > 0 {
            (self.mover + 1, self.mover_hand - 1)
        } else {
            (self.mover, 0)
        };
        Subspace {
            mover: self.opponent,
            opponent: mover,
            mover_hand: self.opponent_hand,
            opponent_hand: mover_hand,
        }
    }

    /// The subspace after a move that removes an opponent stone, or `None` when
    /// the removal ends the game (the opponent falls below 3 stones).
    pub fn after_removal(&self) -> Option<Subspace> {
        if self.opponent == 0 || self.opponent + self.opponent_hand <= MIN_STONES {
            return None;
        }
        let mut s = self.negate();
        s.mover -= 1;
        Some(s)
    }

    /// Every subspace a move can lead to.
    pub fn successors(&self) -> Vec<Subspace> {
        std::iter::once(self.negate())
            .chain(self.after_removal())
            .collect()
    }

    /// Whether the subspace holds positions that can arise (at most
    /// [`STONES_PER_SIDE`] stones a side, at least [`MIN_STONES`] each, stones fit
    /// on the board).
    pub fn is_valid(&self) -> bool {
        let m = self.mover + self.mover_hand;
        let o = self.opponent + self.opponent_hand;
        (MIN_STONES..=STONES_PER_SIDE).contains(&m)
            && (MIN_STONES..=STONES_PER_SIDE).contains(&o)
            && (self.mover + self.opponent) as usize <= POINTS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subspace_moves() {
        let s = Subspace::movement(5, 4);
        assert_eq!(s.negate(), Subspace::movement(4, 5));
        assert_eq!(s.after_removal(), Some(Subspace::movement(3, 5)));
        assert_eq!(Subspace::movement(5, 3).after_removal(), None);
        let p = Subspace {
            mover: 2,
            opponent: 2,
            mover_hand: 7,
            opponent_hand: 7,
        };
        assert_eq!(
            p.negate(),
            Subspace {
                mover: 2,
                opponent: 3,
                mover_hand: 7,
                opponent_hand: 6
            }
        );
        assert_eq!(
            p.after_removal(),
            Some(Subspace {
                mover: 1,
                opponent: 3,
                mover_hand: 7,
                opponent_hand: 6
            })
        );
        assert_eq!(p.to_string(), "2-2/7-7");
        assert_eq!(Subspace::all_movement().len(), 49);
    }
}
