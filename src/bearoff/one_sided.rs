//! One-sided bear-off databases in gnubg's format (`makebearoff -o P`): for
//! every position of up to C chequers on P points, the chance of bearing off
//! in exactly i rolls (i = 0..31) and of bearing off the first chequer in
//! exactly i rolls (the gammon distribution), each under the play that needs
//! the fewest rolls on average, in 16-bit fixed point (65535 is 1).
//!
//! The arithmetic is gnubg's, so the files are byte for byte its files: the
//! best play of a roll is the first (in [`moves::plays`] order) with the
//! least `Σ i·p_i` of the stored distribution, the sums over the rolls are
//! integers rounded by `(s + 18) / 36`, and the rounding's excess is taken
//! from the most likely number of rolls so that each distribution sums to
//! 65535.

use crate::bearoff::file::{BearoffError, Header, Kind, corrupt};
use crate::bearoff::moves::{self, Roll};
use crate::bearoff::position::{Side, positions};
use std::path::Path;

/// Rolls a distribution counts: 0 to 31.
pub const ROLLS: usize = 32;
/// Fixed point 1.
pub const ONE: u16 = 0xFFFF;

/// A position's distributions, in units of 1/65535.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distribution {
    /// Chance of having borne every chequer off after exactly i rolls.
    pub off: [u16; ROLLS],
    /// Chance of having borne the first chequer off after exactly i rolls.
    pub gammon: [u16; ROLLS],
}

impl Distribution {
    /// Every chequer off: done in 0 rolls.
    pub const DONE: Distribution = Distribution {
        off: one_at_zero(),
        gammon: one_at_zero(),
    };

    /// The expected rolls to bear every chequer off.
    pub fn expected_rolls(&self) -> f64 {
        weighted_rolls(&self.off) as f64 / f64::from(ONE)
    }

    /// The expected rolls to bear the first chequer off.
    pub fn expected_rolls_gammon(&self) -> f64 {
        weighted_rolls(&self.gammon) as f64 / f64::from(ONE)
    }
}

const fn one_at_zero() -> [u16; ROLLS] {
    let mut a = [0; ROLLS];
    a[0] = ONE;
    a
}

/// `Σ i·p_i`: what the best play minimises (gnubg's `RollsOS`).
fn weighted_rolls(p: &[u16; ROLLS]) -> u32 {
    p.iter()
        .enumerate()
        .map(|(i, &v)| i as u32 * u32::from(v))
        .sum()
}

/// The distributions of every position of up to `chequers` chequers on
/// `points` points, by index; `progress(done, total)` is called now and then.
pub fn generate(
    points: usize,
    chequers: usize,
    progress: &mut dyn FnMut(u32, u32),
) -> Vec<Distribution> {
    let n = positions(points, chequers);
    let mut table = Vec::with_capacity(n as usize);
    table.push(Distribution::DONE);
    for i in 1..n {
        let side = Side::from_index(i, points).expect("an index below the count");
        table.push(solve(&side, points, chequers, &table));
        if i % 4096 == 0 {
            progress(i, n);
        }
    }
    progress(n, n);
    table
}

/// The distributions of `side` from those of every smaller index.
fn solve(side: &Side, points: usize, chequers: usize, table: &[Distribution]) -> Distribution {
    let all_on = side.chequers() as usize == chequers;
    let mut off = [0u32; ROLLS];
    let mut gammon = [0u32; ROLLS];
    if !all_on {
        gammon[0] = u32::from(ONE) * 36;
    }
    for roll in Roll::all() {
        let mut best: Option<(u32, &Distribution)> = None;
        let mut best_gammon: Option<(u32, &Distribution)> = None;
        for play in moves::plays(side, roll) {
            let d = &table[play.to.index(points) as usize];
            let r = weighted_rolls(&d.off);
            if best.is_none_or(|(b, _)| r < b) {
                best = Some((r, d));
            }
            let g = weighted_rolls(&d.gammon);
            if best_gammon.is_none_or(|(b, _)| g < b) {
                best_gammon = Some((g, d));
            }
        }
        let (best, best_gammon) = (
            best.expect("a legal play").1,
            best_gammon.expect("a play").1,
        );
        let w = roll.weight();
        for i in 0..ROLLS - 1 {
            off[i + 1] += w * u32::from(best.off[i]);
            if all_on {
                gammon[i + 1] += w * u32::from(best_gammon.gammon[i]);
            }
        }
    }
    Distribution {
        off: round(&off),
        gammon: round(&gammon),
    }
}

/// Thirty-sixths to fixed point, rounded, the excess over 1 taken from the
/// first most likely entry.
fn round(sums: &[u32; ROLLS]) -> [u16; ROLLS] {
    let mut out = [0u16; ROLLS];
    let mut total: i64 = 0;
    let mut mode = 0;
    for i in 0..ROLLS {
        out[i] = ((sums[i] + 18) / 36) as u16;
        total += i64::from(out[i]);
        if out[i] > out[mode] {
            mode = i;
        }
    }
    out[mode] = out[mode].wrapping_sub((total - i64::from(ONE)) as u16);
    out
}

