//! `millbase line`: the perfect-play line to the end of the game.

use super::query::outcome;
use super::{DbArgs, Failure, PositionArgs, write_json};
use clap::Args;
use millbase::query::Database;
use millbase::value::Value;
use std::io::Write;

#[derive(Args)]
pub struct LineArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    position: PositionArgs,
    /// From a drawn position, stop after this many moves.
    #[arg(long, value_name = "N", default_value_t = 40)]
    max_plies: usize,
    /// One JSON object: {"position", "value", "plies", "line": [{"move", "position", "value", "plies"}]},
    /// each step's value for the side to move before that move.
    #[arg(long)]
    json: bool,
}

pub fn run(a: LineArgs, out: &mut impl Write) -> Result<(), Failure> {
    let start = a.position.start(false)?;
    let database = Database::open(&a.db.db)?;
    let pos = a.position.play(start, database.rules())?;
    let line = database.line(&pos, a.max_plies)?;
    if a.json {
        return write_json(out, &line);
    }
    writeln!(out, "{pos}: {} {}", pos.side.name(), outcome(line.value))?;
    for (i, step) in line.steps.iter().enumerate() {
        let mover = if i % 2 == 0 {
            pos.side
        } else {
            pos.side.other()
        };
        writeln!(
            out,
            "{:>4}. {:<6} {:<10} ({} {})",
            i + 1,
            mover.name(),
            step.mv.to_string(),
            mover.name(),
            outcome(step.value)
        )?;
    }
    match line.steps.last() {
        Some(last) if line.value == Value::Draw => writeln!(
            out,
            "... a draw: best play goes on for ever (stopped after {} moves; --max-plies sets it); now {}",
            line.steps.len(),
            last.position
        )?,
        Some(last) => writeln!(out, "end: {}", last.position)?,
        None => writeln!(out, "the game is over")?,
    }
    Ok(())
}
