//! Games and players: a game ends by the rules of docs/RULES.md with the
//! right reason; every player plays only moves the naive rules of the tests
//! allow; the same seed plays the same game; `perfect` and `ultra` never
//! lower their outcome, move by move, as the tables judge it; `arena`'s JSON.

mod common;
mod naive;

use millbase::Variant;
use millbase::answer::answers::{Standing, outcome_for_mover, preference};
use millbase::answer::policy::Ask;
use millbase::answer::query::Database;
use millbase::index::plan::Limits;
use millbase::play::players::arena::{Judgement, play_game};
use millbase::play::players::{Level, answer_for};
use millbase::rules::game::{Game, Reason};
use millbase::rules::position::{Color, Position};
use millbase::rules::variant::STONES_PER_SIDE;
use millbase::solve::counter::Category;
use naive::Naive;
use std::sync::Arc;

/// The whole game with `stones` a side (flying), with the no-removal rule's
/// tables when `rule`: built once for this file's tests, which only read it.
fn database(stones: u8, rule: bool) -> (&'static common::Fixture, Arc<Database>) {
    let n = stones.to_string();
    let mut args = vec!["--max-stones", n.as_str()];
    if !rule {
        args.push("--no-rule-tables");
    }
    let dir = common::shared_db(&args);
    let db = Arc::new(Database::open(dir.path()).unwrap());
    (dir, db)
}

fn start(stones: u8) -> Position {
    format!("........................ w {stones} {stones}")
        .parse()
        .unwrap()
}

#[test]
fn a_record_takes_move_numbers_upper_case_and_commas() {
    let variant = Variant::default();
    let g = Game::from_record(Position::initial(), variant, 0, "1. D1 a1, 2. d2 A4 3.").unwrap();
    assert_eq!(g.record(), "d1 a1 d2 a4");
    assert_eq!(g.numbered_record(), "1. d1 a1 2. d2 a4");
    assert_eq!(g.counter(), 4);
    // the first move that cannot be played is named, with its ply and why
    let e = Game::from_record(Position::initial(), variant, 0, "d1 d1").unwrap_err();
    assert_eq!(e.number, 2);
    assert!(e.reason.contains("not empty"), "{e}");
    let e = Game::from_record(Position::initial(), variant, 0, "d1 b7").unwrap_err();
    assert_eq!(e.number, 2);
    // a removal resets the counter; undo takes it back
    let mut g = Game::from_record(Position::initial(), variant, 7, "d1 a1 d2 a4").unwrap();
    assert_eq!(g.counter(), 11);
    g.play("d3xa1".parse().unwrap()).unwrap();
    assert_eq!(g.counter(), 0);
    assert_eq!(g.undo().map(|m| m.to_string()).as_deref(), Some("d3xa1"));
    assert_eq!(g.counter(), 11);
}

