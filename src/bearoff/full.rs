//! Two-sided cubeless databases past gnubg's 11 chequers, up to 15 on 6
//! points (54,264² = 2,944,581,696 pairs), in millbase's own file: the same
//! integer equities as gnubg's two-sided files ([`two_sided`]), so a
//! smaller file's pairs are equal to the larger's, zstd-compressed in blocks
//! behind millbase's block index ([`crate::storage::blocks`]).
//!
//! The solve keeps the table twice in memory (by the side on roll, and by
//! the opponent; 2 bytes a pair each, 11.8 GB for 15 chequers) and fills it
//! one position `i` at a time: the pairs where `i` is on roll against every
//! smaller position, then `i` against itself, then every smaller position on
//! roll against `i`. A pair needs only pairs of a smaller position on roll,
//! so each step reads finished pairs: the first part reads the opponent's
//! rows of the second copy as contiguous runs (a loop the compiler turns
//! into vector instructions), the last part one row of the first copy,
//! which stays in the cache.
//!
//! [`two_sided`]: crate::bearoff::two_sided

use crate::bearoff::file::{BearoffError, corrupt};
use crate::bearoff::position::positions;
use crate::bearoff::two_sided::{LOSS, Successors, WIN, roll_weights};
use crate::storage::blocks::{BlockIndex, index_bytes, index_len};
use rayon::prelude::*;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The first bytes of millbase's bear-off file.
pub const MAGIC: &[u8; 16] = b"millbase-bearoff";
/// The layout version written.
const VERSION: u32 = 1;
/// Length of the header: magic, version, points, chequers, content, block
/// entries, blocks, entries, checksum.
const HEADER_LEN: usize = 48;
/// Pairs per block.
const BLOCK_ENTRIES: u32 = 1 << 16;
/// What the file holds: the cubeless equity of every pair.
const CUBELESS: u8 = 1;
/// zstd level of the blocks.
const LEVEL: i32 = 9;

/// The cubeless equities of every pair of positions of up to `chequers`
/// chequers on `points` points (gnubg's integers), the side on roll's index
/// times the count plus the opponent's; `progress(done, total)` in pairs.
pub fn generate(points: usize, chequers: usize, progress: &(dyn Fn(u64, u64) + Sync)) -> Vec<i16> {
    let n = positions(points, chequers) as usize;
    let succ = Successors::new(points, n as u32);
    let weights = roll_weights();
    let total = (n * n) as u64;
    // by_roller[a * n + b] and by_opponent[b * n + a]: the equity of a on
    // roll against b.
    let mut by_roller = vec![0i16; n * n];
    let mut by_opponent = vec![0i16; n * n];
    let mut done = 0u64;
    for i in 0..n {
        // i on roll against every smaller j.
        let row: Vec<i16> = if i == 0 {
            Vec::new()
        } else {
            let chunks: Vec<Vec<i16>> = (0..i)
                .into_par_iter()
                .step_by(CHUNK)
                .map(|start| {
                    let end = (start + CHUNK).min(i);
                    roller_against(i as u32, start..end, n, &succ, &weights, &by_opponent)
                })
                .collect();
            chunks.concat()
        };
        by_roller[i * n..i * n + i].copy_from_slice(&row);
        // Column i of the second copy: one entry in each row below i.
        (by_opponent[..i * n].par_chunks_mut(n))
            .zip(&row)
            .for_each(|(r, &e)| r[i] = e);
        // i against itself, from i's row just written.
        let own = if i == 0 {
            WIN
        } else {
            equity_from_row(i as u32, &succ, &weights, &by_roller[i * n..i * n + i])
        };
        by_roller[i * n + i] = own;
        by_opponent[i * n + i] = own;
        // Every smaller j on roll against i, from i's row, into column i of
        // the first copy, then row i of the second.
        let (below, from_i) = by_roller.split_at_mut(i * n);
        let row_i = &from_i[..i];
        below.par_chunks_mut(n).enumerate().for_each(|(j, r)| {
            r[i] = if j == 0 {
                WIN
            } else {
                equity_from_row(j as u32, &succ, &weights, row_i)
            };
        });
        let by_roller = &by_roller;
        (by_opponent[i * n..i * n + i].par_iter_mut())
            .enumerate()
            .for_each(|(j, o)| *o = by_roller[j * n + i]);
        done += 2 * i as u64 + 1;
        if i % 64 == 0 {
            progress(done, total);
        }
    }
    progress(total, total);
    by_roller
}

/// Opponents a task of the first part takes.
const CHUNK: usize = 2048;

