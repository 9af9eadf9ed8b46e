//! Record positions read from a database: the longest wins and losses of a
//! subspace and its histogram of plies (made by a pass over its table, or
//! read from the report the directory keeps: [`crate::storage::reports`]),
//! and the SHA-256 of a database's files (to confirm a build byte for
//! byte).

use crate::answer::query::{Database, QueryError, no_value};
use crate::answer::report::StatsRow;
use crate::index::{Indexer, Subspace};
use crate::solve::known::Kind;
use crate::solve::value::Cell;
use crate::storage::dir::{DbDir, DbError, RULE_DIR_PREFIX, file_name};
use crate::storage::io_err;
use crate::storage::reports::{
    Histogram, KeptReport, REPORT_LONGEST, Record, Records, Tally, kept_report, report_path,
    summary,
};
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::PathBuf;

/// One pass over the game's table of `sub`, block by block: a win or loss
/// whose file stores no plies gets them from [`Database::probe`] (a search
/// of one ply over its children). Memory stays that of a few blocks and the
/// database's block cache, whatever the size of the table.
fn tally(db: &Database, sub: Subspace, n: usize) -> Result<Tally, QueryError> {
    let table = db.table(sub)?;
    let ix = Indexer::of(db.variant().geometry());
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

/// The `n` longest wins and losses of `sub` and its histogram of plies, from
/// one reading of its table, block by block.
pub fn records_and_histogram(
    db: &Database,
    sub: Subspace,
    n: usize,
) -> Result<(Records, Histogram), QueryError> {
    Ok(summary(db.variant(), sub, tally(db, sub, n)?))
}

/// The `n` longest wins and losses of `sub` (ties: lowest index first).
pub fn longest(db: &Database, sub: Subspace, n: usize) -> Result<Records, QueryError> {
    Ok(records_and_histogram(db, sub, n)?.0)
}

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
    /// The report of `sub`, whose table has `header`, from what a pass over
    /// it found.
    fn of(sub: Subspace, header: &crate::storage::Header, kept: KeptReport) -> Self {
        let bytes = kept.table.table_bytes;
        SectorReport {
            sector: sub.to_string(),
            counts: StatsRow::new(sub, header.counts, header.entries, bytes),
            histogram: kept.histogram,
            longest_wins: kept.longest_wins,
            longest_losses: kept.longest_losses,
        }
    }
}

/// The report of `sub` kept in the database's `reports/` folder, if one is
/// there that was made from the table now present: a file read, whatever the
/// table's size.
pub fn kept_sector_report(
    db: &Database,
    sub: Subspace,
) -> Result<Option<SectorReport>, QueryError> {
    let (header, key, _) = db.table_header(sub)?;
    let kept = kept_report(&report_path(db.path(), sub), key);
    Ok(kept.map(|k| SectorReport::of(sub, &header, k)))
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
    let (header, key, _) = db.table_header(sub)?;
    let t = tally(db, sub, REPORT_LONGEST)?;
    let k = KeptReport::of(db.variant(), sub, t, key);
    // best effort: a read-only database answers all the same
    let _ = k.keep(&report_path(db.path(), sub));
    Ok(SectorReport::of(sub, &header, k))
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