#[test]
fn threefold_repetition_and_the_no_removal_rule_end_games() {
    let variant = Variant::default();
    // four stones a side, each side moving one stone back and forth
    let pos: Position = "W..W....W....WB..BB..B.. w 0 0".parse().unwrap();
    let shuffle = ["a1-d1", "a7-d7", "d1-a1", "d7-a7"];
    let mut g = Game::new(pos, variant, 0);
    for (i, mv) in shuffle.iter().chain(shuffle.iter()).enumerate() {
        assert!(
            g.result().is_none(),
            "over before ply {}: {:?}",
            i + 1,
            g.result()
        );
        g.play(mv.parse().unwrap()).unwrap();
        assert_eq!(g.counter(), i as u16 + 1);
    }
    // the start stands for the third time now
    assert_eq!(g.repetitions(), 3);
    let r = g.result().expect("threefold repetition");
    assert_eq!((r.winner, r.reason), (None, Reason::Repetition));
    assert_eq!(r.to_string(), "threefold repetition: a draw");
    assert!(
        g.play("a1-d1".parse().unwrap()).is_err(),
        "a move after the end"
    );
    // undone, the game goes on
    g.undo();
    assert!(g.result().is_none());
    assert_eq!(g.repetitions(), 2);
    // the counter reaching 100: a draw by the rule
    let mut g = Game::new(pos, variant, 97);
    for mv in ["a1-d1", "a7-d7"] {
        g.play(mv.parse().unwrap()).unwrap();
        assert!(g.result().is_none());
    }
    g.play("d1-a1".parse().unwrap()).unwrap();
    let r = g.result().expect("100 plies without a removal");
    assert_eq!((r.winner, r.reason), (None, Reason::NoRemoval));
    assert_eq!(r.to_string(), "no removal within the move limit: a draw");
    // fewer than 3 stones: the side to move has lost
    let won: Position = "WW.....BB..........W.B.. w 0 0".parse().unwrap();
    let mut g = Game::new(won, variant, 0);
    g.play("d6-g1xd3".parse().unwrap()).unwrap();
    let r = g.result().unwrap();
    assert_eq!((r.winner, r.reason), (Some(Color::White), Reason::Stones));
    // no legal move: the side to move has lost (four Black corners, each
    // shut in by White)
    let blocked: Position = "BWB......W....W......BWB b 0 0".parse().unwrap();
    let g = Game::new(blocked, variant, 0);
    let r = g.result().expect("Black cannot move");
    assert_eq!((r.winner, r.reason), (Some(Color::White), Reason::Blocked));
    assert!(g.legal_moves().is_empty());
}

/// Checks every move of a game of `white` against `black` from `start`
/// against the naive rules, and returns the record.
fn checked_game(
    white: Level,
    black: Level,
    start: Position,
    seed: u64,
    db: Option<&Arc<Database>>,
) -> String {
    let played = play_game(
        start,
        Variant::default(),
        100,
        (white, black),
        (seed, seed + 1),
        db,
    )
    .unwrap();
    let g = &played.game;
    for (i, mv) in g.moves().iter().enumerate() {
        let before = g.positions()[i];
        let after = g.positions()[i + 1];
        let naive = Naive::from_position(&before, true);
        let children = naive.children();
        assert!(
            children
                .iter()
                .any(|(text, child)| *text == mv.to_string() && child.to_position() == after),
            "{white} vs {black}: move {} ({mv}) of {before} is not a legal move by the naive rules",
            i + 1
        );
    }
    assert!(g.result().is_some());
    g.record()
}

#[test]
fn every_player_plays_legal_moves_and_a_seed_replays_its_game() {
    let (_dir, db) = database(4, false);
    let levels = Level::ALL;
    for (i, &white) in levels.iter().enumerate() {
        let black = levels[(i + 1) % levels.len()];
        let a = checked_game(white, black, start(4), 7, Some(&db));
        let b = checked_game(white, black, start(4), 7, Some(&db));
        assert_eq!(
            a, b,
            "{white} vs {black}: the same seed played another game"
        );
    }
    // another seed plays another game (random against random)
    let games: std::collections::HashSet<String> = (0..5)
        .map(|s| checked_game(Level::Random, Level::Random, start(4), s, None))
        .collect();
    assert!(games.len() > 1);
}

/// Plays `games` games of `level` against each opponent, both colours,
/// and checks that no move of `level` lowered its outcome.
fn never_lowers(level: Level, db: &Arc<Database>, stones: u8, games: u64) {
    for opponent in [Level::Random, Level::Simple, Level::Perfect] {
        for seed in 0..games {
            for (white, black, side) in [
                (level, opponent, Color::White),
                (opponent, level, Color::Black),
            ] {
                let played = play_game(
                    start(stones),
                    Variant::default(),
                    100,
                    (white, black),
                    (seed, seed + 99),
                    Some(db),
                )
                .unwrap();
                // each move judged again by the whole answer (plies and
                // distances), not by the standings the arena and the players read
                let mut g = Game::with_move_limit(start(stones), Variant::default(), 0, 100);
                for (i, (m, &mv)) in played.moves.iter().zip(played.game.moves()).enumerate() {
                    if m.side == side {
                        let answer = answer_for(db, &g).unwrap();
                        let chosen = answer.moves.iter().find(|a| a.mv == mv).unwrap();
                        assert_eq!(
                            (outcome_for_mover(chosen), m.judgement),
                            (outcome_for_mover(&answer.moves[0]), Some(Judgement::Keeps)),
                            "{level} ({side:?}) against {opponent}, seed {seed}: move {} of {}",
                            i + 1,
                            played.game.record()
                        );
                    }
                    g.play(mv).unwrap();
                }
                let r = played.game.result().unwrap();
                assert_ne!(
                    r.winner,
                    Some(side.other()),
                    "{level} lost: {}",
                    played.game.record()
                );
            }
        }
    }
}

