//! One game, one answer: the same games sent through every front end (the
//! command line's `query` text and JSON, `line`, `review` and `probe`, and the
//! API's `/api/query`, `/api/mainline`, `/api/review` and `/api/play`), on
//! databases with the no-removal rule's tables at limits 100 and 20 and
//! without them, get the same answer everywhere. The games end by the
//! counter, by repetition, by stones and by a blocked side, or go on.

mod common;

use axum::http::StatusCode;
use common::{run, run_with_input, shared_db};
use serde_json::Value as Json;

/// A game: the database it is asked of, its start, the counter given, its
/// moves, and how it must end (`None`: it goes on).
struct Case {
    db: &'static str,
    start: &'static str,
    counter: Option<u16>,
    moves: &'static str,
    end: Option<&'static str>,
}

/// 3 against 3, White to move; with flying.
const THREES: &str = "W.W.....B.......W....B.B w 0 0";

const CASES: [Case; 11] = [
    // over by the counter: the game
    Case {
        db: "rule100",
        start: THREES,
        counter: Some(99),
        moves: "d5-e5",
        end: Some("no-removal"),
    },
    Case {
        db: "rule100",
        start: THREES,
        counter: Some(97),
        moves: "d5-e5 e3-c3",
        end: None,
    },
    Case {
        db: "rule20",
        start: THREES,
        counter: None,
        moves: "d5-e5 e3-c3",
        end: None,
    },
    Case {
        db: "rule20",
        start: THREES,
        counter: Some(18),
        moves: "d5-e5 e3-c3",
        end: Some("no-removal"),
    },
    Case {
        db: "plain",
        start: THREES,
        counter: None,
        moves: "d5-e5 e3-c3",
        end: None,
    },
    // over by repetition: the start stands for the third time
    Case {
        db: "rule100",
        start: THREES,
        counter: None,
        moves: "d5-e5 g7-f6 e5-d5 f6-g7 d5-e5 g7-f6 e5-d5 f6-g7",
        end: Some("repetition"),
    },
    Case {
        db: "plain",
        start: THREES,
        counter: None,
        moves: "d5-e5 g7-f6 e5-d5 f6-g7 d5-e5 g7-f6 e5-d5 f6-g7",
        end: Some("repetition"),
    },
    // over by stones: a mill takes Black down to 2
    Case {
        db: "rule20",
        start: "WW.....BB..........W.B.. w 0 0",
        counter: None,
        moves: "d6-g1xd3",
        end: Some("stones"),
    },
    Case {
        db: "plain",
        start: "WW.....BB..........W.B.. w 0 0",
        counter: None,
        moves: "d6-g1xd3",
        end: Some("stones"),
    },
    // over by a blocked side: without flying, Black shuts White in
    Case {
        db: "noflying",
        start: "WWW.B....B...B.......... b 0 0",
        counter: None,
        moves: "f4-g4",
        end: Some("blocked"),
    },
    Case {
        db: "noflying",
        start: "WWW.B....B...B.......... b 0 0",
        counter: None,
        moves: "f4-f6",
        end: None,
    },
];

/// The 3-stone databases the cases name, built once for this file's tests.
fn databases() -> Vec<(&'static str, &'static common::Fixture)> {
    vec![
        ("rule100", shared_db(&["--max-stones", "3"])),
        (
            "rule20",
            shared_db(&["--max-stones", "3", "--move-limit", "20"]),
        ),
        (
            "plain",
            shared_db(&["--max-stones", "3", "--no-rule-tables"]),
        ),
        ("noflying", shared_db(&["--max-stones", "3", "--no-flying"])),
    ]
}

