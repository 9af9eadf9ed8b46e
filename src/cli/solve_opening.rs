//! `millbase solve-opening`: the value of a placement-phase position (the
//! initial one by default), read from the tables or found by search.

use super::progress::with_spinner;
use super::{DbArgs, Failure, parse_position, write_json};
use clap::Args;
use millbase::answer::Source;
use millbase::index::Subspace;
use millbase::opening::{OpeningSearch, Precision};
use millbase::query::{Database, QueryError};
use millbase::report::OpeningResult;
use std::io::Write;
use std::time::Instant;

#[derive(Args)]
pub struct SolveOpeningArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The position to solve.
    #[arg(
        long,
        value_name = "POS",
        default_value = "........................ w 9 9"
    )]
    position: String,
    /// Solve by alpha-beta search over the placement phase with the movement
    /// tables at the leaves, an independent check of the placement tables
    /// (minutes and several GB for the initial position).
    #[arg(long)]
    search: bool,
    /// With --search: also find the exact plies to the end (slower).
    #[arg(long)]
    exact: bool,
    /// Print {"position", "value", "plies", "source", "nodes", "seconds"}.
    #[arg(long)]
    json: bool,
    /// No progress display on stderr.
    #[arg(long)]
    quiet: bool,
}

pub fn run(a: SolveOpeningArgs, out: &mut impl Write) -> Result<(), Failure> {
    let pos = parse_position(&a.position)?;
    let database = Database::open(&a.db.db)?;
    let precision = if a.exact {
        Precision::ExactPlies
    } else {
        Precision::WinDrawLoss
    };
    let start = Instant::now();
    let from_tables = if a.search {
        None
    } else {
        match database.probe(&pos) {
            Err(QueryError::PlacementPhase(_)) => {
                if !a.quiet {
                    eprintln!(
                        "note: {} lacks the placement sector {}: solving by search",
                        database.path().display(),
                        Subspace::of(&pos)
                    );
                }
                None
            }
            v => Some(v?),
        }
    };
    let (value, source, exact, nodes) = match from_tables {
        Some(v) => (v, Source::Table, true, 0),
        None => {
            let mut search = OpeningSearch::new(&database, precision);
            let v = with_spinner(a.quiet, &search.progress(), || search.value(&pos))?;
            (v, Source::Search, a.exact, search.nodes())
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        return write_json(
            out,
            &OpeningResult::new(&pos, value, exact, source, nodes, seconds),
        );
    }
    let shown = if exact {
        value.to_string()
    } else {
        value.name().to_string()
    };
    let how = match source {
        Source::Table => "from the tables".to_string(),
        Source::Search => format!("by search, {nodes} nodes"),
    };
    writeln!(
        out,
        "{pos}: {shown} for {} ({} rules); {how}, {seconds:.3} s",
        pos.side.name(),
        database.rules().name(),
    )?;
    Ok(())
}
