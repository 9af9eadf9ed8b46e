//! `millbase moves`: every legal move of a position.

use super::{Failure, PositionArgs, VariantArgs, write_json};
use clap::Args;
use millbase::moves;
use millbase::report::MoveList;
use std::io::Write;

#[derive(Args)]
pub struct MovesArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Print one JSON object: {"position", "moves": [{"move", "position"}]}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    variant: VariantArgs,
}

pub fn run(a: MovesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let start = a.position.start(false)?;
    let rules = a.variant.rules()?;
    let pos = a.position.play(start, rules)?;
    let list = moves::legal_moves(&pos, rules);
    if a.json {
        write_json(out, &MoveList::new(&pos, &list))?;
    } else {
        for m in list {
            writeln!(out, "{:<10} {}", m.to_string(), moves::apply(&pos, m))?;
        }
    }
    Ok(())
}
