//! The one policy of every front end: how a position or a game is asked of
//! a database ([`Ask`], [`Database::game_ask`]), under the no-removal rule
//! at the game's counter where the database holds its tables, else by the
//! plain values, a missing placement sector searched where allowed; and the
//! answers and best moves under it.
//!
//! The layers read upward: probe ([`crate::answer::query`]) ← win/draw/loss maps
//! ([`crate::answer::wdl`]) ← placement search ([`crate::answer::opening`]) ←
//! answers ([`crate::answer::answers`]) ← this policy ← lines
//! ([`crate::answer::line`]).

use crate::answer::answers::{
    Answer, EvaluatedMove, RuleValue, Source, Standing, best_of, evaluate_moves, rule_order,
};
use crate::answer::opening::{OpeningSearch, Precision};
use crate::answer::query::{Database, QueryError};
use crate::rules::game::{Game, GameResult};
use crate::rules::moves::{self, Move, counter_after};
use crate::rules::position::Position;
use crate::rules::variant::DEFAULT_MOVE_LIMIT;
use crate::solve::counter::Category;
use crate::solve::value::Value;

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
            rules: self.variant().rules_id(),
            rule: (ask.counter).filter(|_| lost).map(|counter| RuleValue {
                counter,
                category: Category::Loss,
                dtc: Some(0),
            }),
            result: Some(result),
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
            rules: self.variant().rules_id(),
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
    /// good as its first by [`preference`](crate::answer::answers::preference)), in that answer's order, from
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
            rules: variant.rules_id(),
            rule: None,
            result: moves::ending(pos, variant).map(GameResult::from),
        })
    }
}

/// Whether the win or loss `v` (with its true plies) ends the game within
/// `room` plies.
fn ends_within(v: Value, room: u16) -> bool {
    v.plies().is_some_and(|p| p <= room)
}
