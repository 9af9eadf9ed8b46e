//! Generation of a database: the movement subspace pairs in dependency order,
//! then the placement sectors, resuming what a directory already holds.

use crate::build::complete::load_known;
use crate::index::plan::{Limits, all_sectors, placement_plan, plan};
use crate::index::{Indexer, Subspace};
use crate::rules::variant::MAX_MOVE_LIMIT;
use crate::rules::variant::Variant;
use crate::solve::known::{Kind, Known, SolveError};
use crate::solve::placement;
use crate::solve::solver::{self, Layer, NoProgress, Progress, Solved};
use crate::solve::value::Cell;
use crate::solve::value::Counts;
use crate::storage::dir::{DbDir, DbError, encoding_for};
use crate::storage::orbits::DirOrbits;
use crate::storage::reports::{TableKey, keep_report};
use crate::storage::{self, Encoding, StorageError, Table};
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

/// What happened to one subspace.
#[derive(Clone, Debug)]
pub struct Report {
    /// The subspace.
    pub subspace: Subspace,
    /// Whether it was already in the directory, valid.
    pub skipped: bool,
    /// Value counts.
    pub counts: Counts,
    /// Seconds spent solving its pair (shared by both subspaces of a pair).
    pub seconds: f64,
    /// Peak resident memory of the process while solving its pair, bytes.
    pub peak_bytes: u64,
    /// Size of its file.
    pub file_bytes: u64,
    /// For a table of the no-removal rule ([`crate::solve::counter`]): its move limit.
    pub move_limit: Option<u16>,
}

impl Report {
    /// The report of a subspace whose valid file `t` is there already (a rule
    /// table for `move_limit`).
    fn already_there(t: &Table, move_limit: Option<u16>) -> Report {
        Report {
            subspace: t.header.subspace,
            skipped: true,
            counts: t.header.counts,
            seconds: 0.0,
            peak_bytes: 0,
            file_bytes: t.file_len(),
            move_limit,
        }
    }

    /// Writes the file of `s`, of `kind` (a rule table along the game's
    /// table `game` of its subspace), solved in `seconds` at a peak of
    /// `peak_bytes`.
    fn written(
        db: &DbDir,
        s: &Solved,
        (kind, game): (Kind, Option<&[Cell]>),
        seconds: f64,
        peak_bytes: u64,
    ) -> Result<Report, StorageError> {
        let file_bytes = db.write_table(kind, s.subspace, &s.cells, game, s.counts)?;
        let move_limit = kind.move_limit();
        Ok(Report {
            subspace: s.subspace,
            skipped: false,
            counts: s.counts,
            seconds,
            peak_bytes,
            file_bytes,
            move_limit,
        })
    }
}

/// Peak resident memory of this process since the last [`reset_peak_memory`], in
/// bytes (Linux; 0 elsewhere).
pub fn peak_memory() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|k| k.parse::<u64>().ok())
            })
        })
        .map_or(0, |kb| kb * 1024)
}

/// Resets the peak-memory counter (Linux; no effect elsewhere).
pub fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// One file rewritten by [`upgrade`].
#[derive(Clone, Debug)]
pub struct Upgraded {
    /// The subspace.
    pub subspace: Subspace,
    /// For a table of the no-removal rule: its move limit.
    pub move_limit: Option<u16>,
    /// Size before.
    pub old_bytes: u64,
    /// Size after.
    pub new_bytes: u64,
}

/// Rewrites every file in `dir` written in an older layout in the current
/// one: format-1 files, placement files that store plies [`encoding_for`]
/// does not ask for, and tables of the no-removal rule in an earlier encoding
/// ([`Encoding::WdlDistance`], with its own win/draw/loss;
/// [`Encoding::Distance`], with uncoded distances; distances where
/// [`encoding_for`] asks for counts only), one file at a time (each
/// atomically: an interrupted run can simply be repeated), calling `report`
/// after each. Values and counts are unchanged.
pub fn upgrade(
    dir: &Path,
    report: &mut dyn FnMut(&Upgraded),
) -> Result<Vec<Upgraded>, StorageError> {
    let db = DbDir::open_for_writing(dir)?;
    db.remove_stale_temporaries();
    let mut out = vec![];
    let mut done = |u: Upgraded| {
        report(&u);
        out.push(u);
    };
    let kinds = std::iter::once(Kind::Game).chain(db.move_limits().into_iter().map(Kind::Rule));
    for kind in kinds {
        for sub in db.present() {
            let table = match db.open_table(kind, sub) {
                Err(StorageError::Missing { .. }) if kind != Kind::Game => continue,
                t => t?,
            };
            if table.header.version >= storage::FORMAT_VERSION
                && table.header.encoding == encoding_for(kind, sub)
            {
                continue;
            }
            let game = match kind {
                Kind::Game => None,
                Kind::Rule(_) => Some(db.read_outcomes(sub)?),
            };
            let cells = match &game {
                None => table.read_all()?,
                Some(game) => table.read_along(game)?,
            };
            let (old_bytes, counts) = (table.file_len(), table.header.counts);
            drop(table);
            let new_bytes = db.write_table(kind, sub, &cells, game.as_deref(), counts)?;
            done(Upgraded {
                subspace: sub,
                move_limit: kind.move_limit(),
                old_bytes,
                new_bytes,
            });
        }
    }
    Ok(out)
}

