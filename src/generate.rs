//! Generation of the movement database: solving subspace pairs in dependency
//! order, resuming what a directory already holds.

use crate::index::{Indexer, Subspace};
use crate::moves::Rules;
use crate::position::STONES_PER_SIDE;
use crate::solver::{self, Known, Progress, SolveError};
use crate::storage::{self, Counts, Encoding, StorageError, Table};
use crate::value::Cell;
use crate::verify::derive_plies;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which movement subspaces to build.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most stones of either side on the board.
    pub max_stones: u8,
    /// Most stones of both sides together.
    pub max_total: u8,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_stones: STONES_PER_SIDE,
            max_total: 2 * STONES_PER_SIDE,
        }
    }
}

impl Limits {
    /// Whether `sub` is within the limits.
    pub fn admits(&self, sub: Subspace) -> bool {
        sub.mover.max(sub.opponent) <= self.max_stones && sub.mover + sub.opponent <= self.max_total
    }
}

/// The movement subspaces within `limits`, one per colour-swap pair (the one with
/// more mover stones), in an order where every removal leads into a pair solved
/// earlier.
pub fn plan(limits: Limits) -> Vec<Subspace> {
    let mut v: Vec<Subspace> = Subspace::all_movement()
        .into_iter()
        .filter(|s| s.mover >= s.opponent && limits.admits(*s))
        .collect();
    v.sort_by_key(|s| (s.mover + s.opponent, s.mover));
    v
}

/// A failure of generation or verification.
#[derive(Debug)]
pub enum GenerateError {
    /// A database file fault.
    Storage(StorageError),
    /// A solver fault.
    Solve(SolveError),
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Storage(e) => e.fmt(f),
            GenerateError::Solve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<StorageError> for GenerateError {
    fn from(e: StorageError) -> Self {
        GenerateError::Storage(e)
    }
}

impl From<SolveError> for GenerateError {
    fn from(e: SolveError) -> Self {
        GenerateError::Solve(e)
    }
}

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
}

/// Every movement subspace within `limits`, pairs together, in solving order.
pub fn all_subspaces(limits: Limits) -> Vec<Subspace> {
    plan(limits).iter().flat_map(Subspace::with_swap).collect()
}

/// Opens the file of `sub` in `dir` and checks its header and tables.
pub fn open_table(dir: &Path, rules: Rules, sub: Subspace) -> Result<Table, StorageError> {
    Table::open(&dir.join(storage::file_name(sub)), rules, sub)
}

/// Subdirectory of a database holding work files: complete tables (plies
/// included) of subspaces whose database file stores no plies, kept from their
/// solving until the one pair that needs them as removal tables is solved.
pub const WORK_DIR: &str = "work";

fn work_path(dir: &Path, sub: Subspace) -> PathBuf {
    dir.join(WORK_DIR).join(storage::file_name(sub))
}

/// Loads the complete tables (plies included) of `subs` into `known` (those not
/// there yet). Where a file stores no plies, they come from its work file if a
/// valid one is there, else from a one-ply search over the children of every
/// win and loss ([`derive_plies`]).
pub fn load_known(
    dir: &Path,
    rules: Rules,
    ix: &Indexer,
    subs: &[Subspace],
    known: &mut Known,
) -> Result<(), GenerateError> {
    for &s in subs {
        if !known.contains(s) {
            let cells = load_complete(dir, rules, ix, s)?;
            known.insert(s, cells);
        }
    }
    Ok(())
}

