//! Two-sided bear-off databases in gnubg's format (`makebearoff -t PxC`):
//! for every pair of positions of up to C chequers on P points (the side on
//! roll, its opponent) the side on roll's cubeless equity and its cubeful
//! equities with the cube owned by it, centred, and owned by the opponent,
//! before it decides on a double.
//!
//! The arithmetic is gnubg's 16-bit integer arithmetic, so the files are
//! byte for byte its files: an equity e in [-1, 1] is the integer
//! `round(e · 32767.5 - 0.5)` from -32768 (a loss) to 32767 (a win); the
//! opponent's equity seen from the mover is its bitwise complement; a
//! roll's best play maximises that; the 21 rolls sum to an integer divided
//! by 36, truncated; the opponent's cube decision after a play is gnubg's
//! `CubeEquity`: it doubles where the doubled equity is at least half the
//! undoubled one, and the mover passes where taking is worse than losing one
//! cube.

use crate::bearoff::file::{BearoffError, Header, Kind, corrupt};
use crate::bearoff::moves::{self, Roll};
use crate::bearoff::position::{Side, positions};
use std::path::Path;

/// A win: equity +1.
pub const WIN: i16 = 0x7FFF;
/// A loss: equity -1.
pub const LOSS: i16 = !WIN;

/// The equities of a pair, the side on roll's: cubeless, then cube owned by
/// the side on roll, centred, owned by the opponent.
pub type Equities = [i16; 4];

/// Which equity of [`Equities`].
pub const CUBELESS: usize = 0;
/// Cube owned by the side on roll.
pub const OWNED: usize = 1;
/// Cube in the centre.
pub const CENTRED: usize = 2;
/// Cube owned by the opponent.
pub const OPPONENT: usize = 3;

/// An equity in [-1, 1] from gnubg's 16-bit integer.
pub fn equity(e: i16) -> f64 {
    (f64::from(e) + 32768.0) / 32767.5 - 1.0
}

/// The equity, in the mover's cube units, of a side on roll that may double:
/// `no_double` without doubling, `double_take` after double and take (in the
/// units of the doubled cube: it counts twice), `double_pass` = 1 if passed
/// (gnubg's `CubeEquity`).
pub fn cube_equity(no_double: i16, double_take: i16, double_pass: i16) -> i16 {
    cube_decision(no_double, double_take, double_pass).1
}

/// What a side on roll that may double does, and its equity then (in the
/// cube's units before the double), from the same three values as
/// [`cube_equity`]: it doubles where the doubled equity is at least the
/// undoubled one and a pass is no worse for it; the opponent passes where
/// taking would cost it more than the cube.
pub fn cube_decision(no_double: i16, double_take: i16, double_pass: i16) -> (CubeDecision, i16) {
    if double_take >= no_double / 2 && double_pass >= no_double {
        if double_take >= double_pass / 2 {
            (CubeDecision::DoublePass, double_pass)
        } else {
            (
                CubeDecision::DoubleTake,
                (2 * i32::from(double_take)) as i16,
            )
        }
    } else {
        (CubeDecision::NoDouble, no_double)
    }
}

/// A cube decision with its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CubeDecision {
    /// No double: the side rolls.
    NoDouble,
    /// Double; the opponent takes.
    DoubleTake,
    /// Double; the opponent passes and loses one cube.
    DoublePass,
}

impl CubeDecision {
    /// "No double", "Double, take", "Double, pass": as gnubg says it.
    pub fn words(self) -> &'static str {
        match self {
            CubeDecision::NoDouble => "No double",
            CubeDecision::DoubleTake => "Double, take",
            CubeDecision::DoublePass => "Double, pass",
        }
    }
}

/// The successors of every position of the table: for each of the 21 rolls,
/// the indices of the positions its legal plays lead to.
pub struct Successors {
    /// Per position, per roll (in [`Roll::all`] order), a range of `to`.
    starts: Vec<u32>,
    to: Vec<u32>,
}

