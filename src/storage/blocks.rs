//! The block index of millbase's files, shared by the Mill tables and the
//! bear-off file: after a file's header, the offset of every block and of
//! the file's end (8 bytes each), then the CRC-32 of every block (4 bytes
//! each); the blocks follow. Each file kind adds its own tables after these
//! and one CRC-32 over all of them.

use crate::storage::{StorageError, corrupt};
use std::path::Path;

/// The offsets and checksums of `blocks`, the first starting at `data_start`.
pub fn index_bytes(data_start: u64, blocks: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(blocks.len() * 12 + 8);
    let mut offset = data_start;
    for data in blocks {
        out.extend_from_slice(&offset.to_le_bytes());
        offset += data.len() as u64;
    }
    out.extend_from_slice(&offset.to_le_bytes());
    for data in blocks {
        out.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
    }
    out
}

/// The bytes [`index_bytes`] writes for `blocks` blocks.
pub fn index_len(blocks: usize) -> usize {
    8 * (blocks + 1) + 4 * blocks
}

/// A file's block index, read and checked.
#[derive(Clone, Debug)]
pub struct BlockIndex {
    /// Where each block starts, and the file's end last.
    pub offsets: Vec<u64>,
    /// Each block's CRC-32.
    pub crcs: Vec<u32>,
}

impl BlockIndex {
    /// The index of `blocks` blocks at the start of `bytes` (whose checksum
    /// the caller has checked), in a file of `file_len` bytes whose data
    /// starts at `data_start`; `path` names the file in errors.
    pub fn parse(
        path: &Path,
        bytes: &[u8],
        blocks: usize,
        data_start: u64,
        file_len: u64,
    ) -> Result<BlockIndex, StorageError> {
        let bytes = bytes
            .get(..index_len(blocks))
            .ok_or_else(|| corrupt(path, "truncated: the offset table does not fit"))?;
        let (offsets, crcs) = bytes.split_at(8 * (blocks + 1));
        let offsets: Vec<u64> = offsets
            .chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let crcs: Vec<u32> = crcs
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        if offsets[0] != data_start || offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(corrupt(path, "offset table out of order"));
        }
        if offsets[blocks] != file_len {
            return Err(corrupt(
                path,
                format!(
                    "truncated or extended: {file_len} bytes, expected {}",
                    offsets[blocks]
                ),
            ));
        }
        Ok(BlockIndex { offsets, crcs })
    }

    /// Block `b`'s bytes out of the whole file `all`, once its checksum
    /// matches.
    pub fn block<'a>(
        &self,
        path: &Path,
        all: &'a [u8],
        b: usize,
    ) -> Result<&'a [u8], StorageError> {
        let data = self
            .offsets
            .get(b..b + 2)
            .and_then(|o| all.get(o[0] as usize..o[1] as usize))
            .ok_or_else(|| corrupt(path, format!("no block {b}, or it lies past the end")))?;
        self.check(path, data, b)?;
        Ok(data)
    }

    /// Whether `data` is block `b`'s bytes by its checksum.
    pub fn check(&self, path: &Path, data: &[u8], b: usize) -> Result<(), StorageError> {
        if crc32fast::hash(data) != self.crcs[b] {
            return Err(corrupt(path, format!("block {b} checksum mismatch")));
        }
        Ok(())
    }
}
