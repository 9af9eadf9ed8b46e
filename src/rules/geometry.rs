//! Board geometry: the tables the engine plays by ([`Geometry`]), made once
//! from any board, and the nine board's: the 24 points, their names,
//! adjacency, the 16 mills and the 16 board symmetries, as compile-time data.
//!
//! Points are numbered in the canonical order of docs/RULES.md (sorted by rank,
//! then file), which is also the bit order of a [`Bits`] set.

/// A set of points: bit `p` is point `p`. Only the low 24 bits are used.
pub type Bits = u32;

/// Number of points on the board.
pub const POINTS: usize = 24;

/// Mask of all 24 points.
pub const ALL: Bits = (1 << POINTS) - 1;

/// Point names in canonical order.
pub const POINT_NAMES: [&str; POINTS] = [
    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4", "e4", "f4", "g4", "c5",
    "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7",
];

/// Grid coordinates `(file, rank)`, both `0..7`, of each point.
pub const COORDS: [(i8, i8); POINTS] = {
    let mut c = [(0i8, 0i8); POINTS];
    let mut p = 0;
    while p < POINTS {
        let name = POINT_NAMES[p].as_bytes();
        c[p] = ((name[0] - b'a') as i8, (name[1] - b'1') as i8);
        p += 1;
    }
    c
};

/// The 16 mills as point triples, each listed in order along its line.
pub const MILLS: [[u8; 3]; 16] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [9, 10, 11],
    [12, 13, 14],
    [15, 16, 17],
    [18, 19, 20],
    [21, 22, 23],
    [0, 9, 21],
    [3, 10, 18],
    [6, 11, 15],
    [1, 4, 7],
    [16, 19, 22],
    [8, 12, 17],
    [5, 13, 20],
    [2, 14, 23],
];

/// The 16 mills as point sets.
pub const MILL_MASKS: [Bits; 16] = {
    let mut m = [0; 16];
    let mut i = 0;
    while i < 16 {
        m[i] = (1 << MILLS[i][0]) | (1 << MILLS[i][1]) | (1 << MILLS[i][2]);
        i += 1;
    }
    m
};

/// For each point, the two mills through it.
pub const MILLS_THROUGH: [[Bits; 2]; POINTS] = {
    let mut t = [[0; 2]; POINTS];
    let mut n = [0usize; POINTS];
    let mut i = 0;
    while i < 16 {
        let mut j = 0;
        while j < 3 {
            let p = MILLS[i][j] as usize;
            t[p][n[p]] = MILL_MASKS[i];
            n[p] += 1;
            j += 1;
        }
        i += 1;
    }
    t
};

/// For each point, the set of points adjacent to it (neighbours on a mill line).
pub const NEIGHBOURS: [Bits; POINTS] = {
    let mut a = [0; POINTS];
    let mut i = 0;
    while i < 16 {
        let [p, q, r] = MILLS[i];
        a[p as usize] |= 1 << q;
        a[q as usize] |= (1 << p) | (1 << r);
        a[r as usize] |= 1 << q;
        i += 1;
    }
    a
};

/// Number of board symmetries.
pub const SYMMETRY_COUNT: usize = 16;

/// The point of the grid coordinate `(x, y)`, if there is one.
const fn point_at(x: i8, y: i8) -> Option<usize> {
    let mut p = 0;
    while p < POINTS {
        if COORDS[p].0 == x && COORDS[p].1 == y {
            return Some(p);
        }
        p += 1;
    }
    None
}

/// Symmetry `s` as a point permutation: `s % 8` is one of the 8 symmetries of the
/// square, and `s >= 8` additionally swaps the inner and outer squares.
const fn symmetry_image(s: usize, p: usize) -> usize {
    let (dx, dy) = (COORDS[p].0 - 3, COORDS[p].1 - 3);
    let (mut x, mut y) = match s % 8 {
        0 => (dx, dy),
        1 => (-dy, dx),
        2 => (-dx, -dy),
        3 => (dy, -dx),
        4 => (-dx, dy),
        5 => (dy, dx),
        6 => (dx, -dy),
        _ => (-dy, -dx),
    };
    if s >= 8 {
        let ring = if x.abs() > y.abs() { x.abs() } else { y.abs() };
        x = x.signum() * (4 - ring);
        y = y.signum() * (4 - ring);
    }
    match point_at(x + 3, y + 3) {
        Some(q) => q,
        None => panic!("symmetry maps a point off the board"),
    }
}

