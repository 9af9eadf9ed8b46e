//! The bear-off databases again in floating point (f64), without gnubg's
//! fixed point, as an independent check of the files: the largest
//! difference between each stored value and its f64 counterpart.
//!
//! The recursions are the files': the best play of a roll needs the fewest
//! rolls on average (one-sided; the first of equal ones), or has the highest
//! equity (two-sided), and the cube decisions are gnubg's `CubeEquity` in
//! real numbers. The distributions keep 64 rolls, so that nothing is cut at
//! 32 as in the files.

use crate::bearoff::moves::{self, Roll};
use crate::bearoff::one_sided::{Distribution, ONE, ROLLS};
use crate::bearoff::position::{Side, positions};
use crate::bearoff::two_sided::{self, Equities, Successors};

/// Rolls an exact distribution keeps.
pub const EXACT_ROLLS: usize = 64;

/// A position's distributions in f64 (bearing off all, the first chequer).
#[derive(Clone, Debug, PartialEq)]
pub struct ExactDistribution {
    /// Chance of having borne every chequer off after exactly i rolls.
    pub off: Vec<f64>,
    /// Chance of having borne the first chequer off after exactly i rolls.
    pub gammon: Vec<f64>,
}

/// The mean of a distribution.
pub fn mean(p: &[f64]) -> f64 {
    p.iter().enumerate().map(|(i, v)| i as f64 * v).sum()
}

/// Every position's distributions, by index, in f64.
pub fn one_sided(points: usize, chequers: usize) -> Vec<ExactDistribution> {
    let n = positions(points, chequers);
    let mut done = vec![0.0; EXACT_ROLLS];
    done[0] = 1.0;
    let mut table = vec![ExactDistribution {
        off: done.clone(),
        gammon: done.clone(),
    }];
    for i in 1..n {
        let side = Side::from_index(i, points).expect("an index below the count");
        let all_on = side.chequers() as usize == chequers;
        let mut off = vec![0.0; EXACT_ROLLS];
        let mut gammon = vec![0.0; EXACT_ROLLS];
        if !all_on {
            gammon[0] = 1.0;
        }
        for roll in Roll::all() {
            let w = f64::from(roll.weight()) / 36.0;
            let plays = moves::plays(&side, roll);
            let pick = |f: &dyn Fn(&ExactDistribution) -> f64| {
                let mut best: Option<(f64, usize)> = None;
                for p in &plays {
                    let j = p.to.index(points) as usize;
                    let m = f(&table[j]);
                    if best.is_none_or(|(b, _)| m < b) {
                        best = Some((m, j));
                    }
                }
                best.expect("a legal play").1
            };
            let best = pick(&|d| mean(&d.off));
            for k in 0..EXACT_ROLLS - 1 {
                off[k + 1] += w * table[best].off[k];
            }
            if all_on {
                let best = pick(&|d| mean(&d.gammon));
                for k in 0..EXACT_ROLLS - 1 {
                    gammon[k + 1] += w * table[best].gammon[k];
                }
            }
        }
        table.push(ExactDistribution { off, gammon });
    }
    table
}

/// The largest differences between `file` (gnubg's fixed point) and
/// `exact`: of a single probability, and of an expected number of rolls
/// (bearing all off, or the first chequer).
pub fn one_sided_difference(file: &[Distribution], exact: &[ExactDistribution]) -> (f64, f64) {
    let (mut prob, mut rolls) = (0.0f64, 0.0f64);
    for (f, e) in file.iter().zip(exact) {
        for (fixed, real) in [(&f.off, &e.off), (&f.gammon, &e.gammon)] {
            for k in 0..ROLLS {
                prob = prob.max((f64::from(fixed[k]) / f64::from(ONE) - real[k]).abs());
            }
        }
        rolls = rolls.max((f.expected_rolls() - mean(&e.off)).abs());
        rolls = rolls.max((f.expected_rolls_gammon() - mean(&e.gammon)).abs());
    }
    (prob, rolls)
}

/// Two-sided equities in f64: cubeless, owned, centred, opponent's cube.
pub type ExactEquities = [f64; 4];

/// gnubg's `CubeEquity` in real numbers.
fn cube_equity(no_double: f64, double_take: f64, double_pass: f64) -> f64 {
    if double_take >= no_double / 2.0 && double_pass >= no_double {
        double_pass.min(2.0 * double_take)
    } else {
        no_double
    }
}

/// Every pair's equities in f64, as [`two_sided::generate`] orders them.
pub fn two_sided(points: usize, chequers: usize) -> Vec<ExactEquities> {
    let n = positions(points, chequers) as usize;
    let succ = Successors::new(points, n as u32);
    let weights = two_sided::roll_weights();
    let mut table = vec![[0.0f64; 4]; n * n];
    for sum in 0..2 * n - 1 {
        for us in sum.saturating_sub(n - 1)..=sum.min(n - 1) {
            let them = sum - us;
            table[us * n + them] = if us == 0 {
                [1.0; 4]
            } else if them == 0 {
                [-1.0; 4]
            } else {
                let mut total = [0.0f64; 4];
                for (r, &w) in weights.iter().enumerate() {
                    let mut best = [f64::NEG_INFINITY; 4];
                    for &j in succ.of(us as u32, r) {
                        let e = &table[them * n + j as usize];
                        best[0] = best[0].max(-e[0]);
                        best[1] = best[1].max(-e[3]);
                        best[2] = best[2].max(-cube_equity(e[2], e[3], 1.0));
                        best[3] = best[3].max(-cube_equity(e[1], e[3], 1.0));
                    }
                    for k in 0..4 {
                        total[k] += f64::from(w) * best[k] / 36.0;
                    }
                }
                total
            };
        }
    }
    table
}

/// The largest difference of each equity (cubeless, owned, centred,
/// opponent's) between `file` (gnubg's integers) and `exact`; `kinds` is 1
/// for a cubeless file.
pub fn two_sided_difference(file: &[Equities], exact: &[ExactEquities], kinds: usize) -> [f64; 4] {
    let mut d = [0.0f64; 4];
    for (f, e) in file.iter().zip(exact) {
        for k in 0..kinds {
            d[k] = d[k].max((two_sided::equity(f[k]) - e[k]).abs());
        }
    }
    d
}
