//! Damaged copies of a database file for the corruption tests. Each thread
//! keeps one scratch copy; a damage is made in place and undone after its
//! check, so trying every byte of a file of `n` bytes writes O(n) bytes, not
//! O(n²).
#![allow(dead_code)]

use rayon::prelude::*;
use std::fs::OpenOptions;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// One change to a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damage {
    /// The byte at this offset XORed with the mask.
    Flip(usize, u8),
    /// The file cut to this length.
    Truncate(usize),
}

/// Every byte flipped by `mask`.
pub fn every_flip(len: usize, mask: u8) -> Vec<Damage> {
    (0..len).map(|i| Damage::Flip(i, mask)).collect()
}

/// Every truncation, longest first (the order that costs no rewriting).
pub fn every_truncation(len: usize) -> Vec<Damage> {
    (0..len).rev().map(Damage::Truncate).collect()
}

/// The damages of `bytes` that `accepted` (a check of the damaged file, given
/// its path, named `name`) lets through.
pub fn undetected(
    bytes: &[u8],
    name: &str,
    damages: Vec<Damage>,
    accepted: impl Fn(&Path) -> bool + Sync,
) -> Vec<Damage> {
    let scratch = tempfile::tempdir().unwrap();
    damages
        .into_par_iter()
        .map_init(
            || {
                let dir = tempfile::tempdir_in(scratch.path()).unwrap();
                let path = dir.path().join(name);
                std::fs::write(&path, bytes).unwrap();
                let f = OpenOptions::new().write(true).open(&path).unwrap();
                (dir, path, f, bytes.len())
            },
            |(_, path, f, len), damage| {
                // back to the original length (after shorter truncations)
                let want = match damage {
                    Damage::Flip(..) => bytes.len(),
                    Damage::Truncate(n) => n,
                };
                if *len < want {
                    f.write_all_at(&bytes[*len..want], *len as u64).unwrap();
                }
                let ok = match damage {
                    Damage::Flip(i, mask) => {
                        f.write_all_at(&[bytes[i] ^ mask], i as u64).unwrap();
                        let ok = accepted(path);
                        f.write_all_at(&[bytes[i]], i as u64).unwrap();
                        ok
                    }
                    Damage::Truncate(n) => {
                        f.set_len(n as u64).unwrap();
                        accepted(path)
                    }
                };
                *len = want;
                (damage, ok)
            },
        )
        .filter_map(|(damage, ok)| ok.then_some(damage))
        .collect()
}

/// The damages of `bytes` that `accepted` (a check of the damaged bytes, read
/// as a file by `millbase::storage::Table::from_bytes`) lets through.
pub fn undetected_in_memory(
    bytes: &[u8],
    damages: Vec<Damage>,
    accepted: impl Fn(Vec<u8>) -> bool + Sync,
) -> Vec<Damage> {
    damages
        .into_par_iter()
        .filter(|&damage| {
            let mut damaged = bytes.to_vec();
            match damage {
                Damage::Flip(i, mask) => damaged[i] ^= mask,
                Damage::Truncate(n) => damaged.truncate(n),
            }
            accepted(damaged)
        })
        .collect()
}
