//! The HTTP API of `millbase serve`, request by request through its router:
//! answers equal the library's, and every bad request, missing sector and
//! damaged file gets a JSON error with the right status.

mod common;

use axum::http::StatusCode;
use millbase::answer::query::Database;
use millbase::index::Subspace;
use millbase::index::plan::Limits;
use millbase::rules::position::Position;
use millbase::storage::dir::file_name;

use common::api_get as get;
use common::flying_db as db_within;

/// The whole 4-stone game, without the tables of the no-removal rule, shared
/// by the tests that only read it.
fn small_db() -> &'static common::Fixture {
    common::shared_db(&["--max-stones", "4", "--no-rule-tables"])
}

/// The same database, a test's own: for a test that adds or damages files.
fn own_db() -> tempfile::TempDir {
    db_within(Limits {
        max_stones: 4,
        max_total: 8,
        placement: true,
        move_limit: None,
    })
}

fn q(pos: &str) -> String {
    pos.replace(' ', "%20")
}

#[tokio::test]
async fn answers_are_the_librarys() {
    let dir = small_db();
    let db = Database::open(dir.path()).unwrap();
    for pos in [
        "........................ w 3 3",
        "W..B.W..B............... w 1 1",
        "WW.....BB..........W.B.. w 0 0",
        "WW.....BB..........W.B.. b 0 0",
    ] {
        let (status, v) = get(dir.path(), &format!("/api/query?position={}", q(pos))).await;
        assert_eq!(status, StatusCode::OK, "{pos}: {v}");
        let want = serde_json::to_value(db.answer(&pos.parse().unwrap()).unwrap()).unwrap();
        assert_eq!(v, want, "{pos}");
        assert_eq!(v["source"], "table");
        let (status, line) = get(dir.path(), &format!("/api/mainline?position={}", q(pos))).await;
        assert_eq!(status, StatusCode::OK);
        let want = serde_json::to_value(db.line(&pos.parse().unwrap(), 40).unwrap()).unwrap();
        assert_eq!(line, want, "{pos}");
    }
    let (status, line) = get(
        dir.path(),
        &format!(
            "/api/mainline?position={}&max_plies=3",
            q("........................ w 4 4")
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(line["value"], "draw");
    assert_eq!(line["line"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn answers_under_the_no_removal_rule() {
    let dir = db_within(Limits {
        max_stones: 3,
        max_total: 6,
        placement: true,
        move_limit: Some(20),
    });
    let db = Database::open(dir.path()).unwrap();
    let pos = "WW.....BB..........W.B.. b 0 0";
    for c in [0u16, 7, 19] {
        let (status, v) = get(
            dir.path(),
            &format!("/api/query?position={}&counter={c}", q(pos)),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let want = serde_json::to_value(db.answer_at(&pos.parse().unwrap(), c).unwrap()).unwrap();
        assert_eq!(v, want);
        assert_eq!(v["counter"], c);
        assert!(v["moves"][0]["category"].is_string());
    }
    // without a counter: the standing at counter 0
    let (_, v) = get(dir.path(), &format!("/api/query?position={}", q(pos))).await;
    assert_eq!(v["counter"], 0);
    // a counter at the limit is a bad request that names it
    let (status, v) = get(
        dir.path(),
        &format!("/api/query?position={}&counter=20", q(pos)),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("0..20"), "{v}");
}

#[tokio::test]
async fn health_and_statistics() {
    let dir = small_db();
    let (status, h) = get(dir.path(), "/api/health").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h["rules"], "flying");
    // the start of the largest game it holds: 4 stones a side
    assert_eq!(h["start"], "........................ w 4 4");
    let present = millbase::storage::dir::DbDir::open(dir.path())
        .unwrap()
        .present();
    let names: Vec<String> = present.iter().map(|s| s.to_string()).collect();
    assert_eq!(h["sectors"], serde_json::json!(names));
    let (status, list) = get(dir.path(), "/api/stats").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["tables"].as_array().unwrap().len(), present.len());
    assert_eq!(list["damaged"], serde_json::json!([]));
    // one sector: counts from its header, a histogram that adds up to them,
    // and longest positions with the plies the database gives them
    let (status, r) = get(dir.path(), "/api/stats/3-4/1-0").await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    let sum = |k: &str| -> u64 {
        r["histogram"][k]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| n(&p[1]))
            .sum()
    };
    assert_eq!(sum("wins"), n(&r["counts"]["wins"]));
    assert_eq!(sum("losses"), n(&r["counts"]["losses"]));
    assert_eq!(n(&r["histogram"]["draws"]), n(&r["counts"]["draws"]));
    let db = Database::open(dir.path()).unwrap();
    for rec in r["longest_wins"].as_array().unwrap() {
        let pos: Position = rec["position"].as_str().unwrap().parse().unwrap();
        assert_eq!(
            db.probe(&pos).unwrap().plies().map(u64::from),
            rec["plies"].as_u64()
        );
    }
}

#[tokio::test]
async fn a_sector_report_is_made_once_and_kept_in_the_database() {
    let dir = own_db();
    // without the reports `generate` wrote
    std::fs::remove_dir_all(dir.path().join("reports")).unwrap();
    let kept = dir.path().join("reports").join(format!(
        "{}.json",
        file_name(Subspace {
            mover: 3,
            opponent: 4,
            mover_hand: 1,
            opponent_hand: 0
        })
    ));
    assert!(!kept.exists());
    let (status, first) = get(dir.path(), "/api/stats/3-4/1-0").await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let text = std::fs::read_to_string(&kept).expect("the report is kept on disk");
    // a later server reads it instead of the table: a changed copy is what
    // it answers
    let mut doctored: serde_json::Value = serde_json::from_str(&text).unwrap();
    doctored["histogram"]["draws"] = serde_json::json!(123_456_789);
    std::fs::write(&kept, doctored.to_string()).unwrap();
    let (_, second) = common::api_get_fresh(dir.path(), "/api/stats/3-4/1-0").await;
    assert_eq!(second["histogram"]["draws"], 123_456_789);
    assert_eq!(second["counts"], first["counts"]);
    // a report made from another table (its size differs) is made anew
    doctored["table_bytes"] = serde_json::json!(1);
    std::fs::write(&kept, doctored.to_string()).unwrap();
    let (_, third) = common::api_get_fresh(dir.path(), "/api/stats/3-4/1-0").await;
    assert_eq!(third, first);
    // and a report that is not JSON is made anew too
    std::fs::write(&kept, b"\x00garbage").unwrap();
    let (_, fourth) = common::api_get_fresh(dir.path(), "/api/stats/3-4/1-0").await;
    assert_eq!(fourth, first);
}

/// A report goes stale with its table: kept on disk, it is keyed on the
/// table's content (size, classes and the fingerprint of its blocks), so a
/// copy of the file keeps it and a report of another content is made anew;
/// held by a running server, it is keyed on the file open, so a file
/// replaced under the server has its report read anew.
#[tokio::test]
async fn a_report_goes_stale_when_its_table_is_replaced() {
    let dir = own_db();
    let sub = Subspace {
        mover: 3,
        opponent: 4,
        mover_hand: 1,
        opponent_hand: 0,
    };
    let table = dir.path().join(file_name(sub));
    let kept = dir
        .path()
        .join("reports")
        .join(format!("{}.json", file_name(sub)));
    let uri = "/api/stats/3-4/1-0";
    let doctor = |draws: u64| {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&kept).unwrap()).unwrap();
        v["histogram"]["draws"] = serde_json::json!(draws);
        std::fs::write(&kept, v.to_string()).unwrap();
    };
    let (status, first) = get(dir.path(), uri).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    // a kept report read by a server: its numbers are what it answers
    doctor(111);
    let (_, read) = common::api_get_fresh(dir.path(), uri).await;
    assert_eq!(read["histogram"]["draws"], 111, "the kept report is read");
    // the file replaced by a copy of itself (another inode, the same
    // content): the kept report still holds
    let copy = dir.path().join("copy.tmp");
    std::fs::copy(&table, &copy).unwrap();
    std::fs::rename(&copy, &table).unwrap();
    let (_, same) = common::api_get_fresh(dir.path(), uri).await;
    assert_eq!(
        same["histogram"]["draws"], 111,
        "a copy of the table keeps its report"
    );
    // a report kept for another content (the same size and classes, another
    // fingerprint of the blocks) is stale: made anew
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&kept).unwrap()).unwrap();
    let crc = v["table_crc"]
        .as_u64()
        .expect("kept under the table's fingerprint");
    v["table_crc"] = serde_json::json!(crc ^ 1);
    std::fs::write(&kept, v.to_string()).unwrap();
    let (_, anew) = common::api_get_fresh(dir.path(), uri).await;
    assert_eq!(anew, first, "a report of another content was read");

    // a running server holds a report by the file it has open: replaced
    // under it, the next request reads the report kept for the new file
    let (_, held) = get(dir.path(), uri).await;
    doctor(222);
    std::fs::copy(&table, &copy).unwrap();
    std::fs::rename(&copy, &table).unwrap();
    // the server looks at the file's identity at most every 250 ms
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (_, again) = get(dir.path(), uri).await;
    assert_ne!(held["histogram"]["draws"], 222, "{held}");
    assert_eq!(
        again["histogram"]["draws"], 222,
        "a held report outlived its file: {again}"
    );
}

