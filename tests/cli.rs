//! End-to-end runs of the `millbase` binary.

mod common;

use common::run;
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn show_draws_the_board() {
    let o = run(&["show", "WWW.B....B....B.....B... b 0 0"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("1 W-----------W-----------W"), "{text}");
    assert!(
        text.contains("Black to move; in hand: White 0, Black 0"),
        "{text}"
    );
}

#[test]
fn moves_json_lists_every_move() {
    let o = run(&["moves", "........................ w 9 9", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["position"], "........................ w 9 9");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 24);
    assert_eq!(moves[0]["move"], "a1");
    assert_eq!(moves[0]["position"], "W....................... b 8 9");
}

#[test]
fn no_flying_changes_the_move_list() {
    let pos = "WWW.B....B....B.....B... w 0 0";
    let fly = stdout(&run(&["moves", pos])).lines().count();
    let slide = stdout(&run(&["moves", pos, "--no-flying"])).lines().count();
    assert_eq!((fly, slide), (51, 0));
}

#[test]
fn perft_json() {
    let o = run(&["perft", "........................ w 9 9", "4", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v, serde_json::json!({"depth": 4, "nodes": 255024}));
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for args in [
        vec!["show", "........................ w 9"],
        vec!["show", "......Q................. w 9 9"],
        vec!["moves", "WWWWWWWWWW.............. w 0 0"],
        vec!["perft", "........................ w 9 9", "x"],
        vec!["frobnicate"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(o.stdout.is_empty());
    }
    let err = String::from_utf8(run(&["show", "......Q................. w 9 9"]).stderr).unwrap();
    assert!(err.contains("'Q'") && err.contains("c3"), "{err}");
}

#[test]
fn solve_opening_json_agrees_with_query() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let o = run(&["generate", "--db", db, "--max-stones", "3", "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pos = "........................ w 3 3";
    let o = run(&["solve-opening", "--db", db, "--position", pos, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["position"], pos);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().is_some());
    let q = run(&["query", "--db", db, pos, "--json"]);
    assert!(q.status.success(), "{}", String::from_utf8_lossy(&q.stderr));
    let q: serde_json::Value = serde_json::from_str(stdout(&q).trim()).unwrap();
    assert_eq!(v["value"], q["value"]);
    assert_eq!(q["moves"].as_array().unwrap().len(), 24);
    // the best move's value agrees with the position's value
    let best = &q["moves"][0];
    let expect_child = match q["value"].as_str().unwrap() {
        "win" => "loss",
        "loss" => "win",
        _ => "draw",
    };
    assert_eq!(best["value"], expect_child);
    // a database that is missing subspaces the search needs gives a clean error
    let o = run(&[
        "solve-opening",
        "--db",
        db,
        "--position",
        "........................ w 4 4",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not in the database"));
}
