//! An open database file: its header and tables read by position and
//! checked on opening, its blocks read singly (by position, so a file
//! truncated or rewritten under a reader gives an error, never a fault on a
//! mapped page) or whole (through a memory map made only then, by the
//! commands that hold the database's lock), each block's checksum checked
//! before it is decoded.

use crate::index::{Indexer, Subspace};
use crate::rules::ruleset::label;
use crate::rules::variant::Variant;
use crate::solve::value::Cell;
use crate::storage::blocks::{BlockIndex, index_len};
use crate::storage::codec::{self, BlockBytes, distance, wdl};
use crate::storage::{Encoding, HEADER_LEN, Header, StorageError, corrupt, io_err};
use memmap2::Mmap;
use rayon::prelude::*;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::{OnceLock, PoisonError, RwLock};

/// What identifies a file on disk: a file replaced by rename or changed in
/// place has another identity than the one a reader opened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
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

/// Where a table's bytes are.
enum Source {
    /// A file: read by position (its header, tables and single blocks),
    /// mapped only for a whole-table read ([`Source::all`]).
    File {
        /// `None` once closed ([`Table::close`]); each read holds it shared.
        file: RwLock<Option<File>>,
        /// Its size when opened.
        len: u64,
        /// The map of a whole-table read, made on first use.
        map: OnceLock<Mmap>,
    },
    /// The bytes of a file, in memory ([`Table::from_bytes`]).
    Bytes(Vec<u8>),
}

impl Source {
    /// The size of the file when it was opened.
    fn len(&self) -> u64 {
        match self {
            Source::File { len, .. } => *len,
            Source::Bytes(b) => b.len() as u64,
        }
    }

    /// Every byte, for a whole-table read: the file mapped (on first use),
    /// or the bytes. Only `generate`, `verify` and the commands that hold the
    /// database's lock read a table whole; a served table is never mapped.
    fn all(&self) -> std::io::Result<&[u8]> {
        match self {
            Source::File { file, map, .. } => {
                if let Some(m) = map.get() {
                    return Ok(m);
                }
                let file = file.read().unwrap_or_else(PoisonError::into_inner);
                let file = file.as_ref().ok_or_else(closed)?;
                // SAFETY: the map is read-only and made for the whole-table
                // reads of generate and verify, which hold the database's
                // lock: no writer replaces or rewrites the file meanwhile.
                let m = unsafe { Mmap::map(file) }?;
                Ok(map.get_or_init(|| m))
            }
            Source::Bytes(b) => Ok(b),
        }
    }

