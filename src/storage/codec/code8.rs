//! Format 1: one byte per entry (0 unused, 1 draw, plies + 2, 255 for plies
//! in the exception table), compressed as one frame.

use super::{
    BlockBytes, BlockCells, EncodedBlock, Fault, exception, plies_of, plies_value, unpack,
};
use crate::solve::value::{Cell, Value};

const CODE_UNUSED: u8 = 0;
const CODE_DRAW: u8 = 1;
const CODE_EXCEPTION: u8 = 255;
const MAX_INLINE_PLIES: u16 = (CODE_EXCEPTION - 3) as u16;

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

/// Encodes a block at zstd `level`.
pub fn encode(
    zc: &mut zstd::bulk::Compressor<'_>,
    block: &BlockCells<'_>,
    level: i32,
) -> std::io::Result<EncodedBlock> {
    let mut exceptions = vec![];
    let mut codes = Vec::with_capacity(block.cells.len());
    for (j, &c) in block.cells.iter().enumerate() {
        let code = encode_cell(c);
        if code == CODE_EXCEPTION {
            exceptions.push((block.first + j as u64, plies_of(c)));
        }
        codes.push(code);
    }
    zc.set_compression_level(level)?;
    Ok((zc.compress(&codes)?, exceptions))
}

/// Decodes a block into `out`.
pub fn decode(
    zd: &mut zstd::bulk::Decompressor<'_>,
    block: &BlockBytes<'_>,
    out: &mut Vec<Cell>,
) -> Result<(), Fault> {
    let codes = unpack(zd, block.data, block.entries, "entry stream")?;
    for (j, code) in codes.into_iter().enumerate() {
        out.push(match code {
            CODE_UNUSED => Cell::UNUSED,
            CODE_DRAW => Cell::DRAW,
            CODE_EXCEPTION => {
                let n = exception(block.exceptions, block.first + j as u64)?;
                Cell::from_value(plies_value(n))
            }
            c => Cell::from_value(plies_value(u16::from(c - 2))),
        });
    }
    Ok(())
}
