//! `millbase query`: the value of a position and of every move.

use super::{DbArgs, Failure, parse_position, write_json};
use clap::Args;
use millbase::query::Database;
use std::io::Write;

#[derive(Args)]
pub struct QueryArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The position, e.g. "WWW.BBB.........B....... w 0 0".
    position: String,
    /// One JSON object: {"position", "value", "plies", "moves": [{"move", "position", "value", "plies"}]}.
    #[arg(long)]
    json: bool,
}

pub fn run(a: QueryArgs, out: &mut impl Write) -> Result<(), Failure> {
    let pos = parse_position(&a.position)?;
    let database = Database::open(&a.db.db)?;
    let answer = database.answer(&pos)?;
    if a.json {
        return write_json(out, &answer);
    }
    writeln!(
        out,
        "{pos}: {} for {} ({} rules)",
        answer.value,
        pos.side.name(),
        database.rules().name()
    )?;
    for m in &answer.moves {
        writeln!(
            out,
            "  {:<10} {:<12} {}",
            m.mv.to_string(),
            m.value.to_string(),
            m.position
        )?;
    }
    Ok(())
}
