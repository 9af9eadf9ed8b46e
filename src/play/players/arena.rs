//! Games between players ([`play_game`]) and what a series of them shows
//! ([`Tally`], [`PlayerSummary`]): wins, draws and losses with a 95% interval, the time per
//! move, and, with a database, each player's mistakes by phase.
//!
//! A move is judged from its mover's side by the database, under the
//! no-removal rule at the game's counter where the database holds its
//! tables: it keeps the outcome, or it is a mistake (win to draw, draw to
//! loss) or a blunder (win to loss).

use super::{Level, PlayerError, best_outcome, standings_for};
use crate::answer::answers::Outcome;
use crate::answer::query::Database;
use crate::rules::game::{Game, GameResult};
use crate::rules::moves;
use crate::rules::position::{Color, Position};
use crate::rules::variant::Variant;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// The phase a move is made in, for its mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The mover has stones in hand.
    Placement,
    /// The mover slides.
    Movement,
    /// The mover has 3 stones and may fly.
    Flying,
}

impl Phase {
    /// The phase of a move of `pos`'s side to move.
    pub fn of(pos: &Position, variant: Variant) -> Phase {
        if pos.mover_hand > 0 {
            Phase::Placement
        } else if moves::can_fly(pos, variant) {
            Phase::Flying
        } else {
            Phase::Movement
        }
    }
}

/// How a move changed its mover's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// The outcome kept.
    Keeps,
    /// Win to draw, or draw to loss.
    Mistake,
    /// Win to loss.
    Blunder,
}

impl Judgement {
    /// The judgement of a move from `before` to `after` (the mover's
    /// outcomes).
    pub fn of(before: Outcome, after: Outcome) -> Judgement {
        match (before, after) {
            (Outcome::Win, Outcome::Loss) => Judgement::Blunder,
            (b, a) if a > b => Judgement::Mistake,
            _ => Judgement::Keeps,
        }
    }
}

/// One move of a played game.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    /// The side that made it.
    pub side: Color,
    /// Its phase.
    pub phase: Phase,
    /// Milliseconds the player took to choose it.
    pub ms: f64,
    /// Its judgement by the database, if one was given.
    pub judgement: Option<Judgement>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game, over.
    pub game: Game,
    /// Its moves, judged.
    pub moves: Vec<PlayedMove>,
}

/// Why a game could not be played to its end.
#[derive(Debug)]
pub struct ArenaError(pub String);

impl std::fmt::Display for ArenaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArenaError {}

impl From<PlayerError> for ArenaError {
    fn from(e: PlayerError) -> Self {
        ArenaError(e.to_string())
    }
}

/// Plays one game from `start` (counter 0) between `white` and `black`
/// seeded by `seeds`, judging every move when `db` is given.
pub fn play_game(
    start: Position,
    variant: Variant,
    move_limit: u16,
    (white, black): (Level, Level),
    seeds: (u64, u64),
    db: Option<&Arc<Database>>,
) -> Result<PlayedGame, ArenaError> {
    let mut players = [
        white.player(seeds.0, db.cloned()).map_err(ArenaError)?,
        black.player(seeds.1, db.cloned()).map_err(ArenaError)?,
    ];
    let mut game = Game::with_move_limit(start, variant, 0, move_limit);
    let mut moves = vec![];
    while game.result().is_none() {
        let pos = game.position();
        let side = pos.side;
        let player = &mut players[usize::from(side == Color::Black)];
        let t = Instant::now();
        let mv = player.choose(&game)?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let judgement = match db {
            Some(db) => {
                let standings = standings_for(db, &game).map_err(|e| ArenaError(e.to_string()))?;
                let played = (standings.iter())
                    .find(|s| s.mv == mv)
                    .ok_or_else(|| ArenaError(format!("{mv} is not a move of {pos}")))?;
                best_outcome(&standings).map(|b| Judgement::of(b, played.outcome()))
            }
            None => None,
        };
        game.play(mv)
            .map_err(|e| ArenaError(format!("{} played an illegal move: {e}", player.name())))?;
        moves.push(PlayedMove {
            side,
            phase: Phase::of(&pos, variant),
            ms,
            judgement,
        });
    }
    Ok(PlayedGame { game, moves })
}