/// A database player builds the indexer's tables when it is made, for
/// every stone count of the database and no more, so no move pays for them.
#[test]
fn a_database_player_builds_the_index_tables_when_made() {
    let (_dir, db) = database(4, false);
    let built = |db: &Database| {
        (0..=STONES_PER_SIDE)
            .filter(|&k| db.indexer().has_table(k))
            .count()
    };
    assert_eq!(built(&db), 0, "opening builds no table");
    for level in [Level::Perfect, Level::Ultra] {
        level.player(1, Some(db.clone())).unwrap();
        assert!((0..=4).all(|k| db.indexer().has_table(k)), "{level}");
        assert_eq!(built(&db), 5, "{level}: only the 4-stone database's sizes");
    }
}

#[test]
fn perfect_and_ultra_never_lower_their_outcome_in_the_4_stone_game() {
    let (_dir, db) = database(4, true);
    never_lowers(Level::Perfect, &db, 4, 4);
    never_lowers(Level::Ultra, &db, 4, 4);
}

#[test]
fn perfect_and_ultra_never_lower_their_outcome_in_the_5_stone_game() {
    let (_dir, db) = database(5, true);
    never_lowers(Level::Perfect, &db, 5, 2);
    never_lowers(Level::Ultra, &db, 5, 2);
}

/// The standings (categories only, read without plies) agree with the
/// categories of the whole answer, move by move, and the best moves (plies
/// read for the best category only) are the whole answer's best, in its
/// order, at every position of random games, without the rule and under it
/// at the game's counter and at 0, 97, 98 and 99 (where the rule's limit
/// cuts distances short).
#[test]
fn standings_and_best_moves_agree_with_the_whole_answer() {
    let (_dir, db) = database(5, true);
    let (mut positions, mut wins_or_losses, mut cut, mut trimmed) = (0, 0, 0, 0);
    for seed in 0..12 {
        let played = play_game(
            start(5),
            Variant::default(),
            100,
            (Level::Random, Level::Random),
            (seed, seed + 50),
            None,
        )
        .unwrap();
        let g = &played.game;
        for (pos, &counter) in g.positions().iter().zip(g.counters()) {
            let counters = [None, Some(counter), Some(0), Some(97), Some(98), Some(99)];
            for counter in counters.into_iter().filter(|c| c.is_none_or(|c| c < 100)) {
                let ask = Ask {
                    counter,
                    search: false,
                };
                let key = |s: &Standing| s.mv.to_string();
                let mut fast = db.standings(pos, ask).unwrap();
                let answer = db.answer_to(pos, ask).unwrap();
                let mut whole: Vec<Standing> = answer.moves.iter().map(Standing::of).collect();
                fast.sort_by_key(key);
                whole.sort_by_key(key);
                assert_eq!(fast, whole, "{pos} at counter {counter:?}");
                // the best moves, read with the plies of the best category
                // only: the whole answer's as good as its first, in its order
                let best: Vec<_> = (answer.moves.iter())
                    .take_while(|m| preference(m) == preference(&answer.moves[0]))
                    .cloned()
                    .collect();
                assert_eq!(
                    db.best_moves_to(pos, ask, &db.standings(pos, ask).unwrap())
                        .unwrap(),
                    best,
                    "{pos} at counter {counter:?}"
                );
                // where plies order the best category, fewer than all of it
                let top = whole.iter().map(Standing::rank).min();
                let best_rank = whole.iter().filter(|s| Some(s.rank()) == top).count();
                trimmed += usize::from(best.len() < best_rank);
                positions += 1;
                wins_or_losses += whole.iter().filter(|s| !s.category.is_draw()).count();
                cut += (whole.iter())
                    .filter(|s| matches!(s.category, Category::CursedWin | Category::BlessedLoss))
                    .count();
            }
        }
    }
    // the games reached wins and losses, not only draws
    let seen = format!("{positions} {wins_or_losses} {cut} {trimmed}");
    eprintln!("{seen}");
    assert!(
        positions > 500 && wins_or_losses > 500 && cut > 50 && trimmed > 100,
        "{seen}"
    );
}

