//! Record positions: the longest wins and losses of a subspace and its
//! histogram of plies, and the SHA-256
//! of a database's files (to confirm a build byte for byte).

use crate::answer::query::{Database, QueryError, no_value};
use crate::answer::report::StatsRow;
use crate::index::{Index, Indexer, Subspace};
use crate::rules::position::Position;
use crate::solve::known::Kind;
use crate::solve::value::{Cell, Value};
use crate::storage::dir::{DbDir, DbError, REPORT_DIR, RULE_DIR_PREFIX, file_name};
use crate::storage::{StorageError, io_err};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};

/// A position and its plies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The position (White to move), ready for `query` or `line`.
    pub position: String,
    /// Plies to the end of the game.
    pub plies: u16,
}

/// The longest wins and losses of one subspace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Records {
    /// Stones of the side to move on the board.
    pub mover: u8,
    /// Stones of the other side on the board.
    pub opponent: u8,
    /// Stones of the side to move in hand.
    pub mover_hand: u8,
    /// Stones of the other side in hand.
    pub opponent_hand: u8,
    /// The longest wins for the side to move, longest first.
    pub longest_wins: Vec<Record>,
    /// The longest losses for the side to move, longest first.
    pub longest_losses: Vec<Record>,
}

/// How many classes of a subspace win or lose in each number of plies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    /// `[plies, classes]` of the wins for the side to move, by plies.
    pub wins: Vec<(u16, u64)>,
    /// `[plies, classes]` of the losses, by plies.
    pub losses: Vec<(u16, u64)>,
    /// Drawn classes.
    pub draws: u64,
}

/// What one pass over a table gathers: the histogram of plies and the
/// `n` longest wins and losses as `(plies, index)`, longest first (ties:
/// lowest index first).
#[derive(Default)]
struct Tally {
    wins: Vec<u64>,
    losses: Vec<u64>,
    draws: u64,
    longest_wins: Vec<(u16, Index)>,
    longest_losses: Vec<(u16, Index)>,
}

impl Tally {
    fn add(&mut self, v: Value, i: Index, n: usize) {
        let (hist, top, p) = match v {
            Value::Win(p) => (&mut self.wins, &mut self.longest_wins, p),
            Value::Loss(p) => (&mut self.losses, &mut self.longest_losses, p),
            Value::Draw => {
                self.draws += 1;
                return;
            }
        };
        if hist.len() <= p as usize {
            hist.resize(p as usize + 1, 0);
        }
        hist[p as usize] += 1;
        keep_longest(top, (p, i), n);
    }

    fn merge(mut self, other: Tally, n: usize) -> Tally {
        self.wins = add(self.wins, other.wins);
        self.losses = add(self.losses, other.losses);
        self.draws += other.draws;
        for r in other.longest_wins {
            keep_longest(&mut self.longest_wins, r, n);
        }
        for r in other.longest_losses {
            keep_longest(&mut self.longest_losses, r, n);
        }
        self
    }
}

/// Puts `r` into `top` (longest first, ties lowest index first) if it is
/// among the `n` longest.
fn keep_longest(top: &mut Vec<(u16, Index)>, r: (u16, Index), n: usize) {
    let key = |&(p, i): &(u16, Index)| (std::cmp::Reverse(p), i);
    let at = top.partition_point(|x| key(x) < key(&r));
    if at < n {
        top.insert(at, r);
        top.truncate(n);
    }
}

/// Element-wise sum of two count vectors.
fn add(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}

/// One pass over the game's table of `sub`, block by block: a win or loss
/// whose file stores no plies gets them from [`Database::probe`] (a search
/// of one ply over its children). Memory stays that of a few blocks and the
/// database's block cache, whatever the size of the table.
fn tally(db: &Database, sub: Subspace, n: usize) -> Result<Tally, QueryError> {
    let table = db.table(sub)?;
    let ix = Indexer::new();
    let be = u64::from(table.header.block_entries);
    (0..table.header.blocks)
        .into_par_iter()
        .try_fold(Tally::default, |mut t, b| {
            let cells = table.block(b as usize)?;
            for (j, &c) in cells.iter().enumerate() {
                let i = b * be + j as u64;
                let v = match c {
                    Cell::WON | Cell::LOST => {
                        let (m, o) = ix.unrank(sub, i).ok_or_else(|| no_value(table.path(), i))?;
                        db.probe(&sub.position(m, o))?
                    }
                    c => match c.value() {
                        Some(v) => v,
                        None => continue,
                    },
                };
                t.add(v, i, n);
            }
            Ok(t)
        })
        .try_reduce(Tally::default, |a, b| Ok(a.merge(b, n)))
}

