//! The rules of a Mill game as a value: the board ([`Board`]), the stones,
//! flying, Lasker's turn, a full board, the removal rule and the no-removal
//! counter; the named presets of docs/RULES.md ("Other boards"); the
//! canonical description and its fingerprint, which every file of a
//! database names.
//!
//! A description reads from JSON or TOML ([`Rules::parse`]); its canonical
//! form is compact JSON of [`RulesSpec`] with its fields in declaration
//! order, the board's points in canonical order and each adjacency and mill
//! sorted by point number then listed in order (docs/FORMAT.md).

use crate::rules::board::{Board, BoardError, BoardSpec};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// When a side may move a stone to any empty point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Flying {
    /// Never.
    Never,
    /// With exactly this many stones on the board and none in hand.
    OnBoard(u8),
    /// With exactly this many stones on the board and in hand together
    /// (Lasker Morris).
    Total(u8),
}

/// What a board full when the last stone is placed means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FullBoard {
    /// The game is drawn.
    Draw,
    /// The side to move has lost.
    LossForSideToMove,
}

/// Which of the opponent's stones a mill may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Removal {
    /// Any stone not in a mill; a stone in a mill only when all are in mills.
    MillsProtected,
}

/// Which plies the no-removal counter counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Counts {
    /// Every ply since the last removal, placements included.
    AllPlies,
    /// The plies of the movement phase only: the counter is 0 whenever the
    /// movement phase begins (Sanmill's `nMoveRule`).
    MovementPlies,
}

/// The no-removal rule's counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counter {
    /// Plies without a removal after which the game is drawn.
    pub limit: u16,
    /// Which plies count.
    pub counts: Counts,
}

/// A description of the rules as written (JSON or TOML): [`Rules::new`]
/// checks it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesSpec {
    /// A name for people; not part of the fingerprint.
    pub name: String,
    /// The board.
    pub board: BoardSpec,
    /// Stones each side starts with in hand.
    pub stones: u8,
    /// A side with fewer stones than this on board plus in hand has lost.
    pub min_stones: u8,
    /// When a side may fly.
    pub flying: Flying,
    /// While a side has stones in hand, its turn places one or moves one.
    pub lasker: bool,
    /// A board full when the last stone is placed.
    pub full_board: FullBoard,
    /// Which stones a mill may take.
    pub removal: Removal,
    /// The no-removal rule.
    pub counter: Counter,
}

/// What is wrong with a description of the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

impl From<BoardError> for RulesError {
    fn from(e: BoardError) -> RulesError {
        RulesError(e.to_string())
    }
}

/// Checked rules: the board built, the numbers in range, the description
/// in canonical order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    spec: RulesSpec,
    board: Board,
}

/// The names of the presets, in the order `rules` lists them.
pub const PRESETS: [&str; 7] = [
    "nine",
    "nine-no-flying",
    "twelve",
    "lasker",
    "six",
    "seven",
    "three",
];

/// The no-removal counter's limit in the rule texts: 50 moves by each side
/// without a removal, 100 plies.
pub const DEFAULT_LIMIT: u16 = 100;

/// The most plies of the no-removal counter's limit (a distance is kept in
/// one byte).
pub const MAX_LIMIT: u16 = 254;

impl Rules {
    /// The rules `spec` describes, checked.
    pub fn new(spec: RulesSpec) -> Result<Rules, RulesError> {
        let board = Board::new(&spec.board)?;
        let n = board.len();
        let s = &spec;
        if s.min_stones < 3 {
            return Err(RulesError(format!(
                "min_stones {}: a side needs at least 3 stones to close a mill",
                s.min_stones
            )));
        }
        if s.stones < s.min_stones || 2 * s.stones as usize > n {
            return Err(RulesError(format!(
                "stones {}: at least min_stones ({}), and the two sides' stones must fit the \
                 board's {n} points",
                s.stones, s.min_stones
            )));
        }
        match s.flying {
            Flying::OnBoard(k) | Flying::Total(k) if k < s.min_stones || k > s.stones => {
                return Err(RulesError(format!(
                    "flying at {k} stones: between min_stones ({}) and stones ({})",
                    s.min_stones, s.stones
                )));
            }
            _ => {}
        }
        if s.counter.limit == 0 || s.counter.limit > MAX_LIMIT {
            return Err(RulesError(format!(
                "counter limit {}: 1 to {MAX_LIMIT} plies",
                s.counter.limit
            )));
        }
        // kept in canonical order
        let spec = RulesSpec {
            board: board.spec(),
            ..spec
        };
        Ok(Rules { spec, board })
    }

