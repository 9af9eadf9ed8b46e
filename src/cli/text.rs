//! Text the commands share: durations, outcomes and the board.

use millbase::{Position, Value};
use std::io::Write;

/// "1 class", "2 classes": `n` and the noun in the number it takes.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "1 h 42 min", "12 min", "40 s".
pub fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s.div_ceil(60)),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}

/// "wins in 29 plies (15 moves)", "draws", "loses in 1 ply": the value for
/// the side to move, with the moves of the side that moves last where that
/// helps (players count moves in pairs: ply 29 is the 15th move of the side
/// that makes it).
pub fn outcome(v: Value) -> String {
    match v.plies() {
        Some(n) if n > 2 => format!("{} ({} moves)", outcome_in_plies(v), n.div_ceil(2)),
        _ => outcome_in_plies(v),
    }
}

/// "wins in 29 plies", "draws", "loses in 1 ply".
pub fn outcome_in_plies(v: Value) -> String {
    let plies = |n: u16| format!("{n} pl{}", if n == 1 { "y" } else { "ies" });
    match v {
        Value::Win(n) => format!("wins in {}", plies(n)),
        Value::Loss(n) => format!("loses in {}", plies(n)),
        Value::Draw => "draws".to_string(),
    }
}

/// The board, who is to move, the stones in hand and the position string.
pub fn board(out: &mut impl Write, pos: &Position) -> std::io::Result<()> {
    let (wh, bh) = pos.hands();
    write!(out, "{}", pos.diagram())?;
    writeln!(
        out,
        "{} to move; in hand: White {wh}, Black {bh}",
        pos.side.name()
    )?;
    writeln!(out, "{pos}")
}
