//! `millbase play`: a game against a level in the terminal.

use super::text::{board, count};
use super::{Failure, RuleArgs, parse_level, parse_position, start_within};
use clap::{Args, ValueEnum};
use millbase::answer::answers::EvaluatedMove;
use millbase::answer::query::Database;
use millbase::play::players::{Level, answer_for};
use millbase::rules::game::Game;
use millbase::rules::moves::{parse_move, record_words};
use millbase::rules::position::{Color, Position};
use millbase::rules::variant::{DEFAULT_MOVE_LIMIT, MAX_MOVE_LIMIT};
use millbase::solve::counter::Category;
use millbase::solve::value::Value;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
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
    /// Plies without a removal that draw the game (default: the move limit
    /// of the database's no-removal tables, else 100).
    #[arg(long, value_name = "L",
          value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_MOVE_LIMIT)))]
    move_limit: Option<u16>,
    #[command(flatten)]
    variant: RuleArgs,
}

pub fn run(a: PlayArgs, out: &mut impl Write) -> Result<(), Failure> {
    if let Some(dir) = &a.db {
        super::check_board(dir)?;
    }
    let given = a.position.as_deref().map(parse_position).transpose()?;
    let db = match &a.db {
        Some(dir) => {
            let db = Database::open(dir)?;
            super::on_nines_board(db.variant(), dir)?;
            Some(Arc::new(db))
        }
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
    // against a database, its own move limit unless one is given: the
    // game is asked as every front end asks it
    let mut game = match (&db, a.move_limit) {
        (Some(db), None) => db.new_game(start, None)?,
        (_, limit) => Game::with_move_limit(start, variant, 0, limit.unwrap_or(DEFAULT_MOVE_LIMIT)),
    };
    writeln!(
        out,
        "You play {} against the {} level ({} rules; {} plies without a removal draw). \
         Type a move (d1, d1-d2, d1-d2xa7), undo, hint or quit.",
        you.name(),
        a.level.name(),
        variant.name(),
        game.move_limit()
    )?;
    let mut lines = std::io::stdin().lock().lines();
    let mut changed = true;
    loop {
        // the board once a move has changed it, where the person looks at
        // it: before their move or at the end
        let look = game.result().is_some() || game.position().side == you;
        if look && std::mem::take(&mut changed) {
            writeln!(out)?;
            board(out, &game.position())?;
        }
        if let Some(r) = game.result() {
            writeln!(out, "The game is over: {r}.")?;
            return write_record(out, &game, a.db.as_deref());
        }
        if game.position().side != you {
            let number = numbered(&game);
            let mv = computer.choose(&game).map_err(Failure::fault)?;
            game.play(mv).map_err(Failure::fault)?;
            writeln!(out, "The computer plays {number}{mv}.")?;
            changed = true;
            continue;
        }
        write!(out, "{}your move: ", numbered(&game))?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            return write_record(out, &game, a.db.as_deref());
        };
        let line = line.map_err(|e| Failure::fault(format!("reading your move: {e}")))?;
        match line.trim() {
            "" => {}
            "quit" | "q" => return write_record(out, &game, a.db.as_deref()),
            "undo" | "u" => {
                // the computer's reply and your move, back to your turn
                let mut undone = vec![];
                while let Some(mv) = game.undo() {
                    let whose = if game.position().side == you {
                        "yours"
                    } else {
                        "the computer's"
                    };
                    undone.push(format!("{mv} ({whose})"));
                    if game.position().side == you {
                        break;
                    }
                }
                if undone.is_empty() {
                    writeln!(out, "Nothing to undo.")?;
                } else {
                    undone.reverse();
                    writeln!(out, "Took back {}.", undone.join(" and "))?;
                    changed = true;
                }
            }
            "hint" | "h" => {
                let hint = match (&db, &mut helper) {
                    (Some(db), _) => {
                        let answer = answer_for(db, &game).map_err(Failure::from)?;
                        (answer.moves.first()).map(|m| format!("{}: {}", m.mv, hint_value(m)))
                    }
                    (None, Some(helper)) => {
                        let mv = helper.choose(&game).map_err(Failure::fault)?;
                        Some(format!(
                            "{mv} (the hard level's move; no database, no value)"
                        ))
                    }
                    (None, None) => None,
                };
                match hint {
                    Some(h) => writeln!(out, "Hint: {h}")?,
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
                match played {
                    Ok(()) => changed = true,
                    Err(why) => writeln!(out, "{word}: {why}")?,
                }
            }
        }
    }
}

/// The number of the move about to be played as players write it: `3. `
/// for White, `3... ` for Black.
fn numbered(game: &Game) -> String {
    let n = game.move_number();
    match game.position().side {
        Color::White => format!("{n}. "),
        Color::Black => format!("{n}... "),
    }
}

/// What the hinted move `m` does for its mover: "you win in 28 plies",
/// under the no-removal rule where it draws a win or a loss, that too.
fn hint_value(m: &EvaluatedMove) -> String {
    let plain = match m.value {
        Value::Loss(0) => "you win at once".to_string(),
        Value::Loss(n) => format!("you win in {}", count(u64::from(n), "ply", "plies")),
        Value::Win(n) => format!(
            "you lose in {}, the slowest loss",
            count(u64::from(n), "ply", "plies")
        ),
        Value::Draw => "a draw".to_string(),
    };
    match m.rule.map(|r| r.category) {
        Some(Category::CursedWin | Category::BlessedLoss) if m.value != Value::Draw => {
            format!("{plain}, a draw under the no-removal rule")
        }
        _ => plain,
    }
}

/// The game's record, and the command that reviews it.
fn write_record(out: &mut impl Write, game: &Game, db: Option<&Path>) -> Result<(), Failure> {
    if game.moves().is_empty() {
        writeln!(out, "No move was played.")?;
        return Ok(());
    }
    let record = game.numbered_record();
    writeln!(out, "The game: {record}")?;
    let db = db.map_or("DIR".to_string(), |d| d.display().to_string());
    let start = if game.start() == Position::initial() {
        String::new()
    } else {
        format!(" --position \"{}\"", game.start())
    };
    writeln!(
        out,
        "Review it: millbase review --db {db}{start} --moves \"{record}\""
    )?;
    Ok(())
}
