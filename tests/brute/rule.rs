//! The game under the no-removal rule by plain backward induction over
//! explicit (position, counter) states: a ply with a removal leads to counter
//! 0, one without to `c + 1`, and reaching the move limit that way draws
//! unless the ply left the opponent without a move. With the counter the game
//! graph has no cycles, so every state's outcome follows from its children's,
//! counter by counter from the limit down, with no thresholds and no
//! distances. Moves come from the naive rules; positions are folded by the
//! board's 16 symmetries, written out here from the points' coordinates (not
//! the engine's index).

use super::{DRAWN, LOST, Outcome, Placement, WON, sector_position};
use crate::naive::Naive;
use millbase::Variant;
use millbase::rules::geometry::{MILLS, POINT_NAMES};
use millbase::rules::position::Position;
use rayon::prelude::*;
use std::collections::HashMap;

/// The board's 16 symmetries as permutations of the 24 points, with byte
/// tables to map a set of points.
pub struct Symmetries {
    tables: Vec<[[u32; 256]; 3]>,
}

impl Symmetries {
    /// Rotations and reflections of the square, each with and without
    /// exchanging the inner and outer rings; each checked to map mills to
    /// mills, all 16 distinct.
    pub fn new() -> Symmetries {
        let coords: Vec<(i32, i32)> = POINT_NAMES
            .iter()
            .map(|n| {
                let b = n.as_bytes();
                (i32::from(b[0] - b'a') - 3, i32::from(b[1] - b'1') - 3)
            })
            .collect();
        let point = |c: (i32, i32)| coords.iter().position(|&p| p == c).expect("a point");
        let swap_rings = |(x, y): (i32, i32)| match x.abs().max(y.abs()) {
            3 => (x / 3, y / 3),
            1 => (x * 3, y * 3),
            _ => (x, y),
        };
        let mut perms: Vec<[u8; 24]> = vec![];
        for turns in 0..4 {
            for mirror in [false, true] {
                for swap in [false, true] {
                    let mut perm = [0u8; 24];
                    for (p, &c) in coords.iter().enumerate() {
                        let mut c = if swap { swap_rings(c) } else { c };
                        if mirror {
                            c = (-c.0, c.1);
                        }
                        for _ in 0..turns {
                            c = (c.1, -c.0);
                        }
                        perm[p] = point(c) as u8;
                    }
                    perms.push(perm);
                }
            }
        }
        let mill_sets: Vec<u32> = MILLS
            .iter()
            .map(|m| m.iter().fold(0, |s, &p| s | 1 << p))
            .collect();
        let map = |perm: &[u8; 24], set: u32| {
            (0..24)
                .filter(|p| set & (1 << p) != 0)
                .fold(0u32, |s, p| s | 1 << perm[p])
        };
        for perm in &perms {
            for &m in &mill_sets {
                assert!(mill_sets.contains(&map(perm, m)), "not a symmetry");
            }
        }
        let mut images: Vec<[u8; 24]> = perms.clone();
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 16, "16 distinct symmetries");
        let tables = perms
            .iter()
            .map(|perm| {
                let mut t = [[0u32; 256]; 3];
                for (k, tk) in t.iter_mut().enumerate() {
                    for (byte, e) in tk.iter_mut().enumerate() {
                        *e = map(perm, (byte as u32) << (8 * k));
                    }
                }
                t
            })
            .collect();
        Symmetries { tables }
    }

    fn apply(t: &[[u32; 256]; 3], set: u32) -> u32 {
        t[0][(set & 0xFF) as usize] | t[1][(set >> 8 & 0xFF) as usize] | t[2][(set >> 16) as usize]
    }

    /// The least image of the pair (`m`, `o`) (by `o`, then `m`) and the
    /// number of distinct images.
    pub fn canonical(&self, m: u32, o: u32) -> ((u32, u32), u32) {
        let mut images = [(0u32, 0u32); 16];
        for (i, t) in self.tables.iter().enumerate() {
            images[i] = (Self::apply(t, o), Self::apply(t, m));
        }
        images.sort_unstable();
        let distinct = 1 + images.windows(2).filter(|w| w[0] != w[1]).count() as u32;
        ((images[0].1, images[0].0), distinct)
    }
}

