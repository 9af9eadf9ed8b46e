//! Database files: one file per subspace, values in zstd-compressed blocks with an
//! offset table, checksums on the header, the tables and every block, and the rule
//! variant in the header. See `docs/FORMAT.md`.
//!
//! Files are written to a temporary name, synced and renamed, so a file under its
//! final name is always complete.

use crate::index::{Indexer, Subspace};
use crate::rules::Rules;
use crate::value::{Cell, Counts, Value};
use memmap2::Mmap;
use rayon::prelude::*;
use std::fmt;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// File magic.
pub const MAGIC: &[u8; 8] = b"MILLBASE";
/// Version of the file layout written (version 1 files are still read).
pub const FORMAT_VERSION: u32 = 2;
/// Version of the index scheme (see [`crate::index`]).
pub const INDEX_SCHEME: u32 = 1;
/// Entries per block.
pub const BLOCK_ENTRIES: u32 = 4096;
/// Header size in bytes.
pub const HEADER_LEN: usize = 128;

/// How a file encodes its entries (header byte 21).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Format 1: one byte per entry (0 unused, 1 draw, plies + 2, 255 exception).
    Code8,
    /// Format 2: a win/draw/loss stream of 2-bit codes and a plies stream of one
    /// byte (plies / 2) per win or loss.
    WdlPlies,
    /// Format 2: the win/draw/loss stream only. The plies of a win or loss follow
    /// from its children by a one-ply search (see [`crate::db::encoding_for`]).
    WdlOnly,
    /// Format 2, tables of the no-removal rule ([`crate::counter`]), as first
    /// written: the win/draw/loss stream under the rule and one byte per win
    /// or loss, its distance (at most [`crate::rules::MAX_MOVE_LIMIT`], any
    /// parity). Still read; `millbase upgrade` rewrites it as
    /// [`Encoding::DistanceCode`].
    WdlDistance,
    /// Format 2, tables of the no-removal rule: one byte per entry that the
    /// game's table of the same subspace decides (win or loss), the distance
    /// under the rule, or [`RULE_DRAW`] where the rule draws. The rule wins
    /// only positions the game wins and loses only those it loses, so the
    /// game's win/draw/loss stream serves both, and decoding needs the game's
    /// table ([`Table::rule_block`]). Still read; `millbase upgrade` rewrites
    /// it as [`Encoding::DistanceCode`].
    Distance,
    /// [`Encoding::Distance`] with each distance coded along the game's win
    /// or loss ([`distance_code`]): the usual parity (odd for a win, even for
    /// a loss) takes the codes 0 to 127, so that wins and losses share them.
    DistanceCode,
    /// Format 2, tables of the no-removal rule: no entries, only the header
    /// (counts, largest distances). The distances follow from the children's
    /// stored tables by one ply, as the plies of [`Encoding::WdlOnly`] do
    /// (see [`crate::db::stores_plies`]).
    CountsOnly,
}

impl Encoding {
    fn code(self) -> u8 {
        match self {
            Encoding::Code8 => 1,
            Encoding::WdlPlies => 2,
            Encoding::WdlOnly => 3,
            Encoding::WdlDistance => 4,
            Encoding::Distance => 5,
            Encoding::CountsOnly => 6,
            Encoding::DistanceCode => 7,
        }
    }
}

const CODE_UNUSED: u8 = 0;
const CODE_DRAW: u8 = 1;
const CODE_EXCEPTION: u8 = 255;
const MAX_INLINE_PLIES: u16 = (CODE_EXCEPTION - 3) as u16;
/// A plies byte of format 2 saying "in the exception table".
const HALF_PLIES_EXCEPTION: u8 = 255;
/// The distance byte of [`Encoding::Distance`] and [`Encoding::DistanceCode`]
/// for a win or loss of the game that the no-removal rule draws (a cursed
/// win, a blessed loss).
pub const RULE_DRAW: u8 = 255;
/// zstd level: 3 compresses ~10x faster than 9 for files ~7% larger (measured on 6-6).
const ZSTD_LEVEL: i32 = 3;
/// zstd level of the distance streams of rule tables
/// ([`Encoding::DistanceCode`]): level 12 makes the whole game's rule files
/// 7.5% smaller (1.67 GB against 1.79 GB, flying) but took about 3 times as
/// long to write (7-7's file 13.3 to 15.1 s against 4.6 s): the whole
/// flying rule run spent 481.5 s outside its solves at level 12, 176.9 s at
/// level 6, against a target of one hour for all of it (docs/RESULTS.md).
const RULE_ZSTD_LEVEL: i32 = 6;
/// zstd level of the distance streams of rule work files
/// ([`write_rule_work_table`]): deleted once their parents are solved, so
/// written fast rather than small.
const RULE_WORK_ZSTD_LEVEL: i32 = ZSTD_LEVEL;

/// The byte of [`Encoding::DistanceCode`] for the distance `d` (at most
/// [`crate::rules::MAX_MOVE_LIMIT`]) under the rule of an entry the game
/// wins (`win`) or loses: `d / 2` for the usual parity (odd for a win, even
/// for a loss: 0 to 127), `128 + (d - 1) / 2` for the other (128 to 254).
/// `None` for a win at distance 0, which cannot be.
pub fn distance_code(d: u16, win: bool) -> Option<u8> {
    if d > crate::rules::MAX_MOVE_LIMIT || (win && d == 0) {
        return None;
    }
    let code = if (d % 2 == 1) == win {
        d / 2
    } else {
        128 + (d - 1) / 2
    };
    u8::try_from(code).ok()
}