/// Progress of a generation run, as seen by a user interface.
pub trait Observer: Progress {
    /// Solving of the pair of `sub` (the game's tables, or the rule's for
    /// `move_limit`) starts; `positions` is the pair's index range.
    fn start_pair(&self, sub: Subspace, move_limit: Option<u16>, positions: u64);
    /// The directory is checked and the work starts.
    fn ready(&self) {}
    /// The file of `sub` is there but damaged, so it is built again: `reason`.
    fn rebuilding(&self, sub: Subspace, reason: &str) {
        let _ = (sub, reason);
    }
    /// One subspace is finished (or skipped).
    fn finished(&self, report: &Report);
    /// Whether to go on with the next pair (checked after each pair; a user
    /// interface whose output went away stops the run there).
    fn keep_going(&self) -> bool {
        true
    }
}

/// An observer that shows nothing.
pub struct Silent;

impl Progress for Silent {
    fn initialised(&self, _: u64) {}
    fn level(&self, _: u16) {}
}

impl Observer for Silent {
    fn start_pair(&self, _: Subspace, _: Option<u16>, _: u64) {}
    fn finished(&self, _: &Report) {}
}

/// Builds every subspace and sector within `limits` into `dir`, skipping those
/// already there and valid: the movement pairs in dependency order, then the
/// placement sectors. Each is solved once for all the tables it lacks, the
/// game's and (with a move limit) the no-removal rule's, and each finished
/// file is written atomically.
pub fn generate(
    dir: &Path,
    variant: Variant,
    limits: Limits,
    ix: &Indexer,
    observer: &dyn Observer,
) -> Result<Vec<Report>, DbError> {
    let refuse = |reason: String| {
        DbError::Storage(StorageError::Refused {
            path: dir.to_path_buf(),
            reason,
        })
    };
    if !std::ptr::eq(ix.geometry(), variant.geometry()) {
        return Err(refuse(format!(
            "the indexer is not of the board of the {} rules: make it with \
             Indexer::of(variant.geometry())",
            variant.preset()
        )));
    }
    if limits.max_stones > variant.stones() {
        return Err(refuse(format!(
            "at most {} stones a side in the {} rules, not {}",
            variant.stones(),
            variant.preset(),
            limits.max_stones
        )));
    }
    let db = DbDir::create(dir, variant)?;
    db.remove_stale_temporaries();
    refuse_foreign_files(&db, limits)?;
    observer.ready();
    let order: Vec<Vec<Subspace>> = plan(limits)
        .into_iter()
        .map(|rep| rep.with_swap())
        .chain(placement_plan(limits).into_iter().map(|s| vec![s]))
        .collect();
    // the last unit whose moves lead into each table: a work file (plies of a
    // file that stores none) is kept until then
    let last_use: HashMap<Subspace, usize> = order
        .iter()
        .enumerate()
        .flat_map(|(k, members)| needed(members).into_iter().map(move |s| (s, k)))
        .collect();
    let mut work = Work {
        db: &db,
        variant,
        ix,
        observer,
        move_limit: limits.move_limit,
        last_use,
        game: Known::new(),
        rule: Known::new(),
        reports: vec![],
    };
    for (k, members) in order.iter().enumerate() {
        work.unit(k, members)?;
        if !observer.keep_going() {
            break;
        }
    }
    // the orbits of the tables built, for the readers to come
    ix.save_orbits(&DirOrbits::at(dir, ix.geometry().len()));
    Ok(work.reports)
}

/// The time and peak memory of one solve (loading its tables included).
#[derive(Clone, Copy)]
struct Took {
    seconds: f64,
    peak_bytes: u64,
}

impl Took {
    /// Measured now, for a solve that started at `start`.
    fn since(start: Instant) -> Took {
        Took {
            seconds: start.elapsed().as_secs_f64(),
            peak_bytes: peak_memory(),
        }
    }
}

/// The state of a generation run.
struct Work<'a> {
    db: &'a DbDir,
    variant: Variant,
    ix: &'a Indexer,
    observer: &'a dyn Observer,
    move_limit: Option<u16>,
    /// For each table that moves of the units to build lead into, the last
    /// such unit (its number in the order of the run).
    last_use: HashMap<Subspace, usize>,
    /// Loaded tables of the game and of the rule, for the moves of the unit.
    game: Known,
    rule: Known,
    reports: Vec<Report>,
}

