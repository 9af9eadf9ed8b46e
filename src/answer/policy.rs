//! Answers: a position's value with every legal move and the value it leads to,
//! best first, for any position (movement positions from the tables, placement
//! positions by [`OpeningSearch`]). [`Answer`] serialises to the JSON shape of
//! `docs/RULES.md`, the one the command line prints.
//!
//! The layers read upward: probe ([`crate::answer::query`]) ← win/draw/loss maps
//! ([`crate::answer::wdl`]) ← placement search ([`crate::answer::opening`]) ← answer.

use crate::answer::opening::{OpeningSearch, Precision};
use crate::answer::query::{Database, QueryError};
use crate::rules::game::{Game, GameResult, Reason};
use crate::rules::moves::{self, Move, counter_after};
use crate::rules::position::Position;
use crate::rules::variant::{DEFAULT_MOVE_LIMIT, Variant};
use crate::solve::counter::Category;
use crate::solve::value::Value;
use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::fmt;

/// The longest drawn line asked for, in plies: the command line's and the
/// server's bound on `max_draw_plies` ([`Database::line_to`]).
pub const MAX_DRAW_PLIES: usize = 400;

/// A legal move with the value of the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluatedMove {
    /// The move.
    pub mv: Move,
    /// The position after it.
    pub position: Position,
    /// Its value for the side to move there.
    pub value: Value,
    /// Its standing under the no-removal rule, at the counter after the move
    /// ([`Database::answer_at`]).
    pub rule: Option<RuleValue>,
}

/// A position's standing under the no-removal rule at one counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
/// ([`Database::standings`]): what decides a move's outcome, without the
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The stored tables.
    Table,
    /// A search of the placement phase over the movement tables
    /// ([`OpeningSearch`]), for a database without the placement sectors.
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

/// A position's value and its moves, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The position asked about.
    pub position: Position,
    /// Its value for the side to move.
    pub value: Value,
    /// Every legal move: fastest win first, then draws, then slowest loss.
    pub moves: Vec<EvaluatedMove>,
    /// Where the values come from.
    pub source: Source,
    /// Its standing under the no-removal rule ([`Database::answer_at`]).
    pub rule: Option<RuleValue>,
    /// How the game has ended, where it is over: the side to move has lost
    /// (`value` is a loss in 0 plies, no moves), or a game is drawn by
    /// repetition or by the no-removal rule ([`Database::answer_game`]:
    /// `value` is a draw, no moves).
    pub result: Option<GameResult>,
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

/// What an answer is asked under: the one policy of the command line, the
/// server and the players ([`Database::answer_to`], [`Database::line_to`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ask {
    /// Plies since the last removal: the answer is under the no-removal rule
    /// at this counter, from the rule's tables (an error where the database
    /// has none); `None` for the game's plain values.
    pub counter: Option<u16>,
    /// Whether a placement position whose sector the database lacks is
    /// solved by search ([`OpeningSearch`], exact plies, plain values), or is
    /// [`QueryError::PlacementPhase`].
    pub search: bool,
}

impl Database {
    /// The answer for `pos` under `ask`: from the rule's tables at
    /// `ask.counter` if given, else from the game's tables; by search where a
    /// placement sector is missing and `ask.search` allows it.
    pub fn answer_to(&self, pos: &Position, ask: Ask) -> Result<Answer, QueryError> {
        let tables = match ask.counter {
            Some(c) => self.answer_at(pos, c),
            None => self.answer_from_tables(pos),
        };
        match tables {
            Err(QueryError::PlacementPhase(_)) if ask.search => {
                OpeningSearch::new(self, Precision::ExactPlies).answer(pos)
            }
            a => a,
        }
    }

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

    /// A game against this database from `start`, `counter` plies after the
    /// last removal (0 where not given), under the database's no-removal
    /// rule: the move limit of its rule tables, else the rule texts' 100.
    /// A counter given needs the rule's tables and must be below their
    /// limit ([`QueryError::Counter`] says which fails).
    pub fn new_game(&self, start: Position, counter: Option<u16>) -> Result<Game, QueryError> {
        if let Some(c) = counter {
            self.limit_for(c)?;
        }
        let limit = self.move_limit().unwrap_or(DEFAULT_MOVE_LIMIT);
        Ok(Game::with_move_limit(
            start,
            self.variant(),
            counter.unwrap_or(0),
            limit,
        ))
    }

