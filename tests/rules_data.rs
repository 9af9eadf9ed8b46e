//! The rules as data, checked from outside the crate: each preset against a
//! description written out here by hand from docs/RULES.md and the
//! literature (for twelve: its 40 adjacencies and 20 mills), its fingerprint
//! recomputed as docs/FORMAT.md says, a description of the user's own in
//! TOML and JSON, errors that name the problem, and a database that names
//! its rules.

mod common;

use common::run;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

/// A board written out by hand: points, adjacencies, mills.
struct Hand {
    points: Vec<&'static str>,
    edges: Vec<[&'static str; 2]>,
    mills: Vec<[&'static str; 3]>,
}

const NINE_POINTS: [&str; 24] = [
    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4", "e4", "f4", "g4", "c5",
    "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7",
];

/// The nine board's 32 adjacencies, written out.
const NINE_EDGES: [[&str; 2]; 32] = [
    ["a1", "d1"],
    ["d1", "g1"],
    ["a1", "a4"],
    ["a4", "a7"],
    ["a7", "d7"],
    ["d7", "g7"],
    ["g7", "g4"],
    ["g4", "g1"],
    ["b2", "d2"],
    ["d2", "f2"],
    ["b2", "b4"],
    ["b4", "b6"],
    ["b6", "d6"],
    ["d6", "f6"],
    ["f6", "f4"],
    ["f4", "f2"],
    ["c3", "d3"],
    ["d3", "e3"],
    ["c3", "c4"],
    ["c4", "c5"],
    ["c5", "d5"],
    ["d5", "e5"],
    ["e5", "e4"],
    ["e4", "e3"],
    ["d1", "d2"],
    ["d2", "d3"],
    ["a4", "b4"],
    ["b4", "c4"],
    ["d7", "d6"],
    ["d6", "d5"],
    ["g4", "f4"],
    ["f4", "e4"],
];

/// The nine board's 16 mills.
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

fn nine() -> Hand {
    Hand {
        points: NINE_POINTS.to_vec(),
        edges: NINE_EDGES.to_vec(),
        mills: NINE_MILLS.to_vec(),
    }
}

/// Twelve: nine's 32 adjacencies and these 8 along the diagonals (40); nine's
/// 16 mills and the 4 diagonals (20).
fn twelve() -> Hand {
    let mut h = nine();
    h.edges.extend([
        ["a1", "b2"],
        ["b2", "c3"],
        ["g1", "f2"],
        ["f2", "e3"],
        ["a7", "b6"],
        ["b6", "c5"],
        ["g7", "f6"],
        ["f6", "e5"],
    ]);
    h.mills.extend([
        ["a1", "b2", "c3"],
        ["g1", "f2", "e3"],
        ["a7", "b6", "c5"],
        ["g7", "f6", "e5"],
    ]);
    assert_eq!((h.edges.len(), h.mills.len()), (40, 20));
    h
}

fn six() -> Hand {
    Hand {
        points: vec![
            "a1", "c1", "e1", "e3", "e5", "c5", "a5", "a3", "b2", "c2", "d2", "d3", "d4", "c4",
            "b4", "b3",
        ],
        edges: vec![
            ["a1", "c1"],
            ["c1", "e1"],
            ["e1", "e3"],
            ["e3", "e5"],
            ["e5", "c5"],
            ["c5", "a5"],
            ["a5", "a3"],
            ["a3", "a1"],
            ["b2", "c2"],
            ["c2", "d2"],
            ["d2", "d3"],
            ["d3", "d4"],
            ["d4", "c4"],
            ["c4", "b4"],
            ["b4", "b3"],
            ["b3", "b2"],
            ["c1", "c2"],
            ["e3", "d3"],
            ["c5", "c4"],
            ["a3", "b3"],
        ],
        mills: vec![
            ["a1", "c1", "e1"],
            ["e1", "e3", "e5"],
            ["a5", "c5", "e5"],
            ["a1", "a3", "a5"],
            ["b2", "c2", "d2"],
            ["d2", "d3", "d4"],
            ["b4", "c4", "d4"],
            ["b2", "b3", "b4"],
        ],
    }
}

fn seven() -> Hand {
    let mut h = six();
    h.points.push("c3");
    h.edges
        .extend([["c3", "c2"], ["c3", "d3"], ["c3", "c4"], ["c3", "b3"]]);
    h.mills.extend([
        ["c1", "c2", "c3"],
        ["c2", "c3", "c4"],
        ["c3", "c4", "c5"],
        ["a3", "b3", "c3"],
        ["b3", "c3", "d3"],
        ["c3", "d3", "e3"],
    ]);
    assert_eq!((h.edges.len(), h.mills.len()), (24, 14));
    h
}

fn three() -> Hand {
    let points = vec!["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
    let mut edges = vec![];
    for a in ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"] {
        edges.push([a, "b2"]);
    }
    for [a, b] in [
        ["a1", "b1"],
        ["b1", "c1"],
        ["c1", "c2"],
        ["c2", "c3"],
        ["c3", "b3"],
        ["b3", "a3"],
        ["a3", "a2"],
        ["a2", "a1"],
    ] {
        edges.push([a, b]);
    }
    Hand {
        points,
        edges,
        mills: vec![
            ["a1", "b1", "c1"],
            ["a2", "b2", "c2"],
            ["a3", "b3", "c3"],
            ["a1", "a2", "a3"],
            ["b1", "b2", "b3"],
            ["c1", "c2", "c3"],
            ["a1", "b2", "c3"],
            ["c1", "b2", "a3"],
        ],
    }
}

/// A preset written out by hand: its board, stones, flying as the JSON of
/// docs/FORMAT.md, Lasker's turn.
fn hand(name: &str) -> (Hand, u8, &'static str, bool) {
    match name {
        "nine" => (nine(), 9, r#"{"on-board":3}"#, false),
        "nine-no-flying" => (nine(), 9, r#""never""#, false),
        "twelve" => (twelve(), 12, r#"{"on-board":3}"#, false),
        "lasker" => (nine(), 10, r#"{"total":3}"#, true),
        "six" => (six(), 6, r#""never""#, false),
        "seven" => (seven(), 7, r#""never""#, false),
        "three" => (three(), 3, r#""never""#, false),
        _ => panic!("no preset {name}"),
    }
}

const PRESETS: [&str; 7] = [
    "nine",
    "nine-no-flying",
    "twelve",
    "lasker",
    "six",
    "seven",
    "three",
];

/// The canonical form of docs/FORMAT.md, written here from the steps of
/// that page: points by rank then file, edges and mills by point numbers.
fn canonical(name: &str) -> String {
    let (h, stones, flying, lasker) = hand(name);
    let mut points = h.points.clone();
    let rank_file = |p: &str| {
        let (f, r) = p.split_at(1);
        (r.parse::<u32>().unwrap(), f.to_string())
    };
    points.sort_by_key(|p| rank_file(p));
    let num = |p: &str| points.iter().position(|q| *q == p).unwrap();
    let quoted = |p: &usize| format!("\"{}\"", points[*p]);
    let mut edges: Vec<Vec<usize>> = (h.edges.iter())
        .map(|e| {
            let mut v: Vec<usize> = e.iter().map(|p| num(p)).collect();
            v.sort();
            v
        })
        .collect();
    edges.sort();
    let mut mills: Vec<Vec<usize>> = (h.mills.iter())
        .map(|m| {
            let mut v: Vec<usize> = m.iter().map(|p| num(p)).collect();
            v.sort();
            v
        })
        .collect();
    mills.sort();
    let list = |v: &[Vec<usize>]| -> String {
        let items: Vec<String> = (v.iter())
            .map(|x| format!("[{}]", x.iter().map(quoted).collect::<Vec<_>>().join(",")))
            .collect();
        format!("[{}]", items.join(","))
    };
    let names: Vec<String> = (0..points.len()).map(|p| quoted(&p)).collect();
    format!(
        "{{\"board\":{{\"points\":[{}],\"edges\":{},\"mills\":{}}},\"stones\":{stones},\
         \"min_stones\":3,\"flying\":{flying},\"lasker\":{lasker},\"full_board\":\"draw\",\
         \"removal\":\"mills-protected\",\"counter\":{{\"counts\":\"all-plies\"}}}}",
        names.join(","),
        list(&edges),
        list(&mills)
    )
}

fn out(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn fingerprint(canonical: &str) -> String {
    let d = Sha256::digest(canonical.as_bytes());
    d[..8].iter().map(|b| format!("{b:02x}")).collect()
}

fn rules_json(args: &[&str]) -> serde_json::Value {
    let o = run(&[&["rules"], args, &["--json"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&out(&o)).unwrap()
}

/// A list of names' tuples as a set of sorted tuples.
fn as_set(v: &serde_json::Value) -> BTreeSet<Vec<String>> {
    (v.as_array().unwrap().iter())
        .map(|t| {
            let mut x: Vec<String> = (t.as_array().unwrap().iter())
                .map(|p| p.as_str().unwrap().to_string())
                .collect();
            x.sort();
            x
        })
        .collect()
}

fn hand_set<const N: usize>(v: &[[&str; N]]) -> BTreeSet<Vec<String>> {
    (v.iter())
        .map(|t| {
            let mut x: Vec<String> = t.iter().map(|s| s.to_string()).collect();
            x.sort();
            x
        })
        .collect()
}

/// Each preset is the board written out here, and its fingerprint is the
/// one the steps of docs/FORMAT.md give from this file's own writing.
#[test]
fn each_preset_is_its_board_from_the_literature_with_the_documented_fingerprint() {
    for name in PRESETS {
        let v = rules_json(&[name]);
        let (h, stones, _, lasker) = hand(name);
        let r = &v["rules"];
        let pts: BTreeSet<&str> = (r["board"]["points"].as_array().unwrap().iter())
            .map(|p| p.as_str().unwrap())
            .collect();
        assert_eq!(pts, h.points.iter().copied().collect(), "{name}: points");
        assert_eq!(
            as_set(&r["board"]["edges"]),
            hand_set(&h.edges),
            "{name}: edges"
        );
        assert_eq!(
            as_set(&r["board"]["mills"]),
            hand_set(&h.mills),
            "{name}: mills"
        );
        assert_eq!(r["stones"], stones as u64, "{name}");
        assert_eq!(r["lasker"], lasker, "{name}");
        assert_eq!(v["preset"], name);
        assert_eq!(v["fingerprint"], fingerprint(&canonical(name)), "{name}");
    }
}

/// The symmetries of each preset number as the literature counts them; for
/// three, all 362,880 permutations of its points are tried here.
#[test]
fn each_preset_has_its_symmetries() {
    for (name, order) in [
        ("nine", 16),
        ("twelve", 16),
        ("lasker", 16),
        ("six", 16),
        ("seven", 8),
        ("three", 8),
    ] {
        assert_eq!(rules_json(&[name])["symmetries"], order, "{name}");
    }
    let h = three();
    let num = |p: &str| h.points.iter().position(|q| *q == p).unwrap();
    let edges = hand_set(&h.edges.iter().map(|e| e.map(|p| p)).collect::<Vec<_>>());
    let mills = hand_set(&h.mills);
    let (mut perm, mut kept) = ((0..9).collect::<Vec<usize>>(), 0);
    loop {
        let map = |p: &str| h.points[perm[num(p)]].to_string();
        let e: BTreeSet<Vec<String>> = (h.edges.iter())
            .map(|x| {
                let mut v: Vec<String> = x.iter().map(|p| map(p)).collect();
                v.sort();
                v
            })
            .collect();
        let m: BTreeSet<Vec<String>> = (h.mills.iter())
            .map(|x| {
                let mut v: Vec<String> = x.iter().map(|p| map(p)).collect();
                v.sort();
                v
            })
            .collect();
        if e == edges && m == mills {
            kept += 1;
        }
        // the next permutation in lexicographic order
        let Some(i) = (0..8).rev().find(|&i| perm[i] < perm[i + 1]) else {
            break;
        };
        let j = (i + 1..9).rev().find(|&j| perm[j] > perm[i]).unwrap();
        perm.swap(i, j);
        perm[i + 1..].reverse();
    }
    assert_eq!(kept, 8);
}

/// A description of the user's own, in TOML and in JSON, with its parts in
/// another order and another name: the same rules as the preset, the same
/// fingerprint; bad descriptions exit 2 naming the problem.
#[test]
fn a_description_of_ones_own_in_toml_or_json() {
    let dir = tempfile::tempdir().unwrap();
    let six = rules_json(&["six"]);
    let mut spec = six["rules"].clone();
    spec["name"] = "my six".into();
    let points = spec["board"]["points"].as_array_mut().unwrap();
    points.reverse();
    spec["board"]["mills"].as_array_mut().unwrap().reverse();
    let json = dir.path().join("six.json");
    std::fs::write(&json, serde_json::to_string_pretty(&spec).unwrap()).unwrap();
    let v = rules_json(&[json.to_str().unwrap()]);
    assert_eq!(v["fingerprint"], six["fingerprint"]);
    assert_eq!(v["preset"], "six");
    assert_eq!(v["rules"]["name"], "my six");
    // the same in TOML, written here by hand
    let (h, ..) = hand("six");
    let q = |s: &str| format!("\"{s}\"");
    let toml = format!(
        "name = \"six in toml\"\nstones = 6\nmin_stones = 3\nflying = \"never\"\nlasker = false\n\
         full_board = \"draw\"\nremoval = \"mills-protected\"\n\n[counter]\nlimit = 40\n\
         counts = \"all-plies\"\n\n[board]\npoints = [{}]\nedges = [{}]\nmills = [{}]\n",
        h.points.iter().map(|p| q(p)).collect::<Vec<_>>().join(", "),
        (h.edges.iter())
            .map(|[a, b]| format!("[{}, {}]", q(a), q(b)))
            .collect::<Vec<_>>()
            .join(", "),
        (h.mills.iter())
            .map(|[a, b, c]| format!("[{}, {}, {}]", q(a), q(b), q(c)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let file = dir.path().join("six.toml");
    std::fs::write(&file, &toml).unwrap();
    let v = rules_json(&[file.to_str().unwrap()]);
    assert_eq!(v["fingerprint"], six["fingerprint"], "{toml}");
    assert_eq!(v["rules"]["counter"]["limit"], 40);
    // Sanmill's counter: other rules
    std::fs::write(&file, toml.replace("all-plies", "movement-plies")).unwrap();
    let v = rules_json(&[file.to_str().unwrap()]);
    assert_ne!(v["fingerprint"], six["fingerprint"]);
    assert_eq!(v["preset"], serde_json::Value::Null);
    // errors name the problem, exit 2
    for (text, says) in [
        (toml.replace("stones = 6", "stones = 9"), "stones 9"),
        (toml.replace("\"b3\"]]", "\"x3\"]]"), "x3 is not one"),
        (
            toml.replace("flying = \"never\"", "flying = \"sometimes\""),
            "TOML",
        ),
        ("{\"name\": 1}".to_string(), "JSON"),
    ] {
        std::fs::write(&file, &text).unwrap();
        let o = run(&["rules", file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says) && e.contains("six.toml"), "{says}: {e}");
    }
    let o = run(&["rules", "ten"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("neither a preset"));
}

/// `rules nine` draws the board as `show` does, and a database names its
/// rules: `rules --db`, `query --json`, and a manifest whose description
/// is not its rules is refused, naming both.
#[test]
fn a_database_names_its_rules() {
    let drawn = out(&run(&["rules", "nine"]));
    let shown = out(&run(&["show", "........................ w 9 9"]));
    let board = |t: &str| t.lines().take(14).collect::<Vec<_>>().join("\n");
    assert_eq!(board(&drawn), board(&shown));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let db = db.to_str().unwrap();
    let o = run(&["generate", "--db", db, "--max-stones", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = rules_json(&["--db", db]);
    assert_eq!(v["preset"], "nine");
    assert_eq!(v["fingerprint"], fingerprint(&canonical("nine")));
    let o = run(&[
        "query",
        "--db",
        db,
        "W.W.....B.......W....B.B w 0 0",
        "--json",
    ]);
    let q: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(q["rules"]["name"], "nine");
    assert_eq!(q["rules"]["fingerprint"], v["fingerprint"]);
    // a manifest describing other rules than it names
    let manifest = std::path::Path::new(db).join("millbase.json");
    let written = std::fs::read_to_string(&manifest).unwrap();
    let mut m: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(m["fingerprint"], v["fingerprint"]);
    m["ruleset"]["flying"] = "never".into();
    std::fs::write(&manifest, m.to_string()).unwrap();
    let o = run(&["query", "--db", db, "W.W.....B.......W....B.B w 0 0"]);
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains(&fingerprint(&canonical("nine")))
            && e.contains(&fingerprint(&canonical("nine-no-flying"))),
        "{e}"
    );
    // the other variant asked for: both rule sets named
    std::fs::write(&manifest, &written).unwrap();
    let o = run(&["generate", "--db", db, "--max-stones", "3", "--no-flying"]);
    assert!(!o.status.success(), "{}", out(&o));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("nine-no-flying (") && e.contains("nine ("),
        "{e}"
    );
    // a database of another board names its rules; the commands that read
    // positions on nine's board only refuse it, naming them; nine's rules
    // asked of it are refused naming both
    let six = common::generated(&["--rules", "six", "--max-stones", "3", "--no-rule-tables"]);
    let six = six.path().to_str().unwrap();
    assert_eq!(rules_json(&["--db", six])["preset"], "six");
    let six_print = fingerprint(&canonical("six"));
    for args in [
        vec!["query", "--db", six, "................ w 3 3"],
        vec!["moves", "--db", six, "................ w 3 3"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains("six rules") && e.contains(&six_print), "{e}");
    }
    let o = run(&["generate", "--db", six, "--max-stones", "3", "--no-flying"]);
    assert!(!o.status.success(), "{}", out(&o));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("six (") && e.contains("nine-no-flying ("), "{e}");
}

/// The class counts `subspaces --rules` gives every subspace and sector of
/// nine, three, six and seven equal Burnside's lemma over the board's own
/// group: the mean, over its symmetries (each checked here to keep the
/// adjacencies and mills written out above, and counted: 16, 8, 16, 8), of
/// the pairs of disjoint stone sets each leaves in place.
#[test]
fn class_counts_are_burnsides_over_each_boards_own_group() {
    for (name, order, subspaces) in [
        ("nine", 16, 546),
        ("three", 8, 7),
        ("six", 16, 146),
        ("seven", 8, 245),
    ] {
        let rules = millbase::rules::ruleset::Rules::preset(name).unwrap();
        let board = rules.board();
        let n = board.len();
        let group = board.symmetries();
        assert_eq!(group.len(), order, "{name}");
        let (h, ..) = hand(name);
        for g in &group {
            let map = |p: &str| {
                board.points()[g[board.point(p).unwrap()] as usize]
                    .name
                    .as_str()
            };
            let e: BTreeSet<Vec<String>> = (h.edges.iter()).map(|x| sorted(x.map(map))).collect();
            let m: BTreeSet<Vec<String>> = (h.mills.iter()).map(|x| sorted(x.map(map))).collect();
            assert_eq!(e, hand_set(&h.edges), "{name}: {g:?} breaks an adjacency");
            assert_eq!(m, hand_set(&h.mills), "{name}: {g:?} breaks a mill");
        }
        // per symmetry: ways[a][b], the pairs of disjoint sets of a and b
        // points that it leaves in place (unions of its cycles)
        let fixed: Vec<Vec<Vec<u64>>> = (group.iter())
            .map(|g| {
                let mut ways = vec![vec![0u64; n + 1]; n + 1];
                ways[0][0] = 1;
                let mut seen = vec![false; n];
                for start in 0..n {
                    if seen[start] {
                        continue;
                    }
                    let (mut len, mut p) = (0, start);
                    while !seen[p] {
                        seen[p] = true;
                        len += 1;
                        p = g[p] as usize;
                    }
                    let old = ways.clone();
                    for a in 0..=n {
                        for b in 0..=n {
                            if a >= len {
                                ways[a][b] += old[a - len][b];
                            }
                            if b >= len {
                                ways[a][b] += old[a][b - len];
                            }
                        }
                    }
                }
                ways
            })
            .collect();
        let o = run(&["subspaces", "--json", "--rules", name]);
        let mut checked = 0;
        for line in out(&o).lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let (m, b) = (
                v["mover"].as_u64().unwrap() as usize,
                v["opponent"].as_u64().unwrap() as usize,
            );
            let total: u64 = fixed.iter().map(|w| w[m][b]).sum();
            assert_eq!(total % order as u64, 0);
            assert_eq!(v["classes"], total / order as u64, "{name}: {line}");
            checked += 1;
        }
        assert_eq!(checked, subspaces, "{name}");
    }
}

fn sorted<const N: usize>(x: [&str; N]) -> Vec<String> {
    let mut v: Vec<String> = x.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// A position of the naive rules below: White's and Black's points (by
/// this file's own numbering, the order `Hand::points` lists them), stones
/// in hand, and whether White moves.
type NaivePos = (u32, u32, u8, u8, bool);

/// A preset written out here (`Hand`) as this file's rules read it: its
/// mills as point sets and its adjacencies as pairs, points numbered in the
/// order `Hand::points` lists them.
struct Naive<'h> {
    h: &'h Hand,
    mills: Vec<u32>,
    edges: Vec<(usize, usize)>,
}

/// A move of the naive rules: from (none for a placement), to, and the
/// stone it takes.
type NaiveMove = (Option<usize>, usize, Option<usize>);

impl Naive<'_> {
    fn new(h: &Hand) -> Naive<'_> {
        let num = |p: &str| h.points.iter().position(|q| *q == p).unwrap();
        Naive {
            h,
            mills: (h.mills.iter())
                .map(|m| m.iter().map(|p| 1 << num(p)).sum())
                .collect(),
            edges: h.edges.iter().map(|[a, b]| (num(a), num(b))).collect(),
        }
    }

    /// The text docs/RULES.md writes for `mv`.
    fn text(&self, (from, to, take): NaiveMove) -> String {
        let p = |i: usize| self.h.points[i];
        let mut t = match from {
            Some(f) => format!("{}-{}", p(f), p(to)),
            None => p(to).to_string(),
        };
        if let Some(x) = take {
            t += &format!("x{}", p(x));
        }
        t
    }

    /// The moves of `pos` under a no-flying, non-Lasker preset: placements
    /// while the mover has stones in hand, then moves along an adjacency; a
    /// move that makes a mill through the point moved to takes an opponent's
    /// stone not in a mill, or any where all are. Each with the position
    /// after it.
    fn moves(&self, pos: NaivePos) -> Vec<(NaiveMove, NaivePos)> {
        let (w, b, wh, bh, white) = pos;
        let (me, them, my_hand, their_hand) = if white {
            (w, b, wh, bh)
        } else {
            (b, w, bh, wh)
        };
        let n = self.h.points.len();
        if me.count_ones() + u32::from(my_hand) < 3 || them.count_ones() + u32::from(their_hand) < 3
        {
            return vec![];
        }
        let in_mills: u32 = (self.mills.iter())
            .filter(|&&m| them & m == m)
            .fold(0, |s, m| s | m);
        let takeable = if them & !in_mills != 0 {
            them & !in_mills
        } else {
            them
        };
        let mut out = vec![];
        let mut add = |from: Option<usize>, to: usize| {
            let mine = (me | 1 << to) & !from.map_or(0, |f| 1 << f);
            let hand_after = my_hand - u8::from(from.is_none());
            let closes = (self.mills.iter()).any(|&m| m & 1 << to != 0 && mine & m == m);
            let takes: Vec<Option<usize>> = if closes && them != 0 {
                (0..n)
                    .filter(|&p| takeable & 1 << p != 0)
                    .map(Some)
                    .collect()
            } else {
                vec![None]
            };
            for t in takes {
                let theirs = them & !t.map_or(0, |p| 1 << p);
                let after = if white {
                    (mine, theirs, hand_after, their_hand, false)
                } else {
                    (theirs, mine, their_hand, hand_after, true)
                };
                out.push(((from, to, t), after));
            }
        };
        let empty = |p: usize| (me | them) & 1 << p == 0;
        if my_hand > 0 {
            (0..n).filter(|&p| empty(p)).for_each(|p| add(None, p));
        } else {
            for &(a, c) in &self.edges {
                for (f, t) in [(a, c), (c, a)] {
                    if me & 1 << f != 0 && empty(t) {
                        add(Some(f), t);
                    }
                }
            }
        }
        out
    }
}

/// Every position reachable from `start` under this file's own rules
/// ([`Naive::moves`]), solved by a retrograde pass of its own: the
/// positions (the start first), each one's moves with the position after
/// it, and its value for the side to move (1 win, -1 loss, 0 draw) with the
/// plies to the end (a win as fast as it can, a loss as slow). Positions are
/// decided in order of their plies, so the first win found is the fastest
/// and a loss is decided by its slowest child.
struct Brute {
    order: Vec<NaivePos>,
    moves: Vec<Vec<(NaiveMove, usize)>>,
    value: Vec<i8>,
    plies: Vec<u16>,
}

fn brute_force(naive: &Naive, start: NaivePos) -> Brute {
    let mut b = Brute {
        order: vec![start],
        moves: vec![],
        value: vec![],
        plies: vec![],
    };
    let mut index: std::collections::HashMap<NaivePos, usize> = [(start, 0)].into_iter().collect();
    let mut k = 0;
    while k < b.order.len() {
        let mut kids = vec![];
        for (mv, after) in naive.moves(b.order[k]) {
            let n = b.order.len();
            let i = *index.entry(after).or_insert(n);
            if i == n {
                b.order.push(after);
            }
            kids.push((mv, i));
        }
        b.moves.push(kids);
        k += 1;
    }
    let n = b.order.len();
    let mut parents = vec![vec![]; n];
    for (i, kids) in b.moves.iter().enumerate() {
        for &(_, k) in kids {
            parents[k].push(i as u32);
        }
    }
    b.value = vec![0; n];
    b.plies = vec![0; n];
    let mut left: Vec<usize> = b.moves.iter().map(Vec::len).collect();
    let mut queue: std::collections::VecDeque<usize> =
        (0..n).filter(|&i| b.moves[i].is_empty()).collect();
    for &i in &queue {
        b.value[i] = -1;
    }
    while let Some(k) = queue.pop_front() {
        for &p in &parents[k] {
            let p = p as usize;
            if b.value[p] != 0 {
                continue;
            }
            if b.value[k] == -1 {
                (b.value[p], b.plies[p]) = (1, b.plies[k] + 1);
                queue.push_back(p);
            } else {
                left[p] -= 1;
                if left[p] == 0 {
                    (b.value[p], b.plies[p]) = (-1, b.plies[k] + 1);
                    queue.push_back(p);
                }
            }
        }
    }
    b
}

/// The points of `set` (this file's numbering of `h`) in the crate's
/// canonical numbering of the same board (rank, then file).
fn canonical_set(h: &Hand, board: &millbase::rules::board::Board, set: u32) -> u32 {
    (0..h.points.len())
        .filter(|p| set & 1 << p != 0)
        .map(|p| 1 << board.point(h.points[p]).unwrap())
        .sum()
}

/// Three Men's Morris, solved here by brute force over every position
/// reachable from the start under this file's own rules: the crate's moves
/// are those rules' moves everywhere, and the start is a first-player win,
/// by the centre only (the published result for the board with diagonals).
#[test]
fn three_by_brute_force_is_won_by_the_centre_only() {
    use millbase::rules::generic::{Play, Position};
    let h = three();
    let play = Play::new(millbase::rules::ruleset::Rules::preset("three").unwrap());
    let naive = Naive::new(&h);
    let b = brute_force(&naive, (0, 0, 3, 3, true));
    for (pos, list) in b.order.iter().zip(&b.moves) {
        // the crate's moves of the same position, as texts
        let &(w, bl, wh, bh, white) = pos;
        let (m, o, mh, oh) = if white {
            (w, bl, wh, bh)
        } else {
            (bl, w, bh, wh)
        };
        let p = Position {
            mover: canonical_set(&h, play.rules().board(), m),
            opponent: canonical_set(&h, play.rules().board(), o),
            mover_hand: mh,
            opponent_hand: oh,
            white_to_move: white,
        };
        let mut ours: Vec<String> = (play.moves(&p).into_iter())
            .map(|m| play.move_text(m))
            .collect();
        let mut theirs: Vec<String> = list.iter().map(|&(mv, _)| naive.text(mv)).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{pos:?}");
    }
    assert!(b.order.len() > 1000, "{} positions", b.order.len());
    assert_eq!(b.value[0], 1, "the start is a win for White");
    let winning: Vec<String> = (b.moves[0].iter())
        .filter(|(_, k)| b.value[*k] == -1)
        .map(|&(mv, _)| naive.text(mv))
        .collect();
    assert_eq!(winning, ["b2"]);
}

/// The databases `generate` makes of other boards hold the brute force's
/// value and plies for every position of the game reachable from the
/// start: Three Men's Morris whole, Six and Seven Men's Morris where each
/// side starts with 4 stones (their complete databases are checked by
/// `verify`, each stored value against its children's).
#[test]
fn databases_of_other_boards_equal_the_brute_force() {
    use millbase::build::generate::{Silent, generate};
    use millbase::index::{Indexer, plan::Limits};
    use millbase::rules::position::{Color, Position};
    use millbase::solve::value::Value;
    for (name, h, stones) in [
        ("three", three(), 3),
        ("six", six(), 4),
        ("seven", seven(), 4),
    ] {
        let rules = millbase::rules::ruleset::Rules::preset(name).unwrap();
        let variant = millbase::Variant::of_rules(&rules).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits {
            max_stones: stones,
            max_total: 2 * stones,
            placement: true,
            move_limit: None,
        };
        let ix = Indexer::of(variant.geometry());
        generate(dir.path(), variant, limits, &ix, &Silent).unwrap();
        let db = millbase::answer::query::Database::open(dir.path()).unwrap();
        let b = brute_force(&Naive::new(&h), (0, 0, stones, stones, true));
        let mut checked = 0;
        for (i, &(w, bl, wh, bh, white)) in b.order.iter().enumerate() {
            if b.moves[i].is_empty() {
                continue; // the game is over: no entry to read
            }
            let side = if white { Color::White } else { Color::Black };
            let (w, bl) = (
                canonical_set(&h, rules.board(), w),
                canonical_set(&h, rules.board(), bl),
            );
            let pos = Position::from_colors(w, bl, (wh, bh), side);
            let want = match b.value[i] {
                1 => Value::Win(b.plies[i]),
                -1 => Value::Loss(b.plies[i]),
                _ => Value::Draw,
            };
            let got = db.probe(&pos).unwrap();
            assert_eq!(got, want, "{name}: {}", pos.text(variant.geometry()));
            checked += 1;
        }
        assert!(checked > 500, "{name}: {checked} positions");
        let start = match b.value[0] {
            1 => "a first-player win",
            -1 => "a second-player win",
            _ => "a draw",
        };
        eprintln!("{name}, {stones} stones: {checked} positions agree; the start is {start}");
    }
}

/// `show --rules` plays a game on another board and draws it from the
/// description; a move not legal there exits 2 naming it.
#[test]
fn show_plays_and_draws_another_board() {
    let o = run(&[
        "show",
        "--rules",
        "three",
        "--moves",
        "1. b2 a1 2. c1 a3 3. a2 b1",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = out(&o);
    assert!(text.contains("BBWWW.B.. w 0 0"), "{text}");
    assert!(
        text.starts_with("3 B---.---.\n  | \\ | / |\n2 W---W---."),
        "{text}"
    );
    // c1-c2 closes the middle row and takes a stone: Black, left with 2,
    // has lost, and no move follows
    let won = "b2 a1 c1 a3 a2 b1 c1-c2xa1";
    let o = run(&["show", "--rules", "three", "--moves", won]);
    assert!(out(&o).contains("Black has lost."), "{}", out(&o));
    let o = run(&[
        "show",
        "--rules",
        "three",
        "--moves",
        &format!("{won} a3-a2"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("move 8 (a3-a2)") && e.contains("the game is over"),
        "{e}"
    );
    let o = run(&[
        "show",
        "--rules",
        "three",
        "--moves",
        "b2 a1 c1 a3 a2 b1 c1-c2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("move 7 (c1-c2)") && e.contains("c1-c2xa1"),
        "{e}"
    );
}