    /// The preset called `name` ([`PRESETS`]).
    pub fn preset(name: &str) -> Option<Rules> {
        let spec = presets::spec(name)?;
        Some(Rules::new(spec).expect("a preset is valid"))
    }

    /// Rules read from a description in JSON or TOML (told apart by the
    /// first character that is not white space: `{` for JSON).
    pub fn parse(text: &str) -> Result<Rules, RulesError> {
        let spec: RulesSpec = if text.trim_start().starts_with('{') {
            serde_json::from_str(text).map_err(|e| RulesError(format!("rules (JSON): {e}")))?
        } else {
            toml::from_str(text).map_err(|e| RulesError(format!("rules (TOML): {e}")))?
        };
        Rules::new(spec)
    }

    /// The description, its board in canonical order.
    pub fn spec(&self) -> RulesSpec {
        self.spec.clone()
    }

    /// The name given.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Stones each side starts with in hand.
    pub fn stones(&self) -> u8 {
        self.spec.stones
    }

    /// A side with fewer stones than this on board plus in hand has lost.
    pub fn min_stones(&self) -> u8 {
        self.spec.min_stones
    }

    /// When a side may fly.
    pub fn flying(&self) -> Flying {
        self.spec.flying
    }

    /// Whether a side with stones in hand may move instead of placing.
    pub fn lasker(&self) -> bool {
        self.spec.lasker
    }

    /// A board full when the last stone is placed.
    pub fn full_board(&self) -> FullBoard {
        self.spec.full_board
    }

    /// Which stones a mill may take.
    pub fn removal(&self) -> Removal {
        self.spec.removal
    }

    /// The no-removal rule's counter.
    pub fn counter(&self) -> Counter {
        self.spec.counter
    }

    /// The canonical description: compact JSON of [`Rules::spec`] without
    /// its name and its counter's limit, fields in declaration order
    /// (docs/FORMAT.md). The limit changes no game table; each table of the
    /// no-removal rule names its own.
    pub fn canonical(&self) -> String {
        let mut v = serde_json::to_value(self.spec()).expect("rules serialize");
        if let Some(o) = v.as_object_mut() {
            o.shift_remove("name");
            if let Some(c) = o.get_mut("counter").and_then(|c| c.as_object_mut()) {
                c.shift_remove("limit");
            }
        }
        serde_json::to_string(&v).expect("rules serialize")
    }

    /// The fingerprint of the rules: the first 8 bytes of the SHA-256 of
    /// [`Rules::canonical`], as a big-endian number. Rules that differ only
    /// in name, in the counter's limit, or in the order their description
    /// lists points, adjacencies and mills, have the same fingerprint.
    pub fn fingerprint(&self) -> u64 {
        let digest = Sha256::digest(self.canonical().as_bytes());
        u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
    }

    /// The name of the preset with these rules (whatever this one's name),
    /// if there is one.
    pub fn preset_name(&self) -> Option<&'static str> {
        let f = self.fingerprint();
        (PRESETS.into_iter()).find(|n| Rules::preset(n).is_some_and(|r| r.fingerprint() == f))
    }
}

/// How messages name the rules of fingerprint `f`: the preset's name and
/// the fingerprint in 16 hex digits, or the fingerprint alone for rules
/// that are no preset.
pub fn label(f: u64) -> String {
    let preset =
        (PRESETS.into_iter()).find(|n| Rules::preset(n).is_some_and(|r| r.fingerprint() == f));
    match preset {
        Some(name) => format!("{name} ({f:016x})"),
        None => format!("a rule set of one's own ({f:016x})"),
    }
}

