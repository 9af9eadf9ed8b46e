//! Perfect-play values and their 16-bit encoding in solver tables and files.

use rayon::prelude::*;
use std::cmp::Ordering;
use std::fmt;
use std::sync::atomic::AtomicU16;

/// The perfect-play value of a position for the side to move. In JSON
/// `{"value": "win"|"draw"|"loss", "plies": N}`, `plies` `null` for a draw
/// (a field pair, flattened into the answer that holds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(into = "ValueFields")]
pub enum Value {
    /// Win in this many plies.
    Win(u16),
    /// Loss in this many plies.
    Loss(u16),
    /// Draw (the game never ends under perfect play).
    Draw,
}

/// The JSON fields of a [`Value`].
#[derive(serde::Serialize)]
struct ValueFields {
    value: &'static str,
    plies: Option<u16>,
}

impl From<Value> for ValueFields {
    fn from(v: Value) -> ValueFields {
        ValueFields {
            value: v.name(),
            plies: v.plies(),
        }
    }
}

/// Cells per word of [`Cell::pack_wdl`].
pub const WDL_PER_WORD: usize = 32;

/// The win/draw/loss code of entry `i` of a table packed word by word with
/// [`Cell::pack_wdl`]; 0 (no position) past its end.
#[inline]
pub fn wdl_code_at(words: &[u64], i: u64) -> u8 {
    let word = words.get((i / WDL_PER_WORD as u64) as usize).copied();
    (word.unwrap_or(0) >> (2 * (i % WDL_PER_WORD as u64)) & 3) as u8
}

/// Largest plies a cell can hold.
pub const MAX_PLIES: u16 = (1 << 14) - 1;

const TAG_SHIFT: u16 = 14;
const PAYLOAD: u16 = MAX_PLIES;
const TAG_OPEN: u16 = 0;
const TAG_WIN: u16 = 1;
const TAG_LOSS: u16 = 2;
const TAG_OTHER: u16 = 3;

/// A table cell: a final [`Value`], a solver's "not yet known" state with a count of
/// children not yet proven won, or an unused (non-canonical) slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell(pub u16);

impl Cell {
    /// The cell of an index slot that holds no position.
    pub const UNUSED: Cell = Cell((TAG_OTHER << TAG_SHIFT) | PAYLOAD);
    /// A draw.
    pub const DRAW: Cell = Cell(TAG_OTHER << TAG_SHIFT);

    /// A win whose plies a database file does not store (see
    /// [`crate::storage::Encoding`]).
    pub const WON: Cell = Cell((TAG_OTHER << TAG_SHIFT) | 1);
    /// A loss whose plies a database file does not store.
    pub const LOST: Cell = Cell((TAG_OTHER << TAG_SHIFT) | 2);

    /// A table of `len` unused cells that threads can fill at any slot, as
    /// atomic `u16`s ([`Cell::from_atomic`] reads it back).
    pub fn unused_atomic(len: u64) -> Vec<AtomicU16> {
        (0..len)
            .into_par_iter()
            .map(|_| AtomicU16::new(Cell::UNUSED.0))
            .collect()
    }

    /// A table as [`Cell::unused_atomic`] gives it, but holding the draws of
    /// `table` at their slots.
    pub fn draws_atomic(table: &[Cell]) -> Vec<AtomicU16> {
        table
            .par_iter()
            .map(|&c| AtomicU16::new(if c == Cell::DRAW { c } else { Cell::UNUSED }.0))
            .collect()
    }

    /// The [`Cell::wdl_code`]s of up to [`WDL_PER_WORD`] cells, 2 bits each,
    /// the first in the lowest bits ([`wdl_code_at`] reads them back).
    pub fn pack_wdl(cells: &[Cell]) -> u64 {
        cells
            .iter()
            .enumerate()
            .fold(0, |w, (j, c)| w | u64::from(c.wdl_code()) << (2 * j))
    }

    /// The cells of a table filled through [`Cell::unused_atomic`].
    pub fn from_atomic(cells: Vec<AtomicU16>) -> Vec<Cell> {
        // a sequential map of a vector's own items into items of the same
        // size collects into the same memory: no second table is claimed
        cells.into_iter().map(|c| Cell(c.into_inner())).collect()
    }

    /// The 2-bit win/draw/loss code of `docs/FORMAT.md`: 0 no position (or still
    /// open), 1 draw, 2 win, 3 loss for the side to move.
    pub fn wdl_code(self) -> u8 {
        match self.0 >> TAG_SHIFT {
            TAG_WIN => 2,
            TAG_LOSS => 3,
            _ if self == Cell::DRAW => 1,
            _ if self == Cell::WON => 2,
            _ if self == Cell::LOST => 3,
            _ => 0,
        }
    }

