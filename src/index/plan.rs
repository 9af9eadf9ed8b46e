//! Which subspaces a database holds, and the order they are solved in: the
//! movement subspaces in pairs, every removal leading into a pair solved
//! earlier; then the placement sectors, each leading into sectors solved
//! earlier or into the movement phase.

use crate::index::Subspace;
use crate::rules::variant::{DEFAULT_MOVE_LIMIT, STONES_PER_SIDE};

/// Which subspaces to build, by the stones of each side on the board plus in
/// hand. A move never adds stones, so the subspaces within limits are closed
/// under moves: a database built with `max_stones = N` holds every position of
/// the game where each side starts with N stones.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most stones of either side, on the board plus in hand.
    pub max_stones: u8,
    /// Most stones of both sides together, on the board plus in hand.
    pub max_total: u8,
    /// Whether to build the placement sectors too (else the movement phase only).
    pub placement: bool,
    /// The move limit of the no-removal rule whose tables to build too
    /// ([`crate::solve::counter`]), if any.
    pub move_limit: Option<u16>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_stones: STONES_PER_SIDE,
            max_total: 2 * STONES_PER_SIDE,
            placement: true,
            move_limit: Some(DEFAULT_MOVE_LIMIT),
        }
    }
}

impl Limits {
    /// Whether `sub` is within the limits.
    pub fn admits(&self, sub: Subspace) -> bool {
        let (m, o) = (sub.mover + sub.mover_hand, sub.opponent + sub.opponent_hand);
        m.max(o) <= self.max_stones
            && m + o <= self.max_total
            && (self.placement || sub.is_movement())
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

/// The placement sectors within `limits`, in an order where every sector's
/// moves lead into sectors earlier in the list or into the movement phase.
pub fn placement_plan(limits: Limits) -> Vec<Subspace> {
    Subspace::all_placement()
        .into_iter()
        .filter(|&s| limits.admits(s))
        .collect()
}

/// Every subspace and sector within `limits`, in solving order: the movement
/// pairs, then the placement sectors.
pub fn all_sectors(limits: Limits) -> Vec<Subspace> {
    let mut v = all_subspaces(limits);
    v.extend(placement_plan(limits));
    v
}