impl Successors {
    /// The successors of the `n` positions on `points` points.
    pub fn new(points: usize, n: u32) -> Successors {
        let mut starts = Vec::with_capacity(n as usize * 21 + 1);
        let mut to = Vec::new();
        for i in 0..n {
            let side = Side::from_index(i, points).expect("an index below the count");
            for roll in Roll::all() {
                starts.push(to.len() as u32);
                if i > 0 {
                    to.extend(moves::plays(&side, roll).iter().map(|p| p.to.index(points)));
                }
            }
        }
        starts.push(to.len() as u32);
        Successors { starts, to }
    }

    /// The positions roll number `roll` (of [`Roll::all`]) leads to from
    /// position `i`.
    pub fn of(&self, i: u32, roll: usize) -> &[u32] {
        let k = i as usize * 21 + roll;
        &self.to[self.starts[k] as usize..self.starts[k + 1] as usize]
    }
}

/// The roll weights in [`Roll::all`] order.
pub fn roll_weights() -> [i32; 21] {
    let mut w = [0; 21];
    for (i, r) in Roll::all().enumerate() {
        w[i] = r.weight() as i32;
    }
    w
}

/// The equities of every pair of positions of up to `chequers` chequers on
/// `points` points, the side on roll's index times the count plus the
/// opponent's; only the cubeless one unless `cubeful`.
pub fn generate(
    points: usize,
    chequers: usize,
    cubeful: bool,
    progress: &mut dyn FnMut(u64, u64),
) -> Vec<Equities> {
    let n = positions(points, chequers);
    let succ = Successors::new(points, n);
    let weights = roll_weights();
    let nn = n as usize;
    let total = (nn * nn) as u64;
    let mut table = vec![[0i16; 4]; nn * nn];
    let mut done = 0u64;
    // A pair needs pairs of a smaller index sum only.
    for sum in 0..2 * nn - 1 {
        for us in sum.saturating_sub(nn - 1)..=sum.min(nn - 1) {
            let them = sum - us;
            table[us * nn + them] = solve(
                us as u32,
                them as u32,
                &weights,
                cubeful,
                |r| succ.of(us as u32, r),
                |j| table[(them as u32 * n + j) as usize],
            );
        }
        done += (sum.min(nn - 1) + 1 - sum.saturating_sub(nn - 1)) as u64;
        if sum % 64 == 0 {
            progress(done, total);
        }
    }
    progress(total, total);
    table
}

/// The equities of the pair (`us` on roll, `them`) from those of the pairs
/// (`them` on roll, `j`) for each `j` that `plays` of a roll (a number of
/// [`Roll::all`]) lead `us` to: `entry(j)`, of smaller index sums.
fn solve<S: AsRef<[u32]>>(
    us: u32,
    them: u32,
    weights: &[i32; 21],
    cubeful: bool,
    plays: impl Fn(usize) -> S,
    entry: impl Fn(u32) -> Equities,
) -> Equities {
    if us == 0 {
        return [WIN; 4];
    }
    if them == 0 {
        return [LOSS; 4];
    }
    let mut total = [0i32; 4];
    let kinds = if cubeful { 4 } else { 1 };
    for (r, w) in weights.iter().enumerate() {
        let mut best = [-0xFFFF_i32; 4];
        for &j in plays(r).as_ref() {
            let e = entry(j);
            best[CUBELESS] = best[CUBELESS].max(i32::from(!e[CUBELESS]));
            if cubeful {
                // After the play the opponent is on roll: the cube we own
                // is its opponent's; a centred cube, or its own, it may
                // double.
                best[OWNED] = best[OWNED].max(i32::from(!e[OPPONENT]));
                let centred = cube_equity(e[CENTRED], e[OPPONENT], WIN);
                best[CENTRED] = best[CENTRED].max(i32::from(!centred));
                let theirs = cube_equity(e[OWNED], e[OPPONENT], WIN);
                best[OPPONENT] = best[OPPONENT].max(i32::from(!theirs));
            }
        }
        for k in 0..kinds {
            total[k] += w * best[k];
        }
    }
    let mut out = [0i16; 4];
    for k in 0..kinds {
        out[k] = (total[k] / 36) as i16;
    }
    out
}

