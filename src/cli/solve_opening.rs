//! `millbase solve-opening`: solve a placement-phase position by search.

use super::progress::with_spinner;
use super::{DbArgs, Failure, parse_position, write_json};
use clap::Args;
use millbase::opening::{OpeningSearch, Precision};
use millbase::query::Database;
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
    /// Also find the exact plies to the end (slower).
    #[arg(long)]
    exact: bool,
    /// Print {"position", "value", "plies", "nodes", "seconds"}.
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
    let mut search = OpeningSearch::new(&database, precision);
    let value = with_spinner(a.quiet, &search.progress(), || search.value(&pos))?;
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        return write_json(
            out,
            &OpeningResult::new(&pos, value, a.exact, search.nodes(), seconds),
        );
    }
    let shown = if a.exact {
        value.to_string()
    } else {
        value.name().to_string()
    };
    writeln!(
        out,
        "{pos}: {shown} for {} ({} rules); {} nodes, {seconds:.2} s",
        pos.side.name(),
        database.rules().name(),
        search.nodes()
    )?;
    Ok(())
}