    /// What the position of `game` is asked under, the one policy of every
    /// front end: `None` once the game is over; else under the no-removal
    /// rule at the game's counter where this database holds the tables of
    /// the game's move limit, else the plain values. A placement position
    /// whose sector the database lacks is searched where `search` allows.
    pub fn game_ask(&self, game: &Game, search: bool) -> Option<Ask> {
        if game.result().is_some() {
            return None;
        }
        Some(self.ask_in_game(game.counter(), game.move_limit(), search))
    }

    /// [`Database::game_ask`] for a position of a game of `move_limit` that
    /// goes on, at `counter`.
    pub fn ask_in_game(&self, counter: u16, move_limit: u16, search: bool) -> Ask {
        let rule = self.move_limit() == Some(move_limit) && counter < move_limit;
        Ask {
            counter: rule.then_some(counter),
            search,
        }
    }

    /// The answer for the game now ([`Database::game_ask`]): for a game that
    /// goes on, [`Database::answer_to`] its position; for a game that is
    /// over, its result and no move, read from no table: the side to move
    /// has lost (a loss in 0 plies, and so under the rule), or the game is
    /// drawn by repetition or by the no-removal rule (a draw).
    pub fn answer_game(&self, game: &Game, search: bool) -> Result<Answer, QueryError> {
        let pos = game.position();
        let ask = self.ask_in_game(game.counter(), game.move_limit(), search);
        let Some(result) = game.result() else {
            return self.answer_to(&pos, ask);
        };
        let lost = result.winner.is_some();
        Ok(Answer {
            position: pos,
            value: if lost { Value::Loss(0) } else { Value::Draw },
            moves: vec![],
            source: Source::Table,
            rule: (ask.counter).filter(|_| lost).map(|counter| RuleValue {
                counter,
                category: Category::Loss,
                dtc: Some(0),
            }),
            result: Some(result),
        })
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
            end: LineEnd::Over(result),
        })
    }

    /// The [`Standing`] of every move of the game now, asked as
    /// [`Database::answer_game`] asks (none once the game is over).
    pub fn standings_game(&self, game: &Game, search: bool) -> Result<Vec<Standing>, QueryError> {
        match self.game_ask(game, search) {
            Some(ask) => self.standings(&game.position(), ask),
            None => Ok(vec![]),
        }
    }

    /// Every legal move of `pos` with the value it leads to, best first, from
    /// the tables ([`QueryError::PlacementPhase`] where a placement sector is
    /// missing).
    pub fn moves(&self, pos: &Position) -> Result<Vec<EvaluatedMove>, QueryError> {
        evaluate_moves(pos, self.variant(), |after| self.probe(after))
    }

    /// The value of `pos` and of all its moves, from the tables. A placement
    /// position whose sectors the database lacks is solved by search
    /// ([`OpeningSearch`], exact plies) instead, and the answer says so.
    pub fn answer(&self, pos: &Position) -> Result<Answer, QueryError> {
        let ask = Ask {
            counter: None,
            search: true,
        };
        self.answer_to(pos, ask)
    }

    /// The value of `pos` and of all its moves, from the tables only.
    pub fn answer_from_tables(&self, pos: &Position) -> Result<Answer, QueryError> {
        Ok(Answer {
            position: *pos,
            value: self.probe(pos)?,
            moves: self.moves(pos)?,
            source: Source::Table,
            rule: None,
            result: moves::ending(pos, self.variant()).map(GameResult::from),
        })
    }

    /// [`Database::answer_from_tables`] under the no-removal rule at `counter`
    /// (plies since the last removal, `0..L`): the position's and every move's
    /// category and distance, the moves best first under the rule (wins that
    /// keep the win, fastest conversion first; cursed wins; draws; blessed
    /// losses; losses, slowest first). A move's child has counter
    /// `counter + 1`, or 0 after a removal; reaching `L` draws unless the move
    /// left the opponent without a move.
    pub fn answer_at(&self, pos: &Position, counter: u16) -> Result<Answer, QueryError> {
        let limit = self.limit_for(counter)?;
        let mut a = self.answer_from_tables(pos)?;
        a.rule = Some(self.rule_value(pos, a.value, limit, counter)?);
        for m in &mut a.moves {
            m.rule = Some(self.move_rule(m, limit, counter)?);
        }
        a.moves.sort_by_key(rule_order);
        Ok(a)
    }

    /// The standing under the rule with `limit` of the child of `m`, a move
    /// made at `counter`: a child's counter is `counter + 1`, or 0 after a
    /// removal; reaching the limit draws unless the move left the opponent
    /// without a move.
    fn move_rule(
        &self,
        m: &EvaluatedMove,
        limit: u16,
        counter: u16,
    ) -> Result<RuleValue, QueryError> {
        let c = counter_after(m.mv, counter);
        Ok(if c < limit {
            self.rule_value(&m.position, m.value, limit, c)?
        } else if m.value == Value::Loss(0) {
            // the move left the opponent without a move: the game is over
            RuleValue {
                counter: c,
                category: Category::Loss,
                dtc: Some(0),
            }
        } else {
            RuleValue {
                counter: c,
                category: Category::Draw,
                dtc: None,
            }
        })
    }

    /// The best moves of [`Database::answer_to`] under `ask` (every move as
    /// good as its first by [`preference`]), in that answer's order, from
    /// `standings`, [`Database::standings`] of `pos` under `ask`: the plies
    /// and distances that order moves of one category are read for the
    /// moves of the best category only, and nothing of the position's own
    /// but its entry. That entry is read first, so that a position whose
    /// sector the database lacks takes [`Database::answer_to`]'s search as the
    /// answer would (a sector present has its children's sectors too:
    /// `generate` makes them first).
    pub fn best_moves_to(
        &self,
        pos: &Position,
        ask: Ask,
        standings: &[Standing],
    ) -> Result<Vec<EvaluatedMove>, QueryError> {
        match self.best_moves_from_tables(pos, ask.counter, standings) {
            Err(QueryError::PlacementPhase(_)) if ask.search => {
                Ok(best_of(self.answer_to(pos, ask)?.moves))
            }
            r => r,
        }
    }

    /// [`Database::best_moves_to`] from the tables only, under the rule at
    /// `counter` where given.
    fn best_moves_from_tables(
        &self,
        pos: &Position,
        counter: Option<u16>,
        standings: &[Standing],
    ) -> Result<Vec<EvaluatedMove>, QueryError> {
        self.probe_outcome(pos)?;
        let Some(top) = standings.iter().map(Standing::rank).min() else {
            return Ok(vec![]);
        };
        let mut moves = (standings.iter())
            .filter(|s| s.rank() == top)
            .map(|s| {
                Ok(EvaluatedMove {
                    mv: s.mv,
                    position: s.position,
                    value: self.probe(&s.position)?,
                    rule: None,
                })
            })
            .collect::<Result<Vec<_>, QueryError>>()?;
        // the order of answer_at's list: by plain value, then under the rule
        moves.sort_by(|a, b| a.value.cmp_as_child(b.value));
        if let Some(counter) = counter {
            let limit = self.limit_for(counter)?;
            for m in &mut moves {
                m.rule = Some(self.move_rule(m, limit, counter)?);
            }
            moves.sort_by_key(rule_order);
        }
        Ok(best_of(moves))
    }

    /// The move limit of the rule's tables, checking that `counter` is below
    /// it; an error naming the fault where there are no tables or it is not.
    fn limit_for(&self, counter: u16) -> Result<u16, QueryError> {
        let limit = self.move_limit().ok_or_else(|| {
            QueryError::Counter(format!(
                "counter {counter}: {} holds no tables of the no-removal rule: build \
                 them with `millbase generate --db {}`",
                self.path().display(),
                self.path().display()
            ))
        })?;
        if counter >= limit {
            return Err(QueryError::Counter(format!(
                "counter {counter}: the plies since the last removal must be below the \
                 move limit {limit} (0..{limit})"
            )));
        }
        Ok(limit)
    }

    /// Every legal move of `pos` with its [`Standing`] under `ask`: the
    /// categories of [`Database::answer_to`]'s moves, in the order of the
    /// legal moves, read without the plies and distances that change no
    /// category. A move to a draw takes one probe of the win/draw/loss
    /// stream; a move to a win or loss under the rule also its distance,
    /// unless the file's plies of the win end the game before the rule's
    /// limit (then the rule cannot change it); nothing takes the one-ply
    /// search that recovers plies where a file stores none. Where a
    /// placement sector is missing and `ask.search` allows it, the
    /// categories come from [`Database::answer_to`]'s search.
    pub fn standings(&self, pos: &Position, ask: Ask) -> Result<Vec<Standing>, QueryError> {
        match self.standings_from_tables(pos, ask.counter) {
            Err(QueryError::PlacementPhase(_)) if ask.search => Ok(self
                .answer_to(pos, ask)?
                .moves
                .iter()
                .map(Standing::of)
                .collect()),
            r => r,
        }
    }

    /// [`Database::standings`] from the tables only, under the rule at
    /// `counter` where given.
    fn standings_from_tables(
        &self,
        pos: &Position,
        counter: Option<u16>,
    ) -> Result<Vec<Standing>, QueryError> {
        let rule = match counter {
            Some(c) => Some((self.limit_for(c)?, c)),
            None => None,
        };
        let variant = self.variant();
        let standing = |mv: Move| {
            let after = moves::apply(pos, mv);
            let (plain, plies_known) = self.probe_outcome_and_plies(&after)?;
            let category = match rule {
                None => Category::plain(plain),
                Some((limit, counter)) => {
                    let c = counter_after(mv, counter);
                    if c >= limit {
                        // as in answer_at: a draw by the rule unless the move ended the game
                        if moves::ending(&after, variant).is_some() {
                            Category::Loss
                        } else {
                            Category::Draw
                        }
                    } else if plain == Value::Draw {
                        Category::Draw // whatever the distance
                    } else if plies_known && ends_within(plain, limit - c) {
                        // the winner's fastest way ends the game within the
                        // plies the rule leaves, so no stretch without a
                        // removal reaches the limit: the rule keeps the win
                        // (and the loss) whatever the distance
                        Category::plain(plain)
                    } else {
                        self.rule_category(&after, plain, limit, c)?
                    }
                }
            };
            Ok(Standing {
                mv,
                position: after,
                category,
            })
        };
        (moves::legal_moves(pos, variant).into_iter())
            .map(standing)
            .collect()
    }

    /// The perfect player under the no-removal rule: the best move of `pos`
    /// at `counter` (the first of [`Database::answer_at`]'s list), or `None`
    /// when the side to move has no legal move. A win that the rule does not
    /// stop is kept and converted by the fastest way that fits in the plies
    /// left; a cursed win or a draw is held; a blessed loss is held to the
    /// draw; a loss is made to last as long as it can.
    pub fn best_move_at(
        &self,
        pos: &Position,
        counter: u16,
    ) -> Result<Option<EvaluatedMove>, QueryError> {
        Ok(self.answer_at(pos, counter)?.moves.into_iter().next())
    }

    /// The standing of `pos`, whose plain value is `plain`, at `counter`.
    fn rule_value(
        &self,
        pos: &Position,
        plain: Value,
        limit: u16,
        counter: u16,
    ) -> Result<RuleValue, QueryError> {
        let d = self.probe_distance(pos, limit)?;
        let category = Category::of(plain, d, limit, counter);
        let dtc = match (category, d) {
            (Category::Win | Category::Loss, Value::Win(x) | Value::Loss(x)) => Some(x),
            _ => None,
        };
        Ok(RuleValue {
            counter,
            category,
            dtc,
        })
    }
}