/// The equities of `i` on roll against each j of `js` (all below `i`), from
/// the rows of the second copy of i's successors.
fn roller_against(
    i: u32,
    js: std::ops::Range<usize>,
    n: usize,
    succ: &Successors,
    weights: &[i32; 21],
    by_opponent: &[i16],
) -> Vec<i16> {
    let len = js.len();
    let mut total = vec![0i32; len];
    let mut best = vec![0i16; len];
    for (r, &w) in weights.iter().enumerate() {
        best.fill(i16::MIN);
        for &a in succ.of(i, r) {
            let run = &by_opponent[a as usize * n + js.start..a as usize * n + js.end];
            for (b, &e) in best.iter_mut().zip(run) {
                *b = (*b).max(!e);
            }
        }
        for (t, &b) in total.iter_mut().zip(&best) {
            *t += w * i32::from(b);
        }
    }
    let mut out: Vec<i16> = total.iter().map(|&t| (t / 36) as i16).collect();
    if js.start == 0 {
        // Against a side with every chequer off: lost already.
        out[0] = LOSS;
    }
    out
}

/// The equity of `j` on roll against an opponent whose equities on roll
/// against each position below `j` (where `j`'s plays lead) are `row`.
fn equity_from_row(j: u32, succ: &Successors, weights: &[i32; 21], row: &[i16]) -> i16 {
    let mut total = 0i32;
    for (r, &w) in weights.iter().enumerate() {
        let best = (succ.of(j, r).iter())
            .map(|&b| !row[b as usize])
            .max()
            .expect("a legal play");
        total += w * i32::from(best);
    }
    (total / 36) as i16
}

/// Writes `table` (from [`generate`]) to `path` atomically; returns the
/// bytes written.
pub fn write(
    path: &Path,
    points: usize,
    chequers: usize,
    table: &[i16],
) -> Result<u64, BearoffError> {
    let blocks: Vec<Vec<u8>> = table
        .par_chunks(BLOCK_ENTRIES as usize)
        .map_init(
            || zstd::bulk::Compressor::new(LEVEL).expect("a zstd compression context"),
            |zc, chunk| zc.compress(&planes(chunk)),
        )
        .collect::<std::io::Result<_>>()
        .map_err(|error| BearoffError::Io {
            path: path.to_path_buf(),
            error,
        })?;
    let mut header = [0u8; HEADER_LEN];
    header[..16].copy_from_slice(MAGIC);
    header[16..20].copy_from_slice(&VERSION.to_le_bytes());
    header[20] = points as u8;
    header[21] = chequers as u8;
    header[22] = CUBELESS;
    header[24..28].copy_from_slice(&BLOCK_ENTRIES.to_le_bytes());
    header[28..36].copy_from_slice(&(blocks.len() as u64).to_le_bytes());
    header[36..44].copy_from_slice(&(table.len() as u64).to_le_bytes());
    let crc = crc32fast::hash(&header[..44]);
    header[44..48].copy_from_slice(&crc.to_le_bytes());
    let data: Vec<&[u8]> = blocks.iter().map(|b| b.as_slice()).collect();
    let data_start = (HEADER_LEN + index_len(data.len()) + 4) as u64;
    let mut tables = index_bytes(data_start, &data);
    let crc = crc32fast::hash(&tables);
    tables.extend_from_slice(&crc.to_le_bytes());
    crate::storage::write_atomic(path, |f| {
        use std::io::Write;
        f.write_all(&header)?;
        f.write_all(&tables)?;
        for d in &data {
            f.write_all(d)?;
        }
        Ok(())
    })
    .map_err(|e| corrupt(path, e.to_string()))?;
    Ok(data_start + data.iter().map(|d| d.len() as u64).sum::<u64>())
}

/// A block's equities as bytes: each (offset by 32768, as gnubg stores
/// them) less the one before it, modulo 65536; the low bytes of all, then
/// the high bytes. Neighbouring opponents differ by one chequer's place, so
/// this compresses 17% better than the values themselves (10 chequers: 94
/// against 114 MB).
fn planes(chunk: &[i16]) -> Vec<u8> {
    let mut out = vec![0u8; 2 * chunk.len()];
    let (low, high) = out.split_at_mut(chunk.len());
    let mut prev = 0u16;
    for (k, &e) in chunk.iter().enumerate() {
        let v = e as u16 ^ 0x8000;
        let u = v.wrapping_sub(prev).to_le_bytes();
        prev = v;
        low[k] = u[0];
        high[k] = u[1];
    }
    out
}

/// An open millbase bear-off file, its header and block index checked; blocks
/// are read by position (no memory map, so a file cut short under a reader
/// is an error, not a fault) and checked as they are read.
pub struct FullFile {
    path: PathBuf,
    file: std::fs::File,
    points: usize,
    chequers: usize,
    blocks: BlockIndex,
}