/// How answers name the rules they were made under: the name and the
/// fingerprint in 16 hex digits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulesId {
    /// [`Rules::name`].
    pub name: String,
    /// [`Rules::fingerprint`], in hex.
    pub fingerprint: String,
}

impl Rules {
    /// The name and fingerprint of these rules.
    pub fn id(&self) -> RulesId {
        RulesId {
            name: self.name().to_string(),
            fingerprint: format!("{:016x}", self.fingerprint()),
        }
    }
}

impl fmt::Display for Rules {
    /// The name, with the fingerprint in hex: `six (7f3a…)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({:016x})", self.spec.name, self.fingerprint())
    }
}

/// The presets' descriptions, as docs/RULES.md ("Other boards") gives them.
mod presets {
    use super::*;

    /// The nine board: three squares joined at their midpoints.
    const NINE_POINTS: [&str; 24] = [
        "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4", "e4", "f4", "g4",
        "c5", "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7",
    ];
    const NINE_MILLS: [[&str; 3]; 16] = [
        ["a1", "d1", "g1"],
        ["b2", "d2", "f2"],
        ["c3", "d3", "e3"],
        ["a4", "b4", "c4"],
        ["e4", "f4", "g4"],
        ["c5", "d5", "e5"],
        ["b6", "d6", "f6"],
        ["a7", "d7", "g7"],
        ["a1", "a4", "a7"],
        ["b2", "b4", "b6"],
        ["c3", "c4", "c5"],
        ["d1", "d2", "d3"],
        ["d5", "d6", "d7"],
        ["e3", "e4", "e5"],
        ["f2", "f4", "f6"],
        ["g1", "g4", "g7"],
    ];
    /// The twelve board's diagonals: moves and mills.
    const DIAGONALS: [[&str; 3]; 4] = [
        ["a1", "b2", "c3"],
        ["g1", "f2", "e3"],
        ["a7", "b6", "c5"],
        ["g7", "f6", "e5"],
    ];
    /// The six board: two squares joined at their side midpoints.
    const SIX_POINTS: [&str; 16] = [
        "a1", "c1", "e1", "b2", "c2", "d2", "a3", "b3", "d3", "e3", "b4", "c4", "d4", "a5", "c5",
        "e5",
    ];
    const SIX_MILLS: [[&str; 3]; 8] = [
        ["a1", "c1", "e1"],
        ["e1", "e3", "e5"],
        ["a5", "c5", "e5"],
        ["a1", "a3", "a5"],
        ["b2", "c2", "d2"],
        ["d2", "d3", "d4"],
        ["b4", "c4", "d4"],
        ["b2", "b3", "b4"],
    ];
    const SIX_SPOKES: [[&str; 2]; 4] = [["c1", "c2"], ["e3", "d3"], ["c5", "c4"], ["a3", "b3"]];
    /// Seven's centre and its lines through it.
    const SEVEN_MILLS: [[&str; 3]; 6] = [
        ["c1", "c2", "c3"],
        ["c2", "c3", "c4"],
        ["c3", "c4", "c5"],
        ["a3", "b3", "c3"],
        ["b3", "c3", "d3"],
        ["c3", "d3", "e3"],
    ];
    const SEVEN_SPOKES: [[&str; 2]; 4] = [["c3", "c2"], ["c3", "d3"], ["c3", "c4"], ["c3", "b3"]];
    /// Three's 3x3 grid, its 8 lines.
    const THREE_POINTS: [&str; 9] = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
    const THREE_MILLS: [[&str; 3]; 8] = [
        ["a1", "b1", "c1"],
        ["a2", "b2", "c2"],
        ["a3", "b3", "c3"],
        ["a1", "a2", "a3"],
        ["b1", "b2", "b3"],
        ["c1", "c2", "c3"],
        ["a1", "b2", "c3"],
        ["c1", "b2", "a3"],
    ];

