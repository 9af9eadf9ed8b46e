//! End-to-end runs of the `millbase` binary.

mod brute;
mod common;
mod naive;

use brute::{Brute, Minimax, Placement, all_sets, movement};
use common::{generated, run};
use millbase::Variant;
use millbase::rules::position::Position;
use millbase::solve::known::Kind;
use millbase::solve::value::Value;
use millbase::storage::Speed;
use naive::Naive;
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

/// The keys of a JSON object, sorted.
fn keys(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

/// A database of the 3-against-3 game, shared by the tests that only read
/// it.
fn three_stone_db() -> &'static common::Fixture {
    common::shared_db(&["--max-stones", "3"])
}

/// A database of the 3-against-3 game and the brute-force values of 3-3
/// (solved once for all the tests of this file).
fn three_stones() -> (&'static common::Fixture, &'static Brute) {
    static BRUTE: std::sync::OnceLock<Brute> = std::sync::OnceLock::new();
    let brute = BRUTE.get_or_init(|| {
        let mut brute = Brute::new(Variant::default());
        brute.solve_group(&[(3, 3)]);
        brute
    });
    (three_stone_db(), brute)
}

fn value_of(v: Value) -> (&'static str, Option<u64>) {
    (v.name(), v.plies().map(u64::from))
}

