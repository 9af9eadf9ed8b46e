//! The engine's move generation against the naive implementation in `naive/`.

mod naive;

use millbase::Variant;
use millbase::rules::moves;
use millbase::rules::position::Position;
use naive::Naive;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn engine_children(s: &str, flying: bool) -> Vec<(String, String)> {
    let pos: Position = s.parse().unwrap();
    let mut v: Vec<(String, String)> = moves::legal_moves(&pos, Variant::nine(flying))
        .into_iter()
        .map(|m| (m.to_string(), moves::apply(&pos, m).to_string()))
        .collect();
    v.sort();
    v
}

fn naive_children(s: &str, flying: bool) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = Naive::parse(s, flying)
        .children()
        .into_iter()
        .map(|(m, c)| (m, c.text()))
        .collect();
    v.sort();
    v
}

#[test]
fn perft_from_initial_matches_naive() {
    let init = Position::initial();
    let naive = Naive::parse(&init.to_string(), true);
    for depth in 1..=5 {
        assert_eq!(
            moves::perft(&init, depth, Variant::default()),
            naive.perft(depth),
            "depth {depth}"
        );
    }
}

#[test]
fn perft_deeper_from_placement_positions_matches_naive() {
    // Positions a few placements in, where mills and removals start to matter.
    for s in [
        "WW.......B.......WBBB... w 5 5",
        "WW.B.....B.W............ w 6 6",
        ".W.W.W....B.B.B......... w 6 6",
        "W.W.B.W.B.W.B........... b 5 6",
    ] {
        let pos: Position = s.parse().unwrap();
        let naive = Naive::parse(s, true);
        for depth in 1..=4 {
            assert_eq!(
                moves::perft(&pos, depth, Variant::default()),
                naive.perft(depth),
                "{s} depth {depth}"
            );
        }
    }
}

#[test]
fn perft_movement_positions_with_and_without_flying() {
    for s in [
        "WWW.B....B....B.....B... w 0 0",
        "WW............W...BBB... w 0 0",
        "WW.W.W...B.B..B.B.....B. w 0 0",
        "WWWW.B.B.B.B..W......... b 0 0",
        "W.W..W..B..BW...B..B.... w 0 0",
    ] {
        for flying in [true, false] {
            let pos: Position = s.parse().unwrap();
            let naive = Naive::parse(s, flying);
            for depth in 1..=4 {
                assert_eq!(
                    moves::perft(&pos, depth, Variant::nine(flying)),
                    naive.perft(depth),
                    "{s} flying={flying} depth {depth}"
                );
            }
        }
    }
}

#[test]
fn random_games_agree_move_by_move() {
    let mut rng = StdRng::seed_from_u64(0x2545F4914F6CDD1D);
    for game in 0..3000 {
        let flying = game % 2 == 0;
        let mut s = Position::initial().to_string();
        for _ply in 0..200 {
            let e = engine_children(&s, flying);
            let n = naive_children(&s, flying);
            assert_eq!(e, n, "children of {s} (flying={flying})");
            let pos: Position = s.parse().unwrap();
            assert_eq!(
                moves::is_lost(&pos, Variant::nine(flying)),
                e.is_empty(),
                "{s}"
            );
            if e.is_empty() {
                break;
            }
            let (_, next) = &e[rng.random_range(0..e.len())];
            match next.parse::<Position>() {
                Ok(_) => s = next.clone(),
                // the game ended: the side to move fell below 3 stones
                Err(_) => break,
            }
        }
    }
}