impl OpeningSearch<'_> {
    /// The value of `pos` and of every legal move, best first.
    pub fn answer(&mut self, pos: &Position) -> Result<Answer, QueryError> {
        let value = self.value(pos)?;
        let variant = self.variant();
        let list = evaluate_moves(pos, variant, |after| self.value(after))?;
        Ok(Answer {
            position: *pos,
            value,
            moves: list,
            source: Source::Search,
            rule: None,
            result: moves::ending(pos, variant).map(GameResult::from),
        })
    }
}

/// The moves of `moves` (an answer's, best first) as good as the first by
/// [`preference`], in their order.
fn best_of(mut moves: Vec<EvaluatedMove>) -> Vec<EvaluatedMove> {
    if let Some(key) = moves.first().map(preference) {
        moves.retain(|m| preference(m) == key);
    }
    moves
}

/// Whether the win or loss `v` (with its true plies) ends the game within
/// `room` plies.
fn ends_within(v: Value, room: u16) -> bool {
    v.plies().is_some_and(|p| p <= room)
}

/// How good `m` is for the side making it, lower first: the order of
/// [`Database::answer_at`]'s list where the move carries its standing under
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
fn rule_order(m: &EvaluatedMove) -> (u8, i32) {
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

/// `{"move", "position", "value", "plies"}`, and under the rule `"category"`
/// and `"dtc"`: all for the side to move after the move; `plies` (`dtc`) is
/// `null` for a draw (for no distance).
impl Serialize for EvaluatedMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("EvaluatedMove", 6)?;
        st.serialize_field("move", &self.mv.to_string())?;
        st.serialize_field("position", &self.position.to_string())?;
        st.serialize_field("value", self.value.name())?;
        st.serialize_field("plies", &self.value.plies())?;
        if let Some(r) = self.rule {
            st.serialize_field("category", r.category.name())?;
            st.serialize_field("dtc", &r.dtc)?;
        }
        st.end()
    }
}

