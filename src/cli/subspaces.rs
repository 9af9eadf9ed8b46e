//! `millbase subspaces`: the movement subspaces and their sizes.

use super::{Failure, rules_of, write_json};
use clap::Args;
use millbase::Variant;
use millbase::answer::report::SubspaceRow;
use millbase::index::plan::Limits;
use millbase::index::{Indexer, Subspace};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;

#[derive(Args)]
pub struct SubspacesArgs {
    /// One JSON object per line: {"mover", "opponent", "mover_hand",
    /// "opponent_hand", "classes", "index_size", "density"}.
    #[arg(long)]
    json: bool,
    /// The subspaces and sectors of these rules: a preset (nine,
    /// nine-no-flying, three, six, seven) or a file describing one's own.
    #[arg(long, value_name = "NAME|FILE")]
    rules: Option<String>,
}

/// The rows of `subs`. Classes and index size depend only on the stones on
/// the board, so each pair of stone counts is counted once.
fn rows(ix: &Indexer, subs: Vec<Subspace>) -> Vec<SubspaceRow> {
    let mut boards: Vec<Subspace> = subs
        .iter()
        .map(|s| Subspace::movement(s.mover, s.opponent))
        .collect();
    boards.sort_by_key(|s| (s.mover, s.opponent));
    boards.dedup();
    let sizes: HashMap<Subspace, (u64, u64)> = boards
        .into_par_iter()
        .map(|s| (s, (ix.classes(s), ix.index_size(s))))
        .collect();
    subs.into_iter()
        .map(|s| {
            let (classes, size) = sizes[&Subspace::movement(s.mover, s.opponent)];
            SubspaceRow::new(s, classes, size)
        })
        .collect()
}

/// The text table of `rows` under `title`, with a total line.
fn table(out: &mut impl Write, title: &str, rows: &[SubspaceRow]) -> std::io::Result<()> {
    writeln!(out, "{title}")?;
    writeln!(
        out,
        "{:>8} {:>7} {:>14} {:>14} {:>8}",
        "on board", "in hand", "classes", "index size", "density"
    )?;
    for r in rows {
        let name = format!("{}-{}", r.mover, r.opponent);
        let hands = format!("{}-{}", r.mover_hand, r.opponent_hand);
        let density = r.classes as f64 / r.index_size as f64;
        writeln!(
            out,
            "{name:>8} {hands:>7} {:>14} {:>14} {density:>8.4}",
            r.classes, r.index_size
        )?;
    }
    let classes: u64 = rows.iter().map(|r| r.classes).sum();
    let size: u64 = rows.iter().map(|r| r.index_size).sum();
    let density = classes as f64 / size as f64;
    writeln!(
        out,
        "{:>8} {:>7} {classes:>14} {size:>14} {density:>8.4}",
        "total", ""
    )
}

pub fn run(a: SubspacesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let variant = match &a.rules {
        Some(arg) => Variant::of_rules(&rules_of(arg)?).map_err(Failure::input)?,
        None => Variant::default(),
    };
    let ix = Indexer::of(variant.geometry());
    let stones = variant.stones();
    let limits = Limits {
        max_stones: stones,
        max_total: 2 * stones,
        ..Limits::default()
    };
    let of_the_game =
        |subs: Vec<Subspace>| subs.into_iter().filter(|&s| limits.admits(s)).collect();
    let movement = rows(&ix, of_the_game(Subspace::all_movement()));
    let placement = rows(&ix, of_the_game(Subspace::all_placement()));
    if a.json {
        for r in movement.iter().chain(&placement) {
            write_json(out, r)?;
        }
        return Ok(());
    }
    table(out, "Movement phase (no stones in hand):", &movement)?;
    writeln!(out)?;
    table(
        out,
        "Placement phase (stones in hand; positions with the side to move first):",
        &placement,
    )?;
    Ok(())
}