/// `arena --json` of perfect against random in the 4-stone game of `db`,
/// colours exchanged every second game, with `more` options.
fn perfect_against_random(
    db: &std::path::Path,
    games: &str,
    seed: &str,
    more: &[&str],
) -> std::process::Output {
    let mut args = vec![
        "arena",
        "--white",
        "perfect",
        "--black",
        "random",
        "--games",
        games,
        "--swap",
        "--seed",
        seed,
        "--db",
        db.to_str().unwrap(),
        "--position",
        "........................ w 4 4",
        "--json",
    ];
    args.extend_from_slice(more);
    common::run(&args)
}

#[test]
fn arena_json_lines_and_summary() {
    let (dir, _db) = database(4, false);
    let out = perfect_against_random(dir.path(), "6", "3", &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7, "{text}");
    let mut seen = vec![];
    for g in &lines[..6] {
        seen.push(g["game"].as_u64().unwrap());
        let (w, b) = (g["white"].as_str().unwrap(), g["black"].as_str().unwrap());
        assert!(
            matches!((w, b), ("perfect", "random") | ("random", "perfect")),
            "{g}"
        );
        assert!(["white", "black", "draw"].contains(&g["result"].as_str().unwrap()));
        assert!(
            ["stones", "blocked", "repetition", "no-removal"]
                .contains(&g["reason"].as_str().unwrap()),
            "{g}"
        );
        // the record replays to the end the line gives
        let record = g["moves"].as_str().unwrap();
        let game = Game::from_record(start(4), Variant::default(), 0, record).unwrap();
        assert_eq!(game.moves().len() as u64, g["plies"].as_u64().unwrap());
        let r = game.result().expect("the record ends the game");
        assert_eq!(r.reason.name(), g["reason"]);
        let perfect_side = if w == "perfect" { "white" } else { "black" };
        assert_eq!(g["mistakes"][perfect_side], 0, "{g}");
        assert_ne!(
            g["result"],
            if perfect_side == "white" {
                "black"
            } else {
                "white"
            }
        );
    }
    seen.sort();
    assert_eq!(seen, (1..=6).collect::<Vec<_>>(), "games numbered from 1");
    // the summary: the game count, how the games ended (as their lines
    // say), each level's results in all and by colour
    let last = &lines[6];
    assert_eq!(last["games"], 6, "{last}");
    for reason in ["stones", "blocked", "repetition", "no-removal"] {
        let n = lines[..6].iter().filter(|g| g["reason"] == reason).count();
        assert_eq!(last["endings"][reason], n, "{reason}: {last}");
    }
    let s = &last["summary"];
    for p in ["perfect", "random"] {
        let n = |k: &str| s[p][k].as_u64().unwrap();
        assert_eq!(n("wins") + n("draws") + n("losses"), 6, "{s}");
        for k in ["wins", "draws", "losses"] {
            let by_colour =
                s[p]["as_white"][k].as_u64().unwrap() + s[p]["as_black"][k].as_u64().unwrap();
            assert_eq!(by_colour, n(k), "{p} {k}: {s}");
        }
        let as_white = lines[..6].iter().filter(|g| g["white"] == p).count() as u64;
        let w = &s[p]["as_white"];
        let played_as_white: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|k| w[k].as_u64().unwrap())
            .sum();
        assert_eq!(played_as_white, as_white, "{p}: {s}");
        let ci = s[p]["ci95"].as_array().unwrap();
        let score = s[p]["score"].as_f64().unwrap();
        assert!(
            ci[0].as_f64().unwrap() <= score && score <= ci[1].as_f64().unwrap(),
            "{s}"
        );
        assert!(
            s[p]["ms_per_move"]["median"].as_f64().unwrap()
                <= s[p]["ms_per_move"]["max"].as_f64().unwrap()
        );
        assert!(s[p]["mistakes_per_100"].is_object(), "{s}");
    }
    assert_eq!(s["perfect"]["losses"], 0);
    assert_eq!(s["perfect"]["wins"], s["random"]["losses"]);
    // without a database, perfect is refused with a message naming --db
    let out = common::run(&["arena", "--white", "perfect", "--black", "random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--db"));
}

