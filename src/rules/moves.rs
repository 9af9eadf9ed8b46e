//! Forward move generation: placement, slide and flying, with the removal after a
//! closed mill as part of the move, and the end of the game.

use crate::rules::geometry::{
    Bits, Lines, Nine, POINT_NAMES, SYMMETRIES, SYMMETRY_COUNT, point_by_name, points, transform,
};
use crate::rules::position::{Color, Position};
use crate::rules::variant::Variant;
use std::fmt;
use std::str::FromStr;

/// One move (one ply): a placement or a slide/fly, plus the removal it makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Origin of a slide or fly; `None` for a placement.
    pub from: Option<u8>,
    /// Destination point.
    pub to: u8,
    /// Opponent stone removed after closing a mill.
    pub remove: Option<u8>,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from {
            write!(f, "{}-", POINT_NAMES[from as usize])?;
        }
        write!(f, "{}", POINT_NAMES[self.to as usize])?;
        if let Some(r) = self.remove {
            write!(f, "x{}", POINT_NAMES[r as usize])?;
        }
        Ok(())
    }
}

/// A move string that is not in docs/RULES.md notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveParseError(pub String);

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = &self.0;
        // a word shaped like a point (a letter and a number) that is none
        let not_a_point = (text.split(['-', 'x']))
            .find(|w| point_by_name(w).is_none())
            .filter(|w| {
                let mut c = w.chars();
                c.next().is_some_and(|l| l.is_ascii_lowercase())
                    && !c.as_str().is_empty()
                    && c.as_str().bytes().all(|b| b.is_ascii_digit())
            });
        if let Some(w) = not_a_point {
            return write!(
                f,
                "invalid move {text:?}: {w} is not a point (the points are a1 d1 g1 b2 d2 f2 \
                 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7)"
            );
        }
        write!(
            f,
            "invalid move {text:?}: expected a point (d1), from-to (d1-d2), optionally followed by xPOINT (d1-d2xa7)"
        )
    }
}

impl std::error::Error for MoveParseError {}

impl FromStr for Move {
    type Err = MoveParseError;

    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        let bad = || MoveParseError(s.to_string());
        let (body, remove) = match s.split_once('x') {
            Some((b, r)) => (b, Some(point_by_name(r).ok_or_else(bad)?)),
            None => (s, None),
        };
        let (from, to) = match body.split_once('-') {
            Some((f, t)) => (
                Some(point_by_name(f).ok_or_else(bad)?),
                point_by_name(t).ok_or_else(bad)?,
            ),
            None => (None, point_by_name(body).ok_or_else(bad)?),
        };
        if from == Some(to) {
            return Err(bad());
        }
        Ok(Move { from, to, remove })
    }
}

/// The opponent stones that may be removed after closing a mill on board
/// `g`: those not in a mill, or all of them when every one is in a mill.
#[inline]
pub fn removable(g: impl Lines, opponent: Bits) -> Bits {
    let free = opponent & !g.stones_in_mills(opponent);
    if free != 0 { free } else { opponent }
}

/// Whether the side to move may fly under `variant`.
#[inline]
pub fn can_fly(pos: &Position, variant: Variant) -> bool {
    variant.can_fly(pos.mover.count_ones(), pos.mover_hand)
}

/// Whether the game is over with the side to move having lost: fewer than 3 stones
/// on board plus in hand, or no legal move.
pub fn is_lost(pos: &Position, variant: Variant) -> bool {
    pos.mover_below_minimum() || !has_legal_move(pos, variant)
}

/// Whether the side to move has any legal move (ignoring the stone-count rule).
pub fn has_legal_move(pos: &Position, variant: Variant) -> bool {
    let g = variant.geometry();
    let empty = g.all() & !(pos.mover | pos.opponent);
    if pos.mover_hand > 0 {
        return empty != 0;
    }
    if can_fly(pos, variant) {
        return empty != 0;
    }
    points(pos.mover).any(|p| g.neighbours(p) & empty != 0)
}

