//! One codec per entry encoding: the cells of one block to compressed bytes
//! and back. A codec knows cells and bytes only; the header says which codec
//! a file's blocks use ([`crate::storage::Encoding`]).
//!
//! - [`code8`]: format 1, one byte per entry;
//! - [`wdl`]: a win/draw/loss stream of 2-bit codes and a stream of one byte
//!   per win or loss (plies, or a distance), or none;
//! - [`distance`]: one byte per entry a second table decides (the game's
//!   wins and losses), read along that table.

pub mod code8;
pub mod distance;
pub mod wdl;

use crate::solve::value::{Cell, Value};

/// A compressed block and the exceptions of its entries (index, plies).
pub type EncodedBlock = (Vec<u8>, Vec<(u64, u16)>);

/// The cells of one block to encode, and where they are.
pub struct BlockCells<'a> {
    /// The cells.
    pub cells: &'a [Cell],
    /// The index of the first.
    pub first: u64,
    /// For [`distance`]: the cells of the table the block is read along, for
    /// the same entries.
    pub along: Option<&'a [Cell]>,
}

/// One block's stored bytes to decode, and what decoding them needs.
pub struct BlockBytes<'a> {
    /// The bytes, their checksum checked.
    pub data: &'a [u8],
    /// The index of the block's first entry.
    pub first: u64,
    /// The number of entries in the block.
    pub entries: usize,
    /// The exception table of the file: (index, plies), ascending.
    pub exceptions: &'a [(u64, u16)],
    /// For [`distance`]: the cells of the table the block is read along.
    pub along: Option<&'a [Cell]>,
    /// Whether win, draw or loss is enough (the plies stream may be skipped).
    pub outcomes_only: bool,
}

/// What is wrong with a block (the caller names the file and the block).
pub type Fault = String;

/// Decompresses `frame`, which must hold exactly `len` bytes (`what` names
/// the stream in a fault).
pub(crate) fn unpack(
    zd: &mut zstd::bulk::Decompressor<'_>,
    frame: &[u8],
    len: usize,
    what: &str,
) -> Result<Vec<u8>, Fault> {
    let bytes = zd
        .decompress(frame, len)
        .map_err(|e| format!("{what} does not decompress: {e}"))?;
    if bytes.len() != len {
        return Err(format!(
            "{what} holds {} bytes, expected {len}",
            bytes.len()
        ));
    }
    Ok(bytes)
}

/// The plies of exception entry `index`.
pub(crate) fn exception(exceptions: &[(u64, u16)], index: u64) -> Result<u16, Fault> {
    match exceptions.binary_search_by_key(&index, |e| e.0) {
        Ok(k) => Ok(exceptions[k].1),
        Err(_) => Err(format!("entry {index} has no exception record")),
    }
}

/// The value of `n` plies: wins have odd plies, losses even.
pub(crate) fn plies_value(n: u16) -> Value {
    if n % 2 == 1 {
        Value::Win(n)
    } else {
        Value::Loss(n)
    }
}

/// The plies of a cell's value (0 for a draw or none).
pub(crate) fn plies_of(c: Cell) -> u16 {
    c.value().and_then(Value::plies).unwrap_or(0)
}
