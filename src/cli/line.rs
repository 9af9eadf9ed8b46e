//! `millbase line`: the perfect-play line to the end of the game.

use super::text::{outcome, outcome_in_plies};
use super::{DbArgs, Failure, LimitArgs, PositionArgs, write_json};
use clap::Args;
use millbase::answer::answers::RuleValue;
use millbase::answer::line::MAX_DRAW_PLIES;
use millbase::rules::game::{GameResult, Reason};
use millbase::rules::moves;
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
    /// of one side), 0 to 400.
    #[arg(long, value_name = "N", default_value_t = 40, value_parser = parse_max_plies)]
    max_plies: usize,
    /// One JSON object: {"position", "value", "plies", "line": [{"move", "position", "value", "plies"}]},
    /// each step's value for the side to move before that move.
    #[arg(long)]
    json: bool,
    /// Plies since the last removal (0 by default): where the database has
    /// the no-removal rule's tables, both sides play the best move under the
    /// rule (query --best gives one such move), and the line ends when the
    /// counter reaches the move limit. A counter given needs the rule's
    /// tables.
    #[arg(long, value_name = "C")]
    counter: Option<u16>,
}

pub fn run(a: LineArgs, out: &mut impl Write) -> Result<(), Failure> {
    super::check_board(&a.db.db)?;
    let start = a.position.start(false)?;
    let database = a.limit.open(&a.db.db)?;
    let game = a.position.game_on(&database, start, a.counter)?;
    let pos = game.position();
    let line = database.line_game(&game, a.max_plies, true)?;
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
    match line.result {
        Some(end) if line.steps.is_empty() && !game.moves().is_empty() => {
            writeln!(out, "The game is over: {end}. Now {now}")?
        }
        Some(GameResult {
            winner: None,
            reason: Reason::NoRemoval,
        }) => writeln!(
            out,
            "{} plies without a removal: a draw by the no-removal rule. Now {now}",
            game.move_limit()
        )?,
        Some(end) => match moves::ending(&now, database.variant()) {
            // the stones left, where a side has lost
            Some(lost) => writeln!(out, "{lost}. Now {now}")?,
            None => writeln!(out, "{end}. Now {now}")?,
        },
        None => writeln!(
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

/// `--max-plies`: 0 to [`MAX_DRAW_PLIES`], refused beyond.
fn parse_max_plies(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n <= MAX_DRAW_PLIES => Ok(n),
        _ => Err(format!(
            "{s:?} is not a number of plies from 0 to {MAX_DRAW_PLIES}"
        )),
    }
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
