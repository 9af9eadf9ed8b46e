//! A game: a start position, the moves played, the counter of plies since
//! the last removal and the positions seen, and its end by the rules of
//! docs/RULES.md ("Games"): checked after every move, in this order, fewer
//! than 3 stones (`stones`), no legal move (`blocked`), the same position for
//! the third time (`repetition`), the counter at the move limit
//! (`no-removal`).
//!
//! ```
//! use millbase::play::game::{Game, Reason};
//! use millbase::{Position, Variant};
//!
//! let mut game = Game::from_record(Position::initial(), Variant::default(), 0, "1. d1 a1 2. D2 a4").unwrap();
//! assert_eq!(game.counter(), 4);
//! assert_eq!(game.record(), "d1 a1 d2 a4");
//! assert!(game.result().is_none());
//! // d3 closes a mill: the move names the stone it removes, and the counter starts again
//! game.play("d3xa1".parse().unwrap()).unwrap();
//! assert_eq!(game.counter(), 0);
//! ```

use crate::rules::moves::{self, Move, parse_move, record_words};
use crate::rules::position::{Color, Position};
use crate::rules::variant::{DEFAULT_MOVE_LIMIT, Variant};
use rustc_hash::FxHashMap;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move has fewer than 3 stones on board plus in hand.
    Stones,
    /// The side to move has no legal move.
    Blocked,
    /// The position stands for the third time.
    Repetition,
    /// The counter reached the move limit without a removal.
    NoRemoval,
}

impl Reason {
    /// `stones`, `blocked`, `repetition` or `no-removal`.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Stones => "stones",
            Reason::Blocked => "blocked",
            Reason::Repetition => "repetition",
            Reason::NoRemoval => "no-removal",
        }
    }
}

/// How a game ended: the winner (`None`: a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The side that won, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.reason) {
            (Some(w), Reason::Stones) => write!(
                f,
                "{} has fewer than 3 stones: {} has won",
                w.other().name(),
                w.name()
            ),
            (Some(w), _) => write!(f, "{} cannot move: {} has won", w.other().name(), w.name()),
            (None, Reason::Repetition) => f.write_str("threefold repetition: a draw"),
            (None, _) => write!(f, "{DEFAULT_MOVE_LIMIT} plies without a removal: a draw"),
        }
    }
}

/// A move that could not be played in a game: its ply (from 1), the move as
/// written and why.
pub type GameError = moves::LineError;

/// A game in progress or over.
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    move_limit: u16,
    start: Position,
    start_counter: u16,
    moves: Vec<Move>,
    /// The position before each move, then the current one.
    positions: Vec<Position>,
    /// The counter at each position of `positions`.
    counters: Vec<u16>,
    /// How often each position has stood.
    seen: FxHashMap<Position, u8>,
    result: Option<GameResult>,
}

impl Game {
    /// A game from `start` with `counter` plies since the last removal
    /// (0 at the initial position), under the 100-ply no-removal rule.
    pub fn new(start: Position, variant: Variant, counter: u16) -> Game {
        Game::with_move_limit(start, variant, counter, DEFAULT_MOVE_LIMIT)
    }

    /// [`Game::new`] with another move limit of the no-removal rule.
    pub fn with_move_limit(
        start: Position,
        variant: Variant,
        counter: u16,
        move_limit: u16,
    ) -> Game {
        let mut g = Game {
            variant,
            move_limit,
            start,
            start_counter: counter,
            moves: vec![],
            positions: vec![start],
            counters: vec![counter],
            seen: FxHashMap::default(),
            result: None,
        };
        g.seen.insert(start, 1);
        g.result = g.ended();
        g
    }

    /// The game of `record` (docs/RULES.md "Games": moves separated by
    /// spaces or commas, move numbers skipped, upper case accepted) from
    /// `start`; fails at the first move that cannot be played, saying why.
    pub fn from_record(
        start: Position,
        variant: Variant,
        counter: u16,
        record: &str,
    ) -> Result<Game, GameError> {
        let mut g = Game::new(start, variant, counter);
        for word in record_words(record) {
            let number = g.moves.len() + 1;
            let fail = |reason: String| GameError {
                number,
                text: crate::rules::position::excerpt(word),
                reason,
            };
            let mv = parse_move(word).map_err(|e| fail(e.to_string()))?;
            g.play(mv).map_err(|e| fail(e.reason))?;
        }
        Ok(g)
    }

