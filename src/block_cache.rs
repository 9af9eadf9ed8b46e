//! The block cache of a reader: decoded blocks by key, evicted by CLOCK
//! (second chance). A hit is one hash lookup that marks its block used (a
//! write only when the mark is not yet set); when the cache is full, the
//! hand goes round the blocks in the order they came in, clearing marks,
//! and evicts the first block it finds unmarked. A block read once therefore
//! leaves before blocks read again, and hot blocks stay.
//!
//! `quick_cache` (S3-FIFO) keeps hot blocks as well, but finds a value
//! through a second table, one more dependent load on every hit: the warm
//! single probes of `cargo bench --bench query` were 4% to 11% slower with it.

use crate::value::Cell;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::Arc;

/// A block and its mark.
struct Kept {
    cells: Arc<[Cell]>,
    used: std::cell::Cell<bool>,
}

/// Decoded blocks by `(file id, block)`, at most `capacity`.
pub(crate) struct BlockCache {
    map: FxHashMap<(u32, u64), Kept>,
    /// The keys in the order the hand visits them.
    ring: VecDeque<(u32, u64)>,
    capacity: usize,
}

impl BlockCache {
    /// An empty cache of at most `capacity` blocks (at least 1).
    pub(crate) fn new(capacity: usize) -> BlockCache {
        let capacity = capacity.max(1);
        BlockCache {
            map: FxHashMap::with_capacity_and_hasher(capacity.min(1 << 16), Default::default()),
            ring: VecDeque::new(),
            capacity,
        }
    }

    /// The block of `key`, marked used.
    #[inline]
    pub(crate) fn get(&self, key: &(u32, u64)) -> Option<&Arc<[Cell]>> {
        let k = self.map.get(key)?;
        if !k.used.get() {
            k.used.set(true);
        }
        Some(&k.cells)
    }

    /// Keeps `cells` as the block of `key`, evicting one block if full.
    pub(crate) fn insert(&mut self, key: (u32, u64), cells: Arc<[Cell]>) {
        if self.map.contains_key(&key) {
            return;
        }
        while self.map.len() >= self.capacity {
            let Some(old) = self.ring.pop_front() else {
                break;
            };
            match self.map.get(&old) {
                Some(k) if k.used.get() => {
                    k.used.set(false);
                    self.ring.push_back(old);
                }
                _ => {
                    self.map.remove(&old);
                }
            }
        }
        self.map.insert(
            key,
            Kept {
                cells,
                used: std::cell::Cell::new(false),
            },
        );
        self.ring.push_back(key);
    }

    /// Blocks held.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.map.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(x: u16) -> Arc<[Cell]> {
        Arc::from(vec![Cell::from_value(crate::Value::Win(x)); 4])
    }

    #[test]
    fn hot_blocks_stay_and_blocks_read_once_leave() {
        let mut c = BlockCache::new(8);
        // four hot blocks, read again and again between a stream of blocks
        // read once
        for hot in 0..4 {
            c.insert((0, hot), block(hot as u16));
        }
        for cold in 100..1000u64 {
            for hot in 0..4 {
                assert!(
                    c.get(&(0, hot)).is_some(),
                    "hot block {hot} evicted at {cold}"
                );
            }
            c.insert((1, cold), block(1));
            assert!(c.len() <= 8);
        }
        // the cold ones came and went: only the last few are there
        assert!(c.get(&(1, 100)).is_none());
        assert!(c.get(&(1, 999)).is_some());
        assert_eq!(
            c.get(&(0, 2)).map(|b| b[0]),
            Some(Cell::from_value(crate::Value::Win(2)))
        );
    }

    #[test]
    fn a_full_cache_of_used_blocks_still_takes_a_new_one() {
        let mut c = BlockCache::new(3);
        for k in 0..3 {
            c.insert((0, k), block(0));
            c.get(&(0, k));
        }
        c.insert((0, 9), block(9));
        assert_eq!(c.len(), 3);
        assert!(c.get(&(0, 9)).is_some());
    }
}
