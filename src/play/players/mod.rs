//! Players: the game so far in, a move out, the same move for the same seed.
//!
//! - [`Level::Random`]: a uniformly random legal move.
//! - [`Level::Simple`], [`Level::Hard`], [`Level::Expert`]: the computer
//!   levels of the Russian rule text, alpha-beta searches ([`search`]) that
//!   read no database.
//! - [`Level::Perfect`]: from the database; never lowers the outcome of the
//!   game as played (under the no-removal rule at the game's counter where
//!   the database holds its tables), wins fastest, loses slowest, and picks at
//!   random among equal moves.
//! - [`Level::Ultra`]: as perfect, but where it cannot win it chooses, among
//!   the moves that keep its outcome, the one after which a fallible opponent
//!   is likeliest to go wrong ([`mistake_chance`]).
//!
//! Both read the [`Standing`] of every move (its category, no plies), and
//! plies only where they decide: of the winning moves for the fastest win
//! ([`Database::best_moves_to`]), of every move for the longest loss.

pub mod arena;
pub mod search;
pub mod series;

use crate::answer::answers::{Answer, Outcome, Standing};
use crate::answer::query::{Database, QueryError};
use crate::rules::game::Game;
use crate::rules::moves::{self, Move, counter_after};
use crate::rules::position::Position;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashSet;
use std::fmt;
use std::sync::Arc;

/// Why a player could not choose a move.
#[derive(Debug)]
pub enum PlayerError {
    /// The game is over: there is no move to choose.
    GameOver,
    /// The database could not answer.
    Query(QueryError),
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::GameOver => f.write_str("the game is over: no move to choose"),
            PlayerError::Query(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayerError::Query(e) => Some(e),
            PlayerError::GameOver => None,
        }
    }
}

impl From<QueryError> for PlayerError {
    fn from(e: QueryError) -> Self {
        PlayerError::Query(e)
    }
}

/// A player of games.
pub trait Player: Send {
    /// The level's name (`random`, `simple`, ...).
    fn name(&self) -> &'static str;
    /// The move to play in `game` (not over).
    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError>;
}

/// The levels of play; deserialised from their names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(try_from = "String")]
pub enum Level {
    /// A uniformly random legal move.
    Random,
    /// 2 plies, stones and mills.
    Simple,
    /// 6 plies, open twos and mobility.
    Hard,
    /// Up to 16 plies (6 while stones are in hand) within a node budget, by
    /// phase, aware of repetitions.
    Expert,
    /// The database's best move, at random among equals.
    Perfect,
    /// Perfect, choosing the moves that leave the opponent the most chances
    /// to go wrong.
    Ultra,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 6] = [
        Level::Random,
        Level::Simple,
        Level::Hard,
        Level::Expert,
        Level::Perfect,
        Level::Ultra,
    ];

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Simple => "simple",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Perfect => "perfect",
            Level::Ultra => "ultra",
        }
    }

    /// The level called `name`.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// A level by name, as the command line and the API take it; the error
/// names the levels there are.
impl std::str::FromStr for Level {
    type Err = String;

    fn from_str(name: &str) -> Result<Level, String> {
        Level::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
            format!(
                "{:?} is not a level: one of {}",
                crate::rules::position::excerpt(name),
                names.join(", ")
            )
        })
    }
}

impl TryFrom<String> for Level {
    type Error = String;

    fn try_from(name: String) -> Result<Level, String> {
        name.parse()
    }
}

impl Level {
    /// Whether the level reads the database.
    pub fn needs_database(self) -> bool {
        matches!(self, Level::Perfect | Level::Ultra)
    }

    /// A player of this level seeded with `seed`; `db` for the levels that
    /// need it (`None` there is an error naming the level).
    pub fn player(self, seed: u64, db: Option<Arc<Database>>) -> Result<Box<dyn Player>, String> {
        self.player_within(seed, db, None)
    }

    /// Whether the level searches the game tree (its cost a server must
    /// bound): `simple`, `hard` and `expert`.
    pub fn searches(self) -> bool {
        matches!(self, Level::Simple | Level::Hard | Level::Expert)
    }

