//! Verification of a database by forward move generation: every stored value and
//! plies must follow from the stored values of the position's children, and
//! every distance of a table of the no-removal rule from its children's
//! distances. This is independent of the solver's predecessor generation.

use crate::build::complete::load_known;
use crate::index::{Index, Indexer, Subspace};
use crate::rules::geometry::Bits;
use crate::rules::variant::Variant;
use crate::solve::children::{Scratch, distance_from_known, value_from_known};
use crate::solve::counter;
use crate::solve::known::count_values;
use crate::solve::known::{Kind, Known, PREFETCH_AHEAD, SolveError, prefetch};
use crate::solve::value::{Cell, Value};
use crate::storage::dir::{DbDir, DbError, stores_plies};
use crate::storage::{Encoding, StorageError};
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

/// The most memory [`verify_tables`] keeps in complete tables for later
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
    variant: Variant,
    known: &Known,
    sub: Subspace,
    table: &[Cell],
    sample: usize,
) -> Result<VerifyReport, SolveError> {
    let check = Check::new(ix, variant, known, sub, (Kind::Game, None), &Unwatched);
    let counts = check.run(Some(table), sample, None)?;
    Ok(check.report(counts))
}

/// The check of one subspace's entries.
struct Check<'a> {
    ix: &'a Indexer,
    variant: Variant,
    known: &'a Known,
    sub: Subspace,
    /// What is recomputed: the game's values from the children's game
    /// tables, or the rule's distances from the children's rule tables.
    kind: Kind,
    /// For a rule table: the game's table of the checked subspace (outcomes
    /// at least), whose draws are the rule's.
    game: Option<&'a [Cell]>,
    watch: &'a dyn Watch,
    examples: Mutex<Vec<Mismatch>>,
}

impl<'a> Check<'a> {
    fn new(
        ix: &'a Indexer,
        variant: Variant,
        known: &'a Known,
        sub: Subspace,
        (kind, game): (Kind, Option<&'a [Cell]>),
        watch: &'a dyn Watch,
    ) -> Check<'a> {
        Check {
            ix,
            variant,
            known,
            sub,
            kind,
            game,
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
        let table = match (table, self.kind) {
            (Some(table), Kind::Game) => table,
            // a rule table's unused slots are the game's
            _ => return Ok((checked, bad)),
        };
        // slots that hold no position must say so
        let block = self.ix.block_size(self.sub) as usize;
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
        let game = self.game;
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
        match (self.kind, self.game) {
            (Kind::Rule(_), Some(game)) if game[i].wdl_code() < 2 => Ok(None),
            (Kind::Game, _) => {
                value_from_known(self.ix, self.variant, self.known, pos, scratch).map(Some)
            }
            (Kind::Rule(limit), _) => {
                distance_from_known(self.ix, self.variant, self.known, pos, limit, scratch)
                    .map(Some)
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
            move_limit: self.kind.move_limit(),
            checked,
            mismatches,
            examples,
            counts_differ: false,
        }
    }
}

/// Which tables a check of a directory reads, and how closely.
#[derive(Clone, Copy, Debug)]
pub struct Scope<'a> {
    /// The kind of table checked.
    pub kind: Kind,
    /// The subspaces and sectors checked: all whose table of `kind` is in
    /// the directory when empty.
    pub only: &'a [Subspace],
    /// As in [`verify_subspace`]: 1 checks every entry.
    pub sample: usize,
    /// The most memory kept in complete tables for later subspaces: the same
    /// reports whatever the budget, but less memory and more derivation with a
    /// smaller one.
    pub kept_bytes: usize,
}

impl Scope<'_> {
    /// Every entry of every table of `kind`, keeping up to 8 GB of complete
    /// tables.
    pub fn all(kind: Kind) -> Scope<'static> {
        Scope {
            kind,
            only: &[],
            sample: 1,
            kept_bytes: KEPT_BYTES,
        }
    }
}

/// Verifies the tables of `scope.kind` of the subspaces and sectors of
/// `scope.only`, calling `report` after each, and stopping early when it
/// returns `false`.
///
/// The game's values are recomputed from the children's game tables; the
/// rule's distances, where the game does not settle a draw, from the
/// children's rule tables ([`distance_from_known`]). A file that stores
/// values must hold exactly those; a rule table that stores counts only must
/// fit the game's outcomes everywhere and, when every position is checked,
/// hold the counts of the distances its children give.
///
/// A table whose file stores no plies (or counts only) is verified before the
/// tables whose moves lead into it: checking every entry gives its complete
/// table, which is kept for them while one is left, within
/// `scope.kept_bytes`. Otherwise (a sample, its own file not among those
/// checked, or dropped for memory) its values are derived from its children
/// ([`load_known`]).
///
/// `watch` is told of each table's check and its progress.
pub fn verify_tables(
    db: &DbDir,
    ix: &Indexer,
    scope: Scope<'_>,
    watch: &dyn Watch,
    report: &mut dyn FnMut(&VerifyReport) -> bool,
) -> Result<Vec<VerifyReport>, DbError> {
    let Scope {
        kind,
        only,
        sample,
        kept_bytes,
    } = scope;
    let subs = verify_order(match (only, kind) {
        ([], Kind::Game) => db.present(),
        ([], Kind::Rule(limit)) => with_rule_table(db, limit, db.present()),
        _ => only.to_vec(),
    });
    // every file asked for is there before hours of work start
    for &sub in &subs {
        db.open_table(kind, sub)?;
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
        // tables that store every value are read again when needed; complete
        // tables of the others are kept while a later subspace needs them
        let kept: Vec<Subspace> = (known.subspaces().into_iter())
            .filter(|&s| needed.contains(&s) || (!stores_plies(s) && next_use(s, k).is_some()))
            .collect();
        known.retain(&kept);
        let file = db.open_table(kind, sub)?;
        watch.start(
            sub,
            kind.move_limit(),
            file.header.counts.classes / sample.max(1) as u64,
        );
        load_known(db, ix, kind, &needed, &mut known).map_err(|e| DbError::Needs {
            subspace: sub,
            source: Box::new(e),
        })?;
        let game = match kind {
            Kind::Game => None,
            Kind::Rule(_) => Some(db.read_outcomes(sub)?),
        };
        let stored = match file.header.encoding {
            Encoding::CountsOnly => None,
            _ => Some(db.read_stored(kind, sub, &file)?),
        };
        let check = Check::new(
            ix,
            db.variant(),
            &known,
            sub,
            (kind, game.as_deref()),
            watch,
        );
        // the complete table: for later subspaces, and a rule table's counts
        let keep = !stores_plies(sub) && next_use(sub, k + 1).is_some();
        let complete = (sample <= 1 && (keep || stored.is_none()))
            .then(|| Cell::unused_atomic(file.header.entries));
        let counts = check.run(stored.as_deref(), sample, complete.as_deref())?;
        let mut r = check.report(counts);
        if let Some(complete) = complete {
            let cells = Cell::from_atomic(complete);
            if stored.is_none() && count_values(ix, sub, &cells) != file.header.counts {
                r.counts_differ = true;
                r.mismatches += 1;
            }
            if keep {
                known.insert(sub, cells);
            }
        }
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

/// The subspaces of `subs` whose rule table for `limit` is in `db` (a file
/// that is there but damaged counts as there: checking it reports the
/// damage).
pub fn with_rule_table(db: &DbDir, limit: u16, subs: Vec<Subspace>) -> Vec<Subspace> {
    (subs.into_iter())
        .filter(|&s| {
            !matches!(
                db.open_table(Kind::Rule(limit), s),
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
