//! `millbase moves`: every legal move of a position.

use super::{Failure, RuleArgs, parse_position, write_json};
use clap::Args;
use millbase::moves;
use millbase::report::MoveList;
use std::io::Write;

#[derive(Args)]
pub struct MovesArgs {
    /// The position, e.g. "........................ w 9 9".
    position: String,
    /// Print one JSON object: {"position", "moves": [{"move", "position"}]}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleArgs,
}

pub fn run(a: MovesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let pos = parse_position(&a.position)?;
    let list = moves::legal_moves(&pos, a.rules.rules());
    if a.json {
        write_json(out, &MoveList::new(&pos, &list))?;
    } else {
        for m in list {
            writeln!(out, "{:<10} {}", m.to_string(), moves::apply(&pos, m))?;
        }
    }
    Ok(())
}