impl FullFile {
    /// Opens and checks `path`.
    pub fn open(path: &Path) -> Result<FullFile, BearoffError> {
        let io = |error| BearoffError::Io {
            path: path.to_path_buf(),
            error,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let file_len = file.metadata().map_err(io)?.len();
        let read = |at: u64, len: usize| -> Result<Vec<u8>, BearoffError> {
            let mut buf = vec![0u8; len];
            match file.read_exact_at(&mut buf, at) {
                Ok(()) => Ok(buf),
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err(corrupt(
                    path,
                    format!("truncated: {file_len} bytes, its header and offset table do not fit"),
                )),
                Err(e) => Err(io(e)),
            }
        };
        let h = &read(0, HEADER_LEN)?;
        if &h[..16] != MAGIC {
            return Err(corrupt(path, "not a millbase bear-off file"));
        }
        if crc32fast::hash(&h[..44]) != u32::from_le_bytes(h[44..48].try_into().unwrap()) {
            return Err(corrupt(path, "header checksum mismatch"));
        }
        let word = |a: usize| u64::from_le_bytes(h[a..a + 8].try_into().unwrap());
        let version = u32::from_le_bytes(h[16..20].try_into().unwrap());
        let (points, chequers) = (usize::from(h[20]), usize::from(h[21]));
        let block_entries = u32::from_le_bytes(h[24..28].try_into().unwrap());
        let (nb, entries) = (word(28), word(36));
        if version != VERSION || h[22] != CUBELESS {
            return Err(corrupt(
                path,
                format!(
                    "layout {version}, content {}: this millbase reads layout {VERSION} of cubeless equities",
                    h[22]
                ),
            ));
        }
        if !(1..=crate::bearoff::position::MAX_POINTS).contains(&points)
            || !(1..=crate::bearoff::position::MAX_CHEQUERS).contains(&chequers)
        {
            return Err(corrupt(
                path,
                format!("{points} points of {chequers} chequers"),
            ));
        }
        let n = u64::from(positions(points, chequers));
        if block_entries != BLOCK_ENTRIES
            || entries != n * n
            || nb != entries.div_ceil(u64::from(BLOCK_ENTRIES))
        {
            return Err(corrupt(
                path,
                "inconsistent entry or block count in the header",
            ));
        }
        let nb = nb as usize;
        let t = read(HEADER_LEN as u64, index_len(nb) + 4)?;
        let (body, crc) = t.split_at(index_len(nb));
        if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().unwrap()) {
            return Err(corrupt(path, "offset table checksum mismatch"));
        }
        let data_start = (HEADER_LEN + index_len(nb) + 4) as u64;
        let blocks = BlockIndex::parse(path, body, nb, data_start, file_len)
            .map_err(|e| corrupt(path, e.to_string()))?;
        Ok(FullFile {
            path: path.to_path_buf(),
            file,
            points,
            chequers,
            blocks,
        })
    }

    /// Points of a side.
    pub fn points(&self) -> usize {
        self.points
    }

    /// Most chequers of a side.
    pub fn chequers(&self) -> usize {
        self.chequers
    }

    /// The cubeless equity (gnubg's integer) of `us` on roll against `them`.
    pub fn equity(&self, us: u32, them: u32) -> Result<i16, BearoffError> {
        Ok(self.row(us, them, 1)?[0])
    }

    /// The cubeless equities of `us` on roll against `len` opponents from
    /// `them` on.
    pub fn row(&self, us: u32, them: u32, len: usize) -> Result<Vec<i16>, BearoffError> {
        let n = u64::from(positions(self.points, self.chequers));
        if u64::from(us) >= n || u64::from(them) + len as u64 > n {
            return Err(corrupt(
                &self.path,
                format!("no pair ({us}, {them}..+{len}) in a file of {n} positions a side"),
            ));
        }
        let first = u64::from(us) * n + u64::from(them);
        let block_entries = u64::from(BLOCK_ENTRIES);
        let mut out = Vec::with_capacity(len);
        let mut k = first;
        while out.len() < len {
            let b = (k / block_entries) as usize;
            let values = self.block(b)?;
            let from = (k % block_entries) as usize;
            let take = (len - out.len()).min(values.len().saturating_sub(from));
            if take == 0 {
                return Err(corrupt(
                    &self.path,
                    format!("block {b} decodes to too few values"),
                ));
            }
            out.extend_from_slice(&values[from..from + take]);
            k += take as u64;
        }
        Ok(out)
    }

    /// The equities of block `b`, checked and decoded.
    fn block(&self, b: usize) -> Result<Vec<i16>, BearoffError> {
        let (start, end) = (self.blocks.offsets[b], self.blocks.offsets[b + 1]);
        let mut data = vec![0u8; (end - start) as usize];
        self.file.read_exact_at(&mut data, start).map_err(|e| {
            corrupt(
                &self.path,
                format!("block {b} cannot be read ({e}): the file was cut short or changed"),
            )
        })?;
        (self.blocks.check(&self.path, &data, b))
            .map_err(|e| corrupt(&self.path, e.to_string()))?;
        let planes = zstd::bulk::decompress(&data, 2 * BLOCK_ENTRIES as usize)
            .map_err(|e| corrupt(&self.path, format!("block {b}: {e}")))?;
        if planes.len() % 2 != 0 {
            return Err(corrupt(
                &self.path,
                format!("block {b}: an odd number of bytes"),
            ));
        }
        let (low, high) = planes.split_at(planes.len() / 2);
        let mut v = 0u16;
        Ok(low
            .iter()
            .zip(high)
            .map(|(&l, &h)| {
                v = v.wrapping_add(u16::from_le_bytes([l, h]));
                (v ^ 0x8000) as i16
            })
            .collect())
    }
}