/// `{"position", "value", "plies", "source", "moves": [...]}` as in
/// `docs/RULES.md`, with `"source"` `"table"` or `"search"`.
impl Serialize for Answer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Answer", 5)?;
        st.serialize_field("position", &self.position.to_string())?;
        st.serialize_field("value", self.value.name())?;
        st.serialize_field("plies", &self.value.plies())?;
        st.serialize_field("source", self.source.name())?;
        serialize_rule(&mut st, self.rule)?;
        if let Some(end) = self.result {
            st.serialize_field("result", &end)?;
        }
        st.serialize_field("moves", &self.moves)?;
        st.end()
    }
}

/// One move of a perfect-play line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineStep {
    /// The move played.
    pub mv: Move,
    /// The position after it.
    pub position: Position,
    /// The value for the side to move in the position before the move.
    pub value: Value,
    /// Under the no-removal rule ([`Database::line_at`]): the standing of
    /// the position before the move.
    pub rule: Option<RuleValue>,
}

/// A perfect-play line: the best move each time, the winner ending the game as
/// fast as it can and the loser delaying it as long as it can; for a draw, best
/// moves up to a bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The starting position.
    pub position: Position,
    /// Its value for the side to move.
    pub value: Value,
    /// The moves, in order.
    pub steps: Vec<LineStep>,
    /// Under the no-removal rule ([`Database::line_at`]): the standing of the
    /// starting position.
    pub rule: Option<RuleValue>,
    /// Why the line stops.
    pub end: LineEnd,
}

