//! Verification of a database by forward move generation: every stored value and
//! plies must follow from the stored values of the position's children, and
//! every distance of a table of the no-removal rule from its children's
//! distances. This is independent of the solver's predecessor generation.

use crate::children::{Scratch, distance_from_known, value_from_known};
use crate::counter;
use crate::db::{DbDir, DbError, stores_plies};
use crate::geometry::Bits;
use crate::index::{Index, Indexer, Subspace};
use crate::rules::Rules;
use crate::solver::{Known, PREFETCH_AHEAD, SolveError, count_values, prefetch};
use crate::storage::{Encoding, StorageError};
use crate::value::{Cell, Value};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

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

/// Result of verifying one subspace's table.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    /// The subspace.
    pub subspace: Subspace,
    /// For a table of the no-removal rule: its move limit.
    pub move_limit: Option<u16>,
    /// Positions whose value was recomputed from their children (in a rule
    /// table, those the game decides: its draws are the rule's by the format).
    pub checked: u64,
    /// Entries that disagree.
    pub mismatches: u64,
    /// The few with the lowest indices, in index order.
    pub examples: Vec<Mismatch>,
    /// For a rule table whose file stores counts only: whether those counts
    /// differ from the entries' (one of the mismatches).
    pub counts_differ: bool,
}

/// Mismatches kept as examples: those with the lowest indices.
const EXAMPLES: usize = 10;

/// The most memory [`verify_dir`] keeps in complete tables for later
/// subspaces (beyond it, a table is derived again when needed): with it, a
/// full check of the complete database of either variant derives about 6%
/// of the cells again, at a peak of about 12 GB.
const KEPT_BYTES: usize = 8 << 30;

/// What a long check tells its user while it runs.
pub trait Watch: Sync {
    /// The check of `sub`'s table (the rule's for `move_limit`) starts: the
    /// tables its moves lead into are read, then about `positions` positions
    /// are checked.
    fn start(&self, sub: Subspace, move_limit: Option<u16>, positions: u64);
    /// `positions` more positions are checked.
    fn checked(&self, positions: u64);
}

/// A check that tells nobody.
pub struct Unwatched;

impl Watch for Unwatched {
    fn start(&self, _: Subspace, _: Option<u16>, _: u64) {}
    fn checked(&self, _: u64) {}
}

/// Checks the entries `table` of `sub` (as read from its file) against their
/// children: every entry when `sample` is 1, otherwise the positions of every
/// `sample`-th symmetry class of opponent sets (a spread-out sample for a
/// quick check of a large database). `known` must hold the complete tables of
/// the subspaces `sub`'s moves lead into.
pub fn verify_subspace(
    ix: &Indexer,
    rules: Rules,
    known: &Known,
    sub: Subspace,
    table: &[Cell],
    sample: usize,
) -> Result<VerifyReport, SolveError> {
    let check = Check::new(ix, rules, known, sub, Target::Game, &Unwatched);
    let counts = check.run(Some(table), sample, None)?;
    Ok(check.report(counts))
}

/// What one check recomputes.
#[derive(Clone, Copy)]
enum Target<'a> {
    /// The game's values, from the children's game tables.
    Game,
    /// The distances of the no-removal rule with this move limit, from the
    /// children's distance tables; `game` is the game's table of the checked
    /// subspace (outcomes at least), whose draws are the rule's.
    Rule { limit: u16, game: &'a [Cell] },
}

/// The check of one subspace's entries.
struct Check<'a> {
    ix: &'a Indexer,
    rules: Rules,
    known: &'a Known,
    sub: Subspace,
    target: Target<'a>,
    watch: &'a dyn Watch,
    examples: Mutex<Vec<Mismatch>>,
}

