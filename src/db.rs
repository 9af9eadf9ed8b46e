//! A database directory: its manifest, the file of each subspace, the work files
//! of a generation and their temporaries, which subspaces are present, and
//! complete tables loaded from it.
//!
//! ```text
//! DIR/millbase.json      the manifest: format and rule variant
//! DIR/M-O-0-0.mdb        one file per subspace (docs/FORMAT.md)
//! DIR/work/M-O-0-0.mdb   during generate: tables with plies kept for later units
//! DIR/no-removal-L/M-O-MH-OH.mdb  the tables of the no-removal rule, limit L
//! ```

use crate::children::{derive_distances, derive_plies};
use crate::index::{Indexer, Subspace};
use crate::plan::{Limits, all_sectors};
use crate::rules::Rules;
use crate::solver::{Known, SolveError};
use crate::storage::{self, Encoding, FORMAT_VERSION, StorageError, Table, corrupt, io_err};
use crate::value::{Cell, Counts};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// File name of the manifest in a database directory.
pub const MANIFEST: &str = "millbase.json";

/// Subdirectory of a database holding work files: complete tables (plies
/// included) of subspaces whose database file stores no plies, kept from their
/// solving until the last pair or placement sector whose moves lead into them
/// is solved.
pub const WORK_DIR: &str = "work";

/// The manifest of a database directory (`millbase.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The file format version of the millbase that created the directory.
    #[serde(default)]
    pub format: u32,
    /// The rule variant, [`Rules::name`].
    pub rules: String,
}

/// The file name of a subspace in a database directory.
pub fn file_name(sub: Subspace) -> String {
    format!(
        "{}-{}-{}-{}.mdb",
        sub.mover, sub.opponent, sub.mover_hand, sub.opponent_hand
    )
}

/// The encoding of `sub`'s database file: plies are stored in the movement
/// subspaces where the side to move has at least as many stones on the board
/// as the other, and in the placement sectors with Black to move; the others
/// store win, draw or loss only. Every move from a movement position with
/// `m < o` stones leads to `o-m` or, removing, to `(o-1)-m` with `o - 1 >= m`;
/// every move from a placement position with White to move (both hands equal)
/// leads to a sector with Black to move. Both store plies, so one ply of search
/// always recovers the plies. This halves the plies stored; the win/draw/loss
/// stream is kept everywhere.
pub fn encoding_for(sub: Subspace) -> Encoding {
    if stores_plies(sub) {
        Encoding::WdlPlies
    } else {
        Encoding::WdlOnly
    }
}

/// The encoding of `sub`'s table of the no-removal rule: distances where the
/// game's file stores plies, counts only elsewhere (the distances then follow
/// by one ply, as the plies do).
pub fn rule_encoding_for(sub: Subspace) -> Encoding {
    if stores_plies(sub) {
        Encoding::DistanceCode
    } else {
        Encoding::CountsOnly
    }
}

/// Whether `sub`'s database file stores plies (see [`encoding_for`]).
pub fn stores_plies(sub: Subspace) -> bool {
    if sub.is_movement() {
        sub.mover >= sub.opponent
    } else {
        // Black to move: Black has one stone more in hand than White
        sub.mover_hand > sub.opponent_hand
    }
}

/// A failure to read, load or build the tables of a database directory.
#[derive(Debug)]
pub enum DbError {
    /// A file or directory fault.
    Storage(StorageError),
    /// A table's values are inconsistent, or a needed table is missing.
    Solve(SolveError),
    /// Work on `subspace` needs the tables its moves lead to, and one failed.
    Needs {
        /// The subspace worked on.
        subspace: Subspace,
        /// Why a table it needs failed.
        source: Box<DbError>,
    },
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Storage(e) => e.fmt(f),
            DbError::Solve(e) => e.fmt(f),
            DbError::Needs { subspace, source } => write!(
                f,
                "subspace {subspace} needs the tables its moves lead to (its colour swap \
                 and, after a removal, one stone fewer): {source}"
            ),
        }
    }
}

impl std::error::Error for DbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DbError::Storage(e) => Some(e),
            DbError::Solve(e) => Some(e),
            DbError::Needs { source, .. } => Some(source.as_ref()),
        }
    }
}

