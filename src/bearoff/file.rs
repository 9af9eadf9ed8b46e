//! Bear-off files: gnubg's 40-byte text header and the errors of reading a
//! file or asking it a position.

use crate::bearoff::position::{MAX_CHEQUERS, MAX_POINTS, PositionError};
use std::fmt;
use std::path::{Path, PathBuf};

/// Length of gnubg's header.
pub const HEADER_LEN: usize = 40;

/// What went wrong with a bear-off file or position.
#[derive(Debug)]
pub enum BearoffError {
    /// A position that cannot be asked of the file (the user's input).
    Position(PositionError),
    /// A file that is damaged, of another kind, or not a bear-off file.
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// A file that could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
}

impl fmt::Display for BearoffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BearoffError::Position(e) => write!(f, "{e}"),
            BearoffError::File { path, problem } => write!(f, "{}: {problem}", path.display()),
            BearoffError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for BearoffError {}

impl From<PositionError> for BearoffError {
    fn from(e: PositionError) -> BearoffError {
        BearoffError::Position(e)
    }
}

/// A damaged or foreign file.
pub fn corrupt(path: &Path, problem: impl Into<String>) -> BearoffError {
    BearoffError::File {
        path: path.to_path_buf(),
        problem: problem.into(),
    }
}

/// What a gnubg file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Distributions of one side (`gnubg-OS`).
    OneSided {
        /// With the gammon distribution.
        gammon: bool,
        /// Only the non-zero span of each distribution, behind an index.
        compressed: bool,
    },
    /// Equities of pairs (`gnubg-TS`).
    TwoSided {
        /// With the three cubeful equities.
        cubeful: bool,
    },
}

/// A gnubg file's header: `gnubg-OS-PP-CC-G-C-0` or `gnubg-TS-PP-CC-F`,
/// padded with `x` to 39 characters and a newline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// What the file holds.
    pub kind: Kind,
    /// Points of a side.
    pub points: usize,
    /// Most chequers of a side.
    pub chequers: usize,
}

impl Header {
    /// The largest size a file of this header can have: exact for the
    /// fixed layouts, the index plus every value for a compressed one-sided
    /// file. A file larger is refused before it is read.
    pub fn largest_len(&self) -> u64 {
        let n = u64::from(crate::bearoff::position::positions(
            self.points,
            self.chequers,
        ));
        let h = HEADER_LEN as u64;
        match self.kind {
            Kind::TwoSided { cubeful } => h + n * n * if cubeful { 8 } else { 2 },
            Kind::OneSided {
                gammon,
                compressed: false,
            } => h + n * if gammon { 128 } else { 64 },
            Kind::OneSided {
                gammon,
                compressed: true,
            } => {
                let (entry, streams) = if gammon { (8, 2) } else { (6, 1) };
                h + n * entry + n * streams * 32 * 2
            }
        }
    }

    /// The header's 40 bytes.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let flag = |b: bool| u8::from(b);
        let text = match self.kind {
            Kind::OneSided { gammon, compressed } => format!(
                "gnubg-OS-{:02}-{:02}-{}-{}-0",
                self.points,
                self.chequers,
                flag(gammon),
                flag(compressed)
            ),
            Kind::TwoSided { cubeful } => {
                format!(
                    "gnubg-TS-{:02}-{:02}-{}",
                    self.points,
                    self.chequers,
                    flag(cubeful)
                )
            }
        };
        let mut h = [b'x'; HEADER_LEN];
        h[..text.len()].copy_from_slice(text.as_bytes());
        h[HEADER_LEN - 1] = b'\n';
        h
    }

    /// The header of the file `path` whose bytes begin with `h`.
    pub fn decode(path: &Path, h: &[u8]) -> Result<Header, BearoffError> {
        let h = h
            .get(..HEADER_LEN)
            .ok_or_else(|| corrupt(path, "truncated: shorter than gnubg's 40-byte header"))?;
        if !h.starts_with(b"gnubg-") {
            return Err(corrupt(
                path,
                "not a bear-off database (no gnubg or millbase header)",
            ));
        }
        let text = std::str::from_utf8(&h[..20]).unwrap_or("");
        let number =
            |at: usize, len: usize| -> Option<usize> { text.get(at..at + len)?.parse().ok() };
        let flag = |at: usize| -> Option<bool> {
            match text.get(at..at + 1)? {
                "0" => Some(false),
                "1" => Some(true),
                _ => None,
            }
        };
        let bad = || {
            corrupt(
                path,
                format!(
                    "unreadable gnubg header {:?}",
                    String::from_utf8_lossy(h).trim_end()
                ),
            )
        };
        let kind = match &h[6..8] {
            b"OS" => {
                if flag(19) == Some(true) {
                    return Err(corrupt(
                        path,
                        "a gnubg database of normal-distribution approximations: millbase reads exact ones only",
                    ));
                }
                Kind::OneSided {
                    gammon: flag(15).ok_or_else(bad)?,
                    compressed: flag(17).ok_or_else(bad)?,
                }
            }
            b"TS" => Kind::TwoSided {
                cubeful: flag(15).ok_or_else(bad)?,
            },
            _ => {
                return Err(corrupt(
                    path,
                    "a gnubg database of another kind (hypergammon?): millbase reads bear-off databases",
                ));
            }
        };
        let points = number(9, 2).ok_or_else(bad)?;
        let chequers = number(12, 2).ok_or_else(bad)?;
        if !(1..=MAX_POINTS).contains(&points) || !(1..=MAX_CHEQUERS).contains(&chequers) {
            return Err(corrupt(
                path,
                format!(
                    "{points} points of {chequers} chequers: outside 1-{MAX_POINTS} points, 1-{MAX_CHEQUERS} chequers"
                ),
            ));
        }
        Ok(Header {
            kind,
            points,
            chequers,
        })
    }
}