/// `generate` keeps the report of every game table it writes, from the
/// table in memory: the same report a reader makes from the file.
#[test]
fn generate_keeps_the_report_of_every_table() {
    let dir = own_db();
    let db = Database::open(dir.path()).unwrap();
    let subs = db.dir().present();
    assert!(
        subs.iter().any(|s| s.mover < s.opponent),
        "tables without plies too"
    );
    for sub in subs {
        let kept = (dir.path().join("reports")).join(format!("{}.json", file_name(sub)));
        let json = |b: Vec<u8>| serde_json::from_slice::<serde_json::Value>(&b).unwrap();
        let by_generate = json(std::fs::read(&kept).unwrap_or_else(|e| panic!("{sub}: {e}")));
        std::fs::remove_file(&kept).unwrap();
        millbase::answer::records::sector_report(&db, sub).unwrap();
        assert_eq!(by_generate, json(std::fs::read(&kept).unwrap()), "{sub}");
    }
}

#[tokio::test]
async fn statistics_are_the_same_with_a_cache_of_one_block() {
    // the report's pass probes through the block cache where plies are not
    // stored: with one block cached, every probe evicts, and the answers
    // stay those of the full cache
    let dir = own_db();
    let full = Database::open(dir.path()).unwrap();
    let tiny = Database::open(dir.path()).unwrap().with_cache_blocks(1);
    for sub in full.dir().present() {
        let a = millbase::answer::records::records_and_histogram(&full, sub, 3).unwrap();
        let b = millbase::answer::records::records_and_histogram(&tiny, sub, 3).unwrap();
        assert_eq!(a, b, "{sub}");
    }
}

