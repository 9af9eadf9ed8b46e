//! The combinatorics of point sets: binomial coefficients, colex ranks of
//! sets of one size, and the squeezing of a set into the points another
//! leaves free.

use crate::rules::geometry::{ALL, Bits, POINTS, points};
use crate::rules::variant::STONES_PER_SIDE;

/// Binomial coefficients `BINOM[n][k]` for `n, k <= 24`.
pub const BINOM: [[u32; POINTS + 1]; POINTS + 1] = {
    let mut t = [[0u32; POINTS + 1]; POINTS + 1];
    let mut n = 0;
    while n <= POINTS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Colex rank of `set` among the sets of the same size (equal to its rank in
/// numeric order).
#[inline(always)]
pub fn colex_rank(set: Bits) -> u32 {
    if set.count_ones() <= STONES_PER_SIDE as u32 {
        return colex_rank_by_bytes(set);
    }
    colex_rank_by_points(set)
}

/// [`colex_rank`] of a set of at most [`STONES_PER_SIDE`] points: three
/// reads of [`COLEX_BYTES`].
#[inline(always)]
pub(super) fn colex_rank_by_bytes(set: Bits) -> u32 {
    let (low, mid, high) = (set & 0xff, (set >> 8) & 0xff, (set >> 16) & 0xff);
    COLEX_BYTES[0][low as usize][0]
        + COLEX_BYTES[1][mid as usize][low.count_ones() as usize]
        + COLEX_BYTES[2][high as usize][(set & 0xffff).count_ones() as usize]
}

/// [`colex_rank`] point by point.
#[inline(always)]
fn colex_rank_by_points(set: Bits) -> u32 {
    let mut r = 0;
    for (i, p) in points(set).enumerate() {
        r += BINOM[p][i + 1];
    }
    r
}

/// The `k`-element set of colex rank `r`.
pub fn colex_unrank(r: u32, k: usize) -> Bits {
    colex_unrank_below(r, k, POINTS)
}

/// [`colex_unrank`] of a rank below `C(n, k)`: the set's points are below
/// `n`, so the search for each starts there.
#[inline]
pub(super) fn colex_unrank_below(mut r: u32, k: usize, n: usize) -> Bits {
    let mut set = 0;
    let mut p = n;
    for i in (1..=k).rev() {
        p -= 1;
        while BINOM[p][i] > r {
            p -= 1;
        }
        r -= BINOM[p][i];
        set |= 1 << p;
    }
    set
}

/// The next larger set with the same number of elements (Gosper's hack;
/// the division by the lowest point's bit is a shift).
#[inline(always)]
pub fn next_same_size(set: Bits) -> Bits {
    let c = set & set.wrapping_neg();
    let r = set + c;
    ((r ^ set) >> (2 + c.trailing_zeros())) | r
}

/// Colex rank of `set` with the points of `taken` squeezed out.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
pub(super) fn squeeze_rank(set: Bits, taken: Bits) -> u32 {
    // SAFETY: the bmi2 target feature is enabled at compile time (cfg above).
    colex_rank(unsafe { core::arch::x86_64::_pext_u32(set, ALL & !taken) })
}

/// Colex rank of `set` with the points of `taken` squeezed out.
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
pub(super) fn squeeze_rank(set: Bits, taken: Bits) -> u32 {
    squeeze_rank_portable(set, taken)
}

/// [`squeeze_rank`] point by point.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "bmi2"))))]
#[inline(always)]
fn squeeze_rank_portable(set: Bits, taken: Bits) -> u32 {
    let mut r = 0;
    for (i, p) in points(set).enumerate() {
        let below = taken & ((1 << p) - 1);
        r += BINOM[p - below.count_ones() as usize][i + 1];
    }
    r
}

/// `COLEX_BYTES[k][byte][j]`: the colex terms of the points `byte` holds at
/// points `8k..8k + 8` of a set that has `j` points below them.
static COLEX_BYTES: [[[u32; STONES_PER_SIDE as usize + 1]; 256]; 3] = {
    let mut t = [[[0u32; STONES_PER_SIDE as usize + 1]; 256]; 3];
    let mut k = 0;
    while k < 3 {
        let mut byte = 0;
        while byte < 256 {
            let mut j = 0;
            while j <= STONES_PER_SIDE as usize {
                let (mut sum, mut i, mut b) = (0, j, 0);
                while b < 8 {
                    if byte & (1 << b) != 0 {
                        i += 1;
                        sum += BINOM[8 * k + b][i];
                    }
                    b += 1;
                }
                t[k][byte][j] = sum;
                j += 1;
            }
            byte += 1;
        }
        k += 1;
    }
    t
};

/// Spreads the bits of `squeezed` over the points not in `taken` (the inverse of
/// squeezing).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
pub fn unsqueeze(squeezed: Bits, taken: Bits) -> Bits {
    // SAFETY: the bmi2 target feature is enabled at compile time (cfg above).
    unsafe { core::arch::x86_64::_pdep_u32(squeezed, ALL & !taken) }
}

/// Spreads the bits of `squeezed` over the points not in `taken` (the inverse of
/// squeezing).
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
pub fn unsqueeze(squeezed: Bits, taken: Bits) -> Bits {
    unsqueeze_portable(squeezed, taken)
}

/// [`unsqueeze`] without BMI2.
#[inline(always)]
pub fn unsqueeze_portable(squeezed: Bits, taken: Bits) -> Bits {
    let mut free = ALL & !taken;
    let mut out = 0;
    let mut s = squeezed;
    let mut j = 0;
    while s != 0 {
        let want = s.trailing_zeros();
        while j < want {
            free &= free - 1;
            j += 1;
        }
        out |= free & free.wrapping_neg();
        s &= s - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_round_trip() {
        for k in 0..=9 {
            let mut set: Bits = (1 << k) - 1;
            for r in 0..BINOM[24][k].min(5000) {
                assert_eq!(colex_rank(set), r);
                assert_eq!(colex_unrank(r, k), set);
                if k > 0 {
                    set = next_same_size(set);
                }
            }
        }
    }

    #[test]
    fn squeeze_round_trip() {
        let taken: Bits = 0b1010_0110_0000_0001_0010_0001;
        let free = 24 - taken.count_ones() as usize;
        for r in 0..BINOM[free][4] {
            let sq = colex_unrank(r, 4);
            let spread = unsqueeze(sq, taken);
            assert_eq!(spread & taken, 0);
            assert_eq!(spread.count_ones(), 4);
            assert_eq!(squeeze_rank(spread, taken), r);
            assert_eq!(unsqueeze_portable(sq, taken), spread);
        }
    }

    #[test]
    fn ranks_by_table_agree_with_point_by_point() {
        // random sets of up to 9 points beside a few taken sets, against the
        // plain colex sum over the free points
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for taken in [0, 0b111, 0x00f0_0f01, 0x0a_a55a, 0x00_ffff, 0xff_0000] {
            let free_mask = ALL & !taken;
            let free: Vec<usize> = points(free_mask).collect();
            for _ in 0..100_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // a size of 0..=9, reached by dropping the lowest or the
                // highest points
                let size = ((x >> 40) % (STONES_PER_SIDE as u64 + 1)) as u32;
                let mut spread = (x as Bits) & free_mask;
                while spread.count_ones() > size {
                    if x >> 50 & 1 == 0 {
                        spread &= spread - 1;
                    } else {
                        spread &= !(1 << (31 - spread.leading_zeros()));
                    }
                }
                let plain: u32 = points(spread)
                    .enumerate()
                    .map(|(i, p)| BINOM[free.iter().position(|&f| f == p).unwrap()][i + 1])
                    .sum();
                assert_eq!(squeeze_rank(spread, taken), plain, "{spread:x} {taken:x}");
                assert_eq!(squeeze_rank_portable(spread, taken), plain);
                if taken == 0 {
                    assert_eq!(colex_rank(spread), plain);
                    assert_eq!(colex_rank_by_points(spread), plain);
                }
            }
        }
    }
}