/// `arena`'s text: the game count, each level's results in all and by
/// colour under --swap, the interval, and how the games ended, all as the
/// JSON of the same run says.
#[test]
fn arena_text_summary_says_what_its_json_says() {
    let (dir, _db) = database(4, false);
    let out = perfect_against_random(dir.path(), "5", "2", &[]);
    let text_of = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).to_string();
    let json = text_of(&out);
    let last: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    let mut args = vec![
        "arena", "--white", "perfect", "--black", "random", "--games", "5", "--swap",
    ];
    let db = dir.path().to_str().unwrap();
    args.extend([
        "--seed",
        "2",
        "--db",
        db,
        "--position",
        "........................ w 4 4",
    ]);
    let text = text_of(&common::run(&args));
    assert!(text.starts_with("5 games, flying rules"), "{text}");
    let plural = |n: &serde_json::Value, one: &str, many: &str| {
        let n = n.as_u64().unwrap();
        format!("{n} {}", if n == 1 { one } else { many })
    };
    for p in ["perfect", "random"] {
        let s = &last["summary"][p];
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(p))
            .unwrap();
        for (k, one) in [("wins", "win"), ("draws", "draw"), ("losses", "loss")] {
            assert!(line.contains(&plural(&s[k], one, k)), "{p} {k}: {line}");
        }
        let ci = format!(
            "(95%: {:.3} to {:.3})",
            s["ci95"][0].as_f64().unwrap(),
            s["ci95"][1].as_f64().unwrap()
        );
        assert!(line.contains(&ci), "{line}");
        for colour in ["White", "Black"] {
            let r = &s[format!("as_{}", colour.to_lowercase())];
            let want = format!(
                "as {colour}: {}, {}, {}",
                plural(&r["wins"], "win", "wins"),
                plural(&r["draws"], "draw", "draws"),
                plural(&r["losses"], "loss", "losses")
            );
            let section = text.split(line).nth(1).unwrap();
            assert!(section.contains(&want), "{want}: {text}");
        }
    }
    let ended = text.lines().find(|l| l.contains("ended by: ")).unwrap();
    for (reason, n) in last["endings"].as_object().unwrap() {
        let n = n.as_u64().unwrap();
        assert_eq!(ended.contains(&format!("{n} {reason}")), n > 0, "{ended}");
    }
}

