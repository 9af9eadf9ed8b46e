//! The orbits of the indexer's set tables, kept in a database's `index/`
//! folder ([`DirOrbits`]), so that a reader started for one query reads
//! them instead of building whole tables.
//!
//! `index/orbits-K.bin`, little-endian: the magic `MBORBITS`, a version
//! (`1`), the board's points (`24`), `K`, the count `n`; then the `n` least
//! sets of the orbits of the `K`-point sets (`u32`, ascending), their `n`
//! stabilisers (`u16`, bit `s` for symmetry `s`), and the CRC-32 of all the
//! bytes before it. The indexer checks what it reads (the count by
//! Burnside's lemma, each set the least of its images with its stabiliser)
//! and builds the table where a file is missing or wrong.

use crate::index::{OrbitStore, Orbits};
use crate::rules::geometry::Bits;
use std::path::{Path, PathBuf};

/// The folder of a database that keeps the orbit files.
pub const INDEX_DIR: &str = "index";

const MAGIC: &[u8; 8] = b"MBORBITS";
const VERSION: u32 = 1;
/// Bytes before the sets: magic, version, points, `K`, count.
const HEAD: usize = 8 + 4 * 4;

/// The orbit files of the database directory `dir`.
pub struct DirOrbits {
    dir: PathBuf,
    points: u32,
}

impl DirOrbits {
    /// The orbit files of the database in `dir` (in its `index/` folder),
    /// whose board has `points` points.
    pub fn at(dir: &Path, points: usize) -> DirOrbits {
        DirOrbits {
            dir: dir.join(INDEX_DIR),
            points: points as u32,
        }
    }

    fn path(&self, k: u8) -> PathBuf {
        self.dir.join(format!("orbits-{k}.bin"))
    }
}

/// The bytes of the orbit file of the `k`-point sets.
fn encode(points: u32, k: u8, reps: &[Bits], stabilisers: &[u16]) -> Vec<u8> {
    let mut b = Vec::with_capacity(HEAD + reps.len() * 6 + 4);
    b.extend_from_slice(MAGIC);
    for v in [VERSION, points, u32::from(k), reps.len() as u32] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for r in reps {
        b.extend_from_slice(&r.to_le_bytes());
    }
    for s in stabilisers {
        b.extend_from_slice(&s.to_le_bytes());
    }
    let crc = crc32fast::hash(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    b
}

/// The orbits an orbit file of the `k`-point sets holds, if it is one
/// whole (its header and checksum right).
fn decode(points: u32, k: u8, b: &[u8]) -> Option<Orbits> {
    let u32_at = |at: usize| Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?));
    let n = u32_at(20)? as usize;
    let end = HEAD.checked_add(n.checked_mul(6)?)?;
    let whole = b.len() == end + 4
        && b.starts_with(MAGIC)
        && u32_at(8)? == VERSION
        && u32_at(12)? == points
        && u32_at(16)? == u32::from(k)
        && crc32fast::hash(&b[..end]) == u32_at(end)?;
    if !whole {
        return None;
    }
    let reps = (b[HEAD..HEAD + 4 * n].chunks_exact(4))
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let stabs = (b[HEAD + 4 * n..end].chunks_exact(2))
        .map(|c| u16::from_le_bytes(c.try_into().expect("2 bytes")))
        .collect();
    Some((reps, stabs))
}

impl OrbitStore for DirOrbits {
    fn load(&self, k: u8) -> Option<Orbits> {
        decode(self.points, k, &std::fs::read(self.path(k)).ok()?)
    }

    /// Best effort: a database that cannot be written (read-only, full) is
    /// read all the same, its tables built by each reader.
    fn save(&self, k: u8, reps: &[Bits], stabilisers: &[u16]) {
        let path = self.path(k);
        if self.load(k).is_some() || std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let bytes = encode(self.points, k, reps, stabilisers);
        let _ = crate::storage::write_atomic(&path, |f| std::io::Write::write_all(f, &bytes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_reads_back_and_any_damage_is_no_file() {
        let (reps, stabs) = (vec![7, 11, 13], vec![1, 3, 1]);
        let b = encode(24, 3, &reps, &stabs);
        assert_eq!(decode(24, 3, &b), Some((reps.clone(), stabs.clone())));
        assert_eq!(decode(16, 3, &b), None, "another board");
        assert_eq!(decode(24, 4, &b), None, "another K");
        for at in 0..b.len() {
            let mut d = b.clone();
            d[at] ^= 0x10;
            assert_eq!(decode(24, 3, &d), None, "byte {at} changed");
        }
        for len in 0..b.len() {
            assert_eq!(decode(24, 3, &b[..len]), None, "cut at {len}");
        }
    }
}