    /// Whether this is a win or loss whose plies the file does not store
    /// ([`Cell::WON`] or [`Cell::LOST`]).
    pub fn lacks_plies(self) -> bool {
        self == Cell::WON || self == Cell::LOST
    }

    /// Whether this stored cell says what `v` says: the same value, or the same
    /// win or loss where the plies are not stored.
    pub fn agrees_with(self, v: Value) -> bool {
        if self.lacks_plies() {
            self.wdl_code() == Cell::from_value(v).wdl_code()
        } else {
            self.value() == Some(v)
        }
    }

    /// Not yet known, with `count` children not yet proven won.
    pub fn open(count: u16) -> Cell {
        debug_assert!(count <= PAYLOAD);
        Cell(count)
    }

    /// The cell holding `v`.
    pub fn from_value(v: Value) -> Cell {
        match v {
            Value::Win(n) => Cell((TAG_WIN << TAG_SHIFT) | n),
            Value::Loss(n) => Cell((TAG_LOSS << TAG_SHIFT) | n),
            Value::Draw => Cell::DRAW,
        }
    }

    /// The count of an open cell.
    pub fn open_count(self) -> Option<u16> {
        (self.0 >> TAG_SHIFT == TAG_OPEN).then_some(self.0 & PAYLOAD)
    }

    /// The final value, if the cell holds one.
    pub fn value(self) -> Option<Value> {
        let n = self.0 & PAYLOAD;
        match self.0 >> TAG_SHIFT {
            TAG_WIN => Some(Value::Win(n)),
            TAG_LOSS => Some(Value::Loss(n)),
            TAG_OTHER if n == 0 => Some(Value::Draw),
            _ => None,
        }
    }

    /// Whether this is a win or a loss decided at exactly `plies`.
    pub fn decided_at(self, plies: u16) -> bool {
        let tag = self.0 >> TAG_SHIFT;
        (tag == TAG_WIN || tag == TAG_LOSS) && self.0 & PAYLOAD == plies
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.value(), *self) {
            (Some(v), _) => v.fmt(f),
            (None, Cell::WON) => f.write_str("win (plies not stored)"),
            (None, Cell::LOST) => f.write_str("loss (plies not stored)"),
            (None, Cell::UNUSED) => f.write_str("nothing"),
            (None, _) => f.write_str("undecided"),
        }
    }
}

/// [`Value::from_children`] over children's cells, without a branch on their
/// values: each cell maps to a key that orders moves for the side choosing
/// (a child's loss by fewest plies above a draw above a child's win by most
/// plies), and the largest key is kept. A solve's children are unpredictable
/// wins, draws and losses, and a branch on each would be mispredicted often.
#[derive(Clone, Copy, Debug, Default)]
pub struct BestChild {
    /// The largest key so far, plus one (0: no child yet).
    best: u32,
    /// Whether a cell held no value with its plies.
    bad: bool,
}

impl BestChild {
    /// Per tag (bits 14-15 of a cell), 16 bits each: the key of a payload of
    /// 0 and the payload bits that enter it. A win `n` keys as `n`; a loss
    /// `n` as `0xBFFF ^ n` (`0x8000 + MAX_PLIES - n`); a draw as `0x4000`.
    const BASES: u64 = 0x4000_BFFF_0000_0000;
    const MASKS: u64 = 0x0000_3FFF_3FFF_0000;

    /// Adds a child's cell. `keep` is the mask of its payload bits that
    /// count: [`MAX_PLIES`] (all) for its plies, 0 where only the outcome counts
    /// (win and loss at 0 plies: a removal under the no-removal rule).
    #[inline]
    pub fn add(&mut self, cell: Cell, keep: u16) {
        let c = cell.0;
        // a value with plies: a win, a loss or the draw (not open, unused,
        // or a win or loss without plies)
        self.bad |= !(Cell::from_value(Value::Win(0)).0..=Cell::DRAW.0).contains(&c);
        let c = c & (keep | !PAYLOAD);
        let shift = 16 * u32::from(c >> TAG_SHIFT);
        let key = ((Self::BASES >> shift) as u16) ^ (c & (Self::MASKS >> shift) as u16);
        self.best = self.best.max(u32::from(key) + 1);
    }

