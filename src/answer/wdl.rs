//! Win/draw/loss maps of whole movement tables: two bits per index, decoded once
//! from the compressed files, for searches that probe millions of leaves (the
//! placement-phase proof). All 49 tables take 2.3 GB this way.

use crate::answer::query::{Database, QueryError, no_value};
use crate::index::{Index, Subspace};
use crate::solve::value::{Cell, Value, WDL_PER_WORD, wdl_code_at};
use rustc_hash::FxHashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The codes of [`crate::solve::value::Cell::wdl_code`] (0: no position).
const DRAW: u64 = 1;
const WIN: u64 = 2;
const LOSS: u64 = 3;

/// The win/draw/loss map of one table.
pub struct WdlMap {
    path: PathBuf,
    words: Vec<u64>,
}

impl WdlMap {
    /// Decodes the table of `sub` (every block checked).
    fn load(db: &Database, sub: Subspace) -> Result<WdlMap, QueryError> {
        let table = db.table(sub)?;
        // blocks hold a multiple of WDL_PER_WORD entries, all but the last
        let blocks = table.map_outcomes(|values| {
            values
                .chunks(WDL_PER_WORD)
                .map(Cell::pack_wdl)
                .collect::<Vec<u64>>()
        })?;
        Ok(WdlMap {
            path: table.path().to_path_buf(),
            words: blocks.concat(),
        })
    }

    /// The value (plies 0) at index `i`.
    pub fn value(&self, i: Index) -> Result<Value, QueryError> {
        match u64::from(wdl_code_at(&self.words, i)) {
            DRAW => Ok(Value::Draw),
            WIN => Ok(Value::Win(0)),
            LOSS => Ok(Value::Loss(0)),
            _ => Err(no_value(&self.path, i)),
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }
}

/// The win/draw/loss maps of a database's tables, loaded on first use and shared
/// between threads.
#[derive(Default)]
pub struct WdlMaps {
    maps: Mutex<FxHashMap<Subspace, Arc<WdlMap>>>,
}

impl WdlMaps {
    /// No maps loaded yet.
    pub fn new() -> WdlMaps {
        WdlMaps::default()
    }

    /// The map of `sub`, decoded from `db` on first use.
    pub fn get(&self, db: &Database, sub: Subspace) -> Result<Arc<WdlMap>, QueryError> {
        let mut maps = self.maps.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(m) = maps.get(&sub) {
            return Ok(m.clone());
        }
        // decoded under the lock: a second thread waits rather than decoding twice
        let m = Arc::new(WdlMap::load(db, sub)?);
        maps.insert(sub, m.clone());
        Ok(m)
    }

    /// Bytes held by the loaded maps.
    pub fn bytes(&self) -> u64 {
        let maps = self.maps.lock().unwrap_or_else(|p| p.into_inner());
        maps.values().map(|m| m.bytes()).sum()
    }
}
