//! `millbase show`: draw a position.

use super::{Failure, parse_position};
use clap::Args;
use std::io::Write;

#[derive(Args)]
pub struct ShowArgs {
    /// The position, e.g. "........................ w 9 9".
    position: String,
}

pub fn run(a: ShowArgs, out: &mut impl Write) -> Result<(), Failure> {
    let pos = parse_position(&a.position)?;
    let (wh, bh) = pos.hands();
    write!(out, "{}", pos.diagram())?;
    writeln!(
        out,
        "{} to move; in hand: White {wh}, Black {bh}",
        pos.side.name()
    )?;
    writeln!(out, "{pos}")?;
    Ok(())
}