/// Appends every legal move of the side to move to `out`. A position whose game
/// is over (a side below 3 stones) has no moves.
pub fn generate(pos: &Position, variant: Variant, out: &mut Vec<Move>) {
    match variant.nine_flying() {
        Some(_) => generate_on(Nine, pos, variant, out),
        None => generate_on(variant.geometry(), pos, variant, out),
    }
}

/// [`generate`] on the board `g` of `variant`: compiled once for nine's
/// constant tables, once for any board's.
#[inline(never)]
fn generate_on(g: impl Lines, pos: &Position, variant: Variant, out: &mut Vec<Move>) {
    if pos.mover_below_minimum() || pos.opponent_below_minimum() {
        return;
    }
    let empty = g.all() & !(pos.mover | pos.opponent);
    let removals = removable(g, pos.opponent);
    let mut push = |from: Option<u8>, to: usize, after: Bits| {
        if g.in_mill(after, to) && pos.opponent != 0 {
            for r in points(removals) {
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
        for to in points(empty) {
            push(None, to, pos.mover | (1 << to));
        }
    } else {
        let fly = can_fly(pos, variant);
        for from in points(pos.mover) {
            let targets = if fly {
                empty
            } else {
                g.neighbours(from) & empty
            };
            for to in points(targets) {
                push(Some(from as u8), to, pos.mover ^ (1 << from) ^ (1 << to));
            }
        }
    }
}

/// All legal moves of the side to move.
pub fn legal_moves(pos: &Position, variant: Variant) -> Vec<Move> {
    let mut v = Vec::with_capacity(64);
    generate(pos, variant, &mut v);
    v
}

/// The counter of plies since the last removal after `mv` is played at
/// `counter`: 0 after a removal, one more otherwise.
pub fn counter_after(mv: Move, counter: u16) -> u16 {
    if mv.remove.is_some() {
        0
    } else {
        counter.saturating_add(1)
    }
}

/// The position after `mv`, which must be legal in `pos`.
#[inline]
pub fn apply(pos: &Position, mv: Move) -> Position {
    let mut mover = pos.mover | (1 << mv.to);
    let mut mover_hand = pos.mover_hand;
    match mv.from {
        Some(f) => mover &= !(1 << f),
        None => mover_hand -= 1,
    }
    let opponent = match mv.remove {
        Some(r) => pos.opponent & !(1 << r),
        None => pos.opponent,
    };
    Position {
        mover: opponent,
        opponent: mover,
        mover_hand: pos.opponent_hand,
        opponent_hand: mover_hand,
        side: pos.side.other(),
    }
}

/// Why a move given by the user cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a legal move in this position", self.0)
    }
}

impl std::error::Error for IllegalMove {}

/// Plays `mv` after checking that it is legal.
pub fn play(pos: &Position, mv: Move, variant: Variant) -> Result<Position, IllegalMove> {
    if legal_moves(pos, variant).contains(&mv) {
        Ok(apply(pos, mv))
    } else {
        Err(IllegalMove(mv))
    }
}

/// Number of leaf nodes `depth` plies below `pos` (a move with its removal is one ply).
pub fn perft(pos: &Position, depth: u32, variant: Variant) -> u64 {
    fn walk(pos: &Position, depth: u32, variant: Variant, bufs: &mut [Vec<Move>]) -> u64 {
        let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
        buf.clear();
        generate(pos, variant, buf);
        if depth == 1 {
            return buf.len() as u64;
        }
        let mut n = 0;
        for &m in buf.iter() {
            let child = apply(pos, m);
            n += walk(&child, depth - 1, variant, rest);
        }
        n
    }
    if depth == 0 {
        return 1;
    }
    let mut bufs = vec![Vec::with_capacity(64); depth as usize];
    walk(pos, depth, variant, &mut bufs)
}