/// Every pair of disjoint point sets of sizes `w` and `b` that is its own
/// canonical image, with its number of images.
fn classes(sym: &Symmetries, w: u32, b: u32) -> Vec<(u32, u32, u32)> {
    let movers = super::all_sets(w);
    let opps = super::all_sets(b);
    movers
        .par_iter()
        .flat_map_iter(|&m| {
            opps.iter().filter_map(move |&o| {
                if m & o != 0 {
                    return None;
                }
                let ((cm, co), n) = sym.canonical(m, o);
                (cm == m && co == o).then_some((m, o, n))
            })
        })
        .collect()
}

/// One class of the movement phase: its non-removing children (class ids),
/// the best its removing moves reach at once (their children at counter 0 are
/// final), and whether it has a move.
struct Node {
    kids: Vec<u32>,
    removal: Option<Outcome>,
    moves: bool,
}

/// A sector's class ids (by point sets) and outcomes (class by counter).
type SectorTable = (HashMap<u64, u32>, Vec<Outcome>);

/// A child's outcome at a counter.
type ChildAt<'a> = Box<dyn Fn(u16) -> Outcome + Sync + 'a>;

fn best(a: Option<Outcome>, b: Outcome) -> Option<Outcome> {
    Some(a.map_or(b, |a| a.max(b)))
}