    /// The two adjacencies along each line of three, in order.
    fn along(lines: &[[&str; 3]]) -> Vec<[String; 2]> {
        (lines.iter())
            .flat_map(|[a, b, c]| {
                [
                    [a.to_string(), b.to_string()],
                    [b.to_string(), c.to_string()],
                ]
            })
            .collect()
    }

    fn strings<const N: usize>(v: &[[&str; N]]) -> Vec<[String; N]> {
        v.iter().map(|x| x.map(String::from)).collect()
    }

    /// Unique adjacencies (a line of three shares one with its neighbour).
    fn unique(mut edges: Vec<[String; 2]>) -> Vec<[String; 2]> {
        for e in &mut edges {
            e.sort();
        }
        edges.sort();
        edges.dedup();
        edges
    }

    /// Rules with the usual options: mills protected, counter of 100 plies
    /// counting every ply, a full board drawn, no Lasker turn.
    fn rules(name: &str, board: BoardSpec, stones: u8, flying: Flying) -> RulesSpec {
        RulesSpec {
            name: name.to_string(),
            board,
            stones,
            min_stones: 3,
            flying,
            lasker: false,
            full_board: FullBoard::Draw,
            removal: Removal::MillsProtected,
            counter: Counter {
                limit: DEFAULT_LIMIT,
                counts: Counts::AllPlies,
            },
        }
    }

