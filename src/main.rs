//! The `millbase` command line: a thin layer over the library.

use clap::{Args, Parser, Subcommand};
use millbase::index::{Indexer, Subspace};
use millbase::moves::{self, Rules};
use millbase::position::Position;
use rayon::prelude::*;
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;

/// Retrograde-analysis solver and perfect-play database for Nine Men's Morris.
///
/// Positions are written as in RULES.md: `BOARD SIDE WHITE_IN_HAND BLACK_IN_HAND`,
/// e.g. "........................ w 9 9" (quote it: it contains spaces). BOARD lists
/// the 24 points a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7
/// d7 g7 as W (white), B (black) or . (empty).
#[derive(Parser)]
#[command(name = "millbase", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone, Copy)]
struct RuleArgs {
    /// Play without flying (a side with 3 stones may only slide).
    #[arg(long)]
    no_flying: bool,
}

impl RuleArgs {
    fn rules(self) -> Rules {
        Rules {
            flying: !self.no_flying,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Draw the board of a position, with side to move and stones in hand.
    Show {
        /// The position, e.g. "........................ w 9 9".
        position: String,
    },
    /// List every legal move and the position after it.
    Moves {
        /// The position, e.g. "........................ w 9 9".
        position: String,
        /// Print one JSON object: {"position", "moves": [{"move", "position"}]}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// List the 49 movement subspaces with their classes, index size and density.
    Subspaces {
        /// One JSON object per line: {"mover", "opponent", "classes", "index_size", "density"}.
        #[arg(long)]
        json: bool,
    },
    /// Count the positions DEPTH plies deep (a move with its removal is one ply).
    Perft {
        /// The position, e.g. "........................ w 9 9".
        position: String,
        /// Plies to search.
        depth: u32,
        /// Print {"depth": D, "nodes": N}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RuleArgs,
    },
}

/// A failure of a command: the message and the exit status.
struct Failure {
    message: String,
    status: u8,
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure {
            message: e.to_string(),
            status: if e.kind() == std::io::ErrorKind::BrokenPipe {
                0
            } else {
                1
            },
        }
    }
}

impl Failure {
    /// Bad input from the user: exit status 2.
    fn input(e: impl std::fmt::Display) -> Failure {
        Failure {
            message: e.to_string(),
            status: 2,
        }
    }
}

fn parse_position(s: &str) -> Result<Position, Failure> {
    s.parse::<Position>()
        .map_err(|e| Failure::input(format!("bad position {s:?}: {e}")))
}

fn run(cli: Cli) -> Result<(), Failure> {
    let out = &mut std::io::stdout().lock();
    match cli.command {
        Command::Show { position } => {
            let pos = parse_position(&position)?;
            let (wh, bh) = pos.hands();
            write!(out, "{}", pos.diagram())?;
            writeln!(
                out,
                "{} to move; in hand: White {wh}, Black {bh}",
                pos.side.name()
            )?;
            writeln!(out, "{pos}")?;
        }
        Command::Moves {
            position,
            json,
            rules,
        } => {
            let pos = parse_position(&position)?;
            let list = moves::legal_moves(&pos, rules.rules());
            if json {
                let items: Vec<_> = list
                    .iter()
                    .map(|&m| json!({"move": m.to_string(), "position": moves::apply(&pos, m).to_string()}))
                    .collect();
                writeln!(
                    out,
                    "{}",
                    json!({"position": pos.to_string(), "moves": items})
                )?;
            } else {
                for m in list {
                    writeln!(out, "{:<10} {}", m.to_string(), moves::apply(&pos, m))?;
                }
            }
        }
        Command::Subspaces { json } => {
            let ix = Indexer::new();
            let rows: Vec<(Subspace, u64, u64)> = Subspace::all_movement()
                .into_par_iter()
                .map(|s| (s, ix.classes(s), ix.index_size(s)))
                .collect();
            if !json {
                writeln!(
                    out,
                    "{:>8} {:>14} {:>14} {:>8}",
                    "subspace", "classes", "index size", "density"
                )?;
            }
            for &(s, classes, size) in &rows {
                let density = classes as f64 / size as f64;
                if json {
                    let row = json!({"mover": s.mover, "opponent": s.opponent, "classes": classes,
                                     "index_size": size, "density": (density * 1e6).round() / 1e6});
                    writeln!(out, "{row}")?;
                } else {
                    writeln!(
                        out,
                        "{:>8} {classes:>14} {size:>14} {density:>8.4}",
                        s.to_string()
                    )?;
                }
            }
            let classes: u64 = rows.iter().map(|r| r.1).sum();
            let size: u64 = rows.iter().map(|r| r.2).sum();
            if !json {
                let density = classes as f64 / size as f64;
                writeln!(
                    out,
                    "{:>8} {classes:>14} {size:>14} {density:>8.4}",
                    "total"
                )?;
            }
        }
        Command::Perft {
            position,
            depth,
            json,
            rules,
        } => {
            let pos = parse_position(&position)?;
            let nodes = moves::perft_parallel(&pos, depth, rules.rules());
            if json {
                writeln!(out, "{}", json!({"depth": depth, "nodes": nodes}))?;
            } else {
                writeln!(out, "perft({depth}) = {nodes}")?;
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) if f.status == 0 => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.status)
        }
    }
}
