//! Probes of a database directory: the value of a movement-phase position,
//! read from its table (or, where the file stores no plies, found by a one-ply
//! search over its children). [`crate::answer::policy`] builds move lists on top.
//!
//! ```
//! use millbase::build::generate::{generate, Silent};
//! use millbase::index::plan::Limits;
//! use millbase::index::Indexer;
//! use millbase::answer::query::Database;
//! use millbase::{Variant, Value};
//!
//! // A tiny database: the 3-against-3 endgame.
//! let dir = std::env::temp_dir().join(format!("millbase-doc-{}", std::process::id()));
//! let limits = Limits { max_stones: 3, max_total: 6, placement: true, move_limit: None };
//! generate(&dir, Variant::default(), limits, &Indexer::new(), &Silent).unwrap();
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

use crate::index::{Index, Indexer, RecentContexts, Subspace};
use crate::rules::moves;
use crate::rules::position::Position;
use crate::rules::variant::{STONES_PER_SIDE, Variant};
use crate::solve::children::{distance_from_children, rule_child};
use crate::solve::counter;
use crate::solve::known::{Kind, prefetch};
use crate::solve::value::{Cell, Value};
use crate::storage::dir::DbDir;
use crate::storage::orbits::DirOrbits;
use crate::storage::reports::TableKey;
use crate::storage::{Encoding, FileIdentity, StorageError, Table, corrupt, io_err};
use rustc_hash::FxBuildHasher;
use smallvec::SmallVec;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::path::PathBuf;
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

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
                "{p}: the database lacks the placement sector {} of this position (stones in \
                 hand): it holds a smaller game. `millbase generate --db DIR` builds the whole \
                 game; `millbase query` solves such a position by search",
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

/// How often, at most, a table's file is looked at again (on a block not in
/// the cache) to see whether it was replaced or changed under the reader.
const RECHECK: Duration = Duration::from_millis(250);

/// Slots for the game's tables: one per subspace of at most
/// [`STONES_PER_SIDE`] stones on the board and as many in hand a side.
const TABLE_SLOTS: usize = (STONES_PER_SIDE as usize + 1).pow(4);

/// The slot of `sub`'s table among [`TABLE_SLOTS`]; `None` beyond
/// [`STONES_PER_SIDE`] stones.
#[inline]
fn table_slot(sub: Subspace) -> Option<usize> {
    let Subspace {
        mover,
        opponent,
        mover_hand,
        opponent_hand,
    } = sub;
    let base = STONES_PER_SIDE as usize + 1;
    (mover.max(opponent).max(mover_hand).max(opponent_hand) <= STONES_PER_SIDE).then(|| {
        ((mover as usize * base + opponent as usize) * base + mover_hand as usize) * base
            + opponent_hand as usize
    })
}

/// Decoded blocks by (the id of the opened file, block), evicted by
/// S3-FIFO (`quick_cache`): a hit only marks its entry, a block read once
/// leaves before blocks read again. A file opened anew gets a new id: blocks
/// of the file it replaced are never read again and age out.
type BlockCache =
    quick_cache::unsync::Cache<(u32, u64), Arc<[Cell]>, quick_cache::UnitWeighter, FxBuildHasher>;

/// An empty cache of `blocks` blocks.
fn block_cache(blocks: usize) -> BlockCache {
    BlockCache::with(
        blocks,
        blocks as u64,
        quick_cache::UnitWeighter,
        FxBuildHasher,
        Default::default(),
    )
}

/// An opened file of the database, with the id its cached blocks go by.
pub(crate) struct Opened {
    table: Table,
    id: u32,
}

impl std::ops::Deref for Opened {
    type Target = Table;
    fn deref(&self) -> &Table {
        &self.table
    }
}