/// The command line's JSON answer of `args`, which must succeed.
fn cli_json(args: &[String]) -> Json {
    let o = run(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

use common::api_get as get;

/// The standing of an answer or a line: the fields both carry.
fn standing(v: &Json) -> Json {
    let keys = ["position", "value", "plies", "counter", "category", "dtc"];
    let mut out = serde_json::Map::new();
    for k in keys {
        out.insert(k.to_string(), v.get(k).cloned().unwrap_or(Json::Null));
    }
    Json::Object(out)
}

/// What ranks a move of an answer: its category, distance and plies.
fn rank(m: &Json) -> (Json, Json, Json, Json) {
    (
        m["value"].clone(),
        m["plies"].clone(),
        m["category"].clone(),
        m["dtc"].clone(),
    )
}

#[tokio::test]
async fn every_front_end_gives_a_game_the_same_answer() {
    let dbs = databases();
    for case in &CASES {
        let dir = &dbs.iter().find(|(n, _)| *n == case.db).unwrap().1;
        let db = dir.path().to_str().unwrap();
        let what = format!(
            "{} {} counter {:?} moves {:?}",
            case.db, case.start, case.counter, case.moves
        );
        let cli = |cmd: &str, json: bool| {
            let mut a: Vec<String> = [cmd, "--db", db].iter().map(|s| s.to_string()).collect();
            if cmd == "review" {
                a.extend(["--position".into(), case.start.into()]);
            } else {
                a.push(case.start.into());
            }
            a.extend(["--moves".into(), case.moves.into()]);
            if let Some(c) = case.counter {
                a.extend(["--counter".into(), c.to_string()]);
            }
            if json {
                a.push("--json".into());
            }
            a
        };
        let api = |route: &str| {
            let mut uri = format!(
                "/api/{route}?position={}&moves={}",
                case.start.replace(' ', "%20"),
                case.moves.replace(' ', "%20")
            );
            if let Some(c) = case.counter {
                uri.push_str(&format!("&counter={c}"));
            }
            uri
        };

        // query: the command line's JSON and the API's are one answer
        let answer = cli_json(&cli("query", true));
        let (status, served) = get(dir.path(), &api("query")).await;
        assert_eq!(status, StatusCode::OK, "{what}: {served}");
        assert_eq!(served, answer, "{what}: /api/query against query --json");
        let reason = answer["game"]["result"]["reason"].as_str();
        assert_eq!(reason, case.end, "{what}: the game's end: {answer}");
        let over = case.end.is_some();
        if over {
            assert_eq!(answer["result"], answer["game"]["result"], "{what}");
            assert_eq!(answer["moves"], serde_json::json!([]), "{what}");
            // a drawn game has no standing under the rule; a lost one is a
            // loss in 0 plies under it too, where the tables are there
            let lost = matches!(case.end, Some("stones" | "blocked"));
            let ruled = lost && case.db != "plain";
            assert_eq!(answer.get("counter").is_some(), ruled, "{what}: {answer}");
            let value = if lost { "loss" } else { "draw" };
            assert_eq!(answer["value"], value, "{what}: {answer}");
        } else {
            // under the rule exactly where the database holds its tables
            let ruled = case.db != "plain";
            assert_eq!(answer.get("category").is_some(), ruled, "{what}: {answer}");
            if ruled {
                assert_eq!(answer["counter"], answer["game"]["counter"], "{what}");
            }
        }

        // the text says the game is over exactly where it is
        let o = run(&cli("query", false));
        assert!(o.status.success(), "{what}");
        let text = String::from_utf8_lossy(&o.stdout);
        assert_eq!(text.contains("The game is over"), over, "{what}: {text}");

        // line and /api/mainline: one line, standing where the answer stands
        let line = cli_json(&cli("line", true));
        let (status, served) = get(dir.path(), &api("mainline")).await;
        assert_eq!(status, StatusCode::OK, "{what}: {served}");
        assert_eq!(served, line, "{what}: /api/mainline against line --json");
        assert_eq!(
            standing(&line),
            standing(&answer),
            "{what}: line against query"
        );
        if over {
            assert_eq!(
                line["line"],
                serde_json::json!([]),
                "{what}: a line past the end"
            );
            assert_eq!(line["result"], answer["result"], "{what}");
        } else if let Some(first) = line["line"].as_array().unwrap().first() {
            // the line's first move is one of the answer's best
            let played = (answer["moves"].as_array().unwrap().iter())
                .find(|m| m["move"] == first["move"])
                .unwrap();
            assert_eq!(rank(played), rank(&answer["moves"][0]), "{what}");
        }

        // review and /api/review: the same judgement of every move
        let review = cli_json(&cli("review", true));
        let (status, served) = get(dir.path(), &api("review")).await;
        assert_eq!(status, StatusCode::OK, "{what}: {served}");
        assert_eq!(served, review, "{what}: /api/review against review --json");
        let plies = case.moves.split_whitespace().count();
        assert_eq!(review["moves"].as_array().unwrap().len(), plies, "{what}");

        // /api/play: none after the end, else one of the best moves
        let (status, played) = get(dir.path(), &format!("{}&level=perfect", api("play"))).await;
        if over {
            assert_eq!(status, StatusCode::CONFLICT, "{what}: {played}");
        } else {
            assert_eq!(status, StatusCode::OK, "{what}: {played}");
            let m = (answer["moves"].as_array().unwrap().iter())
                .find(|m| m["move"] == played["move"])
                .unwrap_or_else(|| panic!("{what}: {played} is not a move of {answer}"));
            assert_eq!(rank(m), rank(&answer["moves"][0]), "{what}: {played}");
        }

        // probe answers the start as query does, at counter 0
        if case.counter.is_none() {
            let o = run_with_input(&["probe", "--db", db], &format!("{}\n", case.start));
            let probed: Json = serde_json::from_slice(&o.stdout).unwrap();
            let q = ["query", "--db", db, case.start, "--json"].map(String::from);
            assert_eq!(probed, cli_json(&q), "{what}: probe against query");
        }
    }
}

/// A counter the database cannot answer under is refused alike by the
/// command line (status 2) and the API (400), before anything is printed.
#[tokio::test]
async fn a_counter_out_of_range_is_refused_everywhere() {
    let dbs = databases();
    for (name, counter) in [
        ("rule20", 20),
        ("rule20", 99),
        ("plain", 0),
        ("rule100", 100),
    ] {
        let dir = &dbs.iter().find(|(n, _)| *n == name).unwrap().1;
        let db = dir.path().to_str().unwrap();
        let c = counter.to_string();
        for cmd in ["query", "line", "review"] {
            let mut a = vec![cmd, "--db", db, "--counter", &c, "--moves", "d5-e5"];
            if cmd == "review" {
                a.extend(["--position", THREES]);
            } else {
                a.push(THREES);
            }
            let o = run(&a);
            assert_eq!(o.status.code(), Some(2), "{name} {cmd} --counter {c}");
            assert!(o.stdout.is_empty(), "{name} {cmd}: printed before refusing");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains(&format!("counter {c}")), "{err}");
        }
        for route in ["query", "mainline", "review"] {
            let uri = format!(
                "/api/{route}?position={}&moves=d5-e5&counter={c}",
                THREES.replace(' ', "%20")
            );
            let (status, v) = get(dir.path(), &uri).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{name} {uri}: {v}");
        }
    }
}
