//! Answers from a bear-off file: a position's value, and every play of a
//! roll with the value after it, best first, in the JSON shapes of
//! docs/USAGE.md.

use crate::bearoff::database::BearoffFile;
use crate::bearoff::file::BearoffError;
use crate::bearoff::moves::{self, Roll};
use crate::bearoff::one_sided::{Distribution, ONE};
use crate::bearoff::position::{PositionError, Side, Written};
use crate::bearoff::two_sided::{self, CENTRED, CubeDecision, OPPONENT, OWNED};
use serde::Serialize;

/// The value of a position.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum Value {
    /// One side: how many rolls it needs.
    OneSided {
        /// The position as written back.
        position: String,
        /// Expected rolls to bear every chequer off.
        expected_rolls: f64,
        /// Chance of bearing off in exactly i rolls, to the last non-zero one.
        distribution: Vec<f64>,
        /// Expected rolls to bear the first chequer off (where the file has
        /// the gammon distribution).
        #[serde(skip_serializing_if = "Option::is_none")]
        expected_rolls_first: Option<f64>,
    },
    /// Two sides: the chances of the side on roll.
    TwoSided {
        /// The position as written back, the side on roll first.
        position: String,
        /// Chance that the side on roll wins (cubeless).
        win: f64,
        /// Cubeless equity of the side on roll.
        cubeless: f64,
        /// The cubeful equities the file stores, where it has them: before
        /// the side on roll's cube decision.
        cubeful: Option<Cubeful>,
        /// The cube decision of the side on roll, with the cube in the centre
        /// and with the cube its own, and the cubeful equity after it,
        /// where the file has the cubeful equities.
        cube: Option<CubeActions>,
        /// Where the game is over: who has borne off.
        #[serde(skip_serializing_if = "Option::is_none")]
        over: Option<&'static str>,
    },
}

/// The cube decisions of the side on roll (the opponent, owning the cube,
/// leaves it none: its equity is [`Cubeful::opponent`]).
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct CubeActions {
    /// With the cube in the centre.
    pub centred: CubeAction,
    /// With the cube its own.
    pub owned: CubeAction,
}

/// One cube decision and the proper cubeful equity: the undoubled equity
/// (no double), twice the equity with the opponent owning the cube (double,
/// take), or +1 (double, pass).
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct CubeAction {
    /// `no-double`, `double-take` or `double-pass`.
    pub action: CubeDecision,
    /// The equity after it, in the units of the cube before it.
    pub equity: f64,
}

impl CubeActions {
    /// The decisions from the stored equities `[owned, centred, opponent]`.
    fn of(stored: [i16; 3]) -> CubeActions {
        let [owned, centred, opponent] = stored;
        let action = |no_double| {
            let (action, e) = two_sided::cube_decision(no_double, opponent, two_sided::WIN);
            CubeAction {
                action,
                equity: two_sided::equity(e),
            }
        };
        CubeActions {
            centred: action(centred),
            owned: action(owned),
        }
    }
}

/// Where the game of `us` on roll against `them` is over: who has borne
/// every chequer off.
fn over(us: &Side, them: &Side) -> Option<&'static str> {
    if us.chequers() == 0 {
        Some("the side on roll has borne off every chequer and won")
    } else if them.chequers() == 0 {
        Some("the opponent has borne off every chequer and won")
    } else {
        None
    }
}

/// The cubeful equities of the side on roll the file stores: before its
/// cube decision (the equity of rolling without doubling).
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Cubeful {
    /// The side on roll owns the cube.
    pub owned: f64,
    /// The cube is in the centre.
    pub centred: f64,
    /// The opponent owns the cube.
    pub opponent: f64,
}

/// One play of a roll and the value after it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PlayValue {
    /// gnubg's notation, e.g. `6/4 1/off`.
    #[serde(rename = "move")]
    pub notation: String,
    /// The position after the play (two-sided: the opponent on roll first).
    pub position: String,
    /// Expected rolls still needed (one-sided files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_rolls: Option<f64>,
    /// Chance of winning for the side that played (two-sided files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win: Option<f64>,
    /// Cubeless equity of the side that played (two-sided files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubeless: Option<f64>,
    /// Cubeful equity of the side that played with the cube in the centre,
    /// the opponent's cube decision made (two-sided files with the cubeful
    /// equities): what the plays are ranked by there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub centred_cube: Option<f64>,
}