/// `arena --record`: an interrupted run (its file cut in the middle of a
/// line) goes on where it stopped, plays the same games as a whole run, and
/// a run with other arguments is refused.
#[test]
fn arena_record_resumes_an_interrupted_run() {
    let (dir, _db) = database(4, false);
    let work = tempfile::tempdir().unwrap();
    let record = work.path().join("perfect-random.record");
    let arena = |games: &str, seed: &str| {
        perfect_against_random(
            dir.path(),
            games,
            seed,
            &["--record", record.to_str().unwrap()],
        )
    };
    // the game lines of a run, by game, and its summary
    let lines = |out: &std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut games = std::collections::BTreeMap::new();
        let mut summary = None;
        for l in String::from_utf8_lossy(&out.stdout).lines() {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            match v["game"].as_u64() {
                Some(i) => {
                    games.insert(i, v);
                }
                None => summary = Some(v["summary"].take()),
            }
        }
        (games, summary.expect("a summary line"))
    };
    let (whole, _) = lines(&arena("6", "3"));
    assert_eq!(whole.len(), 6);
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.lines().count(), 7, "a header and 6 games: {text}");
    // killed after two games, in the middle of writing the third
    let kept: Vec<&str> = text.lines().take(3).collect();
    let third = text.lines().nth(3).unwrap();
    let cut = format!("{}\n{}", kept.join("\n"), &third[..third.len() / 2]);
    std::fs::write(&record, cut).unwrap();
    let out = arena("8", "3");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("2 of 8 games kept"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (resumed, summary) = lines(&out);
    assert_eq!(resumed.len(), 8);
    for (i, g) in &whole {
        assert_eq!(&resumed[i], g, "game {i} differs from the whole run's");
    }
    let n = |p: &str, k: &str| summary[p][k].as_u64().unwrap();
    assert_eq!(
        n("perfect", "wins") + n("perfect", "draws") + n("perfect", "losses"),
        8
    );
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.lines().count(), 9, "a header and 8 games: {text}");
    assert!(text.ends_with('\n'));
    // another seed plays other games: refused, naming the file
    let out = arena("8", "4");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("records another run") && err.contains("perfect-random.record"),
        "{err}"
    );
    // a file that is not a record is refused and left as it is, its last
    // line unfinished or not
    for text in ["notes\nmore notes", "notes"] {
        std::fs::write(&record, text).unwrap();
        let out = arena("8", "3");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not an arena record"), "{err}");
        assert_eq!(std::fs::read_to_string(&record).unwrap(), text);
    }
}

#[test]
fn simple_walks_into_a_double_mill_that_expert_sees() {
    // the movement phase of the 6-stone game
    let dir = common::flying_db(Limits {
        max_stones: 6,
        max_total: 12,
        placement: false,
        move_limit: None,
    });
    let db = Database::open(dir.path()).unwrap();
    let variant = Variant::default();
    // 6 against 6, White to move, a draw: only e5-e4 holds it; after any
    // other move Black builds a double mill (a stone that closes a mill at
    // every move: f2 and d2 in the line below)
    let pos: Position = "WBW...BBW....BB.WW..BW.. w 0 0".parse().unwrap();
    assert_eq!(db.probe(&pos).unwrap(), millbase::Value::Draw);
    let all = millbase::rules::moves::legal_moves(&pos, variant);
    for &m in &all {
        let v = db.probe(&millbase::rules::moves::apply(&pos, m)).unwrap();
        if m.to_string() == "e5-e4" {
            assert_eq!(v, millbase::Value::Draw);
        } else {
            assert!(matches!(v, millbase::Value::Win(_)), "{m}: Black {v}");
        }
    }
    // after a7-a4, Black's perfect line moves one stone back and forth,
    // closing a mill each time
    let after = millbase::rules::moves::apply(&pos, "a7-a4".parse().unwrap());
    let line = db.line(&after, 40).unwrap();
    let black: Vec<millbase::Move> = line.steps.iter().step_by(2).map(|s| s.mv).collect();
    assert!(
        black.windows(2).any(|w| w[0].remove.is_some()
            && w[1].remove.is_some()
            && w[1].from == Some(w[0].to)
            && Some(w[1].to) == w[0].from),
        "no stone shuttles between two mills in {:?}",
        black.iter().map(|m| m.to_string()).collect::<Vec<_>>()
    );
    // simple, 2 plies deep, sees no difference between the moves ...
    let seen = rustc_hash::FxHashSet::default();
    let found = millbase::play::players::search::search(
        &pos,
        variant,
        millbase::play::players::search::Config::SIMPLE,
        &seen,
    );
    assert_eq!(found.best.len(), all.len(), "simple told the moves apart");
    // ... and so walks into the double mill with most seeds; expert never
    let game = Game::new(pos, variant, 0);
    let mut lost = 0;
    for seed in 0..8 {
        let s = Level::Simple
            .player(seed, None)
            .unwrap()
            .choose(&game)
            .unwrap();
        lost += usize::from(s.to_string() != "e5-e4");
        let e = Level::Expert
            .player(seed, None)
            .unwrap()
            .choose(&game)
            .unwrap();
        assert_eq!(e.to_string(), "e5-e4", "expert, seed {seed}");
    }
    assert!(
        lost >= 4,
        "simple held the draw with {} of 8 seeds",
        8 - lost
    );
}

