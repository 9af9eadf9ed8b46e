//! Answers: a position's value with every legal move and the value it
//! leads to, best first ([`Answer`], [`EvaluatedMove`]), a move's standing
//! ([`Standing`]) and the order of moves ([`preference`]). They serialise,
//! by their derived `Serialize`, to the JSON shapes of `docs/RULES.md`, the
//! ones the command line prints.

use crate::answer::query::QueryError;
use crate::rules::game::GameResult;
use crate::rules::moves::{self, Move};
use crate::rules::position::Position;
use crate::rules::ruleset::RulesId;
use crate::rules::variant::Variant;
use crate::solve::counter::Category;
use crate::solve::value::Value;
use serde::{Serialize, Serializer};

/// Serialises `t` as the text its `Display` writes (moves and positions).
pub(crate) fn as_text<T: std::fmt::Display, S: Serializer>(t: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(t)
}

/// A legal move with the value of the position it leads to. Its JSON:
/// `{"move", "position", "value", "plies"}`, under the rule also the
/// `"counter"` after the move, `"category"` and `"dtc"`: all for the side
/// to move after the move; `plies` (`dtc`) is `null` for a draw (for no
/// distance).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EvaluatedMove {
    /// The move.
    #[serde(rename = "move", serialize_with = "as_text")]
    pub mv: Move,
    /// The position after it.
    #[serde(serialize_with = "as_text")]
    pub position: Position,
    /// Its value for the side to move there.
    #[serde(flatten)]
    pub value: Value,
    /// Its standing under the no-removal rule, at the counter after the move
    /// ([`Database::answer_at`](crate::answer::query::Database::answer_at)).
    #[serde(flatten)]
    pub rule: Option<RuleValue>,
}

/// A position's standing under the no-removal rule at one counter; in
/// JSON its `"counter"`, `"category"` and `"dtc"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RuleValue {
    /// Plies since the last removal.
    pub counter: u16,
    /// Win, cursed win, draw, blessed loss or loss at this counter.
    pub category: Category,
    /// For a win or loss: the plies to the next removal or the end of the
    /// game on the winner's fastest path that keeps the win (the loser's
    /// longest); `None` otherwise.
    pub dtc: Option<u16>,
}

/// A legal move with the standing of the position it leads to
/// ([`Database::standings`](crate::answer::query::Database::standings)): what decides a move's outcome, without the
/// plies and distances that order moves of the same outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The move.
    pub mv: Move,
    /// The position after it.
    pub position: Position,
    /// That position's category for its side to move: under the no-removal
    /// rule at the counter after the move where the answer is under the
    /// rule, else of its plain value (a win, a draw or a loss).
    pub category: Category,
}

impl Standing {
    /// The standing of an answer's move.
    pub fn of(m: &EvaluatedMove) -> Standing {
        Standing {
            mv: m.mv,
            position: m.position,
            category: m.rule.map_or(Category::plain(m.value), |r| r.category),
        }
    }

    /// The outcome for the side making the move (a cursed win and a blessed
    /// loss are draws).
    pub fn outcome(&self) -> Outcome {
        match self.category {
            Category::Loss => Outcome::Win,
            Category::Win => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }

    /// How good the move is for the side making it, lower first, as far as
    /// its category tells: the first part of [`preference`]'s key.
    pub fn rank(&self) -> u8 {
        match self.category {
            Category::Loss => 0,
            Category::BlessedLoss => 1,
            Category::Draw => 2,
            Category::CursedWin => 3,
            Category::Win => 4,
        }
    }
}

/// Where an answer's values come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The stored tables.
    Table,
    /// A search of the placement phase over the movement tables
    /// ([`OpeningSearch`](crate::answer::opening::OpeningSearch)), for a database without the placement sectors.
    Search,
}

impl Source {
    /// `"table"` or `"search"`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Table => "table",
            Source::Search => "search",
        }
    }
}