#[tokio::test]
async fn bad_requests_are_json_errors_that_name_the_problem() {
    let dir = small_db();
    let long = format!(
        "/api/query?position={}",
        "W".repeat(millbase::server::MAX_QUERY_BYTES + 100)
    );
    let cases: Vec<(String, StatusCode, &str)> = vec![
        ("/api/query".into(), StatusCode::BAD_REQUEST, "position"),
        (
            "/api/query?position=xyz".into(),
            StatusCode::BAD_REQUEST,
            "4 fields",
        ),
        (
            format!(
                "/api/query?position={}",
                q("WWWW.................... w 0 0")
            ),
            StatusCode::BAD_REQUEST,
            "position",
        ),
        (
            format!(
                "/api/query?position={}&counter=5",
                q("WW.....BB..........W.B.. w 0 0")
            ),
            StatusCode::BAD_REQUEST,
            "counter",
        ),
        (
            format!(
                "/api/mainline?position={}&max_plies=x",
                q("WW.....BB..........W.B.. w 0 0")
            ),
            StatusCode::BAD_REQUEST,
            "max_plies",
        ),
        (
            "/api/query?position=%FF%FE".into(),
            StatusCode::BAD_REQUEST,
            "position",
        ),
        (long, StatusCode::URI_TOO_LONG, "at most"),
        // a position whose subspace the database lacks
        (
            format!(
                "/api/query?position={}",
                q("WWWWWW....BBBBBB........ w 0 0")
            ),
            StatusCode::NOT_FOUND,
            "6-6",
        ),
        // and a placement sector it lacks
        (
            format!(
                "/api/query?position={}",
                q("........................ w 9 9")
            ),
            StatusCode::NOT_FOUND,
            "0-0/9-9",
        ),
        // which the server, searching nothing, says
        (
            format!(
                "/api/query?position={}",
                q("........................ w 9 9")
            ),
            StatusCode::NOT_FOUND,
            "tables only",
        ),
        ("/api/stats/9-9".into(), StatusCode::NOT_FOUND, "9-9"),
        (
            "/api/stats/banana".into(),
            StatusCode::BAD_REQUEST,
            "banana",
        ),
        ("/api/nothing".into(), StatusCode::NOT_FOUND, "no such"),
        // each typed parameter of the wrong kind is named, with the reason
        (
            format!(
                "/api/play?position={}&seed=x",
                q("WW.....BB..........W.B.. w 0 0")
            ),
            StatusCode::BAD_REQUEST,
            "seed: invalid digit",
        ),
        (
            format!(
                "/api/play?position={}&level=master",
                q("WW.....BB..........W.B.. w 0 0")
            ),
            StatusCode::BAD_REQUEST,
            "level: \"master\" is not a level: one of random, simple, hard, expert, perfect, ultra",
        ),
        (
            format!(
                "/api/mainline?position={}&max_plies=401",
                q("WW.....BB..........W.B.. w 0 0")
            ),
            StatusCode::BAD_REQUEST,
            "max_plies: 401 is more than 400",
        ),
    ];
    for (uri, status, needle) in cases {
        let (got, v) = get(dir.path(), &uri).await;
        assert_eq!(got, status, "{uri}: {v}");
        let e = v["error"].as_str().unwrap_or_else(|| panic!("{uri}: {v}"));
        assert!(e.contains(needle), "{uri}: {e}");
        // no error promises a search the server does not run
        assert!(!e.contains("search"), "{uri}: {e}");
    }
}