impl Move {
    /// The image of this move under symmetry `s` of the board.
    pub fn image(self, s: usize) -> Move {
        let map = |p: u8| SYMMETRIES[s][p as usize];
        Move {
            from: self.from.map(map),
            to: map(self.to),
            remove: self.remove.map(map),
        }
    }
}

/// The symmetries of the board other than the identity that map `pos` to
/// itself: under them, a move and its image lead to equivalent positions.
pub fn symmetries_of(pos: &Position) -> Vec<usize> {
    (1..SYMMETRY_COUNT)
        .filter(|&s| {
            transform(s, pos.mover) == pos.mover && transform(s, pos.opponent) == pos.opponent
        })
        .collect()
}

/// How a game ended: who lost, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `loser` has only `stones` on board plus in hand.
    TooFewStones {
        /// The side that lost.
        loser: Color,
        /// Its stones on board plus in hand.
        stones: u32,
    },
    /// `loser`, to move, has no legal move.
    Blocked {
        /// The side that lost.
        loser: Color,
    },
}

impl Ending {
    /// The side that has won.
    pub fn winner(self) -> Color {
        match self {
            Ending::TooFewStones { loser, .. } | Ending::Blocked { loser } => loser.other(),
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Ending::TooFewStones { loser, stones } => write!(
                f,
                "{} has {stones} stone{}: {} has won",
                loser.name(),
                if stones == 1 { "" } else { "s" },
                loser.other().name()
            ),
            Ending::Blocked { loser } => {
                write!(f, "{} cannot move: {} has lost", loser.name(), loser.name())
            }
        }
    }
}

/// How the game of `pos` has ended, if it has (the side to move is checked
/// first).
pub fn ending(pos: &Position, variant: Variant) -> Option<Ending> {
    if pos.mover_below_minimum() {
        return Some(Ending::TooFewStones {
            loser: pos.side,
            stones: pos.mover_total(),
        });
    }
    if pos.opponent_below_minimum() {
        return Some(Ending::TooFewStones {
            loser: pos.side.other(),
            stones: pos.opponent_total(),
        });
    }
    (!has_legal_move(pos, variant)).then_some(Ending::Blocked { loser: pos.side })
}

/// Why `mv` is not a legal move of `pos` (a sentence naming the fault), or
/// `None` if it is legal.
pub fn why_illegal(pos: &Position, variant: Variant, mv: Move) -> Option<String> {
    if legal_moves(pos, variant).contains(&mv) {
        return None;
    }
    if let Some(end) = ending(pos, variant) {
        return Some(format!("the game is over ({end})"));
    }
    let me = pos.side.name();
    let them = pos.side.other().name();
    let g = variant.geometry();
    let name = |p: u8| g.name(p as usize);
    let occupied = pos.mover | pos.opponent;
    let reason = match mv.from {
        None if pos.mover_hand == 0 => {
            format!("{me} has no stones in hand: move a stone (from-to)")
        }
        Some(_) if pos.mover_hand > 0 => {
            format!("{me} still has stones in hand: place one")
        }
        Some(f) if pos.mover & (1 << f) == 0 => format!("{} holds no {me} stone", name(f)),
        _ if occupied & (1 << mv.to) != 0 => format!("{} is not empty", name(mv.to)),
        Some(f) if !can_fly(pos, variant) && g.neighbours(f as usize) & (1 << mv.to) == 0 => {
            let flying = match variant.flying_stones() {
                Some(k) => format!("{me} flies only with {k} stones"),
                None => "no stone flies in these rules".into(),
            };
            format!(
                "{} and {} are not neighbours ({flying})",
                name(f),
                name(mv.to)
            )
        }
        _ => {
            let after = match mv.from {
                Some(f) => pos.mover & !(1 << f) | (1 << mv.to),
                None => pos.mover | (1 << mv.to),
            };
            let closes = g.in_mill(after, mv.to as usize);
            match mv.remove {
                None if closes => format!(
                    "it closes a mill: add the {them} stone it removes (e.g. {mv}x{})",
                    name(removable(g, pos.opponent).trailing_zeros() as u8)
                ),
                Some(_) if !closes => "it closes no mill, so it removes no stone".to_string(),
                Some(r) if pos.opponent & (1 << r) == 0 => {
                    format!("{} holds no {them} stone to remove", name(r))
                }
                Some(r) => format!(
                    "{} stands in a mill of {them}, and {them} has stones outside mills: \
                     remove one of those",
                    name(r)
                ),
                None => "it is not a legal move here".to_string(),
            }
        }
    };
    Some(reason)
}

