//! The fixed header of a database file (docs/FORMAT.md): magic, version,
//! index scheme, variant, subspace, encoding, block size, counts, checksum.

use crate::index::Subspace;
use crate::rules::variant::Variant;
use crate::solve::value::Counts;
use crate::storage::{
    Encoding, FORMAT_VERSION, HEADER_LEN, INDEX_SCHEME, MAGIC, StorageError, corrupt,
};
use std::path::Path;

/// Header of a subspace file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The fingerprint of the rules the file was solved under
    /// ([`Variant::fingerprint`]).
    pub rules: u64,
    /// The subspace.
    pub subspace: Subspace,
    /// Format version of the file.
    pub version: u32,
    /// Entry encoding.
    pub encoding: Encoding,
    /// Entries per block.
    pub block_entries: u32,
    /// Number of exceptions (plies too large for a byte).
    pub exceptions: u32,
    /// Index range of the subspace.
    pub entries: u64,
    /// Number of blocks.
    pub blocks: u64,
    /// Value counts.
    pub counts: Counts,
}

impl Header {
    /// The header's bytes, its checksum last.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&self.version.to_le_bytes());
        h[12..16].copy_from_slice(&INDEX_SCHEME.to_le_bytes());
        h[16] = rules_code(self.rules);
        if h[16] == OTHER_RULES {
            h[108..116].copy_from_slice(&self.rules.to_be_bytes());
        }
        let s = self.subspace;
        h[17..21].copy_from_slice(&[s.mover, s.opponent, s.mover_hand, s.opponent_hand]);
        h[21] = self.encoding.code();
        h[24..28].copy_from_slice(&self.block_entries.to_le_bytes());
        h[28..32].copy_from_slice(&self.exceptions.to_le_bytes());
        let c = &self.counts;
        let words = [
            self.entries,
            self.blocks,
            c.classes,
            c.wins,
            c.losses,
            c.draws,
            c.all_wins,
            c.all_losses,
            c.all_draws,
        ];
        for (i, w) in words.iter().enumerate() {
            h[32 + 8 * i..40 + 8 * i].copy_from_slice(&w.to_le_bytes());
        }
        h[104..106].copy_from_slice(&c.max_win.to_le_bytes());
        h[106..108].copy_from_slice(&c.max_loss.to_le_bytes());
        let crc = crc32fast::hash(&h[..HEADER_LEN - 4]);
        h[HEADER_LEN - 4..].copy_from_slice(&crc.to_le_bytes());
        h
    }

    /// The header in `h`, checked; `path` names the file in errors.
    pub fn decode(path: &Path, h: &[u8]) -> Result<Header, StorageError> {
        if h.len() < HEADER_LEN {
            return Err(corrupt(
                path,
                format!("truncated: {} bytes, shorter than the header", h.len()),
            ));
        }
        if &h[0..8] != MAGIC {
            return Err(corrupt(
                path,
                "not a millbase database file (bad magic bytes)",
            ));
        }
        let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().unwrap());
        let u16_at = |o: usize| u16::from_le_bytes(h[o..o + 2].try_into().unwrap());
        if crc32fast::hash(&h[..HEADER_LEN - 4]) != u32_at(HEADER_LEN - 4) {
            return Err(corrupt(path, "header checksum mismatch"));
        }
        let version = u32_at(8);
        if version != 1 && version != FORMAT_VERSION {
            return Err(corrupt(
                path,
                format!("format version {version} (this millbase reads 1 and {FORMAT_VERSION})"),
            ));
        }
        if u32_at(12) != INDEX_SCHEME {
            return Err(corrupt(
                path,
                format!(
                    "index scheme {} (this millbase uses {INDEX_SCHEME})",
                    u32_at(12)
                ),
            ));
        }
        let encoding = match (version, h[21]) {
            (1, 1) => Encoding::Code8,
            (2, 2) => Encoding::WdlPlies,
            (2, 3) => Encoding::WdlOnly,
            (2, 4) => Encoding::WdlDistance,
            (2, 5) => Encoding::Distance,
            (2, 6) => Encoding::CountsOnly,
            (2, 7) => Encoding::DistanceCode,
            (v, e) => {
                return Err(corrupt(
                    path,
                    format!("unknown entry encoding {e} for format version {v}"),
                ));
            }
        };
        let rules = match h[16] {
            0 => Variant::nine(true).fingerprint(),
            1 => Variant::nine(false).fingerprint(),
            OTHER_RULES => u64::from_be_bytes(h[108..116].try_into().unwrap()),
            x => return Err(corrupt(path, format!("unknown rule variant code {x}"))),
        };
        Ok(Header {
            rules,
            subspace: Subspace {
                mover: h[17],
                opponent: h[18],
                mover_hand: h[19],
                opponent_hand: h[20],
            },
            version,
            encoding,
            block_entries: u32_at(24),
            exceptions: u32_at(28),
            entries: u64_at(32),
            blocks: u64_at(40),
            counts: Counts {
                classes: u64_at(48),
                wins: u64_at(56),
                losses: u64_at(64),
                draws: u64_at(72),
                all_wins: u64_at(80),
                all_losses: u64_at(88),
                all_draws: u64_at(96),
                max_win: u16_at(104),
                max_loss: u16_at(106),
            },
        })
    }
}

/// The variant code of rules other than nine's: their fingerprint follows
/// at offset 108 (its 8 bytes as SHA-256 gave them).
const OTHER_RULES: u8 = 2;

/// The variant byte of the rules of fingerprint `f`: 0 and 1 for nine's
/// two rule sets (so that their files stay as they were), else
/// [`OTHER_RULES`].
fn rules_code(f: u64) -> u8 {
    match Variant::nines().iter().position(|v| v.fingerprint() == f) {
        Some(i) => i as u8,
        None => OTHER_RULES,
    }
}
