//! `millbase line`: the perfect-play line to the end of the game.

use super::text::{outcome, outcome_in_plies};
use super::{DbArgs, Failure, LimitArgs, PositionArgs, write_json};
use clap::Args;
use millbase::answer::policy::{Ask, LineEnd, RuleValue};
use millbase::answer::query::QueryError;
use millbase::play::game::Game;
use millbase::rules::position::Color;
use std::io::Write;

#[derive(Args)]
pub struct LineArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    limit: LimitArgs,
    #[command(flatten)]
    position: PositionArgs,
    /// From a drawn position, stop after this many plies (a ply is one move
    /// of one side).
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
    let game = a
        .position
        .game(start, database.variant(), a.counter.unwrap_or(0))?;
    let pos = game.as_ref().map_or(start, Game::position);
    // after --moves, the line goes on from the game's counter
    let counter = match &game {
        Some(g) if a.counter.is_some() => Some(g.counter()),
        _ => a.counter,
    };
    let ask = Ask {
        counter,
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
        // moves numbered as players number them: White's and Black's n-th
        // moves share the number n (`15.` and `15...`)
        let number = match pos.side {
            Color::White => i / 2 + 1,
            Color::Black => i.div_ceil(2) + 1,
        };
        let dots = if mover == Color::White { "." } else { "..." };
        writeln!(
            out,
            "{:>4}{dots:<3} {:<6} {:<10} ({} {}{})",
            number,
            mover.name(),
            step.mv.to_string(),
            mover.name(),
            outcome_in_plies(step.value),
            standing(step.rule)
        )?;
    }
    let now = line.steps.last().map_or(pos, |s| s.position);
    match line.end {
        LineEnd::Over(end) => writeln!(out, "{end}. Now {now}")?,
        LineEnd::NoRemoval => writeln!(
            out,
            "{} plies without a removal: a draw by the no-removal rule. Now {now}",
            database.move_limit().unwrap_or(0)
        )?,
        LineEnd::Bound => writeln!(
            out,
            "... a draw{}: best play goes on (stopped after {} plies; --max-plies sets it). Now {now}",
            if line.rule.is_some() {
                " under the rule"
            } else {
                ""
            },
            line.steps.len(),
        )?,
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
