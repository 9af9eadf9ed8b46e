//! A side's bear-off position (its chequers on its points 1..P), gnubg's index
//! of it, and the written forms: the points of the chequers (`"2 5"`, a pair
//! `"2 5 / 2 3"` with the side on roll first) and gnubg's position ID.

use base64::Engine;
use std::fmt;

/// The most points a side's position may use (gnubg's one-sided databases go
/// to 13 points with 15 chequers).
pub const MAX_POINTS: usize = 13;
/// A side's chequers in backgammon.
pub const MAX_CHEQUERS: usize = 15;

/// A side's chequers on its points 1..[`MAX_POINTS`]; the chequers not on
/// the board are borne off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Side {
    counts: [u8; MAX_POINTS],
}

/// What is wrong with a written position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// `n` choose `k` (0 where `k > n`).
pub fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * u64::from(n - i) / u64::from(i + 1))
}

/// The number of positions of up to `chequers` chequers on `points` points:
/// C(points + chequers, points).
pub fn positions(points: usize, chequers: usize) -> u32 {
    binomial((points + chequers) as u32, points as u32) as u32
}

impl Side {
    /// The side with `counts[i]` chequers on point i+1.
    pub fn from_counts(counts: &[u8]) -> Result<Side, PositionError> {
        if counts.len() > MAX_POINTS {
            return Err(PositionError(format!(
                "{} points: a side has at most {MAX_POINTS}",
                counts.len()
            )));
        }
        let mut side = Side::default();
        side.counts[..counts.len()].copy_from_slice(counts);
        if side.chequers() as usize > MAX_CHEQUERS {
            return Err(PositionError(format!(
                "{} chequers: a side has at most {MAX_CHEQUERS}",
                side.chequers()
            )));
        }
        Ok(side)
    }

    /// The chequers on point `point` (1-based).
    pub fn on(&self, point: usize) -> u8 {
        self.counts.get(point.wrapping_sub(1)).copied().unwrap_or(0)
    }

    /// The chequers on each point, point 1 first.
    pub fn counts(&self) -> &[u8; MAX_POINTS] {
        &self.counts
    }

    /// The chequers not yet borne off.
    pub fn chequers(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    /// The highest point holding a chequer (1-based), if any.
    pub fn highest(&self) -> Option<usize> {
        self.counts.iter().rposition(|&c| c > 0).map(|i| i + 1)
    }

    /// The pips to bear every chequer off.
    pub fn pips(&self) -> u32 {
        (self.counts.iter().enumerate())
            .map(|(i, &c)| (i as u32 + 1) * u32::from(c))
            .sum()
    }

    /// Moves one chequer from `from` to `to` (1-based; 0 is off).
    pub(crate) fn shift(&mut self, from: usize, to: usize) {
        self.counts[from - 1] -= 1;
        if to > 0 {
            self.counts[to - 1] += 1;
        }
    }

    /// gnubg's index of the side among the positions on `points` points: the
    /// colex rank of the set of `points` marks that separate its chequers
    /// (`PositionBearoff` of gnubg's positionid.c). It does not depend on the
    /// number of chequers a file holds, so a smaller file's positions come
    /// first in a larger one's. The side must lie on points 1..=`points`.
    pub fn index(&self, points: usize) -> u32 {
        debug_assert!(self.highest().unwrap_or(0) <= points);
        // The marks from the top: the first lies above every chequer, each
        // next one below the chequers of the next point up from point 1.
        let mut mark = points as u32 - 1 + self.chequers();
        let mut rank = binomial(mark, points as u32);
        for i in 0..points - 1 {
            mark -= u32::from(self.counts[i]) + 1;
            rank += binomial(mark, (points - 1 - i) as u32);
        }
        rank as u32
    }

    /// The side of index `index` on `points` points (the inverse of
    /// [`Side::index`]); `None` past the positions of [`MAX_CHEQUERS`].
    pub fn from_index(index: u32, points: usize) -> Option<Side> {
        if points == 0 || points > MAX_POINTS || index >= positions(points, MAX_CHEQUERS) {
            return None;
        }
        let mut rank = u64::from(index);
        let mut marks = [0u32; MAX_POINTS];
        // The highest mark first: the largest position whose binomial fits.
        for k in (1..=points as u32).rev() {
            let mut b = k - 1;
            while binomial(b + 1, k) <= rank {
                b += 1;
            }
            rank -= binomial(b, k);
            marks[points - k as usize] = b;
        }
        let mut side = Side::default();
        for i in 0..points - 1 {
            side.counts[i] = (marks[i] - marks[i + 1] - 1) as u8;
        }
        side.counts[points - 1] = marks[points - 1] as u8;
        Some(side)
    }

    /// Reads the points of the chequers, e.g. `"2 5 6 6"`; empty or `-` for a
    /// side with every chequer off.
    pub fn parse(s: &str, points: usize) -> Result<Side, PositionError> {
        let mut counts = [0u8; MAX_POINTS];
        let s = s.trim();
        if s == "-" {
            return Ok(Side::default());
        }
        for word in s.split_whitespace() {
            let p: usize = word.parse().map_err(|_| {
                PositionError(format!(
                    "{word:?} is not a point: write the point of each chequer, 1 to {points}"
                ))
            })?;
            if p == 0 || p > points {
                return Err(PositionError(format!(
                    "point {p} is outside the home board: points run from 1 to {points}"
                )));
            }
            counts[p - 1] += 1;
            if counts.iter().map(|&c| usize::from(c)).sum::<usize>() > MAX_CHEQUERS {
                return Err(PositionError(format!(
                    "more than {MAX_CHEQUERS} chequers on one side"
                )));
            }
        }
        Ok(Side { counts })
    }
}

impl fmt::Display for Side {
    /// The points of the chequers, lowest first (`-` for none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (i, &c) in self.counts.iter().enumerate() {
            for _ in 0..c {
                if !first {
                    f.write_str(" ")?;
                }
                write!(f, "{}", i + 1)?;
                first = false;
            }
        }
        if first {
            f.write_str("-")?;
        }
        Ok(())
    }
}

