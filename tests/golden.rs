//! Golden samples of the text the commands print for people. Each expected text
//! was written by hand from docs/RULES.md (the board picture, the move rules, a
//! capture to below 3 stones winning at once), not copied from the program.

mod common;

use common::run;
use std::process::Output;

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// White a1 and g7, Black d2; Black to move with 8 in hand, White 7.
const SHOW: &str = "\
7 .-----------.-----------W
  |           |           |
6 |   .-------.-------.   |
  |   |       |       |   |
5 |   |   .---.---.   |   |
  |   |   |       |   |   |
4 .---.---.       .---.---.
  |   |   |       |   |   |
3 |   |   .---.---.   |   |
  |   |       |       |   |
2 |   .-------B-------.   |
  |           |           |
1 W-----------.-----------.
  a   b   c   d   e   f   g
Black to move; in hand: White 7, Black 8
W...B..................W b 7 8
";

#[test]
fn show_draws_the_board_of_the_rules() {
    assert_eq!(
        stdout(&run(&["show", "W...B..................W b 7 8"])),
        SHOW
    );
    // extra spaces are fine
    assert_eq!(
        stdout(&run(&["show", "  W...B..................W   b 7 8 "])),
        SHOW
    );
    // the same position reached by moves from the initial one
    assert_eq!(stdout(&run(&["show", "--moves", "a1 d2 g7"])), SHOW);
}

#[test]
fn show_explains_a_finished_game() {
    // White a1 d1 g1; Black d2 a4: Black has 2 stones, White has won
    let text = stdout(&run(&["show", "WWW.B....B.............. w 0 0"]));
    assert!(
        text.ends_with("WWW.B....B.............. w 0 0\nBlack has 2 stones: White has won\n"),
        "{text}"
    );
    // White a1 d1 g1 hemmed in by Black d2 a4 g4 without flying
    let text = stdout(&run(&[
        "show",
        "WWW.B....B....B......... w 0 0",
        "--no-flying",
    ]));
    assert!(
        text.ends_with("White cannot move: White has lost\n"),
        "{text}"
    );
}

#[test]
fn moves_and_perft_of_a_hemmed_in_side() {
    // White a1 d1 g1, Black d2 a4 a7, no flying: only g1 can move, to g4
    let pos = "WWW.B....B...........B.. w 0 0";
    assert_eq!(
        stdout(&run(&["moves", pos, "--no-flying"])),
        "g1-g4      WW..B....B....W......B.. b 0 0\n"
    );
    // then Black: d2-b2, d2-f2, d2-d3, a4-b4, a7-d7 (a1, d1 and a4, a7 taken)
    assert_eq!(
        stdout(&run(&["perft", pos, "2", "--no-flying", "--json"])),
        "{\"depth\":2,\"nodes\":5}\n"
    );
    // a move list that goes wrong names the move and the reason
    let o = run(&["moves", "--moves", "d1 a1 d1"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: move 3 (\"d1\"): d1 is not empty\n"
    );
}

/// White a1 d1 d6, Black d3 e3 a7: flying from d6 to g1 closes a1 d1 g1, and
/// any of Black's three stones may go (none stands in a mill): Black is left
/// with 2 and White has won at once.
const WIN_IN_ONE: &str = "WW.....BB..........W.B.. w 0 0";

#[test]
fn query_speaks_from_the_side_to_move() {
    let d = common::shared_db(&["--max-stones", "3"]);
    let p = d.path().to_str().unwrap();
    let text = stdout(&run(&["query", "--db", p, WIN_IN_ONE]));
    let tail = text.split_once("(flying rules)\n").unwrap().1;
    assert!(
        tail.starts_with(
            "\nWhite wins in 1 ply.\n\
             Under the 100-ply no-removal rule (0 plies since the last removal): \
             White still wins, 1 ply to the next removal or the end.\n\
             After each move, the plies left to the end with best play:\n\
             Winning moves (4):\n\
             \x20 d6-g1xd3   wins at once\n\
             \x20 d6-g1xe3   wins at once\n\
             \x20 d6-g1xa7   wins at once\n"
        ),
        "{tail}"
    );
    assert_eq!(
        stdout(&run(&["query", "--db", p, WIN_IN_ONE, "--best"])),
        "d6-g1xd3\n"
    );
    // a hemmed-in side, said in words
    let d = common::shared_db(&["--max-stones", "3", "--no-flying"]);
    let text = stdout(&run(&[
        "query",
        "--db",
        d.path().to_str().unwrap(),
        "WWW.B....B....B......... w 0 0",
    ]));
    assert!(
        text.ends_with("(no-flying rules)\n\nWhite cannot move: White has lost.\n"),
        "{text}"
    );
}

#[test]
fn line_and_probe() {
    let d = common::shared_db(&["--max-stones", "3"]);
    let p = d.path().to_str().unwrap();
    assert_eq!(
        stdout(&run(&["line", "--db", p, WIN_IN_ONE])),
        "WW.....BB..........W.B.. w 0 0: White wins in 1 ply; under the rule at counter 0: \
         win, 1 to convert\n   \
         1.   White  d6-g1xd3   (White wins in 1 ply; under the rule at counter 0: win, 1 to convert)\n\
         Black has 2 stones: White has won. Now WWW.....B............B.. b 0 0\n"
    );
    assert_eq!(
        stdout(&run(&["line", "--db", p, WIN_IN_ONE, "--json"])),
        "{\"position\":\"WW.....BB..........W.B.. w 0 0\",\"value\":\"win\",\"plies\":1,\
         \"counter\":0,\"category\":\"win\",\"dtc\":1,\
         \"line\":[{\"move\":\"d6-g1xd3\",\"position\":\"WWW.....B............B.. b 0 0\",\
         \"value\":\"win\",\"plies\":1,\"counter\":0,\"category\":\"win\",\"dtc\":1}],\
         \"result\":{\"winner\":\"white\",\"reason\":\"stones\"}}\n"
    );
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(["probe", "--db", p])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        // a blank line, a line that is not UTF-8 and a bad position each get
        // an answer line, and the stream goes on
        stdin
            .write_all(format!("{WIN_IN_ONE}\n\n\u{3}x\n").as_bytes())
            .unwrap();
        stdin
            .write_all(b"\xff\xfe bad\r\nnot a position\n")
            .unwrap();
        writeln!(stdin, "{WIN_IN_ONE}").unwrap();
    }
    let text = stdout(&child.wait_with_output().unwrap());
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert_eq!(lines[0]["value"], "win");
    assert_eq!(lines[0]["plies"], 1);
    assert_eq!(lines[0]["moves"][0]["move"], "d6-g1xd3");
    assert!(lines[1]["error"].as_str().unwrap().contains("blank"));
    assert!(lines[2]["error"].as_str().unwrap().contains("4 fields"));
    assert!(lines[3]["error"].as_str().unwrap().contains("not UTF-8"));
    assert_eq!(lines[4]["input"], "not a position");
    assert!(lines[4]["error"].as_str().unwrap().contains("4 fields"));
    assert_eq!(lines[5], lines[0]);
}