    pub(super) fn spec(name: &str) -> Option<RulesSpec> {
        let nine = || BoardSpec {
            points: NINE_POINTS.map(String::from).to_vec(),
            edges: along(&NINE_MILLS),
            mills: strings(&NINE_MILLS),
        };
        let six = || BoardSpec {
            points: SIX_POINTS.map(String::from).to_vec(),
            edges: unique([along(&SIX_MILLS), strings(&SIX_SPOKES)].concat()),
            mills: strings(&SIX_MILLS),
        };
        Some(match name {
            "nine" => rules(name, nine(), 9, Flying::OnBoard(3)),
            "nine-no-flying" => rules(name, nine(), 9, Flying::Never),
            "twelve" => {
                let mut b = nine();
                b.edges.extend(along(&DIAGONALS));
                b.mills.extend(strings(&DIAGONALS));
                rules(name, b, 12, Flying::OnBoard(3))
            }
            "lasker" => RulesSpec {
                lasker: true,
                ..rules(name, nine(), 10, Flying::Total(3))
            },
            "six" => rules(name, six(), 6, Flying::Never),
            "seven" => {
                let mut b = six();
                b.points.push("c3".into());
                b.edges.extend(strings(&SEVEN_SPOKES));
                b.mills.extend(strings(&SEVEN_MILLS));
                rules(name, b, 7, Flying::Never)
            }
            "three" => {
                let board = BoardSpec {
                    points: THREE_POINTS.map(String::from).to_vec(),
                    edges: unique(along(&THREE_MILLS)),
                    mills: strings(&THREE_MILLS),
                };
                rules(name, board, 3, Flying::Never)
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_named_by_its_fingerprint() {
        let mut prints = std::collections::HashSet::new();
        for name in PRESETS {
            let r = Rules::preset(name).unwrap();
            assert_eq!(r.name(), name);
            assert_eq!(r.preset_name(), Some(name));
            assert!(
                prints.insert(r.fingerprint()),
                "{name} shares a fingerprint"
            );
        }
        assert!(Rules::preset("ten").is_none());
    }

    #[test]
    fn a_description_round_trips_through_json_and_toml() {
        for name in PRESETS {
            let r = Rules::preset(name).unwrap();
            let json = serde_json::to_string_pretty(&r.spec()).unwrap();
            assert_eq!(Rules::parse(&json).unwrap(), r, "{name} in JSON");
            let toml = toml::to_string(&r.spec()).unwrap();
            assert_eq!(Rules::parse(&toml).unwrap(), r, "{name} in TOML:\n{toml}");
        }
    }

    /// The fingerprint ignores the name and the order a description lists
    /// its parts in, and changes with any rule.
    #[test]
    fn the_fingerprint_follows_the_rules_not_their_writing() {
        let six = Rules::preset("six").unwrap();
        let mut spec = six.spec();
        spec.name = "my six".into();
        spec.board.points.reverse();
        spec.board.edges.reverse();
        for e in &mut spec.board.edges {
            e.reverse();
        }
        spec.board.mills.rotate_left(3);
        spec.counter.limit = 50;
        let same = Rules::new(spec.clone()).unwrap();
        assert_eq!(same.fingerprint(), six.fingerprint());
        assert_eq!(same.preset_name(), Some("six"));
        let changes: [fn(&mut RulesSpec); 6] = [
            |s| s.stones = 5,
            |s| s.flying = Flying::OnBoard(3),
            |s| s.lasker = true,
            |s| s.full_board = FullBoard::LossForSideToMove,
            |s| s.counter.counts = Counts::MovementPlies,
            |s| {
                s.board.mills.pop();
            },
        ];
        for (k, change) in changes.iter().enumerate() {
            let mut s = spec.clone();
            change(&mut s);
            let other = Rules::new(s).unwrap();
            assert_ne!(other.fingerprint(), six.fingerprint(), "change {k}");
            assert_eq!(other.preset_name(), None, "change {k}");
        }
    }

    #[test]
    fn bad_descriptions_are_errors_that_name_the_problem() {
        let nine = Rules::preset("nine").unwrap().spec();
        let err = |f: fn(&mut RulesSpec)| {
            let mut s = nine.clone();
            f(&mut s);
            Rules::new(s).unwrap_err().0
        };
        assert!(err(|s| s.min_stones = 2).contains("min_stones 2"));
        assert!(err(|s| s.stones = 2).contains("stones 2"));
        assert!(err(|s| s.stones = 25).contains("stones 25"));
        assert!(err(|s| s.flying = Flying::OnBoard(10)).contains("flying at 10"));
        assert!(err(|s| s.counter.limit = 0).contains("counter limit 0"));
        let e = Rules::parse("{\"name\": \"x\"}").unwrap_err().0;
        assert!(e.contains("JSON") && e.contains("board"), "{e}");
        let e = Rules::parse("name = \"x\"\nboard = 3\n").unwrap_err().0;
        assert!(e.contains("TOML"), "{e}");
    }

    /// Each preset's symmetries, found by the search, number as
    /// docs/RULES.md says.
    #[test]
    fn each_preset_has_the_symmetries_the_rules_page_gives() {
        for (name, order) in [
            ("nine", 16),
            ("nine-no-flying", 16),
            ("twelve", 16),
            ("lasker", 16),
            ("six", 16),
            ("seven", 8),
            ("three", 8),
        ] {
            let found = Rules::preset(name).unwrap().board().symmetries();
            assert_eq!(found.len(), order, "{name}");
        }
    }

    /// The nine preset is the board the engine is compiled for: the same
    /// points, adjacencies, mills and symmetries.
    #[test]
    fn the_nine_preset_is_the_compiled_board() {
        use crate::rules::geometry;
        let r = Rules::preset("nine").unwrap();
        let b = r.board();
        let names: Vec<&str> = b.points().iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, geometry::POINT_NAMES);
        for p in 0..geometry::POINTS {
            assert_eq!(b.neighbours(p), geometry::NEIGHBOURS[p], "{}", names[p]);
        }
        let mut masks = b.mill_masks();
        let mut compiled = geometry::MILL_MASKS.to_vec();
        masks.sort_unstable();
        compiled.sort_unstable();
        assert_eq!(masks, compiled);
        let mut found = b.symmetries();
        let mut listed: Vec<Vec<u8>> = geometry::SYMMETRIES.iter().map(|s| s.to_vec()).collect();
        found.sort();
        listed.sort();
        assert_eq!(found, listed);
    }
}