    /// [`Level::player`], a searching level's nodes a move bounded by
    /// `node_budget` where given (the smaller of it and the level's own).
    pub fn player_within(
        self,
        seed: u64,
        db: Option<Arc<Database>>,
        node_budget: Option<u64>,
    ) -> Result<Box<dyn Player>, String> {
        let within = |mut c: search::Config| {
            if let Some(n) = node_budget {
                c.node_budget = match c.node_budget {
                    0 => n,
                    own => own.min(n),
                };
            }
            c
        };
        let rng = StdRng::seed_from_u64(seed);
        let db = || {
            let db = db.clone().ok_or_else(|| {
                format!(
                    "the {} player reads the database: give --db DIR (millbase generate builds one)",
                    self.name()
                )
            })?;
            // the indexer's tables now, not inside a move
            db.prepare();
            Ok::<_, String>(db)
        };
        Ok(match self {
            Level::Random => Box::new(RandomPlayer { rng }),
            Level::Simple => Box::new(Searching::new(self, within(search::Config::SIMPLE), rng)),
            Level::Hard => Box::new(Searching::new(self, within(search::Config::HARD), rng)),
            Level::Expert => Box::new(Searching::new(self, within(search::Config::EXPERT), rng)),
            Level::Perfect => Box::new(Perfect { db: db()?, rng }),
            Level::Ultra => Box::new(Ultra { db: db()?, rng }),
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of `list` at random; `list` is not empty.
fn pick<T: Copy>(rng: &mut StdRng, list: &[T]) -> T {
    list[rng.random_range(0..list.len())]
}

/// `random`.
struct RandomPlayer {
    rng: StdRng,
}

impl Player for RandomPlayer {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let list = game.legal_moves();
        if list.is_empty() {
            return Err(PlayerError::GameOver);
        }
        Ok(pick(&mut self.rng, &list))
    }
}

/// `simple`, `hard`, `expert`.
struct Searching {
    level: Level,
    config: search::Config,
    rng: StdRng,
}

impl Searching {
    fn new(level: Level, config: search::Config, rng: StdRng) -> Searching {
        Searching { level, config, rng }
    }
}

impl Player for Searching {
    fn name(&self) -> &'static str {
        self.level.name()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        if game.result().is_some() {
            return Err(PlayerError::GameOver);
        }
        let positions = game.positions();
        let seen: FxHashSet<Position> = positions[..positions.len() - 1].iter().copied().collect();
        let found = search::search(&game.position(), game.variant(), self.config, &seen);
        if found.best.is_empty() {
            return Err(PlayerError::GameOver);
        }
        Ok(pick(&mut self.rng, &found.best))
    }
}

/// The database's answer for the game's position
/// ([`Database::answer_game`], searching a placement sector the database
/// lacks).
pub fn answer_for(db: &Database, game: &Game) -> Result<Answer, QueryError> {
    db.answer_game(game, true)
}

/// The [`Standing`] of every move of the game's position, asked as
/// [`answer_for`] asks: its categories at a fraction of its probes.
pub fn standings_for(db: &Database, game: &Game) -> Result<Vec<Standing>, QueryError> {
    db.standings_game(game, true)
}

/// The best outcome among `standings` for the side to move (`None`: no move).
pub fn best_outcome(standings: &[Standing]) -> Option<Outcome> {
    standings.iter().map(Standing::outcome).min()
}

/// [`standings_for`] of a game that is not over, with at least one move;
/// [`PlayerError::GameOver`] otherwise.
fn standings_to_play(db: &Database, game: &Game) -> Result<Vec<Standing>, PlayerError> {
    if game.result().is_some() {
        return Err(PlayerError::GameOver);
    }
    let standings = standings_for(db, game)?;
    if standings.is_empty() {
        return Err(PlayerError::GameOver);
    }
    Ok(standings)
}

/// The moves of [`answer_for`] as good as its first (best) one, in its
/// order, from the game's `standings` ([`Database::best_moves_to`]: the
/// plies and distances of the best category's moves only).
fn best_moves(db: &Database, game: &Game, standings: &[Standing]) -> Result<Vec<Move>, QueryError> {
    let Some(ask) = db.game_ask(game, true) else {
        return Ok(vec![]);
    };
    let best = db.best_moves_to(&game.position(), ask, standings)?;
    Ok(best.iter().map(|m| m.mv).collect())
}

/// `perfect`.
struct Perfect {
    db: Arc<Database>,
    rng: StdRng,
}

impl Player for Perfect {
    fn name(&self) -> &'static str {
        "perfect"
    }

    /// The moves of the best rank; where that is a drawn category (a cursed
    /// win, a draw, a blessed loss), the categories alone decide, so the
    /// plies and distances that order wins and losses are read only where
    /// the best move wins or every move loses, and only of the moves of the
    /// best rank.
    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let standings = standings_to_play(&self.db, game)?;
        let top = standings.iter().map(Standing::rank).min().expect("a move");
        if best_outcome(&standings) == Some(Outcome::Draw) {
            let best: Vec<Move> = (standings.iter())
                .filter(|s| s.rank() == top)
                .map(|s| s.mv)
                .collect();
            return Ok(pick(&mut self.rng, &best));
        }
        Ok(pick(
            &mut self.rng,
            &best_moves(&self.db, game, &standings)?,
        ))
    }
}

