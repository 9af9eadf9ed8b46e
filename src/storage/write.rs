//! Writing a table: its blocks encoded in parallel, then header, offset
//! table, checksums and blocks written atomically (a temporary beside the
//! file, synced and renamed), so a file under its final name is always
//! complete.

use crate::index::Subspace;
use crate::rules::variant::Variant;
use crate::solve::value::{Cell, Counts};
use crate::storage::blocks::{index_bytes, index_len};
use crate::storage::codec::{self, BlockCells, EncodedBlock, distance, wdl};
use crate::storage::{
    BLOCK_ENTRIES, Encoding, FORMAT_VERSION, HEADER_LEN, Header, StorageError, io_err,
};
use rayon::prelude::*;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// zstd level of every stream but the distances of finished rule tables: 3
/// compresses about 10 times faster than 9 for files about 7% larger.
const ZSTD_LEVEL: i32 = 3;
/// zstd level of the distance streams of finished tables of the no-removal
/// rule ([`Encoding::DistanceCode`]): smaller files than level 3 for little
/// more time (docs/HOW-IT-WORKS.md).
const DISTANCE_ZSTD_LEVEL: i32 = 6;

/// What a file is written for: a finished table, kept (its distance streams
/// compressed harder), or a work file, deleted once used (all streams at the
/// fast level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    /// A finished table.
    Small,
    /// A work file.
    Fast,
}

/// Writes the table `cells` of `sub` (one cell per index; every canonical
/// slot holds a final value) atomically to `path` in `encoding`; a table in a
/// distance encoding is written along the table `along` it refines (the
/// game's, of the same subspace), and one of [`Encoding::CountsOnly`] stores
/// its header (the counts) only. Returns the bytes written.
pub fn write_table(
    path: &Path,
    variant: Variant,
    sub: Subspace,
    (cells, along): (&[Cell], Option<&[Cell]>),
    counts: Counts,
    encoding: Encoding,
    speed: Speed,
) -> Result<u64, StorageError> {
    let fault = |f: &str| io_err(path)(std::io::Error::other(f.to_string()));
    if along.is_some_and(|g| g.len() != cells.len()) {
        return Err(fault("the table it refines has another size"));
    }
    let mut header = Header {
        version: FORMAT_VERSION,
        encoding,
        rules: variant.fingerprint(),
        subspace: sub,
        block_entries: BLOCK_ENTRIES,
        exceptions: 0,
        entries: cells.len() as u64,
        blocks: 0,
        counts,
    };
    if encoding == Encoding::CountsOnly {
        return write_header_only(path, &header);
    }
    let distance_level = match speed {
        Speed::Small => DISTANCE_ZSTD_LEVEL,
        Speed::Fast => ZSTD_LEVEL,
    };
    let be = BLOCK_ENTRIES as usize;
    let blocks: Vec<EncodedBlock> = cells
        .par_chunks(be)
        .enumerate()
        .map_init(zstd::bulk::Compressor::default, |zc, (b, chunk)| {
            let block = BlockCells {
                cells: chunk,
                first: (b * be) as u64,
                along: along.map(|g| &g[b * be..b * be + chunk.len()]),
            };
            match encoding {
                Encoding::Code8 => codec::code8::encode(zc, &block, ZSTD_LEVEL),
                Encoding::WdlPlies => wdl::encode(zc, &block, wdl::Second::Plies, ZSTD_LEVEL),
                Encoding::WdlOnly => wdl::encode(zc, &block, wdl::Second::None, ZSTD_LEVEL),
                Encoding::WdlDistance => wdl::encode(zc, &block, wdl::Second::Distance, ZSTD_LEVEL),
                Encoding::Distance => {
                    distance::encode(zc, &block, distance::Coding::Plain, distance_level)
                }
                Encoding::DistanceCode => {
                    distance::encode(zc, &block, distance::Coding::Parity, distance_level)
                }
                Encoding::CountsOnly => unreachable!("written above"),
            }
        })
        .collect::<std::io::Result<_>>()
        .map_err(io_err(path))?;
    let exceptions: Vec<(u64, u16)> = blocks.iter().flat_map(|b| b.1.iter().copied()).collect();
    if encoding == Encoding::Code8 {
        header.version = 1;
    }
    header.exceptions = exceptions.len() as u32;
    header.blocks = blocks.len() as u64;
    let data: Vec<&[u8]> = blocks.iter().map(|b| b.0.as_slice()).collect();
    let data_start = (HEADER_LEN + index_len(data.len()) + 10 * exceptions.len() + 4) as u64;
    let mut tables = index_bytes(data_start, &data);
    for (i, n) in &exceptions {
        tables.extend_from_slice(&i.to_le_bytes());
        tables.extend_from_slice(&n.to_le_bytes());
    }
    let crc = crc32fast::hash(&tables);
    tables.extend_from_slice(&crc.to_le_bytes());
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