fn load_complete(
    dir: &Path,
    rules: Rules,
    ix: &Indexer,
    sub: Subspace,
) -> Result<Vec<Cell>, GenerateError> {
    let table = open_table(dir, rules, sub)?;
    if table.has_plies() {
        return Ok(table.read_all()?);
    }
    if let Ok(work) = Table::open_with_plies(&work_path(dir, sub), rules, sub)
        && work.header.counts == table.header.counts
        && let Ok(cells) = work.read_all()
    {
        return Ok(cells);
    }
    let mut children = Known::new();
    for c in [Some(sub.negate()), sub.after_removal()]
        .into_iter()
        .flatten()
    {
        children.insert(c, open_table(dir, rules, c)?.read_all()?);
    }
    Ok(derive_plies(ix, rules, sub, table.read_all()?, &children)?)
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

/// Removes temporary files an interrupted run left behind.
fn remove_stale_temporaries(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().ends_with(".tmp") {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
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
    let rules = storage::dir_rules(dir)?;
    remove_stale_temporaries(dir);
    let mut out = vec![];
    for sub in all_subspaces(Limits::default()) {
        if !dir.join(storage::file_name(sub)).exists() {
            continue;
        }
        let table = open_table(dir, rules, sub)?;
        if table.header.version >= storage::FORMAT_VERSION {
            continue;
        }
        let cells = table.read_all()?;
        let (old_bytes, counts) = (table.file_len(), table.header.counts);
        drop(table);
        let new_bytes =
            storage::write_table(dir, rules, sub, &cells, counts, Encoding::for_subspace(sub))?;
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

/// Removes the work files of the removal tables `needed` of a finished pair:
/// a table is the removal table of one pair only.
fn remove_work_files(dir: &Path, needed: &[Subspace]) {
    for &s in needed {
        let _ = std::fs::remove_file(work_path(dir, s));
    }
}

/// Progress of a generation run, as seen by a user interface.
pub trait Observer: Progress {
    /// Solving of the pair of `sub` starts; `positions` is the pair's index range.
    fn start_pair(&self, sub: Subspace, positions: u64);
    /// One subspace is finished (or skipped).
    fn finished(&self, report: &Report);
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

/// Builds every subspace within `limits` into `dir`, skipping those already there
/// and valid. Each finished subspace is written atomically.
pub fn generate(
    dir: &Path,
    rules: Rules,
    limits: Limits,
    ix: &Indexer,
    observer: &dyn Observer,
) -> Result<Vec<Report>, GenerateError> {
    storage::prepare_dir(dir, rules, true)?;
    remove_stale_temporaries(dir);
    remove_stale_temporaries(&dir.join(WORK_DIR));
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
        let existing: Option<Vec<Table>> = members
            .iter()
            .map(|&s| open_table(dir, rules, s).ok().filter(|t| t.check().is_ok()))
            .collect();
        if let Some(tables) = existing {
            for t in tables {
                let r = Report {
                    subspace: t.header.subspace,
                    skipped: true,
                    counts: t.header.counts,
                    seconds: 0.0,
                    peak_bytes: 0,
                    file_bytes: t.file_len(),
                };
                observer.finished(&r);
                reports.push(r);
            }
            remove_work_files(dir, &needed);
            continue;
        }
        known.retain(&needed);
        reset_peak_memory();
        let start = Instant::now();
        load_known(dir, rules, ix, &needed, &mut known)?;
        observer.start_pair(rep, members.iter().map(|&s| ix.index_size(s)).sum());
        let solved = solver::solve_pair(ix, rules, rep, &known, observer)?;
        let seconds = start.elapsed().as_secs_f64();
        let peak_bytes = peak_memory();
        let work = dir.join(WORK_DIR);
        for s in solved {
            let encoding = Encoding::for_subspace(s.subspace);
            if encoding == Encoding::WdlOnly && consumers.contains(&s.subspace) {
                // the pair it is the removal table of needs its plies
                std::fs::create_dir_all(&work).map_err(|e| StorageError::Io {
                    path: work.clone(),
                    source: e,
                })?;
                storage::write_table(
                    &work,
                    rules,
                    s.subspace,
                    &s.cells,
                    s.counts,
                    Encoding::WdlPlies,
                )?;
            }
            let file_bytes =
                storage::write_table(dir, rules, s.subspace, &s.cells, s.counts, encoding)?;
            let r = Report {
                subspace: s.subspace,
                skipped: false,
                counts: s.counts,
                seconds,
                peak_bytes,
                file_bytes,
            };
            observer.finished(&r);
            reports.push(r);
        }
        remove_work_files(dir, &needed);
    }
    Ok(reports)
}