/// The bytes of gnubg's two-sided file: a 40-byte header, then for each
/// position of the side on roll, for each of the opponent, its equities as
/// 16-bit little-endian numbers offset by 32768 (four, or one without
/// `cubeful`).
pub fn gnubg_bytes(points: usize, chequers: usize, cubeful: bool, table: &[Equities]) -> Vec<u8> {
    let header = Header {
        kind: Kind::TwoSided { cubeful },
        points,
        chequers,
    };
    let kinds = if cubeful { 4 } else { 1 };
    let mut bytes = header.encode().to_vec();
    bytes.reserve(table.len() * 2 * kinds);
    for e in table {
        for v in &e[..kinds] {
            bytes.extend_from_slice(&((*v as u16) ^ 0x8000).to_le_bytes());
        }
    }
    bytes
}

/// An open two-sided file, checked when read.
pub struct TwoSidedFile {
    path: std::path::PathBuf,
    /// The header.
    pub header: Header,
    cubeful: bool,
    bytes: Vec<u8>,
}

impl TwoSidedFile {
    /// The file `bytes` read from `path` with header `header`, its size
    /// checked.
    pub(crate) fn new(
        path: &Path,
        header: Header,
        bytes: Vec<u8>,
    ) -> Result<TwoSidedFile, BearoffError> {
        let Kind::TwoSided { cubeful } = header.kind else {
            return Err(corrupt(path, "not a two-sided file"));
        };
        let n = positions(header.points, header.chequers) as usize;
        let need = 40 + n * n * if cubeful { 8 } else { 2 };
        if bytes.len() != need {
            return Err(corrupt(
                path,
                format!(
                    "{} bytes where a {}-point file of {} chequers has {need}",
                    bytes.len(),
                    header.points,
                    header.chequers
                ),
            ));
        }
        Ok(TwoSidedFile {
            path: path.to_path_buf(),
            header,
            cubeful,
            bytes,
        })
    }

    /// [`TwoSidedFile::equities`], checked against the equities the file
    /// holds for the pairs one play later, as the generator makes them from
    /// those (a few dozen reads): an entry that does not follow from them
    /// is an error naming the file, so a damaged file (a zeroed body, say)
    /// gives no answer.
    pub fn checked_equities(&self, us: u32, them: u32) -> Result<Equities, BearoffError> {
        let points = self.header.points;
        let side = Side::from_index(us, points)
            .ok_or_else(|| corrupt(&self.path, format!("no position of index {us}")))?;
        let rolls: Vec<Roll> = Roll::all().collect();
        let want = solve(
            us,
            them,
            &roll_weights(),
            self.cubeful,
            |r| -> Vec<u32> {
                let plays = moves::plays(&side, rolls[r]);
                plays.iter().map(|p| p.to.index(points)).collect()
            },
            |j| self.equities(them, j),
        );
        let got = self.equities(us, them);
        if got != want {
            return Err(corrupt(
                &self.path,
                format!(
                    "the equities of position pair ({us}, {them}) are {got:?}, where those one \
                     play later give {want:?}: the file is damaged; generate it again"
                ),
            ));
        }
        Ok(got)
    }

    /// Whether the file holds the cubeful equities.
    pub fn is_cubeful(&self) -> bool {
        self.cubeful
    }

    /// The equities of the pair (`us` on roll, `them`) by index: the
    /// cubeless one only (the others 0) in a cubeless file.
    pub fn equities(&self, us: u32, them: u32) -> Equities {
        let n = positions(self.header.points, self.header.chequers) as usize;
        let kinds = if self.cubeful { 4 } else { 1 };
        let at = 40 + (us as usize * n + them as usize) * 2 * kinds;
        let mut e = [0i16; 4];
        for (k, v) in e.iter_mut().enumerate().take(kinds) {
            let b = &self.bytes[at + 2 * k..at + 2 * k + 2];
            *v = (u16::from_le_bytes([b[0], b[1]]) ^ 0x8000) as i16;
        }
        e
    }
}