impl From<StorageError> for DbError {
    fn from(e: StorageError) -> Self {
        DbError::Storage(e)
    }
}

impl From<SolveError> for DbError {
    fn from(e: SolveError) -> Self {
        DbError::Solve(e)
    }
}

/// Subdirectory `no-removal-L` of a database: the tables of the no-removal
/// rule with move limit `L` ([`crate::counter`]), one file per subspace.
pub const RULE_DIR_PREFIX: &str = "no-removal-";

/// File name of the lock a writer holds on a database directory.
pub const LOCK: &str = "millbase.lock";

/// A database directory of one rule variant. One opened for writing
/// ([`DbDir::create`], [`DbDir::open_for_writing`]) holds the directory's lock
/// until it is dropped.
#[derive(Clone, Debug)]
pub struct DbDir {
    path: PathBuf,
    rules: Rules,
    lock: Option<Arc<File>>,
}

impl DbDir {
    /// Opens the database directory `path` for writing the `rules` variant,
    /// creating it and its manifest if needed, and takes its lock.
    ///
    /// Refuses, touching nothing, a directory that holds other files and no
    /// manifest, a manifest of the other variant or of a newer millbase, and
    /// (where the manifest was lost) database files of the other variant;
    /// files of this variant get their manifest back.
    pub fn create(path: &Path, rules: Rules) -> Result<DbDir, StorageError> {
        std::fs::create_dir_all(path).map_err(io_err(path))?;
        if read_manifest(path)?.is_none() {
            refuse_foreign_content(path, rules)?;
        }
        let mut db = DbDir::at(path, rules);
        db.lock()?;
        let manifest = path.join(MANIFEST);
        match read_manifest(path)? {
            Some(found) if found != rules => Err(StorageError::WrongVariant {
                path: manifest,
                found: found.name(),
                expected: rules.name(),
            }),
            Some(_) => Ok(db),
            None => {
                let m = Manifest {
                    format: FORMAT_VERSION,
                    rules: rules.name().to_string(),
                };
                let text = serde_json::to_string(&m).expect("a manifest serialises");
                storage::write_atomic(&manifest, |f| writeln!(f, "{text}"))?;
                Ok(db)
            }
        }
    }

    /// Opens the existing database directory `path`, with the rule variant its
    /// manifest names. Readers take no lock.
    pub fn open(path: &Path) -> Result<DbDir, StorageError> {
        match read_manifest(path)? {
            Some(rules) => Ok(DbDir::at(path, rules)),
            None if !path.is_dir() => Err(StorageError::NoDatabase {
                path: path.to_path_buf(),
            }),
            None => Err(StorageError::Refused {
                path: path.to_path_buf(),
                reason: format!(
                    "no {MANIFEST}: not a millbase database. If it is one whose manifest \
                     was lost, `millbase generate --db {}` with the variant's flag \
                     (--no-flying or none) restores it",
                    path.display()
                ),
            }),
        }
    }

    /// Opens the existing database directory `path` and takes its lock.
    pub fn open_for_writing(path: &Path) -> Result<DbDir, StorageError> {
        let mut db = DbDir::open(path)?;
        db.lock()?;
        Ok(db)
    }