/// The 16 symmetries as permutations: `SYMMETRIES[s][p]` is the image of point `p`.
/// Symmetry 0 is the identity.
pub const SYMMETRIES: [[u8; POINTS]; SYMMETRY_COUNT] = {
    let mut t = [[0u8; POINTS]; SYMMETRY_COUNT];
    let mut s = 0;
    while s < SYMMETRY_COUNT {
        let mut p = 0;
        while p < POINTS {
            t[s][p] = symmetry_image(s, p) as u8;
            p += 1;
        }
        s += 1;
    }
    t
};

/// `SYMMETRY_BYTES[s][k][v]`: image under symmetry `s` of the set whose byte `k` is `v`
/// (other bytes zero). Three lookups map a whole set.
static SYMMETRY_BYTES: [[[Bits; 256]; 3]; SYMMETRY_COUNT] = {
    let mut t = [[[0; 256]; 3]; SYMMETRY_COUNT];
    let mut s = 0;
    while s < SYMMETRY_COUNT {
        let mut k = 0;
        while k < 3 {
            let mut v = 0;
            while v < 256 {
                let mut img = 0;
                let mut j = 0;
                while j < 8 {
                    if v & (1 << j) != 0 {
                        img |= 1 << SYMMETRIES[s][8 * k + j];
                    }
                    j += 1;
                }
                t[s][k][v] = img;
                v += 1;
            }
            k += 1;
        }
        s += 1;
    }
    t
};

/// The image of the point set `set` under symmetry `s` (`s < 16`).
#[inline(always)]
pub fn transform(s: usize, set: Bits) -> Bits {
    let t = &SYMMETRY_BYTES[s];
    t[0][(set & 0xff) as usize]
        | t[1][((set >> 8) & 0xff) as usize]
        | t[2][(set >> 16) as usize & 0xff]
}

/// `INVERSE[s]` is the symmetry that undoes symmetry `s`.
pub const INVERSE: [usize; SYMMETRY_COUNT] = {
    let mut inv = [0; SYMMETRY_COUNT];
    let mut s = 0;
    while s < SYMMETRY_COUNT {
        let mut t = 0;
        while t < SYMMETRY_COUNT {
            let mut ok = true;
            let mut p = 0;
            while p < POINTS {
                if SYMMETRIES[t][SYMMETRIES[s][p] as usize] as usize != p {
                    ok = false;
                }
                p += 1;
            }
            if ok {
                inv[s] = t;
            }
            t += 1;
        }
        s += 1;
    }
    inv
};

/// The point named `name` (`"a1"` .. `"g7"`), if it is one.
pub fn point_by_name(name: &str) -> Option<u8> {
    POINT_NAMES.iter().position(|&n| n == name).map(|p| p as u8)
}

/// The points of `set` that stand in a complete mill of `set`.
#[inline]
pub fn stones_in_mills(set: Bits) -> Bits {
    MILL_MASKS
        .iter()
        .filter(|&&m| set & m == m)
        .fold(0, |acc, &m| acc | m)
}

/// Whether the stone on `point` is part of a complete mill of `set`.
#[inline(always)]
pub fn in_mill(set: Bits, point: usize) -> bool {
    let [a, b] = MILLS_THROUGH[point];
    set & a == a || set & b == b
}

/// Iterator over the points of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct PointIter(pub Bits);

impl Iterator for PointIter {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let p = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(p)
        }
    }
}

/// The points of `set`, lowest first.
#[inline(always)]
pub fn points(set: Bits) -> PointIter {
    PointIter(set)
}

/// The most points the engine plays on (a point set's low 24 bits).
pub const MAX_ENGINE_POINTS: usize = POINTS;

/// The most symmetries the engine folds by (a symmetry is 4 bits of an
/// index table's entry).
pub const MAX_SYMMETRIES: usize = SYMMETRY_COUNT;

