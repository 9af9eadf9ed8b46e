//! `millbase show`: draw a position, a finished game included.

use super::text::board;
use super::{Failure, PositionArgs, VariantArgs};
use clap::Args;
use millbase::rules::moves;
use std::io::Write;

#[derive(Args)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    variant: VariantArgs,
}

pub fn run(a: ShowArgs, out: &mut impl Write) -> Result<(), Failure> {
    let start = a.position.start(true)?;
    let variant = a.variant.variant()?;
    let game = a.position.game(start, variant)?;
    let pos = game.position();
    board(out, &pos)?;
    match game.result().filter(|_| !game.moves().is_empty()) {
        Some(r) => writeln!(out, "The game is over: {r}.")?,
        None => {
            if let Some(end) = moves::ending(&pos, variant) {
                writeln!(out, "{end}")?;
            }
        }
    }
    Ok(())
}
