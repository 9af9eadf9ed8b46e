//! `millbase arena`: games between two levels, on every core.

use super::text::count as count_text;
use super::{Failure, RuleArgs, ThreadArgs, parse_level, parse_position, start_within, write_json};
use clap::Args;
use millbase::answer::query::Database;
use millbase::play::players::Level;
use millbase::play::players::arena::{Judgement, PlayedGame, play_game, result_name};
use millbase::play::players::series::{RecordError, RecordFile, RunKey, Series, SeriesTally};
use millbase::rules::position::Color;
use millbase::rules::variant::{DEFAULT_MOVE_LIMIT, MAX_MOVE_LIMIT};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args)]
pub struct ArenaArgs {
    /// White's level: random, simple, hard, expert, perfect or ultra
    /// (perfect and ultra need --db).
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    white: Level,
    /// Black's level.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    black: Level,
    /// Games to play.
    #[arg(long, value_name = "N", default_value_t = 100)]
    games: usize,
    /// Play every second game with the colours exchanged.
    #[arg(long)]
    swap: bool,
    /// Seed of the players' choices among equal moves: the same seed plays
    /// the same games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Database directory: for perfect and ultra, and to judge every move
    /// (mistakes by phase). Its variant is played.
    #[arg(long, value_name = "DIR")]
    db: Option<PathBuf>,
    /// The start of every game (default: the initial position, or with
    /// --db the start of the largest game the database holds).
    #[arg(long, value_name = "POS")]
    position: Option<String>,
    /// Plies without a removal that draw the game.
    #[arg(long, value_name = "L", default_value_t = DEFAULT_MOVE_LIMIT,
          value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_MOVE_LIMIT)))]
    move_limit: u16,
    #[command(flatten)]
    threads: ThreadArgs,
    #[command(flatten)]
    variant: RuleArgs,
    /// One JSON line per game, then a summary line.
    #[arg(long)]
    json: bool,
    /// Keep every finished game in FILE (JSON lines) as it ends. A run with
    /// the same arguments and FILE plays only the games FILE lacks: an
    /// interrupted run goes on where it stopped, a larger --games adds games.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

/// One game's line of `--json`.
#[derive(Serialize)]
struct GameLine {
    game: usize,
    white: &'static str,
    black: &'static str,
    result: &'static str,
    reason: &'static str,
    plies: usize,
    moves: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    mistakes: Option<BTreeMap<&'static str, u64>>,
}