/// The games of an arena do not depend on how many threads play them: each
/// game is seeded from the run's seed and its number, and the levels that
/// read no clock choose alike (the JSON lines equal, game by game).
#[test]
fn arena_games_are_the_same_on_one_thread_and_on_two() {
    let (dir, _db) = database(4, true);
    let db = dir.path().to_str().unwrap();
    let lines = |threads: &str| -> Vec<String> {
        let o = common::run(&[
            "arena",
            "--white",
            "ultra",
            "--black",
            "simple",
            "--games",
            "8",
            "--swap",
            "--seed",
            "5",
            "--db",
            db,
            "--json",
            "--threads",
            threads,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut games: Vec<String> = String::from_utf8(o.stdout)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("{\"game\""))
            .map(String::from)
            .collect();
        games.sort();
        games
    };
    let one = lines("1");
    assert_eq!(one.len(), 8);
    assert_eq!(one, lines("2"));
}

/// `ultra`'s choice, against a second reckoning of its measure: where it
/// cannot win, it plays a move that keeps its outcome and gives a fallible
/// opponent (two plies deep, softmax of the `simple` evaluation at
/// temperature 40) the highest chance of a move that lowers the opponent's
/// outcome, the longer loss among equals. The test reckons the replies'
/// outcomes from the whole answer (not the standings `ultra` reads) and the
/// two-ply scores itself; only the `simple` evaluation is shared.
#[test]
fn ultra_chooses_the_move_most_likely_to_draw_a_mistake() {
    use millbase::answer::answers::Outcome;
    use millbase::play::players::search::{Eval, evaluate};
    use millbase::rules::moves;
    let (_dir, db) = database(4, true);
    let v = Variant::default();
    // the two-ply score of `mv` for its mover, as the model opponent sees it
    let score = |pos: &Position, mv| -> f64 {
        let after = moves::apply(pos, mv);
        let answers = moves::legal_moves(&after, v);
        if after.mover_below_minimum() || answers.is_empty() {
            return 1e6;
        }
        let worst = answers.iter().map(|&a| {
            let next = moves::apply(&after, a);
            if next.mover_below_minimum() {
                -1e6
            } else {
                f64::from(evaluate(&next, v, Eval::Simple))
            }
        });
        worst.fold(f64::MAX, f64::min)
    };
    // the chance that the side to move at `pos` (counter `c`) lowers its outcome
    let chance = |pos: &Position, c: u16| -> f64 {
        let ask = db.ask_in_game(c, 100, false);
        let replies = db.answer_to(pos, ask).unwrap().moves;
        let Some(best) = replies.iter().map(outcome_for_mover).min() else {
            return 0.0;
        };
        let scores: Vec<f64> = replies.iter().map(|r| score(pos, r.mv)).collect();
        let top = scores.iter().copied().fold(f64::MIN, f64::max);
        let (mut all, mut bad) = (0.0, 0.0);
        for (r, s) in replies.iter().zip(&scores) {
            let w = ((s - top) / 40.0).exp();
            all += w;
            if outcome_for_mover(r) > best {
                bad += w;
            }
        }
        bad / all
    };
    let (mut judged, mut mattered) = (0, 0);
    for seed in 0..30u64 {
        let played = play_game(
            start(4),
            v,
            100,
            (Level::Random, Level::Random),
            (seed, seed + 7),
            None,
        )
        .unwrap();
        let g = &played.game;
        for (k, (pos, &c)) in g.positions().iter().zip(g.counters()).enumerate() {
            if k == g.moves().len() {
                break;
            }
            let answer = db.answer_to(pos, db.ask_in_game(c, 100, false)).unwrap();
            let mine = outcome_for_mover(&answer.moves[0]);
            let candidates: Vec<_> = (answer.moves.iter())
                .filter(|m| outcome_for_mover(m) == mine)
                .collect();
            if mine == Outcome::Win || candidates.len() < 2 {
                continue;
            }
            let game = db.new_game(*pos, Some(c)).unwrap();
            let chosen = Level::Ultra
                .player(seed, Some(db.clone()))
                .unwrap()
                .choose(&game)
                .unwrap();
            let keyed: Vec<(f64, i32, String)> = candidates
                .iter()
                .map(|m| {
                    let c2 = moves::counter_after(m.mv, c);
                    let p = if c2 >= 100 {
                        0.0
                    } else {
                        chance(&m.position, c2)
                    };
                    // the length of a loss breaks ties; among draws none
                    let length = match mine {
                        Outcome::Loss => m.value.plies().map_or(0, i32::from),
                        _ => 0,
                    };
                    (p, length, m.mv.to_string())
                })
                .collect();
            let best = keyed
                .iter()
                .map(|k| (k.0, k.1))
                .fold((f64::MIN, i32::MIN), |a, b| {
                    if b.0 > a.0 + 1e-12 || ((b.0 - a.0).abs() <= 1e-12 && b.1 > a.1) {
                        b
                    } else {
                        a
                    }
                });
            let mine_key = keyed
                .iter()
                .find(|k| k.2 == chosen.to_string())
                .unwrap_or_else(|| {
                    panic!("{pos}: ultra's {chosen} does not keep its outcome {mine:?}")
                });
            assert!(
                (mine_key.0 - best.0).abs() <= 1e-9 && mine_key.1 == best.1,
                "{pos} at counter {c}: ultra played {chosen} {mine_key:?}, the best is {best:?}: {keyed:?}"
            );
            judged += 1;
            let lowest = keyed.iter().map(|k| k.0).fold(f64::MAX, f64::min);
            mattered += usize::from(best.0 > lowest + 1e-9);
        }
    }
    assert!(judged > 100, "{judged} choices judged");
    assert!(
        mattered > 20,
        "only {mattered} choices where the chances differed"
    );
}

/// A served `expert` move has a node budget: the search stops deepening
/// within it (the nodes searched bounded by it, a shallower depth than the
/// level's own budget reaches), the player bounded by it plays one of that
/// search's best moves, and a budget, unlike a clock, plays the same move
/// every time.
#[test]
fn a_node_budget_bounds_an_expert_move_and_keeps_it_reproducible() {
    use millbase::play::players::search::{Config, search};
    let v = Variant::default();
    let pos: Position = "W.W.B..B.W..BW...B.W..B. w 0 0".parse().unwrap();
    let seen = Default::default();
    let own = search(&pos, v, Config::EXPERT, &seen);
    let budget = 20_000;
    let small = search(
        &pos,
        v,
        Config {
            node_budget: budget,
            ..Config::EXPERT
        },
        &seen,
    );
    assert!(
        small.nodes <= budget + 1,
        "{} nodes within a budget of {budget}",
        small.nodes
    );
    assert!(
        small.depth < own.depth,
        "depth {} within the budget, {} without",
        small.depth,
        own.depth
    );
    assert!(own.nodes > budget);
    let game = Game::with_move_limit(pos, v, 0, 100);
    let mut moves = std::collections::BTreeSet::new();
    for _ in 0..3 {
        let mut p = Level::Expert.player_within(1, None, Some(budget)).unwrap();
        let mv = p.choose(&game).unwrap();
        assert!(
            small.best.contains(&mv),
            "{mv} is not among {:?}",
            small.best
        );
        moves.insert(mv.to_string());
    }
    assert_eq!(
        moves.len(),
        1,
        "the same seed and budget, another move: {moves:?}"
    );
}