/// Where one table's open file is kept: opened on first use, opened anew
/// when the file at its path is no longer the one opened.
#[derive(Default)]
struct Slot {
    /// The file open now, or null: points into [`Database`]'s `opened`.
    open: AtomicPtr<Opened>,
    /// When the file was last compared with the one at its path (ms since
    /// the database was opened).
    checked_ms: AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The game's tables and mover contexts one probe's search has used: a
/// position's children lie in few tables and share their mover sets.
#[derive(Default)]
struct Recent<'a> {
    tables: SmallVec<[(Subspace, &'a Opened); 4]>,
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
    /// The game's tables, by [`table_slot`]: read without a lock.
    tables: Box<[Slot]>,
    /// The tables of the no-removal rule of the move limit chosen on
    /// opening, by [`table_slot`].
    rule_tables: Vec<(u16, Box<[Slot]>)>,
    /// That move limit.
    move_limit: Option<u16>,
    /// Every file opened, kept until the database is dropped, so that a
    /// reference to one stays good while a slot moves on to a newer file.
    #[allow(clippy::vec_box)] // boxed: each stays where it is as the list grows
    opened: Mutex<Vec<Box<Opened>>>,
    cache: Mutex<BlockCache>,
    next_id: AtomicU32,
    opened_at: Instant,
    /// Files found damaged, by path, with what is wrong.
    damaged: Mutex<BTreeMap<PathBuf, String>>,
    /// Set once [`Database::prepare`] has built the indexer's tables.
    prepared: OnceLock<()>,
}

impl Database {
    /// Opens the database in `dir`, reading its rule variant from the manifest.
    ///
    /// Files are opened when first used and checked as blocks are read (a
    /// damaged block is an error, never a wrong value). Blocks are read by
    /// position, not through a memory map, so a file truncated under a running
    /// reader is an error naming it; a file replaced (by rename, as `generate`
    /// and `upgrade` do) is seen within a fraction of a second and read anew.
    /// The tables of the no-removal rule are those of the move limits present
    /// now: a limit whose tables a later `generate` adds needs the database
    /// opened again.
    ///
    /// A database that holds the rule's tables for several move limits is
    /// refused, naming them: [`Database::open_with_move_limit`] chooses one.
    pub fn open(dir: &Path) -> Result<Database, QueryError> {
        Database::open_with_move_limit(dir, None)
    }

    /// [`Database::open`], answering under the no-removal rule with the move
    /// limit `move_limit` (its tables must be there); `None`: the one limit
    /// whose tables the database holds, if any.
    pub fn open_with_move_limit(
        dir: &Path,
        move_limit: Option<u16>,
    ) -> Result<Database, QueryError> {
        let dir = DbDir::open(dir)?;
        let move_limit = dir.move_limit(move_limit)?;
        Ok(Database {
            // the orbits of its set tables kept in the database: a short
            // reader reads them instead of building whole tables
            ix: Indexer::with_store(
                dir.variant().geometry(),
                Box::new(DirOrbits::at(dir.path(), dir.variant().geometry().len())),
            ),
            tables: (0..TABLE_SLOTS).map(|_| Slot::default()).collect(),
            rule_tables: (move_limit.into_iter())
                .map(|limit| (limit, (0..TABLE_SLOTS).map(|_| Slot::default()).collect()))
                .collect(),
            move_limit,
            opened: Mutex::new(Vec::new()),
            cache: Mutex::new(block_cache(CACHE_BLOCKS)),
            next_id: AtomicU32::new(0),
            opened_at: Instant::now(),
            damaged: Mutex::new(BTreeMap::new()),
            prepared: OnceLock::new(),
            dir,
        })
    }

    /// Keeps at most `blocks` decoded blocks (at least 1; default
    /// [`CACHE_BLOCKS`]); beyond that one is evicted per block decoded.
    pub fn with_cache_blocks(self, blocks: usize) -> Database {
        *lock(&self.cache) = block_cache(blocks.max(1));
        self
    }

    /// Builds the indexer's tables for every stone count of the database's
    /// files now (about 0.1 s for the complete game), so that no probe
    /// builds one on the way: a one-off query needs only a few and builds
    /// them as it goes, a player or a server that answers many calls this
    /// once at start. Later calls do nothing.
    pub fn prepare(&self) {
        self.prepared.get_or_init(|| {
            let most = (self.dir.present().iter())
                .map(|s| s.mover.max(s.opponent))
                .max()
                .unwrap_or(0);
            self.ix.build_tables(most);
        });
    }

    /// The indexer that ranks positions into the database's tables.
    pub fn indexer(&self) -> &Indexer {
        &self.ix
    }

    /// The database directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The database directory: its files, manifest and subspaces.
    pub fn dir(&self) -> &DbDir {
        &self.dir
    }

    /// The start of the largest game the database holds: the initial
    /// position with `n` stones in hand a side, for the largest `n` whose
    /// start sector (or, without the placement phase, whose movement
    /// subspace `n-n`) is there; the initial position of the whole game
    /// where neither is.
    pub fn start(&self) -> Position {
        start_of(&self.dir.present())
    }

    /// Where a game from `pos` can run into tables the database lacks: a
    /// message naming the largest game it holds and the `--position` to
    /// start from; `None` where its sector is there, or where the database
    /// has no placement phase (a placement position is then searched).
    pub fn outside(&self, pos: &Position) -> Option<String> {
        let present = self.dir.present();
        let start = start_of(&present);
        let has_placement = present.iter().any(|x| !x.is_movement());
        let sub = Subspace::of(pos);
        if present.contains(&sub) || pos.mover_below_minimum() || !has_placement {
            return None;
        }
        Some(format!(
            "{} holds no table of {sub} (position {pos}): its largest game starts at \
             {start}; give --position \"{start}\" or a position within it",
            self.path().display()
        ))
    }

    /// The rule variant of the database.
    pub fn variant(&self) -> Variant {
        self.dir.variant()
    }

    /// The files found damaged so far by this reader (relative to the
    /// database directory), each with what is wrong; a file that reads well
    /// again (replaced by a good one) leaves the list.
    pub fn damaged(&self) -> Vec<(PathBuf, String)> {
        let base = self.dir.path();
        (lock(&self.damaged).iter())
            .map(|(p, m)| (p.strip_prefix(base).unwrap_or(p).to_path_buf(), m.clone()))
            .collect()
    }

    /// Notes `path` as damaged when `e` says its bytes are wrong, or that
    /// it holds another subspace or variant; a file opened (first, or anew
    /// once replaced: `opened`) and checked is no longer listed. A good
    /// block read clears nothing: a file with a bad block stays listed
    /// until it is replaced.
    fn note<T>(
        &self,
        path: &Path,
        r: Result<T, StorageError>,
        opened: bool,
    ) -> Result<T, StorageError> {
        match &r {
            Err(
                e @ (StorageError::Corrupt { .. }
                | StorageError::Io { .. }
                | StorageError::OtherSubspace { .. }
                | StorageError::WrongVariant { .. }),
            ) => {
                lock(&self.damaged).insert(path.to_path_buf(), e.to_string());
            }
            Ok(_) if opened => {
                let mut damaged = lock(&self.damaged);
                if !damaged.is_empty() {
                    damaged.remove(path);
                }
            }
            _ => {}
        }
        r
    }

    /// The slot of the table of `kind` of `sub`, or `None` beyond 9 stones or for
    /// a move limit whose tables the database lacks.
    fn slot(&self, kind: Kind, sub: Subspace) -> Option<&Slot> {
        let k = table_slot(sub)?;
        match kind {
            Kind::Game => Some(&self.tables[k]),
            Kind::Rule(limit) => (self.rule_tables.iter())
                .find(|(l, _)| *l == limit)
                .map(|(_, slots)| &slots[k]),
        }
    }

    /// The file open in `slot`, if any.
    fn in_slot<'a>(&'a self, slot: &Slot) -> Option<&'a Opened> {
        let p = slot.open.load(Ordering::Acquire);
        // SAFETY: a slot holds null or a pointer to a box in `self.opened`,
        // which boxes are only added to and dropped with `self`.
        (!p.is_null()).then(|| unsafe { &*p })
    }

