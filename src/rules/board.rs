//! A board given as data: its points (names and grid coordinates), the
//! adjacencies a stone moves along, and the mills (lines of three), checked
//! when built; and its symmetries, found by search rather than listed.
//!
//! Points are in canonical order: sorted by rank, then file (`a1 d1 g1 b2 …`
//! for the nine board), as docs/RULES.md numbers them; bit `p` of a point set
//! is point `p`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Most points a board may have: a point set is 32 bits.
pub const MAX_POINTS: usize = 32;

/// A point: its name (a file letter, then a rank number: `a1`, `c10`) and
/// its coordinates `(file, rank)` from 0, read from the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    /// The name, as positions and moves write it.
    pub name: String,
    /// File, from 0 (`a`).
    pub file: u8,
    /// Rank, from 0 (rank `1`).
    pub rank: u8,
}

/// A board: points in canonical order, adjacencies and mills, each pair and
/// triple of point numbers sorted, each list sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    points: Vec<Point>,
    edges: Vec<[u8; 2]>,
    mills: Vec<[u8; 3]>,
}

/// A board as a description writes it: point names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// Every point's name, in any order.
    pub points: Vec<String>,
    /// The adjacencies, as pairs of names.
    pub edges: Vec<[String; 2]>,
    /// The mills, as triples of names.
    pub mills: Vec<[String; 3]>,
}

/// What is wrong with a board description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError(pub String);

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board: {}", self.0)
    }
}

impl std::error::Error for BoardError {}

/// The file and rank of a point name (`a1` → (0, 0), `c10` → (2, 9)).
fn parse_point(name: &str) -> Result<(u8, u8), BoardError> {
    let bad = || {
        BoardError(format!(
            "{name:?} is not a point name: a file letter a to z, then a rank 1 to 99"
        ))
    };
    let mut chars = name.chars();
    let file = chars
        .next()
        .filter(char::is_ascii_lowercase)
        .ok_or_else(bad)?;
    let rank: u8 = chars.as_str().parse().map_err(|_| bad())?;
    if !(1..=99).contains(&rank) || chars.as_str().starts_with('0') {
        return Err(bad());
    }
    Ok((file as u8 - b'a', rank - 1))
}

impl Board {
    /// The board `spec` describes, checked: at least 3 and at most
    /// [`MAX_POINTS`] points with distinct names; each adjacency joins two
    /// distinct points, each mill three, none given twice; every point can
    /// be moved to or from (it has an adjacency).
    pub fn new(spec: &BoardSpec) -> Result<Board, BoardError> {
        let mut points = (spec.points.iter())
            .map(|n| {
                let (file, rank) = parse_point(n)?;
                Ok(Point {
                    name: n.clone(),
                    file,
                    rank,
                })
            })
            .collect::<Result<Vec<_>, BoardError>>()?;
        if points.len() < 3 || points.len() > MAX_POINTS {
            return Err(BoardError(format!(
                "{} points: a board has 3 to {MAX_POINTS}",
                points.len()
            )));
        }
        points.sort_by_key(|p| (p.rank, p.file));
        if let Some(w) = points.windows(2).find(|w| w[0].name == w[1].name) {
            return Err(BoardError(format!("point {} given twice", w[0].name)));
        }
        let number = |name: &String| -> Result<u8, BoardError> {
            (points.iter().position(|p| &p.name == name))
                .map(|i| i as u8)
                .ok_or_else(|| BoardError(format!("{name} is not one of the board's points")))
        };
        let mut edges = Vec::with_capacity(spec.edges.len());
        for [a, b] in &spec.edges {
            let mut e = [number(a)?, number(b)?];
            if e[0] == e[1] {
                return Err(BoardError(format!(
                    "the adjacency {a}-{b} joins a point to itself"
                )));
            }
            e.sort_unstable();
            edges.push(e);
        }
        edges.sort_unstable();
        if let Some(w) = edges.windows(2).find(|w| w[0] == w[1]) {
            let [a, b] = w[0];
            return Err(BoardError(format!(
                "the adjacency {}-{} given twice",
                points[a as usize].name, points[b as usize].name
            )));
        }
        let mut mills = Vec::with_capacity(spec.mills.len());
        for [a, b, c] in &spec.mills {
            let mut m = [number(a)?, number(b)?, number(c)?];
            m.sort_unstable();
            if m[0] == m[1] || m[1] == m[2] {
                return Err(BoardError(format!("the mill {a} {b} {c} repeats a point")));
            }
            mills.push(m);
        }
        mills.sort_unstable();
        if let Some(w) = mills.windows(2).find(|w| w[0] == w[1]) {
            let names: Vec<&str> = w[0]
                .iter()
                .map(|&p| points[p as usize].name.as_str())
                .collect();
            return Err(BoardError(format!(
                "the mill {} given twice",
                names.join(" ")
            )));
        }
        let board = Board {
            points,
            edges,
            mills,
        };
        if let Some(p) = (0..board.len()).find(|&p| board.neighbours(p) == 0) {
            return Err(BoardError(format!(
                "point {} has no adjacency: a stone there could never move",
                board.points[p].name
            )));
        }
        Ok(board)
    }

