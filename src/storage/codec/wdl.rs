//! Format 2: a win/draw/loss stream of 2-bit codes (0 unused, 1 draw, 2 win,
//! 3 loss), four entries a byte, then a second stream of one byte per win or
//! loss: half its plies ([`Second::Plies`], 255 for plies in the exception
//! table), its distance as first written for the no-removal rule
//! ([`Second::Distance`]), or none ([`Second::None`]). Each stream is one zstd
//! frame; the block starts with the first frame's length.

use super::{
    BlockBytes, BlockCells, EncodedBlock, Fault, exception, plies_of, plies_value, unpack,
};
use crate::solve::value::{Cell, Value};

/// What the second stream holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Second {
    /// Half the plies of each win or loss (the parity follows from win or loss).
    Plies,
    /// Nothing: wins and losses decode without plies ([`Cell::WON`],
    /// [`Cell::LOST`]).
    None,
    /// The distance of each win or loss, one byte, any parity.
    Distance,
}

/// A byte of the second stream saying "in the exception table" (plies), or
/// "beyond a byte" (a distance: never written).
const EXCEPTION: u8 = 255;

/// Encodes a block at zstd `level`.
pub fn encode(
    zc: &mut zstd::bulk::Compressor<'_>,
    block: &BlockCells<'_>,
    second: Second,
    level: i32,
) -> std::io::Result<EncodedBlock> {
    let cells = block.cells;
    let mut exceptions = vec![];
    let mut wdl = vec![0u8; cells.len().div_ceil(4)];
    let mut bytes = vec![];
    for (j, &c) in cells.iter().enumerate() {
        let code = c.wdl_code();
        wdl[j / 4] |= code << (2 * (j % 4));
        if code < 2 {
            continue;
        }
        match second {
            Second::None => {}
            Second::Distance => bytes.push(u8::try_from(plies_of(c)).unwrap_or(EXCEPTION)),
            Second::Plies => {
                let n = plies_of(c);
                debug_assert!(c.value().is_some(), "a win or loss without plies");
                match u8::try_from(n / 2) {
                    Ok(h) if h != EXCEPTION => bytes.push(h),
                    _ => {
                        bytes.push(EXCEPTION);
                        exceptions.push((block.first + j as u64, n));
                    }
                }
            }
        }
    }
    zc.set_compression_level(level)?;
    let w = zc.compress(&wdl)?;
    let mut data = Vec::with_capacity(4 + w.len() + bytes.len() / 2);
    data.extend_from_slice(&(w.len() as u32).to_le_bytes());
    data.extend_from_slice(&w);
    if !bytes.is_empty() {
        data.extend_from_slice(&zc.compress(&bytes)?);
    }
    Ok((data, exceptions))
}

/// Decodes a block into `out`.
pub fn decode(
    zd: &mut zstd::bulk::Decompressor<'_>,
    block: &BlockBytes<'_>,
    second: Second,
    out: &mut Vec<Cell>,
) -> Result<(), Fault> {
    let want = block.entries;
    let (len, rest) = (block.data)
        .split_first_chunk::<4>()
        .ok_or("shorter than its frame length")?;
    let len = u32::from_le_bytes(*len) as usize;
    if len > rest.len() {
        return Err("frame length beyond the block".into());
    }
    let (wdl_frame, second_frame) = rest.split_at(len);
    let wdl = unpack(zd, wdl_frame, want.div_ceil(4), "win/draw/loss stream")?;
    if !want.is_multiple_of(4) && wdl[want / 4] >> (2 * (want % 4)) != 0 {
        return Err("sets bits past its last entry".into());
    }
    let decided = wdl.iter().map(|&w| (w & 0xAA).count_ones() as usize).sum();
    let bytes = if second == Second::None || decided == 0 {
        if !second_frame.is_empty() {
            return Err("has bytes past its streams".into());
        }
        vec![]
    } else if block.outcomes_only {
        vec![] // not needed; the block checksum covers it
    } else {
        let what = match second {
            Second::Distance => "distance stream",
            _ => "plies stream",
        };
        unpack(zd, second_frame, decided, what)?
    };
    let mut next = bytes.iter();
    for j in 0..want {
        let code = wdl[j / 4] >> (2 * (j % 4)) & 3;
        let win = code == 2;
        let index = block.first + j as u64;
        let byte = if code >= 2 { next.next() } else { None };
        out.push(match (code, byte) {
            (0, _) => Cell::UNUSED,
            (1, _) => Cell::DRAW,
            (_, None) if win => Cell::WON,
            (_, None) => Cell::LOST,
            (_, Some(&EXCEPTION)) if second == Second::Distance => {
                return Err(format!("entry {index} has a distance beyond a byte"));
            }
            (_, Some(&d)) if second == Second::Distance => {
                let d = u16::from(d);
                Cell::from_value(if win { Value::Win(d) } else { Value::Loss(d) })
            }
            (_, Some(&h)) => {
                let n = if h == EXCEPTION {
                    exception(block.exceptions, index)?
                } else {
                    2 * u16::from(h) + u16::from(win)
                };
                if (n % 2 == 1) != win {
                    return Err(format!("entry {index} has plies of the wrong parity"));
                }
                Cell::from_value(plies_value(n))
            }
        });
    }
    Ok(())
}