    /// Takes the directory's exclusive lock: an operating-system file lock, so
    /// it dies with the process. Fails, naming the holder, if another process
    /// holds it; also fails here, before any work, if the directory is not
    /// writable.
    fn lock(&mut self) -> Result<(), StorageError> {
        let path = self.path.join(LOCK);
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_err(&path))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let holder = std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|t| t.trim().parse().ok());
                return Err(StorageError::Locked { path, holder });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io_err(&path)(e)),
        }
        let pid = std::process::id().to_string();
        file.set_len(0)
            .and_then(|()| file.write_all(pid.as_bytes()))
            .map_err(io_err(&path))?;
        self.lock = Some(Arc::new(file));
        Ok(())
    }

    fn at(path: &Path, rules: Rules) -> DbDir {
        DbDir {
            path: path.to_path_buf(),
            rules,
            lock: None,
        }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its rule variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The database file of `sub`.
    pub fn table_path(&self, sub: Subspace) -> PathBuf {
        self.path.join(file_name(sub))
    }

    /// The directory of the tables of the no-removal rule with `move_limit`.
    pub fn rule_dir(&self, move_limit: u16) -> PathBuf {
        self.path.join(format!("{RULE_DIR_PREFIX}{move_limit}"))
    }

    /// The move limits whose rule tables the directory holds, ascending.
    pub fn move_limits(&self) -> Vec<u16> {
        let mut v: Vec<u16> = std::fs::read_dir(&self.path)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                if !is_rule_dir(&name) || !e.path().is_dir() {
                    return None;
                }
                name.strip_prefix(RULE_DIR_PREFIX)?.parse().ok()
            })
            .collect();
        v.sort_unstable();
        v
    }

    /// Opens the rule table of `sub` for `move_limit` and checks its header:
    /// the variant, the subspace and an encoding of rule tables: the one
    /// [`rule_encoding_for`] gives (a table of the earlier layouts may store
    /// distances where that encoding stores counts only).
    pub fn open_rule_table(&self, move_limit: u16, sub: Subspace) -> Result<Table, StorageError> {
        self.open_rule_file(&self.rule_dir(move_limit).join(file_name(sub)), sub)
    }

    fn open_rule_file(&self, path: &Path, sub: Subspace) -> Result<Table, StorageError> {
        let t = Table::open(path, self.rules, sub)?;
        let want = rule_encoding_for(sub);
        if !matches!(
            (t.header.encoding, want),
            (
                Encoding::DistanceCode | Encoding::Distance | Encoding::WdlDistance,
                _
            ) | (Encoding::CountsOnly, Encoding::CountsOnly)
        ) {
            return Err(corrupt(
                path,
                format!(
                    "entry encoding {:?}, expected {want:?} for {sub}",
                    t.header.encoding
                ),
            ));
        }
        Ok(t)
    }

    /// Writes the rule table of `sub` for `move_limit` atomically in the
    /// encoding [`rule_encoding_for`] gives it, along the game's table `game`
    /// of `sub`; returns the bytes written.
    pub fn write_rule_table(
        &self,
        move_limit: u16,
        sub: Subspace,
        cells: &[Cell],
        game: &[Cell],
        counts: Counts,
    ) -> Result<u64, StorageError> {
        let dir = self.rule_dir(move_limit);
        let encoding = rule_encoding_for(sub);
        self.write_rule_file(&dir, sub, (cells, game), counts, encoding)
    }

    /// The work file of the rule table of `sub` for `move_limit`: its
    /// distances where its file stores counts only (see [`WORK_DIR`]).
    pub fn rule_work_path(&self, move_limit: u16, sub: Subspace) -> PathBuf {
        self.rule_dir(move_limit)
            .join(WORK_DIR)
            .join(file_name(sub))
    }

    /// Opens the work file of the rule table of `sub` for `move_limit` and
    /// checks its header.
    pub fn open_rule_work_table(
        &self,
        move_limit: u16,
        sub: Subspace,
    ) -> Result<Table, StorageError> {
        self.open_rule_file(&self.rule_work_path(move_limit, sub), sub)
    }

    /// Writes the work file of the rule table of `sub` (every distance)
    /// atomically, compressed for speed rather than size (it lives only
    /// during `generate`); returns the bytes written.
    pub fn write_rule_work_table(
        &self,
        move_limit: u16,
        sub: Subspace,
        cells: &[Cell],
        game: &[Cell],
        counts: Counts,
    ) -> Result<u64, StorageError> {
        let path = self.rule_work_path(move_limit, sub);
        create_parent(&path)?;
        storage::write_rule_work_table(&path, self.rules, sub, (cells, game), counts)
    }

    /// Writes the rule table `cells` of `sub` into `dir` in `encoding`
    /// ([`Encoding::DistanceCode`] or [`Encoding::CountsOnly`]).
    fn write_rule_file(
        &self,
        dir: &Path,
        sub: Subspace,
        (cells, game): (&[Cell], &[Cell]),
        counts: Counts,
        encoding: Encoding,
    ) -> Result<u64, StorageError> {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        let path = dir.join(file_name(sub));
        if encoding != Encoding::CountsOnly {
            return storage::write_rule_table(
                &path,
                self.rules,
                sub,
                (cells, game),
                counts,
                encoding,
            );
        }
        if game.len() != cells.len() {
            return Err(io_err(&path)(std::io::Error::other(
                "the game's table has another size",
            )));
        }
        let entries = cells.len() as u64;
        storage::write_rule_counts(&path, self.rules, sub, entries, counts)
    }

    /// The game's win, draw or loss of every entry of `sub` (wins and losses
    /// may lack their plies): what a rule table decodes along.
    pub fn read_outcomes(&self, sub: Subspace) -> Result<Vec<Cell>, StorageError> {
        self.open_table(sub)?.read_outcomes()
    }

    /// Reads (and checks) the whole rule table of `sub` for `move_limit`.
    /// Where its file stores counts only, the distances come from its work
    /// file if a valid one is there, else by one ply from the children's
    /// tables ([`derive_distances`]).
    pub fn read_rule_table(
        &self,
        ix: &Indexer,
        move_limit: u16,
        sub: Subspace,
    ) -> Result<Vec<Cell>, DbError> {
        let table = self.open_rule_table(move_limit, sub)?;
        let game = self.read_outcomes(sub)?;
        if table.header.encoding != Encoding::CountsOnly {
            return Ok(table.read_rule(&game)?);
        }
        if let Ok(work) = self.open_rule_work_table(move_limit, sub)
            && work.header.counts == table.header.counts
            && let Ok(cells) = work.read_rule(&game)
        {
            return Ok(cells);
        }
        let mut children = Known::new();
        for c in sub.successors() {
            let t = self.open_rule_table(move_limit, c)?;
            children.insert(c, t.read_rule(&self.read_outcomes(c)?)?);
        }
        Ok(derive_distances(
            ix, self.rules, sub, &game, move_limit, &children,
        )?)
    }

    /// Loads the rule tables of `subs` for `move_limit` into `known` (those not
    /// there yet).
    pub fn load_rule_tables(
        &self,
        ix: &Indexer,
        move_limit: u16,
        subs: &[Subspace],
        known: &mut Known,
    ) -> Result<(), DbError> {
        for &s in subs {
            if !known.contains(s) {
                known.insert(s, self.read_rule_table(ix, move_limit, s)?);
            }
        }
        Ok(())
    }

    /// The work file of `sub` (see [`WORK_DIR`]).
    pub fn work_path(&self, sub: Subspace) -> PathBuf {
        self.path.join(WORK_DIR).join(file_name(sub))
    }

    /// Opens the file of `sub` and checks its header and tables: the variant,
    /// the subspace and (format 2) the encoding [`encoding_for`] gives it (a
    /// placement file of the earlier layout may store plies where that
    /// encoding stores none).
    pub fn open_table(&self, sub: Subspace) -> Result<Table, StorageError> {
        let path = self.table_path(sub);
        let t = Table::open(&path, self.rules, sub)?;
        let want = encoding_for(sub);
        // placement files of the first format-2 layout stored plies everywhere:
        // still read (`millbase upgrade` drops what is not needed)
        let earlier_layout = !sub.is_movement() && t.header.encoding == Encoding::WdlPlies;
        if t.header.version > 1 && t.header.encoding != want && !earlier_layout {
            return Err(corrupt(
                &path,
                format!(
                    "entry encoding {:?}, expected {want:?} for {sub}",
                    t.header.encoding
                ),
            ));
        }
        Ok(t)
    }

    /// Opens the work file of `sub`, which must store plies.
    pub fn open_work_table(&self, sub: Subspace) -> Result<Table, StorageError> {
        let path = self.work_path(sub);
        let t = Table::open(&path, self.rules, sub)?;
        if !t.has_plies() {
            return Err(corrupt(&path, "stores no plies"));
        }
        Ok(t)
    }

    /// Writes the database file of `sub` atomically in its encoding; returns
    /// the bytes written.
    pub fn write_table(
        &self,
        sub: Subspace,
        cells: &[Cell],
        counts: Counts,
    ) -> Result<u64, StorageError> {
        let path = self.table_path(sub);
        storage::write_table(&path, self.rules, sub, cells, counts, encoding_for(sub))
    }

    /// Writes the work file of `sub` (plies included) atomically.
    pub fn write_work_table(
        &self,
        sub: Subspace,
        cells: &[Cell],
        counts: Counts,
    ) -> Result<u64, StorageError> {
        let path = self.work_path(sub);
        create_parent(&path)?;
        storage::write_table(&path, self.rules, sub, cells, counts, Encoding::WdlPlies)
    }

    /// Removes the work files of `subs`, the game's and the rule's.
    pub fn remove_work_files(&self, subs: &[Subspace]) {
        for &s in subs {
            let _ = std::fs::remove_file(self.work_path(s));
            for l in self.move_limits() {
                let _ = std::fs::remove_file(self.rule_work_path(l, s));
            }
        }
    }

    /// Removes the temporary files an interrupted millbase left behind, in the
    /// directory and its work directory: only millbase's own ([`is_temporary`]),
    /// and only under the lock.
    pub fn remove_stale_temporaries(&self) {
        if self.lock.is_none() {
            return;
        }
        let rule_dirs = (self.move_limits().into_iter())
            .flat_map(|l| [self.rule_dir(l), self.rule_dir(l).join(WORK_DIR)]);
        for dir in [self.path.clone(), self.path.join(WORK_DIR)]
            .into_iter()
            .chain(rule_dirs)
        {
            if let Ok(entries) = std::fs::read_dir(&dir) {
                for e in entries.flatten() {
                    if is_temporary(&e.file_name().to_string_lossy()) {
                        let _ = std::fs::remove_file(e.path());
                    }
                }
            }
        }
    }

    /// The movement subspaces whose files are in the directory, in solving order.
    pub fn present(&self) -> Vec<Subspace> {
        all_sectors(Limits::default())
            .into_iter()
            .filter(|&s| self.table_path(s).exists())
            .collect()
    }

    /// Loads the complete tables (plies included) of `subs` into `known` (those
    /// not there yet). Where a file stores no plies, they come from its work file
    /// if a valid one is there, else from a one-ply search over the children of
    /// every win and loss ([`derive_plies`]).
    pub fn load_known(
        &self,
        ix: &Indexer,
        subs: &[Subspace],
        known: &mut Known,
    ) -> Result<(), DbError> {
        for &s in subs {
            if !known.contains(s) {
                let cells = self.load_complete(ix, s)?;
                known.insert(s, cells);
            }
        }
        Ok(())
    }

    fn load_complete(&self, ix: &Indexer, sub: Subspace) -> Result<Vec<Cell>, DbError> {
        let table = self.open_table(sub)?;
        if table.has_plies() {
            return Ok(table.read_all()?);
        }
        if let Ok(work) = self.open_work_table(sub)
            && work.header.counts == table.header.counts
            && let Ok(cells) = work.read_all()
        {
            return Ok(cells);
        }
        let mut children = Known::new();
        for c in sub.successors() {
            children.insert(c, self.open_table(c)?.read_all()?);
        }
        Ok(derive_plies(
            ix,
            self.rules,
            sub,
            table.read_all()?,
            &children,
        )?)
    }
}

