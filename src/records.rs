//! Record positions: the longest wins and losses of a subspace, and the SHA-256
//! of a database's files (to confirm a build byte for byte).

use crate::db::{DbDir, DbError, file_name};
use crate::index::{Index, Indexer, Subspace};
use crate::position::Position;
use crate::solver::Known;
use crate::storage::io_err;
use crate::value::Value;
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::Read;

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

/// The `n` longest wins and losses of `sub` in `db` (ties: lowest index first).
pub fn longest(db: &DbDir, ix: &Indexer, sub: Subspace, n: usize) -> Result<Records, DbError> {
    let mut known = Known::new();
    db.load_known(ix, &[sub], &mut known)?;
    let table = known.table(sub).expect("loaded");
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
    Ok(Records {
        mover: sub.mover,
        opponent: sub.opponent,
        mover_hand: sub.mover_hand,
        opponent_hand: sub.opponent_hand,
        longest_wins: records(top(true)),
        longest_losses: records(top(false)),
    })
}

/// The SHA-256 of the file of each subspace present in `db`, as
/// `(file name, hex digest)`, in solving order.
pub fn checksums(db: &DbDir) -> Result<Vec<(String, String)>, DbError> {
    db.present()
        .into_par_iter()
        .map(|sub| {
            let path = db.table_path(sub);
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
            Ok((file_name(sub), hex))
        })
        .collect()
}
