//! Database files: one file per subspace, values in zstd-compressed blocks with an
//! offset table, checksums on the header, the tables and every block, and the rule
//! variant in the header. See `docs/FORMAT.md`.
//!
//! - [`header`]: the fixed header of a file;
//! - [`blocks`]: the block index (offsets and checksums), shared with the
//!   bear-off file;
//! - [`codec`]: one codec per entry encoding, a block's cells to bytes and back;
//! - [`write`](mod@write): writing a table, atomically (temporary, sync, rename);
//! - [`table`]: an open file, checked, its blocks read singly or whole;
//! - [`dir`]: a database directory of tables of either kind.
//!
//! The format knows cells and encodings, not the game: which encoding a table
//! gets, and what a table of the no-removal rule means, is [`dir`]'s and the
//! solver's.

pub mod blocks;
pub mod codec;
pub mod dir;
pub mod header;
pub mod orbits;
pub mod reports;
pub mod table;
pub mod write;

pub use header::Header;
pub use table::{FileIdentity, Table};
pub use write::{Speed, TEMPORARY_SUFFIX, temporary_path, write_atomic, write_table};

use crate::index::Subspace;
use std::fmt;
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
    /// from its children by a one-ply search (see [`crate::storage::dir::encoding_for`]).
    WdlOnly,
    /// Format 2, tables of the no-removal rule ([`crate::solve::counter`]), as first
    /// written: the win/draw/loss stream under the rule and one byte per win
    /// or loss, its distance (at most 254, any
    /// parity). Still read; `millbase upgrade` rewrites it as
    /// [`Encoding::DistanceCode`].
    WdlDistance,
    /// Format 2, tables of the no-removal rule: one byte per entry that the
    /// game's table of the same subspace decides (win or loss), the distance
    /// under the rule, or [`codec::distance::DRAW`] where the rule draws. The rule wins
    /// only positions the game wins and loses only those it loses, so the
    /// game's win/draw/loss stream serves both, and decoding needs the game's
    /// table ([`Table::block_along`]). Still read; `millbase upgrade` rewrites
    /// it as [`Encoding::DistanceCode`].
    Distance,
    /// [`Encoding::Distance`] with each distance coded along the game's win
    /// or loss ([`codec::distance::code`]): the usual parity (odd for a win, even for
    /// a loss) takes the codes 0 to 127, so that wins and losses share them.
    DistanceCode,
    /// Format 2, tables of the no-removal rule: no entries, only the header
    /// (counts, largest distances). The distances follow from the children's
    /// stored tables by one ply, as the plies of [`Encoding::WdlOnly`] do
    /// (see [`crate::storage::dir::stores_plies`]).
    CountsOnly,
}

impl Encoding {
    /// The encoding's byte in a file's header.
    pub fn code(self) -> u8 {
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
        /// The rules found, named ([`crate::rules::ruleset::label`]).
        found: String,
        /// The rules asked for, named.
        expected: String,
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
            } => {
                // both rule sets named, with their fingerprints
                write!(
                    f,
                    "{}: made under the rules {found}, but {expected} was asked for \
                     (use another --db directory, or the other rules: --rules NAME or \
                     --no-flying)",
                    path.display(),
                )
            }
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