/// [`tally`] of a complete table in memory (every win and loss with its
/// plies), as `generate` holds it.
fn tally_cells(cells: &[Cell], n: usize) -> Tally {
    const CHUNK: usize = 1 << 16;
    cells
        .par_chunks(CHUNK)
        .enumerate()
        .fold(Tally::default, |mut t, (k, chunk)| {
            for (j, c) in chunk.iter().enumerate() {
                if let Some(v) = c.value() {
                    t.add(v, (k * CHUNK + j) as Index, n);
                }
            }
            t
        })
        .reduce(Tally::default, |a, b| a.merge(b, n))
}

/// The records of `top` as positions of `sub`.
fn records_of(ix: &Indexer, sub: Subspace, top: Vec<(u16, Index)>) -> Vec<Record> {
    top.into_iter()
        .filter_map(|(plies, i)| {
            let (m, o) = ix.unrank(sub, i)?;
            let position: Position = sub.position(m, o);
            Some(Record {
                position: position.to_string(),
                plies,
            })
        })
        .collect()
}

/// The `n` longest wins and losses of `sub` and its histogram of plies, from
/// one reading of its table, block by block.
pub fn records_and_histogram(
    db: &Database,
    sub: Subspace,
    n: usize,
) -> Result<(Records, Histogram), QueryError> {
    Ok(summary(sub, tally(db, sub, n)?))
}

/// The records and histogram of `sub` that `t` gathered.
fn summary(sub: Subspace, t: Tally) -> (Records, Histogram) {
    let ix = Indexer::new();
    let pairs = |v: Vec<u64>| -> Vec<(u16, u64)> {
        v.into_iter()
            .enumerate()
            .filter(|&(_, n)| n > 0)
            .map(|(p, n)| (p as u16, n))
            .collect()
    };
    let records = Records {
        mover: sub.mover,
        opponent: sub.opponent,
        mover_hand: sub.mover_hand,
        opponent_hand: sub.opponent_hand,
        longest_wins: records_of(&ix, sub, t.longest_wins),
        longest_losses: records_of(&ix, sub, t.longest_losses),
    };
    let histogram = Histogram {
        wins: pairs(t.wins),
        losses: pairs(t.losses),
        draws: t.draws,
    };
    (records, histogram)
}

/// The `n` longest wins and losses of `sub` (ties: lowest index first).
pub fn longest(db: &Database, sub: Subspace, n: usize) -> Result<Records, QueryError> {
    Ok(records_and_histogram(db, sub, n)?.0)
}

/// Longest wins and losses a [`SectorReport`] lists.
pub const REPORT_LONGEST: usize = 5;

/// One subspace's or sector's statistics: counts, histogram of plies and
/// longest positions (`GET /api/stats/SECTOR`).
#[derive(Clone, Debug, Serialize)]
pub struct SectorReport {
    /// The subspace or sector, as `M-O` or `M-O/MH-OH`.
    pub sector: String,
    /// Its counts and file size.
    pub counts: StatsRow,
    /// Classes by plies.
    pub histogram: Histogram,
    /// Its [`REPORT_LONGEST`] longest wins for the side to move, longest first.
    pub longest_wins: Vec<Record>,
    /// Its longest losses, longest first.
    pub longest_losses: Vec<Record>,
}

impl SectorReport {
    /// The report of `sub`, whose table has `header` and `bytes`, from what
    /// a pass over it found.
    fn of(sub: Subspace, header: &crate::storage::Header, bytes: u64, kept: KeptReport) -> Self {
        SectorReport {
            sector: sub.to_string(),
            counts: StatsRow::new(sub, header.counts, header.entries, bytes),
            histogram: kept.histogram,
            longest_wins: kept.longest_wins,
            longest_losses: kept.longest_losses,
        }
    }
}

/// What `reports/FILE.json` keeps of a [`SectorReport`]: the table it was
/// read from (its size and classes) and what took a pass over it.
#[derive(Serialize, Deserialize)]
struct KeptReport {
    table_bytes: u64,
    classes: u64,
    histogram: Histogram,
    longest_wins: Vec<Record>,
    longest_losses: Vec<Record>,
}

impl KeptReport {
    /// The report of `sub` that `t` gathered from its table of `table_bytes`
    /// bytes and `classes` classes.
    fn of(sub: Subspace, t: Tally, table_bytes: u64, classes: u64) -> KeptReport {
        let (records, histogram) = summary(sub, t);
        KeptReport {
            table_bytes,
            classes,
            histogram,
            longest_wins: records.longest_wins,
            longest_losses: records.longest_losses,
        }
    }