    /// Fills `buf` from offset `at`: by position from a file.
    fn read_exact_at(&self, buf: &mut [u8], at: u64) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        match self {
            Source::File { file, .. } => {
                let file = file.read().unwrap_or_else(PoisonError::into_inner);
                file.as_ref().ok_or_else(closed)?.read_exact_at(buf, at)
            }
            Source::Bytes(b) => {
                let part = usize::try_from(at)
                    .ok()
                    .and_then(|at| b.get(at..at.checked_add(buf.len())?))
                    .ok_or(std::io::ErrorKind::UnexpectedEof)?;
                buf.copy_from_slice(part);
                Ok(())
            }
        }
    }

    /// `n` bytes from offset `at`, or `None` past the end of the file.
    fn read_at(&self, at: u64, n: usize) -> std::io::Result<Option<Vec<u8>>> {
        if at.checked_add(n as u64).is_none_or(|end| end > self.len()) {
            return Ok(None);
        }
        let mut buf = vec![0; n];
        match self.read_exact_at(&mut buf, at) {
            Ok(()) => Ok(Some(buf)),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The error of a read from a table closed by [`Table::close`].
fn closed() -> std::io::Error {
    std::io::Error::other("closed: the file was replaced by a newer one")
}

/// An open subspace file. Its header and tables, and single blocks
/// ([`Table::block`], [`Table::block_along`]), are read by position into
/// memory, so a file truncated under a running reader gives an error, never
/// a fault on a mapped page; only whole-table reads map it.
pub struct Table {
    path: PathBuf,
    source: Source,
    identity: FileIdentity,
    /// The file's header.
    pub header: Header,
    blocks: BlockIndex,
    exceptions: Vec<(u64, u16)>,
    /// The CRC-32 of the offset table, which holds every block's CRC-32.
    fingerprint: u32,
}

impl Table {
    /// Opens a database file and checks its header and tables (block
    /// checksums are checked as blocks are read). Fails if it is not a file of
    /// `rules` and `sub`.
    pub fn open(path: &Path, variant: Variant, sub: Subspace) -> Result<Table, StorageError> {
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
        let meta = file.metadata().map_err(io_err(path))?;
        let identity = FileIdentity::of(&meta);
        // read by position, never through a map: a file truncated or
        // rewritten under a reader gives an error, not a fault
        let source = Source::File {
            file: RwLock::new(Some(file)),
            len: meta.len(),
            map: OnceLock::new(),
        };
        Table::checked(path, source, identity, variant, sub)
    }

    /// A table from the bytes of a file named `name` (in its errors), checked
    /// as [`Table::open`] checks a file: what the damage tests read.
    pub fn from_bytes(
        name: &Path,
        bytes: Vec<u8>,
        variant: Variant,
        sub: Subspace,
    ) -> Result<Table, StorageError> {
        let identity = FileIdentity::default();
        Table::checked(name, Source::Bytes(bytes), identity, variant, sub)
    }

    /// The table of `source`, once its header and tables are checked.
    fn checked(
        path: &Path,
        source: Source,
        identity: FileIdentity,
        variant: Variant,
        sub: Subspace,
    ) -> Result<Table, StorageError> {
        let len = source.len();
        let head = source
            .read_at(0, HEADER_LEN.min(len as usize))
            .map_err(io_err(path))?
            .unwrap_or_default();
        let header = Header::decode(path, &head)?;
        if header.rules != variant.fingerprint() {
            return Err(StorageError::WrongVariant {
                path: path.to_path_buf(),
                found: label(header.rules),
                expected: label(variant.fingerprint()),
            });
        }
        if header.subspace != sub {
            return Err(StorageError::OtherSubspace {
                path: path.to_path_buf(),
                found: header.subspace,
                expected: sub,
            });
        }
        let size = Indexer::index_size_of(variant.geometry(), sub);
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
        let tables_len = index_len(nb) + 10 * header.exceptions as usize + 4;
        let t = source
            .read_at(HEADER_LEN as u64, tables_len)
            .map_err(io_err(path))?
            .ok_or_else(|| {
                corrupt(
                    path,
                    format!("truncated: {len} bytes, the offset table does not fit"),
                )
            })?;
        let (body, crc) = t.split_at(tables_len - 4);
        let fingerprint = u32::from_le_bytes(crc.try_into().unwrap());
        if crc32fast::hash(body) != fingerprint {
            return Err(corrupt(path, "offset table checksum mismatch"));
        }
        let data_start = (HEADER_LEN + tables_len) as u64;
        let blocks = BlockIndex::parse(path, body, nb, data_start, len)?;
        let exceptions: Vec<(u64, u16)> = body[index_len(nb)..]
            .chunks(10)
            .map(|c| {
                (
                    u64::from_le_bytes(c[..8].try_into().unwrap()),
                    u16::from_le_bytes(c[8..].try_into().unwrap()),
                )
            })
            .collect();
        if exceptions.windows(2).any(|w| w[0].0 >= w[1].0)
            || exceptions.last().is_some_and(|e| e.0 >= header.entries)
        {
            return Err(corrupt(path, "exception table out of order"));
        }
        Ok(Table {
            path: path.to_path_buf(),
            source,
            identity,
            header,
            blocks,
            exceptions,
            fingerprint,
        })
    }

    /// A fingerprint of the table's whole content: the CRC-32 of its offset
    /// table, which holds the CRC-32 of every block. A file rewritten with
    /// other values has another; a copy of it the same.
    pub fn fingerprint(&self) -> u32 {
        self.fingerprint
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Size of the file in bytes.
    pub fn file_len(&self) -> u64 {
        self.source.len()
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

    /// Closes the file, once the reads in flight on it have ended: a reader
    /// calls it on a table whose file was replaced, so that the descriptor,
    /// and the disk space of a deleted file, are given back. Reads after it
    /// fail ([`Table::is_closed`] then says why). A table read from bytes
    /// has no file to close; a map made by a whole-table read stays until
    /// the table is dropped.
    pub fn close(&self) {
        if let Source::File { file, .. } = &self.source {
            *file.write().unwrap_or_else(PoisonError::into_inner) = None;
        }
    }

    /// Whether [`Table::close`] closed the file.
    pub fn is_closed(&self) -> bool {
        match &self.source {
            Source::File { file, .. } => file
                .read()
                .unwrap_or_else(PoisonError::into_inner)
                .is_none(),
            Source::Bytes(_) => false,
        }
    }

    /// Decodes block `b` into cells, checking its checksum and size. A table
    /// in a distance encoding decodes with [`Table::block_along`] only.
    pub fn block(&self, b: usize) -> Result<Vec<Cell>, StorageError> {
        self.read_block(b, None)
    }

    /// Decodes block `b` of a table in a distance encoding along the table
    /// it refines, which holds `game` in that block (ignored where the table
    /// holds its own win/draw/loss, [`Encoding::WdlDistance`]).
    pub fn block_along(&self, b: usize, game: &[Cell]) -> Result<Vec<Cell>, StorageError> {
        self.read_block(b, Some(game))
    }

    /// Block `b` read from the file by position (not through the map) and
    /// decoded with this thread's decompressor.
    fn read_block(&self, b: usize, game: Option<&[Cell]>) -> Result<Vec<Cell>, StorageError> {
        if b >= self.header.blocks as usize {
            let f = format!("block {b} {}", self.no_such_block());
            return Err(corrupt(&self.path, f));
        }
        let (start, end) = (self.blocks.offsets[b], self.blocks.offsets[b + 1]);
        BLOCK_READER.with_borrow_mut(|(zd, data)| {
            data.resize((end - start) as usize, 0);
            self.source.read_exact_at(data, start).map_err(|e| {
                if e.kind() == std::io::ErrorKind::UnexpectedEof {
                    corrupt(
                        &self.path,
                        format!("truncated: block {b} lies past the end"),
                    )
                } else {
                    io_err(&self.path)(e)
                }
            })?;
            self.blocks.check(&self.path, data, b)?;
            let mut out = Vec::with_capacity(self.header.block_entries as usize);
            self.block_with(zd, b, data, false, game, &mut out)?;
            Ok(out)
        })
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
        let all = self.source.all().map_err(io_err(&self.path))?;
        self.blocks.block(&self.path, all, b)
    }

    /// Decodes block `b` from its checked bytes `data` ([`Table::block_data`])
    /// with a caller's decompressor into `out` (cleared first); `along`: the
    /// cells of the block in the table a distance encoding refines.
    fn block_with(
        &self,
        zd: &mut zstd::bulk::Decompressor<'_>,
        b: usize,
        data: &[u8],
        outcomes_only: bool,
        along: Option<&[Cell]>,
        out: &mut Vec<Cell>,
    ) -> Result<(), StorageError> {
        let be = u64::from(self.header.block_entries);
        let first = b as u64 * be;
        let block = BlockBytes {
            data,
            first,
            entries: (self.header.entries - first).min(be) as usize,
            exceptions: &self.exceptions,
            along,
            outcomes_only,
        };
        out.clear();
        match self.header.encoding {
            Encoding::Code8 => codec::code8::decode(zd, &block, out),
            Encoding::WdlPlies => wdl::decode(zd, &block, wdl::Second::Plies, out),
            Encoding::WdlOnly => wdl::decode(zd, &block, wdl::Second::None, out),
            Encoding::WdlDistance => wdl::decode(zd, &block, wdl::Second::Distance, out),
            Encoding::Distance => distance::decode(zd, &block, distance::Coding::Plain, out),
            Encoding::DistanceCode => distance::decode(zd, &block, distance::Coding::Parity, out),
            Encoding::CountsOnly => Err(self.no_such_block()),
        }
        .map_err(|f| corrupt(&self.path, format!("block {b} {f}")))
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

    /// Decodes the whole table (checking every block) along the table it
    /// refines, `game` (for a distance encoding; ignored by the others).
    pub fn read_along(&self, game: &[Cell]) -> Result<Vec<Cell>, StorageError> {
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