/// Creates the directory a file at `path` goes into (a work directory),
/// if it is not there.
fn create_parent(path: &Path) -> Result<(), StorageError> {
    match path.parent() {
        Some(dir) => std::fs::create_dir_all(dir).map_err(io_err(dir)),
        None => Ok(()),
    }
}

/// Whether `name` is the name of a directory of rule tables (`no-removal-L`).
fn is_rule_dir(name: &str) -> bool {
    name.strip_prefix(RULE_DIR_PREFIX)
        .and_then(|l| l.parse::<u16>().ok())
        .is_some_and(|l| format!("{RULE_DIR_PREFIX}{l}") == name)
}

/// Whether `name` is a temporary file of millbase: `NAME.PID.millbase-tmp`, or
/// `NAME.tmp` of a database file or manifest (as older versions named them).
pub fn is_temporary(name: &str) -> bool {
    if name.ends_with(storage::TEMPORARY_SUFFIX) {
        return true;
    }
    name.strip_suffix(".tmp")
        .is_some_and(|n| n == MANIFEST || subspace_of_file_name(n).is_some())
}

/// The subspace a database file name (`M-O-MH-OH.mdb`) names.
pub fn subspace_of_file_name(name: &str) -> Option<Subspace> {
    let stem = name.strip_suffix(".mdb")?;
    let n: Vec<u8> = stem
        .split('-')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    let &[mover, opponent, mover_hand, opponent_hand] = n.as_slice() else {
        return None;
    };
    let sub = Subspace {
        mover,
        opponent,
        mover_hand,
        opponent_hand,
    };
    (file_name(sub) == name).then_some(sub)
}

