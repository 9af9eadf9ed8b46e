//! Values under the no-removal rule (`docs/RULES.md`): a ply without a
//! removal that brings the counter of plies since the last removal to the move
//! limit `L` draws the game, unless that ply ended it otherwise.
//!
//! As in chess's DTZ50, one number per position serves every counter: the
//! *distance* of a position is the number of plies to the next removal or the
//! end of the game on the winner's fastest path that keeps the win under the
//! rule (the loser's longest), or none when the winner cannot convert within
//! `L` plies. At counter `c` a position wins (loses) under the rule exactly
//! when its distance fits in `L - c`; otherwise a win is a *cursed win* and a
//! loss a *blessed loss*, both draws under the rule.
//!
//! The distances come from the engine's own solvers, fed different children
//! ([`crate::solve::solver::Layer`], [`crate::solve::known::Kind::Rule`]): after a
//! removal the counter is 0, so a removing move leads to a position whose
//! value under the rule at counter 0 is final — a win, loss or draw at 0
//! plies (a conversion ends the distance). A movement pair is then solved by
//! the retrograde solver over those exits, a placement sector by the forward
//! pass, and every distance beyond `L` is a draw. The game's own tables, solved
//! first, settle the game's draws (draws under the rule too) without work.

use crate::solve::value::Value;

/// The value, as a distance under the rule, of a removing move's child whose
/// distance-table value is `v`: the counter starts again at 0 there, so the
/// conversion ends the distance (a win, loss or draw at 0 plies).
pub fn after_removal(v: Value) -> Value {
    match v {
        Value::Win(_) => Value::Win(0),
        Value::Loss(_) => Value::Loss(0),
        Value::Draw => Value::Draw,
    }
}

/// Whether the distance-table value `distance` fits the game's win/draw/loss
/// code `game` (2 win, 3 loss; [`crate::solve::value::Cell::wdl_code`]): the rule
/// wins only what the game wins and loses only what it loses, and may draw
/// anything.
pub fn fits_game(distance: Value, game: u8) -> bool {
    matches!(
        (distance, game),
        (Value::Draw, _) | (Value::Win(_), 2) | (Value::Loss(_), 3)
    )
}

/// `v` as a distance-table value under `limit`: a distance beyond the limit
/// is none (a draw).
pub fn cut(v: Value, limit: u16) -> Value {
    match v {
        Value::Win(d) | Value::Loss(d) if d > limit => Value::Draw,
        _ => v,
    }
}

/// A position's outcome under the rule at a given counter, best first for the
/// side to move. In JSON its [`Category::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// A win that the rule does not stop.
    Win,
    /// A win without the rule, a draw with it at this counter.
    CursedWin,
    /// A draw with or without the rule.
    Draw,
    /// A loss without the rule, a draw with it at this counter.
    BlessedLoss,
    /// A loss that the rule does not save.
    Loss,
}

impl Category {
    /// Whether the game is drawn under the rule: a cursed win, a draw or a
    /// blessed loss.
    pub fn is_draw(self) -> bool {
        !matches!(self, Category::Win | Category::Loss)
    }

    /// `win`, `cursed-win`, `draw`, `blessed-loss` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Category::Win => "win",
            Category::CursedWin => "cursed-win",
            Category::Draw => "draw",
            Category::BlessedLoss => "blessed-loss",
            Category::Loss => "loss",
        }
    }

    /// The category of a plain value, without the rule: a win, a draw or a
    /// loss.
    pub fn plain(v: Value) -> Category {
        match v {
            Value::Win(_) => Category::Win,
            Value::Draw => Category::Draw,
            Value::Loss(_) => Category::Loss,
        }
    }

    /// The category from the plain value of a position, its distance-table
    /// value (`Win(d)`/`Loss(d)` with `d` the distance, or `Draw` for none),
    /// the move limit and the counter (`0 <= counter < limit`).
    pub fn of(plain: Value, distance: Value, limit: u16, counter: u16) -> Category {
        let fits = |d: u16| u32::from(d) + u32::from(counter) <= u32::from(limit);
        match (plain, distance) {
            (Value::Win(_), Value::Win(d)) if fits(d) => Category::Win,
            (Value::Win(_), _) => Category::CursedWin,
            (Value::Loss(_), Value::Loss(d)) if fits(d) => Category::Loss,
            (Value::Loss(_), _) => Category::BlessedLoss,
            (Value::Draw, _) => Category::Draw,
        }
    }
}
