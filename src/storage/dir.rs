//! A database directory: its manifest, the file of each subspace, the work files
//! of a generation and their temporaries, which subspaces are present, and
//! complete tables loaded from it.
//!
//! ```text
//! DIR/millbase.json      the manifest: format and rule variant
//! DIR/M-O-0-0.mdb        one file per subspace (docs/FORMAT.md)
//! DIR/work/M-O-0-0.mdb   during generate: tables with plies kept for later units
//! DIR/no-removal-L/M-O-MH-OH.mdb  the tables of the no-removal rule, limit L
//! DIR/reports/M-O-MH-OH.mdb.json  the statistics of each table
//! ```

use crate::index::Subspace;
use crate::index::plan::{Limits, all_sectors};
use crate::rules::ruleset::{Rules, RulesSpec, label};
use crate::rules::variant::{MAX_MOVE_LIMIT, Variant};
use crate::solve::known::{Kind, SolveError};
use crate::solve::value::{Cell, Counts};
use crate::storage::{self, Encoding, FORMAT_VERSION, Speed, StorageError, Table, corrupt, io_err};
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

/// Subdirectory of a database keeping the statistics of each table
/// (`answer::records::SectorReport`), written by `generate` or by the reader
/// that first needs them.
pub const REPORT_DIR: &str = "reports";

/// The manifest of a database directory (`millbase.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The file format version of the millbase that created the directory.
    #[serde(default)]
    pub format: u32,
    /// The rule variant, [`Variant::name`] (key `rules`).
    #[serde(rename = "rules")]
    pub variant: String,
    /// The whole description of the rules ([`Rules::spec`]); absent from
    /// the manifests of older versions, where `rules` alone names them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<RulesSpec>,
    /// Their fingerprint ([`Rules::fingerprint`]) in 16 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
}

impl Manifest {
    /// The manifest of a new directory for `variant`.
    pub fn new(variant: Variant) -> Manifest {
        let rules = variant.rules();
        Manifest {
            format: FORMAT_VERSION,
            variant: variant.name().to_string(),
            ruleset: Some(rules.spec()),
            fingerprint: Some(format!("{:016x}", rules.fingerprint())),
        }
    }

    /// The variant the manifest names, its description and fingerprint
    /// checked against it where they are given.
    fn checked(&self, path: &Path) -> Result<Variant, StorageError> {
        let described = (self.ruleset.as_ref())
            .map(|spec| {
                Rules::new(spec.clone())
                    .map_err(|e| corrupt(path, format!("its rules are not valid: {e}")))
            })
            .transpose()?;
        let variant = match (Variant::from_name(&self.variant), &described) {
            (Some(v), _) => v,
            (None, Some(rules)) => {
                Variant::of_rules(rules).map_err(|e| corrupt(path, e.to_string()))?
            }
            (None, None) => {
                return Err(corrupt(
                    path,
                    format!(
                        "unknown rules {:?}, and no description of them",
                        self.variant
                    ),
                ));
            }
        };
        let theirs = variant.rules();
        if let Some(rules) = &described
            && rules.fingerprint() != theirs.fingerprint()
        {
            return Err(corrupt(
                path,
                format!("its description of the rules is {rules}, not the rules {theirs} it names"),
            ));
        }
        let hex = format!("{:016x}", theirs.fingerprint());
        match &self.fingerprint {
            Some(f) if *f != hex => Err(corrupt(
                path,
                format!("the rules' fingerprint is {f}, but the rules {theirs} have {hex}"),
            )),
            _ => Ok(variant),
        }
    }
}

/// The file name of a subspace in a database directory.
pub fn file_name(sub: Subspace) -> String {
    format!(
        "{}-{}-{}-{}.mdb",
        sub.mover, sub.opponent, sub.mover_hand, sub.opponent_hand
    )
}

// a rule table's distance, at most the largest move limit, fits its byte
const _: () = assert!(MAX_MOVE_LIMIT <= crate::storage::codec::distance::MAX_DISTANCE);

