//! Verification of a database by forward move generation: every stored value and
//! plies must follow from the stored values of the position's children. This is
//! independent of the solver's predecessor generation.

use crate::children::value_from_known;
use crate::db::{DbDir, DbError};
use crate::index::{Index, Indexer, Subspace};
use crate::rules::Rules;
use crate::solver::{Known, SolveError};
use crate::value::{Cell, Value};
use rayon::prelude::*;
use std::sync::Mutex;

/// One entry whose stored value disagrees with its children.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// Index in the subspace.
    pub index: Index,
    /// The position, as a string.
    pub position: String,
    /// What the file holds.
    pub stored: Cell,
    /// What the children imply.
    pub expected: Value,
}

/// Result of verifying one subspace.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    /// The subspace.
    pub subspace: Subspace,
    /// Positions checked.
    pub checked: u64,
    /// Entries that disagree.
    pub mismatches: u64,
    /// The few with the lowest indices, in index order.
    pub examples: Vec<Mismatch>,
}

/// Mismatches kept as examples: those with the lowest indices.
const EXAMPLES: usize = 10;

/// Checks the entries `table` of `sub` (as read from its file) against their
/// children: every entry when `sample` is 1, otherwise the entries of every
/// `sample`-th orbit block (a spread-out sample for a quick check of a large
/// database). `known` must hold the complete tables of `sub`'s colour swap and
/// of the subspace its removals lead into.
pub fn verify_subspace(
    ix: &Indexer,
    rules: Rules,
    known: &Known,
    sub: Subspace,
    table: &[Cell],
    sample: usize,
) -> Result<VerifyReport, SolveError> {
    let block = Indexer::block_size(sub) as usize;
    let examples = Mutex::new(Vec::new());
    let (checked, mismatches) = table
        .par_chunks(block)
        .enumerate()
        .step_by(sample.max(1))
        .map_init(
            || Vec::with_capacity(64),
            |buf, (orbit, chunk)| -> Result<(u64, u64), SolveError> {
                let (mut checked, mut bad) = (0u64, 0u64);
                let base = (orbit * block) as Index;
                let mut result = Ok(());
                let mut seen = vec![false; chunk.len()];
                ix.for_each_in_orbit(sub, orbit, |i, m, o| {
                    if result.is_err() {
                        return;
                    }
                    seen[(i - base) as usize] = true;
                    let pos = sub.position(m, o);
                    let expected = match value_from_known(ix, rules, known, &pos, buf) {
                        Ok(v) => v,
                        Err(e) => {
                            result = Err(e);
                            return;
                        }
                    };
                    checked += 1;
                    let stored = chunk[(i - base) as usize];
                    if !stored.agrees_with(expected) {
                        bad += 1;
                        let mut ex = examples.lock().unwrap_or_else(|p| p.into_inner());
                        // keep the lowest indices, whatever order the threads run in
                        let m = Mismatch {
                            index: i,
                            position: pos.to_string(),
                            stored,
                            expected,
                        };
                        if ex.len() < EXAMPLES {
                            ex.push(m);
                        } else if let Some(worst) = ex.iter_mut().max_by_key(|m| m.index)
                            && i < worst.index
                        {
                            *worst = m;
                        }
                    }
                });
                result?;
                // slots that hold no position must say so
                for (j, c) in chunk.iter().enumerate() {
                    if !seen[j] && *c != Cell::UNUSED {
                        bad += 1;
                    }
                }
                Ok((checked, bad))
            },
        )
        .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
    let mut examples = examples.into_inner().unwrap_or_else(|p| p.into_inner());
    examples.sort_by_key(|m| m.index);
    Ok(VerifyReport {
        subspace: sub,
        checked,
        mismatches,
        examples,
    })
}

/// Verifies the movement subspaces of `only` (all present in `db` when empty),
/// calling `report` after each, and stopping early when it returns `false`;
/// `sample` as in [`verify_subspace`].
pub fn verify_dir(
    db: &DbDir,
    ix: &Indexer,
    only: &[Subspace],
    sample: usize,
    report: &mut dyn FnMut(&VerifyReport) -> bool,
) -> Result<Vec<VerifyReport>, DbError> {
    let mut known = Known::new();
    let mut out = vec![];
    let subs = if only.is_empty() {
        db.present()
    } else {
        only.to_vec()
    };
    // every file asked for is there before hours of work start
    for &sub in &subs {
        db.open_table(sub)?;
    }
    for sub in subs {
        let needed: Vec<Subspace> = [Some(sub.negate()), sub.after_removal()]
            .into_iter()
            .flatten()
            .collect();
        known.retain(&needed);
        db.load_known(ix, &needed, &mut known)
            .map_err(|e| DbError::Needs {
                subspace: sub,
                source: Box::new(e),
            })?;
        let table = db.open_table(sub)?.read_all()?;
        let r = verify_subspace(ix, db.rules(), &known, sub, &table, sample)?;
        let go_on = report(&r);
        out.push(r);
        if !go_on {
            break;
        }
    }
    Ok(out)
}
