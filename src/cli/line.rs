//! `millbase line`: the perfect-play line to the end of the game.

use super::text::outcome;
use super::{DbArgs, Failure, LimitArgs, PositionArgs, write_json};
use clap::Args;
use millbase::answer::policy::{Ask, RuleValue};
use millbase::answer::query::QueryError;
use millbase::rules::moves;
use millbase::solve::value::Value;
use std::io::Write;

#[derive(Args)]
pub struct LineArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    limit: LimitArgs,
    #[command(flatten)]
    position: PositionArgs,
    /// From a drawn position, stop after this many moves.
    #[arg(long, value_name = "N", default_value_t = 40)]
    max_plies: usize,
    /// One JSON object: {"position", "value", "plies", "line": [{"move", "position", "value", "plies"}]},
    /// each step's value for the side to move before that move.
    #[arg(long)]
    json: bool,
    /// Play the line under the no-removal rule, starting C plies after the
    /// last removal: both sides play the best move under the rule (query
    /// --best --counter gives one such move), and the line ends when the
    /// counter reaches the move limit. Needs the rule's tables.
    #[arg(long, value_name = "C")]
    counter: Option<u16>,
}

pub fn run(a: LineArgs, out: &mut impl Write) -> Result<(), Failure> {
    let start = a.position.start(false)?;
    let database = a.limit.open(&a.db.db)?;
    let pos = a.position.play(start, database.variant())?;
    let ask = Ask {
        counter: a.counter,
        search: true,
    };
    let line = database
        .line_to(&pos, ask, a.max_plies)
        .map_err(|e| match e {
            QueryError::Counter(m) => Failure::input(m),
            e => e.into(),
        })?;
    if a.json {
        return write_json(out, &line);
    }
    writeln!(
        out,
        "{pos}: {} {}{}",
        pos.side.name(),
        outcome(line.value),
        standing(line.rule)
    )?;
    for (i, step) in line.steps.iter().enumerate() {
        let mover = if i % 2 == 0 {
            pos.side
        } else {
            pos.side.other()
        };
        writeln!(
            out,
            "{:>4}. {:<6} {:<10} ({} {}{})",
            i + 1,
            mover.name(),
            step.mv.to_string(),
            mover.name(),
            outcome(step.value),
            standing(step.rule)
        )?;
    }
    let limit = database.move_limit().unwrap_or(0);
    let counter_at_end = line.rule.map(|r| {
        line.steps.iter().fold(
            r.counter,
            |c, s| if s.mv.remove.is_some() { 0 } else { c + 1 },
        )
    });
    let drawn = match line.rule {
        Some(r) => r.category.is_draw(),
        None => line.value == Value::Draw,
    };
    match line.steps.last() {
        Some(last)
            if counter_at_end == Some(limit)
                && !last.position.mover_below_minimum()
                && !moves::legal_moves(&last.position, database.variant()).is_empty() =>
        {
            writeln!(
                out,
                "drawn by the no-removal rule: {limit} plies without a removal; now {}",
                last.position
            )?
        }
        Some(last) if drawn => writeln!(
            out,
            "... a draw{}: best play goes on (stopped after {} moves; --max-plies sets it); now {}",
            if line.rule.is_some() {
                " under the rule"
            } else {
                ""
            },
            line.steps.len(),
            last.position
        )?,
        Some(last) => writeln!(out, "end: {}", last.position)?,
        None => writeln!(out, "the game is over")?,
    }
    Ok(())
}

/// "; under the rule at counter 12: cursed-win" and the like, or nothing.
fn standing(rule: Option<RuleValue>) -> String {
    match rule {
        None => String::new(),
        Some(r) => {
            let dtc = r.dtc.map_or(String::new(), |d| format!(", {d} to convert"));
            format!(
                "; under the rule at counter {}: {}{dtc}",
                r.counter,
                r.category.name()
            )
        }
    }
}
