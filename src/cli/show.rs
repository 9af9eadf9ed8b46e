//! `millbase show`: draw a position, a finished game included.

use super::{Failure, PositionArgs, VariantArgs};
use clap::Args;
use millbase::moves;
use millbase::position::Position;
use std::io::Write;

#[derive(Args)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    variant: VariantArgs,
}

/// The board, who is to move, the stones in hand and the position string.
pub fn board(out: &mut impl Write, pos: &Position) -> std::io::Result<()> {
    let (wh, bh) = pos.hands();
    write!(out, "{}", pos.diagram())?;
    writeln!(
        out,
        "{} to move; in hand: White {wh}, Black {bh}",
        pos.side.name()
    )?;
    writeln!(out, "{pos}")
}

pub fn run(a: ShowArgs, out: &mut impl Write) -> Result<(), Failure> {
    let start = a.position.start(true)?;
    let rules = a.variant.rules()?;
    let pos = a.position.play(start, rules)?;
    board(out, &pos)?;
    if let Some(end) = moves::ending(&pos, rules) {
        writeln!(out, "{end}")?;
    }
    Ok(())
}
