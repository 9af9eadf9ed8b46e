//! Generation of a database: the movement subspace pairs in dependency order,
//! then the placement sectors, resuming what a directory already holds.

use crate::counter;
use crate::db::{DbDir, DbError, encoding_for};
use crate::index::{Indexer, Subspace};
use crate::placement;
use crate::plan::{Limits, all_sectors, all_subspaces, placement_plan, plan};
use crate::rules::Rules;
use crate::solver::{self, Known, Progress, Solved};
use crate::storage::{self, Encoding, StorageError, Table};
use crate::value::Counts;
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
    /// For a table of the no-removal rule ([`crate::counter`]): its move limit.
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

    /// Writes the file of `s` (the rule table for `move_limit`), solved in
    /// `seconds` at a peak of `peak_bytes`.
    fn written(
        db: &DbDir,
        s: &Solved,
        move_limit: Option<u16>,
        seconds: f64,
        peak_bytes: u64,
    ) -> Result<Report, StorageError> {
        let file_bytes = match move_limit {
            None => db.write_table(s.subspace, &s.cells, s.counts)?,
            Some(l) => db.write_rule_table(l, s.subspace, &s.cells, s.counts)?,
        };
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
    /// Size before.
    pub old_bytes: u64,
    /// Size after.
    pub new_bytes: u64,
}

/// Rewrites every format-1 movement file in `dir` in the current format, one
/// file at a time (each atomically: an interrupted run can simply be repeated),
/// calling `report` after each. Values and counts are unchanged.
pub fn upgrade(
    dir: &Path,
    report: &mut dyn FnMut(&Upgraded),
) -> Result<Vec<Upgraded>, StorageError> {
    let db = DbDir::open_for_writing(dir)?;
    db.remove_stale_temporaries();
    let mut out = vec![];
    for sub in db.present() {
        let table = db.open_table(sub)?;
        if table.header.version >= storage::FORMAT_VERSION {
            continue;
        }
        let cells = table.read_all()?;
        let (old_bytes, counts) = (table.file_len(), table.header.counts);
        drop(table);
        let new_bytes = db.write_table(sub, &cells, counts)?;
        let u = Upgraded {
            subspace: sub,
            old_bytes,
            new_bytes,
        };
        report(&u);
        out.push(u);
    }
    Ok(out)
}

/// Progress of a generation run, as seen by a user interface.
pub trait Observer: Progress {
    /// Solving of the pair of `sub` starts; `positions` is the pair's index range.
    fn start_pair(&self, sub: Subspace, positions: u64);
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
    fn start_pair(&self, _: Subspace, _: u64) {}
    fn finished(&self, _: &Report) {}
}

/// Builds every subspace and sector within `limits` into `dir`, skipping those
/// already there and valid. Each finished subspace is written atomically.
pub fn generate(
    dir: &Path,
    rules: Rules,
    limits: Limits,
    ix: &Indexer,
    observer: &dyn Observer,
) -> Result<Vec<Report>, DbError> {
    let db = DbDir::create(dir, rules)?;
    db.remove_stale_temporaries();
    refuse_foreign_files(&db, limits)?;
    observer.ready();
    // the removal tables of the pairs to build
    let consumers: Vec<Subspace> = all_subspaces(limits)
        .iter()
        .filter_map(|s| s.after_removal())
        .collect();
    let mut known = Known::new();
    let mut reports = vec![];
    for rep in plan(limits) {
        let members = rep.with_swap();
        let needed: Vec<Subspace> = members.iter().filter_map(|s| s.after_removal()).collect();
        if let Some(tables) = all_there(&members, observer, |s| open_checked(&db, s)) {
            skipped(tables, None, observer, &mut reports);
            db.remove_work_files(&needed);
            continue;
        }
        known.retain(&needed);
        reset_peak_memory();
        let start = Instant::now();
        db.load_known(ix, &needed, &mut known)?;
        observer.start_pair(rep, members.iter().map(|&s| ix.index_size(s)).sum());
        let solved = solver::solve_pair(ix, rules, rep, &known, observer)?;
        let seconds = start.elapsed().as_secs_f64();
        let peak_bytes = peak_memory();
        for s in solved {
            if encoding_for(s.subspace) == Encoding::WdlOnly && consumers.contains(&s.subspace) {
                // the pair it is the removal table of needs its plies
                db.write_work_table(s.subspace, &s.cells, s.counts)?;
            }
            let r = Report::written(&db, &s, None, seconds, peak_bytes)?;
            observer.finished(&r);
            reports.push(r);
        }
        db.remove_work_files(&needed);
        if !observer.keep_going() {
            return Ok(reports);
        }
    }
    for sector in placement_plan(limits) {
        if let Some(tables) = all_there(&[sector], observer, |s| open_checked(&db, s)) {
            skipped(tables, None, observer, &mut reports);
            continue;
        }
        let needed = sector.successors();
        known.retain(&needed);
        reset_peak_memory();
        let start = Instant::now();
        db.load_known(ix, &needed, &mut known)
            .map_err(|e| DbError::Needs {
                subspace: sector,
                source: Box::new(e),
            })?;
        observer.start_pair(sector, placement::work(ix, sector));
        let s = placement::solve_sector(ix, sector, &known, observer)?;
        let seconds = start.elapsed().as_secs_f64();
        let peak_bytes = peak_memory();
        let r = Report::written(&db, &s, None, seconds, peak_bytes)?;
        observer.finished(&r);
        reports.push(r);
        if !observer.keep_going() {
            return Ok(reports);
        }
    }
    if let Some(limit) = limits.move_limit {
        generate_rule_tables(&db, rules, limits, limit, ix, observer, &mut reports)?;
    }
    Ok(reports)
}