/// The distance of [`Encoding::DistanceCode`] byte `code` (not
/// [`RULE_DRAW`]) of an entry the game wins (`win`) or loses; `None` for a
/// code no distance has (127 of a win).
pub fn distance_of_code(code: u8, win: bool) -> Option<u16> {
    let c = u16::from(code);
    match (code, win) {
        (RULE_DRAW, _) | (127, true) => None,
        (0..=126, true) => Some(2 * c + 1),
        (128.., true) => Some(2 * (c - 127)),
        (0..=127, false) => Some(2 * c),
        (128.., false) => Some(2 * (c - 128) + 1),
    }
}

/// A fault in a database file or directory, naming the file.
#[derive(Debug)]
pub enum StorageError {
    /// An operating-system error on a file.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is damaged, truncated or not a millbase file.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        fault: String,
    },
    /// The file or directory is for the other rule variant.
    WrongVariant {
        /// The file or directory.
        path: PathBuf,
        /// Variant found.
        found: &'static str,
        /// Variant asked for.
        expected: &'static str,
    },
    /// The database directory does not exist.
    NoDatabase {
        /// The directory.
        path: PathBuf,
    },
    /// The file holds another subspace than its name says.
    OtherSubspace {
        /// The file.
        path: PathBuf,
        /// The subspace it holds.
        found: Subspace,
        /// The subspace asked for.
        expected: Subspace,
    },
    /// Another process is writing the database directory.
    Locked {
        /// The lock file.
        path: PathBuf,
        /// The holder's process id, where it could be read.
        holder: Option<u32>,
    },
    /// The directory is not one millbase may write to as asked; `reason` says
    /// why and what to do.
    Refused {
        /// The directory.
        path: PathBuf,
        /// Why, and what to do.
        reason: String,
    },
    /// A subspace file is not in the database.
    Missing {
        /// The file that should hold it.
        path: PathBuf,
        /// The subspace.
        subspace: Subspace,
    },
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            StorageError::Corrupt { path, fault } => {
                write!(
                    f,
                    "{}: {fault}; delete it and run generate again to rebuild it",
                    path.display()
                )
            }
            StorageError::WrongVariant {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: database is for the {found} rules, but {expected} was asked for \
                 (use another --db directory, or add/remove --no-flying)",
                path.display()
            ),
            StorageError::NoDatabase { path } => write!(
                f,
                "{}: no database directory here; build one with `millbase generate --db {}`",
                path.display(),
                path.display()
            ),
            StorageError::OtherSubspace {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: holds subspace {found}, expected {expected} (a file renamed or copied \
                 from elsewhere?)",
                path.display()
            ),
            StorageError::Locked { path, holder } => {
                let who = holder.map_or("another process".to_string(), |p| format!("process {p}"));
                write!(
                    f,
                    "{}: the database is being written by {who} (another generate or upgrade); \
                     wait for it to finish, or stop it, then run this again",
                    path.display()
                )
            }
            StorageError::Refused { path, reason } => {
                write!(f, "{}: {reason}", path.display())
            }
            StorageError::Missing { path, subspace } => write!(
                f,
                "{}: subspace {subspace} is not in the database; run generate to build it",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StorageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StorageError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> StorageError + '_ {
    move |source| StorageError::Io {
        path: path.to_path_buf(),
        source,
    }
}

pub(crate) fn corrupt(path: &Path, fault: impl Into<String>) -> StorageError {
    StorageError::Corrupt {
        path: path.to_path_buf(),
        fault: fault.into(),
    }
}

/// Header of a subspace file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Rule variant.
    pub rules: Rules,
    /// The subspace.
    pub subspace: Subspace,
    /// Format version of the file.
    pub version: u32,
    /// Entry encoding.
    pub encoding: Encoding,
    /// Entries per block.
    pub block_entries: u32,
    /// Number of exceptions (plies too large for a byte).
    pub exceptions: u32,
    /// Index range of the subspace.
    pub entries: u64,
    /// Number of blocks.
    pub blocks: u64,
    /// Value counts.
    pub counts: Counts,
}

