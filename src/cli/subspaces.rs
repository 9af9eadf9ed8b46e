//! `millbase subspaces`: the movement subspaces and their sizes.

use super::{Failure, write_json};
use clap::Args;
use millbase::index::{Indexer, Subspace};
use millbase::report::SubspaceRow;
use rayon::prelude::*;
use std::io::Write;

#[derive(Args)]
pub struct SubspacesArgs {
    /// One JSON object per line: {"mover", "opponent", "classes", "index_size", "density"}.
    #[arg(long)]
    json: bool,
}

pub fn run(a: SubspacesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let ix = Indexer::new();
    let rows: Vec<SubspaceRow> = Subspace::all_movement()
        .into_par_iter()
        .map(|s| SubspaceRow::new(s, ix.classes(s), ix.index_size(s)))
        .collect();
    if !a.json {
        writeln!(
            out,
            "{:>8} {:>14} {:>14} {:>8}",
            "subspace", "classes", "index size", "density"
        )?;
    }
    for r in &rows {
        if a.json {
            write_json(out, r)?;
        } else {
            let name = format!("{}-{}", r.mover, r.opponent);
            let density = r.classes as f64 / r.index_size as f64;
            writeln!(
                out,
                "{name:>8} {:>14} {:>14} {density:>8.4}",
                r.classes, r.index_size
            )?;
        }
    }
    if !a.json {
        let classes: u64 = rows.iter().map(|r| r.classes).sum();
        let size: u64 = rows.iter().map(|r| r.index_size).sum();
        let density = classes as f64 / size as f64;
        writeln!(
            out,
            "{:>8} {classes:>14} {size:>14} {density:>8.4}",
            "total"
        )?;
    }
    Ok(())
}
