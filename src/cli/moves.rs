//! `millbase moves`: every legal move of a position.

use super::{Failure, PositionArgs, VariantArgs, write_json};
use clap::Args;
use millbase::answer::report::MoveList;
use millbase::rules::moves;
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
    a.variant.check_board()?;
    let start = a.position.start(false)?;
    let variant = a.variant.variant()?;
    let game = a.position.game(start, variant)?;
    let pos = game.position();
    // none once the game is over
    let list = game.legal_moves();
    if a.json {
        write_json(out, &MoveList::new(&pos, &list))?;
    } else {
        if let Some(r) = game.result().filter(|_| !game.moves().is_empty()) {
            writeln!(out, "The game is over: {r}.")?;
        }
        for m in list {
            writeln!(out, "{:<10} {}", m.to_string(), moves::apply(&pos, m))?;
        }
    }
    Ok(())
}
