//! The review under the no-removal rule: its marks agree with the best moves
//! the database gives by another path (`Database::best_moves_to`, what the
//! perfect player and `query --best` stand on), its distances to the next
//! removal follow the perfect line, and a best move that does not end the
//! game soonest names the one that does.

mod common;

use millbase::answer::policy::Ask;
use millbase::answer::query::Database;
use millbase::answer::records::sector_report;
use millbase::play::review::{Mark, review};
use millbase::rules::game::Game;
use millbase::rules::moves::{self, counter_after};
use millbase::rules::position::Position;
use millbase::solve::value::Value;

/// A seeded stream of numbers (SplitMix64), for random games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// A random game of at most `plies` from `start` on `db` (under its rule).
fn random_game(db: &Database, start: Position, plies: usize, rng: &mut Rng) -> Game {
    let mut game = db.new_game(start, Some(0)).unwrap();
    for _ in 0..plies {
        if game.result().is_some() {
            break;
        }
        let moves = game.legal_moves();
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    game
}

/// Plies from `pos` at `counter` to the first removal or the end of the
/// game along the perfect line under the rule, the removal included.
fn plies_to_removal(db: &Database, pos: &Position, counter: u16) -> Option<u16> {
    let line = db.line_at(pos, counter, 0).unwrap();
    let steps = &line.steps;
    match steps.iter().position(|s| s.mv.remove.is_some()) {
        Some(k) => Some(k as u16 + 1),
        None => Some(steps.len() as u16),
    }
}

#[test]
fn review_marks_under_the_rule_agree_with_the_best_moves_and_explain_themselves() {
    let dir = common::shared_db(&["--max-stones", "4"]);
    let db = Database::open(dir.path()).unwrap();
    let mut rng = Rng(7);
    // the starts of games, and the longest wins and losses of the movement
    // pairs: decided positions, where the distances matter
    let mut starts: Vec<Position> = [
        "........................ w 4 4",
        "WW.W....BB.B............ w 1 1",
    ]
    .map(|p| p.parse().unwrap())
    .to_vec();
    for pair in ["4-4", "4-3", "3-4", "3-3"] {
        let report = sector_report(&db, pair.parse().unwrap()).unwrap();
        for r in report.longest_wins.iter().chain(&report.longest_losses) {
            starts.push(r.position.parse().unwrap());
        }
    }
    let (mut seen, mut sooner_seen, mut keeps_seen, mut removals) = (0, 0, 0, 0);
    for game_no in 0..60 {
        let start = starts[game_no % starts.len()];
        let game = random_game(&db, start, 30, &mut rng);
        // every move of every position of the game, each reviewed as the
        // one move of a game from there
        let mut reviewed = vec![];
        for (k, pos) in game.positions()[..game.moves().len()].iter().enumerate() {
            let counter = game.counters()[k];
            for mv in moves::legal_moves(pos, db.variant()) {
                let mut one = db.new_game(*pos, Some(counter)).unwrap();
                one.play(mv).unwrap();
                let m = review(&db, &one, false).unwrap().remove(0);
                reviewed.push((*pos, counter, m));
            }
        }
        for (pos, counter, m) in &reviewed {
            let (pos, counter) = (*pos, *counter);
            let ask = Ask {
                counter: Some(counter),
                search: false,
            };
            let standings = db.standings(&pos, ask).unwrap();
            let best = db.best_moves_to(&pos, ask, &standings).unwrap();
            let answer = db.answer_to(&pos, ask).unwrap();
            let in_best = best.iter().any(|b| b.mv == m.mv);
            let what = format!("{pos} at counter {counter}: {} {:?}", m.mv, m.mark);
            // best exactly where the other path counts the move among the
            // best; the first of the answer (query --best) is always best
            assert_eq!(m.mark == Mark::Best, in_best, "{what}");
            assert_eq!(m.best.is_none(), in_best, "{what}");
            if answer.moves[0].mv == m.mv {
                assert_eq!(m.mark, Mark::Best, "{what}: query --best's move");
            }
            if let Some(b) = m.best {
                assert!(best.iter().any(|x| x.mv == b), "{what}: best {b}");
            }
            // the distance to the next removal, where the mover wins or
            // loses under the rule: 1 for a removal, else one more than
            // the plies to the next removal along the perfect line after it
            let after = answer.moves.iter().find(|x| x.mv == m.mv).unwrap();
            let drawn = after.rule.unwrap().category.is_draw();
            assert_eq!(m.dtc.is_some(), !drawn, "{what}");
            if let Some(d) = m.dtc {
                let want = if m.mv.remove.is_some() || after.value == Value::Loss(0) {
                    removals += 1;
                    1
                } else {
                    let c = counter_after(m.mv, counter);
                    plies_to_removal(&db, &after.position, c).unwrap() + 1
                };
                assert_eq!(d, want, "{what}");
            }
            if m.mark == Mark::Keeps {
                keeps_seen += 1;
                assert!(m.best_dtc.is_some() || m.dtc.is_none(), "{what}");
            }
            // a best move that does not end the game soonest names the one
            // that does: same outcome, fewer plies to the end for a win
            // (more for a loss), itself ranked no better under the rule
            if let Some((faster, standing)) = m.sooner {
                sooner_seen += 1;
                assert_eq!(m.mark, Mark::Best, "{what}");
                let f = answer.moves.iter().find(|x| x.mv == faster).unwrap();
                assert_eq!(f.value.name(), after.value.name(), "{what}: {faster}");
                let (a, b) = (after.value.plies().unwrap(), f.value.plies().unwrap());
                match after.value {
                    Value::Loss(_) => assert!(b < a, "{what}: {faster} wins sooner"),
                    _ => assert!(b > a, "{what}: {faster} loses later"),
                }
                assert_eq!(standing.value.plies(), Some(b), "{what}");
            }
            seen += 1;
        }
    }
    // the sample reaches every case it checks
    assert!(seen > 1000, "{seen} moves reviewed");
    assert!(
        sooner_seen > 0,
        "no best move slower to the end than another"
    );
    assert!(keeps_seen > 0, "no kept outcome at a worse distance");
    assert!(removals > 0, "no removal among decided moves");
}
