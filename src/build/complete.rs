//! Complete tables from a database directory: every value with its plies (the
//! game's) or distance (the rule's), also where a file stores fewer. They come
//! from the file, else from a valid work file, else by one ply from the
//! children's stored tables ([`derive_plies`], [`derive_distances`]).

use crate::index::{Indexer, Subspace};
use crate::solve::children::{derive_distances, derive_plies};
use crate::solve::known::{Kind, Known};
use crate::solve::value::Cell;
use crate::storage::Encoding;
use crate::storage::dir::{DbDir, DbError};

/// Loads the complete tables of `kind` of `subs` into `known` (those not
/// there yet).
pub fn load_known(
    db: &DbDir,
    ix: &Indexer,
    kind: Kind,
    subs: &[Subspace],
    known: &mut Known,
) -> Result<(), DbError> {
    for &s in subs {
        if !known.contains(s) {
            known.insert(s, read_complete(db, ix, kind, s)?);
        }
    }
    Ok(())
}

/// Reads (and checks) the complete table of `kind` of `sub`.
pub fn read_complete(
    db: &DbDir,
    ix: &Indexer,
    kind: Kind,
    sub: Subspace,
) -> Result<Vec<Cell>, DbError> {
    let table = db.open_table(kind, sub)?;
    let stores_all = !matches!(
        table.header.encoding,
        Encoding::WdlOnly | Encoding::CountsOnly
    );
    if stores_all {
        return Ok(db.read_stored(kind, sub, &table)?);
    }
    if let Ok(work) = db.open_work_table(kind, sub)
        && work.header.counts == table.header.counts
        && let Ok(cells) = db.read_stored(kind, sub, &work)
    {
        return Ok(cells);
    }
    let mut children = Known::new();
    for c in sub.successors() {
        let t = db.open_table(kind, c)?;
        children.insert(c, db.read_stored(kind, c, &t)?);
    }
    Ok(match kind {
        Kind::Game => derive_plies(ix, db.variant(), sub, table.read_all()?, &children)?,
        Kind::Rule(limit) => {
            let game = db.read_outcomes(sub)?;
            derive_distances(ix, db.variant(), sub, &game, limit, &children)?
        }
    })
}