impl Header {
    fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&self.version.to_le_bytes());
        h[12..16].copy_from_slice(&INDEX_SCHEME.to_le_bytes());
        h[16] = rules_code(self.rules);
        let s = self.subspace;
        h[17..21].copy_from_slice(&[s.mover, s.opponent, s.mover_hand, s.opponent_hand]);
        h[21] = self.encoding.code();
        h[24..28].copy_from_slice(&self.block_entries.to_le_bytes());
        h[28..32].copy_from_slice(&self.exceptions.to_le_bytes());
        let c = &self.counts;
        let words = [
            self.entries,
            self.blocks,
            c.classes,
            c.wins,
            c.losses,
            c.draws,
            c.all_wins,
            c.all_losses,
            c.all_draws,
        ];
        for (i, w) in words.iter().enumerate() {
            h[32 + 8 * i..40 + 8 * i].copy_from_slice(&w.to_le_bytes());
        }
        h[104..106].copy_from_slice(&c.max_win.to_le_bytes());
        h[106..108].copy_from_slice(&c.max_loss.to_le_bytes());
        let crc = crc32fast::hash(&h[..HEADER_LEN - 4]);
        h[HEADER_LEN - 4..].copy_from_slice(&crc.to_le_bytes());
        h
    }

    fn decode(path: &Path, h: &[u8]) -> Result<Header, StorageError> {
        if h.len() < HEADER_LEN {
            return Err(corrupt(
                path,
                format!("truncated: {} bytes, shorter than the header", h.len()),
            ));
        }
        if &h[0..8] != MAGIC {
            return Err(corrupt(
                path,
                "not a millbase database file (bad magic bytes)",
            ));
        }
        let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().unwrap());
        let u16_at = |o: usize| u16::from_le_bytes(h[o..o + 2].try_into().unwrap());
        if crc32fast::hash(&h[..HEADER_LEN - 4]) != u32_at(HEADER_LEN - 4) {
            return Err(corrupt(path, "header checksum mismatch"));
        }
        let version = u32_at(8);
        if version != 1 && version != FORMAT_VERSION {
            return Err(corrupt(
                path,
                format!("format version {version} (this millbase reads 1 and {FORMAT_VERSION})"),
            ));
        }
        if u32_at(12) != INDEX_SCHEME {
            return Err(corrupt(
                path,
                format!(
                    "index scheme {} (this millbase uses {INDEX_SCHEME})",
                    u32_at(12)
                ),
            ));
        }
        let encoding = match (version, h[21]) {
            (1, 1) => Encoding::Code8,
            (2, 2) => Encoding::WdlPlies,
            (2, 3) => Encoding::WdlOnly,
            (2, 4) => Encoding::WdlDistance,
            (2, 5) => Encoding::Distance,
            (2, 6) => Encoding::CountsOnly,
            (2, 7) => Encoding::DistanceCode,
            (v, e) => {
                return Err(corrupt(
                    path,
                    format!("unknown entry encoding {e} for format version {v}"),
                ));
            }
        };
        let rules = match h[16] {
            0 => Rules { flying: true },
            1 => Rules { flying: false },
            x => return Err(corrupt(path, format!("unknown rule variant code {x}"))),
        };
        Ok(Header {
            rules,
            subspace: Subspace {
                mover: h[17],
                opponent: h[18],
                mover_hand: h[19],
                opponent_hand: h[20],
            },
            version,
            encoding,
            block_entries: u32_at(24),
            exceptions: u32_at(28),
            entries: u64_at(32),
            blocks: u64_at(40),
            counts: Counts {
                classes: u64_at(48),
                wins: u64_at(56),
                losses: u64_at(64),
                draws: u64_at(72),
                all_wins: u64_at(80),
                all_losses: u64_at(88),
                all_draws: u64_at(96),
                max_win: u16_at(104),
                max_loss: u16_at(106),
            },
        })
    }
}

fn rules_code(r: Rules) -> u8 {
    if r.flying { 0 } else { 1 }
}

fn encode_cell(c: Cell) -> u8 {
    match c.value() {
        None => CODE_UNUSED,
        Some(Value::Draw) => CODE_DRAW,
        Some(v) => {
            let n = v.plies().unwrap_or(0);
            if n <= MAX_INLINE_PLIES {
                (n + 2) as u8
            } else {
                CODE_EXCEPTION
            }
        }
    }
}

fn decode_code(code: u8) -> Option<Value> {
    match code {
        CODE_UNUSED => None,
        CODE_DRAW => Some(Value::Draw),
        _ => Some(plies_value((code - 2) as u16)),
    }
}

/// Wins have odd plies, losses even.
fn plies_value(n: u16) -> Value {
    if n % 2 == 1 {
        Value::Win(n)
    } else {
        Value::Loss(n)
    }
}

/// A compressed block and the exceptions of its entries.
type EncodedBlock = (Vec<u8>, Vec<(u64, u16)>);

/// Encodes and compresses the cells of one block (the first at index `first`;
/// for the distance encodings, `game` holds the game's cells of the block, and
/// the distances are compressed at zstd level `distance_level`).
fn encode_block(
    zc: &mut zstd::bulk::Compressor<'_>,
    (encoding, distance_level): (Encoding, i32),
    cells: &[Cell],
    game: Option<&[Cell]>,
    first: u64,
) -> std::io::Result<EncodedBlock> {
    let plies_of = |c: Cell| c.value().and_then(Value::plies).unwrap_or(0);
    let mut exceptions = vec![];
    zc.set_compression_level(ZSTD_LEVEL)?;
    let data = match encoding {
        Encoding::Code8 => {
            let mut codes = Vec::with_capacity(cells.len());
            for (j, &c) in cells.iter().enumerate() {
                let code = encode_cell(c);
                if code == CODE_EXCEPTION {
                    exceptions.push((first + j as u64, plies_of(c)));
                }
                codes.push(code);
            }
            zc.compress(&codes)?
        }
        Encoding::Distance | Encoding::DistanceCode => {
            // write_encoded checked that the game's table has the same size
            let game = game.ok_or_else(|| {
                std::io::Error::other("a rule table is written with the game's table")
            })?;
            let coded = encoding == Encoding::DistanceCode;
            let mut distances = vec![];
            for (j, (&c, &g)) in cells.iter().zip(game).enumerate() {
                let byte = match (g.wdl_code(), c.value()) {
                    (0 | 1, _) if c.wdl_code() == g.wdl_code() => continue,
                    (2 | 3, Some(Value::Draw)) => Some(RULE_DRAW),
                    (2, Some(Value::Win(d))) if coded => distance_code(d, true),
                    (3, Some(Value::Loss(d))) if coded => distance_code(d, false),
                    (2, Some(Value::Win(d))) | (3, Some(Value::Loss(d)))
                        if d < RULE_DRAW as u16 =>
                    {
                        Some(d as u8)
                    }
                    _ => None,
                };
                let byte = match byte {
                    Some(b) => b,
                    None => {
                        return Err(std::io::Error::other(format!(
                            "entry {}: the rule's value {:?} does not fit the game's \
                             win/draw/loss code {}",
                            first + j as u64,
                            c.value(),
                            g.wdl_code()
                        )));
                    }
                };
                distances.push(byte);
            }
            if distances.is_empty() {
                vec![]
            } else {
                zc.set_compression_level(distance_level)?;
                zc.compress(&distances)?
            }
        }
        Encoding::CountsOnly => {
            return Err(std::io::Error::other("a counts-only table has no blocks"));
        }
        Encoding::WdlPlies | Encoding::WdlOnly | Encoding::WdlDistance => {
            let mut wdl = vec![0u8; cells.len().div_ceil(4)];
            let mut half_plies = vec![];
            for (j, &c) in cells.iter().enumerate() {
                let code = c.wdl_code();
                wdl[j / 4] |= code << (2 * (j % 4));
                if encoding == Encoding::WdlDistance && code >= 2 {
                    // a distance is at most MAX_MOVE_LIMIT: never an exception
                    half_plies.push(u8::try_from(plies_of(c)).unwrap_or(HALF_PLIES_EXCEPTION));
                } else if encoding == Encoding::WdlPlies && code >= 2 {
                    let n = plies_of(c);
                    debug_assert!(c.value().is_some(), "a win or loss without plies");
                    match u8::try_from(n / 2) {
                        Ok(h) if h != HALF_PLIES_EXCEPTION => half_plies.push(h),
                        _ => {
                            half_plies.push(HALF_PLIES_EXCEPTION);
                            exceptions.push((first + j as u64, n));
                        }
                    }
                }
            }
            let w = zc.compress(&wdl)?;
            let mut data = Vec::with_capacity(4 + w.len() + half_plies.len() / 2);
            data.extend_from_slice(&(w.len() as u32).to_le_bytes());
            data.extend_from_slice(&w);
            if !half_plies.is_empty() {
                data.extend_from_slice(&zc.compress(&half_plies)?);
            }
            data
        }
    };
    Ok((data, exceptions))
}