/// Every play of a roll, best first.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Plays {
    /// The position as written back.
    pub position: String,
    /// The roll, higher die first.
    pub roll: String,
    /// The plays, best first (equal ones in gnubg's order); none where the
    /// game is over.
    pub moves: Vec<PlayValue>,
    /// Where the game is over: who has borne off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over: Option<&'static str>,
}

/// `written` checked against what `file` holds: its one side (one-sided
/// files; of a position ID, the side on roll) or two sides.
fn sides(file: &BearoffFile, written: Written) -> Result<(Side, Option<Side>), BearoffError> {
    let (points, chequers) = file.size();
    let (us, them) = match (file, written) {
        (BearoffFile::One(_), Written::One(s)) => (s, None),
        (BearoffFile::One(_), Written::Two(..)) => {
            return Err(PositionError(
                "a one-sided file answers for one side: write its chequers without a slash, e.g. \"1 6\"".into(),
            )
            .into());
        }
        (_, Written::One(_)) => {
            return Err(PositionError(
                "a two-sided file answers for two sides: write the side on roll, a slash, then the opponent, e.g. \"2 5 / 2 3\"".into(),
            )
            .into());
        }
        (_, Written::Two(a, b)) => (a, Some(b)),
    };
    for s in std::iter::once(us).chain(them) {
        if s.chequers() as usize > chequers {
            return Err(PositionError(format!(
                "{} chequers on a side, but the file holds positions of up to {chequers}",
                s.chequers()
            ))
            .into());
        }
        if s.highest().unwrap_or(0) > points {
            return Err(PositionError(format!(
                "a chequer on point {}, but the file holds points 1 to {points}",
                s.highest().unwrap_or(0)
            ))
            .into());
        }
    }
    Ok((us, them))
}

/// The equities of `us` on roll against `them`: cubeless, then the cubeful
/// ones if the file has them.
fn equities(
    file: &BearoffFile,
    us: &Side,
    them: &Side,
) -> Result<(i16, Option<[i16; 3]>), BearoffError> {
    let points = file.size().0;
    let (a, b) = (us.index(points), them.index(points));
    match file {
        BearoffFile::Two(f) => {
            let e = f.checked_equities(a, b)?;
            Ok((
                e[0],
                f.is_cubeful()
                    .then_some([e[OWNED], e[CENTRED], e[OPPONENT]]),
            ))
        }
        BearoffFile::Full(f) => Ok((f.equity(a, b)?, None)),
        BearoffFile::One(_) => unreachable!("a two-sided question of a one-sided file"),
    }
}

/// Whether `file` stores the cubeful equities.
fn has_cube(file: &BearoffFile) -> bool {
    matches!(file, BearoffFile::Two(f) if f.is_cubeful())
}

/// The chance of winning that a cubeless equity gives.
fn win(e: f64) -> f64 {
    (e + 1.0) / 2.0
}

/// An error where the distribution `d` of `side` cannot be one: a side
/// with chequers bears them off with probability 1 (gnubg's 16 bits each
/// roll: the sum within the rounding of 32 values), so a zero or
/// overfull distribution is a damaged file.
fn check_distribution(
    file: &BearoffFile,
    side: &Side,
    d: &Distribution,
) -> Result<(), BearoffError> {
    let sum: u64 = d.off.iter().map(|&v| u64::from(v)).sum();
    let one = u64::from(ONE);
    // (a long tail past 32 rolls may fall short of 1, never above it)
    let ok = sum <= one + 32 && (sum > 0 || side.chequers() == 0);
    if ok {
        return Ok(());
    }
    let path = match file {
        BearoffFile::One(f) => f.path().to_path_buf(),
        _ => std::path::PathBuf::new(),
    };
    Err(crate::bearoff::file::corrupt(
        &path,
        format!(
            "the distribution of {side} sums to {:.4}, not 1: a damaged file",
            sum as f64 / one as f64
        ),
    ))
}

