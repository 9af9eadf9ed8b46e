//! `millbase review`: every move of a game judged by the database.

use super::{DbArgs, Failure, LimitArgs, PositionArgs, write_json};
use clap::Args;
use millbase::play::review::{Mark, Reviewed, Standing, review, review_json, summary};
use millbase::rules::position::{Color, Position};
use millbase::solve::value::Value;
use std::io::Write;

#[derive(Args)]
pub struct ReviewArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    limit: LimitArgs,
    /// The start of the game (default: the initial position).
    #[arg(long, value_name = "POS")]
    position: Option<String>,
    /// The game's moves, e.g. "1. d1 a1 2. d2 a4" (move numbers and upper
    /// case allowed).
    #[arg(long, value_name = "MOVES")]
    moves: String,
    /// Plies since the last removal at the start of the game (0 by default);
    /// a counter given needs the no-removal rule's tables and must be below
    /// their move limit.
    #[arg(long, value_name = "C")]
    counter: Option<u16>,
    /// One JSON object: every move and each side's summary.
    #[arg(long)]
    json: bool,
}

pub fn run(a: ReviewArgs, out: &mut impl Write) -> Result<(), Failure> {
    let record = PositionArgs {
        position: a.position,
        moves: Some(a.moves),
    };
    super::check_board(&a.db.db)?;
    let start = record.start(false)?;
    let database = a.limit.open(&a.db.db)?;
    let game = record.game_on(&database, start, a.counter)?;
    let moves = review(&database, &game, true)?;
    if a.json {
        return write_json(out, &review_json(&moves));
    }
    writeln!(out, "{}", first_line(&game.start(), moves.len()))?;
    for m in &moves {
        let number = match game.start().side {
            Color::White => m.ply.div_ceil(2),
            Color::Black => m.ply / 2 + 1,
        };
        let best = notes(m);
        writeln!(
            out,
            "{:>4}. {:<6} {:<10} {:<8} {} -> {}{best}",
            number,
            m.side.name(),
            m.mv.to_string(),
            m.mark.name(),
            standing(m.before),
            standing(m.after)
        )?;
    }
    for c in [Color::White, Color::Black] {
        let n = summary(&moves, c);
        let parts: Vec<String> = (Mark::ALL.iter())
            .map(|m| mark_count(n[*m as usize], *m))
            .collect();
        writeln!(out, "{}: {}", c.name(), parts.join(", "))?;
    }
    Ok(())
}

/// What follows a move's standings: the best move where another was
/// played, and under the rule the distances that ordered them ("dtc": plies
/// to the next removal or the end), or the move that ends the game sooner
/// where a best move is not the one.
fn notes(m: &Reviewed) -> String {
    let mut out = String::new();
    if let Some(b) = m.best {
        out += &format!("; best {b}");
        if let (Some(d), Some(bd)) = (m.dtc, m.best_dtc) {
            out += &format!(" (dtc {bd}, this move {d})");
        }
    }
    if let Some((mv, after)) = m.sooner {
        let d = m.dtc.map_or(String::new(), |d| format!("dtc {d}, "));
        let by = match after.value {
            Value::Loss(_) => "ends later",
            _ => "ends sooner",
        };
        out += &format!(
            "; best by the rule ({d}no removal sooner); {by}: {mv}, {}",
            standing(after)
        );
    }
    out
}

/// "1 best", "2 keeps", "0 mistakes", "1 blunder".
fn mark_count(n: usize, m: Mark) -> String {
    let plural = n != 1 && matches!(m, Mark::Mistake | Mark::Blunder);
    format!("{n} {}{}", m.name(), if plural { "s" } else { "" })
}

fn first_line(start: &Position, plies: usize) -> String {
    format!(
        "{} from {start}; each move from its mover's side, before -> after",
        super::text::count(plies as u64, "ply", "plies")
    )
}

/// "wins in 7", "draws", "loses in 4", with the rule's category where it
/// differs.
fn standing(s: Standing) -> String {
    let plain = match s.value {
        Value::Win(n) => format!("wins in {n}"),
        Value::Loss(n) => format!("loses in {n}"),
        Value::Draw => "draws".to_string(),
    };
    match s.category {
        Some(c) if c.is_draw() && s.value != Value::Draw => format!("{plain} ({})", c.name()),
        _ => plain,
    }
}
