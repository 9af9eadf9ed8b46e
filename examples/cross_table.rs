//! The cross table of `scripts/cross-table`: reads every `A-B.json` of DIR
//! (the `millbase arena --json` output of one pair) and prints one
//! tab-separated line per pair: games, mean plies, each side's wins, draws
//! and losses with the score's 95% interval, mistakes per 100 moves by phase
//! and milliseconds per move (median and largest).
//!
//! `cargo run --release --example cross_table -- DIR`

use serde_json::Value;
use std::path::Path;

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

/// The line of the pair whose arena output is `path`, or why not.
fn pair_line(path: &Path) -> Result<String, String> {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let (a, b) = stem
        .split_once('-')
        .ok_or_else(|| format!("{}: not named A-B.json", path.display()))?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (mut games, mut plies) = (0u64, 0u64);
    let mut summary = None;
    for line in text.lines() {
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(p) = v["plies"].as_u64() {
            games += 1;
            plies += p;
        } else if v["summary"].is_object() {
            summary = Some(v["summary"].clone());
        }
    }
    let summary = summary.ok_or_else(|| format!("{}: no summary line", path.display()))?;
    let [ra, ma, ta] = side(&summary[a]);
    let [rb, mb, tb] = side(&summary[b]);
    Ok(format!(
        "{a} – {b}\t{games}\t{:.1}\t{ra}\t{rb}\t{ma}\t{mb}\t{ta}\t{tb}",
        plies as f64 / games.max(1) as f64
    ))
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
    for f in files {
        match pair_line(&f) {
            Ok(line) => println!("{line}"),
            Err(e) => eprintln!("skipped {e}"),
        }
    }
}
