//! The cross table of `scripts/cross-table`: reads every `A-B.json` of DIR
//! (the `millbase arena --json` output of one pair) and prints one
//! tab-separated line per pair: games, mean plies, each side's wins, draws
//! and losses with the score's 95% interval, mistakes per 100 moves by phase
//! and milliseconds per move (median and largest). Then the issue's
//! targets: the games `perfect` and `ultra` lost, `ultra`'s and `perfect`'s
//! wins against each other level with the one-sided p-value that `ultra`
//! wins more often (a two-proportion z-test), and each level's mistakes per
//! 100 moves over all its games.
//!
//! `cargo run --release --example cross_table -- DIR`

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// What one level did over the games of one pair, or of all its pairs.
#[derive(Default, Clone, Copy)]
struct Tally {
    games: u64,
    wins: u64,
    losses: u64,
    moves: u64,
    mistakes: u64,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.games += o.games;
        self.wins += o.wins;
        self.losses += o.losses;
        self.moves += o.moves;
        self.mistakes += o.mistakes;
    }
}

/// One game line's part for `colour` (`white` or `black`).
fn game_tally(v: &Value, colour: &str) -> Tally {
    let plies = v["plies"].as_u64().unwrap_or(0);
    let result = v["result"].as_str().unwrap_or("");
    Tally {
        games: 1,
        wins: u64::from(result == colour),
        losses: u64::from(result != colour && result != "draw"),
        // White moves first
        moves: if colour == "white" {
            plies.div_ceil(2)
        } else {
            plies / 2
        },
        mistakes: v["mistakes"][colour].as_u64().unwrap_or(0),
    }
}

/// P(Z > z) of a standard normal.
fn upper_tail(z: f64) -> f64 {
    0.5 * libm::erfc(z / std::f64::consts::SQRT_2)
}

/// The one-sided p-value that `a` wins more often than `b` (pooled
/// two-proportion z-test).
fn p_more_wins(a: Tally, b: Tally) -> f64 {
    let (na, nb) = (a.games as f64, b.games as f64);
    let pooled = (a.wins + b.wins) as f64 / (na + nb);
    let se = (pooled * (1.0 - pooled) * (1.0 / na + 1.0 / nb)).sqrt();
    if se == 0.0 {
        return if a.wins as f64 / na > b.wins as f64 / nb {
            0.0
        } else {
            1.0
        };
    }
    upper_tail((a.wins as f64 / na - b.wins as f64 / nb) / se)
}

/// One level's part of a pair's line.
fn side(summary: &Value) -> [String; 3] {
    let n = |k: &str| summary[k].as_u64().unwrap_or(0);
    let f = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let result = format!(
        "{}/{}/{}, {:.3} [{:.3}, {:.3}]",
        n("wins"),
        n("draws"),
        n("losses"),
        f(&summary["score"]),
        f(&summary["ci95"][0]),
        f(&summary["ci95"][1])
    );
    let mistakes = match summary["mistakes_per_100"].as_object() {
        Some(m) => (m.iter())
            .map(|(phase, x)| format!("{phase} {:.2}", f(x)))
            .collect::<Vec<_>>()
            .join(", "),
        None => "-".to_string(),
    };
    let ms = format!(
        "{:.2} / {:.2}",
        f(&summary["ms_per_move"]["median"]),
        f(&summary["ms_per_move"]["max"])
    );
    [result, mistakes, ms]
}

/// The line of the pair whose arena output is `path` and each level's
/// tally, or why not.
fn pair_line(path: &Path) -> Result<(String, [(String, Tally); 2]), String> {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let (a, b) = stem
        .split_once('-')
        .ok_or_else(|| format!("{}: not named A-B.json", path.display()))?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (mut games, mut plies) = (0u64, 0u64);
    let (mut ta_all, mut tb_all) = (Tally::default(), Tally::default());
    let mut summary = None;
    for line in text.lines() {
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(p) = v["plies"].as_u64() {
            games += 1;
            plies += p;
            let a_colour = if v["white"] == a { "white" } else { "black" };
            let b_colour = if a_colour == "white" {
                "black"
            } else {
                "white"
            };
            ta_all.add(game_tally(&v, a_colour));
            tb_all.add(game_tally(&v, b_colour));
        } else if v["summary"].is_object() {
            summary = Some(v["summary"].clone());
        }
    }
    let summary = summary.ok_or_else(|| format!("{}: no summary line", path.display()))?;
    let [ra, ma, ta] = side(&summary[a]);
    let [rb, mb, tb] = side(&summary[b]);
    let line = format!(
        "{a} – {b}\t{games}\t{:.1}\t{ra}\t{rb}\t{ma}\t{mb}\t{ta}\t{tb}",
        plies as f64 / games.max(1) as f64
    );
    Ok((line, [(a.to_string(), ta_all), (b.to_string(), tb_all)]))
}

/// The targets from every pair's tallies, keyed (level, opponent).
fn print_targets(pairs: &BTreeMap<(String, String), Tally>) {
    println!();
    for level in ["perfect", "ultra"] {
        let lost: u64 = (pairs.iter())
            .filter(|((l, _), _)| l == level)
            .map(|(_, t)| t.losses)
            .sum();
        let games: u64 = (pairs.iter())
            .filter(|((l, _), _)| l == level)
            .map(|(_, t)| t.games)
            .sum();
        println!("{level} lost {lost} of {games} games");
    }
    for opponent in ["random", "simple", "hard", "expert"] {
        let get = |l: &str| pairs.get(&(l.to_string(), opponent.to_string())).copied();
        if let (Some(u), Some(p)) = (get("ultra"), get("perfect")) {
            println!(
                "against {opponent}: ultra won {}/{} ({:.1}%), perfect {}/{} ({:.1}%); \
                 one-sided p that ultra wins more often: {:.2e}",
                u.wins,
                u.games,
                100.0 * u.wins as f64 / u.games as f64,
                p.wins,
                p.games,
                100.0 * p.wins as f64 / p.games as f64,
                p_more_wins(u, p)
            );
        }
    }
    let mut levels: BTreeMap<&str, Tally> = BTreeMap::new();
    for ((l, _), t) in pairs {
        levels.entry(l).or_default().add(*t);
    }
    for (l, t) in levels {
        println!(
            "{l}: {} mistakes in {} moves, {:.2} per 100 moves",
            t.mistakes,
            t.moves,
            100.0 * t.mistakes as f64 / t.moves.max(1) as f64
        );
    }
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: cross_table DIR (the OUT of scripts/cross-table)");
        std::process::exit(2);
    };
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(d) => d
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect(),
        Err(e) => {
            eprintln!("{dir}: {e}");
            std::process::exit(1);
        }
    };
    files.sort();
    println!(
        "pair (A – B)\tgames\tmean plies\tA: wins/draws/losses, score [95%]\t\
         B: wins/draws/losses, score [95%]\tA: mistakes per 100 moves\t\
         B: mistakes per 100 moves\tA: ms per move (median / max)\tB: ms per move (median / max)"
    );
    let mut pairs = BTreeMap::new();
    for f in files {
        match pair_line(&f) {
            Ok((line, [(a, ta), (b, tb)])) => {
                println!("{line}");
                pairs.insert((a.clone(), b.clone()), ta);
                pairs.insert((b, a), tb);
            }
            Err(e) => eprintln!("skipped {e}"),
        }
    }
    print_targets(&pairs);
}