/// A finished game as `arena --record` keeps it, one JSON line: enough to
/// count it again in a resumed run without playing it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in its run.
    pub game: usize,
    /// White's level.
    pub white: String,
    /// Black's level.
    pub black: String,
    /// The moves, as `Game::record` writes them.
    pub moves: String,
    /// The milliseconds each move took.
    pub ms: Vec<f64>,
    /// Each move's judgement: `k` keeps, `m` mistake, `b` blunder, `-` not
    /// judged.
    pub judged: String,
}

impl PlayedGame {
    /// The record of game `game` of a run, `white` against `black`.
    pub fn record(&self, game: usize, (white, black): (Level, Level)) -> GameRecord {
        GameRecord {
            game,
            white: white.name().to_string(),
            black: black.name().to_string(),
            moves: self.game.record(),
            ms: self.moves.iter().map(|m| m.ms).collect(),
            judged: (self.moves.iter())
                .map(|m| match m.judgement {
                    Some(Judgement::Keeps) => 'k',
                    Some(Judgement::Mistake) => 'm',
                    Some(Judgement::Blunder) => 'b',
                    None => '-',
                })
                .collect(),
        }
    }

    /// The game of `record` played again from `start` (counter 0) under
    /// `variant` and `move_limit`: it must end where the record does.
    pub fn from_record(
        record: &GameRecord,
        start: Position,
        variant: Variant,
        move_limit: u16,
    ) -> Result<PlayedGame, ArenaError> {
        let bad = |why: String| ArenaError(format!("game {}: {why}", record.game));
        let mut game = Game::with_move_limit(start, variant, 0, move_limit);
        game.play_record(&record.moves)
            .map_err(|e| bad(e.to_string()))?;
        let n = game.moves().len();
        if record.ms.len() != n || record.judged.chars().count() != n {
            return Err(bad(format!(
                "{n} moves but {} times and {} judgements",
                record.ms.len(),
                record.judged.chars().count()
            )));
        }
        let mut moves = Vec::with_capacity(n);
        for ((pos, &ms), j) in game
            .positions()
            .iter()
            .zip(&record.ms)
            .zip(record.judged.chars())
        {
            let judgement = match j {
                'k' => Some(Judgement::Keeps),
                'm' => Some(Judgement::Mistake),
                'b' => Some(Judgement::Blunder),
                '-' => None,
                c => return Err(bad(format!("judgement {c:?} is none of k, m, b, -"))),
            };
            moves.push(PlayedMove {
                side: pos.side,
                phase: Phase::of(pos, variant),
                ms,
                judgement,
            });
        }
        if game.result().is_none() {
            return Err(bad("the game is not over after its moves".to_string()));
        }
        Ok(PlayedGame { game, moves })
    }
}

/// `"white"`, `"black"` or `"draw"`.
pub fn result_name(r: GameResult) -> &'static str {
    match r.winner {
        Some(Color::White) => "white",
        Some(Color::Black) => "black",
        None => "draw",
    }
}

/// One player's results over a series.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games won, drawn, lost.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Games won, drawn and lost as White, and as Black.
    pub by_colour: [Results; 2],
    /// Milliseconds of each move.
    pub ms: Vec<f64>,
    /// Moves made, and mistakes and blunders among them, by phase.
    pub moves_by_phase: BTreeMap<Phase, (u64, u64)>,
}

/// The summary line of one player.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerSummary {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Points per game (a draw half a point).
    pub score: f64,
    /// The 95% interval of the score: the Wilson score interval, a draw
    /// counted as half a win (wider than it needs to be where games are
    /// drawn); 4 wins of 4 give 0.510 to 1.
    pub ci95: [f64; 2],
    /// The games played as White.
    pub as_white: Results,
    /// The games played as Black.
    pub as_black: Results,
    /// Milliseconds per move: median and largest.
    pub ms_per_move: MsPerMove,
    /// Mistakes and blunders per 100 moves, by phase (with a database).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mistakes_per_100: Option<BTreeMap<Phase, f64>>,
}

