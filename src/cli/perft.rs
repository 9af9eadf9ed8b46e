//! `millbase perft`: count the positions some plies deep.

use super::{Failure, VariantArgs, parse_position, write_json};
use clap::Args;
use millbase::answer::report::Perft;
use millbase::rules::generic::Play;
use millbase::rules::moves;
use std::io::Write;

#[derive(Args)]
pub struct PerftArgs {
    /// The position, e.g. "........................ w 9 9".
    position: String,
    /// Plies to search (0..=10; each ply multiplies the work by up to 24: from
    /// the initial position depth 7 takes seconds, depth 9 about half an hour).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=10))]
    depth: u32,
    /// Print {"depth": D, "nodes": N}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    variant: VariantArgs,
    /// Count on the board and under the rules of a preset or a description
    /// (`millbase rules`), the plain way: the position is written with that
    /// board's points, or `start` for its initial position.
    #[arg(long, value_name = "NAME|FILE", conflicts_with_all = ["db", "no_flying"])]
    rules: Option<String>,
}

pub fn run(a: PerftArgs, out: &mut impl Write) -> Result<(), Failure> {
    let nodes = match &a.rules {
        Some(r) => {
            let play = Play::new(super::rules_of(r)?);
            let pos = match a.position.as_str() {
                "start" => play.initial(),
                s => play.parse(s).map_err(|e| super::bad_position(s, e))?,
            };
            play.perft(&pos, a.depth)
        }
        None => {
            a.variant.check_board()?;
            let pos = parse_position(&a.position)?;
            let bar = super::progress::counter_bar("first moves counted");
            let nodes = moves::perft_parallel_with(&pos, a.depth, a.variant.variant()?, &|k, n| {
                bar.set_length(n as u64);
                bar.set_position(k as u64);
            });
            bar.finish_and_clear();
            nodes
        }
    };
    if a.json {
        let row = Perft {
            depth: a.depth,
            nodes,
        };
        write_json(out, &row)?;
    } else {
        writeln!(out, "perft({}) = {nodes}", a.depth)?;
    }
    Ok(())
}