    /// `{"counter", "repetitions", "result"}`, as docs/RULES.md gives it: the
    /// result `{"winner", "reason"}`, `null` while the game goes on.
    pub fn json(&self) -> serde_json::Value {
        let result = self.result.map(|r| {
            serde_json::json!({
                "winner": r.winner.map(|c| c.json_name()),
                "reason": r.reason.name(),
            })
        });
        serde_json::json!({
            "counter": self.counter(),
            "repetitions": self.repetitions(),
            "result": result,
        })
    }

    /// Plays `mv`; an illegal move, or any move once the game is over, is an
    /// error saying why and changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        let fail = |reason: String| GameError {
            number: self.moves.len() + 1,
            text: mv.to_string(),
            reason,
        };
        if let Some(r) = self.result {
            return Err(fail(format!("the game is over ({r})")));
        }
        let pos = self.position();
        if let Some(reason) = moves::why_illegal(&pos, self.variant, mv) {
            return Err(fail(reason));
        }
        let after = moves::apply(&pos, mv);
        let counter = moves::counter_after(mv, self.counter());
        self.moves.push(mv);
        self.positions.push(after);
        self.counters.push(counter);
        *self.seen.entry(after).or_insert(0) += 1;
        self.result = self.ended();
        Ok(())
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        let gone = self.positions.pop().expect("one position per move");
        self.counters.pop();
        if let Some(n) = self.seen.get_mut(&gone) {
            *n -= 1;
            if *n == 0 {
                self.seen.remove(&gone);
            }
        }
        self.result = self.ended();
        Some(mv)
    }

    /// How the game stands: ended or not, by the checks of docs/RULES.md in
    /// their order.
    fn ended(&self) -> Option<GameResult> {
        let pos = self.position();
        let lost = |reason| {
            Some(GameResult {
                winner: Some(pos.side.other()),
                reason,
            })
        };
        if pos.mover_below_minimum() {
            return lost(Reason::Stones);
        }
        if !moves::has_legal_move(&pos, self.variant) {
            return lost(Reason::Blocked);
        }
        let draw = |reason| {
            Some(GameResult {
                winner: None,
                reason,
            })
        };
        if self.repetitions() >= 3 {
            return draw(Reason::Repetition);
        }
        if self.counter() >= self.move_limit {
            return draw(Reason::NoRemoval);
        }
        None
    }

    /// The position now.
    pub fn position(&self) -> Position {
        *self.positions.last().expect("the start at least")
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The counter at the start.
    pub fn start_counter(&self) -> u16 {
        self.start_counter
    }

    /// Plies since the last removal (placements count).
    pub fn counter(&self) -> u16 {
        *self.counters.last().expect("the start at least")
    }

    /// The move limit of the no-removal rule (100).
    pub fn move_limit(&self) -> u16 {
        self.move_limit
    }

    /// The rule variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before each move, then the current one.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The counter at each of [`Game::positions`].
    pub fn counters(&self) -> &[u16] {
        &self.counters
    }

    /// How often the current position has stood in this game (1 the first
    /// time).
    pub fn repetitions(&self) -> u8 {
        self.times_seen(&self.position())
    }

    /// How often `pos` has stood in this game.
    pub fn times_seen(&self, pos: &Position) -> u8 {
        self.seen.get(pos).copied().unwrap_or(0)
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.result.is_some() {
            return vec![];
        }
        moves::legal_moves(&self.position(), self.variant)
    }

    /// The moves as a record: `d1 a1 d2 ...`.
    pub fn record(&self) -> String {
        let words: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        words.join(" ")
    }

    /// The moves numbered as players number them: `1. d1 a1 2. d2 ...`
    /// (a game whose start has Black to move begins `1... a1`).
    pub fn numbered_record(&self) -> String {
        let mut out = String::new();
        let black_first = self.start.side == Color::Black;
        for (i, mv) in self.moves.iter().enumerate() {
            let ply = i + usize::from(black_first);
            if !out.is_empty() {
                out.push(' ');
            }
            if ply % 2 == 0 {
                out.push_str(&format!("{}. ", ply / 2 + 1));
            } else if i == 0 {
                out.push_str(&format!("{}... ", ply / 2 + 1));
            }
            out.push_str(&mv.to_string());
        }
        out
    }
}
