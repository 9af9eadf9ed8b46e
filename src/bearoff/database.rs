//! An open bear-off file of any kind millbase reads: gnubg's one- and
//! two-sided files, millbase's own two-sided file, told apart by the header.

use crate::bearoff::file::{BearoffError, HEADER_LEN, Header, Kind};
use crate::bearoff::full::{self, FullFile};
use crate::bearoff::one_sided::OneSidedFile;
use crate::bearoff::two_sided::TwoSidedFile;
use std::path::Path;

/// An open bear-off file of any kind.
pub enum BearoffFile {
    /// gnubg's one-sided file.
    One(OneSidedFile),
    /// gnubg's two-sided file.
    Two(TwoSidedFile),
    /// millbase's two-sided cubeless file.
    Full(FullFile),
}

impl BearoffFile {
    /// Opens `path`, telling the kind by its header.
    pub fn open(path: &Path) -> Result<BearoffFile, BearoffError> {
        let io = |error| BearoffError::Io {
            path: path.to_path_buf(),
            error,
        };
        let mut start = [0u8; HEADER_LEN];
        let len = {
            use std::io::Read;
            let mut f = std::fs::File::open(path).map_err(io)?;
            let mut got = 0;
            while got < HEADER_LEN {
                match f.read(&mut start[got..]).map_err(io)? {
                    0 => break,
                    k => got += k,
                }
            }
            got
        };
        if start[..len].starts_with(full::MAGIC) {
            return Ok(BearoffFile::Full(FullFile::open(path)?));
        }
        let header = Header::decode(path, &start[..len])?;
        // the size the header allows, before anything more is read: a file
        // forged larger is never read into memory
        let size = std::fs::metadata(path).map_err(io)?.len();
        if size > header.largest_len() {
            return Err(crate::bearoff::file::corrupt(
                path,
                format!(
                    "{size} bytes, more than a {}-point file of {} chequers can have ({})",
                    header.points,
                    header.chequers,
                    header.largest_len()
                ),
            ));
        }
        let bytes = std::fs::read(path).map_err(io)?;
        Ok(match header.kind {
            Kind::OneSided { .. } => BearoffFile::One(OneSidedFile::new(path, header, bytes)?),
            Kind::TwoSided { .. } => BearoffFile::Two(TwoSidedFile::new(path, header, bytes)?),
        })
    }

    /// Points and most chequers of a side.
    pub fn size(&self) -> (usize, usize) {
        match self {
            BearoffFile::One(f) => (f.header.points, f.header.chequers),
            BearoffFile::Two(f) => (f.header.points, f.header.chequers),
            BearoffFile::Full(f) => (f.points(), f.chequers()),
        }
    }
}