/// Checks a directory without a manifest before millbase writes into it: it
/// must be empty but for millbase's own files, and database files in it must
/// be of `rules` (their manifest was lost; it is then written again).
fn refuse_foreign_content(dir: &Path, rules: Rules) -> Result<(), StorageError> {
    let entries = std::fs::read_dir(dir).map_err(io_err(dir))?;
    let (mut foreign, mut other_variant) = (vec![], vec![]);
    for e in entries {
        let e = e.map_err(io_err(dir))?;
        let name = e.file_name().to_string_lossy().to_string();
        if let Some(sub) = subspace_of_file_name(&name) {
            match Table::open(&e.path(), rules, sub) {
                Err(StorageError::WrongVariant { found, .. }) => {
                    other_variant.push(format!("{name} ({found})"))
                }
                Err(StorageError::OtherSubspace { .. }) | Err(StorageError::Io { .. }) => {
                    foreign.push(name)
                }
                _ => {}
            }
        } else if !(name == WORK_DIR
            || name == LOCK
            || is_temporary(&name)
            || is_rule_dir(&name) && e.path().is_dir())
        {
            foreign.push(name);
        }
    }
    let list = |v: &[String]| {
        let shown: Vec<&str> = v.iter().take(5).map(String::as_str).collect();
        let more = if v.len() > 5 {
            format!(" and {} more", v.len() - 5)
        } else {
            String::new()
        };
        format!("{}{more}", shown.join(", "))
    };
    if !other_variant.is_empty() {
        let flag = Rules {
            flying: !rules.flying,
        }
        .flag();
        return Err(StorageError::Refused {
            path: dir.to_path_buf(),
            reason: format!(
                "no {MANIFEST}, and its database files are not of the {} rules: {}. \
                 Nothing was changed. To restore the manifest and resume, run generate \
                 with the files' variant (e.g. `millbase generate --db {}{flag}`); \
                 or use another directory",
                rules.name(),
                list(&other_variant),
                dir.display()
            ),
        });
    }
    if !foreign.is_empty() {
        return Err(StorageError::Refused {
            path: dir.to_path_buf(),
            reason: format!(
                "not empty and not a millbase database (no {MANIFEST}; it holds {}). \
                 Nothing was changed: choose a new or empty directory",
                list(&foreign)
            ),
        });
    }
    Ok(())
}

/// The rule variant named by the manifest of `dir`, or `None` if it has none.
fn read_manifest(dir: &Path) -> Result<Option<Rules>, StorageError> {
    let path = dir.join(MANIFEST);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(&path)(e)),
    };
    let m: Manifest = serde_json::from_str(&text)
        .map_err(|e| corrupt(&path, format!("not a valid manifest: {e}")))?;
    if m.format > FORMAT_VERSION {
        return Err(StorageError::Refused {
            path: path.clone(),
            reason: format!(
                "written by a newer millbase (format {}; this one reads up to {FORMAT_VERSION}): \
                 use that version, or build the database again in another directory",
                m.format
            ),
        });
    }
    Rules::from_name(&m.rules)
        .map(Some)
        .ok_or_else(|| corrupt(&path, format!("unknown rules {:?}", m.rules)))
}