/// The encoding of `sub`'s table of `kind`. The game's files store plies
/// in the movement subspaces where the side to move has at least as many
/// stones on the board as the other, and in the placement sectors with Black
/// to move; the others store win, draw or loss only. Every move from a
/// movement position with `m < o` stones leads to `o-m` or, removing, to
/// `(o-1)-m` with `o - 1 >= m`; every move from a placement position with
/// White to move (both hands equal) leads to a sector with Black to move. Both
/// store plies, so one ply of search always recovers the plies. This halves
/// the plies stored; the win/draw/loss stream is kept everywhere. The rule's
/// tables store distances where the game's store plies, and counts only
/// elsewhere (the distances then follow by one ply, as the plies do).
pub fn encoding_for(kind: Kind, sub: Subspace) -> Encoding {
    match (kind, stores_plies(sub)) {
        (Kind::Game, true) => Encoding::WdlPlies,
        (Kind::Game, false) => Encoding::WdlOnly,
        (Kind::Rule(_), true) => Encoding::DistanceCode,
        (Kind::Rule(_), false) => Encoding::CountsOnly,
    }
}

/// The encoding of a work file of `kind`: every value, plies or distances.
pub fn work_encoding(kind: Kind) -> Encoding {
    match kind {
        Kind::Game => Encoding::WdlPlies,
        Kind::Rule(_) => Encoding::DistanceCode,
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
/// rule with move limit `L` ([`crate::solve::counter`]), one file per subspace.
pub const RULE_DIR_PREFIX: &str = "no-removal-";

/// File name of the lock a writer holds on a database directory.
pub const LOCK: &str = "millbase.lock";

/// A database directory of one rule variant. One opened for writing
/// ([`DbDir::create`], [`DbDir::open_for_writing`]) holds the directory's lock
/// until it is dropped.
#[derive(Clone, Debug)]
pub struct DbDir {
    path: PathBuf,
    variant: Variant,
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
    pub fn create(path: &Path, variant: Variant) -> Result<DbDir, StorageError> {
        std::fs::create_dir_all(path).map_err(io_err(path))?;
        if read_manifest(path)?.is_none() {
            refuse_foreign_content(path, variant)?;
        }
        let mut db = DbDir::at(path, variant);
        db.lock()?;
        let manifest = path.join(MANIFEST);
        match read_manifest(path)? {
            Some(found) if found != variant => Err(StorageError::WrongVariant {
                path: manifest,
                found: label(found.fingerprint()),
                expected: label(variant.fingerprint()),
            }),
            Some(_) => Ok(db),
            None => {
                let m = Manifest::new(variant);
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
            Some(variant) => Ok(DbDir::at(path, variant)),
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

    fn at(path: &Path, variant: Variant) -> DbDir {
        DbDir {
            path: path.to_path_buf(),
            variant,
            lock: None,
        }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its rule variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The directory that holds the tables of `kind`: the database's own for
    /// the game's, `no-removal-L` for the rule's with limit `L`.
    pub fn dir_of(&self, kind: Kind) -> PathBuf {
        match kind {
            Kind::Game => self.path.clone(),
            Kind::Rule(limit) => self.path.join(format!("{RULE_DIR_PREFIX}{limit}")),
        }
    }

    /// The file of `sub`'s table of `kind`.
    pub fn table_path(&self, kind: Kind, sub: Subspace) -> PathBuf {
        self.dir_of(kind).join(file_name(sub))
    }

    /// The work file of `sub`'s table of `kind`: every value (plies or
    /// distances) where its file stores fewer (see [`WORK_DIR`]).
    pub fn work_path(&self, kind: Kind, sub: Subspace) -> PathBuf {
        self.dir_of(kind).join(WORK_DIR).join(file_name(sub))
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

    /// The one move limit whose rule tables the directory holds, if it holds
    /// any: `asked` when given (and there), else the only one. A directory
    /// with tables for several limits needs `asked`; it is refused without.
    pub fn move_limit(&self, asked: Option<u16>) -> Result<Option<u16>, StorageError> {
        let limits = self.move_limits();
        match (asked, limits.as_slice()) {
            (Some(l), _) if limits.contains(&l) => Ok(Some(l)),
            (Some(l), _) => Err(StorageError::Refused {
                path: self.dir_of(Kind::Rule(l)),
                reason: format!(
                    "no tables of the no-removal rule with move limit {l} (the database holds {})",
                    if limits.is_empty() {
                        "none".to_string()
                    } else {
                        format!("limits {limits:?}")
                    }
                ),
            }),
            (None, []) => Ok(None),
            (None, [l]) => Ok(Some(*l)),
            (None, _) => Err(StorageError::Refused {
                path: self.path.clone(),
                reason: format!(
                    "holds tables of the no-removal rule for the move limits {limits:?}: \
                     choose one with --rule-limit L"
                ),
            }),
        }
    }

    /// Opens `sub`'s table of `kind` and checks its header: the variant, the
    /// subspace, and an encoding of that kind: the one [`encoding_for`]
    /// gives, or one of the earlier layouts still read (format 1; placement
    /// files that store plies everywhere; rule tables that store distances
    /// where counts would do).
    pub fn open_table(&self, kind: Kind, sub: Subspace) -> Result<Table, StorageError> {
        let earlier = |found, version| match kind {
            Kind::Game => version == 1 || (!sub.is_movement() && found == Encoding::WdlPlies),
            Kind::Rule(_) => matches!(
                found,
                Encoding::DistanceCode | Encoding::Distance | Encoding::WdlDistance
            ),
        };
        let want = encoding_for(kind, sub);
        self.open_file(&self.table_path(kind, sub), sub, want, earlier)
    }

    /// Opens the work file of `sub`'s table of `kind` and checks that it
    /// stores every value in its encoding ([`work_encoding`]).
    pub fn open_work_table(&self, kind: Kind, sub: Subspace) -> Result<Table, StorageError> {
        let want = work_encoding(kind);
        self.open_file(&self.work_path(kind, sub), sub, want, |_, _| false)
    }

    /// Opens `path`, a file of `sub`, and checks its header: its encoding is
    /// `want`, or one that `earlier` accepts (given the format version).
    fn open_file(
        &self,
        path: &Path,
        sub: Subspace,
        want: Encoding,
        earlier: impl FnOnce(Encoding, u32) -> bool,
    ) -> Result<Table, StorageError> {
        let t = Table::open(path, self.variant, sub)?;
        let found = t.header.encoding;
        if found != want && !earlier(found, t.header.version) {
            return Err(corrupt(
                path,
                format!("entry encoding {found:?}, expected {want:?} for {sub}"),
            ));
        }
        Ok(t)
    }

    /// Writes `sub`'s table `cells` of `kind` atomically in the encoding
    /// [`encoding_for`] gives it; a rule table is written along the game's
    /// table `game` of `sub` (outcomes at least). Returns the bytes written.
    pub fn write_table(
        &self,
        kind: Kind,
        sub: Subspace,
        cells: &[Cell],
        game: Option<&[Cell]>,
        counts: Counts,
    ) -> Result<u64, StorageError> {
        let to = (
            self.table_path(kind, sub),
            encoding_for(kind, sub),
            Speed::Small,
        );
        self.write_file(to, sub, (cells, game), counts)
    }

    /// Writes the work file of `sub`'s table `cells` of `kind` (every value)
    /// atomically, compressed for speed rather than size (it lives only
    /// during `generate`); returns the bytes written.
    pub fn write_work_table(
        &self,
        kind: Kind,
        sub: Subspace,
        cells: &[Cell],
        game: Option<&[Cell]>,
        counts: Counts,
    ) -> Result<u64, StorageError> {
        let to = (self.work_path(kind, sub), work_encoding(kind), Speed::Fast);
        self.write_file(to, sub, (cells, game), counts)
    }

    /// Writes a table of `sub` to `path` in `encoding` at `speed`, creating
    /// its folder if needed.
    fn write_file(
        &self,
        (path, encoding, speed): (PathBuf, Encoding, Speed),
        sub: Subspace,
        tables: (&[Cell], Option<&[Cell]>),
        counts: Counts,
    ) -> Result<u64, StorageError> {
        create_parent(&path)?;
        storage::write_table(&path, self.variant, sub, tables, counts, encoding, speed)
    }

    /// The game's win, draw or loss of every entry of `sub` (wins and losses
    /// may lack their plies): what a rule table decodes along.
    pub fn read_outcomes(&self, sub: Subspace) -> Result<Vec<Cell>, StorageError> {
        self.open_table(Kind::Game, sub)?.read_outcomes()
    }

    /// The values `table` (`sub`'s of `kind`, opened from this directory)
    /// stores, decoded whole: wins and losses without plies where a game's
    /// file stores none; an error for a rule table that stores counts only.
    pub fn read_stored(
        &self,
        kind: Kind,
        sub: Subspace,
        table: &Table,
    ) -> Result<Vec<Cell>, StorageError> {
        match kind {
            Kind::Game => table.read_all(),
            Kind::Rule(_) => table.read_along(&self.read_outcomes(sub)?),
        }
    }

    /// Removes the work files of `subs`, the game's and the rule's.
    pub fn remove_work_files(&self, subs: &[Subspace]) {
        let kinds: Vec<Kind> = std::iter::once(Kind::Game)
            .chain(self.move_limits().into_iter().map(Kind::Rule))
            .collect();
        for &s in subs {
            for &k in &kinds {
                let _ = std::fs::remove_file(self.work_path(k, s));
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
        let kinds =
            std::iter::once(Kind::Game).chain(self.move_limits().into_iter().map(Kind::Rule));
        for dir in kinds.flat_map(|k| [self.dir_of(k), self.dir_of(k).join(WORK_DIR)]) {
            if let Ok(entries) = std::fs::read_dir(&dir) {
                for e in entries.flatten() {
                    if is_temporary(&e.file_name().to_string_lossy()) {
                        let _ = std::fs::remove_file(e.path());
                    }
                }
            }
        }
    }

    /// The movement subspaces and placement sectors whose game files are in
    /// the directory, in solving order.
    pub fn present(&self) -> Vec<Subspace> {
        all_sectors(Limits::default())
            .into_iter()
            .filter(|&s| self.table_path(Kind::Game, s).exists())
            .collect()
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
fn refuse_foreign_content(dir: &Path, variant: Variant) -> Result<(), StorageError> {
    let entries = std::fs::read_dir(dir).map_err(io_err(dir))?;
    let (mut foreign, mut other_variant) = (vec![], vec![]);
    for e in entries {
        let e = e.map_err(io_err(dir))?;
        let name = e.file_name().to_string_lossy().to_string();
        if let Some(sub) = subspace_of_file_name(&name) {
            match Table::open(&e.path(), variant, sub) {
                Err(StorageError::WrongVariant { found, .. }) => {
                    other_variant.push(format!("{name} ({found})"))
                }
                Err(StorageError::OtherSubspace { .. }) | Err(StorageError::Io { .. }) => {
                    foreign.push(name)
                }
                _ => {}
            }
        } else if !(name == WORK_DIR
            || name == REPORT_DIR && e.path().is_dir()
            || name == crate::storage::orbits::INDEX_DIR && e.path().is_dir()
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
        let flag = match variant.nine_flying() {
            Some(flying) => Variant::nine(!flying).flag(),
            None => " --rules NAME".into(),
        };
        return Err(StorageError::Refused {
            path: dir.to_path_buf(),
            reason: format!(
                "no {MANIFEST}, and its database files are not of the {} rules: {}. \
                 Nothing was changed. To restore the manifest and resume, run generate \
                 with the files' variant (e.g. `millbase generate --db {}{flag}`); \
                 or use another directory",
                variant.name(),
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
fn read_manifest(dir: &Path) -> Result<Option<Variant>, StorageError> {
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
    m.checked(&path).map(Some)
}