    fn path_of(&self, kind: Kind, sub: Subspace) -> PathBuf {
        self.dir.table_path(kind, sub)
    }

    /// Opens the table of `kind` of `sub` anew into `slot`.
    fn open_into(&self, kind: Kind, sub: Subspace, slot: &Slot) -> Result<&Opened, StorageError> {
        slot.checked_ms.store(self.now_ms(), Ordering::Relaxed);
        let table = self.dir.open_table(kind, sub);
        let table = match self.note(&self.path_of(kind, sub), table, true) {
            Ok(t) => t,
            Err(e) => {
                self.put(slot, std::ptr::null_mut());
                return Err(e);
            }
        };
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut opened = Box::new(Opened { table, id });
        let p: *mut Opened = &mut *opened;
        lock(&self.opened).push(opened);
        self.put(slot, p);
        // SAFETY: the box was just put in `self.opened` (see `in_slot`)
        Ok(unsafe { &*p })
    }

    /// Puts `p` (null, or a box of `self.opened`) in `slot`, and closes the
    /// file it held before, once no read is in flight on it: a replaced
    /// file's descriptor, and a deleted one's disk space, are given back.
    /// Its box stays (readers may hold it), its reads fail as closed and are
    /// made again from the file now in the slot ([`Database::block`]).
    fn put(&self, slot: &Slot, p: *mut Opened) {
        let old = slot.open.swap(p, Ordering::AcqRel);
        if !old.is_null() && old != p {
            // SAFETY: a pointer in a slot points to a box of `self.opened`
            unsafe { &*old }.close();
        }
    }