/// Why a line stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// The game is over: a side has lost, or under the rule the counter
    /// reached the move limit (a draw), or the game the line was asked of
    /// was over already.
    Over(GameResult),
    /// A drawn line reached the plies asked for.
    Bound,
}

impl fmt::Display for LineEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineEnd::Over(end) => write!(f, "{end}"),
            LineEnd::Bound => f.write_str("a draw: the line stops at the plies asked for"),
        }
    }
}

impl Database {
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
    let mut end = LineEnd::Bound;
    loop {
        let Some(best) = current.moves.first() else {
            // no move: the game is over
            if let Some(over) = current.result {
                end = LineEnd::Over(over);
            }
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
            end = LineEnd::Over(GameResult {
                winner: Some(best.position.side.other()),
                reason: Reason::Stones,
            });
            break;
        }
        if c >= limit {
            end = LineEnd::Over(GameResult {
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
        end,
    })
}

/// `{"move", "position", "value", "plies"}`, the value for the side to move
/// before the move; under the rule also its `"counter"`, `"category"` and
/// `"dtc"` there.
impl Serialize for LineStep {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("LineStep", 7)?;
        st.serialize_field("move", &self.mv.to_string())?;
        st.serialize_field("position", &self.position.to_string())?;
        st.serialize_field("value", self.value.name())?;
        st.serialize_field("plies", &self.value.plies())?;
        serialize_rule(&mut st, self.rule)?;
        st.end()
    }
}

/// `{"position", "value", "plies", "line": [...]}`, under the rule with the
/// starting position's `"counter"`, `"category"` and `"dtc"`.
impl Serialize for Line {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Line", 7)?;
        st.serialize_field("position", &self.position.to_string())?;
        st.serialize_field("value", self.value.name())?;
        st.serialize_field("plies", &self.value.plies())?;
        serialize_rule(&mut st, self.rule)?;
        st.serialize_field("line", &self.steps)?;
        if let LineEnd::Over(end) = self.end {
            st.serialize_field("result", &end)?;
        }
        st.end()
    }
}

/// `"counter"`, `"category"` and `"dtc"` of a standing under the rule, if any.
fn serialize_rule<S: SerializeStruct>(st: &mut S, rule: Option<RuleValue>) -> Result<(), S::Error> {
    if let Some(r) = rule {
        st.serialize_field("counter", &r.counter)?;
        st.serialize_field("category", r.category.name())?;
        st.serialize_field("dtc", &r.dtc)?;
    }
    Ok(())
}