/// Writes the table of `sub` (one cell per index; every canonical slot holds a
/// final value) atomically to `path` with `encoding` ([`crate::db::encoding_for`]
/// for a database file; not a distance encoding, see [`write_rule_table`]).
/// Returns the bytes written.
pub fn write_table(
    path: &Path,
    rules: Rules,
    sub: Subspace,
    cells: &[Cell],
    counts: Counts,
    encoding: Encoding,
) -> Result<u64, StorageError> {
    write_encoded(
        path,
        rules,
        sub,
        (cells, None),
        counts,
        (encoding, ZSTD_LEVEL),
    )
}

/// Writes the table of the no-removal rule of `sub` (`cells`: distances,
/// [`crate::counter`]) atomically to `path` in `encoding`
/// ([`Encoding::DistanceCode`], as written now, or the earlier
/// [`Encoding::Distance`]), along the game's table `game` of the same
/// subspace. Returns the bytes written.
pub fn write_rule_table(
    path: &Path,
    rules: Rules,
    sub: Subspace,
    (cells, game): (&[Cell], &[Cell]),
    counts: Counts,
    encoding: Encoding,
) -> Result<u64, StorageError> {
    if !matches!(encoding, Encoding::Distance | Encoding::DistanceCode) {
        return Err(StorageError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(format!("{encoding:?} is not a distance encoding")),
        });
    }
    let compression = (encoding, RULE_ZSTD_LEVEL);
    write_encoded(path, rules, sub, (cells, Some(game)), counts, compression)
}

/// [`write_rule_table`] in [`Encoding::DistanceCode`] for a work file: the
/// same entries, compressed faster and less.
pub fn write_rule_work_table(
    path: &Path,
    rules: Rules,
    sub: Subspace,
    tables: (&[Cell], &[Cell]),
    counts: Counts,
) -> Result<u64, StorageError> {
    let compression = (Encoding::DistanceCode, RULE_WORK_ZSTD_LEVEL);
    write_encoded(
        path,
        rules,
        sub,
        (tables.0, Some(tables.1)),
        counts,
        compression,
    )
}

/// Writes the header of the table of the no-removal rule of `sub` with
/// `entries` entries and `counts` ([`Encoding::CountsOnly`]) atomically to
/// `path`: no entries are stored. Returns the bytes written.
pub fn write_rule_counts(
    path: &Path,
    rules: Rules,
    sub: Subspace,
    entries: u64,
    counts: Counts,
) -> Result<u64, StorageError> {
    let header = Header {
        version: FORMAT_VERSION,
        encoding: Encoding::CountsOnly,
        rules,
        subspace: sub,
        block_entries: BLOCK_ENTRIES,
        exceptions: 0,
        entries,
        blocks: 0,
        counts,
    };
    write_header_only(path, &header)
}

fn write_encoded(
    path: &Path,
    rules: Rules,
    sub: Subspace,
    (cells, game): (&[Cell], Option<&[Cell]>),
    counts: Counts,
    (encoding, distance_level): (Encoding, i32),
) -> Result<u64, StorageError> {
    let be = BLOCK_ENTRIES as usize;
    if game.is_some_and(|g| g.len() != cells.len()) {
        return Err(io_err(path)(std::io::Error::other(
            "the game's table has another size",
        )));
    }
    let blocks: Vec<EncodedBlock> = cells
        .par_chunks(be)
        .enumerate()
        .map_init(zstd::bulk::Compressor::default, |zc, (b, chunk)| {
            let g = game.map(|g| &g[b * be..b * be + chunk.len()]);
            encode_block(zc, (encoding, distance_level), chunk, g, (b * be) as u64)
        })
        .collect::<std::io::Result<_>>()
        .map_err(io_err(path))?;
    let exceptions: Vec<(u64, u16)> = blocks.iter().flat_map(|b| b.1.iter().copied()).collect();
    let header = Header {
        version: if encoding == Encoding::Code8 {
            1
        } else {
            FORMAT_VERSION
        },
        encoding,
        rules,
        subspace: sub,
        block_entries: BLOCK_ENTRIES,
        exceptions: exceptions.len() as u32,
        entries: cells.len() as u64,
        blocks: blocks.len() as u64,
        counts,
    };
    let mut tables = Vec::with_capacity(blocks.len() * 12 + exceptions.len() * 10 + 12);
    let data_start =
        (HEADER_LEN + 8 * (blocks.len() + 1) + 4 * blocks.len() + 10 * exceptions.len() + 4) as u64;
    let mut offset = data_start;
    for (data, _) in &blocks {
        tables.extend_from_slice(&offset.to_le_bytes());
        offset += data.len() as u64;
    }
    tables.extend_from_slice(&offset.to_le_bytes());
    for (data, _) in &blocks {
        tables.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
    }
    for (i, n) in &exceptions {
        tables.extend_from_slice(&i.to_le_bytes());
        tables.extend_from_slice(&n.to_le_bytes());
    }
    let crc = crc32fast::hash(&tables);
    tables.extend_from_slice(&crc.to_le_bytes());
    let data: Vec<&[u8]> = blocks.iter().map(|b| b.0.as_slice()).collect();
    write_tables(path, &header, tables, &data)
}

