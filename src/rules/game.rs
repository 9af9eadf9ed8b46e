//! A game: a start position, the moves played, the counter of plies since
//! the last removal and the positions seen, and its end by the rules of
//! docs/RULES.md ("Games"): checked after every move, in this order, fewer
//! than 3 stones (`stones`), no legal move (`blocked`), the same position for
//! the third time (`repetition`), the counter at the move limit
//! (`no-removal`).
//!
//! ```
//! use millbase::rules::game::{Game, Reason};
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

use crate::rules::moves::{self, Ending, Move, parse_move, record_words};
use crate::rules::position::{Color, Position};
use crate::rules::variant::{DEFAULT_MOVE_LIMIT, Variant};
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
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

/// How a game ended: the winner (`None`: a draw) and why. Its JSON is
/// `{"winner": "white"|"black"|null, "reason": REASON}` (docs/RULES.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct GameResult {
    /// The side that won, or `None` for a draw.
    #[serde(serialize_with = "color_json")]
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
            (None, _) => f.write_str("no removal within the move limit: a draw"),
        }
    }
}

impl From<Ending> for GameResult {
    fn from(end: Ending) -> GameResult {
        GameResult {
            winner: Some(end.winner()),
            reason: match end {
                Ending::TooFewStones { .. } => Reason::Stones,
                Ending::Blocked { .. } => Reason::Blocked,
            },
        }
    }
}

/// A colour as the JSON answers name it: `"white"`, `"black"` or `null`.
fn color_json<S: serde::Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    c.map(Color::json_name).serialize(s)
}

/// A move that could not be played in a game: its ply (from 1), the move as
/// written and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// Its number in the game, from 1.
    pub number: usize,
    /// The move as written.
    pub text: String,
    /// Why it could not be played.
    pub reason: String,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ({:?}): {}", self.number, self.text, self.reason)
    }
}

impl std::error::Error for GameError {}

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
        g.play_record(record)?;
        Ok(g)
    }

    /// Plays the moves of `record` ([`Game::from_record`]'s notation); fails
    /// at the first move that cannot be played (one after the game is over
    /// included), saying why, with the moves before it played.
    pub fn play_record(&mut self, record: &str) -> Result<(), GameError> {
        for word in record_words(record) {
            let number = self.moves.len() + 1;
            let fail = |reason: String| GameError {
                number,
                text: crate::rules::position::excerpt(word),
                reason,
            };
            let mv = parse_move(word).map_err(|e| fail(e.to_string()))?;
            self.play(mv).map_err(|e| fail(e.reason))?;
        }
        Ok(())
    }

    /// `{"counter", "repetitions", "result"}`, as docs/RULES.md gives it: the
    /// result `{"winner", "reason"}`, `null` while the game goes on.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "counter": self.counter(),
            "repetitions": self.repetitions(),
            "result": self.result,
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

    /// The number of the move about to be played, as players number moves
    /// (in pairs, White's first): 1 at the start of a game from the
    /// initial position, 2 after White's and Black's first moves.
    pub fn move_number(&self) -> usize {
        let black_first = usize::from(self.start.side == Color::Black);
        (self.moves.len() + black_first) / 2 + 1
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reports_its_first_illegal_move() {
        let start = Position::initial();
        let v = Variant::default();
        let g = Game::from_record(start, v, 0, " d1, a1  d2 ").unwrap();
        assert_eq!(g.position().to_string(), "BW..W................... b 7 8");
        let e = Game::from_record(start, v, 0, "d1 a1 d1 a4").unwrap_err();
        assert_eq!((e.number, e.text.as_str()), (3, "d1"));
        assert_eq!(e.reason, "d1 is not empty");
        let e = Game::from_record(start, v, 0, "d1 x9").unwrap_err();
        assert_eq!(e.number, 2);
    }

    #[test]
    fn no_move_is_played_after_the_game_is_over() {
        // 3 against 3 with flying: the counter at 98, two quiet moves end it
        let start: Position = "W.W.....B.......W....B.B w 0 0".parse().unwrap();
        let mut g = Game::new(start, Variant::default(), 98);
        g.play_record("d5-e5 g7-f6").unwrap();
        let r = g.result().expect("the counter reached 100");
        assert_eq!(r.reason, Reason::NoRemoval);
        assert!(g.legal_moves().is_empty());
        let e = g.play_record("e5-d5").unwrap_err();
        assert_eq!(e.number, 3);
        assert!(e.reason.contains("the game is over"), "{}", e.reason);
        assert_eq!(g.moves().len(), 2, "the refused move changed the game");
    }
}