impl Work<'_> {
    /// Builds the files that `members` (a movement pair or one placement
    /// sector, unit `k` of the run) lack: the game's tables, then the rule's,
    /// each in one solve.
    fn unit(&mut self, k: usize, members: &[Subspace]) -> Result<(), DbError> {
        let needed = needed(members);
        // the game's tables of the members: they settle the rule's draws
        let mut game = Known::new();
        let kinds = std::iter::once(Kind::Game).chain(self.move_limit.map(Kind::Rule));
        for kind in kinds {
            self.unit_of(kind, members, &needed, &mut game)?;
        }
        let used_up: Vec<Subspace> = (needed.iter().copied())
            .filter(|s| self.last_use.get(s) == Some(&k))
            .collect();
        self.db.remove_work_files(&used_up);
        Ok(())
    }

    /// Builds the files of `kind` that `members` lack, reading the tables
    /// `needed` of that kind that their moves lead into; `game` holds the
    /// game's tables of the members solved here, and gets their outcomes
    /// before a rule's solve.
    fn unit_of(
        &mut self,
        kind: Kind,
        members: &[Subspace],
        needed: &[Subspace],
        game: &mut Known,
    ) -> Result<(), DbError> {
        let (db, ix) = (self.db, self.ix);
        let rep = members[0];
        if let Some(tables) = all_there(members, self.observer, |s| open_checked(db, kind, s)) {
            self.skipped(&tables, kind);
            return Ok(());
        }
        let start = self.start(rep, members, kind.move_limit());
        let known = match kind {
            Kind::Game => &mut self.game,
            Kind::Rule(_) => &mut self.rule,
        };
        known.retain(needed);
        if kind != Kind::Game {
            // the rule needs the game's outcomes only, not its plies
            for &s in members {
                if !game.contains(s) {
                    game.insert(s, db.read_outcomes(s)?);
                }
            }
        }
        load_known(db, ix, kind, needed, known).map_err(|e| needs(rep, e))?;
        let layer = match kind {
            Kind::Game => Layer::game(&self.game),
            Kind::Rule(limit) => Layer::rule(limit, &self.rule, Some(game)),
        };
        let solved = solve_unit(ix, self.variant, rep, layer, self.observer)?;
        let took = Took::since(start);
        for s in solved {
            let along = match kind {
                Kind::Game => None,
                Kind::Rule(_) => Some(
                    game.table(s.subspace)
                        .ok_or(SolveError::MissingTable(s.subspace))?,
                ),
            };
            let partial = matches!(
                encoding_for(kind, s.subspace),
                Encoding::WdlOnly | Encoding::CountsOnly
            );
            if partial && self.last_use.contains_key(&s.subspace) {
                // the units whose moves lead into it need all its values
                db.write_work_table(kind, s.subspace, &s.cells, along, s.counts)?;
            }
            self.written(&s, (kind, along), took)?;
            if kind == Kind::Game {
                // its statistics while all its plies are at hand; best effort:
                // without them a request makes them from the file
                let key = db.open_table(kind, s.subspace).map(|t| TableKey::of(&t));
                if let Ok(key) = key {
                    let _ = keep_report(db.path(), self.variant, s.subspace, &s.cells, key);
                }
                game.insert(s.subspace, s.cells);
            }
        }
        Ok(())
    }

    /// Starts the solve of `members` (`rep` first; the rule's tables for
    /// `move_limit`): the peak memory is reset, the observer told; the start
    /// time.
    fn start(&self, rep: Subspace, members: &[Subspace], move_limit: Option<u16>) -> Instant {
        reset_peak_memory();
        let work = if rep.is_movement() {
            members.iter().map(|&s| self.ix.index_size(s)).sum()
        } else {
            placement::work(self.ix, rep)
        };
        self.observer.start_pair(rep, move_limit, work);
        Instant::now()
    }

    /// Writes the file of `s` of `kind` (a rule table along the game's
    /// table), solved in `took`, and reports it; returns the file's size.
    fn written(
        &mut self,
        s: &Solved,
        of: (Kind, Option<&[Cell]>),
        took: Took,
    ) -> Result<u64, StorageError> {
        let r = Report::written(self.db, s, of, took.seconds, took.peak_bytes)?;
        self.observer.finished(&r);
        let bytes = r.file_bytes;
        self.reports.push(r);
        Ok(bytes)
    }

    /// Reports the valid files `tables` of `kind` as there already.
    fn skipped(&mut self, tables: &[Table], kind: Kind) {
        for t in tables {
            let r = Report::already_there(t, kind.move_limit());
            self.observer.finished(&r);
            self.reports.push(r);
        }
    }
}

