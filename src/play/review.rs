//! The review of a game (docs/RULES.md, "Reviewing a game"): every move
//! judged from its mover's side by the database, before and after it, and
//! the best move where another was played.

use crate::answer::answers::{EvaluatedMove, Outcome, conversion, outcome_for_mover, preference};
use crate::answer::query::{Database, QueryError};
use crate::play::players::arena::Judgement;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::position::Color;
use crate::solve::counter::Category;
use crate::solve::value::Value;
use serde::Serialize;
use std::fmt;

/// How a move did, from its mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// The outcome kept, at the best distance (fastest win, slowest loss,
    /// any drawing move in a draw).
    Best,
    /// The outcome kept, at a worse distance.
    Keeps,
    /// One step down: win to draw, or draw to loss.
    Mistake,
    /// Win to loss.
    Blunder,
}

impl Mark {
    /// Every mark, best first.
    pub const ALL: [Mark; 4] = [Mark::Best, Mark::Keeps, Mark::Mistake, Mark::Blunder];

    /// `best`, `keeps`, `mistake` or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Best => "best",
            Mark::Keeps => "keeps",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The mark of a move whose mover stood at `before` and stands at
    /// `after`; `fastest`: whether it was among the best moves.
    fn of(before: Outcome, after: Outcome, fastest: bool) -> Mark {
        match Judgement::of(before, after) {
            Judgement::Blunder => Mark::Blunder,
            Judgement::Mistake => Mark::Mistake,
            Judgement::Keeps if fastest => Mark::Best,
            Judgement::Keeps => Mark::Keeps,
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value from the mover's side, with its standing under the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The plain value.
    pub value: Value,
    /// Under the no-removal rule, where its tables answer.
    pub category: Option<Category>,
}

/// One reviewed move.
#[derive(Clone, Debug)]
pub struct Reviewed {
    /// Its ply in the game, from 1.
    pub ply: usize,
    /// The side that made it.
    pub side: Color,
    /// The move.
    pub mv: Move,
    /// The mover's standing before it.
    pub before: Standing,
    /// The mover's standing after it (the plies left after the move).
    pub after: Standing,
    /// How it did.
    pub mark: Mark,
    /// The best move, where the one played was not among the best.
    pub best: Option<Move>,
    /// Under the no-removal rule, where the mover wins or loses after the
    /// move: the plies from before it to the next removal or the end of the
    /// game along it ([`conversion`]), what a win is played fastest by.
    pub dtc: Option<u16>,
    /// The same for the best move, where the one played was not among the
    /// best.
    pub best_dtc: Option<u16>,
    /// Under the rule, for a move among the best that does not end the game
    /// soonest (a win) or latest (a loss) of the moves keeping its outcome:
    /// the move that does, with the mover's standing after it. The rule
    /// orders wins by their next removal first, so a best move can be
    /// slower to the end than another.
    pub sooner: Option<(Move, Standing)>,
}

/// Reviews every move of `game` against `db`: the answers at each position
/// of the game, asked as [`Database::game_ask`] asks (under the rule at the
/// game's counter where the database holds the tables of the game's move
/// limit), a placement sector the database lacks searched where `search`.
pub fn review(db: &Database, game: &Game, search: bool) -> Result<Vec<Reviewed>, QueryError> {
    let mut out = vec![];
    let positions = game.positions();
    for (k, &mv) in game.moves().iter().enumerate() {
        let pos = positions[k];
        let ask = db.ask_in_game(game.counters()[k], game.move_limit(), search);
        let answer = db.answer_to(&pos, ask)?;
        let played = (answer.moves.iter())
            .find(|m| m.mv == mv)
            .expect("a move of the game is legal");
        let top = answer.moves.first().expect("a move was played");
        let best_key = preference(top);
        let fastest = preference(played) == best_key;
        let mark = Mark::of(outcome_for_mover(top), outcome_for_mover(played), fastest);
        let sooner = if fastest && played.rule.is_some() {
            plain_fastest(&answer.moves, played)
        } else {
            None
        };
        out.push(Reviewed {
            ply: k + 1,
            side: pos.side,
            mv,
            before: Standing {
                value: answer.value,
                category: answer.rule.map(|r| r.category),
            },
            after: after_for_mover(played),
            mark,
            best: (!fastest).then_some(top.mv),
            dtc: conversion(played),
            best_dtc: if fastest { None } else { conversion(top) },
            sooner,
        });
    }
    Ok(out)
}

/// Among `moves` of the same outcome as `played` for the mover, the one
/// that ends the game soonest for a win, latest for a loss, where it ends
/// it sooner (later) than `played`; with the mover's standing after it.
fn plain_fastest(moves: &[EvaluatedMove], played: &EvaluatedMove) -> Option<(Move, Standing)> {
    let outcome = outcome_for_mover(played);
    if outcome == Outcome::Draw {
        return None;
    }
    let key = |m: &EvaluatedMove| match m.value {
        Value::Loss(n) => i32::from(n),
        Value::Win(n) => -i32::from(n),
        Value::Draw => 0,
    };
    let best = (moves.iter())
        .filter(|m| outcome_for_mover(m) == outcome)
        .min_by_key(|m| key(m))?;
    (key(best) < key(played)).then(|| (best.mv, after_for_mover(best)))
}

/// The mover's standing after `m`, from the standing of the opponent there.
fn after_for_mover(m: &EvaluatedMove) -> Standing {
    let value = match m.value {
        Value::Win(n) => Value::Loss(n),
        Value::Loss(n) => Value::Win(n),
        Value::Draw => Value::Draw,
    };
    let category = m.rule.map(|r| match r.category {
        Category::Win => Category::Loss,
        Category::CursedWin => Category::BlessedLoss,
        Category::Draw => Category::Draw,
        Category::BlessedLoss => Category::CursedWin,
        Category::Loss => Category::Win,
    });
    Standing { value, category }
}

/// The count of each mark of `side`'s moves.
pub fn summary(moves: &[Reviewed], side: Color) -> [usize; 4] {
    let mut n = [0; 4];
    for m in moves.iter().filter(|m| m.side == side) {
        n[m.mark as usize] += 1;
    }
    n
}

/// `{"moves": [{"ply", "side", "move", "before", "after", "mark", "best",
/// "dtc", "best_dtc", "sooner"}], "summary": {"white": {MARK: N, ...},
/// "black": {...}}}`: the JSON of a review (`millbase review --json`,
/// `/api/review`), each standing `{"value", "plies"}` with its
/// `"category"` under the no-removal rule; `"sooner"` is
/// `{"move", "after"}` or null ([`Reviewed`]).
pub fn review_json(moves: &[Reviewed]) -> serde_json::Value {
    let side = |c: Color| {
        let n = summary(moves, c);
        let pairs = Mark::ALL
            .iter()
            .map(|m| (m.name().to_string(), serde_json::json!(n[*m as usize])));
        serde_json::Value::Object(pairs.collect())
    };
    serde_json::json!({
        "moves": moves.iter().map(move_json).collect::<Vec<_>>(),
        "summary": {"white": side(Color::White), "black": side(Color::Black)},
    })
}

fn standing_json(s: Standing) -> serde_json::Value {
    let mut v = serde_json::json!({"value": s.value.name(), "plies": s.value.plies()});
    if let Some(c) = s.category {
        v["category"] = serde_json::json!(c.name());
    }
    v
}

fn move_json(m: &Reviewed) -> serde_json::Value {
    serde_json::json!({
        "ply": m.ply,
        "side": m.side.json_name(),
        "move": m.mv.to_string(),
        "before": standing_json(m.before),
        "after": standing_json(m.after),
        "mark": m.mark.name(),
        "best": m.best.map(|b| b.to_string()),
        "dtc": m.dtc,
        "best_dtc": m.best_dtc,
        "sooner": m.sooner.map(|(mv, s)| serde_json::json!({"move": mv.to_string(), "after": standing_json(s)})),
    })
}