/// Writes a file of no blocks: `header` and its tables (the one offset, the
/// file's length, and their checksum).
fn write_header_only(path: &Path, header: &Header) -> Result<u64, StorageError> {
    let mut tables = ((HEADER_LEN + 12) as u64).to_le_bytes().to_vec();
    let crc = crc32fast::hash(&tables);
    tables.extend_from_slice(&crc.to_le_bytes());
    write_tables(path, header, tables, &[])
}

/// Writes `header`, `tables` and the blocks `data` atomically; returns the
/// bytes written.
fn write_tables(
    path: &Path,
    header: &Header,
    tables: Vec<u8>,
    data: &[&[u8]],
) -> Result<u64, StorageError> {
    write_atomic(path, |f| {
        f.write_all(&header.encode())?;
        f.write_all(&tables)?;
        for d in data {
            f.write_all(d)?;
        }
        Ok(())
    })?;
    Ok((HEADER_LEN + tables.len() + data.iter().map(|d| d.len()).sum::<usize>()) as u64)
}

/// The ending of the temporaries [`write_atomic`] writes.
pub const TEMPORARY_SUFFIX: &str = ".millbase-tmp";

/// The temporary name under which [`write_atomic`] writes `path`: unique to
/// this process, and recognisably millbase's (`NAME.PID.millbase-tmp`).
pub fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}{TEMPORARY_SUFFIX}", std::process::id()));
    path.with_file_name(name)
}

/// Writes a file atomically: `write` fills a temporary beside `path`, which is
/// synced and renamed to `path` (and the directory synced), so a file under its
/// final name is always complete. On failure the temporary is removed.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), StorageError> {
    let tmp = temporary_path(path);
    let run = || -> std::io::Result<()> {
        let mut f = std::io::BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        write(&mut f)?;
        let f = f.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()
    };
    if let Err(e) = run() {
        let _ = fs::remove_file(&tmp);
        return Err(io_err(&tmp)(e));
    }
    fs::rename(&tmp, path).map_err(io_err(path))?;
    if let Some(dir) = path.parent()
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
    Ok(())
}

/// What identifies a file on disk: a file replaced by rename or changed in
/// place has another identity than the one a reader opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileIdentity {
    device: u64,
    inode: u64,
    len: u64,
    modified_ns: i128,
}

impl FileIdentity {
    fn of(meta: &fs::Metadata) -> FileIdentity {
        use std::os::unix::fs::MetadataExt;
        FileIdentity {
            device: meta.dev(),
            inode: meta.ino(),
            len: meta.len(),
            modified_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
        }
    }

    /// The identity of the file now at `path`.
    pub fn at(path: &Path) -> std::io::Result<FileIdentity> {
        fs::metadata(path).map(|m| FileIdentity::of(&m))
    }
}