impl<'a> Check<'a> {
    fn new(
        ix: &'a Indexer,
        rules: Rules,
        known: &'a Known,
        sub: Subspace,
        target: Target<'a>,
        watch: &'a dyn Watch,
    ) -> Check<'a> {
        Check {
            ix,
            rules,
            known,
            sub,
            target,
            watch,
            examples: Mutex::new(Vec::new()),
        }
    }

    /// Checks the positions of every `sample`-th class of opponent sets (all
    /// when `sample` is 1) against `table` (for a rule table that stores
    /// none, `None`: each distance must then fit the game's outcome), writing
    /// the values their children imply into `out` if given, and for the
    /// game's table every slot that holds no position (within every
    /// `sample`-th block of slots) for being marked unused; returns the
    /// positions checked and the entries that disagree.
    fn run(
        &self,
        table: Option<&[Cell]>,
        sample: usize,
        out: Option<&[AtomicU16]>,
    ) -> Result<(u64, u64), SolveError> {
        // positions grouped by the opponent's set: their children, whose
        // mover set that is, share the few blocks of their tables it ranks to
        let (checked, bad) = (0..self.ix.orbits(self.sub.opponent))
            .into_par_iter()
            .step_by(sample.max(1))
            .map_init(
                || (Scratch::default(), vec![]),
                |buffers, orbit| self.opponent_orbit(orbit, table, out, buffers),
            )
            .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
        let table = match (table, self.target) {
            (Some(table), Target::Game) => table,
            // a rule table's unused slots are the game's
            _ => return Ok((checked, bad)),
        };
        // slots that hold no position must say so
        let block = Indexer::block_size(self.sub) as usize;
        let unused: u64 = table
            .par_chunks(block)
            .enumerate()
            .step_by(sample.max(1))
            .map(|(orbit, chunk)| {
                let mut position = vec![false; chunk.len()];
                let base = orbit * block;
                self.ix.for_each_in_orbit(self.sub, orbit, |i, _, _| {
                    position[i as usize - base] = true
                });
                (chunk.iter().zip(&position))
                    .filter(|&(c, &p)| !p && *c != Cell::UNUSED)
                    .count() as u64
            })
            .sum();
        Ok((checked, bad + unused))
    }

    /// Checks the positions whose opponent set is in orbit `orbit`
    /// ([`Indexer::for_each_by_opponent`]) against `table`, writing the values
    /// their children imply into `out` if given; returns the positions checked
    /// and the entries that disagree. `group` is a buffer.
    fn opponent_orbit(
        &self,
        orbit: usize,
        table: Option<&[Cell]>,
        out: Option<&[AtomicU16]>,
        (scratch, group): &mut (Scratch<'a>, Vec<(usize, Bits, Bits)>),
    ) -> Result<(u64, u64), SolveError> {
        group.clear();
        self.ix.for_each_by_opponent(self.sub, orbit, |m, o| {
            group.push((self.ix.rank(m, o) as usize, m, o));
        });
        let game = match self.target {
            Target::Game => None,
            Target::Rule { game, .. } => Some(game),
        };
        let (mut checked, mut bad) = (0u64, 0u64);
        for (k, &(i, m, o)) in group.iter().enumerate() {
            // the entries of a group's positions, and their slots in `out`,
            // lie far apart in their tables: each is requested a few
            // positions ahead, to load while children are read
            if let Some(&(ahead, _, _)) = group.get(k + PREFETCH_AHEAD) {
                if let Some(table) = table {
                    prefetch(&table[ahead]);
                }
                if let Some(game) = game {
                    prefetch(&game[ahead]);
                }
                if let Some(out) = out {
                    prefetch(&out[ahead]);
                }
            }
            let pos = self.sub.position(m, o);
            let expected = match self.expected(i, &pos, scratch)? {
                Some(v) => {
                    checked += 1;
                    v
                }
                None => Value::Draw,
            };
            if let Some(out) = out {
                out[i].store(Cell::from_value(expected).0, Relaxed);
            }
            let (stored, agrees) = match (table, game) {
                (Some(table), _) => (table[i], table[i].agrees_with(expected)),
                (None, Some(game)) => {
                    let fits = counter::fits_game(expected, game[i].wdl_code());
                    (game[i], fits)
                }
                (None, None) => unreachable!("the game's check reads its table"),
            };
            if !agrees {
                bad += 1;
                self.note(Mismatch {
                    index: i as Index,
                    position: pos.to_string(),
                    stored,
                    expected,
                });
            }
        }
        self.watch.checked(group.len() as u64);
        Ok((checked, bad))
    }

    /// The value of the position `pos` at slot `i` that its children imply,
    /// or `None` for a draw of the game in a rule table (the rule's draw by
    /// the file format, with no children to read).
    fn expected(
        &self,
        i: usize,
        pos: &crate::Position,
        scratch: &mut Scratch<'a>,
    ) -> Result<Option<Value>, SolveError> {
        match self.target {
            Target::Game => {
                value_from_known(self.ix, self.rules, self.known, pos, scratch).map(Some)
            }
            Target::Rule { game, .. } if game[i].wdl_code() < 2 => Ok(None),
            Target::Rule { limit, .. } => {
                distance_from_known(self.ix, self.rules, self.known, pos, limit, scratch).map(Some)
            }
        }
    }

    /// Keeps `m` among the examples: those with the lowest indices, whatever
    /// order the threads run in.
    fn note(&self, m: Mismatch) {
        let mut ex = self.examples.lock().unwrap_or_else(|p| p.into_inner());
        if ex.len() < EXAMPLES {
            ex.push(m);
        } else if let Some(worst) = ex.iter_mut().max_by_key(|x| x.index)
            && m.index < worst.index
        {
            *worst = m;
        }
    }

    fn report(self, (checked, mismatches): (u64, u64)) -> VerifyReport {
        let mut examples = self
            .examples
            .into_inner()
            .unwrap_or_else(|p| p.into_inner());
        examples.sort_by_key(|m| m.index);
        VerifyReport {
            subspace: self.sub,
            move_limit: match self.target {
                Target::Game => None,
                Target::Rule { limit, .. } => Some(limit),
            },
            checked,
            mismatches,
            examples,
            counts_differ: false,
        }
    }
}