/// Outcomes of every class of the game where each side starts with `n`
/// stones, at every counter `0..limit`: calls `check(position, images,
/// outcomes)` once per class (a representative position, White to move in the
/// movement phase; its number of symmetric images; the outcome for the side to
/// move at each counter, index = counter).
pub fn counter_outcomes(
    variant: Variant,
    n: u8,
    limit: u16,
    check: &(dyn Fn(&Position, u32, &[Outcome]) + Sync),
) {
    let sym = Symmetries::new();
    let per = limit as usize;
    let n32 = u32::from(n);
    // movement: by groups of a subspace and its colour swap, fewest stones first
    let mut id: HashMap<u64, u32> = HashMap::new();
    let key = |m: u32, o: u32| u64::from(m) | u64::from(o) << 24;
    // per class id: outcome at the limit, and at each counter (index counter)
    let mut at_limit: Vec<Outcome> = vec![];
    let mut outcomes: Vec<Outcome> = vec![];
    let mut groups: Vec<Vec<(u32, u32)>> = vec![];
    for total in 6..=2 * n32 {
        for w in 3..=n32 {
            let b = total - w;
            if (3..=n32).contains(&b) && w <= b {
                groups.push(if w == b {
                    vec![(w, b)]
                } else {
                    vec![(w, b), (b, w)]
                });
            }
        }
    }
    for group in groups {
        let members: Vec<(u32, u32, u32)> = group
            .iter()
            .flat_map(|&(w, b)| classes(&sym, w, b))
            .collect();
        let first = at_limit.len() as u32;
        for (k, &(m, o, _)) in members.iter().enumerate() {
            id.insert(key(m, o), first + k as u32);
        }
        let nodes: Vec<Node> = members
            .par_iter()
            .map(|&(m, o, _)| {
                let list = Naive::successors(&super::movement(m, o), variant.flies());
                let mut node = Node {
                    kids: vec![],
                    removal: None,
                    moves: !list.is_empty(),
                };
                for (removed, child) in list {
                    if child.mover_total() < 3 {
                        node.removal = best(node.removal, WON);
                        continue;
                    }
                    let (c, _) = sym.canonical(child.mover, child.opponent);
                    let kid = id[&key(c.0, c.1)];
                    if removed {
                        node.removal = best(node.removal, -outcomes[kid as usize * per]);
                    } else {
                        node.kids.push(kid);
                    }
                }
                node.kids.sort_unstable();
                node.kids.dedup();
                node
            })
            .collect();
        at_limit.extend(nodes.iter().map(|n| if n.moves { DRAWN } else { LOST }));
        outcomes.resize(at_limit.len() * per, DRAWN);
        // counter by counter from the limit down: a child of a non-removing
        // move at counter c + 1
        for c in (0..limit).rev() {
            let above = |kid: u32| {
                if c + 1 == limit {
                    at_limit[kid as usize]
                } else {
                    outcomes[kid as usize * per + c as usize + 1]
                }
            };
            let layer: Vec<Outcome> = nodes
                .par_iter()
                .map(|node| {
                    if !node.moves {
                        return LOST;
                    }
                    node.kids
                        .iter()
                        .fold(node.removal, |acc, &k| best(acc, -above(k)))
                        .expect("a move")
                })
                .collect();
            for (k, v) in layer.into_iter().enumerate() {
                outcomes[(first as usize + k) * per + c as usize] = v;
            }
        }
        members
            .par_iter()
            .enumerate()
            .for_each(|(k, &(m, o, images))| {
                let i = (first as usize + k) * per;
                check(&super::movement(m, o), images, &outcomes[i..i + per]);
            });
    }
    // placement: sectors with fewer stones in hand first (placements never
    // recur); per class the outcome at each counter
    let mut tables: HashMap<(u32, u32, u8, u8), SectorTable> = HashMap::new();
    for sector in Placement::sectors(n) {
        let (m, o, _, _) = sector;
        let members = classes(&sym, m, o);
        let table: Vec<Outcome> = members
            .par_iter()
            .flat_map_iter(|&(ms, os, images)| {
                let pos = sector_position(sector, ms, os);
                // each child's outcome at a counter: over, movement or placement
                let kids: Vec<(bool, ChildAt<'_>)> = Naive::successors(&pos, variant.flies())
                    .into_iter()
                    .map(|(removed, child)| {
                        let f: ChildAt<'_> = if child.mover_total() < 3 {
                            Box::new(|_| LOST)
                        } else {
                            let (cc, _) = sym.canonical(child.mover, child.opponent);
                            if child.mover_hand == 0 && child.opponent_hand == 0 {
                                let k = id[&key(cc.0, cc.1)] as usize;
                                let (outcomes, at_limit) = (&outcomes, &at_limit);
                                Box::new(move |c| {
                                    if c >= limit {
                                        at_limit[k]
                                    } else {
                                        outcomes[k * per + c as usize]
                                    }
                                })
                            } else {
                                let s = (
                                    child.mover.count_ones(),
                                    child.opponent.count_ones(),
                                    child.mover_hand,
                                    child.opponent_hand,
                                );
                                let (ids, t) = &tables[&s];
                                let k = ids[&key(cc.0, cc.1)] as usize;
                                // a placement leaves a move: a draw at the limit
                                Box::new(move |c| {
                                    if c >= limit {
                                        DRAWN
                                    } else {
                                        t[k * per + c as usize]
                                    }
                                })
                            }
                        };
                        (removed, f)
                    })
                    .collect();
                let row: Vec<Outcome> = (0..limit)
                    .map(|c| {
                        kids.iter()
                            .fold(None, |acc, (removed, f)| {
                                best(acc, -f(if *removed { 0 } else { c + 1 }))
                            })
                            .unwrap_or(LOST)
                    })
                    .collect();
                check(&pos, images, &row);
                row
            })
            .collect();
        let ids = members
            .iter()
            .enumerate()
            .map(|(k, &(ms, os, _))| (key(ms, os), k as u32))
            .collect();
        tables.insert(sector, (ids, table));
    }
}
