//! One byte per entry that a second table (the one the block is read along)
//! decides, a win or a loss there; no bytes for its draws and unused entries,
//! which decode as they are in that table. The byte is the entry's distance
//! in this table, or [`DRAW`] where this table draws. This table wins only
//! where that one wins and loses only where it loses (the no-removal rule
//! against the game: docs/FORMAT.md), so that table's win/draw/loss stream
//! serves both.
//!
//! [`Coding::Plain`] stores the distance itself; [`Coding::Parity`] codes it
//! along the win or loss ([`code`]), so that the usual parity of wins and
//! losses shares the codes 0 to 127.

use super::{BlockBytes, BlockCells, EncodedBlock, Fault, unpack};
use crate::solve::value::{Cell, Value};

/// The byte of an entry that this table draws where the other decides it.
pub const DRAW: u8 = 255;

/// The largest distance a byte holds, in either coding.
pub const MAX_DISTANCE: u16 = 254;

/// How a distance is written in its byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coding {
    /// The distance itself.
    Plain,
    /// [`code`].
    Parity,
}

/// The byte of [`Coding::Parity`] for the distance `d` (at most
/// [`MAX_DISTANCE`]) of an entry the other table wins (`win`) or loses:
/// `d / 2` for the usual parity (odd for a win, even for a loss: 0 to 127),
/// `128 + (d - 1) / 2` for the other (128 to 254). `None` for a win at
/// distance 0, which cannot be.
pub fn code(d: u16, win: bool) -> Option<u8> {
    if d > MAX_DISTANCE || (win && d == 0) {
        return None;
    }
    let code = if (d % 2 == 1) == win {
        d / 2
    } else {
        128 + (d - 1) / 2
    };
    u8::try_from(code).ok()
}

/// The distance of [`Coding::Parity`] byte `code` (not [`DRAW`]) of an
/// entry the other table wins (`win`) or loses; `None` for a code no
/// distance has (127 of a win).
pub fn distance_of(code: u8, win: bool) -> Option<u16> {
    let c = u16::from(code);
    match (code, win) {
        (DRAW, _) | (127, true) => None,
        (0..=126, true) => Some(2 * c + 1),
        (128.., true) => Some(2 * (c - 127)),
        (0..=127, false) => Some(2 * c),
        (128.., false) => Some(2 * (c - 128) + 1),
    }
}

/// Encodes a block along the other table's cells at zstd `level`.
pub fn encode(
    zc: &mut zstd::bulk::Compressor<'_>,
    block: &BlockCells<'_>,
    coding: Coding,
    level: i32,
) -> std::io::Result<EncodedBlock> {
    let along = block.along.ok_or_else(|| {
        std::io::Error::other("a table of distances is written along the table it refines")
    })?;
    let mut bytes = vec![];
    for (j, (&c, &g)) in block.cells.iter().zip(along).enumerate() {
        let byte = match (g.wdl_code(), c.value()) {
            (0 | 1, _) if c.wdl_code() == g.wdl_code() => continue,
            (2 | 3, Some(Value::Draw)) => Some(DRAW),
            (2, Some(Value::Win(d))) if coding == Coding::Parity => code(d, true),
            (3, Some(Value::Loss(d))) if coding == Coding::Parity => code(d, false),
            (2, Some(Value::Win(d))) | (3, Some(Value::Loss(d))) if d < u16::from(DRAW) => {
                Some(d as u8)
            }
            _ => None,
        };
        let Some(byte) = byte else {
            return Err(std::io::Error::other(format!(
                "entry {}: the value {:?} does not fit the other table's win/draw/loss code {}",
                block.first + j as u64,
                c.value(),
                g.wdl_code()
            )));
        };
        bytes.push(byte);
    }
    if bytes.is_empty() {
        return Ok((vec![], vec![]));
    }
    zc.set_compression_level(level)?;
    Ok((zc.compress(&bytes)?, vec![]))
}

/// Decodes a block along the other table's cells into `out`.
pub fn decode(
    zd: &mut zstd::bulk::Decompressor<'_>,
    block: &BlockBytes<'_>,
    coding: Coding,
    out: &mut Vec<Cell>,
) -> Result<(), Fault> {
    let along = block
        .along
        .ok_or("is of a table of distances: it decodes along the table it refines")?;
    if along.len() != block.entries {
        return Err(format!(
            "has {} entries, the table it refines {}",
            block.entries,
            along.len()
        ));
    }
    let decided = along.iter().filter(|g| g.wdl_code() >= 2).count();
    let bytes = if decided == 0 {
        if !block.data.is_empty() {
            return Err("has bytes past its streams".into());
        }
        vec![]
    } else {
        unpack(zd, block.data, decided, "distance stream")?
    };
    let mut next = bytes.iter();
    for (j, g) in along.iter().enumerate() {
        let (wdl, win) = (g.wdl_code(), g.wdl_code() == 2);
        if wdl < 2 {
            out.push(if wdl == 0 { Cell::UNUSED } else { Cell::DRAW });
            continue;
        }
        let byte = *next.next().expect("one byte per decided entry");
        if byte == DRAW {
            out.push(Cell::DRAW);
            continue;
        }
        let d = match coding {
            Coding::Parity => distance_of(byte, win),
            Coding::Plain => Some(u16::from(byte)),
        };
        out.push(match d.filter(|&d| d <= MAX_DISTANCE) {
            Some(d) if win => Cell::from_value(Value::Win(d)),
            Some(d) => Cell::from_value(Value::Loss(d)),
            None => {
                return Err(format!(
                    "entry {} has no distance up to {MAX_DISTANCE}",
                    block.first + j as u64
                ));
            }
        });
    }
    Ok(())
}