/// Builds the tables of the no-removal rule with move limit `limit` of every
/// subspace and sector within `limits` (after their own tables), skipping
/// those already there and valid, in the solving order of the game's tables.
fn generate_rule_tables(
    db: &DbDir,
    rules: Rules,
    limits: Limits,
    limit: u16,
    ix: &Indexer,
    observer: &dyn Observer,
    reports: &mut Vec<Report>,
) -> Result<(), DbError> {
    let order = plan(limits)
        .into_iter()
        .map(|rep| rep.with_swap())
        .chain(placement_plan(limits).into_iter().map(|s| vec![s]));
    let mut known = Known::new();
    for members in order {
        let rep = members[0];
        let open = |s| {
            let t = db.open_rule_table(limit, s)?;
            t.check()?;
            Ok(t)
        };
        if let Some(tables) = all_there(&members, observer, open) {
            skipped(tables, Some(limit), observer, reports);
            continue;
        }
        let mut needed: Vec<Subspace> = members.iter().flat_map(|&s| counter::needs(s)).collect();
        needed.sort();
        needed.dedup();
        known.retain(&needed);
        reset_peak_memory();
        let start = Instant::now();
        db.load_rule_tables(limit, &needed, &mut known)
            .map_err(|e| DbError::Needs {
                subspace: rep,
                source: Box::new(e.into()),
            })?;
        let solved = if rep.is_movement() {
            observer.start_pair(rep, members.iter().map(|&s| ix.index_size(s)).sum());
            counter::solve_pair(ix, rules, rep, &known, limit, observer)?
        } else {
            observer.start_pair(rep, placement::work(ix, rep));
            vec![counter::solve_sector(ix, rep, &known, limit, observer)?]
        };
        let seconds = start.elapsed().as_secs_f64();
        let peak_bytes = peak_memory();
        for s in solved {
            let r = Report::written(db, &s, Some(limit), seconds, peak_bytes)?;
            observer.finished(&r);
            reports.push(r);
        }
        if !observer.keep_going() {
            break;
        }
    }
    Ok(())
}

/// Reports the valid files `tables` (of the rule for `move_limit`) as there
/// already.
fn skipped(
    tables: Vec<Table>,
    move_limit: Option<u16>,
    observer: &dyn Observer,
    reports: &mut Vec<Report>,
) {
    for t in tables {
        let r = Report::already_there(&t, move_limit);
        observer.finished(&r);
        reports.push(r);
    }
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

/// Opens the file of `sub` and checks every block.
fn open_checked(db: &DbDir, sub: Subspace) -> Result<Table, StorageError> {
    let t = db.open_table(sub)?;
    t.check()?;
    Ok(t)
}

/// Refuses, before any work, a directory whose files for the subspaces within
/// `limits` are not this database's to replace: files of the other variant or
/// of another subspace, and files it cannot read. Damaged files (checksums,
/// sizes) are this database's and are built again.
fn refuse_foreign_files(db: &DbDir, limits: Limits) -> Result<(), StorageError> {
    let foreign: Vec<String> = all_sectors(limits)
        .into_iter()
        .filter_map(|s| match Table::open(&db.table_path(s), db.rules(), s) {
            Err(e @ StorageError::WrongVariant { .. })
            | Err(e @ StorageError::OtherSubspace { .. })
            | Err(e @ StorageError::Io { .. }) => Some(e.to_string()),
            _ => None,
        })
        .collect();
    if foreign.is_empty() {
        return Ok(());
    }
    Err(StorageError::Refused {
        path: db.path().to_path_buf(),
        reason: format!(
            "holds files that are not this {} database's to replace; nothing was changed. \
             Move them away or use another directory:\n  {}",
            db.rules().name(),
            foreign.join("\n  ")
        ),
    })
}