#[tokio::test]
async fn a_damaged_file_is_a_500_naming_it() {
    let dir = own_db();
    let sector = Subspace {
        mover: 1,
        opponent: 1,
        mover_hand: 2,
        opponent_hand: 2,
    };
    let path = dir.path().join(file_name(sector));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[20] ^= 1; // the header
    std::fs::write(&path, &bytes).unwrap();
    let pos = "W.......B............... w 2 2";
    assert_eq!(Subspace::of(&pos.parse().unwrap()), sector);
    let (status, v) = get(dir.path(), &format!("/api/query?position={}", q(pos))).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains(&file_name(sector)),
        "{v}"
    );
    // the server keeps answering other positions
    let (status, _) = get(
        dir.path(),
        "/api/query?position=WW.....BB..........W.B..%20w%200%200",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // and the statistics of the other tables, the damaged one named
    let (status, list) = get(dir.path(), "/api/stats").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let present = millbase::storage::dir::DbDir::open(dir.path())
        .unwrap()
        .present();
    assert_eq!(
        list["tables"].as_array().unwrap().len(),
        present.len() - 1,
        "{list}"
    );
    assert_eq!(list["damaged"][0]["file"], file_name(sector), "{list}");
}

#[test]
fn serve_listens_on_loopback_and_stops_cleanly_on_ctrl_c() {
    use std::io::{Read, Write};
    let dir = small_db();
    let (mut server, host) = common::serve(dir.path());
    assert!(host.starts_with("127.0.0.1:"), "{host}");
    // a request naming a file path is only a malformed sector
    let mut s = std::net::TcpStream::connect(&host).unwrap();
    write!(
        s,
        "GET /api/stats/..%2F..%2Fetc%2Fpasswd HTTP/1.0\r\nHost: {host}\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.0 400"), "{response}");
    assert!(!response.contains("root:"), "{response}");
    // a malformed HTTP request gets an answer and a closed connection, not a
    // hung one
    let mut s = std::net::TcpStream::connect(&host).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    s.write_all(b"\x00\x01garbage \r\n\r\n").unwrap();
    let mut response = vec![];
    s.read_to_end(&mut response)
        .expect("the server closes a malformed request's connection");
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 400"), "{text}");
    // Ctrl-C: the server stops and exits 0
    let kill = std::process::Command::new("kill")
        .args(["-INT", &server.0.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "still running 10 s after Ctrl-C"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[tokio::test]
async fn a_long_database_path_never_shows_in_an_answer() {
    // a path longer than an answer's message: it must be cut out before the
    // message is cut short
    let root = tempfile::tempdir().unwrap();
    let deep = root
        .path()
        .join("d".repeat(120))
        .join("e".repeat(120))
        .join("f".repeat(120));
    millbase::build::generate::generate(
        &deep,
        millbase::Variant::default(),
        Limits {
            max_stones: 3,
            max_total: 6,
            placement: true,
            move_limit: None,
        },
        &millbase::index::Indexer::new(),
        &millbase::build::generate::Silent,
    )
    .unwrap();
    let sub = Subspace {
        mover: 3,
        opponent: 3,
        mover_hand: 0,
        opponent_hand: 0,
    };
    let path = deep.join(file_name(sub));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[20] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let (status, v) = get(
        &deep,
        &format!(
            "/api/query?position={}",
            q("WW.....BB..........W.B.. w 0 0")
        ),
    )
    .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains(&file_name(sub)), "{e}");
    assert!(
        !e.contains("ddddd") && !e.contains("eeeee") && !e.contains("fffff"),
        "{e}"
    );
}

/// `moves=` plays a game through the API: the position reached is the one
/// the answers' own move lists lead to, the counter follows the moves, and
/// the third standing of a position ends the game.
#[tokio::test]
async fn the_api_plays_a_game_of_moves() {
    let dir = small_db();
    let start = "........................ w 4 4";
    let enc = |s: &str| s.replace(' ', "%20");
    // step by step through the answers' move lists
    let mut pos = start.to_string();
    for mv in ["d1", "a1", "d2"] {
        let (_, v) = get(dir.path(), &format!("/api/query?position={}", enc(&pos))).await;
        let entry = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == mv)
            .unwrap();
        pos = entry["position"].as_str().unwrap().to_string();
    }
    let uri = game_uri("/api/query", start, "1. d1 a1 2. d2");
    let (status, v) = get(dir.path(), &uri).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["position"], pos.as_str(), "{v}");
    assert_eq!(v["game"]["counter"], 3, "{v}");
    assert_eq!(v["game"]["repetitions"], 1, "{v}");
    assert!(v["game"]["result"].is_null(), "{v}");
    // an illegal move is a 400 naming it
    let uri = game_uri("/api/query", start, "d1 d1");
    let (status, v) = get(dir.path(), &uri).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("d1"), "{v}");
    // back and forth: the third time is a draw by repetition
    let pos = "W.W.....B.......W....B.B w 0 0";
    let moves = "d5-e5 e3-c3 e5-d5 c3-e3 d5-e5 e3-c3 e5-d5 c3-e3";
    let (status, v) = get(dir.path(), &game_uri("/api/query", pos, moves)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["repetitions"], 3, "{v}");
    assert_eq!(v["game"]["result"]["reason"], "repetition", "{v}");
    // the main line goes on from the game's position
    let uri = game_uri("/api/mainline", start, "d1 a1 d2");
    let (status, v) = get(dir.path(), &uri).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["position"],
        pos_after(dir.path(), start, "d1 a1 d2").await.as_str(),
        "{v}"
    );
}

