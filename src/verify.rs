//! Verification of a database by forward move generation: every stored value and
//! plies must follow from the stored values of the position's children. This is
//! independent of the solver's predecessor generation.

use crate::generate::{GenerateError, load_known};
use crate::index::{Index, Indexer, Subspace};
use crate::moves::{self, Rules};
use crate::solver::{Known, SolveError, movement_position};
use crate::value::{Cell, Value};
use rayon::prelude::*;
use std::path::Path;
use std::sync::Mutex;

/// One entry whose stored value disagrees with its children.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// Index in the subspace.
    pub index: Index,
    /// The position, as a string.
    pub position: String,
    /// What the table holds (`None`: no value).
    pub stored: Option<Value>,
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

/// Checks the entries of `sub`'s table in `known` against their children: every
/// entry when `sample` is 1, otherwise the entries of every `sample`-th orbit
/// block (a spread-out sample for a quick check of a large database). `known`
/// must hold the tables of `sub`, of its colour swap and of the subspace its
/// removals lead into.
pub fn verify_subspace(
    ix: &Indexer,
    rules: Rules,
    known: &Known,
    sub: Subspace,
    sample: usize,
) -> Result<VerifyReport, SolveError> {
    let table = known.table(sub).ok_or(SolveError::MissingTable(sub))?;
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
                    let pos = movement_position(m, o);
                    buf.clear();
                    moves::generate(&pos, rules, buf);
                    let children: Result<Vec<Value>, SolveError> = buf
                        .iter()
                        .map(|&mv| known.value(ix, &moves::apply(&pos, mv)))
                        .collect();
                    let expected = match children.map(Value::from_children) {
                        Ok(Some(v)) => v,
                        Ok(None) => {
                            result = Err(SolveError::PliesOverflow(sub));
                            return;
                        }
                        Err(e) => {
                            result = Err(e);
                            return;
                        }
                    };
                    checked += 1;
                    let stored = chunk[(i - base) as usize].value();
                    if stored != Some(expected) {
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

/// Verifies the movement subspaces of `only` (all present in `dir` when empty),
/// calling `report` after each; `sample` as in [`verify_subspace`].
pub fn verify_dir(
    dir: &Path,
    rules: Rules,
    ix: &Indexer,
    only: &[Subspace],
    sample: usize,
    report: &mut dyn FnMut(&VerifyReport),
) -> Result<Vec<VerifyReport>, GenerateError> {
    let mut known = Known::new();
    let mut out = vec![];
    let present: Vec<Subspace> = if only.is_empty() {
        crate::generate::all_subspaces(Default::default())
            .into_iter()
            .filter(|&s| dir.join(crate::storage::file_name(s)).exists())
            .collect()
    } else {
        only.to_vec()
    };
    for sub in present {
        let needed: Vec<Subspace> = [Some(sub), Some(sub.negate()), sub.after_removal()]
            .into_iter()
            .flatten()
            .collect();
        known.retain(&needed);
        load_known(dir, rules, &needed, &mut known)?;
        let r = verify_subspace(ix, rules, &known, sub, sample)?;
        report(&r);
        out.push(r);
    }
    Ok(out)
}