/// What move generation and the solver read of a board, for each position:
/// [`Nine`] reads the nine board's compile-time tables, so that nine's hot
/// paths compile to constants; `&Geometry` reads any board's.
pub trait Lines: Copy {
    /// Every point, as a set.
    fn all(self) -> Bits;
    /// The points adjacent to `p`.
    fn neighbours(self, p: usize) -> Bits;
    /// Whether the stone on `point` is part of a complete mill of `set`.
    fn in_mill(self, set: Bits, point: usize) -> bool;
    /// The points of `set` that stand in a complete mill of `set`.
    fn stones_in_mills(self, set: Bits) -> Bits;
}

/// The nine board, from this module's constants.
#[derive(Clone, Copy, Debug)]
pub struct Nine;

impl Lines for Nine {
    #[inline(always)]
    fn all(self) -> Bits {
        ALL
    }
    #[inline(always)]
    fn neighbours(self, p: usize) -> Bits {
        NEIGHBOURS[p]
    }
    #[inline(always)]
    fn in_mill(self, set: Bits, point: usize) -> bool {
        in_mill(set, point)
    }
    #[inline(always)]
    fn stones_in_mills(self, set: Bits) -> Bits {
        stones_in_mills(set)
    }
}

impl Lines for &Geometry {
    #[inline(always)]
    fn all(self) -> Bits {
        Geometry::all(self)
    }
    #[inline(always)]
    fn neighbours(self, p: usize) -> Bits {
        Geometry::neighbours(self, p)
    }
    #[inline(always)]
    fn in_mill(self, set: Bits, point: usize) -> bool {
        Geometry::in_mill(self, set, point)
    }
    #[inline(always)]
    fn stones_in_mills(self, set: Bits) -> Bits {
        Geometry::stones_in_mills(self, set)
    }
}

/// A mill no set holds (a point beyond the board): pads
/// [`Geometry::in_mill`]'s table.
const NO_MILL: Bits = 1 << 31;

/// The tables of one board, made once and read by the engine (move
/// generation, unmoves, the indexer, the solver): points and names,
/// adjacency, mills, and the symmetries with the byte tables that map a
/// point set in three lookups. [`Geometry::nine`] is the nine board's, from
/// this module's constants; [`Geometry::new`] makes any other.
pub struct Geometry {
    names: Vec<String>,
    all: Bits,
    neighbours: [Bits; MAX_ENGINE_POINTS],
    mills: Vec<Bits>,
    /// The mills through point `p` are `through[start[p]..start[p + 1]]`.
    through_start: [u16; MAX_ENGINE_POINTS + 1],
    through: Vec<Bits>,
    /// The first two mills through each point, [`NO_MILL`] where there are
    /// fewer: [`Geometry::in_mill`] reads these two, and the list only on
    /// a board where some point has more (`more_than_two`).
    first_two: [[Bits; 2]; MAX_ENGINE_POINTS],
    more_than_two: bool,
    symmetries: Vec<[u8; MAX_ENGINE_POINTS]>,
    /// Per symmetry, the images of the sets of each byte of a point set
    /// (those past the symmetries' count unused): a fixed array, so that
    /// [`Geometry::transform`] costs what nine's constant table does.
    bytes: Box<[[[Bits; 256]; 3]; MAX_SYMMETRIES]>,
    inverse: [usize; MAX_SYMMETRIES],
}

impl std::fmt::Debug for Geometry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Geometry({} points)", self.names.len())
    }
}