/// `PATH?position=POS&moves=MOVES`, the spaces encoded.
fn game_uri(path: &str, pos: &str, moves: &str) -> String {
    format!(
        "{path}?position={}&moves={}",
        pos.replace(' ', "%20"),
        moves.replace(' ', "%20")
    )
}

async fn pos_after(dir: &std::path::Path, start: &str, moves: &str) -> String {
    let (_, v) = get(dir, &game_uri("/api/query", start, moves)).await;
    v["position"].as_str().unwrap().to_string()
}

/// `/api/play` answers a level's legal move and the game after it; the same
/// seed gives the same move; a finished game and an unknown level are
/// errors that say so.
#[tokio::test]
async fn the_api_answers_a_levels_move() {
    let dir = small_db();
    let start = "........................%20w%204%204";
    for level in ["random", "simple", "hard", "perfect", "ultra"] {
        let uri = format!("/api/play?position={start}&moves=d1&level={level}&seed=7");
        let (status, v) = get(dir.path(), &uri).await;
        assert_eq!(status, StatusCode::OK, "{level}: {v}");
        // the move is legal: it is in the answer's list of the position
        let (_, before) = get(dir.path(), &format!("/api/query?position={start}&moves=d1")).await;
        let entry = (before["moves"].as_array().unwrap().iter())
            .find(|m| m["move"] == v["move"])
            .unwrap_or_else(|| panic!("{level}: {v} is not a legal move"));
        assert_eq!(entry["position"], v["position"], "{level}");
        assert_eq!(v["game"]["counter"], 2, "{level}: {v}");
        let (_, again) = get(dir.path(), &uri).await;
        assert_eq!(
            again["move"], v["move"],
            "{level}: the same seed, the same move"
        );
    }
    let (status, v) = get(
        dir.path(),
        &format!("/api/play?position={start}&level=grandmaster"),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("ultra"), "{v}");
    // a finished game: White has 2 stones
    let over = "WW.....BBB..............%20w%200%200";
    let (status, v) = get(dir.path(), &format!("/api/play?position={over}&moves=")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("over"), "{v}");
}