    /// The value of the position: `Some(from_children)` as
    /// [`Value::from_children`] gives it, or `None` if a child's cell held
    /// no value with plies.
    pub fn value(self) -> Option<Option<Value>> {
        if self.bad {
            return None;
        }
        let next = |n: u16| (n < MAX_PLIES).then_some(n + 1);
        Some(match self.best {
            0 => Some(Value::Loss(0)),
            b => match (b - 1) as u16 {
                0x4000 => Some(Value::Draw),
                k if k > 0x4000 => next((k ^ 0xBFFF) & PAYLOAD).map(Value::Win),
                k => next(k).map(Value::Loss),
            },
        })
    }
}

impl Value {
    /// The plies to the end, for wins and losses.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// `"win"`, `"loss"` or `"draw"`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    /// The value of a position from the values of all its children (each from the
    /// point of view of the side to move there): the fastest win, else a draw, else
    /// the slowest loss. No children is a loss at 0 plies. `None` if a ply count
    /// would exceed [`MAX_PLIES`].
    pub fn from_children(children: impl IntoIterator<Item = Value>) -> Option<Value> {
        let mut best_win: Option<u16> = None;
        let mut draw = false;
        let mut slowest_loss: Option<u16> = None;
        for c in children {
            match c {
                Value::Loss(n) => best_win = Some(best_win.map_or(n, |b| b.min(n))),
                Value::Draw => draw = true,
                Value::Win(n) => slowest_loss = Some(slowest_loss.map_or(n, |b| b.max(n))),
            }
        }
        let next = |n: u16| (n < MAX_PLIES).then_some(n + 1);
        match (best_win, draw, slowest_loss) {
            (Some(n), _, _) => next(n).map(Value::Win),
            (None, true, _) => Some(Value::Draw),
            (None, false, Some(n)) => next(n).map(Value::Loss),
            (None, false, None) => Some(Value::Loss(0)),
        }
    }

    /// [`Value::from_children`] of children whose values may fail to come:
    /// the first error, if any (no later child is evaluated), else the value.
    pub fn try_from_children<E>(
        children: impl IntoIterator<Item = Result<Value, E>>,
    ) -> Result<Option<Value>, E> {
        let mut failed = None;
        let v = Value::from_children(
            children
                .into_iter()
                .map_while(|c| c.map_err(|e| failed = Some(e)).ok()),
        );
        match failed {
            Some(e) => Err(e),
            None => Ok(v),
        }
    }