impl Geometry {
    /// The tables of a board of `names.len()` points (at most
    /// [`MAX_ENGINE_POINTS`]) with the given neighbour sets, mills (point
    /// sets) and symmetries (the identity first; at most [`MAX_SYMMETRIES`],
    /// each the image of every point). Errors name what the engine cannot
    /// play.
    pub fn new(
        names: Vec<String>,
        neighbours: &[Bits],
        mills: &[Bits],
        symmetries: &[Vec<u8>],
    ) -> Result<Geometry, String> {
        let n = names.len();
        if n > MAX_ENGINE_POINTS {
            return Err(format!(
                "a board of {n} points: the engine plays on at most {MAX_ENGINE_POINTS}"
            ));
        }
        if symmetries.is_empty() || symmetries.len() > MAX_SYMMETRIES {
            return Err(format!(
                "a board with {} symmetries: the engine folds by at most {MAX_SYMMETRIES}",
                symmetries.len()
            ));
        }
        let mut nb = [0; MAX_ENGINE_POINTS];
        nb[..n].copy_from_slice(&neighbours[..n]);
        let mut through_start = [0u16; MAX_ENGINE_POINTS + 1];
        let mut through = vec![];
        for p in 0..MAX_ENGINE_POINTS {
            through_start[p] = through.len() as u16;
            through.extend(mills.iter().filter(|&&m| p < n && m & 1 << p != 0));
        }
        through_start[MAX_ENGINE_POINTS] = through.len() as u16;
        let mut first_two = [[NO_MILL; 2]; MAX_ENGINE_POINTS];
        for (p, two) in first_two.iter_mut().enumerate() {
            let list = &through[through_start[p] as usize..through_start[p + 1] as usize];
            for (slot, &m) in two.iter_mut().zip(list) {
                *slot = m;
            }
        }
        let more_than_two = (0..n).any(|p| through_start[p + 1] - through_start[p] > 2);
        let perms: Vec<[u8; MAX_ENGINE_POINTS]> = (symmetries.iter())
            .map(|s| core::array::from_fn(|p| if p < n { s[p] } else { p as u8 }))
            .collect();
        let mut bytes = Box::new([[[0; 256]; 3]; MAX_SYMMETRIES]);
        let mut inverse = [0; MAX_SYMMETRIES];
        for (s, perm) in perms.iter().enumerate() {
            for (k, table) in bytes[s].iter_mut().enumerate() {
                for (v, img) in table.iter_mut().enumerate() {
                    *img = points(v as Bits).fold(0, |img, j| img | 1 << perm[8 * k + j]);
                }
            }
            inverse[s] = (perms.iter())
                .position(|t| (0..n).all(|p| t[perm[p] as usize] as usize == p))
                .expect("the symmetries form a group");
        }
        Ok(Geometry {
            all: (1 << n) - 1,
            names,
            neighbours: nb,
            mills: mills.to_vec(),
            through_start,
            through,
            first_two,
            more_than_two,
            symmetries: perms,
            bytes,
            inverse,
        })
    }

