//! Which movement subspaces a database holds, and the order they are solved in:
//! every removal leads into a pair solved earlier.

use crate::index::Subspace;
use crate::rules::STONES_PER_SIDE;

/// Which movement subspaces to build.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most stones of either side on the board.
    pub max_stones: u8,
    /// Most stones of both sides together.
    pub max_total: u8,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_stones: STONES_PER_SIDE,
            max_total: 2 * STONES_PER_SIDE,
        }
    }
}

impl Limits {
    /// Whether `sub` is within the limits.
    pub fn admits(&self, sub: Subspace) -> bool {
        sub.mover.max(sub.opponent) <= self.max_stones && sub.mover + sub.opponent <= self.max_total
    }
}

/// The movement subspaces within `limits`, one per colour-swap pair (the one with
/// more mover stones), in an order where every removal leads into a pair solved
/// earlier.
pub fn plan(limits: Limits) -> Vec<Subspace> {
    let mut v: Vec<Subspace> = Subspace::all_movement()
        .into_iter()
        .filter(|s| s.mover >= s.opponent && limits.admits(*s))
        .collect();
    v.sort_by_key(|s| (s.mover + s.opponent, s.mover));
    v
}

/// Every movement subspace within `limits`, pairs together, in solving order.
pub fn all_subspaces(limits: Limits) -> Vec<Subspace> {
    plan(limits).iter().flat_map(Subspace::with_swap).collect()
}
