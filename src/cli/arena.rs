//! `millbase arena`: games between two levels, on every core.

use super::{Failure, RuleArgs, ThreadArgs, parse_level, parse_position, start_within, write_json};
use clap::Args;
use millbase::answer::query::Database;
use millbase::play::players::Level;
use millbase::play::players::arena::{
    GameRecord, Judgement, PlayedGame, PlayerSummary, Tally, play_game, result_name,
};
use millbase::rules::position::Color;
use millbase::rules::variant::{DEFAULT_MOVE_LIMIT, MAX_MOVE_LIMIT};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
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

/// The first line of a `--record` file: what decides its games (all but
/// their number). A run resumes a file only with the same.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct RunKey {
    white: String,
    black: String,
    swap: bool,
    seed: u64,
    position: String,
    move_limit: u16,
    variant: String,
    judged: bool,
}

#[derive(Serialize, Deserialize)]
struct RecordHeader<K> {
    arena: K,
}

/// The games of `path` for the run `key` (none when the file is missing or
/// empty). A last line cut short by a killed run is dropped from the file,
/// once its first line shows the file is this run's record.
fn read_record(path: &Path, key: &RunKey) -> Result<Vec<GameRecord>, Failure> {
    let name = path.display();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(Failure::fault(format!("cannot read {name}: {e}"))),
    };
    let foreign = |why: String| {
        Failure::input(format!(
            "{name} is not an arena record ({why}): give another --record file"
        ))
    };
    let header_line = serde_json::to_vec(&RecordHeader { arena: key }).expect("serializes");
    let whole = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(n) => n + 1,
        // no line ended: a header cut short by a killed run, or another file
        None if header_line.starts_with(&bytes) => 0,
        None => return Err(foreign("no line ends".to_string())),
    };
    let text = std::str::from_utf8(&bytes[..whole]).map_err(|_| foreign("not UTF-8".into()))?;
    let mut lines = text.lines();
    if let Some(first) = lines.next() {
        let header: RecordHeader<RunKey> =
            serde_json::from_str(first).map_err(|e| foreign(e.to_string()))?;
        if &header.arena != key {
            return Err(Failure::input(format!(
                "{name} records another run ({}); this one is {}: give another --record file, or the same arguments",
                serde_json::to_string(&header.arena).unwrap_or_default(),
                serde_json::to_string(key).unwrap_or_default(),
            )));
        }
    }
    if whole < bytes.len() {
        let f = std::fs::OpenOptions::new().write(true).open(path);
        f.and_then(|f| f.set_len(whole as u64)).map_err(|e| {
            Failure::fault(format!(
                "cannot cut the unfinished last line of {name}: {e}"
            ))
        })?;
    }
    lines
        .enumerate()
        .map(|(n, line)| {
            serde_json::from_str(line).map_err(|e| {
                Failure::fault(format!(
                    "{name} line {}: {e}; remove the line and its game is played again",
                    n + 2
                ))
            })
        })
        .collect()
}