    fn now_ms(&self) -> u64 {
        self.opened_at.elapsed().as_millis() as u64
    }

    /// the open table of `kind` of `sub`, opening its file on first use.
    #[inline]
    fn open_table(&self, kind: Kind, sub: Subspace) -> Result<&Opened, QueryError> {
        match self.open_already(kind, sub) {
            Some(t) => Ok(t),
            None => self.open_table_now(kind, sub),
        }
    }

    /// The table of `kind` of `sub` if its file is open.
    #[inline]
    fn open_already(&self, kind: Kind, sub: Subspace) -> Option<&Opened> {
        self.in_slot(self.slot(kind, sub)?)
    }

    /// [`Database::open_table`] where the slot holds no open file (kept out of
    /// line: the open file is the common case).
    #[inline(never)]
    fn open_table_now(&self, kind: Kind, sub: Subspace) -> Result<&Opened, QueryError> {
        let Some(slot) = self.slot(kind, sub) else {
            // more than 9 stones, or a move limit without tables: no such file
            return Err(QueryError::Storage(StorageError::Missing {
                path: self.path_of(kind, sub),
                subspace: sub,
            }));
        };
        if let Some(t) = self.in_slot(slot) {
            return Ok(t);
        }
        Ok(self.open_into(kind, sub, slot)?)
    }

    /// The open game's table of `sub`, opening its file on first use.
    pub(crate) fn table(&self, sub: Subspace) -> Result<&Opened, QueryError> {
        self.open_table(Kind::Game, sub)
    }

    /// The header of the game's table of `sub` (kept open), the key its
    /// reports are kept under (its size, classes and content's fingerprint)
    /// and the identity of the file open: another once the file is replaced
    /// and opened anew.
    pub fn table_header(
        &self,
        sub: Subspace,
    ) -> Result<(crate::storage::Header, TableKey, FileIdentity), QueryError> {
        // the file now at the table's path, should it have been replaced
        let t = self.current(Kind::Game, sub, self.table(sub)?)?;
        Ok((t.header, TableKey::of(t), t.identity()))
    }