    /// The description of this board (names in canonical order).
    pub fn spec(&self) -> BoardSpec {
        let name = |p: u8| self.points[p as usize].name.clone();
        BoardSpec {
            points: self.points.iter().map(|p| p.name.clone()).collect(),
            edges: self.edges.iter().map(|e| e.map(name)).collect(),
            mills: self.mills.iter().map(|m| m.map(name)).collect(),
        }
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Always false: a board has at least 3 points.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The points, in canonical order.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The adjacencies, each pair sorted, sorted.
    pub fn edges(&self) -> &[[u8; 2]] {
        &self.edges
    }

    /// The mills, each triple sorted, sorted.
    pub fn mills(&self) -> &[[u8; 3]] {
        &self.mills
    }

    /// The number of the point called `name`.
    pub fn point(&self, name: &str) -> Option<usize> {
        self.points.iter().position(|p| p.name == name)
    }

    /// The points adjacent to `p`, as a set.
    pub fn neighbours(&self, p: usize) -> u32 {
        (self.edges.iter()).fold(0, |set, &[a, b]| match p {
            _ if a as usize == p => set | 1 << b,
            _ if b as usize == p => set | 1 << a,
            _ => set,
        })
    }

    /// The mills as point sets.
    pub fn mill_masks(&self) -> Vec<u32> {
        (self.mills.iter())
            .map(|m| m.iter().fold(0, |s, &p| s | 1 << p))
            .collect()
    }

    /// The board drawn in text: each point as `mark(p)` on a grid of 4
    /// columns a file and 2 lines a rank, the adjacencies as `-`, `|`, `/`
    /// and `\`, the ranks at the left and the files below (as `show` draws
    /// the nine board).
    pub fn draw(&self, mark: impl Fn(usize) -> char) -> String {
        let files = self.points.iter().map(|p| p.file).max().unwrap_or(0) as usize + 1;
        let ranks = self.points.iter().map(|p| p.rank).max().unwrap_or(0) as usize + 1;
        let (width, height) = (4 * (files - 1) + 1, 2 * (ranks - 1) + 1);
        let mut grid = vec![vec![' '; width]; height];
        let at = |p: &Point| (4 * p.file as i32, 2 * (ranks as i32 - 1 - p.rank as i32));
        for &[a, b] in &self.edges {
            let ((x0, y0), (x1, y1)) = (at(&self.points[a as usize]), at(&self.points[b as usize]));
            let steps = (x1 - x0).abs().max((y1 - y0).abs());
            let line = match (x1 - x0).signum() * (y1 - y0).signum() {
                _ if y0 == y1 => '-',
                _ if x0 == x1 => '|',
                // the grid's rows run down the ranks
                -1 => '/',
                _ => '\\',
            };
            for t in 1..steps {
                let (x, y) = (x0 + (x1 - x0) * t / steps, y0 + (y1 - y0) * t / steps);
                // a diagonal marks only the grid's rows between its ends
                if line == '-' || line == '|' || (y - y0) * steps == (y1 - y0) * t {
                    let cell = &mut grid[y as usize][x as usize];
                    if *cell == ' ' {
                        *cell = line;
                    }
                }
            }
        }
        for (p, point) in self.points.iter().enumerate() {
            let (x, y) = at(point);
            grid[y as usize][x as usize] = mark(p);
        }
        let mut out = String::new();
        for (y, row) in grid.iter().enumerate() {
            let label = if y % 2 == 0 {
                format!("{:<2}", ranks - y / 2)
            } else {
                "  ".to_string()
            };
            let line: String = row.iter().collect();
            out.push_str(format!("{label}{line}").trim_end());
            out.push('\n');
        }
        let letters: Vec<String> = (0..files)
            .map(|f| ((b'a' + f as u8) as char).to_string())
            .collect();
        out.push_str("  ");
        out.push_str(&letters.join("   "));
        out.push('\n');
        out
    }

    /// Every permutation of the points that maps the adjacencies onto the
    /// adjacencies and the mills onto the mills, the identity first, each as
    /// the image of every point. Found by a search that places point after
    /// point, keeping each adjacency and mill among the points placed.
    pub fn symmetries(&self) -> Vec<Vec<u8>> {
        let n = self.len();
        let adjacent: Vec<u32> = (0..n).map(|p| self.neighbours(p)).collect();
        let mills = self.mill_masks();
        let mills_through: Vec<Vec<u32>> = (0..n)
            .map(|p| mills.iter().copied().filter(|m| m & 1 << p != 0).collect())
            .collect();
        let mut found = vec![];
        let mut image = vec![u8::MAX; n];
        self.extend(
            0,
            &mut image,
            0,
            &adjacent,
            &mills,
            &mills_through,
            &mut found,
        );
        found
    }

    /// [`Board::symmetries`]: the images of points `0..p` are set (`used`
    /// holds them); tries each image for point `p`.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &self,
        p: usize,
        image: &mut [u8],
        used: u32,
        adjacent: &[u32],
        mills: &[u32],
        mills_through: &[Vec<u32>],
        found: &mut Vec<Vec<u8>>,
    ) {
        let n = self.len();
        if p == n {
            found.push(image.to_vec());
            return;
        }
        let map_set = |set: u32, image: &[u8]| -> u32 {
            (0..n)
                .filter(|&q| set & 1 << q != 0)
                .fold(0, |s, q| s | 1 << image[q])
        };
        for q in 0..n {
            if used & 1 << q != 0
                || adjacent[q].count_ones() != adjacent[p].count_ones()
                || mills_through[q].len() != mills_through[p].len()
            {
                continue;
            }
            image[p] = q as u8;
            let placed = (1u32 << (p + 1)) - 1;
            // adjacencies among the points placed: kept, both ways
            let edges_kept =
                map_set(adjacent[p] & placed, image) == adjacent[q] & map_set(placed, image);
            // mills whose points are all placed: mapped onto mills
            let mills_kept = (mills_through[p].iter())
                .filter(|&&m| m & !placed == 0)
                .all(|&m| mills.contains(&map_set(m, image)));
            if edges_kept && mills_kept {
                self.extend(
                    p + 1,
                    image,
                    used | 1 << q,
                    adjacent,
                    mills,
                    mills_through,
                    found,
                );
            }
        }
        image[p] = u8::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(points: &[&str], edges: &[[&str; 2]], mills: &[[&str; 3]]) -> BoardSpec {
        BoardSpec {
            points: points.iter().map(|s| s.to_string()).collect(),
            edges: edges.iter().map(|e| e.map(String::from)).collect(),
            mills: mills.iter().map(|m| m.map(String::from)).collect(),
        }
    }

    #[test]
    fn a_line_of_three_has_two_symmetries() {
        let b = Board::new(&spec(
            &["c1", "a1", "b1"],
            &[["a1", "b1"], ["b1", "c1"]],
            &[["a1", "b1", "c1"]],
        ))
        .unwrap();
        assert_eq!(b.points()[0].name, "a1");
        assert_eq!(b.symmetries(), vec![vec![0, 1, 2], vec![2, 1, 0]]);
    }

    #[test]
    fn bad_boards_are_errors_that_name_the_problem() {
        let p = ["a1", "b1", "c1"];
        let e = [["a1", "b1"], ["b1", "c1"]];
        let m = [["a1", "b1", "c1"]];
        let err = |s: BoardSpec| Board::new(&s).unwrap_err().0;
        assert!(err(spec(&["a1", "b1"], &[["a1", "b1"]], &[])).contains("2 points"));
        assert!(err(spec(&["a1", "a1", "c1"], &e, &m)).contains("a1 given twice"));
        assert!(err(spec(&["A1", "b1", "c1"], &e, &m)).contains("not a point name"));
        assert!(err(spec(&["a0", "b1", "c1"], &e, &m)).contains("not a point name"));
        assert!(err(spec(&p, &[["a1", "d1"]], &m)).contains("d1 is not one"));
        assert!(err(spec(&p, &[["a1", "a1"]], &m)).contains("to itself"));
        assert!(err(spec(&p, &[["a1", "b1"], ["b1", "a1"]], &m)).contains("given twice"));
        assert!(err(spec(&p, &e, &[["a1", "b1", "a1"]])).contains("repeats"));
        assert!(
            err(spec(&p, &e, &[["a1", "b1", "c1"], ["c1", "a1", "b1"]])).contains("given twice")
        );
        assert!(err(spec(&p, &[["a1", "b1"]], &m)).contains("c1 has no adjacency"));
    }

    /// With diagonals, adjacency alone admits maps that break mills: a 3x3
    /// grid whose mills are the rows only keeps 4 of the 8 maps that keep
    /// its adjacencies (the king's moves).
    #[test]
    fn mills_cut_the_group_that_adjacency_alone_allows() {
        let names = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
        let mut edges = vec![];
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                let (pa, pb) = (parse_point(a).unwrap(), parse_point(b).unwrap());
                if pa.0.abs_diff(pb.0) <= 1 && pa.1.abs_diff(pb.1) <= 1 {
                    edges.push([*a, *b]);
                }
            }
        }
        let rows = [["a1", "b1", "c1"], ["a2", "b2", "c2"], ["a3", "b3", "c3"]];
        let all_lines = Board::new(&spec(&names, &edges, &[])).unwrap();
        assert_eq!(all_lines.symmetries().len(), 8);
        let b = Board::new(&spec(&names, &edges, &rows)).unwrap();
        assert_eq!(b.symmetries().len(), 4);
    }
}