/// A written position: one side (one-sided files) or the side on roll and
/// its opponent (two-sided files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// `"1 6"`.
    One(Side),
    /// `"2 5 / 2 3"`: the side on roll, then the opponent.
    Two(Side, Side),
}

impl Written {
    /// Reads `"1 6"`, `"2 5 / 2 3"` or a gnubg position ID (14 characters;
    /// the bear-off of both sides), each chequer on points 1..=`points`.
    pub fn parse(s: &str, points: usize) -> Result<Written, PositionError> {
        let t = s.trim();
        if t.len() == 14
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '/')
        {
            let (on_roll, opponent) = from_position_id(t)?;
            for side in [on_roll, opponent] {
                if side.highest().unwrap_or(0) > points {
                    return Err(PositionError(format!(
                        "position ID {t}: a chequer on point {} is outside the {points} points of the file",
                        side.highest().unwrap_or(0)
                    )));
                }
            }
            return Ok(Written::Two(on_roll, opponent));
        }
        match t.split_once('/') {
            Some((a, b)) => Ok(Written::Two(
                Side::parse(a, points)?,
                Side::parse(b, points)?,
            )),
            None => Ok(Written::One(Side::parse(t, points)?)),
        }
    }
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Written::One(s) => write!(f, "{s}"),
            Written::Two(a, b) => write!(f, "{a} / {b}"),
        }
    }
}

/// The chequers of both sides on their points 1..24 and bar (index 24) in a
/// gnubg position ID, the side on roll first. The ID is the standard base64
/// of an 80-bit key: for the side not on roll, then the side on roll, from
/// its point 1 to its bar, a 1 for each chequer and a 0 after each point.
pub fn position_id_boards(id: &str) -> Result<[[u8; 25]; 2], PositionError> {
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(id)
        .ok()
        .filter(|b| b.len() == 10)
        .ok_or_else(|| PositionError(format!("{id:?} is not a gnubg position ID")))?;
    let mut boards = [[0u8; 25]; 2];
    let (mut player, mut point) = (0usize, 0usize);
    for bit in 0..80 {
        if player == 2 {
            break;
        }
        if bytes[bit / 8] >> (bit % 8) & 1 == 1 {
            boards[player][point] += 1;
            if boards[player]
                .iter()
                .map(|&c| usize::from(c))
                .sum::<usize>()
                > MAX_CHEQUERS
            {
                return Err(PositionError(format!(
                    "position ID {id}: more than {MAX_CHEQUERS} chequers on a side"
                )));
            }
        } else {
            point += 1;
            if point == 25 {
                player += 1;
                point = 0;
            }
        }
    }
    Ok([boards[1], boards[0]])
}

/// The two sides of a gnubg position ID of a bear-off position (every
/// chequer on points 1..[`MAX_POINTS`]), the side on roll first.
pub fn from_position_id(id: &str) -> Result<(Side, Side), PositionError> {
    let [on_roll, opponent] = position_id_boards(id)?;
    let side = |board: &[u8; 25], who: &str| -> Result<Side, PositionError> {
        if let Some(p) = (MAX_POINTS..25).find(|&p| board[p] > 0) {
            return Err(PositionError(format!(
                "position ID {id}: the {who} has a chequer on its {}, not a bear-off position",
                if p == 24 {
                    "bar".to_string()
                } else {
                    format!("{}-point", p + 1)
                }
            )));
        }
        Side::from_counts(&board[..MAX_POINTS])
            .map_err(|e| PositionError(format!("position ID {id}: {e}")))
    };
    Ok((
        side(&on_roll, "side on roll")?,
        side(&opponent, "side not on roll")?,
    ))
}

/// The gnubg position ID of a bear-off position, the side on roll first.
pub fn position_id(on_roll: &Side, opponent: &Side) -> String {
    let mut key = [0u8; 10];
    let mut bit = 0;
    for side in [opponent, on_roll] {
        for point in 0..25 {
            for _ in 0..side.counts.get(point).copied().unwrap_or(0) {
                key[bit / 8] |= 1 << (bit % 8);
                bit += 1;
            }
            bit += 1;
        }
    }
    base64::engine::general_purpose::STANDARD_NO_PAD.encode(key)
}