    /// The nine board's tables (made once).
    pub fn nine() -> &'static Geometry {
        static NINE: std::sync::OnceLock<Geometry> = std::sync::OnceLock::new();
        NINE.get_or_init(|| {
            let symmetries: Vec<Vec<u8>> = SYMMETRIES.iter().map(|s| s.to_vec()).collect();
            let names = POINT_NAMES.iter().map(|n| n.to_string()).collect();
            Geometry::new(names, &NEIGHBOURS, &MILL_MASKS, &symmetries)
                .expect("the nine board fits the engine")
        })
    }

    /// Number of points.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the board has no points (never: a board has at least 3).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Every point, as a set.
    #[inline(always)]
    pub fn all(&self) -> Bits {
        self.all
    }

    /// The name of point `p`.
    pub fn name(&self, p: usize) -> &str {
        &self.names[p]
    }

    /// Every point's name, in canonical order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The point called `name`.
    pub fn point(&self, name: &str) -> Option<u8> {
        self.names.iter().position(|n| n == name).map(|p| p as u8)
    }

    /// The points adjacent to `p`.
    #[inline(always)]
    pub fn neighbours(&self, p: usize) -> Bits {
        self.neighbours[p]
    }

    /// Every mill, as a point set.
    pub fn mills(&self) -> &[Bits] {
        &self.mills
    }

    /// The mills through point `p`.
    #[inline(always)]
    pub fn mills_through(&self, p: usize) -> &[Bits] {
        &self.through[self.through_start[p] as usize..self.through_start[p + 1] as usize]
    }

    /// Whether the stone on `point` is part of a complete mill of `set`.
    #[inline(always)]
    pub fn in_mill(&self, set: Bits, point: usize) -> bool {
        let [a, b] = self.first_two[point];
        set & a == a
            || set & b == b
            || self.more_than_two
                && self.mills_through(point)[2..]
                    .iter()
                    .any(|&m| m & !set == 0)
    }

    /// The points of `set` that stand in a complete mill of `set`.
    #[inline]
    pub fn stones_in_mills(&self, set: Bits) -> Bits {
        (self.mills.iter())
            .filter(|&&m| set & m == m)
            .fold(0, |acc, &m| acc | m)
    }

    /// Number of symmetries (the identity is symmetry 0).
    #[inline(always)]
    pub fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }

    /// Symmetry `s` as the image of every point.
    pub fn symmetry(&self, s: usize) -> &[u8] {
        &self.symmetries[s][..self.len()]
    }

    /// The symmetry that undoes symmetry `s`.
    #[inline(always)]
    pub fn inverse(&self, s: usize) -> usize {
        self.inverse[s]
    }

    /// The image of the point set `set` under symmetry `s`.
    #[inline(always)]
    pub fn transform(&self, s: usize, set: Bits) -> Bits {
        let t = &self.bytes[s];
        t[0][(set & 0xff) as usize]
            | t[1][((set >> 8) & 0xff) as usize]
            | t[2][(set >> 16) as usize & 0xff]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nines_geometry_is_its_constants() {
        let g = Geometry::nine();
        assert_eq!((g.len(), g.all(), g.symmetry_count()), (POINTS, ALL, 16));
        let mut x: u64 = 0x2545f4914f6cdd1d;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = (x as Bits) & ALL;
            assert_eq!(g.stones_in_mills(set), stones_in_mills(set));
            for p in 0..POINTS {
                assert_eq!(g.in_mill(set, p), in_mill(set, p));
                assert_eq!(g.neighbours(p), NEIGHBOURS[p]);
            }
            for s in 0..16 {
                assert_eq!(g.transform(s, set), transform(s, set));
                assert_eq!(g.inverse(s), INVERSE[s]);
            }
        }
    }

    fn mill_set() -> Vec<Bits> {
        let mut v = MILL_MASKS.to_vec();
        v.sort();
        v
    }

    fn adjacency_pairs() -> Vec<(usize, usize)> {
        let mut v = vec![];
        for p in 0..POINTS {
            for q in points(NEIGHBOURS[p]) {
                v.push((p, q));
            }
        }
        v
    }

    fn permute(perm: &[u8; POINTS], set: Bits) -> Bits {
        points(set).fold(0, |acc, p| acc | 1 << perm[p])
    }

    #[test]
    fn mills_match_rules_by_name() {
        let text = "a1 d1 g1,b2 d2 f2,c3 d3 e3,a4 b4 c4,e4 f4 g4,c5 d5 e5,b6 d6 f6,a7 d7 g7,\
                    a1 a4 a7,b2 b4 b6,c3 c4 c5,d1 d2 d3,d5 d6 d7,e3 e4 e5,f2 f4 f6,g1 g4 g7";
        let mut from_names: Vec<Bits> = text
            .split(',')
            .map(|m| {
                m.split(' ')
                    .map(|n| 1 << point_by_name(n).unwrap())
                    .fold(0, |a, b| a | b)
            })
            .collect();
        from_names.sort();
        assert_eq!(from_names, mill_set());
    }

    #[test]
    fn adjacency_is_the_32_pairs_of_the_rules() {
        // docs/RULES.md: neighbours on a mill line, written out by hand from the board
        let text = "a1 d1,d1 g1,b2 d2,d2 f2,c3 d3,d3 e3,a4 b4,b4 c4,e4 f4,f4 g4,c5 d5,d5 e5,\
                    b6 d6,d6 f6,a7 d7,d7 g7,a1 a4,a4 a7,b2 b4,b4 b6,c3 c4,c4 c5,d1 d2,d2 d3,\
                    d5 d6,d6 d7,e3 e4,e4 e5,f2 f4,f4 f6,g1 g4,g4 g7";
        let mut want: Vec<(usize, usize)> = text
            .split(',')
            .flat_map(|pair| {
                let (a, b) = pair.split_once(' ').unwrap();
                let name = |n| point_by_name(n).unwrap() as usize;
                let (a, b) = (name(a), name(b));
                [(a, b), (b, a)]
            })
            .collect();
        want.sort();
        assert_eq!(want.len(), 64);
        let mut got = adjacency_pairs();
        got.sort();
        assert_eq!(got, want);
        // and each mill is written first, middle, last: the middle point is the
        // neighbour of both ends
        for m in MILLS {
            let [a, b, c] = m.map(|p| p as usize);
            assert!(
                NEIGHBOURS[b] & (1 << a) != 0 && NEIGHBOURS[b] & (1 << c) != 0,
                "{m:?}"
            );
            assert!(NEIGHBOURS[a] & (1 << c) == 0, "{m:?}");
        }
    }

    #[test]
    fn canonical_order_is_rank_then_file() {
        for p in 1..POINTS {
            let (a, b) = (COORDS[p - 1], COORDS[p]);
            assert!((a.1, a.0) < (b.1, b.0));
        }
    }

    #[test]
    fn adjacency_has_32_edges_and_is_symmetric() {
        let pairs = adjacency_pairs();
        assert_eq!(pairs.len(), 64);
        for (p, q) in pairs {
            assert!(NEIGHBOURS[q] & (1 << p) != 0);
            // adjacent points share a file or a rank
            assert!(COORDS[p].0 == COORDS[q].0 || COORDS[p].1 == COORDS[q].1);
        }
        for p in 0..POINTS {
            // the two mills through p are exactly the mills that contain p
            let mut through: Vec<Bits> = MILLS_THROUGH[p].to_vec();
            through.sort();
            let mut containing: Vec<Bits> = MILL_MASKS
                .iter()
                .copied()
                .filter(|m| m & (1 << p) != 0)
                .collect();
            containing.sort();
            assert_eq!(through, containing, "mills through {}", POINT_NAMES[p]);
        }
    }

    #[test]
    fn symmetries_preserve_mills_and_adjacency() {
        for s in 0..SYMMETRY_COUNT {
            let perm = &SYMMETRIES[s];
            let mut images: Vec<Bits> = MILL_MASKS.iter().map(|&m| permute(perm, m)).collect();
            images.sort();
            assert_eq!(images, mill_set(), "symmetry {s} breaks mills");
            for (p, q) in adjacency_pairs() {
                assert!(NEIGHBOURS[perm[p] as usize] & (1 << perm[q]) != 0);
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_and_form_a_group() {
        let all: Vec<[u8; POINTS]> = SYMMETRIES.to_vec();
        for i in 0..16 {
            for j in 0..i {
                assert_ne!(all[i], all[j]);
            }
        }
        assert_eq!(all[0], core::array::from_fn(|p| p as u8));
        for a in &all {
            for b in &all {
                let comp: [u8; POINTS] = core::array::from_fn(|p| a[b[p] as usize]);
                assert!(all.contains(&comp), "not closed under composition");
            }
        }
        for s in 0..16 {
            for p in 0..POINTS {
                assert_eq!(
                    SYMMETRIES[INVERSE[s]][SYMMETRIES[s][p] as usize] as usize,
                    p
                );
            }
        }
    }

    #[test]
    fn transform_matches_permutation() {
        let mut x: u64 = 0x9e3779b97f4a7c15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = (x as Bits) & ALL;
            for s in 0..16 {
                assert_eq!(transform(s, set), permute(&SYMMETRIES[s], set));
            }
        }
    }

    /// Counts by backtracking every permutation of the 24 points that maps
    /// adjacency to adjacency and mills to mills.
    #[test]
    fn exactly_sixteen_automorphisms() {
        fn extend(img: &mut Vec<usize>, used: Bits, count: &mut usize) {
            let p = img.len();
            if p == POINTS {
                let perm: [u8; POINTS] = core::array::from_fn(|i| img[i] as u8);
                let mut images: Vec<Bits> = MILL_MASKS.iter().map(|&m| permute(&perm, m)).collect();
                images.sort();
                let mut mills = MILL_MASKS.to_vec();
                mills.sort();
                if images == mills {
                    *count += 1;
                }
                return;
            }
            for q in 0..POINTS {
                if used & (1 << q) != 0 {
                    continue;
                }
                let ok = (0..p).all(|r| {
                    let adj_before = NEIGHBOURS[p] & (1 << r) != 0;
                    let adj_after = NEIGHBOURS[q] & (1 << img[r]) != 0;
                    adj_before == adj_after
                });
                if ok {
                    img.push(q);
                    extend(img, used | (1 << q), count);
                    img.pop();
                }
            }
        }
        let mut count = 0;
        extend(&mut Vec::new(), 0, &mut count);
        assert_eq!(count, 16);
    }

    #[test]
    fn in_mill_agrees_with_stones_in_mills() {
        let set: Bits = MILL_MASKS[0] | MILL_MASKS[8] | (1 << 10);
        let in_m = stones_in_mills(set);
        for p in points(set) {
            assert_eq!(in_mill(set, p), in_m & (1 << p) != 0);
        }
        assert_eq!(in_m, MILL_MASKS[0] | MILL_MASKS[8]);
    }
}