/// `/api/review` is `millbase review --json` of the same game.
#[tokio::test]
async fn the_api_reviews_a_game_as_the_command_does() {
    let dir = small_db();
    let start = "........................ w 4 4";
    let moves = "d1 a1 d2 a4 b2";
    let (status, v) = get(dir.path(), &game_uri("/api/review", start, moves)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let cli = common::review_json(dir.path().to_str().unwrap(), start, moves);
    assert_eq!(v, cli);
    assert_eq!(v["moves"].as_array().unwrap().len(), 5);
    let (status, v) = get(
        dir.path(),
        &format!("/api/review?position={}", start.replace(' ', "%20")),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

/// Health stays honest: a file with a bad block stays listed as damaged
/// when good blocks of it are read after (until it is replaced), and a
/// file holding another subspace is listed.
#[tokio::test]
async fn health_keeps_a_damaged_file_listed_whatever_is_read_after() {
    let dir = own_db();
    let sub = Subspace {
        mover: 4,
        opponent: 4,
        mover_hand: 0,
        opponent_hand: 0,
    };
    let path = dir.path().join(file_name(sub));
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x55; // a byte of a block in the middle
    std::fs::write(&path, &bytes).unwrap();
    let ix = millbase::index::Indexer::new();
    let (mut bad, mut good_after) = (0, 0);
    for p in ix.spread(sub, 400) {
        let uri = format!("/api/query?position={}", q(&p.to_string()));
        let (status, _) = get(dir.path(), &uri).await;
        match status {
            StatusCode::INTERNAL_SERVER_ERROR => bad += 1,
            StatusCode::OK if bad > 0 => good_after += 1,
            _ => {}
        }
    }
    assert!(
        bad > 0 && good_after > 0,
        "{bad} errors, {good_after} answers after one"
    );
    let (_, h) = get(dir.path(), "/api/health").await;
    assert_eq!(h["status"], "damaged", "{h}");
    assert_eq!(h["damaged"][0]["file"], file_name(sub), "{h}");
    // a file of another subspace under this one's name is listed
    let other = Subspace {
        mover: 3,
        opponent: 3,
        mover_hand: 0,
        opponent_hand: 0,
    };
    std::fs::copy(
        dir.path().join(file_name(other)),
        dir.path().join(file_name(Subspace {
            mover: 4,
            opponent: 3,
            ..other
        })),
    )
    .unwrap();
    let (_, h) = common::api_get_fresh(dir.path(), "/api/health").await;
    let listed: Vec<String> = (h["damaged"].as_array().unwrap().iter())
        .map(|d| d["file"].as_str().unwrap().to_string())
        .collect();
    assert!(listed.contains(&"4-3-0-0.mdb".to_string()), "{h}");
}