/// Verifies the subspaces and sectors of `only` (all present in `db` when
/// empty), calling `report` after each, and stopping early when it returns
/// `false`; `sample` as in [`verify_subspace`].
///
/// A table whose file stores no plies is verified before the tables whose
/// moves lead into it: checking every entry gives its complete table, which is
/// kept for them while one is left, within a memory budget (8 GB; see
/// [`verify_dir_keeping`]). Otherwise (a sample, its own file not among those
/// checked, or dropped for memory) its plies are derived from its children
/// ([`DbDir::load_known`]).
///
/// `watch` is told of each table's check and its progress.
pub fn verify_dir(
    db: &DbDir,
    ix: &Indexer,
    only: &[Subspace],
    sample: usize,
    watch: &dyn Watch,
    report: &mut dyn FnMut(&VerifyReport) -> bool,
) -> Result<Vec<VerifyReport>, DbError> {
    verify_dir_keeping(db, ix, only, sample, KEPT_BYTES, watch, report)
}

/// [`verify_dir`] keeping at most `kept_bytes` of complete tables for later
/// subspaces: the same reports whatever the budget, but less memory and more
/// derivation with a smaller one.
pub fn verify_dir_keeping(
    db: &DbDir,
    ix: &Indexer,
    only: &[Subspace],
    sample: usize,
    kept_bytes: usize,
    watch: &dyn Watch,
    report: &mut dyn FnMut(&VerifyReport) -> bool,
) -> Result<Vec<VerifyReport>, DbError> {
    let subs = verify_order(if only.is_empty() {
        db.present()
    } else {
        only.to_vec()
    });
    // every file asked for is there before hours of work start
    for &sub in &subs {
        db.open_table(sub)?;
    }
    // the subspaces (by position in `subs`) whose moves lead into each table
    let mut uses: HashMap<Subspace, Vec<usize>> = HashMap::new();
    for (k, sub) in subs.iter().enumerate() {
        for c in sub.successors() {
            uses.entry(c).or_default().push(k);
        }
    }
    let next_use = |s: Subspace, k: usize| uses.get(&s)?.iter().copied().find(|&j| j >= k);
    let mut known = Known::new();
    let mut out = vec![];
    for (k, &sub) in subs.iter().enumerate() {
        let needed = sub.successors();
        // tables with plies are read again when needed; complete tables of
        // files without plies are kept while a later subspace needs them
        let kept: Vec<Subspace> = (known.subspaces().into_iter())
            .filter(|&s| needed.contains(&s) || (!stores_plies(s) && next_use(s, k).is_some()))
            .collect();
        known.retain(&kept);
        let file = db.open_table(sub)?;
        watch.start(sub, None, file.header.counts.classes / sample.max(1) as u64);
        db.load_known(ix, &needed, &mut known)
            .map_err(|e| DbError::Needs {
                subspace: sub,
                source: Box::new(e),
            })?;
        let table = file.read_all()?;
        let check = Check::new(ix, db.rules(), &known, sub, Target::Game, watch);
        let r = if sample <= 1 && !stores_plies(sub) && next_use(sub, k + 1).is_some() {
            let complete = Cell::unused_atomic(table.len() as u64);
            let counts = check.run(Some(&table), 1, Some(&complete))?;
            let r = check.report(counts);
            known.insert(sub, Cell::from_atomic(complete));
            r
        } else {
            let counts = check.run(Some(&table), sample, None)?;
            check.report(counts)
        };
        // within the memory budget, drop those needed again last
        loop {
            let cached: Vec<(Subspace, usize)> = (known.subspaces().into_iter())
                .filter_map(|s| Some((s, next_use(s, k + 1)?)))
                .filter(|&(s, _)| !stores_plies(s))
                .collect();
            let bytes: usize = cached.iter().map(|&(s, _)| known.bytes(s)).sum();
            match cached.iter().max_by_key(|&&(_, next)| next) {
                Some(&(s, _)) if bytes > kept_bytes => drop(known.take(s)),
                _ => break,
            }
        }
        let go_on = report(&r);
        out.push(r);
        if !go_on {
            break;
        }
    }
    Ok(out)
}

