//! Perfect-play lines ([`Line`]): the best move each time from a position
//! or a game, under the no-removal rule where it is asked, to the end of
//! the game or, for a draw, to a bound.

use crate::answer::answers::{Answer, RuleValue, as_text};
use crate::answer::opening::{OpeningSearch, Precision};
use crate::answer::policy::Ask;
use crate::answer::query::{Database, QueryError};
use crate::rules::game::{Game, GameResult, Reason};
use crate::rules::moves::Move;
use crate::rules::moves::counter_after;
use crate::rules::position::Position;
use crate::solve::value::Value;
use serde::Serialize;

/// The longest drawn line asked for, in plies: the command line's and the
/// server's bound on `max_draw_plies` ([`Database::line_to`]).
pub const MAX_DRAW_PLIES: usize = 400;

/// One move of a perfect-play line. Its JSON: `{"move", "position",
/// "value", "plies"}`, the value for the side to move before the move;
/// under the rule also its `"counter"`, `"category"` and `"dtc"` there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineStep {
    /// The move played.
    #[serde(rename = "move", serialize_with = "as_text")]
    pub mv: Move,
    /// The position after it.
    #[serde(serialize_with = "as_text")]
    pub position: Position,
    /// The value for the side to move in the position before the move.
    #[serde(flatten)]
    pub value: Value,
    /// Under the no-removal rule ([`Database::line_at`]): the standing of
    /// the position before the move.
    #[serde(flatten)]
    pub rule: Option<RuleValue>,
}

/// A perfect-play line: the best move each time, the winner ending the game as
/// fast as it can and the loser delaying it as long as it can; for a draw, best
/// moves up to a bound. Its JSON: `{"position", "value", "plies", "line":
/// [...]}`, under the rule with the starting position's `"counter"`,
/// `"category"` and `"dtc"`, and the game's `"result"` where the line ends
/// the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    /// The starting position.
    #[serde(serialize_with = "as_text")]
    pub position: Position,
    /// Its value for the side to move.
    #[serde(flatten)]
    pub value: Value,
    /// Under the no-removal rule ([`Database::line_at`]): the standing of the
    /// starting position.
    #[serde(flatten)]
    pub rule: Option<RuleValue>,
    /// The moves, in order.
    #[serde(rename = "line")]
    pub steps: Vec<LineStep>,
    /// How the game ends at the end of the line: a side has lost, or under
    /// the rule the counter reached the move limit (a draw), or the game
    /// the line was asked of was over already; `None` where a drawn line
    /// stopped at the plies asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
}

impl Database {
    /// The perfect-play line from `pos` under `ask` ([`Database::line_at`]
    /// at `ask.counter` if given, else [`Database::line`], or
    /// [`Database::line_from_tables`] without search), at most
    /// `max_draw_plies` moves long where it is not a win or loss.
    pub fn line_to(
        &self,
        pos: &Position,
        ask: Ask,
        max_draw_plies: usize,
    ) -> Result<Line, QueryError> {
        match (ask.counter, ask.search) {
            (Some(c), _) => self.line_at(pos, c, max_draw_plies),
            (None, true) => self.line(pos, max_draw_plies),
            (None, false) => self.line_from_tables(pos, max_draw_plies),
        }
    }

    /// The perfect-play line from the game now ([`Database::game_ask`],
    /// [`Database::line_to`]); a game that is over has an empty line that
    /// ends with its result.
    pub fn line_game(
        &self,
        game: &Game,
        max_draw_plies: usize,
        search: bool,
    ) -> Result<Line, QueryError> {
        let Some(result) = game.result() else {
            let ask = self.ask_in_game(game.counter(), game.move_limit(), search);
            return self.line_to(&game.position(), ask, max_draw_plies);
        };
        let a = self.answer_game(game, search)?;
        Ok(Line {
            position: a.position,
            value: a.value,
            steps: vec![],
            rule: a.rule,
            result: Some(result),
        })
    }

    /// The perfect-play line from `pos` ([`Line`]), at most `max_draw_plies`
    /// moves long where the position is a draw (a win or loss runs to the end).
    /// Placement positions whose sectors the database lacks are searched.
    pub fn line(&self, pos: &Position, max_draw_plies: usize) -> Result<Line, QueryError> {
        let mut search = OpeningSearch::new(self, Precision::ExactPlies);
        line_with(pos, max_draw_plies, None, |p: &Position, _| {
            match self.answer_from_tables(p) {
                Err(QueryError::PlacementPhase(_)) => search.answer(p),
                a => a,
            }
        })
    }

    /// [`Database::line`] from the tables only: a missing placement sector is
    /// [`QueryError::PlacementPhase`].
    pub fn line_from_tables(
        &self,
        pos: &Position,
        max_draw_plies: usize,
    ) -> Result<Line, QueryError> {
        line_with(pos, max_draw_plies, None, |p: &Position, _| {
            self.answer_from_tables(p)
        })
    }

    /// The perfect-play line under the no-removal rule from `pos` at
    /// `counter`: both sides play [`Database::best_move_at`], the counter
    /// counts on (0 after a removal), and the line ends with the game: a side
    /// without a move or with fewer than 3 stones, or the counter reaching
    /// the move limit (a draw). From a position that is not a win or loss
    /// under the rule it stops after `max_draw_plies` moves at most.
    pub fn line_at(
        &self,
        pos: &Position,
        counter: u16,
        max_draw_plies: usize,
    ) -> Result<Line, QueryError> {
        let limit = self.move_limit().unwrap_or(u16::MAX);
        line_with(pos, max_draw_plies, Some((counter, limit)), |p, c| {
            self.answer_at(p, c)
        })
    }
}

/// The line from `pos`, each position answered by `answer` (given the
/// counter); under the rule (`rule`: the starting counter and the move limit)
/// the counter counts on, 0 after a removal, and the line ends at the limit.
fn line_with(
    pos: &Position,
    max_draw_plies: usize,
    rule: Option<(u16, u16)>,
    mut answer: impl FnMut(&Position, u16) -> Result<Answer, QueryError>,
) -> Result<Line, QueryError> {
    let (mut c, limit) = rule.unwrap_or((0, u16::MAX));
    let first = answer(pos, c)?;
    let drawn = match first.rule {
        Some(r) => r.category.is_draw(),
        None => first.value == Value::Draw,
    };
    let bound = if drawn { max_draw_plies } else { usize::MAX };
    let mut steps: Vec<LineStep> = vec![];
    let mut current = first.clone();
    let mut result = None;
    loop {
        let Some(best) = current.moves.first() else {
            // no move: the game is over
            result = current.result;
            break;
        };
        if steps.len() >= bound {
            break;
        }
        steps.push(LineStep {
            mv: best.mv,
            position: best.position,
            value: current.value,
            rule: current.rule,
        });
        c = counter_after(best.mv, c);
        if best.position.mover_below_minimum() {
            result = Some(GameResult {
                winner: Some(best.position.side.other()),
                reason: Reason::Stones,
            });
            break;
        }
        if c >= limit {
            result = Some(GameResult {
                winner: None,
                reason: Reason::NoRemoval,
            });
            break;
        }
        current = answer(&best.position, c)?;
    }
    Ok(Line {
        position: *pos,
        value: first.value,
        steps,
        rule: first.rule,
        result,
    })
}
