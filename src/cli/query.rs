//! `millbase query`: the value of a position and of every move, for people
//! (text) and programs (`--json`).

use super::progress::with_spinner;
use super::text::{board, outcome};
use super::{DbArgs, Failure, LimitArgs, PositionArgs, write_json};
use clap::Args;
use millbase::answer::answers::{Answer, EvaluatedMove};
use millbase::answer::opening::{OpeningSearch, Precision};
use millbase::answer::query::{Database, QueryError};
use millbase::index::Subspace;
use millbase::rules::game::Game;
use millbase::rules::moves;
use millbase::solve::counter::Category;
use millbase::solve::value::Value;
use std::io::Write;

#[derive(Args)]
pub struct QueryArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    limit: LimitArgs,
    #[command(flatten)]
    position: PositionArgs,
    /// One JSON object: {"position", "value", "plies", "source", "moves": [{"move", "position", "value", "plies"}]};
    /// "source" is "table", or "search" where the database lacks the position's placement sector.
    #[arg(long)]
    json: bool,
    /// Print only the best move (with --json: its entry of the move list):
    /// where the database has the no-removal rule's tables, the best under
    /// the rule at the counter (the perfect player, `Database::best_move_at`).
    #[arg(long)]
    best: bool,
    /// No progress display on stderr while a placement position is searched.
    #[arg(long)]
    quiet: bool,
    /// Plies since the last removal, for the no-removal rule (0 by default):
    /// the answer gains each position's category (win, cursed-win, draw,
    /// blessed-loss, loss) and dtc, and the moves come best first under the
    /// rule. Needs the rule's tables (built by `generate`).
    #[arg(long, value_name = "C")]
    counter: Option<u16>,
}

/// The answer for the game now ([`Database::answer_game`]); a placement
/// position whose sector the database lacks is searched, with a spinner and
/// a note on stderr.
pub fn answer(db: &Database, game: &Game, quiet: bool) -> Result<Answer, Failure> {
    match db.answer_game(game, false) {
        Err(QueryError::PlacementPhase(_)) => {}
        a => return Ok(a?),
    }
    let pos = game.position();
    if !quiet {
        eprintln!(
            "note: {} lacks the placement sector {}: solving by search (run `millbase generate` \
             on the database to store the placement phase)",
            db.path().display(),
            Subspace::of(&pos)
        );
    }
    let mut search = OpeningSearch::new(db, Precision::ExactPlies);
    Ok(with_spinner(quiet, &search.progress(), || {
        search.answer(&pos)
    })?)
}

/// What a move does for the side that makes it, with the plies left after it.
fn move_outcome(child: Value) -> String {
    match child {
        Value::Loss(0) => "wins at once".to_string(),
        Value::Loss(n) => format!("wins in {n}"),
        Value::Win(n) => format!("loses in {n}"),
        Value::Draw => "draws".to_string(),
    }
}

/// The moves of `answer` in groups (winning, drawing, losing), symmetric
/// duplicates under the position's own symmetries shown once.
fn write_moves(out: &mut impl Write, answer: &Answer) -> std::io::Result<()> {
    let symmetries = moves::symmetries_of(&answer.position);
    if !symmetries.is_empty() {
        writeln!(
            out,
            "The position is symmetric: of moves that are mirror images of one another, \
             one is shown."
        )?;
    }
    let mut shown: Vec<(EvaluatedMove, Vec<String>)> = vec![];
    for m in &answer.moves {
        let twin = shown
            .iter_mut()
            .find(|(r, _)| r.value == m.value && symmetries.iter().any(|&s| r.mv.image(s) == m.mv));
        match twin {
            Some((_, images)) => images.push(m.mv.to_string()),
            None => shown.push((m.clone(), vec![])),
        }
    }
    // by what each move leads to for the opponent: under the rule its
    // category there (a cursed win and a blessed loss apart), else its value
    let groups = [
        ("Winning moves", Category::Loss),
        (
            "Cursed wins (wins the no-removal rule draws)",
            Category::BlessedLoss,
        ),
        ("Drawing moves", Category::Draw),
        (
            "Blessed losses (losses the no-removal rule draws)",
            Category::CursedWin,
        ),
        ("Losing moves", Category::Win),
    ];
    let category = |m: &EvaluatedMove| match (m.rule, m.value) {
        (Some(r), _) => r.category,
        (None, Value::Loss(_)) => Category::Loss,
        (None, Value::Draw) => Category::Draw,
        (None, Value::Win(_)) => Category::Win,
    };
    for (name, kind) in groups {
        let group: Vec<&(EvaluatedMove, Vec<String>)> =
            shown.iter().filter(|(m, _)| category(m) == kind).collect();
        if group.is_empty() {
            continue;
        }
        let count: usize = group.iter().map(|(_, i)| 1 + i.len()).sum();
        writeln!(out, "{name} ({count}):")?;
        for (m, images) in group {
            let same = if images.is_empty() {
                String::new()
            } else {
                format!("   (also {})", images.join(", "))
            };
            // under the rule: the plies to the next removal (dtc), where a
            // removal comes before the end
            let dtc = match m.rule.and_then(|r| r.dtc) {
                Some(d)
                    if matches!(kind, Category::Win | Category::Loss)
                        && Some(d) != m.value.plies() =>
                {
                    format!(", {d} to the next removal (dtc)")
                }
                _ => String::new(),
            };
            writeln!(
                out,
                "  {:<10} {}{dtc}{same}",
                m.mv.to_string(),
                move_outcome(m.value)
            )?;
        }
    }
    Ok(())
}

