//! Win/draw/loss maps of whole movement tables: two bits per index, decoded once
//! from the compressed files, for searches that probe millions of leaves (the
//! placement-phase proof). All 49 tables take 2.3 GB this way.

use crate::index::{Index, Subspace};
use crate::query::{Database, QueryError};
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;
use std::path::PathBuf;

const UNUSED: u64 = 0;
const DRAW: u64 = 1;
const WIN: u64 = 2;
const LOSS: u64 = 3;
/// Entries per 64-bit word.
const PER_WORD: u64 = 32;

struct Map {
    path: PathBuf,
    words: Vec<u64>,
}

/// Win/draw/loss maps of the tables of a database, loaded on first use.
#[derive(Default)]
pub struct WdlMaps {
    maps: FxHashMap<Subspace, Map>,
}

fn code(v: Option<Value>) -> u64 {
    match v {
        None => UNUSED,
        Some(Value::Draw) => DRAW,
        Some(Value::Win(_)) => WIN,
        Some(Value::Loss(_)) => LOSS,
    }
}

impl WdlMaps {
    /// No maps loaded yet.
    pub fn new() -> WdlMaps {
        WdlMaps::default()
    }

    fn load(db: &Database, sub: Subspace) -> Result<Map, QueryError> {
        let table = db.table(sub)?;
        let blocks = table.map_blocks(|values| {
            values
                .chunks(PER_WORD as usize)
                .map(|c| {
                    c.iter()
                        .enumerate()
                        .fold(0u64, |w, (j, &v)| w | code(v) << (2 * j))
                })
                .collect::<Vec<u64>>()
        })?;
        Ok(Map {
            path: table.path().to_path_buf(),
            words: blocks.concat(),
        })
    }

    /// The value (plies 0) of index `i` of the movement subspace `sub`, loading its
    /// map from `db` on first use.
    pub fn value(&mut self, db: &Database, sub: Subspace, i: Index) -> Result<Value, QueryError> {
        let map = match self.maps.entry(sub) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(WdlMaps::load(db, sub)?),
        };
        let word = map.words.get((i / PER_WORD) as usize).copied().unwrap_or(0);
        match word >> (2 * (i % PER_WORD)) & 3 {
            DRAW => Ok(Value::Draw),
            WIN => Ok(Value::Win(0)),
            LOSS => Ok(Value::Loss(0)),
            _ => Err(QueryError::NoValue {
                path: map.path.clone(),
                index: i,
            }),
        }
    }

    /// Bytes held by the loaded maps.
    pub fn bytes(&self) -> u64 {
        self.maps.values().map(|m| m.words.len() as u64 * 8).sum()
    }
}
