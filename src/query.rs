//! Perfect-play queries against a database directory: the value of a position and
//! of every move from it.
//!
//! ```
//! use millbase::generate::{generate, Limits, Silent};
//! use millbase::index::Indexer;
//! use millbase::query::Database;
//! use millbase::{Rules, Value};
//!
//! // A tiny database: the 3-against-3 endgame.
//! let dir = std::env::temp_dir().join(format!("millbase-doc-{}", std::process::id()));
//! let limits = Limits { max_stones: 3, max_total: 6 };
//! generate(&dir, Rules::default(), limits, &Indexer::new(), &Silent).unwrap();
//!
//! let db = Database::open(&dir).unwrap();
//! // White (a1 d1 d6) flies d6-g1 and closes a mill: Black falls to 2 stones.
//! let pos = "WW.....BB..........W.B.. w 0 0".parse().unwrap();
//! assert_eq!(db.probe(&pos).unwrap(), Value::Win(1));
//! let answer = db.answer(&pos).unwrap();
//! assert_eq!(answer.moves[0].value, Value::Loss(0));
//! assert!(answer.moves[0].mv.to_string().starts_with("d6-g1x"));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::generate::open_table;
use crate::index::{Index, Indexer, Subspace};
use crate::moves::{self, Move, Rules};
use crate::opening::{OpeningSearch, Precision};
use crate::position::Position;
use crate::storage::{self, StorageError, Table};
use crate::value::{Cell, Value};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Why a query could not be answered.
#[derive(Debug)]
pub enum QueryError {
    /// A database file or directory fault.
    Storage(StorageError),
    /// The position is in the placement phase, which this database does not hold.
    PlacementPhase(Position),
    /// A slot that should hold a value holds none.
    NoValue {
        /// The file.
        path: PathBuf,
        /// The index.
        index: u64,
    },
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Storage(e) => e.fmt(f),
            QueryError::PlacementPhase(p) => write!(
                f,
                "{p}: a placement-phase position (stones in hand) has no table entry; it is solved by search (Database::answer, OpeningSearch)"
            ),
            QueryError::NoValue { path, index } => {
                write!(
                    f,
                    "{}: entry {index} holds no value (damaged file?)",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for QueryError {}

impl From<StorageError> for QueryError {
    fn from(e: StorageError) -> Self {
        QueryError::Storage(e)
    }
}

/// A legal move with the value of the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluatedMove {
    /// The move.
    pub mv: Move,
    /// The position after it.
    pub position: Position,
    /// Its value for the side to move there.
    pub value: Value,
}

/// Every legal move of `pos` with the value `eval` gives the position after it,
/// best first (fastest win, then draws, then slowest loss).
pub(crate) fn evaluate_moves(
    pos: &Position,
    rules: Rules,
    mut eval: impl FnMut(&Position) -> Result<Value, QueryError>,
) -> Result<Vec<EvaluatedMove>, QueryError> {
    let mut out = moves::legal_moves(pos, rules)
        .into_iter()
        .map(|mv| {
            let after = moves::apply(pos, mv);
            Ok(EvaluatedMove {
                mv,
                position: after,
                value: eval(&after)?,
            })
        })
        .collect::<Result<Vec<_>, QueryError>>()?;
    out.sort_by(|a, b| a.value.cmp_as_child(b.value));
    Ok(out)
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
}

/// The error for index `index` of `table` holding no value.
fn no_value(table: &Table, index: Index) -> QueryError {
    QueryError::NoValue {
        path: table.path().to_path_buf(),
        index,
    }
}

/// Decoded blocks kept (8 KiB each: at most 128 MiB).
const CACHE_BLOCKS: usize = 16384;

/// Decoded blocks by (subspace, block number).
type BlockCache = HashMap<(Subspace, u64), Arc<Vec<Cell>>>;

/// An open database: files are opened on first use, decoded blocks cached.
pub struct Database {
    dir: PathBuf,
    rules: Rules,
    ix: Indexer,
    tables: Mutex<HashMap<Subspace, Arc<Table>>>,
    cache: Mutex<BlockCache>,
}

impl Database {
    /// Opens the database in `dir`, reading its rule variant from the manifest.
    pub fn open(dir: &Path) -> Result<Database, QueryError> {
        let rules = storage::dir_rules(dir)?;
        Ok(Database {
            dir: dir.to_path_buf(),
            rules,
            ix: Indexer::new(),
            tables: Mutex::new(HashMap::new()),
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The rule variant of the database.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The open table of `sub`, opening its file on first use.
    pub(crate) fn table(&self, sub: Subspace) -> Result<Arc<Table>, QueryError> {
        let mut tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(t) = tables.get(&sub) {
            return Ok(t.clone());
        }
        let t = Arc::new(open_table(&self.dir, self.rules, sub)?);
        tables.insert(sub, t.clone());
        Ok(t)
    }

    fn block(&self, sub: Subspace, table: &Table, b: u64) -> Result<Arc<Vec<Cell>>, QueryError> {
        if let Some(c) = self
            .cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&(sub, b))
        {
            return Ok(c.clone());
        }
        let codes = Arc::new(table.block(b as usize)?);
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= CACHE_BLOCKS {
            // evict one entry: the hash order makes it an arbitrary one
            if let Some(&k) = cache.keys().next() {
                cache.remove(&k);
            }
        }
        cache.insert((sub, b), codes.clone());
        Ok(codes)
    }

    /// The value of a movement-phase `pos` for its side to move. A side with
    /// fewer than 3 stones has lost (0 plies). Where the file stores no plies
    /// (see [`crate::storage::Encoding::for_subspace`]), a win or loss gets its
    /// plies from a one-ply search over its children, whose files store them.
    pub fn probe(&self, pos: &Position) -> Result<Value, QueryError> {
        let Some((cell, table, i)) = self.stored(pos)? else {
            return Ok(Value::Loss(0));
        };
        if let Some(v) = cell.value() {
            return Ok(v);
        }
        if !cell.lacks_plies() {
            return Err(no_value(&table, i));
        }
        let mut children = vec![];
        for mv in moves::legal_moves(pos, self.rules) {
            children.push(match self.stored(&moves::apply(pos, mv))? {
                None => Value::Loss(0),
                Some((c, t, j)) => c.value().ok_or_else(|| no_value(&t, j))?,
            });
        }
        match Value::from_children(children) {
            Some(v) if cell.agrees_with(v) => Ok(v),
            _ => Err(QueryError::Storage(StorageError::Corrupt {
                path: table.path().to_path_buf(),
                fault: format!("entry {i} disagrees with its children"),
            })),
        }
    }

    /// Win, draw or loss of a movement-phase `pos`, without searching: plies
    /// are 0 where the file stores none (as in [`crate::wdl::WdlMap`]).
    pub(crate) fn probe_outcome(&self, pos: &Position) -> Result<Value, QueryError> {
        let Some((cell, table, i)) = self.stored(pos)? else {
            return Ok(Value::Loss(0));
        };
        match cell {
            Cell::WON => Ok(Value::Win(0)),
            Cell::LOST => Ok(Value::Loss(0)),
            c => c.value().ok_or_else(|| no_value(&table, i)),
        }
    }

    /// The stored cell of a movement-phase `pos`, with its table and index;
    /// `None` when the side to move has fewer than 3 stones (lost, 0 plies).
    fn stored(&self, pos: &Position) -> Result<Option<(Cell, Arc<Table>, Index)>, QueryError> {
        if pos.mover_total() < 3 {
            return Ok(None);
        }
        if !pos.is_movement_phase() {
            return Err(QueryError::PlacementPhase(*pos));
        }
        let sub = Subspace::of(pos);
        let table = self.table(sub)?;
        let i = self.ix.rank(pos.mover, pos.opponent);
        let be = table.header.block_entries as u64;
        let cell = self.block(sub, &table, i / be)?[(i % be) as usize];
        Ok(Some((cell, table, i)))
    }

    /// Every legal move of a movement-phase `pos` with the value it leads to, best first.
    pub fn moves(&self, pos: &Position) -> Result<Vec<EvaluatedMove>, QueryError> {
        evaluate_moves(pos, self.rules, |after| self.probe(after))
    }

    /// The value of `pos` and of all its moves. Placement-phase positions are
    /// solved by search ([`OpeningSearch`]) with exact plies.
    pub fn answer(&self, pos: &Position) -> Result<Answer, QueryError> {
        if !pos.is_movement_phase() {
            return OpeningSearch::new(self, Precision::ExactPlies).answer(pos);
        }
        Ok(Answer {
            position: *pos,
            value: self.probe(pos)?,
            moves: self.moves(pos)?,
        })
    }
}