    /// Writes it to `path` (atomically, its folder made if need be).
    fn keep(&self, path: &Path) -> Result<(), StorageError> {
        let folder = path.parent().expect("in a folder");
        std::fs::create_dir_all(folder).map_err(io_err(folder))?;
        crate::storage::write_atomic(path, |f| {
            serde_json::to_writer(&mut *f, self).map_err(std::io::Error::other)
        })
    }
}

/// The report kept at `path`, if it is one made from a table of
/// `table_bytes` bytes and `classes` classes.
fn kept_report(path: &Path, table_bytes: u64, classes: u64) -> Option<KeptReport> {
    std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice::<KeptReport>(&b).ok())
        .filter(|k| k.table_bytes == table_bytes && k.classes == classes)
}

/// Whether the database in `dir` keeps a report of `sub` made from its
/// table of `table_bytes` bytes and `classes` classes.
pub fn report_is_kept(dir: &Path, sub: Subspace, table_bytes: u64, classes: u64) -> bool {
    kept_report(&report_path(dir, sub), table_bytes, classes).is_some()
}

/// Where the database in `dir` keeps the report of `sub`.
fn report_path(dir: &Path, sub: Subspace) -> PathBuf {
    dir.join(REPORT_DIR)
        .join(format!("{}.json", file_name(sub)))
}

/// Keeps the report of `sub` in the database in `dir`, made from `cells`,
/// its complete game's table in memory (every win and loss with its plies),
/// whose file has `table_bytes` bytes and `classes` classes: `generate`
/// writes it with the table, so that no request has to read the table.
pub fn keep_report(
    dir: &Path,
    sub: Subspace,
    cells: &[Cell],
    table_bytes: u64,
    classes: u64,
) -> Result<(), StorageError> {
    let t = tally_cells(cells, REPORT_LONGEST);
    KeptReport::of(sub, t, table_bytes, classes).keep(&report_path(dir, sub))
}

/// The report of `sub` kept in the database's `reports/` folder, if one is
/// there that was made from the table now present: a file read, whatever the
/// table's size.
pub fn kept_sector_report(
    db: &Database,
    sub: Subspace,
) -> Result<Option<SectorReport>, QueryError> {
    let (header, bytes) = db.table_header(sub)?;
    let kept = kept_report(&report_path(db.path(), sub), bytes, header.counts.classes);
    Ok(kept.map(|k| SectorReport::of(sub, &header, bytes, k)))
}

/// The report of `sub`: read from the database's `reports/` folder when it
/// is there and was made from the table now present, else made
/// ([`make_sector_report`]).
pub fn sector_report(db: &Database, sub: Subspace) -> Result<SectorReport, QueryError> {
    match kept_sector_report(db, sub)? {
        Some(report) => Ok(report),
        None => make_sector_report(db, sub),
    }
}

/// The report of `sub` made by one pass over its table
/// ([`records_and_histogram`], memory bounded) and kept in the database's
/// `reports/` folder (where the directory can be written; otherwise only
/// returned), whether or not one is kept there already.
pub fn make_sector_report(db: &Database, sub: Subspace) -> Result<SectorReport, QueryError> {
    let (header, bytes) = db.table_header(sub)?;
    let t = tally(db, sub, REPORT_LONGEST)?;
    let k = KeptReport::of(sub, t, bytes, header.counts.classes);
    // best effort: a read-only database answers all the same
    let _ = k.keep(&report_path(db.path(), sub));
    Ok(SectorReport::of(sub, &header, bytes, k))
}

/// The SHA-256 of every file of `db` as `(name, hex digest)`: the file of
/// each subspace present, in solving order, then the rule tables of each
/// move limit (named `no-removal-L/FILE`), in the same order.
pub fn checksums(db: &DbDir) -> Result<Vec<(String, String)>, DbError> {
    let present = db.present();
    let mut files: Vec<(String, PathBuf)> = (present.iter())
        .map(|&sub| (file_name(sub), db.table_path(Kind::Game, sub)))
        .collect();
    for limit in db.move_limits() {
        for &sub in &present {
            let name = file_name(sub);
            let path = db.table_path(Kind::Rule(limit), sub);
            if path.is_file() {
                files.push((format!("{RULE_DIR_PREFIX}{limit}/{name}"), path));
            }
        }
    }
    files
        .into_par_iter()
        .map(|(name, path)| {
            let mut f = std::fs::File::open(&path).map_err(io_err(&path))?;
            let mut hasher = Sha256::new();
            let mut buf = vec![0u8; 1 << 20];
            loop {
                let n = f.read(&mut buf).map_err(io_err(&path))?;
                if n == 0 {
                    break;
                }
                hasher.update(&buf[..n]);
            }
            let hex: String = hasher
                .finalize()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            Ok((name, hex))
        })
        .collect()
}
