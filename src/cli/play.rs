//! `millbase play`: a game against a level in the terminal.

use super::text::board;
use super::{Failure, RuleArgs, parse_level, parse_position, start_within};
use clap::{Args, ValueEnum};
use millbase::answer::query::Database;
use millbase::play::players::{Level, answer_for};
use millbase::rules::game::Game;
use millbase::rules::moves::{parse_move, record_words};
use millbase::rules::position::Color;
use millbase::rules::variant::{DEFAULT_MOVE_LIMIT, MAX_MOVE_LIMIT};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// The side the person plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Side {
    White,
    Black,
}

#[derive(Args)]
pub struct PlayArgs {
    /// Database directory: for the perfect and ultra levels, and for hints
    /// (without it, a hint is the hard level's move). Its variant is played.
    #[arg(long, value_name = "DIR")]
    db: Option<PathBuf>,
    /// The computer's level: random, simple, hard, expert, perfect or ultra.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level, default_value = "hard")]
    level: Level,
    /// The side you play.
    #[arg(long = "as", value_enum, value_name = "SIDE", default_value = "white")]
    side: Side,
    /// The start of the game (default: the initial position, or with --db
    /// the start of the largest game the database holds).
    #[arg(long, value_name = "POS")]
    position: Option<String>,
    /// Seed of the computer's choices among equal moves.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Plies without a removal that draw the game.
    #[arg(long, value_name = "L", default_value_t = DEFAULT_MOVE_LIMIT,
          value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_MOVE_LIMIT)))]
    move_limit: u16,
    #[command(flatten)]
    variant: RuleArgs,
}

pub fn run(a: PlayArgs, out: &mut impl Write) -> Result<(), Failure> {
    let given = a.position.as_deref().map(parse_position).transpose()?;
    let db = match &a.db {
        Some(dir) => Some(Arc::new(Database::open(dir)?)),
        None => None,
    };
    let start = start_within(given, db.as_deref())?;
    let variant = db.as_ref().map_or(a.variant.variant(), |d| d.variant());
    let mut computer = a.level.player(a.seed, db.clone()).map_err(Failure::input)?;
    let mut helper = match &db {
        Some(_) => None,
        None => Some(Level::Hard.player(a.seed, None).map_err(Failure::input)?),
    };
    let you = match a.side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    };
    let mut game = Game::with_move_limit(start, variant, 0, a.move_limit);
    writeln!(
        out,
        "You play {} against the {} level ({} rules). Type a move (d1, d1-d2, d1-d2xa7), \
         undo, hint or quit.",
        you.name(),
        a.level.name(),
        variant.name()
    )?;
    let mut lines = std::io::stdin().lock().lines();
    loop {
        writeln!(out)?;
        board(out, &game.position())?;
        if let Some(r) = game.result() {
            writeln!(out, "The game is over: {r}.")?;
            writeln!(out, "{}", game.numbered_record())?;
            return Ok(());
        }
        if game.position().side != you {
            let mv = computer.choose(&game).map_err(Failure::fault)?;
            game.play(mv).map_err(Failure::fault)?;
            writeln!(out, "The computer plays {mv}.")?;
            continue;
        }
        write!(out, "Your move: ")?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            return Ok(());
        };
        let line = line.map_err(|e| Failure::fault(format!("reading your move: {e}")))?;
        match line.trim() {
            "" => {}
            "quit" | "q" => return Ok(()),
            "undo" | "u" => {
                // the computer's reply and your move, back to your turn
                let mut undone = 0;
                while game.undo().is_some() {
                    undone += 1;
                    if game.position().side == you {
                        break;
                    }
                }
                if undone == 0 {
                    writeln!(out, "Nothing to undo.")?;
                }
            }
            "hint" | "h" => {
                let hint = match (&db, &mut helper) {
                    (Some(db), _) => answer_for(db, &game)
                        .map_err(Failure::from)?
                        .moves
                        .first()
                        .map(|m| m.mv),
                    (None, Some(helper)) => Some(helper.choose(&game).map_err(Failure::fault)?),
                    (None, None) => None,
                };
                match hint {
                    Some(mv) => writeln!(out, "Hint: {mv}")?,
                    None => writeln!(out, "No hint: no legal move.")?,
                }
            }
            text => {
                let words: Vec<&str> = record_words(text).collect();
                let [word] = words.as_slice() else {
                    writeln!(out, "One move at a time, please.")?;
                    continue;
                };
                let played = parse_move(word)
                    .map_err(|e| e.to_string())
                    .and_then(|mv| game.play(mv).map_err(|e| e.reason));
                if let Err(why) = played {
                    writeln!(out, "{word}: {why}")?;
                }
            }
        }
    }
}