pub fn run(a: ArenaArgs, out: &mut impl Write) -> Result<(), Failure> {
    let given = a.position.as_deref().map(parse_position).transpose()?;
    if a.games == 0 {
        return Err(Failure::input("--games 0: give at least one game"));
    }
    for level in [a.white, a.black] {
        if level.needs_database() && a.db.is_none() {
            return Err(Failure::input(format!(
                "the {level} player reads the database: give --db DIR (millbase generate builds one)"
            )));
        }
    }
    let db = match &a.db {
        Some(dir) => {
            // the rule's tables of the games' move limit, where the database has them
            let held = millbase::storage::dir::DbDir::open(dir)?.move_limits();
            let limit = held.contains(&a.move_limit).then_some(a.move_limit);
            let db = Database::open_with_move_limit(dir, limit)?;
            super::on_nines_board(db.variant(), dir)?;
            Some(Arc::new(db))
        }
        None => None,
    };
    if db.is_some() && a.variant.no_flying {
        return Err(Failure::input(
            "--no-flying with --db: the database's variant is played; leave --no-flying out",
        ));
    }
    let variant = db.as_ref().map_or(a.variant.variant(), |d| d.variant());
    let start = start_within(given, db.as_deref())?;
    a.threads.apply()?;
    let series = Series {
        white: a.white,
        black: a.black,
        swap: a.swap,
        seed: a.seed,
    };
    // the games already kept in --record, and the file the others go to
    let mut done: BTreeMap<usize, PlayedGame> = BTreeMap::new();
    let mut record = match &a.record {
        Some(path) => {
            let key = RunKey {
                white: a.white.name().to_string(),
                black: a.black.name().to_string(),
                swap: a.swap,
                seed: a.seed,
                position: start.to_string(),
                move_limit: a.move_limit,
                variant: variant.name().to_string(),
                judged: db.is_some(),
                first_game: 1,
            };
            let (file, kept) = RecordFile::open(path, &key).map_err(record_failure)?;
            for r in kept.into_iter().filter(|r| r.game <= a.games) {
                let (white, black) = series.colours(r.game);
                if (r.white.as_str(), r.black.as_str()) != (white.name(), black.name()) {
                    return Err(Failure::fault(format!(
                        "{}: game {} is {} against {}, not {white} against {black}",
                        path.display(),
                        r.game,
                        r.white,
                        r.black
                    )));
                }
                let played = PlayedGame::from_record(&r, start, variant, a.move_limit)
                    .map_err(|e| Failure::fault(format!("{}: {e}", path.display())))?;
                done.entry(r.game).or_insert(played);
            }
            if !done.is_empty() {
                eprintln!(
                    "{} of {} games kept in {}",
                    done.len(),
                    a.games,
                    path.display()
                );
            }
            Some(file)
        }
        None => None,
    };
    let bar = indicatif::ProgressBar::new(a.games as u64).with_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games, {elapsed} ({eta} left)",
        )
        .expect("a valid template"),
    );
    let mut tally = SeriesTally::default();
    let mut count = |number: usize, played: &PlayedGame| -> Result<(), Failure> {
        let (white, black) = series.colours(number);
        tally.add((white, black), played);
        if a.json {
            let result = played.game.result().expect("played to the end");
            let mistakes = db.as_ref().map(|_| {
                let count = |side| {
                    (played.moves.iter())
                        .filter(|m| m.side == side)
                        .filter(|m| m.judgement.is_some_and(|j| j != Judgement::Keeps))
                        .count() as u64
                };
                BTreeMap::from([
                    ("white", count(Color::White)),
                    ("black", count(Color::Black)),
                ])
            });
            let line = GameLine {
                game: number,
                white: white.name(),
                black: black.name(),
                result: result_name(result),
                reason: result.reason.name(),
                plies: played.game.moves().len(),
                moves: played.game.record(),
                mistakes,
            };
            write_json(out, &line)?;
        }
        bar.inc(1);
        Ok(())
    };
    for (&number, played) in &done {
        count(number, played)?;
    }
    // the other games are played on every core; each finished one is kept,
    // written and counted here as it comes
    let todo: Vec<usize> = (1..=a.games).filter(|i| !done.contains_key(i)).collect();
    let (tx, rx) = std::sync::mpsc::channel();
    let move_limit = a.move_limit;
    let mut failure = None;
    std::thread::scope(|s| -> Result<(), Failure> {
        let db = db.as_ref();
        s.spawn(move || {
            todo.into_par_iter().for_each_with(tx, |tx, number| {
                let colours = series.colours(number);
                let seeds = series.seeds(number);
                let played = play_game(start, variant, move_limit, colours, seeds, db);
                let _ = tx.send((number, played));
            })
        });
        for (number, played) in rx {
            let played = match played {
                Ok(p) => p,
                Err(e) => {
                    failure.get_or_insert(Failure::fault(format!("game {number}: {e}")));
                    continue;
                }
            };
            if let Some(file) = &mut record {
                let kept = played.record(number, series.colours(number));
                file.append(&kept).map_err(record_failure)?;
            }
            count(number, &played)?;
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    if let Some(f) = failure {
        return Err(f);
    }
    let summary = tally.summary();
    if a.json {
        write_json(out, &summary)?;
        return Ok(());
    }
    writeln!(
        out,
        "{}, {} rules, from {start}{}:",
        count_text(summary.games as u64, "game", "games"),
        variant.name(),
        if a.swap {
            ", colours exchanged every second game"
        } else {
            ""
        }
    )?;
    for (name, s) in &summary.players {
        writeln!(
            out,
            "  {name:<8} {:>5} {:>5} {:>5}  score {:.3} (95%: {:.3} to {:.3})  \
             {:.1} ms a move (median; at most {:.1})",
            count_text(s.wins, "win", "wins"),
            count_text(s.draws, "draw", "draws"),
            count_text(s.losses, "loss", "losses"),
            s.score,
            s.ci95[0],
            s.ci95[1],
            s.ms_per_move.median,
            s.ms_per_move.max
        )?;
        if a.swap || a.white == a.black {
            for (colour, r) in [("White", s.as_white), ("Black", s.as_black)] {
                writeln!(
                    out,
                    "           as {colour}: {}, {}, {}",
                    count_text(r.wins, "win", "wins"),
                    count_text(r.draws, "draw", "draws"),
                    count_text(r.losses, "loss", "losses"),
                )?;
            }
        }
        if let Some(m) = &s.mistakes_per_100 {
            let parts: Vec<String> = m.iter().map(|(p, x)| format!("{p:?} {x:.2}")).collect();
            writeln!(
                out,
                "           mistakes per 100 moves: {}",
                parts.join(", ").to_lowercase()
            )?;
        }
    }
    let endings: Vec<String> = (summary.endings.iter())
        .filter(|(_, n)| **n > 0)
        .map(|(reason, n)| format!("{n} {reason}"))
        .collect();
    writeln!(out, "  ended by: {}", endings.join(", "))?;
    Ok(())
}

/// A record file that cannot be used: the user's to fix (another file)
/// or a fault of the disk.
fn record_failure(e: RecordError) -> Failure {
    match e {
        RecordError::Foreign(m) => Failure::input(m),
        RecordError::Io(m) => Failure::fault(m),
    }
}
