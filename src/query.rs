//! Probes of a database directory: the value of a movement-phase position,
//! read from its table (or, where the file stores no plies, found by a one-ply
//! search over its children). [`crate::answer`] builds move lists on top.
//!
//! ```
//! use millbase::generate::{generate, Silent};
//! use millbase::plan::Limits;
//! use millbase::index::Indexer;
//! use millbase::query::Database;
//! use millbase::{Rules, Value};
//!
//! // A tiny database: the 3-against-3 endgame.
//! let dir = std::env::temp_dir().join(format!("millbase-doc-{}", std::process::id()));
//! let limits = Limits { max_stones: 3, max_total: 6, placement: true, move_limit: None };
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

use crate::children::distance_from_children;
use crate::counter;
use crate::db::DbDir;
use crate::index::{Index, Indexer, RecentContexts, Subspace};
use crate::moves;
use crate::position::Position;
use crate::rules::Rules;
use crate::solver::prefetch;
use crate::storage::{Encoding, StorageError, Table, corrupt};
use crate::value::{Cell, Value};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// Why a query could not be answered.
#[derive(Debug)]
pub enum QueryError {
    /// A database file or directory fault.
    Storage(StorageError),
    /// The position is in the placement phase and the database lacks its
    /// sector (built with `--movement-only`, or by an older millbase).
    PlacementPhase(Position),
    /// A counter of the no-removal rule that cannot be answered: outside
    /// `0..L`, or a database without the rule's tables.
    Counter(String),
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Storage(e) => e.fmt(f),
            QueryError::Counter(m) => f.write_str(m),
            QueryError::PlacementPhase(p) => write!(
                f,
                "{p}: the database lacks the placement sector {} of this position (stones in hand); \
                 build it with `millbase generate --db DIR`, or solve the position by search \
                 (Database::answer, OpeningSearch)",
                Subspace::of(p)
            ),
        }
    }
}

impl std::error::Error for QueryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            QueryError::Storage(e) => Some(e),
            QueryError::PlacementPhase(_) | QueryError::Counter(_) => None,
        }
    }
}

impl From<StorageError> for QueryError {
    fn from(e: StorageError) -> Self {
        QueryError::Storage(e)
    }
}

/// The error for index `index` of `table` holding no value.
pub(crate) fn no_value(path: &Path, index: Index) -> QueryError {
    QueryError::Storage(corrupt(
        path,
        format!("entry {index} holds no value (damaged file?)"),
    ))
}

/// Decoded blocks kept by default (8 KiB each: at most 128 MiB).
pub const CACHE_BLOCKS: usize = 16384;

/// Slots for the game's tables: one per subspace of at most 9 stones on the
/// board and 9 in hand a side.
const TABLE_SLOTS: usize = 10_000;

/// The slot of `sub`'s table among [`TABLE_SLOTS`]; `None` beyond 9 stones.
fn table_slot(sub: Subspace) -> Option<usize> {
    let fields = [sub.mover, sub.opponent, sub.mover_hand, sub.opponent_hand];
    (fields.iter().all(|&f| f <= 9)).then(|| fields.iter().fold(0, |k, &f| 10 * k + f as usize))
}

/// Decoded blocks by (move limit of a rule table or `None`, subspace, block).
/// A block's entries follow its reference counts in one allocation, so an
/// entry's address comes from the map's bucket without a further load.
type BlockCache = FxHashMap<(Option<u16>, Subspace, u64), Arc<[Cell]>>;