/// `ultra`: where it can win, it wins as `perfect` does (fastest under the
/// rule). Where it cannot, it chooses among the moves that keep its outcome
/// (every drawing move in a draw, every move in a loss) the one that gives
/// the opponent the likeliest way to go wrong: after each such move, the
/// opponent's replies are weighed by how natural they look to a player who
/// searches two plies (`simple`'s evaluation of the position after each reply
/// and the answer to it, a softmax with a temperature of [`NATURAL_T`] score
/// points: a stone is 100), and the chance of a mistake is the weight of the
/// replies that lower the opponent's outcome. The highest chance wins; ties
/// go to the longer loss, then at random.
struct Ultra {
    db: Arc<Database>,
    rng: StdRng,
}

/// The temperature of `ultra`'s model of a fallible opponent, in
/// evaluation points (a stone is 100, a closed mill 30).
pub const NATURAL_T: f64 = 40.0;

impl Player for Ultra {
    fn name(&self) -> &'static str {
        "ultra"
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let standings = standings_to_play(&self.db, game)?;
        let mine = best_outcome(&standings).expect("a move");
        if mine == Outcome::Win {
            return Ok(pick(
                &mut self.rng,
                &best_moves(&self.db, game, &standings)?,
            ));
        }
        // the plies of a loss (longest first) come from the whole answer; a
        // draw needs none
        let answer = match mine {
            Outcome::Loss => Some(answer_for(&self.db, game)?),
            _ => None,
        };
        let length = |mv: Move| {
            let m = answer.as_ref()?.moves.iter().find(|m| m.mv == mv)?;
            m.value.plies().map(i32::from)
        };
        let mut scored: Vec<(f64, i32, Move)> = Vec::with_capacity(standings.len());
        for s in standings.iter().filter(|s| s.outcome() == mine) {
            let counter = counter_after(s.mv, game.counter());
            let chance = if counter >= game.move_limit() {
                0.0 // the game ends in a draw by the rule right after
            } else {
                let ask = (self.db).ask_in_game(counter, game.move_limit(), true);
                let replies = self.db.standings(&s.position, ask)?;
                mistake_chance(&s.position, &replies, game.variant())
            };
            // a longer loss first among equal chances (a win never comes here)
            scored.push((chance, length(s.mv).unwrap_or(0), s.mv));
        }
        let top = scored
            .iter()
            .map(|s| (s.0, s.1))
            .fold((f64::MIN, i32::MIN), |a, b| if b > a { b } else { a });
        let best: Vec<Move> = (scored.iter())
            .filter(|s| (s.0, s.1) == top)
            .map(|s| s.2)
            .collect();
        Ok(pick(&mut self.rng, &best))
    }
}

/// The chance that a player who searches two plies, choosing among the
/// `replies` of `pos` with a softmax of their scores, picks one that lowers
/// its outcome.
pub fn mistake_chance(
    pos: &Position,
    replies: &[Standing],
    variant: crate::rules::variant::Variant,
) -> f64 {
    let Some(best) = best_outcome(replies) else {
        return 0.0;
    };
    let scores: Vec<f64> = (replies.iter())
        .map(|r| f64::from(natural_score(pos, r.mv, variant)))
        .collect();
    let top = scores.iter().copied().fold(f64::MIN, f64::max);
    let (mut all, mut bad) = (0.0, 0.0);
    for (r, s) in replies.iter().zip(&scores) {
        let w = ((s - top) / NATURAL_T).exp();
        all += w;
        if r.outcome() > best {
            bad += w;
        }
    }
    if all > 0.0 { bad / all } else { 0.0 }
}

/// How good `mv` from `pos` looks to its mover after two plies: the
/// `simple` evaluation after the opponent's best answer.
fn natural_score(pos: &Position, mv: Move, variant: crate::rules::variant::Variant) -> i32 {
    let after = moves::apply(pos, mv);
    if after.mover_below_minimum() {
        return 1_000_000;
    }
    let answers = moves::legal_moves(&after, variant);
    if answers.is_empty() {
        return 1_000_000;
    }
    answers
        .iter()
        .map(|&a| {
            let next = moves::apply(&after, a);
            if next.mover_below_minimum() {
                return -1_000_000;
            }
            search::evaluate(&next, variant, search::Eval::Simple)
        })
        .min()
        .expect("not empty")
}
