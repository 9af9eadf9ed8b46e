//! Record positions: the longest wins and losses of a subspace and its
//! histogram of plies, and the SHA-256
//! of a database's files (to confirm a build byte for byte).

use crate::db::{DbDir, DbError, RULE_DIR_PREFIX, file_name};
use crate::index::{Index, Indexer, Subspace};
use crate::position::Position;
use crate::solver::Known;
use crate::storage::io_err;
use crate::value::{Cell, Value};
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::PathBuf;

/// A position and its plies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Histogram {
    /// `[plies, classes]` of the wins for the side to move, by plies.
    pub wins: Vec<(u16, u64)>,
    /// `[plies, classes]` of the losses, by plies.
    pub losses: Vec<(u16, u64)>,
    /// Drawn classes.
    pub draws: u64,
}

/// The complete table of `sub` (plies included, derived where its file stores
/// none).
fn complete_table(db: &DbDir, ix: &Indexer, sub: Subspace) -> Result<Vec<Cell>, DbError> {
    let mut known = Known::new();
    db.load_known(ix, &[sub], &mut known)?;
    Ok(known.take(sub).expect("loaded"))
}

/// The `n` longest wins and losses of `sub` in `db` (ties: lowest index first).
pub fn longest(db: &DbDir, ix: &Indexer, sub: Subspace, n: usize) -> Result<Records, DbError> {
    Ok(longest_in(ix, sub, &complete_table(db, ix, sub)?, n))
}

/// The longest positions of `sub` and its histogram of plies, from one reading
/// of its table.
pub fn records_and_histogram(
    db: &DbDir,
    ix: &Indexer,
    sub: Subspace,
    n: usize,
) -> Result<(Records, Histogram), DbError> {
    let table = complete_table(db, ix, sub)?;
    Ok((longest_in(ix, sub, &table, n), histogram_of(&table)))
}

/// The histogram of plies of a complete table.
fn histogram_of(table: &[Cell]) -> Histogram {
    let (wins, losses, draws) = table
        .par_chunks(1 << 16)
        .map(|chunk| {
            let (mut w, mut l, mut d) = (vec![0u64; 0], vec![0u64; 0], 0u64);
            for c in chunk {
                let (v, p) = match c.value() {
                    Some(Value::Win(p)) => (&mut w, p),
                    Some(Value::Loss(p)) => (&mut l, p),
                    Some(Value::Draw) => {
                        d += 1;
                        continue;
                    }
                    None => continue,
                };
                if v.len() <= p as usize {
                    v.resize(p as usize + 1, 0);
                }
                v[p as usize] += 1;
            }
            (w, l, d)
        })
        .reduce(
            || (vec![], vec![], 0),
            |a, b| (add(a.0, b.0), add(a.1, b.1), a.2 + b.2),
        );
    let pairs = |v: Vec<u64>| -> Vec<(u16, u64)> {
        v.into_iter()
            .enumerate()
            .filter(|&(_, n)| n > 0)
            .map(|(p, n)| (p as u16, n))
            .collect()
    };
    Histogram {
        wins: pairs(wins),
        losses: pairs(losses),
        draws,
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

/// The `n` longest wins and losses in the complete table of `sub`.
fn longest_in(ix: &Indexer, sub: Subspace, table: &[Cell], n: usize) -> Records {
    // (plies, index) of the n longest, by a per-chunk selection merged in order
    let top = |want_win: bool| -> Vec<(u16, Index)> {
        let mut best: Vec<(u16, Index)> = table
            .par_chunks(1 << 16)
            .enumerate()
            .map(|(c, chunk)| {
                let mut v: Vec<(u16, Index)> = chunk
                    .iter()
                    .enumerate()
                    .filter_map(|(j, cell)| match (cell.value(), want_win) {
                        (Some(Value::Win(p)), true) | (Some(Value::Loss(p)), false) => {
                            Some((p, (c << 16 | j) as Index))
                        }
                        _ => None,
                    })
                    .collect();
                v.sort_by_key(|&(p, i)| (std::cmp::Reverse(p), i));
                v.truncate(n);
                v
            })
            .flatten()
            .collect();
        best.sort_by_key(|&(p, i)| (std::cmp::Reverse(p), i));
        best.truncate(n);
        best
    };
    let records = |v: Vec<(u16, Index)>| {
        v.into_iter()
            .filter_map(|(plies, i)| {
                let (m, o) = ix.unrank(sub, i)?;
                let position: Position = sub.position(m, o);
                Some(Record {
                    position: position.to_string(),
                    plies,
                })
            })
            .collect()
    };
    Records {
        mover: sub.mover,
        opponent: sub.opponent,
        mover_hand: sub.mover_hand,
        opponent_hand: sub.opponent_hand,
        longest_wins: records(top(true)),
        longest_losses: records(top(false)),
    }
}

/// The SHA-256 of every file of `db` as `(name, hex digest)`: the file of
/// each subspace present, in solving order, then the rule tables of each
/// move limit (named `no-removal-L/FILE`), in the same order.
pub fn checksums(db: &DbDir) -> Result<Vec<(String, String)>, DbError> {
    let present = db.present();
    let mut files: Vec<(String, PathBuf)> = (present.iter())
        .map(|&sub| (file_name(sub), db.table_path(sub)))
        .collect();
    for limit in db.move_limits() {
        let dir = db.rule_dir(limit);
        for &sub in &present {
            let name = file_name(sub);
            let path = dir.join(&name);
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