#[test]
fn solve_opening_agrees_with_an_independent_minimax() {
    let (dir, brute) = three_stones();
    let db = dir.path().to_str().unwrap();
    let pos = "........................ w 3 3";
    let want = Minimax::new(brute).value(&pos.parse().unwrap());
    // from the tables, and by search as an independent check
    for (extra, source) in [(None, "table"), (Some("--search"), "search")] {
        let mut args = vec![
            "solve-opening",
            "--db",
            db,
            "--position",
            pos,
            "--json",
            "--exact",
        ];
        args.extend(extra);
        let o = run(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(
            keys(&v),
            ["nodes", "plies", "position", "seconds", "source", "value"]
        );
        assert_eq!(v["position"], pos);
        assert_eq!(v["source"], source);
        assert_eq!(
            (v["value"].as_str().unwrap(), v["plies"].as_u64()),
            value_of(want)
        );
        assert_eq!(v["nodes"].as_u64().unwrap() > 0, source == "search");
        assert!(v["seconds"].as_f64().is_some());
    }
    // a search without --exact: the value only, plies null
    let o = run(&[
        "solve-opening",
        "--search",
        "--db",
        db,
        "--position",
        pos,
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["value"], want.name());
    assert!(v.get("plies").is_some_and(|p| p.is_null()));
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

#[test]
fn query_json_has_every_field_of_the_rules() {
    let (dir, brute) = three_stones();
    let db = dir.path().to_str().unwrap();
    let mut minimax = Minimax::new(brute);
    // a win in one (its captures leave Black below 3), a drawn movement position
    // (found by the brute force), and a placement position
    let draw = all_sets(3)
        .into_iter()
        .flat_map(|m| all_sets(3).into_iter().map(move |o| (m, o)))
        .find(|&(m, o)| m & o == 0 && brute.value(m, o) == Value::Draw)
        .map(|(m, o)| movement(m, o).to_string())
        .unwrap();
    let mut saw = (false, false);
    for pos in [
        "WW.....BB..........W.B.. w 0 0",
        draw.as_str(),
        "W..B.W..B............... w 1 1",
    ] {
        let o = run(&["query", "--db", db, pos, "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        // the database has the tables of the no-removal rule (limit 100):
        // the standing at counter 0 comes too
        assert_eq!(
            keys(&v),
            [
                "category", "counter", "dtc", "moves", "plies", "position", "rules", "source",
                "value"
            ],
            "{pos}"
        );
        assert_eq!(v["counter"], 0);
        assert_eq!(v["rules"]["name"], "nine");
        // a counter outside 0..L is the user's error: status 2, named
        let o = run(&["query", "--db", db, pos, "--json", "--counter", "100"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("0..100"));
        assert_eq!(v["source"], "table", "{pos}");
        assert_eq!(v["position"], pos);
        let p: Position = pos.parse().unwrap();
        assert_eq!(
            (v["value"].as_str().unwrap(), v["plies"].as_u64()),
            value_of(minimax.value(&p)),
            "{pos}"
        );
        // every move of the naive rules, each with the value of the position after it
        let mut want: Vec<(String, String)> = Naive::parse(pos, true)
            .children()
            .into_iter()
            .map(|(m, c)| (m, c.text()))
            .collect();
        want.sort();
        let mut got = vec![];
        for m in v["moves"].as_array().unwrap() {
            assert_eq!(
                keys(m),
                [
                    "category", "counter", "dtc", "move", "plies", "position", "value"
                ],
                "{pos}"
            );
            // the counter after the move: 0 after a removal, else one more
            let removes = m["move"].as_str().unwrap().contains('x');
            assert_eq!(m["counter"], if removes { 0 } else { 1 }, "{pos}: {m}");
            // (a position whose side to move is below 3 does not parse: read it naively)
            let after = Naive::parse(m["position"].as_str().unwrap(), true).to_position();
            let child = minimax.value(&after);
            assert_eq!(
                (m["value"].as_str().unwrap(), m["plies"].as_u64()),
                value_of(child),
                "{pos} {}",
                m["move"]
            );
            // plies is present, and null exactly for a draw
            assert_eq!(m["plies"].is_null(), child == Value::Draw, "{m}");
            saw.0 |= child == Value::Draw;
            // a capture that leaves the opponent below 3: a loss at 0 for it
            if after.mover_total() < 3 {
                assert_eq!(
                    (m["value"].as_str(), m["plies"].as_u64()),
                    (Some("loss"), Some(0))
                );
                saw.1 = true;
            }
            got.push((
                m["move"].as_str().unwrap().to_string(),
                m["position"].as_str().unwrap().to_string(),
            ));
        }
        got.sort();
        assert_eq!(got, want, "{pos}");
    }
    assert_eq!(
        saw,
        (true, true),
        "a drawn child and a capture to below 3 were seen"
    );
}

#[test]
fn subspaces_and_stats_json_have_every_field() {
    let o = run(&["subspaces", "--json"]);
    assert!(o.status.success());
    let all: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let n = |r: &serde_json::Value, k: &str| r[k].as_u64().unwrap();
    // the 49 movement subspaces, then the placement sectors (stones in hand)
    let rows: Vec<serde_json::Value> = all
        .iter()
        .filter(|r| n(r, "mover_hand") + n(r, "opponent_hand") == 0)
        .cloned()
        .collect();
    assert_eq!(rows.len(), 49);
    assert!(all.len() > 49);
    for r in &all {
        assert_eq!(
            keys(r),
            [
                "classes",
                "density",
                "index_size",
                "mover",
                "mover_hand",
                "opponent",
                "opponent_hand"
            ]
        );
        let d = n(r, "classes") as f64 / n(r, "index_size") as f64;
        assert!((r["density"].as_f64().unwrap() - d).abs() < 1e-6);
    }
    // the totals published for an independent solver with the same index sizes
    // (data/README.md): classes and index slots of all 49 subspaces
    let total = |k: &str| rows.iter().map(|r| n(r, k)).sum::<u64>();
    assert_eq!(total("classes"), 8_904_593_601);
    assert_eq!(total("index_size"), 9_193_626_407);

    let dir = three_stone_db();
    let db = dir.path();
    let o = run(&["stats", "--db", db.to_str().unwrap(), "--json"]);
    assert!(o.status.success());
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // the movement subspace and every placement sector of the 3-stone game
    assert_eq!(lines.len(), 1 + Placement::sectors(3).len());
    let line = &lines[0];
    assert_eq!(
        keys(line),
        [
            "all_draws",
            "all_losses",
            "all_wins",
            "bytes",
            "classes",
            "draws",
            "losses",
            "max_loss_plies",
            "max_win_plies",
            "mover",
            "mover_hand",
            "opponent",
            "opponent_hand",
            "raw_bytes",
            "wins"
        ]
    );
    let file = std::fs::metadata(db.join("3-3-0-0.mdb")).unwrap().len();
    assert_eq!(n(line, "bytes"), file);
    for l in &lines[1..] {
        let name = format!(
            "{}-{}-{}-{}.mdb",
            n(l, "mover"),
            n(l, "opponent"),
            n(l, "mover_hand"),
            n(l, "opponent_hand")
        );
        assert_eq!(
            n(l, "bytes"),
            std::fs::metadata(db.join(&name)).unwrap().len()
        );
        let row = all
            .iter()
            .find(|r| {
                ["mover", "opponent", "mover_hand", "opponent_hand"]
                    .iter()
                    .all(|k| r[k] == l[k])
            })
            .unwrap();
        assert_eq!(n(l, "classes"), n(row, "classes"), "{name}");
        assert_eq!(n(l, "raw_bytes"), n(row, "index_size"), "{name}");
    }
    let sub = &rows
        .iter()
        .find(|r| n(r, "mover") == 3 && n(r, "opponent") == 3)
        .unwrap();
    assert_eq!(n(line, "raw_bytes"), n(sub, "index_size"));
    assert_eq!(n(line, "classes"), n(sub, "classes"));
}

#[test]
fn the_longest_positions_are_the_brute_forces_longest() {
    let (dir, brute) = three_stones();
    let o = run(&[
        "stats",
        "--db",
        dir.path().to_str().unwrap(),
        "--longest",
        "2",
        "--json",
    ]);
    let r: serde_json::Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(
        (
            r["mover"].as_u64(),
            r["opponent"].as_u64(),
            r["mover_hand"].as_u64()
        ),
        (Some(3), Some(3), Some(0))
    );
    // the longest win and loss over every position, by the brute force
    let (mut win, mut loss) = (0u16, 0u16);
    for m in all_sets(3) {
        for o in all_sets(3).into_iter().filter(|o| o & m == 0) {
            match brute.value(m, o) {
                Value::Win(n) => win = win.max(n),
                Value::Loss(n) => loss = loss.max(n),
                Value::Draw => {}
            }
        }
    }
    for (key, kind, most) in [
        ("longest_wins", "win", win),
        ("longest_losses", "loss", loss),
    ] {
        let list = r[key].as_array().unwrap();
        assert_eq!(list.len(), 2, "{key}");
        for rec in list {
            let pos: Position = rec["position"].as_str().unwrap().parse().unwrap();
            let v = brute.value(pos.mover, pos.opponent);
            assert_eq!((v.name(), v.plies()), (kind, Some(most)), "{rec}");
            assert_eq!(rec["plies"].as_u64(), Some(most as u64));
        }
    }
}

#[test]
fn checksums_are_sha256_of_the_files_and_catch_a_change() {
    let dir = generated(&["--max-stones", "3"]);
    let db = dir.path().to_str().unwrap();
    let list = stdout(&run(&["checksums", "--db", db]));
    let files: Vec<&str> = list.lines().map(|l| &l[66..]).collect();
    assert_eq!(files[0], "3-3-0-0.mdb", "{list}");
    // every game file, then every rule table (limit 100), named by its folder
    let games = 1 + Placement::sectors(3).len();
    assert_eq!(files.len(), 2 * games, "{list}");
    assert!(files[..games].iter().all(|f| !f.contains('/')), "{list}");
    assert!(
        (files[games..].iter()).all(|f| f
            .strip_prefix("no-removal-100/")
            .is_some_and(|g| files[..games].contains(&g))),
        "{list}"
    );
    // the same lines as coreutils' sha256sum, an implementation of its own
    let o = std::process::Command::new("sha256sum")
        .args(&files)
        .current_dir(dir.path())
        .output()
        .expect("sha256sum (coreutils) checks the checksums: install coreutils");
    assert!(o.status.success());
    assert_eq!(list, String::from_utf8(o.stdout).unwrap());
    let file = dir.path().join("sums.txt");
    std::fs::write(&file, &list).unwrap();
    let ok = run(&["checksums", "--db", db, "--check", file.to_str().unwrap()]);
    assert!(
        stdout(&ok).starts_with(&format!("ok: {} files", files.len())),
        "{}",
        stdout(&ok)
    );
    // one byte changed in the table: found
    let table = dir.path().join("3-3-0-0.mdb");
    let mut bytes = std::fs::read(&table).unwrap();
    let n = bytes.len();
    bytes[n - 1] ^= 1;
    std::fs::write(&table, bytes).unwrap();
    let bad = run(&["checksums", "--db", db, "--check", file.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stdout).contains("3-3-0-0.mdb: differs"));
    // a rule table removed: named as missing
    std::fs::remove_file(dir.path().join("no-removal-100/0-0-3-3.mdb")).unwrap();
    let bad = run(&["checksums", "--db", db, "--check", file.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1));
    let out = String::from_utf8_lossy(&bad.stdout);
    assert!(out.contains("no-removal-100/0-0-3-3.mdb: missing"), "{out}");
}

#[test]
fn resuming_keeps_the_directorys_variant_and_moves_read_it() {
    let dir = generated(&["--max-stones", "3", "--no-flying"]);
    let db = dir.path().to_str().unwrap();
    // no flag: the directory's no-flying variant, the new subspaces added to it
    let o = run(&["generate", "--db", db, "--max-stones", "4", "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // the 3-stone game was there: its movement subspace and placement sectors
    let before = 1 + Placement::sectors(3).len();
    let after = 4 + Placement::sectors(4).len();
    assert!(
        stdout(&o).contains(&format!(
            "({} solved now, {before} already there)",
            after - before
        )),
        "{}",
        stdout(&o)
    );
    let manifest = std::fs::read_to_string(dir.path().join("millbase.json")).unwrap();
    assert!(manifest.contains("no-flying"));
    // White with 3 stones slides only in this database's variant
    let pos = "WWW.B....B....B.....B... w 0 0";
    assert_eq!(stdout(&run(&["moves", pos, "--db", db])), "");
    assert_eq!(stdout(&run(&["moves", pos])).lines().count(), 51);
}

#[test]
fn without_rule_tables_a_later_run_adds_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let gen_args = |extra: &[&'static str]| {
        let mut a = vec!["generate", "--db", db, "--max-stones", "3", "--quiet"];
        a.extend_from_slice(extra);
        run(&a)
    };
    let rule_dir = dir.path().join("no-removal-100");
    let o = gen_args(&["--no-rule-tables"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!rule_dir.exists());
    let pos = "WW.....BB..........W.B.. w 0 0";
    let o = run(&["query", pos, "--db", db, "--counter", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no tables of the no-removal rule"));
    // a later run keeps the game's files and adds the rule's
    let o = gen_args(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sectors = 1 + Placement::sectors(3).len();
    assert!(
        stdout(&o).contains(&format!("{sectors} already there")),
        "{}",
        stdout(&o)
    );
    assert!(rule_dir.join("3-3-0-0.mdb").exists());
    let o = run(&["query", pos, "--db", db, "--counter", "3", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("\"category\""));
    // the flag and a move limit contradict each other
    assert_eq!(
        gen_args(&["--no-rule-tables", "--move-limit", "50"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn compare_finds_tables_and_search_agree_and_catches_a_wrong_table() {
    use millbase::storage::dir::{DbDir, encoding_for, file_name};
    use millbase::storage::write_table;
    let dir = generated(&["--max-stones", "4", "--no-rule-tables", "--no-flying"]);
    let db = dir.path().to_str().unwrap();
    // without flying, most random 4-stone placement positions are decided
    let start = "........................ w 4 4";
    let compare = |extra: &[&str]| {
        let mut a = vec!["solve-opening", "--db", db, "--position", start, "--json"];
        a.extend_from_slice(&["--compare", "60", "--seed", "5"]);
        a.extend_from_slice(extra);
        let o = run(&a);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (o.status.code(), v)
    };
    let (status, v) = compare(&["--exact"]);
    assert_eq!(status, Some(0), "{v}");
    assert_eq!(v["positions"], 60);
    assert!(v["moves"].as_u64().unwrap() > 600, "{v}");
    assert_eq!(v["disagreements"].as_array().unwrap().len(), 0);
    // put in the placement sectors' files of the flying game: consistent
    // among themselves, but resting on other movement tables; the search,
    // which reads this database's movement tables only, disagrees
    let flying = generated(&["--max-stones", "4", "--no-rule-tables"]);
    let (from, dbdir) = (
        DbDir::open(flying.path()).unwrap(),
        DbDir::open(dir.path()).unwrap(),
    );
    for sub in dbdir.present() {
        if sub.is_movement() {
            continue;
        }
        let t = from.open_table(Kind::Game, sub).unwrap();
        write_table(
            &dir.path().join(file_name(sub)),
            Variant::nine(false),
            sub,
            (&t.read_all().unwrap(), None),
            t.header.counts,
            encoding_for(Kind::Game, sub),
            Speed::Small,
        )
        .unwrap();
    }
    let (status, v) = compare(&[]);
    assert_eq!(status, Some(1), "{v}");
    assert!(v["disagreements"].as_array().unwrap().len() > 30, "{v}");
    let o = run(&[
        "solve-opening",
        "--db",
        db,
        "--position",
        start,
        "--compare",
        "1",
        "--min-ply",
        "8",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("take K below 8"));
}

/// A database with the rule's tables for two move limits is refused by the
/// commands that answer, naming both limits and the way out; `--rule-limit`
/// chooses one, and the answer is that limit's.
#[test]
fn two_move_limits_are_chosen_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    for limit in ["100", "20"] {
        let o = run(&[
            "generate",
            "--db",
            db,
            "--max-stones",
            "3",
            "--quiet",
            "--move-limit",
            limit,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let pos = "WW.....BB..........W.B.. w 0 0";
    for args in [
        vec!["query", "--db", db, pos, "--json"],
        vec!["line", "--db", db, pos, "--json"],
        vec!["probe", "--db", db],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("[20, 100]") && err.contains("--rule-limit"),
            "{args:?}: {err}"
        );
    }
    for (limit, other) in [("20", "100"), ("100", "20")] {
        let o = run(&["query", "--db", db, pos, "--json", "--rule-limit", limit]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["counter"], 0, "{v}");
        // d6-c3 loses in 20 plies: a blessed loss under the 20-ply limit only
        let m = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == "d6-c3");
        let want = if limit == "20" {
            "blessed-loss"
        } else {
            "loss"
        };
        assert_eq!(m.unwrap()["category"], want, "{limit}");
        // the counter must be below the chosen limit, not the other one
        let below_other = (other.parse::<u16>().unwrap() - 1).to_string();
        let o = run(&[
            "query",
            "--db",
            db,
            pos,
            "--json",
            "--rule-limit",
            limit,
            "--counter",
            &below_other,
        ]);
        assert_eq!(
            o.status.success(),
            limit == "100",
            "{limit}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let o = run(&["query", "--db", db, pos, "--rule-limit", "50"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("move limit 50"));
}

/// `generate --movement-only` writes the movement subspaces and no placement
/// sector, and a placement position is then answered by search.
#[test]
fn generate_movement_only_stores_no_placement_sector() {
    let dir = generated(&["--max-stones", "3", "--movement-only", "--no-rule-tables"]);
    let db = dir.path().to_str().unwrap();
    let files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".mdb"))
        .collect();
    let placement: Vec<&String> = files.iter().filter(|n| !n.ends_with("-0-0.mdb")).collect();
    assert!(placement.is_empty(), "{placement:?}");
    assert_eq!(files.len(), 1, "{files:?}"); // 3-3, its own colour swap
    let o = run(&[
        "query",
        "--db",
        db,
        "........................ w 3 3",
        "--json",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["source"], "search", "{v}");
}

/// A finished game is answered, not refused, by every command that answers:
/// a loss in 0 plies with who won and why (docs/RULES.md).
#[test]
fn a_finished_game_is_a_result_everywhere() {
    let dir = common::shared_db(&["--max-stones", "3", "--no-flying"]);
    let db = dir.path().to_str().unwrap();
    // Black, to move, has 2 stones; White, to move, is hemmed in
    for (pos, winner, reason) in [
        ("WWW......BB............. b 0 0", "white", "stones"),
        ("WWW.B....B....B......... w 0 0", "black", "blocked"),
    ] {
        let check = |v: &serde_json::Value, what: &str| {
            assert_eq!(v["value"], "loss", "{what}: {v}");
            assert_eq!(v["plies"], 0, "{what}: {v}");
            assert_eq!(v["result"]["winner"], winner, "{what}: {v}");
            assert_eq!(v["result"]["reason"], reason, "{what}: {v}");
        };
        let o = run(&["query", "--db", db, pos, "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        check(&serde_json::from_str(&stdout(&o)).unwrap(), "query");
        let o = run(&["line", "--db", db, pos, "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        check(&v, "line");
        assert_eq!(v["line"].as_array().unwrap().len(), 0);
        let o = common::run_with_input(&["probe", "--db", db], &format!("{pos}\n"));
        check(&serde_json::from_str(&stdout(&o)).unwrap(), "probe");
        let text = stdout(&run(&["query", "--db", db, pos]));
        let who = if winner == "white" {
            "White has won"
        } else {
            "White has lost"
        };
        assert!(text.contains(who), "{text}");
    }
    // the side NOT to move below 3 stones cannot be: an error naming it
    let o = run(&[
        "query",
        "--db",
        db,
        "WW.BBB.................. b 0 0",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("(not to move)"));
}

/// Game records as players write them: move numbers and upper case; a word
/// shaped like a point that is none is named; an unquoted position gets a
/// hint to quote it.
#[test]
fn records_and_positions_as_players_write_them() {
    let plain = run(&["show", "--moves", "d1 a1 d2 a4"]);
    assert!(
        plain.status.success(),
        "{}",
        String::from_utf8_lossy(&plain.stderr)
    );
    assert!(stdout(&plain).contains("BW..W....B.............. w 7 7"));
    let numbered = run(&["show", "--moves", "1. D1 A1, 2. d2 A4"]);
    assert_eq!(stdout(&numbered), stdout(&plain));
    let o = run(&["show", "--moves", "d1 b8"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("move 2") && err.contains("b8 is not a point"),
        "{err}"
    );
    let o = run(&["show", "WWW.....BB......B.......", "w", "0", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("hint: a position is one argument: quote it"),
        "{err}"
    );
}

/// `--moves` plays a game: the counter counts on from `--counter` and starts
/// again at a removal, repetitions are counted, and the third time a
/// position stands ends the game in a draw (docs/RULES.md, "Games").
#[test]
fn moves_play_a_game_with_its_counter_and_repetitions() {
    let dir = common::shared_db(&["--max-stones", "3"]);
    let db = dir.path().to_str().unwrap();
    let game = |pos: &str, moves: &str, counter: &str| -> serde_json::Value {
        let o = run(&[
            "query",
            "--db",
            db,
            pos,
            "--json",
            "--counter",
            counter,
            "--moves",
            moves,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_str::<serde_json::Value>(&stdout(&o)).unwrap()
    };
    // White flies d5 to e5 and back, Black e3 to c3 and back
    let pos = "W.W.....B.......W....B.B w 0 0";
    let v = game(pos, "d5-e5 e3-c3", "5");
    assert_eq!(v["game"]["counter"], 7, "{v}");
    assert_eq!(
        v["counter"], 7,
        "the answer stands at the game's counter: {v}"
    );
    assert_eq!(v["game"]["repetitions"], 1, "{v}");
    assert!(v["game"]["result"].is_null(), "{v}");
    let v = game(pos, "d5-e5 e3-c3 e5-d5 c3-e3", "0");
    assert_eq!(v["game"]["repetitions"], 2, "{v}");
    let v = game(pos, "d5-e5 e3-c3 e5-d5 c3-e3 d5-e5 e3-c3 e5-d5 c3-e3", "0");
    assert_eq!(v["game"]["repetitions"], 3, "{v}");
    assert_eq!(v["game"]["result"]["reason"], "repetition", "{v}");
    assert!(v["game"]["result"]["winner"].is_null(), "{v}");
    let text = stdout(&run(&[
        "query",
        "--db",
        db,
        pos,
        "--moves",
        "d5-e5 e3-c3 e5-d5 c3-e3 d5-e5 e3-c3 e5-d5 c3-e3",
    ]));
    assert!(
        text.contains("The game is over: threefold repetition: a draw."),
        "{text}"
    );
    // a removal starts the counter again, and here ends the game
    let v = game("WW.....BB..........W.B.. w 0 0", "d6-g1xd3", "40");
    assert_eq!(v["game"]["counter"], 0, "{v}");
    assert_eq!(v["game"]["result"]["winner"], "white", "{v}");
    assert_eq!(v["game"]["result"]["reason"], "stones", "{v}");
}

/// `review --json` of random games of the 3-stone game (placement and
/// movement) against the brute force: every move's value before and after it
/// from its mover's side, and its mark from those (best where no move does
/// better, keeps where one would, mistake and blunder by the outcome lost).
#[test]
fn review_marks_every_move_as_the_brute_force_does() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let dir = generated(&["--max-stones", "3", "--no-rule-tables"]);
    let db = dir.path().to_str().unwrap();
    let mut brute = Brute::new(Variant::default());
    brute.solve_group(&[(3, 3)]);
    let placement = Placement::solve(&brute, 3);
    // the mover's value after a move: the child's, seen from the other side
    let flip = |v: Value| match v {
        Value::Win(n) => Value::Loss(n),
        Value::Loss(n) => Value::Win(n),
        Value::Draw => Value::Draw,
    };
    let rank = |v: Value| match v {
        Value::Win(n) => (0, n as i32),
        Value::Draw => (1, 0),
        Value::Loss(n) => (2, -(n as i32)),
    };
    let outcome = |v: Value| rank(v).0;
    let mut rng = StdRng::seed_from_u64(3);
    let (mut marks, mut checked) = (std::collections::HashMap::new(), 0);
    for _ in 0..30 {
        let mut pos: Position = "........................ w 3 3".parse().unwrap();
        let mut record = vec![];
        let mut expected = vec![];
        while record.len() < 24 {
            let children = Naive::successors(&pos, true);
            if children.is_empty() || pos.mover_total() < 3 {
                break;
            }
            let list = millbase::rules::moves::legal_moves(&pos, Variant::default());
            let mv = list[rng.random_range(0..list.len())];
            let after = millbase::rules::moves::apply(&pos, mv);
            let before = placement.value(&pos);
            let played = flip(placement.value(&after));
            let best = (list.iter())
                .map(|&m| flip(placement.value(&millbase::rules::moves::apply(&pos, m))))
                .min_by_key(|&v| rank(v))
                .unwrap();
            let mark = match (outcome(best), outcome(played)) {
                (0, 2) => "blunder",
                (b, a) if a > b => "mistake",
                _ if rank(played) == rank(best) || outcome(best) == 1 => "best",
                _ => "keeps",
            };
            expected.push((before, played, mark));
            record.push(mv.to_string());
            pos = after;
        }
        if record.is_empty() {
            continue;
        }
        let moves = record.join(" ");
        let o = run(&[
            "review",
            "--db",
            db,
            "--position",
            "........................ w 3 3",
            "--moves",
            &moves,
            "--json",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let got = v["moves"].as_array().unwrap();
        assert_eq!(got.len(), expected.len(), "{moves}");
        for (g, (before, after, mark)) in got.iter().zip(&expected) {
            assert_eq!(g["before"]["value"], before.name(), "{moves}: {g}");
            assert_eq!(
                g["before"]["plies"].as_u64(),
                before.plies().map(u64::from),
                "{moves}: {g}"
            );
            assert_eq!(g["after"]["value"], after.name(), "{moves}: {g}");
            assert_eq!(
                g["after"]["plies"].as_u64(),
                after.plies().map(u64::from),
                "{moves}: {g}"
            );
            assert_eq!(g["mark"], *mark, "{moves}: {g}");
            assert_eq!(g["best"].is_null(), *mark == "best", "{moves}: {g}");
            *marks.entry(*mark).or_insert(0) += 1;
            checked += 1;
        }
        // the summary counts the marks
        let white = &v["summary"]["white"];
        let total: u64 = ["best", "keeps", "mistake", "blunder"]
            .iter()
            .map(|m| white[m].as_u64().unwrap())
            .sum();
        assert_eq!(total as usize, expected.len().div_ceil(2), "{v}");
    }
    assert!(checked > 200, "{checked}");
    assert!(marks.len() >= 3, "random games see most marks: {marks:?}");
}

/// `millbase play` in the terminal: moves typed in, numbered as players
/// number them, the computer's replies, undo naming what it took back, hint,
/// bad input answered without the board again, the record at the end, and
/// a game to its end, without a database.
#[test]
fn play_a_game_in_the_terminal() {
    let play = |args: &[&str], input: &str| -> String {
        let args: Vec<&str> = std::iter::once("play")
            .chain(args.iter().copied())
            .collect();
        let o = common::run_with_input(&args, input);
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap()
    };
    let start = "........................ w 3 3";
    let text = play(
        &["--level", "simple", "--position", start],
        "D1\nhint\nundo\nd1 a1\nb7\nd1\nd1\nd1\nquit\n",
    );
    assert!(
        text.contains("You play White against the simple level"),
        "{text}"
    );
    // the computer's reply carries Black's number, the prompt White's next
    let reply = text.split("The computer plays 1... ").nth(1).unwrap();
    let first: String = reply.chars().take_while(|c| *c != '.').collect();
    assert!(text.contains("2. your move: Hint: "), "{text}");
    assert!(
        text.contains("(the hard level's move; no database, no value)"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Took back d1 (yours) and {first} (the computer's)."
        )),
        "{text}"
    );
    assert!(text.contains("One move at a time"), "{text}");
    assert!(text.contains("b7 is not a point"), "{text}");
    assert!(text.contains("d1: d1 is not empty"), "{text}");
    // after the undo the start stands again, White to move
    let after_undo = text.split("Took back").nth(1).unwrap();
    assert!(after_undo.contains(start), "{text}");
    // bad words are answered without the board: between the two refusals
    // of d1 no diagram stands
    let refusals: Vec<&str> = text.split("d1: d1 is not empty").collect();
    assert_eq!(refusals.len(), 3, "{text}");
    assert!(!refusals[1].contains("---"), "{text}");
    // quit prints the record and the review command of the game, whose
    // review reads the same record
    let record = text
        .split("The game: ")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    let words: Vec<&str> = record.split(' ').collect();
    assert_eq!(words.len(), 3, "{text}");
    assert_eq!(words[..2], ["1.", "d1"], "{text}");
    assert!(
        text.contains(&format!("The computer plays 1... {}.", words[2])),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Review it: millbase review --db DIR --position \"{start}\" --moves \"{record}\""
        )),
        "{text}"
    );

    // the computer as White; random moves typed until the game ends or the
    // input does: either way the record is printed
    let mut input = String::new();
    for p in ["a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3"] {
        input.push_str(&format!("{p}\n"));
    }
    let text = play(
        &["--level", "random", "--as", "black", "--position", start],
        &input,
    );
    assert!(text.contains("You play Black"), "{text}");
    assert!(
        text.starts_with("You play Black") && text.contains("\nThe computer plays 1. "),
        "{text}"
    );
    assert!(text.contains("1... your move: "), "{text}");
    let record = text
        .split("The game: 1. ")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    // every move of the record was announced or typed, in turn
    let moves: Vec<&str> = (record.split_whitespace())
        .filter(|w| !w.ends_with('.'))
        .collect();
    assert!(moves.len() >= 2, "{text}");
    for (k, mv) in moves.iter().enumerate() {
        if k % 2 == 0 {
            let n = k / 2 + 1;
            assert!(
                text.contains(&format!("The computer plays {n}. {mv}.")),
                "{mv}: {text}"
            );
        } else {
            assert!(input.lines().any(|l| l == *mv), "{mv}: {text}");
        }
    }
}

/// With a database, a hint gives its move's value for the side to move.
#[test]
fn a_hint_from_the_database_gives_its_value() {
    let dir = common::shared_db(&["--max-stones", "3"]);
    let db = dir.path().to_str().unwrap();
    // the 3-stone game's start, a win in 23 plies
    let pos = "........................ w 3 3";
    let o = common::run_with_input(
        &["play", "--db", db, "--level", "perfect", "--position", pos],
        "hint\nquit\n",
    );
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let v: serde_json::Value =
        serde_json::from_slice(&run(&["query", "--db", db, pos, "--json", "--best"]).stdout)
            .unwrap();
    let want = match (v["value"].as_str().unwrap(), v["plies"].as_u64()) {
        ("loss", Some(0)) => "you win at once".to_string(),
        ("loss", Some(n)) => format!("you win in {n} pl"),
        ("win", Some(n)) => format!("you lose in {n} pl"),
        _ => "a draw".to_string(),
    };
    let hint = format!("Hint: {}: {want}", v["move"].as_str().unwrap());
    assert!(text.contains(&hint), "{hint}: {text}");
    assert!(text.contains("No move was played."), "{text}");
}

/// Under the no-removal rule the text groups moves by their category: the
/// 3-stone game's start is a win in 23 plies, cursed under a 20-ply limit,
/// so every winning move is listed as a cursed win.
#[test]
fn query_text_groups_moves_by_their_category_under_the_rule() {
    let dir = generated(&["--max-stones", "3", "--move-limit", "20"]);
    let db = dir.path().to_str().unwrap();
    let text = stdout(&run(&[
        "query",
        "--db",
        db,
        "........................ w 3 3",
    ]));
    assert!(
        text.contains("White wins in 23 plies (12 moves)."),
        "{text}"
    );
    assert!(
        text.contains("Cursed wins (wins the no-removal rule draws) (24):"),
        "{text}"
    );
    assert!(!text.contains("Winning moves"), "{text}");
}

/// Under the no-removal rule the text gives a move's plies to the next
/// removal (dtc) where a removal comes before the end, as the JSON has it.
#[test]
fn query_text_gives_dtc_where_a_removal_comes_first() {
    let dir = generated(&["--max-stones", "4"]);
    let db = dir.path().to_str().unwrap();
    let pos = "WBW.........WB..B...B... b 0 0";
    let text = stdout(&run(&["query", "--db", db, pos]));
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&run(&["query", "--db", db, pos, "--json"]))).unwrap();
    let mut shown = 0;
    for m in v["moves"].as_array().unwrap() {
        let name = m["move"].as_str().unwrap();
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name));
        let Some(line) = line else { continue };
        let differs = m["dtc"].is_u64() && m["dtc"] != m["plies"] && m["category"] != "draw";
        if differs {
            assert!(
                line.ends_with(&format!(", {} to the next removal (dtc)", m["dtc"])),
                "{line} / {m}"
            );
            shown += 1;
        } else {
            assert!(!line.contains("dtc"), "{line} / {m}");
        }
    }
    assert!(
        shown > 0,
        "no move of {pos} has a removal before the end:\n{text}"
    );
}

/// `stats --reports` makes the reports a database lacks, the same as those
/// `generate` keeps, and makes none where they are kept.
#[test]
fn stats_reports_makes_the_reports_generate_keeps() {
    let dir = generated(&["--max-stones", "4", "--no-rule-tables"]);
    let db = dir.path().to_str().unwrap();
    let reports = dir.path().join("reports");
    let read = || -> std::collections::BTreeMap<String, serde_json::Value> {
        std::fs::read_dir(&reports)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                let json = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
                (p.file_name().unwrap().to_string_lossy().into_owned(), json)
            })
            .collect()
    };
    let by_generate = read();
    let tables = millbase::storage::dir::DbDir::open(dir.path())
        .unwrap()
        .present()
        .len();
    assert_eq!(by_generate.len(), tables, "one report a table");
    std::fs::remove_dir_all(&reports).unwrap();
    let o = run(&["stats", "--db", db, "--reports"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(&format!("{tables} reports made, 0 kept already")),
        "{text}"
    );
    assert_eq!(read(), by_generate);
    let o = run(&["stats", "--db", db, "--reports"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(&format!("0 reports made, {tables} kept already")),
        "{text}"
    );
}

/// A small database is a whole tool: without --position, `play`, `arena`,
/// `solve-opening` and `query --moves` start from the largest game the
/// database holds; a start beyond it is refused at once, naming the
/// `--position` to use.
#[test]
fn a_small_database_starts_its_own_largest_game() {
    let dir = common::shared_db(&["--max-stones", "3"]);
    let db = dir.path().to_str().unwrap();
    let start = "........................ w 3 3";
    let o = run(&["solve-opening", "--db", db, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["position"], start);
    let v: serde_json::Value = serde_json::from_str(&stdout(&run(&[
        "query", "--db", db, "--moves", "d1", "--json",
    ])))
    .unwrap();
    assert_eq!(v["position"], ".W...................... b 2 3");
    let o = run(&[
        "arena", "--db", db, "--white", "random", "--black", "perfect", "--games", "2", "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = common::run_with_input(&["play", "--db", db, "--level", "perfect"], "quit\n");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains(start), "{}", stdout(&o));
    for cmd in ["arena", "play"] {
        let mut a = vec![
            cmd,
            "--db",
            db,
            "--position",
            "........................ w 9 9",
        ];
        if cmd == "arena" {
            a.extend(["--white", "random", "--black", "perfect"]);
        }
        let o = common::run_with_input(&a, "quit\n");
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!("--position \"{start}\"")),
            "{cmd}: {err}"
        );
        assert!(o.stdout.is_empty(), "{cmd}: started before refusing");
    }
}

/// `generate` writes the same bytes whatever the number of threads.
#[test]
fn generate_writes_the_same_files_on_one_thread_and_on_two() {
    let sums = |threads: &str| {
        let dir = generated(&["--max-stones", "4", "--threads", threads]);
        stdout(&run(&["checksums", "--db", dir.path().to_str().unwrap()]))
    };
    let one = sums("1");
    assert!(one.lines().count() > 20, "{one}");
    assert_eq!(one, sums("2"));
}

/// `probe` reads lines of at most 4096 bytes: a longer one gets an error
/// line (its bytes past that skipped, never held) and the stream goes on;
/// a last line without its newline is answered too.
#[test]
fn probe_answers_a_line_too_long_with_an_error_and_goes_on() {
    let db = common::shared_db(&["--max-stones", "3"]);
    let pos = "WW.....BB..........W.B.. w 0 0";
    let input = format!(
        "{}\n{pos}\n{}\n{pos}",
        "W".repeat(100_000),
        "B".repeat(4097)
    );
    let o = common::run_with_input(&["probe", "--db", db.path().to_str().unwrap()], &input);
    assert!(o.status.success());
    let lines: Vec<serde_json::Value> = (stdout(&o).lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{}", stdout(&o));
    for k in [0, 2] {
        assert!(
            lines[k]["error"]
                .as_str()
                .unwrap()
                .contains("more than 4096 bytes"),
            "{}",
            lines[k]
        );
    }
    for k in [1, 3] {
        assert_eq!(lines[k]["position"], pos, "{}", lines[k]);
    }
}