/// A position's value and its moves, best first. Its JSON is the shape
/// of `docs/RULES.md`: `{"position", "value", "plies", "source",
/// "moves": [...]}`, `"source"` `"table"` or `"search"`, under the rule the
/// position's `"counter"`, `"category"` and `"dtc"`, and the `"result"` of
/// a game that is over, and the `"rules"` (name and fingerprint).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// The position asked about.
    #[serde(serialize_with = "as_text")]
    pub position: Position,
    /// Its value for the side to move.
    #[serde(flatten)]
    pub value: Value,
    /// Where the values come from.
    pub source: Source,
    /// Its standing under the no-removal rule ([`Database::answer_at`](crate::answer::query::Database::answer_at)).
    #[serde(flatten)]
    pub rule: Option<RuleValue>,
    /// How the game has ended, where it is over: the side to move has lost
    /// (`value` is a loss in 0 plies, no moves), or a game is drawn by
    /// repetition or by the no-removal rule ([`Database::answer_game`](crate::answer::query::Database::answer_game):
    /// `value` is a draw, no moves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// Every legal move: fastest win first, then draws, then slowest loss.
    pub moves: Vec<EvaluatedMove>,
    /// The rules the values were solved under.
    pub rules: &'static RulesId,
}

/// Every legal move of `pos` with the value `eval` gives the position after it,
/// best first (fastest win, then draws, then slowest loss).
pub fn evaluate_moves(
    pos: &Position,
    variant: Variant,
    mut eval: impl FnMut(&Position) -> Result<Value, QueryError>,
) -> Result<Vec<EvaluatedMove>, QueryError> {
    let mut out = moves::legal_moves(pos, variant)
        .into_iter()
        .map(|mv| {
            let after = moves::apply(pos, mv);
            Ok(EvaluatedMove {
                mv,
                position: after,
                value: eval(&after)?,
                rule: None,
            })
        })
        .collect::<Result<Vec<_>, QueryError>>()?;
    out.sort_by(|a, b| a.value.cmp_as_child(b.value));
    Ok(out)
}

/// The moves of `moves` (an answer's, best first) as good as the first by
/// [`preference`], in their order.
pub(crate) fn best_of(mut moves: Vec<EvaluatedMove>) -> Vec<EvaluatedMove> {
    if let Some(key) = moves.first().map(preference) {
        moves.retain(|m| preference(m) == key);
    }
    moves
}

/// How good `m` is for the side making it, lower first: the order of
/// [`Database::answer_at`](crate::answer::query::Database::answer_at)'s list where the move carries its standing under
/// the rule, else of the plain value ([`Value::cmp_as_child`]). Moves with
/// the same key are equally good.
pub fn preference(m: &EvaluatedMove) -> (u8, i32) {
    match m.rule {
        Some(_) => rule_order(m),
        None => {
            let plies = match m.value {
                Value::Loss(n) => n as i32,
                Value::Draw => 0,
                Value::Win(n) => -(n as i32),
            };
            (Standing::of(m).rank(), plies)
        }
    }
}

/// The outcome of `m` for the side making it: win, draw or loss, under the
/// rule where the move carries its standing (a cursed win and a blessed
/// loss are draws), else by the plain value.
pub fn outcome_for_mover(m: &EvaluatedMove) -> Outcome {
    Standing::of(m).outcome()
}

/// Win, draw or loss, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// A win.
    Win,
    /// A draw.
    Draw,
    /// A loss.
    Loss,
}

/// The sort key of a move under the rule, from its child's standing: the
/// mover's wins that keep the win (fastest [`conversion`] first), cursed
/// wins, draws, blessed losses, losses (slowest conversion first).
pub(crate) fn rule_order(m: &EvaluatedMove) -> (u8, i32) {
    let d = conversion(m).map_or(0, i32::from);
    let rank = Standing::of(m).rank();
    match m.rule.expect("set by answer_at").category {
        Category::Loss => (rank, d),
        Category::Win => (rank, -d),
        _ => (rank, 0),
    }
}

/// Under the no-removal rule, for a move that wins or loses there: the
/// plies from the position before `m` to the next removal or the end of
/// the game along it, `m` included (1 for a move that removes a stone or
/// ends the game); what orders such moves ([`preference`]). `None` for a
/// move without its standing under the rule, or one that leads to a draw
/// there.
pub fn conversion(m: &EvaluatedMove) -> Option<u16> {
    let child = m.rule?;
    if !matches!(child.category, Category::Win | Category::Loss) {
        return None;
    }
    if m.mv.remove.is_some() || m.value == Value::Loss(0) {
        Some(1)
    } else {
        child.dtc.map(|d| d + 1)
    }
}
