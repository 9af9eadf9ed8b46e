//! A series of arena games (`millbase arena`): which level plays which
//! colour in each game, each game's seeds, the record file that keeps the
//! finished games so that an interrupted run goes on where it stopped, and
//! the series' summary. Games are numbered from 1, in the record, the JSON
//! lines and every message alike.

use super::Level;
use super::arena::{GameRecord, PlayedGame, PlayerSummary, Tally};
use crate::rules::game::Reason;
use crate::rules::position::Color;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The levels of a series and how its games are seeded.
#[derive(Clone, Copy, Debug)]
pub struct Series {
    /// White's level (Black's in every second game with `swap`).
    pub white: Level,
    /// Black's level.
    pub black: Level,
    /// Whether every second game is played with the colours exchanged.
    pub swap: bool,
    /// The run's seed: the same seed plays the same games.
    pub seed: u64,
}

impl Series {
    /// (White, Black) of game `number` (from 1): the levels as given, or
    /// exchanged in the even-numbered games with `swap`.
    pub fn colours(&self, number: usize) -> (Level, Level) {
        if self.swap && number.is_multiple_of(2) {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }

    /// The seeds of White's and Black's choices in game `number`: unrelated
    /// for distinct games (SplitMix64 of the run's seed, the game and the
    /// side).
    pub fn seeds(&self, number: usize) -> (u64, u64) {
        let of = |side: u64| {
            let i = number.saturating_sub(1) as u64;
            let mut z = (self.seed)
                .wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .wrapping_add(side.wrapping_mul(0xD1B5_4A32_D192_ED03));
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        (of(0), of(1))
    }
}

/// The first line of a record file: what decides its games (all but their
/// number). A run resumes a file only with the same.
#[derive(Clone, Serialize, Deserialize, PartialEq, Eq, Debug)]
pub struct RunKey {
    /// White's level.
    pub white: String,
    /// Black's level.
    pub black: String,
    /// Colours exchanged every second game.
    pub swap: bool,
    /// The run's seed.
    pub seed: u64,
    /// The start of every game.
    pub position: String,
    /// The games' move limit.
    pub move_limit: u16,
    /// The rule variant.
    pub variant: String,
    /// Whether every move is judged by a database.
    pub judged: bool,
    /// The number of the first game: 1 (records that number games from 0
    /// lack it, and are refused).
    pub first_game: usize,
}

#[derive(Serialize, Deserialize)]
struct RecordHeader<K> {
    arena: K,
}

/// Why a record file cannot be used.
#[derive(Debug)]
pub enum RecordError {
    /// The file is not a record of this run: another file is needed.
    Foreign(String),
    /// It cannot be read or written.
    Io(String),
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::Foreign(m) | RecordError::Io(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RecordError {}

/// A record file open for appending the games a run finishes.
pub struct RecordFile {
    file: std::fs::File,
    path: PathBuf,
}

impl RecordFile {
    /// Opens `path` as the record of the run `key`, made with its header
    /// where missing or empty: the games it keeps, in the file's order. A
    /// last line cut short by a killed run is dropped from the file, once
    /// its first line shows the file is this run's record.
    pub fn open(path: &Path, key: &RunKey) -> Result<(RecordFile, Vec<GameRecord>), RecordError> {
        let kept = read_record(path, key)?;
        let fresh = kept.is_empty() && std::fs::metadata(path).map_or(true, |m| m.len() == 0);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| RecordError::Foreign(format!("cannot open {}: {e}", path.display())))?;
        let mut record = RecordFile {
            file,
            path: path.to_path_buf(),
        };
        if fresh {
            record.append_line(&RecordHeader { arena: key })?;
        }
        Ok((record, kept))
    }

    /// Appends a finished game, in one write.
    pub fn append(&mut self, game: &GameRecord) -> Result<(), RecordError> {
        self.append_line(game)
    }

    fn append_line(&mut self, line: &impl Serialize) -> Result<(), RecordError> {
        let mut text = serde_json::to_vec(line).expect("records serialize");
        text.push(b'\n');
        self.file.write_all(&text).map_err(|e| {
            RecordError::Io(format!(
                "cannot write {}: {e}; the games kept so far stay there",
                self.path.display()
            ))
        })
    }
}

/// The games of `path` for the run `key` (none when the file is missing or
/// empty), its unfinished last line cut.
fn read_record(path: &Path, key: &RunKey) -> Result<Vec<GameRecord>, RecordError> {
    let name = path.display();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(RecordError::Io(format!("cannot read {name}: {e}"))),
    };
    let foreign = |why: String| {
        RecordError::Foreign(format!(
            "{name} is not an arena record of this millbase ({why}): give another --record file"
        ))
    };
    let header_line = serde_json::to_vec(&RecordHeader { arena: key }).expect("serializes");
    let whole = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(n) => n + 1,
        // no line ended: a header cut short by a killed run, or another file
        None if header_line.starts_with(&bytes) => 0,
        None => return Err(foreign("no line ends".to_string())),
    };
    let text = std::str::from_utf8(&bytes[..whole]).map_err(|_| foreign("not UTF-8".into()))?;
    let mut lines = text.lines();
    if let Some(first) = lines.next() {
        let header: RecordHeader<RunKey> =
            serde_json::from_str(first).map_err(|e| foreign(e.to_string()))?;
        if &header.arena != key {
            return Err(RecordError::Foreign(format!(
                "{name} records another run ({}); this one is {}: give another --record file, or the same arguments",
                serde_json::to_string(&header.arena).unwrap_or_default(),
                serde_json::to_string(key).unwrap_or_default(),
            )));
        }
    }
    if whole < bytes.len() {
        let f = std::fs::OpenOptions::new().write(true).open(path);
        f.and_then(|f| f.set_len(whole as u64)).map_err(|e| {
            RecordError::Io(format!(
                "cannot cut the unfinished last line of {name}: {e}"
            ))
        })?;
    }
    lines
        .enumerate()
        .map(|(n, line)| {
            let game: GameRecord = serde_json::from_str(line).map_err(|e| {
                RecordError::Io(format!(
                    "{name} line {}: {e}; remove the line and its game is played again",
                    n + 2
                ))
            })?;
            if game.game == 0 {
                return Err(foreign(format!("line {}: a game numbered 0", n + 2)));
            }
            Ok(game)
        })
        .collect()
}

/// The results of a series as its games come in: each level's tally and
/// how the games ended.
#[derive(Clone, Debug, Default)]
pub struct SeriesTally {
    games: usize,
    players: BTreeMap<&'static str, Tally>,
    endings: BTreeMap<&'static str, u64>,
}

/// A series' summary: `{"games", "endings": {REASON: N}, "summary": {LEVEL:
/// PlayerSummary}}`, the JSON line that ends `arena --json`.
#[derive(Clone, Debug, Serialize)]
pub struct SeriesSummary {
    /// Games counted.
    pub games: usize,
    /// How many ended each way: `stones`, `blocked`, `repetition`,
    /// `no-removal` (every reason, 0 included).
    pub endings: BTreeMap<&'static str, u64>,
    /// Each level's results.
    #[serde(rename = "summary")]
    pub players: BTreeMap<&'static str, PlayerSummary>,
}

impl SeriesTally {
    /// Counts a finished game `played` by `white` and `black`.
    pub fn add(&mut self, (white, black): (Level, Level), played: &PlayedGame) {
        self.games += 1;
        let result = played.game.result().expect("played to the end");
        *self.endings.entry(result.reason.name()).or_default() += 1;
        (self.players.entry(white.name()).or_default()).add(played, Color::White);
        (self.players.entry(black.name()).or_default()).add(played, Color::Black);
    }

    /// The summary of the games counted.
    pub fn summary(&self) -> SeriesSummary {
        let mut endings: BTreeMap<&'static str, u64> = [
            Reason::Stones,
            Reason::Blocked,
            Reason::Repetition,
            Reason::NoRemoval,
        ]
        .map(|r| (r.name(), 0))
        .into();
        for (k, n) in &self.endings {
            endings.insert(k, *n);
        }
        SeriesSummary {
            games: self.games,
            endings,
            players: (self.players.iter())
                .map(|(k, t)| (*k, t.summary()))
                .collect(),
        }
    }
}