/// The game's tables and mover contexts one probe's search has used: a
/// position's children lie in few tables and share their mover sets.
#[derive(Default)]
struct Recent<'a> {
    tables: SmallVec<[(Subspace, &'a Table); 4]>,
    /// The children share their mover sets: each is ranked through these.
    contexts: RecentContexts<'a>,
}

/// Where a child's entry is: its table's position in [`Recent`]'s `tables`,
/// its block, the entry in the block, and its index in the table. `None`:
/// the side to move has fewer than 3 stones (lost, 0 plies).
type Spot = Option<(usize, u64, usize, Index)>;

/// An open database: files are opened on first use, decoded blocks cached.
pub struct Database {
    dir: DbDir,
    ix: Indexer,
    /// The game's tables, opened on first use, by [`table_slot`]: read
    /// without a lock once open.
    tables: Box<[OnceLock<Box<Table>>]>,
    /// The tables of the no-removal rule, by move limit and subspace.
    rule_tables: Mutex<FxHashMap<(u16, Subspace), Arc<Table>>>,
    cache: Mutex<BlockCache>,
    cache_blocks: usize,
}

impl Database {
    /// Opens the database in `dir`, reading its rule variant from the manifest.
    ///
    /// Files are memory-mapped when first used and checked as blocks are read
    /// (a damaged block is an error, never a wrong value). millbase only ever
    /// replaces files by rename, which leaves an open mapping intact; if another
    /// process truncates a mapped file in place, reading the lost pages raises
    /// SIGBUS and the process dies: no wrong answer, but no error value either.
    pub fn open(dir: &Path) -> Result<Database, QueryError> {
        Ok(Database {
            dir: DbDir::open(dir)?,
            ix: Indexer::new(),
            tables: (0..TABLE_SLOTS).map(|_| OnceLock::new()).collect(),
            rule_tables: Mutex::new(FxHashMap::default()),
            cache: Mutex::new(FxHashMap::default()),
            cache_blocks: CACHE_BLOCKS,
        })
    }

    /// Keeps at most `blocks` decoded blocks (at least 1; default
    /// [`CACHE_BLOCKS`]); beyond that one is evicted per block decoded.
    pub fn with_cache_blocks(mut self, blocks: usize) -> Database {
        self.cache_blocks = blocks.max(1);
        self
    }

    /// The database directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The database directory: its files, manifest and subspaces.
    pub fn dir(&self) -> &DbDir {
        &self.dir
    }

    /// The rule variant of the database.
    pub fn rules(&self) -> Rules {
        self.dir.rules()
    }

    /// The open game's table of `sub`, opening its file on first use.
    pub(crate) fn table(&self, sub: Subspace) -> Result<&Table, QueryError> {
        let Some(slot) = table_slot(sub).map(|k| &self.tables[k]) else {
            // more than 9 stones: no game has such a subspace or its file
            return Err(QueryError::Storage(StorageError::Missing {
                path: self.dir.table_path(sub),
                subspace: sub,
            }));
        };
        if let Some(t) = slot.get() {
            return Ok(t);
        }
        let t = self.dir.open_table(sub)?;
        // another thread may have opened it meanwhile: either copy serves
        Ok(slot.get_or_init(|| Box::new(t)))
    }

    /// The open rule table of `sub` for `move_limit`, opening its file on
    /// first use.
    fn rule_table(&self, move_limit: u16, sub: Subspace) -> Result<Arc<Table>, QueryError> {
        let mut tables = self.rule_tables.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(t) = tables.get(&(move_limit, sub)) {
            return Ok(t.clone());
        }
        let t = Arc::new(self.dir.open_rule_table(move_limit, sub)?);
        tables.insert((move_limit, sub), t.clone());
        Ok(t)
    }

    fn block(
        &self,
        move_limit: Option<u16>,
        sub: Subspace,
        table: &Table,
        b: u64,
    ) -> Result<Arc<[Cell]>, QueryError> {
        let key = (move_limit, sub, b);
        if let Some(c) = self
            .cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            return Ok(c.clone());
        }
        let codes: Arc<[Cell]> = Arc::from(match move_limit {
            None => table.block(b as usize)?,
            Some(_) => {
                // a rule table decodes along the game's table of its subspace
                let game = self.table(sub)?;
                table.rule_block(b as usize, &self.block(None, sub, game, b)?)?
            }
        });
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= self.cache_blocks {
            // evict one entry: the hash order makes it an arbitrary one
            if let Some(&k) = cache.keys().next() {
                cache.remove(&k);
            }
        }
        cache.insert(key, codes.clone());
        Ok(codes)
    }

    /// The value of `pos` for its side to move, from the table of its subspace
    /// or placement sector. A side with fewer than 3 stones has lost (0 plies).
    /// A placement position whose sector the database lacks is
    /// [`QueryError::PlacementPhase`] ([`Database::answer`] then searches). Where the file stores no plies
    /// (see [`crate::db::encoding_for`]), a win or loss gets its
    /// plies from a one-ply search over its children, whose files store them.
    pub fn probe(&self, pos: &Position) -> Result<Value, QueryError> {
        let Some((cell, table, i)) = self.stored(pos)? else {
            return Ok(Value::Loss(0));
        };
        if let Some(v) = cell.value() {
            return Ok(v);
        }
        if !cell.lacks_plies() {
            return Err(no_value(table.path(), i));
        }
        // every child's entry is located first, then all are read, so that
        // the reads, random in the decoded blocks, overlap
        let mut recent = Recent::default();
        let mut moves = Vec::with_capacity(64);
        moves::generate(pos, self.rules(), &mut moves);
        let mut spots = SmallVec::<[Spot; 32]>::with_capacity(moves.len());
        for &mv in &moves {
            spots.push(self.spot(&mut recent, &moves::apply(pos, mv))?);
        }
        let cells = self.cells(&recent, &spots)?;
        let children = spots
            .iter()
            .zip(&cells)
            .map(|(spot, cell)| match (spot, cell) {
                (Some((t, _, _, i)), Some(c)) => {
                    (c.value()).ok_or_else(|| no_value(recent.tables[*t].1.path(), *i))
                }
                _ => Ok(Value::Loss(0)),
            });
        let from_children = Value::try_from_children(children)?;
        match from_children {
            Some(v) if cell.agrees_with(v) => Ok(v),
            _ => Err(QueryError::Storage(corrupt(
                table.path(),
                format!("entry {i} disagrees with its children"),
            ))),
        }
    }

    /// Win, draw or loss of `pos`, without searching: plies
    /// are 0 where the file stores none (as in [`crate::wdl::WdlMap`]).
    pub(crate) fn probe_outcome(&self, pos: &Position) -> Result<Value, QueryError> {
        let Some((cell, table, i)) = self.stored(pos)? else {
            return Ok(Value::Loss(0));
        };
        match cell {
            Cell::WON => Ok(Value::Win(0)),
            Cell::LOST => Ok(Value::Loss(0)),
            c => c.value().ok_or_else(|| no_value(table.path(), i)),
        }
    }

    /// The stored cell of `pos`, with its table and index; `None` when the
    /// side to move has fewer than 3 stones (lost, 0 plies).
    fn stored(&self, pos: &Position) -> Result<Option<(Cell, &Table, Index)>, QueryError> {
        if pos.mover_below_minimum() {
            return Ok(None);
        }
        let sub = Subspace::of(pos);
        let table = self.table_for(pos)?;
        let i = self.ix.rank(pos.mover, pos.opponent);
        let be = table.header.block_entries as u64;
        let cell = self.entry(sub, table, i / be, (i % be) as usize)?;
        Ok(Some((cell, table, i)))
    }

    /// The game's entry `at` of block `b` of `sub`'s table: read under the
    /// cache's lock where the block is cached (no reference count taken),
    /// else from [`Database::block`].
    fn entry(&self, sub: Subspace, table: &Table, b: u64, at: usize) -> Result<Cell, QueryError> {
        let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        let cached = cache.get(&(None, sub, b)).map(|block| block[at]);
        drop(cache);
        match cached {
            Some(c) => Ok(c),
            None => Ok(self.block(None, sub, table, b)?[at]),
        }
    }

    /// The game's table of the subspace or sector of `pos`; a placement
    /// position whose sector the database lacks is
    /// [`QueryError::PlacementPhase`].
    fn table_for(&self, pos: &Position) -> Result<&Table, QueryError> {
        match self.table(Subspace::of(pos)) {
            Err(QueryError::Storage(StorageError::Missing { .. })) if !pos.is_movement_phase() => {
                Err(QueryError::PlacementPhase(*pos))
            }
            t => t,
        }
    }

    /// Where the entry of `pos` is, its table taken from `recent` (which gets
    /// it if it lacks it); `None` when the side to move has fewer than 3
    /// stones (lost, 0 plies).
    fn spot<'a>(&'a self, recent: &mut Recent<'a>, pos: &Position) -> Result<Spot, QueryError> {
        if pos.mover_below_minimum() {
            return Ok(None);
        }
        let sub = Subspace::of(pos);
        let t = match recent.tables.iter().position(|(s, _)| *s == sub) {
            Some(t) => t,
            None => {
                recent.tables.push((sub, self.table_for(pos)?));
                recent.tables.len() - 1
            }
        };
        let i = recent.contexts.rank(&self.ix, pos.mover, pos.opponent);
        let be = recent.tables[t].1.header.block_entries as u64;
        Ok(Some((t, i / be, (i % be) as usize, i)))
    }

    /// The game's entries at `spots` (`None` where a spot is `None`). Those
    /// in cached blocks are read under one lock of the cache, each requested
    /// before any is read, with no reference count taken; the others come
    /// from [`Database::entry`].
    fn cells(
        &self,
        recent: &Recent,
        spots: &[Spot],
    ) -> Result<SmallVec<[Option<Cell>; 32]>, QueryError> {
        let mut cells = SmallVec::<[Option<Cell>; 32]>::with_capacity(spots.len());
        {
            let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
            let entries: SmallVec<[Option<&Cell>; 32]> = (spots.iter())
                .map(|spot| {
                    let (t, b, at, _) = (*spot)?;
                    let entry = &cache.get(&(None, recent.tables[t].0, b))?[at];
                    prefetch(entry);
                    Some(entry)
                })
                .collect();
            cells.extend(entries.iter().map(|e| e.copied()));
        }
        for (spot, cell) in spots.iter().zip(cells.iter_mut()) {
            if let (Some((t, b, at, _)), None) = (spot, &cell) {
                let (sub, table) = recent.tables[*t];
                *cell = Some(self.entry(sub, table, *b, *at)?);
            }
        }
        Ok(cells)
    }

    /// The move limit of the no-removal rule whose tables the database holds
    /// (the smallest, if it holds several), or `None`.
    pub fn move_limit(&self) -> Option<u16> {
        self.dir.move_limits().first().copied()
    }

    /// The distance-table value of `pos` under the no-removal rule with
    /// `move_limit` ([`crate::counter`]): `Win(d)` or `Loss(d)` with the
    /// distance `d`, or `Draw` where the winner cannot convert within the limit.
    pub fn probe_distance(&self, pos: &Position, move_limit: u16) -> Result<Value, QueryError> {
        if pos.mover_below_minimum() {
            return Ok(Value::Loss(0));
        }
        let sub = Subspace::of(pos);
        let table = self.rule_table(move_limit, sub)?;
        let i = self.ix.rank(pos.mover, pos.opponent);
        if table.header.encoding == Encoding::CountsOnly {
            // no distances stored: one ply of search over the children's
            let game = self.probe_outcome(pos)?;
            if game == Value::Draw {
                return Ok(Value::Draw);
            }
            let v = distance_from_children(pos, self.rules(), move_limit, &mut vec![], |c| {
                self.probe_distance(c, move_limit)
            })?;
            return match v {
                Some(v) if counter::fits_game(v, Cell::from_value(game).wdl_code()) => Ok(v),
                _ => Err(QueryError::Storage(corrupt(
                    table.path(),
                    format!("entry {i} disagrees with its children and the game's table"),
                ))),
            };
        }
        let be = table.header.block_entries as u64;
        let cell = self.block(Some(move_limit), sub, &table, i / be)?[(i % be) as usize];
        cell.value().ok_or_else(|| no_value(table.path(), i))
    }
}