thread_local! {
    /// One zstd decompression context and one buffer of compressed bytes per
    /// thread, reused for every block a single-block read decodes.
    static BLOCK_READER: std::cell::RefCell<(zstd::bulk::Decompressor<'static>, Vec<u8>)> =
        std::cell::RefCell::new((
            zstd::bulk::Decompressor::new().expect("a zstd decompression context"),
            Vec::new(),
        ));
}

/// An open subspace file. Whole-table reads go through a memory map; single
/// blocks ([`Table::block`], [`Table::rule_block`]) are read by position into
/// memory, so a file truncated under a running reader gives an error, never a
/// fault on a mapped page.
pub struct Table {
    path: PathBuf,
    map: Mmap,
    file: File,
    identity: FileIdentity,
    /// The file's header.
    pub header: Header,
    offsets: Vec<u64>,
    crcs: Vec<u32>,
    exceptions: Vec<(u64, u16)>,
}

impl Table {
    /// Opens a database file and checks its header and tables (block
    /// checksums are checked as blocks are read). Fails if it is not a file of
    /// `rules` and `sub`.
    pub fn open(path: &Path, rules: Rules, sub: Subspace) -> Result<Table, StorageError> {
        let file = File::open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                StorageError::Missing {
                    path: path.to_path_buf(),
                    subspace: sub,
                }
            } else {
                io_err(path)(e)
            }
        })?;
        let identity = FileIdentity::of(&file.metadata().map_err(io_err(path))?);
        // SAFETY: the map is read-only and millbase only ever replaces files by
        // rename, never in place. The map is read here (header and tables) and by
        // the whole-table reads of generate and verify, which hold the
        // database's lock; a query's single blocks are read by position instead.
        let map = unsafe { Mmap::map(&file) }.map_err(io_err(path))?;
        let header = Header::decode(path, &map)?;
        if header.rules != rules {
            return Err(StorageError::WrongVariant {
                path: path.to_path_buf(),
                found: header.rules.name(),
                expected: rules.name(),
            });
        }
        if header.subspace != sub {
            return Err(StorageError::OtherSubspace {
                path: path.to_path_buf(),
                found: header.subspace,
                expected: sub,
            });
        }
        let size = Indexer::index_size_of(sub);
        if header.entries != size {
            return Err(corrupt(
                path,
                format!(
                    "holds {} entries, but the index of subspace {sub} has {size}",
                    header.entries
                ),
            ));
        }
        // the block count is worked out only once the block size is known
        // not to be 0
        let want_blocks = |h: &Header| match h.encoding {
            Encoding::CountsOnly => 0,
            _ => h.entries.div_ceil(u64::from(h.block_entries)),
        };
        if header.block_entries == 0
            || header.block_entries % 64 != 0
            || header.blocks != want_blocks(&header)
        {
            return Err(corrupt(path, "inconsistent block size or count in header"));
        }
        let nb = header.blocks as usize;
        let tables_len = 8 * (nb + 1) + 4 * nb + 10 * header.exceptions as usize + 4;
        let t = map
            .get(HEADER_LEN..HEADER_LEN + tables_len)
            .ok_or_else(|| {
                corrupt(
                    path,
                    format!(
                        "truncated: {} bytes, the offset table does not fit",
                        map.len()
                    ),
                )
            })?;
        let (body, crc) = t.split_at(tables_len - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().unwrap()) {
            return Err(corrupt(path, "offset table checksum mismatch"));
        }
        let offsets: Vec<u64> = body[..8 * (nb + 1)]
            .chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let crcs: Vec<u32> = body[8 * (nb + 1)..8 * (nb + 1) + 4 * nb]
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let exceptions: Vec<(u64, u16)> = body[8 * (nb + 1) + 4 * nb..]
            .chunks(10)
            .map(|c| {
                (
                    u64::from_le_bytes(c[..8].try_into().unwrap()),
                    u16::from_le_bytes(c[8..].try_into().unwrap()),
                )
            })
            .collect();
        let data_start = (HEADER_LEN + tables_len) as u64;
        if offsets[0] != data_start || offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(corrupt(path, "offset table out of order"));
        }
        if offsets[nb] != map.len() as u64 {
            return Err(corrupt(
                path,
                format!(
                    "truncated or extended: {} bytes, expected {}",
                    map.len(),
                    offsets[nb]
                ),
            ));
        }
        if exceptions.windows(2).any(|w| w[0].0 >= w[1].0)
            || exceptions.last().is_some_and(|e| e.0 >= header.entries)
        {
            return Err(corrupt(path, "exception table out of order"));
        }
        Ok(Table {
            path: path.to_path_buf(),
            map,
            file,
            identity,
            header,
            offsets,
            crcs,
            exceptions,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Size of the file in bytes.
    pub fn file_len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Whether the file stores plies (otherwise wins and losses decode as
    /// [`Cell::WON`] and [`Cell::LOST`]).
    pub fn has_plies(&self) -> bool {
        self.header.encoding != Encoding::WdlOnly
    }

    /// The identity of the file as it was opened.
    pub fn identity(&self) -> FileIdentity {
        self.identity
    }

    /// Decodes block `b` into cells, checking its checksum and size. A table
    /// in a distance encoding decodes with [`Table::rule_block`] only.
    pub fn block(&self, b: usize) -> Result<Vec<Cell>, StorageError> {
        self.read_block(b, None)
    }

    /// Decodes block `b` of a table of the no-removal rule, whose game's
    /// table holds `game` in that block (ignored where the rule table holds
    /// its own win/draw/loss, [`Encoding::WdlDistance`]).
    pub fn rule_block(&self, b: usize, game: &[Cell]) -> Result<Vec<Cell>, StorageError> {
        self.read_block(b, Some(game))
    }

    /// Block `b` read from the file by position (not through the map) and
    /// decoded with this thread's decompressor.
    fn read_block(&self, b: usize, game: Option<&[Cell]>) -> Result<Vec<Cell>, StorageError> {
        use std::os::unix::fs::FileExt;
        if b >= self.header.blocks as usize {
            let f = format!("block {b} {}", self.no_such_block());
            return Err(corrupt(&self.path, f));
        }
        let (start, end) = (self.offsets[b], self.offsets[b + 1]);
        BLOCK_READER.with_borrow_mut(|(zd, data)| {
            data.resize((end - start) as usize, 0);
            self.file.read_exact_at(data, start).map_err(|e| {
                if e.kind() == std::io::ErrorKind::UnexpectedEof {
                    corrupt(
                        &self.path,
                        format!("truncated: block {b} lies past the end"),
                    )
                } else {
                    io_err(&self.path)(e)
                }
            })?;
            if crc32fast::hash(data) != self.crcs[b] {
                return Err(corrupt(&self.path, format!("block {b} checksum mismatch")));
            }
            let mut out = Vec::with_capacity(self.header.block_entries as usize);
            self.block_with(zd, b, data, false, game, &mut out)?;
            Ok(out)
        })
    }

    /// The plies of exception entry `index`.
    fn exception(&self, index: u64) -> Result<u16, StorageError> {
        match self.exceptions.binary_search_by_key(&index, |e| e.0) {
            Ok(k) => Ok(self.exceptions[k].1),
            Err(_) => Err(corrupt(
                &self.path,
                format!("entry {index} has no exception record"),
            )),
        }
    }

    /// The compressed bytes of block `b`, once it exists and its checksum
    /// matches.
    fn block_data(&self, b: usize) -> Result<&[u8], StorageError> {
        if b >= self.header.blocks as usize {
            return Err(corrupt(
                &self.path,
                format!("block {b} {}", self.no_such_block()),
            ));
        }
        let data = &self.map[self.offsets[b] as usize..self.offsets[b + 1] as usize];
        if crc32fast::hash(data) != self.crcs[b] {
            return Err(corrupt(&self.path, format!("block {b} checksum mismatch")));
        }
        Ok(data)
    }

    /// Decodes block `b` from its checked bytes `data` ([`Table::block_data`])
    /// with a caller's decompressor and buffer (reused); `game`: the game's
    /// cells of the block, for the distance encodings.
    fn block_with(
        &self,
        zd: &mut zstd::bulk::Decompressor<'_>,
        b: usize,
        data: &[u8],
        outcomes_only: bool,
        game: Option<&[Cell]>,
        out: &mut Vec<Cell>,
    ) -> Result<(), StorageError> {
        let fault = |f: String| corrupt(&self.path, format!("block {b} {f}"));
        let be = self.header.block_entries as u64;
        let first = b as u64 * be;
        let want = (self.header.entries - first).min(be) as usize;
        let mut unpack = |frame: &[u8], len: usize, what: &str| {
            let bytes = zd
                .decompress(frame, len)
                .map_err(|e| fault(format!("{what} does not decompress: {e}")))?;
            if bytes.len() != len {
                return Err(fault(format!(
                    "{what} holds {} bytes, expected {len}",
                    bytes.len()
                )));
            }
            Ok(bytes)
        };
        out.clear();
        if self.header.encoding == Encoding::Code8 {
            for (j, code) in unpack(data, want, "entry stream")?.into_iter().enumerate() {
                out.push(match code {
                    CODE_EXCEPTION => {
                        Cell::from_value(plies_value(self.exception(first + j as u64)?))
                    }
                    c => decode_code(c).map_or(Cell::UNUSED, Cell::from_value),
                });
            }
            return Ok(());
        }
        let coded = self.header.encoding == Encoding::DistanceCode;
        if coded || self.header.encoding == Encoding::Distance {
            let game = game.ok_or_else(|| {
                fault("is of a rule table: it decodes with the game's table".into())
            })?;
            if game.len() != want {
                return Err(fault(format!(
                    "has {want} entries, the game's table {}",
                    game.len()
                )));
            }
            let decided = game.iter().filter(|g| g.wdl_code() >= 2).count();
            let distances = if decided == 0 {
                if !data.is_empty() {
                    return Err(fault("has bytes past its streams".into()));
                }
                vec![]
            } else {
                unpack(data, decided, "distance stream")?
            };
            let mut next = distances.iter();
            for (j, g) in game.iter().enumerate() {
                let (code, win) = (g.wdl_code(), g.wdl_code() == 2);
                let byte = if code >= 2 {
                    next.next().copied()
                } else {
                    None
                };
                out.push(match (code, byte) {
                    (0, _) => Cell::UNUSED,
                    (1, _) => Cell::DRAW,
                    (_, Some(RULE_DRAW)) => Cell::DRAW,
                    (_, Some(b)) => {
                        let d = if coded {
                            distance_of_code(b, win)
                        } else {
                            Some(u16::from(b))
                        };
                        match d.filter(|&d| d <= crate::rules::MAX_MOVE_LIMIT) {
                            Some(d) if win => Cell::from_value(Value::Win(d)),
                            Some(d) => Cell::from_value(Value::Loss(d)),
                            None => {
                                return Err(fault(format!(
                                    "entry {} has no distance up to {}",
                                    first + j as u64,
                                    crate::rules::MAX_MOVE_LIMIT
                                )));
                            }
                        }
                    }
                    (_, None) => unreachable!("one distance per decided entry"),
                });
            }
            return Ok(());
        }
        let (len, rest) = data
            .split_first_chunk::<4>()
            .ok_or_else(|| fault("shorter than its frame length".into()))?;
        let len = u32::from_le_bytes(*len) as usize;
        if len > rest.len() {
            return Err(fault("frame length beyond the block".into()));
        }
        let (wdl_frame, plies_frame) = rest.split_at(len);
        let wdl = unpack(wdl_frame, want.div_ceil(4), "win/draw/loss stream")?;
        if !want.is_multiple_of(4) && wdl[want / 4] >> (2 * (want % 4)) != 0 {
            return Err(fault("sets bits past its last entry".into()));
        }
        let decided = wdl.iter().map(|&w| (w & 0xAA).count_ones() as usize).sum();
        let half_plies = if !self.has_plies() || decided == 0 {
            if !plies_frame.is_empty() {
                return Err(fault("has bytes past its streams".into()));
            }
            vec![]
        } else if outcomes_only {
            vec![] // not needed; the block checksum covers it
        } else {
            unpack(plies_frame, decided, "plies stream")?
        };
        let mut half = half_plies.iter();
        for j in 0..want {
            let code = wdl[j / 4] >> (2 * (j % 4)) & 3;
            let win = code == 2;
            let h = if code >= 2 { half.next() } else { None };
            out.push(match (code, h) {
                (0, _) => Cell::UNUSED,
                (1, _) => Cell::DRAW,
                (_, None) if win => Cell::WON,
                (_, None) => Cell::LOST,
                (_, Some(&h)) if self.header.encoding == Encoding::WdlDistance => {
                    if h == HALF_PLIES_EXCEPTION {
                        return Err(fault(format!(
                            "entry {} has a distance beyond {}",
                            first + j as u64,
                            crate::rules::MAX_MOVE_LIMIT
                        )));
                    }
                    let d = h as u16;
                    Cell::from_value(if win { Value::Win(d) } else { Value::Loss(d) })
                }
                (_, Some(&h)) => {
                    let n = if h == HALF_PLIES_EXCEPTION {
                        self.exception(first + j as u64)?
                    } else {
                        2 * h as u16 + win as u16
                    };
                    if (n % 2 == 1) != win {
                        return Err(fault(format!(
                            "entry {} has plies of the wrong parity",
                            first + j as u64
                        )));
                    }
                    Cell::from_value(plies_value(n))
                }
            });
        }
        Ok(())
    }

    /// Decodes every block in parallel (checking each) and maps the cells of each
    /// block, in index order, with `f`.
    pub fn map_blocks<T: Send>(
        &self,
        f: impl Fn(&[Cell]) -> T + Sync,
    ) -> Result<Vec<T>, StorageError> {
        self.map_decoded(false, None, f)
    }

    /// [`Table::map_blocks`] for win, draw or loss only: format 2 skips the plies
    /// streams, so wins and losses may come as [`Cell::WON`] and [`Cell::LOST`].
    pub fn map_outcomes<T: Send>(
        &self,
        f: impl Fn(&[Cell]) -> T + Sync,
    ) -> Result<Vec<T>, StorageError> {
        self.map_decoded(true, None, f)
    }

    fn map_decoded<T: Send>(
        &self,
        outcomes_only: bool,
        game: Option<&[Cell]>,
        f: impl Fn(&[Cell]) -> T + Sync,
    ) -> Result<Vec<T>, StorageError> {
        let be = self.header.block_entries as usize;
        let data = self.checked_for_decoding(game)?;
        (0..data.len())
            .into_par_iter()
            .map_init(
                || (zstd::bulk::Decompressor::default(), Vec::new()),
                |(zd, cells), b| {
                    let g = game.map(|g| &g[b * be..((b + 1) * be).min(g.len())]);
                    self.block_with(zd, b, data[b], outcomes_only, g, cells)?;
                    Ok(f(cells))
                },
            )
            .collect()
    }

    /// The compressed bytes of every block for a decoding along the game's
    /// table `game` (of the same length) if any, each block's checksum
    /// checked first: a damaged block fails the whole read before anything
    /// is decompressed.
    fn checked_for_decoding(&self, game: Option<&[Cell]>) -> Result<Vec<&[u8]>, StorageError> {
        if self.header.encoding == Encoding::CountsOnly {
            return Err(corrupt(&self.path, self.no_such_block()));
        }
        if game.is_some_and(|g| g.len() as u64 != self.header.entries) {
            return Err(corrupt(
                &self.path,
                "has another number of entries than the game's table",
            ));
        }
        self.checked_blocks()
    }

    /// The whole table decoded ([`Table::map_decoded`]'s cells), each block
    /// written in parallel straight into its place in one table: no table of
    /// blocks to join, so the memory of a table is claimed once.
    fn decode_all(
        &self,
        outcomes_only: bool,
        game: Option<&[Cell]>,
    ) -> Result<Vec<Cell>, StorageError> {
        let be = self.header.block_entries as usize;
        let data = self.checked_for_decoding(game)?;
        let mut all: Vec<Cell> = (0..self.header.entries)
            .into_par_iter()
            .map(|_| Cell::UNUSED)
            .collect();
        all.par_chunks_mut(be)
            .zip(data.par_iter())
            .enumerate()
            .try_for_each_init(
                || (zstd::bulk::Decompressor::default(), Vec::new()),
                |(zd, cells), (b, (place, &bytes))| {
                    let g = game.map(|g| &g[b * be..b * be + place.len()]);
                    self.block_with(zd, b, bytes, outcomes_only, g, cells)?;
                    if cells.len() != place.len() {
                        let n = cells.len();
                        let f = format!("block {b} decodes to {n} entries, not {}", place.len());
                        return Err(corrupt(&self.path, f));
                    }
                    place.copy_from_slice(cells);
                    Ok(())
                },
            )?;
        Ok(all)
    }

    /// Decodes the whole table of the no-removal rule (checking every block),
    /// along the game's table `game` of its subspace.
    pub fn read_rule(&self, game: &[Cell]) -> Result<Vec<Cell>, StorageError> {
        self.decode_all(false, Some(game))
    }

    /// Decodes the whole table into cells (checking every block).
    pub fn read_all(&self) -> Result<Vec<Cell>, StorageError> {
        self.decode_all(false, None)
    }

    /// [`Table::read_all`] for win, draw or loss only ([`Table::map_outcomes`]).
    pub fn read_outcomes(&self) -> Result<Vec<Cell>, StorageError> {
        self.decode_all(true, None)
    }

    /// Checks every block's checksum, without decoding (a table that stores
    /// counts only has none): what a resumed generation asks of a finished
    /// file, whose bytes are those its writer checked. [`Table::check`] and
    /// `verify` decode too.
    pub fn check_checksums(&self) -> Result<(), StorageError> {
        if self.header.encoding == Encoding::CountsOnly {
            return Ok(());
        }
        self.checked_blocks().map(|_| ())
    }

    /// The compressed bytes of every block, each once its checksum matches
    /// ([`Table::block_data`]), checked in parallel.
    fn checked_blocks(&self) -> Result<Vec<&[u8]>, StorageError> {
        (0..self.header.blocks as usize)
            .into_par_iter()
            .map(|b| self.block_data(b))
            .collect()
    }

    /// Checks every block's checksum and decoding (a table that stores
    /// counts only has none).
    pub fn check(&self) -> Result<(), StorageError> {
        if self.header.encoding == Encoding::CountsOnly {
            return Ok(());
        }
        self.map_blocks(|_| ()).map(|_| ())
    }

    /// Why a block cannot be read: there is no such block.
    fn no_such_block(&self) -> String {
        if self.header.encoding == Encoding::CountsOnly {
            "does not exist: the table stores counts only (its values follow from \
             its children by one ply)"
                .into()
        } else {
            format!(
                "does not exist: the table has {} blocks",
                self.header.blocks
            )
        }
    }
}