    /// Ordering of moves by the value they lead to (the child's value): best
    /// first for the side choosing: fastest win (child loss with fewest plies),
    /// then draws, then slowest loss (child win with most plies).
    pub fn cmp_as_child(self, other: Value) -> Ordering {
        fn key(v: Value) -> (u8, i32) {
            match v {
                Value::Loss(n) => (0, n as i32),
                Value::Draw => (1, 0),
                Value::Win(n) => (2, -(n as i32)),
            }
        }
        key(self).cmp(&key(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

/// Value counts of one subspace. Serialised with the field names of
/// `stats --json` (`max_win_plies`, `max_loss_plies` for the largest plies).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Canonical classes.
    pub classes: u64,
    /// Classes that are wins, losses, draws for the side to move.
    pub wins: u64,
    /// See `wins`.
    pub losses: u64,
    /// See `wins`.
    pub draws: u64,
    /// Positions (every symmetric image) that are wins, losses, draws.
    pub all_wins: u64,
    /// See `all_wins`.
    pub all_losses: u64,
    /// See `all_wins`.
    pub all_draws: u64,
    /// Largest plies of a win.
    #[serde(rename = "max_win_plies")]
    pub max_win: u16,
    /// Largest plies of a loss.
    #[serde(rename = "max_loss_plies")]
    pub max_loss: u16,
}

impl Counts {
    /// Adds one position with `images` symmetric images.
    pub fn add(&mut self, v: Value, images: u32) {
        self.classes += 1;
        let images = images as u64;
        match v {
            Value::Win(n) => {
                self.wins += 1;
                self.all_wins += images;
                self.max_win = self.max_win.max(n);
            }
            Value::Loss(n) => {
                self.losses += 1;
                self.all_losses += images;
                self.max_loss = self.max_loss.max(n);
            }
            Value::Draw => {
                self.draws += 1;
                self.all_draws += images;
            }
        }
    }

    /// Sums two counts.
    pub fn merge(mut self, o: Counts) -> Counts {
        self.classes += o.classes;
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
        self.all_wins += o.all_wins;
        self.all_losses += o.all_losses;
        self.all_draws += o.all_draws;
        self.max_win = self.max_win.max(o.max_win);
        self.max_loss = self.max_loss.max(o.max_loss);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `BestChild` agrees with `from_children` (the branching fold) on every
    /// list of up to three children drawn from values at the edges of the
    /// ply range and between, with payloads kept or dropped (a removal under
    /// the rule: `counter::after_removal`), and flags every cell without a
    /// value with plies.
    #[test]
    fn best_child_is_from_children() {
        let mut values = vec![Value::Draw];
        for n in [0, 1, 2, 3, 7, 100, MAX_PLIES - 1, MAX_PLIES] {
            values.extend([Value::Win(n), Value::Loss(n)]);
        }
        let after_removal = |v: Value| match v {
            Value::Win(_) => Value::Win(0),
            Value::Loss(_) => Value::Loss(0),
            Value::Draw => Value::Draw,
        };
        let lists = (0..=3).flat_map(|len| {
            let values = &values;
            (0..values.len().pow(len)).map(move |mut k| {
                (0..len)
                    .map(|j| {
                        let v = values[k % values.len()];
                        k /= values.len();
                        (v, (k + j as usize).is_multiple_of(3))
                    })
                    .collect::<Vec<_>>()
            })
        });
        let mut checked = 0;
        for list in lists {
            let mut best = BestChild::default();
            for &(v, drop) in &list {
                best.add(Cell::from_value(v), if drop { 0 } else { PAYLOAD });
            }
            let plain = list
                .iter()
                .map(|&(v, drop)| if drop { after_removal(v) } else { v });
            assert_eq!(best.value(), Some(Value::from_children(plain)), "{list:?}");
            checked += 1;
        }
        assert!(checked > 5_000);
        for bad in [
            Cell::UNUSED,
            Cell::WON,
            Cell::LOST,
            Cell::open(0),
            Cell::open(9),
        ] {
            for keep in [0, PAYLOAD] {
                let mut best = BestChild::default();
                best.add(Cell::from_value(Value::Loss(1)), PAYLOAD);
                best.add(bad, keep);
                assert_eq!(best.value(), None, "{bad:?}");
            }
        }
    }

    /// The first failing child is the answer and no later child is
    /// evaluated; without failures the value is `from_children`'s.
    #[test]
    fn try_from_children_stops_at_the_first_error() {
        let mut evaluated = 0;
        let children = [
            Ok(Value::Win(3)),
            Err("second"),
            Err("third"),
            Ok(Value::Loss(1)),
        ];
        let r = Value::try_from_children(children.iter().map(|c| {
            evaluated += 1;
            *c
        }));
        assert_eq!(r, Err("second"));
        assert_eq!(evaluated, 2);
        let ok: [Result<Value, ()>; 3] = [Ok(Value::Win(3)), Ok(Value::Draw), Ok(Value::Loss(4))];
        assert_eq!(
            Value::try_from_children(ok),
            Ok(Value::from_children(ok.map(Result::unwrap)))
        );
    }

    #[test]
    fn cells_round_trip() {
        for v in [
            Value::Win(1),
            Value::Win(MAX_PLIES),
            Value::Loss(0),
            Value::Loss(300),
            Value::Draw,
        ] {
            let c = Cell::from_value(v);
            assert_eq!(c.value(), Some(v));
            assert_eq!(c.open_count(), None);
        }
        assert_eq!(Cell::open(17).open_count(), Some(17));
        assert_eq!(Cell::open(0).value(), None);
        assert_eq!(Cell::UNUSED.value(), None);
        assert_eq!(Cell::UNUSED.open_count(), None);
        assert!(Cell::from_value(Value::Loss(4)).decided_at(4));
        assert!(!Cell::DRAW.decided_at(0));
    }

    #[test]
    fn minimax_rule() {
        use Value::*;
        assert_eq!(Value::from_children([]), Some(Loss(0)));
        assert_eq!(
            Value::from_children([Win(3), Loss(6), Loss(2), Draw]),
            Some(Win(3))
        );
        assert_eq!(Value::from_children([Win(3), Draw]), Some(Draw));
        assert_eq!(
            Value::from_children([Win(3), Win(9), Win(1)]),
            Some(Loss(10))
        );
        assert_eq!(Value::from_children([Loss(MAX_PLIES)]), None);
        let mut v = vec![Win(5), Draw, Loss(4), Win(9), Loss(2)];
        v.sort_by(|a, b| a.cmp_as_child(*b));
        assert_eq!(v, vec![Loss(2), Loss(4), Draw, Win(9), Win(5)]);
    }
}
