//! The 21 rolls and every legal bear-off play of a roll, in gnubg's order, in
//! gnubg's notation (`6/4 1/off`).
//!
//! The rules (`../shared/seeds/002`, docs/RULES.md): a chequer moves down by
//! the number of a die; once every chequer is in the home board (points 1-6)
//! one bears off with the exact number, or with a higher number from the
//! highest occupied point. Both dice are played where possible (a double four
//! times), else as many as possible, and where only one of two can be played
//! the larger. Plays are listed once per position they lead to, in the order
//! gnubg's `GenerateMoves` first reaches them (the larger die first, each die
//! from the highest point down), because gnubg keeps the first of equally
//! good plays and its files follow that choice.

use crate::bearoff::position::{MAX_POINTS, Side};
use smallvec::SmallVec;
use std::fmt;

/// The points of the home board, from which chequers may be borne off.
const HOME: usize = 6;

/// A roll of two dice, the higher first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    /// The higher die.
    pub high: u8,
    /// The lower die.
    pub low: u8,
}

impl Roll {
    /// The 21 distinct rolls in gnubg's order: 11, 21, 22, 31, ... 66.
    pub fn all() -> impl Iterator<Item = Roll> {
        (1..=6u8).flat_map(|high| (1..=high).map(move |low| Roll { high, low }))
    }

    /// Thirty-sixths of the time this roll comes: 1 for a double, else 2.
    pub fn weight(self) -> u32 {
        if self.high == self.low { 1 } else { 2 }
    }

    /// Reads two digits 1-6 in either order (`"21"`, `"66"`).
    pub fn parse(s: &str) -> Option<Roll> {
        let d: Vec<u8> = s.trim().bytes().collect();
        match d[..] {
            [a @ b'1'..=b'6', b @ b'1'..=b'6'] => {
                let (a, b) = (a - b'0', b - b'0');
                Some(Roll {
                    high: a.max(b),
                    low: a.min(b),
                })
            }
            _ => None,
        }
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.high, self.low)
    }
}

/// A legal play of a roll: the chequer moves (from, to; points 1-based, 0 is
/// off) and the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The position after the play.
    pub to: Side,
    /// The chequer moves in the order played.
    pub steps: SmallVec<[(u8, u8); 4]>,
}

/// The legal plays of `roll` from `side`, one per position they lead to, in
/// gnubg's order. Empty only for a side with no chequer left.
pub fn plays(side: &Side, roll: Roll) -> Vec<Play> {
    let mut found = Found::default();
    let dice_orders: &[[u8; 2]] = if roll.high == roll.low {
        &[[roll.high, roll.high]]
    } else {
        &[[roll.high, roll.low], [roll.low, roll.high]]
    };
    for order in dice_orders {
        let dice: SmallVec<[u8; 4]> = if roll.high == roll.low {
            SmallVec::from_slice(&[roll.high; 4])
        } else {
            SmallVec::from_slice(order)
        };
        let mut steps = SmallVec::new();
        play_from(*side, &dice, 0, MAX_POINTS, &mut steps, 0, &mut found);
    }
    found.plays
}

/// The plays kept so far and the most dice and pips any play used.
#[derive(Default)]
struct Found {
    plays: Vec<Play>,
    most_dice: usize,
    most_pips: u32,
}

impl Found {
    /// Keeps a play of `dice` dice and `pips` pips: one using fewer than the
    /// most found is not legal, one using more makes those found illegal.
    fn keep(&mut self, to: Side, steps: &SmallVec<[(u8, u8); 4]>, dice: usize, pips: u32) {
        if dice < self.most_dice || pips < self.most_pips {
            return;
        }
        if dice > self.most_dice || pips > self.most_pips {
            self.plays.clear();
        }
        self.most_dice = dice;
        self.most_pips = pips;
        if !self.plays.iter().any(|p| p.to == to) {
            self.plays.push(Play {
                to,
                steps: steps.clone(),
            });
        }
    }
}

/// Plays die `depth` of `dice` and the ones after it from `side`, from point
/// `top` down; returns whether no chequer could play it (the play so far is
/// then complete).
fn play_from(
    side: Side,
    dice: &[u8],
    depth: usize,
    top: usize,
    steps: &mut SmallVec<[(u8, u8); 4]>,
    pips: u32,
    found: &mut Found,
) -> bool {
    if depth == dice.len() {
        return true;
    }
    let die = usize::from(dice[depth]);
    let doubles = dice.len() == 4;
    let mut used = false;
    for from in (1..=top).rev() {
        if side.on(from) == 0 || !may_move(&side, from, die) {
            continue;
        }
        let to = from.saturating_sub(die);
        let mut next = side;
        next.shift(from, to);
        steps.push((from as u8, to as u8));
        // A double's next chequer is never above this one; another die
        // starts again from the top.
        let next_top = if doubles { from } else { MAX_POINTS };
        let pips = pips + die as u32;
        if play_from(next, dice, depth + 1, next_top, steps, pips, found) {
            found.keep(next, steps, depth + 1, pips);
        }
        steps.pop();
        used = true;
    }
    !used
}

/// Whether a chequer on `from` may move `die` pips: always within the board;
/// off only with every chequer home, by the exact number or from the highest
/// point.
fn may_move(side: &Side, from: usize, die: usize) -> bool {
    if from > die {
        return true;
    }
    let highest = side.highest().unwrap_or(0);
    highest <= HOME && (from == die || from == highest)
}

impl Play {
    /// gnubg's notation: moves sorted from the highest point, one chequer's
    /// moves joined (`6/2`), repeated moves counted (`6/4(2)`), `off` for
    /// borne off, e.g. `6/4 1/off`.
    pub fn notation(&self) -> String {
        let mut moves: Vec<(u8, u8)> = self.steps.to_vec();
        moves.sort_by(|a, b| b.cmp(a));
        // Join a move ending where a later one starts (one chequer's path).
        let mut joined: Vec<(u8, u8)> = Vec::new();
        let mut gone = vec![false; moves.len()];
        for i in 0..moves.len() {
            if gone[i] {
                continue;
            }
            let (from, mut to) = moves[i];
            for j in i + 1..moves.len() {
                if !gone[j] && moves[j].0 == to {
                    to = moves[j].1;
                    gone[j] = true;
                }
            }
            joined.push((from, to));
        }
        let mut words: Vec<(String, usize)> = Vec::new();
        for (from, to) in joined {
            let word = format!("{from}/{}", point_name(to));
            match words.iter_mut().find(|(w, _)| *w == word) {
                Some((_, n)) => *n += 1,
                None => words.push((word, 1)),
            }
        }
        let parts: Vec<String> = (words.into_iter())
            .map(|(w, n)| if n > 1 { format!("{w}({n})") } else { w })
            .collect();
        parts.join(" ")
    }
}

/// A point as gnubg writes it: its number, `off` for 0.
fn point_name(p: u8) -> String {
    if p == 0 { "off".into() } else { p.to_string() }
}