/// Appends `line` and a newline to the record, in one write.
fn append_line(
    file: &mut std::fs::File,
    path: &Path,
    line: &impl Serialize,
) -> Result<(), Failure> {
    let mut text = serde_json::to_vec(line).expect("records serialize");
    text.push(b'\n');
    file.write_all(&text).map_err(|e| {
        Failure::fault(format!(
            "cannot write {}: {e}; the games kept so far stay there",
            path.display()
        ))
    })
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

/// A seed for game `i`'s player of `side`, from the run's seed.
fn seed_of(seed: u64, i: usize, side: u64) -> u64 {
    // SplitMix64 of (seed, game, side): distinct games get unrelated seeds
    let mut z = seed
        .wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(side.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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
            Some(Arc::new(Database::open_with_move_limit(dir, limit)?))
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
    let colours = |i: usize| {
        if a.swap && i % 2 == 1 {
            (a.black, a.white)
        } else {
            (a.white, a.black)
        }
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
            };
            let kept = read_record(path, &key)?;
            let fresh = kept.is_empty() && std::fs::metadata(path).map_or(true, |m| m.len() == 0);
            for r in kept.into_iter().filter(|r| r.game < a.games) {
                let (white, black) = colours(r.game);
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
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| Failure::input(format!("cannot open {}: {e}", path.display())))?;
            if fresh {
                append_line(&mut file, path, &RecordHeader { arena: &key })?;
            }
            if !done.is_empty() {
                eprintln!(
                    "{} of {} games kept in {}",
                    done.len(),
                    a.games,
                    path.display()
                );
            }
            Some((file, path.clone()))
        }
        None => None,
    };
    let bar = indicatif::ProgressBar::new(a.games as u64).with_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games, {elapsed} ({eta} left)",
        )
        .expect("a valid template"),
    );
    let mut tallies: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut count = |i: usize, played: &PlayedGame| -> Result<(), Failure> {
        let (white, black) = colours(i);
        let result = played.game.result().expect("played to the end");
        tallies
            .entry(white.name())
            .or_default()
            .add(played, Color::White);
        tallies
            .entry(black.name())
            .or_default()
            .add(played, Color::Black);
        if a.json {
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
                game: i,
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
    for (&i, played) in &done {
        count(i, played)?;
    }
    // the other games are played on every core; each finished one is kept,
    // written and counted here as it comes
    let todo: Vec<usize> = (0..a.games).filter(|i| !done.contains_key(i)).collect();
    let (tx, rx) = std::sync::mpsc::channel();
    let (seed, move_limit) = (a.seed, a.move_limit);
    let mut failure = None;
    std::thread::scope(|s| -> Result<(), Failure> {
        let db = db.as_ref();
        s.spawn(move || {
            todo.into_par_iter().for_each_with(tx, |tx, i| {
                let seeds = (seed_of(seed, i, 0), seed_of(seed, i, 1));
                let played = play_game(start, variant, move_limit, colours(i), seeds, db);
                let _ = tx.send((i, played));
            })
        });
        for (i, played) in rx {
            let played = match played {
                Ok(p) => p,
                Err(e) => {
                    failure.get_or_insert(Failure::fault(format!("game {i}: {e}")));
                    continue;
                }
            };
            if let Some((file, path)) = &mut record {
                append_line(file, path, &played.record(i, colours(i)))?;
            }
            count(i, &played)?;
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    if let Some(f) = failure {
        return Err(f);
    }
    let summary: BTreeMap<&str, _> = tallies.iter().map(|(k, t)| (*k, t.summary())).collect();
    if a.json {
        #[derive(Serialize)]
        struct SummaryLine<'a> {
            summary: &'a BTreeMap<&'a str, PlayerSummary>,
        }
        write_json(out, &SummaryLine { summary: &summary })?;
        return Ok(());
    }
    writeln!(
        out,
        "{} games, {} rules, from {start}{}:",
        a.games,
        variant.name(),
        if a.swap {
            ", colours exchanged every second game"
        } else {
            ""
        }
    )?;
    for (name, s) in &summary {
        writeln!(
            out,
            "  {name:<8} {:>5} wins {:>5} draws {:>5} losses  score {:.3} (95%: {:.3} to {:.3})  \
             {:.1} ms a move (median; at most {:.1})",
            s.wins,
            s.draws,
            s.losses,
            s.score,
            s.ci95[0],
            s.ci95[1],
            s.ms_per_move.median,
            s.ms_per_move.max
        )?;
        if let Some(m) = &s.mistakes_per_100 {
            let parts: Vec<String> = m.iter().map(|(p, x)| format!("{p:?} {x:.2}")).collect();
            writeln!(
                out,
                "           mistakes per 100 moves: {}",
                parts.join(", ").to_lowercase()
            )?;
        }
    }
    Ok(())
}