/// Verifies the tables of the no-removal rule with move limit `limit` of the
/// subspaces and sectors of `only` (all whose rule table is in `db` when
/// empty), calling `report` after each, and stopping early when it returns
/// `false`; `sample` as in [`verify_subspace`].
///
/// Every distance the game does not settle as a draw is recomputed from the
/// distances of the children's rule tables ([`distance_from_known`]; where a
/// child's file stores counts only, its distances are derived by one ply, as
/// a probe derives them). A file that stores distances must hold exactly
/// those; one that stores counts only must fit the game's outcomes
/// everywhere and, when every position is checked, hold the counts of the
/// distances its children give.
pub fn verify_rule_dir(
    db: &DbDir,
    ix: &Indexer,
    limit: u16,
    only: &[Subspace],
    sample: usize,
    watch: &dyn Watch,
    report: &mut dyn FnMut(&VerifyReport) -> bool,
) -> Result<Vec<VerifyReport>, DbError> {
    let subs: Vec<Subspace> = if only.is_empty() {
        with_rule_table(db, limit, db.present())
    } else {
        only.to_vec()
    };
    // every file asked for is there before hours of work start
    for &sub in &subs {
        db.open_rule_table(limit, sub)?;
    }
    let mut known = Known::new();
    let mut out = vec![];
    for sub in subs {
        let needed = sub.successors();
        known.retain(&needed);
        let file = db.open_rule_table(limit, sub)?;
        watch.start(
            sub,
            Some(limit),
            file.header.counts.classes / sample.max(1) as u64,
        );
        db.load_rule_tables(ix, limit, &needed, &mut known)
            .map_err(|e| DbError::Needs {
                subspace: sub,
                source: Box::new(e),
            })?;
        let game = db.read_outcomes(sub)?;
        let stored = match file.header.encoding {
            Encoding::CountsOnly => None,
            _ => Some(file.read_rule(&game)?),
        };
        let target = Target::Rule { limit, game: &game };
        let check = Check::new(ix, db.rules(), &known, sub, target, watch);
        let complete =
            (stored.is_none() && sample <= 1).then(|| Cell::unused_atomic(game.len() as u64));
        let counts = check.run(stored.as_deref(), sample, complete.as_deref())?;
        let mut r = check.report(counts);
        if let Some(complete) = complete {
            let cells = Cell::from_atomic(complete);
            if count_values(ix, sub, &cells) != file.header.counts {
                r.counts_differ = true;
                r.mismatches += 1;
            }
        }
        let go_on = report(&r);
        out.push(r);
        if !go_on {
            break;
        }
    }
    Ok(out)
}

/// The subspaces of `subs` whose rule table for `limit` is in `db` (a file
/// that is there but damaged counts as there: checking it reports the
/// damage).
pub fn with_rule_table(db: &DbDir, limit: u16, subs: Vec<Subspace>) -> Vec<Subspace> {
    (subs.into_iter())
        .filter(|&s| {
            !matches!(
                db.open_rule_table(limit, s),
                Err(StorageError::Missing { .. })
            )
        })
        .collect()
}

/// `subs` with the member of each movement pair whose file stores no plies
/// first: its check needs only tables with plies, and gives the complete table
/// the other member's check needs.
fn verify_order(mut subs: Vec<Subspace>) -> Vec<Subspace> {
    for k in 1..subs.len() {
        let (a, b) = (subs[k - 1], subs[k]);
        if b == a.negate() && stores_plies(a) && !stores_plies(b) {
            subs.swap(k - 1, k);
        }
    }
    subs
}