/// The words of a game record that are moves: split at spaces and commas,
/// move numbers (`1.`, `12.`, `3...`) left out.
pub fn record_words(record: &str) -> impl Iterator<Item = &str> {
    record
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .filter(|w| {
            let digits = w.trim_end_matches('.');
            !(digits.len() < w.len()
                && !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// A move as a player may write it: upper case accepted (`D1-D2XA7`).
pub fn parse_move(word: &str) -> Result<Move, MoveParseError> {
    word.to_ascii_lowercase().parse()
}

/// [`perft`] with the first ply split over the rayon thread pool.
pub fn perft_parallel(pos: &Position, depth: u32, variant: Variant) -> u64 {
    perft_parallel_with(pos, depth, variant, &|_, _| {})
}

/// [`perft_parallel`], calling `done(finished, of)` each time the subtree of
/// one of the `of` first moves is counted.
pub fn perft_parallel_with(
    pos: &Position,
    depth: u32,
    variant: Variant,
    done: &(dyn Fn(usize, usize) + Sync),
) -> u64 {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    if depth <= 2 {
        return perft(pos, depth, variant);
    }
    let list = legal_moves(pos, variant);
    let finished = AtomicUsize::new(0);
    list.par_iter()
        .map(|&m| {
            let n = perft(&apply(pos, m), depth - 1, variant);
            done(finished.fetch_add(1, Relaxed) + 1, list.len());
            n
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_moves_are_explained() {
        let fly = Variant::default();
        let slide = Variant::nine(false);
        let why = |p: &str, r: Variant, m: &str| why_illegal(&pos(p), r, m.parse().unwrap());
        let start = "........................ w 9 9";
        assert_eq!(why(start, fly, "d1"), None);
        assert_eq!(
            why(start, fly, "d1-d2").unwrap(),
            "White still has stones in hand: place one"
        );
        // White a1 d1 d6 (flying with 3), Black d3 e3 a7
        let p = "WW.....BB..........W.B.. w 0 0";
        assert_eq!(why(p, fly, "d6-g1xd3"), None);
        assert!(
            why(p, fly, "d6-g1")
                .unwrap()
                .starts_with("it closes a mill")
        );
        assert_eq!(
            why(p, fly, "d6-g1xa1").unwrap(),
            "a1 holds no Black stone to remove"
        );
        assert_eq!(why(p, fly, "d6-d3").unwrap(), "d3 is not empty");
        assert_eq!(why(p, fly, "a4-b4").unwrap(), "a4 holds no White stone");
        assert_eq!(
            why(p, fly, "d6-b6xd3").unwrap(),
            "it closes no mill, so it removes no stone"
        );
        assert_eq!(
            why(p, fly, "d6").unwrap(),
            "White has no stones in hand: move a stone (from-to)"
        );
        assert!(
            why(p, slide, "d6-g1xd3")
                .unwrap()
                .starts_with("d6 and g1 are not neighbours")
        );
        // protected: Black a1 d1 g1 in a mill and e4 outside; White d6 a7 g7
        let q = "BBB.........B......W.W.W w 0 0";
        assert!(
            why(q, fly, "d6-d7xd1")
                .unwrap()
                .contains("stands in a mill")
        );
        assert_eq!(why(q, fly, "d6-d7xe4"), None);
    }

    #[test]
    fn endings_are_said_in_words() {
        let r = Variant::nine(false);
        // White (a1 d1 g1) is blocked by Black on a4 d2 g4 and may not fly
        let blocked = pos("WWW.B....B....B......B.. w 0 0");
        assert_eq!(
            ending(&blocked, r).unwrap().to_string(),
            "White cannot move: White has lost"
        );
        assert_eq!(ending(&blocked, Variant::default()), None);
        let two = Position::parse_finished("WWW.B....B.............. w 0 0").unwrap();
        assert_eq!(
            ending(&two, r).unwrap().to_string(),
            "Black has 2 stones: White has won"
        );
    }

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn notation_round_trips() {
        for s in ["d1", "d1-d2", "d1-d2xa7", "d1xa7", "g7-a1xc4"] {
            assert_eq!(s.parse::<Move>().unwrap().to_string(), s);
        }
        for s in [
            "", "d8", "d1-", "-d2", "d1-d1", "d1xh9", "d1--d2", "D1", "d1 ",
        ] {
            assert!(s.parse::<Move>().is_err(), "{s}");
        }
    }

    #[test]
    fn opening_perft_by_arithmetic() {
        let p = Position::initial();
        let want = [1u64, 24, 552, 12144, 255024];
        for (d, &n) in want.iter().enumerate() {
            assert_eq!(perft(&p, d as u32, Variant::default()), n);
        }
    }

    #[test]
    fn mill_closing_removes_exactly_one_unprotected_stone() {
        // White a1 d1 e5; Black a4 and the mill b6 d6 f6. Placing g1 closes a1 d1 g1.
        let p = pos("WW.......B.......WBBB... w 5 5");
        let moves = legal_moves(&p, Variant::default());
        let g1: Vec<String> = moves
            .iter()
            .filter(|m| m.to == 2)
            .map(|m| m.to_string())
            .collect();
        assert_eq!(g1, vec!["g1xa4"]);
        assert!(
            moves
                .iter()
                .filter(|m| m.to != 2)
                .all(|m| m.remove.is_none())
        );
        assert_eq!(moves.len(), 24 - 7);
    }

    #[test]
    fn all_in_mills_makes_all_removable() {
        // White a1 d1 g4; g4-g1 closes a mill and Black's only stones b6 d6 f6 form a mill.
        let p = pos("WW............W...BBB... w 0 0");
        let mut got: Vec<String> = legal_moves(&p, Variant::nine(false))
            .iter()
            .map(|m| m.to_string())
            .collect();
        got.sort();
        let want = [
            "a1-a4", "d1-d2", "d1-g1", "g4-f4", "g4-g1xb6", "g4-g1xd6", "g4-g1xf6", "g4-g7",
        ];
        assert_eq!(got, want);
        assert_eq!(removable(crate::rules::geometry::Nine, 0b111), 0b111);
        assert_eq!(removable(crate::rules::geometry::Nine, 0b1111), 0b1000);
    }

    #[test]
    fn blocked_side_has_lost() {
        // White a1 d1 g1 hemmed in by Black d2 a4 g4 f6.
        let blocked = pos("WWW.B....B....B.....B... w 0 0");
        let no_fly = Variant::nine(false);
        assert!(is_lost(&blocked, no_fly));
        assert!(legal_moves(&blocked, no_fly).is_empty());
        // with flying, White has 3 stones and may fly to any of the 17 empty points
        assert!(!is_lost(&blocked, Variant::default()));
        assert_eq!(legal_moves(&blocked, Variant::default()).len(), 3 * 17);
    }

    #[test]
    fn play_rejects_illegal() {
        let p = Position::initial();
        assert!(play(&p, "d1-d2".parse().unwrap(), Variant::default()).is_err());
        let q = play(&p, "d1".parse().unwrap(), Variant::default()).unwrap();
        assert_eq!(q.to_string(), ".W...................... b 8 9");
    }
}