pub fn run(a: QueryArgs, out: &mut impl Write) -> Result<(), Failure> {
    super::check_board(&a.db.db)?;
    let start = a.position.start(false)?;
    let database = a.limit.open(&a.db.db)?;
    let variant = database.variant();
    let game = a.position.game_on(&database, start, a.counter)?;
    let pos = game.position();
    let answer = answer(&database, &game, a.quiet)?;
    if a.json || a.best {
        return match (a.best, answer.moves.first()) {
            (false, _) if a.position.moves.is_some() => {
                let mut v = serde_json::to_value(&answer).map_err(Failure::fault)?;
                v["game"] = game.json();
                write_json(out, &v)
            }
            (false, _) => write_json(out, &answer),
            (true, None) => Err(Failure::input(format!(
                "{pos}: no legal move: the game is over ({})",
                answer.result.map_or(String::new(), |r| r.to_string())
            ))),
            (true, Some(m)) if a.json => write_json(out, m),
            (true, Some(m)) => Ok(writeln!(out, "{}", m.mv)?),
        };
    }
    board(out, &pos)?;
    writeln!(out, "({} rules)", variant.name())?;
    writeln!(out)?;
    match (game.result(), moves::ending(&pos, variant)) {
        (None, _) => {}
        (Some(_), Some(end)) if game.moves().is_empty() => return Ok(writeln!(out, "{end}.")?),
        (Some(r), _) => return Ok(writeln!(out, "The game is over: {r}.")?),
    }
    if a.position.moves.is_some() {
        writeln!(
            out,
            "The game: {} since the last removal; this position seen {}.",
            plies_text(game.counter()),
            times(game.repetitions())
        )?;
    }
    let side = pos.side.name();
    match answer.value {
        Value::Draw => writeln!(out, "{side} draws: neither side can force a win.")?,
        v => writeln!(out, "{side} {}.", outcome(v))?,
    }
    if let (Some(r), Some(limit)) = (answer.rule, database.move_limit()) {
        let plies = |n: u16| format!("{n} pl{}", if n == 1 { "y" } else { "ies" });
        let standing = match (r.category, r.dtc) {
            (Category::Win, Some(d)) => {
                format!(
                    "{side} still wins, {} to the next removal or the end",
                    plies(d)
                )
            }
            (Category::Loss, Some(d)) => {
                format!(
                    "{side} still loses, {} to the next removal or the end",
                    plies(d)
                )
            }
            (Category::CursedWin, _) => {
                format!("a draw: {side}'s win takes too long (a cursed win)")
            }
            (Category::BlessedLoss, _) => {
                format!("a draw: the win against {side} takes too long (a blessed loss)")
            }
            _ => "a draw".to_string(),
        };
        writeln!(
            out,
            "Under the {limit}-ply no-removal rule ({} since the last removal): {standing}.",
            plies(r.counter)
        )?;
    }
    writeln!(
        out,
        "After each move, the plies left to the end with best play:"
    )?;
    write_moves(out, &answer)?;
    Ok(())
}

/// "1 ply", "12 plies".
fn plies_text(n: u16) -> String {
    format!("{n} pl{}", if n == 1 { "y" } else { "ies" })
}

/// "once", "twice", "3 times".
fn times(n: u8) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}
