//! Random positions from random games: what the tables and the search are
//! compared on (`millbase solve-opening --compare`).

use crate::rules::moves;
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Random games tried per position before giving up (a game may end early).
const ATTEMPTS: usize = 1000;

/// `n` placement-phase positions, each from its own random game from `start`
/// (uniformly random legal moves), taken after a uniformly random number of
/// plies in `min_ply..P`, where `P` is the number of stones `start` has in
/// hand (`None` if that range is empty). A game that ends before is played
/// again. The same `seed` gives the same positions.
pub fn random_placement_positions(
    start: &Position,
    variant: Variant,
    n: usize,
    min_ply: u32,
    seed: u64,
) -> Option<Vec<Position>> {
    let placements = u32::from(start.mover_hand) + u32::from(start.opponent_hand);
    if min_ply >= placements {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    'positions: while out.len() < n {
        let plies = rng.random_range(min_ply..placements);
        'games: for _ in 0..ATTEMPTS {
            let mut pos = *start;
            for _ in 0..plies {
                let legal = moves::legal_moves(&pos, variant);
                if pos.mover_below_minimum() || legal.is_empty() {
                    continue 'games;
                }
                pos = moves::apply(&pos, legal[rng.random_range(0..legal.len())]);
            }
            if !pos.mover_below_minimum() {
                out.push(pos);
                continue 'positions;
            }
        }
        return None;
    }
    Some(out)
}
