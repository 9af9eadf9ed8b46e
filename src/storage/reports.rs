//! The reports a database directory keeps beside its tables
//! (`reports/FILE.json`): each subspace's or sector's histogram of plies and
//! its longest wins and losses, made from its table (by `generate` while the
//! table is in memory, or by a reader from the file) and valid while that
//! table is the one it was made from.

use crate::index::{Index, Indexer, Subspace};
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::solve::value::{Cell, Value};
use crate::storage::dir::{REPORT_DIR, file_name};
use crate::storage::{StorageError, Table, io_err};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Longest wins and losses a report lists.
pub const REPORT_LONGEST: usize = 5;

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
pub struct Tally {
    wins: Vec<u64>,
    losses: Vec<u64>,
    draws: u64,
    longest_wins: Vec<(u16, Index)>,
    longest_losses: Vec<(u16, Index)>,
}

impl Tally {
    /// Counts the value `v` of entry `i`, keeping the `n` longest.
    pub fn add(&mut self, v: Value, i: Index, n: usize) {
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

    /// The two tallies together, the `n` longest kept.
    pub fn merge(mut self, other: Tally, n: usize) -> Tally {
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

/// The tally of a complete table in memory (every win and loss with its
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
    let g = ix.geometry();
    top.into_iter()
        .filter_map(|(plies, i)| {
            let (m, o) = ix.unrank(sub, i)?;
            let position: Position = sub.position(m, o);
            Some(Record {
                position: position.text(g),
                plies,
            })
        })
        .collect()
}

/// The records and histogram of `sub` of the rules of `variant` that `t`
/// gathered.
pub fn summary(variant: Variant, sub: Subspace, t: Tally) -> (Records, Histogram) {
    let ix = Indexer::of(variant.geometry());
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

/// The table a report was made from: its size, its classes and the
/// fingerprint of its content ([`Table::fingerprint`]). A report is valid
/// for a table with the same key: the same file, a copy of it, or the same
/// table written again; not for a table rewritten with other values, even
/// of the same size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableKey {
    /// The size of the table file.
    pub table_bytes: u64,
    /// Its classes.
    pub classes: u64,
    /// Its content's fingerprint.
    pub table_crc: u32,
}

impl TableKey {
    /// The key of an open table.
    pub fn of(t: &Table) -> TableKey {
        TableKey {
            table_bytes: t.file_len(),
            classes: t.header.counts.classes,
            table_crc: t.fingerprint(),
        }
    }
}

/// What `reports/FILE.json` keeps: the table it was read from and what
/// took a pass over it.
#[derive(Serialize, Deserialize)]
pub struct KeptReport {
    /// The table it was made from.
    #[serde(flatten)]
    pub table: TableKey,
    /// Classes by plies.
    pub histogram: Histogram,
    /// The longest wins for the side to move, longest first.
    pub longest_wins: Vec<Record>,
    /// The longest losses, longest first.
    pub longest_losses: Vec<Record>,
}

impl KeptReport {
    /// The report of `sub` (of the rules of `variant`) that `t` gathered
    /// from the table of `key`.
    pub fn of(variant: Variant, sub: Subspace, t: Tally, key: TableKey) -> KeptReport {
        let (records, histogram) = summary(variant, sub, t);
        KeptReport {
            table: key,
            histogram,
            longest_wins: records.longest_wins,
            longest_losses: records.longest_losses,
        }
    }

    /// Writes it to `path` (atomically, its folder made if need be).
    pub fn keep(&self, path: &Path) -> Result<(), StorageError> {
        let folder = path.parent().expect("in a folder");
        std::fs::create_dir_all(folder).map_err(io_err(folder))?;
        super::write_atomic(path, |f| {
            serde_json::to_writer(&mut *f, self).map_err(std::io::Error::other)
        })
    }
}

/// The report kept at `path`, if it is one made from the table of `key`.
pub fn kept_report(path: &Path, key: TableKey) -> Option<KeptReport> {
    std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice::<KeptReport>(&b).ok())
        .filter(|k| k.table == key)
}

/// Whether the database in `dir` keeps a report of `sub` made from the
/// table of `key`.
pub fn report_is_kept(dir: &Path, sub: Subspace, key: TableKey) -> bool {
    kept_report(&report_path(dir, sub), key).is_some()
}

/// Where the database in `dir` keeps the report of `sub`.
pub fn report_path(dir: &Path, sub: Subspace) -> PathBuf {
    dir.join(REPORT_DIR)
        .join(format!("{}.json", file_name(sub)))
}

/// Keeps the report of `sub` in the database in `dir`, made from `cells`,
/// its complete game's table in memory (every win and loss with its plies),
/// whose file has the key `key`: `generate` writes it with the table, so
/// that no request has to read the table.
pub fn keep_report(
    dir: &Path,
    variant: Variant,
    sub: Subspace,
    cells: &[Cell],
    key: TableKey,
) -> Result<(), StorageError> {
    let t = tally_cells(cells, REPORT_LONGEST);
    KeptReport::of(variant, sub, t, key).keep(&report_path(dir, sub))
}