    /// Looks at every file of the subspaces `present` (as
    /// [`DbDir::present`](crate::storage::dir::DbDir::present) lists them): each
    /// table opens (its header and tables checked) and is the file now at
    /// its path, else it is opened anew. What is found goes to
    /// [`Database::damaged`].
    pub fn check_files(&self, present: &[Subspace]) {
        let mut tables: Vec<(Kind, Subspace)> = vec![];
        for &sub in present {
            tables.push((Kind::Game, sub));
            if let Some(limit) = self.move_limit
                && self.path_of(Kind::Rule(limit), sub).is_file()
            {
                tables.push((Kind::Rule(limit), sub));
            }
        }
        for (kind, sub) in tables {
            // the errors are noted in the list of damaged files
            if let Ok(t) = self.open_table(kind, sub) {
                let _ = self.current(kind, sub, t);
            }
        }
    }

    /// `opened` (the table of `kind` of `sub`), or the file now at its path if that
    /// is another (looked at no more often than every [`RECHECK`]).
    fn current<'a>(
        &'a self,
        kind: Kind,
        sub: Subspace,
        opened: &'a Opened,
    ) -> Result<&'a Opened, StorageError> {
        let Some(slot) = self.slot(kind, sub) else {
            return Ok(opened);
        };
        let now = self.now_ms();
        let last = slot.checked_ms.load(Ordering::Relaxed);
        if now.saturating_sub(last) < RECHECK.as_millis() as u64
            || slot
                .checked_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return Ok(self.in_slot(slot).unwrap_or(opened));
        }
        let path = opened.path();
        match FileIdentity::at(path) {
            Ok(id) if id == opened.identity() => Ok(opened),
            Ok(_) => self.open_into(kind, sub, slot),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.put(slot, std::ptr::null_mut());
                Err(StorageError::Missing {
                    path: path.to_path_buf(),
                    subspace: sub,
                })
            }
            Err(e) => Err(io_err(path)(e)),
        }
    }

    /// Block `b` of `opened` (the table of `kind` of `sub`): from the cache, else
    /// read and decoded (from the file now at the table's path, should it
    /// have been replaced) and cached.
    fn block(
        &self,
        kind: Kind,
        sub: Subspace,
        opened: &Opened,
        b: u64,
    ) -> Result<Arc<[Cell]>, QueryError> {
        if let Some(c) = lock(&self.cache).get(&(opened.id, b)) {
            return Ok(c.clone());
        }
        let table = self.current(kind, sub, opened)?;
        if table.header.block_entries != opened.header.block_entries {
            return Err(QueryError::Storage(corrupt(
                table.path(),
                "was replaced by a file of another block size while being read: ask again",
            )));
        }
        if table.id != opened.id
            && let Some(c) = lock(&self.cache).get(&(table.id, b))
        {
            return Ok(c.clone());
        }
        // a rule table decodes along the game's table of its subspace
        let game = match kind {
            Kind::Game => None,
            Kind::Rule(_) => Some(self.block(Kind::Game, sub, self.table(sub)?, b)?),
        };
        let decode = |t: &Opened| match &game {
            None => t.block(b as usize),
            Some(cells) => t.block_along(b as usize, cells),
        };
        let (table, decoded) = match decode(table) {
            // replaced and closed while being read: read the file now there
            Err(_) if table.is_closed() => {
                let newer = self.open_table(kind, sub)?;
                (newer, decode(newer))
            }
            d => (table, d),
        };
        let codes: Arc<[Cell]> = Arc::from(self.note(table.path(), decoded, false)?);
        lock(&self.cache).insert((table.id, b), codes.clone());
        Ok(codes)
    }

    /// The value of `pos` for its side to move, from the table of its subspace
    /// or placement sector. A side with fewer than 3 stones has lost (0 plies).
    /// A placement position whose sector the database lacks is
    /// [`QueryError::PlacementPhase`] ([`Database::answer`] then searches). Where the file stores no plies
    /// (see [`crate::storage::dir::encoding_for`]), a win or loss gets its
    /// plies from a one-ply search over its children, whose files store them.
    pub fn probe(&self, pos: &Position) -> Result<Value, QueryError> {
        let Some((cell, table, i)) = self.stored(pos)? else {
            return Ok(Value::Loss(0));
        };
        match cell.value() {
            Some(v) => Ok(v),
            None => self.probe_children(pos, cell, table, i),
        }
    }

    /// [`Database::probe`] of `pos`, whose entry `i` of `table` holds `cell`,
    /// a win or loss without plies: the plies come from a one-ply search over
    /// its children (kept out of line: most probes end at the entry).
    #[inline(never)]
    fn probe_children(
        &self,
        pos: &Position,
        cell: Cell,
        table: &Opened,
        i: Index,
    ) -> Result<Value, QueryError> {
        if !cell.lacks_plies() {
            return Err(no_value(table.path(), i));
        }
        // every child's entry is located first, then all are read, so that
        // the reads, random in the decoded blocks, overlap
        let mut recent = Recent::default();
        let mut moves = Vec::with_capacity(64);
        moves::generate(pos, self.variant(), &mut moves);
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
    /// are 0 where the file stores none (as in [`crate::answer::wdl::WdlMap`]).
    pub(crate) fn probe_outcome(&self, pos: &Position) -> Result<Value, QueryError> {
        Ok(self.probe_outcome_and_plies(pos)?.0)
    }

    /// [`Database::probe_outcome`], and whether the plies of its win or loss
    /// are the true plies (`false` where the file stores none, and for a draw).
    pub(crate) fn probe_outcome_and_plies(
        &self,
        pos: &Position,
    ) -> Result<(Value, bool), QueryError> {
        let Some((cell, table, i)) = self.stored(pos)? else {
            return Ok((Value::Loss(0), true));
        };
        match cell {
            Cell::WON => Ok((Value::Win(0), false)),
            Cell::LOST => Ok((Value::Loss(0), false)),
            c => {
                let v = c.value().ok_or_else(|| no_value(table.path(), i))?;
                Ok((v, v != Value::Draw))
            }
        }
    }

    /// The stored cell of `pos`, with its table and index; `None` when the
    /// side to move has fewer than 3 stones (lost, 0 plies).
    fn stored(&self, pos: &Position) -> Result<Option<(Cell, &Opened, Index)>, QueryError> {
        if pos.mover_below_minimum() {
            return Ok(None);
        }
        let sub = Subspace::of(pos);
        let table = self.table_for(sub, pos)?;
        let i = self.ix.rank(pos.mover, pos.opponent);
        let be = table.header.block_entries as u64;
        let cell = self.entry(sub, table, i / be, (i % be) as usize)?;
        Ok(Some((cell, table, i)))
    }

    /// The game's entry `at` of block `b` of `sub`'s table: read under the
    /// cache's lock where the block is cached (no reference count taken),
    /// else from [`Database::block`].
    #[inline(always)]
    fn entry(&self, sub: Subspace, table: &Opened, b: u64, at: usize) -> Result<Cell, QueryError> {
        let cached = lock(&self.cache).get(&(table.id, b)).map(|block| block[at]);
        match cached {
            Some(c) => Ok(c),
            None => self.entry_read(sub, table, b, at),
        }
    }

    /// [`Database::entry`] from a block not in the cache (kept out of line).
    #[inline(never)]
    fn entry_read(
        &self,
        sub: Subspace,
        table: &Opened,
        b: u64,
        at: usize,
    ) -> Result<Cell, QueryError> {
        Ok(self.block(Kind::Game, sub, table, b)?[at])
    }

    /// The game's table of `sub`, the subspace or sector of `pos`; a placement
    /// position whose sector the database lacks is
    /// [`QueryError::PlacementPhase`].
    #[inline]
    fn table_for(&self, sub: Subspace, pos: &Position) -> Result<&Opened, QueryError> {
        match self.open_already(Kind::Game, sub) {
            Some(t) => Ok(t),
            None => self.table_for_now(sub, pos),
        }
    }

    /// [`Database::table_for`] where the table is not open yet (out of line).
    #[inline(never)]
    fn table_for_now(&self, sub: Subspace, pos: &Position) -> Result<&Opened, QueryError> {
        match self.table(sub) {
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
                recent.tables.push((sub, self.table_for(sub, pos)?));
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
            let cache = lock(&self.cache);
            // every entry is requested (its block marked used) before any is
            // read, so that the reads overlap
            let entries: SmallVec<[Option<&Cell>; 32]> = (spots.iter())
                .map(|spot| {
                    let (t, b, at, _) = (*spot)?;
                    let entry = &cache.get(&(recent.tables[t].1.id, b))?[at];
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

    /// The move limit of the no-removal rule whose tables answer (chosen
    /// when the database was opened), or `None`.
    pub fn move_limit(&self) -> Option<u16> {
        self.move_limit
    }

    /// The distance-table value of `pos` under the no-removal rule with
    /// `move_limit` ([`crate::solve::counter`]): `Win(d)` or `Loss(d)` with the
    /// distance `d`, or `Draw` where the winner cannot convert within the limit.
    pub fn probe_distance(&self, pos: &Position, move_limit: u16) -> Result<Value, QueryError> {
        if pos.mover_below_minimum() {
            return Ok(Value::Loss(0));
        }
        let sub = Subspace::of(pos);
        let table = self.open_table(Kind::Rule(move_limit), sub)?;
        let i = self.ix.rank(pos.mover, pos.opponent);
        if table.header.encoding == Encoding::CountsOnly {
            // no distances stored: one ply of search over the children's
            let game = self.probe_outcome(pos)?;
            if game == Value::Draw {
                return Ok(Value::Draw);
            }
            let v = distance_from_children(pos, self.variant(), move_limit, &mut vec![], |c| {
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
        let cell = self.block(Kind::Rule(move_limit), sub, table, i / be)?[(i % be) as usize];
        cell.value().ok_or_else(|| no_value(table.path(), i))
    }

    /// The category under the no-removal rule with `move_limit` at
    /// `counter` (below the limit) of `pos`, whose plain value is `plain`:
    /// [`counter::Category::of`] its distance, read only as far as it
    /// decides. Where the file stores no distances, the children are read
    /// removals first (they convert at once) and the first that settles it
    /// ends the search: a win whose winner has a move that converts in the
    /// plies left, a loss with a move that escapes them.
    pub(crate) fn rule_category(
        &self,
        pos: &Position,
        plain: Value,
        move_limit: u16,
        counter: u16,
    ) -> Result<counter::Category, QueryError> {
        use counter::Category;
        let stored = || -> Result<Category, QueryError> {
            let d = self.probe_distance(pos, move_limit)?;
            Ok(Category::of(plain, d, move_limit, counter))
        };
        if plain == Value::Draw || pos.mover_below_minimum() {
            return stored();
        }
        let sub = Subspace::of(pos);
        if self
            .open_table(Kind::Rule(move_limit), sub)?
            .header
            .encoding
            != Encoding::CountsOnly
        {
            return stored();
        }
        // the plies left for the conversion, the move to the child included
        let room = move_limit.saturating_sub(counter);
        let mut list = Vec::new();
        moves::generate(pos, self.variant(), &mut list);
        list.sort_by_key(|m| m.remove.is_none());
        let win = matches!(plain, Value::Win(_));
        for mv in list {
            let child = rule_child(self.probe_distance(&moves::apply(pos, mv), move_limit)?, mv);
            match (win, child) {
                (true, Value::Loss(d)) if d < room => return Ok(Category::Win),
                (false, Value::Win(d)) if d < room => {}
                (false, _) => return Ok(Category::BlessedLoss),
                (true, _) => {}
            }
        }
        Ok(if win {
            Category::CursedWin
        } else {
            Category::Loss
        })
    }
}

/// [`Database::start`] of a database holding the tables of `present`.
pub fn start_of(present: &[Subspace]) -> Position {
    let start_sector = (present.iter())
        .filter(|x| x.mover + x.opponent == 0 && x.mover_hand == x.opponent_hand)
        .map(|x| x.mover_hand)
        .max();
    let movement = (present.iter())
        .filter(|x| x.is_movement() && x.mover == x.opponent)
        .map(|x| x.mover)
        .max();
    match start_sector.or(movement) {
        Some(n) => Position::initial_with(n),
        None => Position::initial(),
    }
}