/// The first and the number of entries from the first to the last non-zero
/// one (gnubg's `CalcIndex`).
fn nonzero_span(p: &[u16; ROLLS]) -> (usize, usize) {
    let last = p.iter().rposition(|&v| v != 0).unwrap_or(ROLLS - 1);
    let first = p.iter().position(|&v| v != 0).unwrap_or(0).min(last);
    (first, last - first + 1)
}

/// The bytes of gnubg's compressed one-sided file with gammon
/// distributions (makebearoff's defaults): a 40-byte header, an index of
/// 8 bytes a position (offset in entries, then count and first of the
/// non-zero span of each distribution), then the spans as 16-bit
/// little-endian numbers.
pub fn gnubg_bytes(points: usize, chequers: usize, table: &[Distribution]) -> Vec<u8> {
    let header = Header {
        kind: Kind::OneSided {
            gammon: true,
            compressed: true,
        },
        points,
        chequers,
    };
    let mut index = Vec::with_capacity(table.len() * 8);
    let mut data = Vec::with_capacity(table.len() * 16);
    let mut offset: u32 = 0;
    for d in table {
        index.extend_from_slice(&offset.to_le_bytes());
        for p in [&d.off, &d.gammon] {
            let (first, count) = nonzero_span(p);
            index.extend_from_slice(&[count as u8, first as u8]);
            offset += count as u32;
            for v in &p[first..first + count] {
                data.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    let mut bytes = header.encode().to_vec();
    bytes.extend_from_slice(&index);
    bytes.extend_from_slice(&data);
    bytes
}

/// An open one-sided file (any of gnubg's exact layouts: compressed or not,
/// with or without gammon distributions), checked when read.
pub struct OneSidedFile {
    /// The header.
    pub header: Header,
    gammon: bool,
    compressed: bool,
    bytes: Vec<u8>,
    path: std::path::PathBuf,
}

impl OneSidedFile {
    /// The file `bytes` read from `path` with header `header`, its size checked.
    pub(crate) fn new(
        path: &Path,
        header: Header,
        bytes: Vec<u8>,
    ) -> Result<OneSidedFile, BearoffError> {
        let Kind::OneSided { gammon, compressed } = header.kind else {
            return Err(corrupt(path, "not a one-sided file"));
        };
        let n = positions(header.points, header.chequers) as usize;
        let file = OneSidedFile {
            header,
            gammon,
            compressed,
            bytes,
            path: path.to_path_buf(),
        };
        let need = if compressed {
            40 + n * file.index_entry()
        } else {
            40 + n * if gammon { 128 } else { 64 }
        };
        if file.bytes.len() < need {
            return Err(corrupt(
                path,
                format!(
                    "truncated: {} bytes, a {}-point file of {} chequers needs at least {need}",
                    file.bytes.len(),
                    header.points,
                    header.chequers
                ),
            ));
        }
        Ok(file)
    }

    fn index_entry(&self) -> usize {
        if self.gammon { 8 } else { 6 }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file holds gammon distributions.
    pub fn has_gammon(&self) -> bool {
        self.gammon
    }

    /// The distributions of the position of index `index` (the gammon one
    /// all zero in a file without them).
    pub fn distribution(&self, index: u32) -> Result<Distribution, BearoffError> {
        let n = positions(self.header.points, self.header.chequers);
        if index >= n {
            return Err(corrupt(
                &self.path,
                format!("no position {index} in a file of {n}"),
            ));
        }
        let mut d = Distribution {
            off: [0; ROLLS],
            gammon: [0; ROLLS],
        };
        let b = &self.bytes;
        let read = |at: usize| -> Option<u16> {
            b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]]))
        };
        let short = || {
            corrupt(
                &self.path,
                format!("truncated in the values of position {index}"),
            )
        };
        if !self.compressed {
            let size = if self.gammon { 128 } else { 64 };
            let at = 40 + index as usize * size;
            for i in 0..ROLLS {
                d.off[i] = read(at + 2 * i).ok_or_else(short)?;
                if self.gammon {
                    d.gammon[i] = read(at + 64 + 2 * i).ok_or_else(short)?;
                }
            }
            return Ok(d);
        }
        let e = 40 + index as usize * self.index_entry();
        let entry = &b[e..e + self.index_entry()];
        let offset = u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]) as usize;
        let spans = [
            (entry[4], entry[5]),
            if self.gammon {
                (entry[6], entry[7])
            } else {
                (0, 0)
            },
        ];
        let mut at = 40 + n as usize * self.index_entry() + 2 * offset;
        for ((count, first), out) in spans.into_iter().zip([&mut d.off, &mut d.gammon]) {
            let (count, first) = (usize::from(count), usize::from(first));
            if first + count > ROLLS {
                return Err(corrupt(
                    &self.path,
                    format!("position {index}: a span of {count} values from roll {first}"),
                ));
            }
            for v in &mut out[first..first + count] {
                *v = read(at).ok_or_else(short)?;
                at += 2;
            }
        }
        Ok(d)
    }
}