/// Games won, drawn and lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Results {
    /// Won.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
}

/// The Wilson score interval at 95% of a proportion `p` seen in `n` trials.
pub fn wilson95(p: f64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (z, n) = (1.96_f64, n as f64);
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z / (1.0 + z2n) * (p * (1.0 - p) / n + z2n / (4.0 * n)).max(0.0).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Median and largest time per move.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct MsPerMove {
    /// The median, in milliseconds.
    pub median: f64,
    /// The largest.
    pub max: f64,
}

impl Tally {
    /// Counts `played` for the player of `side`.
    pub fn add(&mut self, played: &PlayedGame, side: Color) {
        let colour = &mut self.by_colour[usize::from(side == Color::Black)];
        match played.game.result().and_then(|r| r.winner) {
            Some(w) if w == side => (self.wins += 1, colour.wins += 1),
            Some(_) => (self.losses += 1, colour.losses += 1),
            None => (self.draws += 1, colour.draws += 1),
        };
        for m in played.moves.iter().filter(|m| m.side == side) {
            self.ms.push(m.ms);
            if let Some(j) = m.judgement {
                let e = self.moves_by_phase.entry(m.phase).or_default();
                e.0 += 1;
                e.1 += u64::from(j != Judgement::Keeps);
            }
        }
    }

    /// The summary of the games counted.
    pub fn summary(&self) -> PlayerSummary {
        let games = self.wins + self.draws + self.losses;
        let score = (self.wins as f64 + 0.5 * self.draws as f64) / games.max(1) as f64;
        let [low, high] = wilson95(score, games);
        let round = |x: f64| (x * 1e4).round() / 1e4;
        let mut ms = self.ms.clone();
        ms.sort_by(f64::total_cmp);
        let median = ms.get(ms.len() / 2).copied().unwrap_or(0.0);
        let max = ms.last().copied().unwrap_or(0.0);
        PlayerSummary {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            score: round(score),
            ci95: [round(low), round(high)],
            as_white: self.by_colour[0],
            as_black: self.by_colour[1],
            ms_per_move: MsPerMove {
                median: (median * 100.0).round() / 100.0,
                max: (max * 100.0).round() / 100.0,
            },
            mistakes_per_100: (!self.moves_by_phase.is_empty()).then(|| {
                (self.moves_by_phase.iter())
                    .map(|(&p, &(moves, bad))| (p, round(100.0 * bad as f64 / moves as f64)))
                    .collect()
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::wilson95;

    /// The Wilson interval against values computed by hand from its
    /// formula, and its bounds: inside [0, 1], around the proportion.
    #[test]
    fn the_wilson_interval() {
        // 4 of 4: centre (1 + 1.96²/8) / (1 + 1.96²/4), half-width
        // 1.96 / (1 + 0.9604) * sqrt(0.9604 / 16)
        let [lo, hi] = wilson95(1.0, 4);
        let z2n = 1.96f64 * 1.96 / 4.0;
        let centre = (1.0 + z2n / 2.0) / (1.0 + z2n);
        let half = 1.96 / (1.0 + z2n) * (z2n / 16.0).sqrt();
        assert!((lo - (centre - half)).abs() < 1e-12, "{lo}");
        assert!((hi - 1.0).abs() < 1e-12, "{hi}");
        assert!(
            (0.50..0.52).contains(&lo),
            "4 of 4 is not 1.000 to 1.000: {lo}"
        );
        // no games: nothing known
        assert_eq!(wilson95(0.0, 0), [0.0, 1.0]);
        for n in [1u64, 3, 10, 100, 1000] {
            for k in 0..=n.min(20) {
                let p = k as f64 / n as f64;
                let [lo, hi] = wilson95(p, n);
                assert!(
                    0.0 <= lo && lo <= p && p <= hi && hi <= 1.0,
                    "{k}/{n}: {lo} {hi}"
                );
            }
        }
        // narrower with more games at the same proportion
        let w = |n| {
            let [lo, hi] = wilson95(0.5, n);
            hi - lo
        };
        assert!(w(1000) < w(100) && w(100) < w(10));
    }
}