/// Solves the tables of `layer` of `rep`: both members of a movement pair, or
/// one placement sector.
pub fn solve_unit(
    ix: &Indexer,
    variant: Variant,
    rep: Subspace,
    layer: Layer<'_>,
    progress: &dyn Progress,
) -> Result<Vec<Solved>, SolveError> {
    if rep.is_movement() {
        solver::solve_pair_layer(ix, variant, rep, layer, progress)
    } else {
        Ok(vec![placement::solve_sector_layer(
            ix, rep, layer, progress,
        )?])
    }
}

/// The tables the moves of `members` (a movement pair or one placement
/// sector) lead into, the game's and the rule's alike: those of removals, and
/// for a sector that of a plain placement.
fn needed(members: &[Subspace]) -> Vec<Subspace> {
    match members {
        [sector] if !sector.is_movement() => sector.successors(),
        _ => members.iter().filter_map(|s| s.after_removal()).collect(),
    }
}

/// The error of work on `sub` whose needed tables failed with `e`.
fn needs(sub: Subspace, e: DbError) -> DbError {
    DbError::Needs {
        subspace: sub,
        source: Box::new(e),
    }
}

/// Solved tables by subspace.
pub type Tables = HashMap<Subspace, Vec<Cell>>;

/// The game's tables and the distance tables of the no-removal rule under
/// move limit `limit` (`1..=MAX_MOVE_LIMIT`) of every subspace and sector
/// within `limits`, by subspace, solved as [`generate`] does: the game's
/// values, and `Win(d)`/`Loss(d)` with the distance `d <= limit` or `Draw`
/// where there is none ([`crate::solve::counter`]). All in memory: for small games
/// and tests.
pub fn solve_in_memory(
    ix: &Indexer,
    variant: Variant,
    limits: Limits,
    limit: u16,
) -> Result<(Tables, Tables), SolveError> {
    assert!((1..=MAX_MOVE_LIMIT).contains(&limit), "move limit {limit}");
    let (mut game, mut distances) = (Known::new(), Known::new());
    let units = plan(limits).into_iter().chain(placement_plan(limits));
    for rep in units {
        for s in solve_unit(ix, variant, rep, Layer::game(&game), &NoProgress)? {
            game.insert(s.subspace, s.cells);
        }
        let layer = Layer::rule(limit, &distances, Some(&game));
        for s in solve_unit(ix, variant, rep, layer, &NoProgress)? {
            distances.insert(s.subspace, s.cells);
        }
    }
    Ok((game.into_map(), distances.into_map()))
}

/// The valid files of every subspace of `members`, opened by `open`, or
/// `None` when one is missing or damaged. Every member is looked at, so that
/// each damaged file is reported to `observer` (it is built again).
fn all_there(
    members: &[Subspace],
    observer: &dyn Observer,
    open: impl Fn(Subspace) -> Result<Table, StorageError>,
) -> Option<Vec<Table>> {
    let opened: Vec<Option<Table>> = members
        .iter()
        .map(|&s| match open(s) {
            Ok(t) => Some(t),
            Err(StorageError::Missing { .. }) => None,
            Err(e) => {
                observer.rebuilding(s, &e.to_string());
                None
            }
        })
        .collect();
    opened.into_iter().collect()
}

/// Opens the file of `sub`'s table of `kind` and checks every block's
/// checksum.
fn open_checked(db: &DbDir, kind: Kind, sub: Subspace) -> Result<Table, StorageError> {
    let t = db.open_table(kind, sub)?;
    t.check_checksums()?;
    Ok(t)
}

/// Refuses, before any work, a directory whose files for the subspaces within
/// `limits` are not this database's to replace: files of the other variant or
/// of another subspace, and files it cannot read. Damaged files (checksums,
/// sizes) are this database's and are built again.
fn refuse_foreign_files(db: &DbDir, limits: Limits) -> Result<(), StorageError> {
    let foreign: Vec<String> = all_sectors(limits)
        .into_iter()
        .filter_map(
            |s| match Table::open(&db.table_path(Kind::Game, s), db.variant(), s) {
                Err(e @ StorageError::WrongVariant { .. })
                | Err(e @ StorageError::OtherSubspace { .. })
                | Err(e @ StorageError::Io { .. }) => Some(e.to_string()),
                _ => None,
            },
        )
        .collect();
    if foreign.is_empty() {
        return Ok(());
    }
    Err(StorageError::Refused {
        path: db.path().to_path_buf(),
        reason: format!(
            "holds files that are not this {} database's to replace; nothing was changed. \
             Move them away or use another directory:\n  {}",
            db.variant().name(),
            foreign.join("\n  ")
        ),
    })
}