/// The distributions of `side` in a one-sided `file`.
fn distribution(file: &BearoffFile, side: &Side) -> Result<Distribution, BearoffError> {
    match file {
        BearoffFile::One(f) => f.distribution(side.index(f.header.points)),
        _ => unreachable!("a one-sided question of a two-sided file"),
    }
}

/// The value of `written` in `file`.
pub fn value(file: &BearoffFile, written: Written) -> Result<Value, BearoffError> {
    let (us, them) = sides(file, written)?;
    match them {
        None => {
            let d = distribution(file, &us)?;
            check_distribution(file, &us, &d)?;
            let last = d.off.iter().rposition(|&v| v > 0).unwrap_or(0);
            let gammon = match file {
                BearoffFile::One(f) => f.has_gammon(),
                _ => false,
            };
            Ok(Value::OneSided {
                position: us.to_string(),
                expected_rolls: d.expected_rolls(),
                distribution: d.off[..=last]
                    .iter()
                    .map(|&v| f64::from(v) / f64::from(ONE))
                    .collect(),
                expected_rolls_first: gammon.then(|| d.expected_rolls_gammon()),
            })
        }
        Some(them) => {
            let (cubeless, cubeful) = equities(file, &us, &them)?;
            let cubeless = two_sided::equity(cubeless);
            let over = over(&us, &them);
            Ok(Value::TwoSided {
                position: format!("{us} / {them}"),
                win: win(cubeless),
                cubeless,
                cubeful: cubeful.map(|c| Cubeful {
                    owned: two_sided::equity(c[0]),
                    centred: two_sided::equity(c[1]),
                    opponent: two_sided::equity(c[2]),
                }),
                cube: cubeful.filter(|_| over.is_none()).map(CubeActions::of),
                over,
            })
        }
    }
}

/// Every play of `roll` from `written`, best first: the fewest expected
/// rolls after it (one-sided), or the highest chance of winning.
pub fn best(file: &BearoffFile, written: Written, roll: Roll) -> Result<Plays, BearoffError> {
    let (us, them) = sides(file, written)?;
    let position = match them {
        None => us.to_string(),
        Some(t) => format!("{us} / {t}"),
    };
    let finished = match them {
        Some(them) => over(&us, &them),
        None => (us.chequers() == 0).then_some("every chequer is borne off"),
    };
    if finished.is_some() {
        return Ok(Plays {
            position,
            roll: roll.to_string(),
            moves: vec![],
            over: finished,
        });
    }
    let mut out = Vec::new();
    for play in moves::plays(&us, roll) {
        out.push(match them {
            None => {
                let d = distribution(file, &play.to)?;
                PlayValue {
                    notation: play.notation(),
                    position: play.to.to_string(),
                    expected_rolls: Some(d.expected_rolls()),
                    win: None,
                    cubeless: None,
                    centred_cube: None,
                }
            }
            Some(them) => {
                // The opponent is on roll after the play; its equities, and
                // with a centred cube its cube decision, seen from us
                let (e, cubeful) = if play.to.chequers() == 0 {
                    (
                        two_sided::LOSS,
                        has_cube(file).then_some([two_sided::LOSS; 3]),
                    )
                } else {
                    equities(file, &them, &play.to)?
                };
                let mine = -two_sided::equity(e);
                let centred = cubeful.map(|[_, centred, opponent]| {
                    let theirs = two_sided::cube_equity(centred, opponent, two_sided::WIN);
                    -two_sided::equity(theirs)
                });
                PlayValue {
                    notation: play.notation(),
                    position: format!("{them} / {}", play.to),
                    expected_rolls: None,
                    win: Some(win(mine)),
                    cubeless: Some(mine),
                    centred_cube: centred,
                }
            }
        });
    }
    // Stable: equal plays keep gnubg's order.
    let key = |p: &PlayValue| p.centred_cube.or(p.cubeless).unwrap_or(0.0);
    out.sort_by(|a, b| match (a.expected_rolls, b.expected_rolls) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        _ => key(b).total_cmp(&key(a)),
    });
    Ok(Plays {
        position,
        roll: roll.to_string(),
        moves: out,
        over: None,
    })
}
