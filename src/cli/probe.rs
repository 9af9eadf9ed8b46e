//! `millbase probe`: answers for positions read from standard input.

use super::{DbArgs, Failure, write_json};
use clap::Args;
use millbase::query::Database;
use serde::Serialize;
use std::io::{BufRead, Write};

#[derive(Args)]
pub struct ProbeArgs {
    #[command(flatten)]
    db: DbArgs,
}

/// The answer line of an input that could not be answered.
#[derive(Serialize)]
struct ProbeError {
    input: String,
    error: String,
}

pub fn run(a: ProbeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let database = Database::open(&a.db.db)?;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| Failure::fault(format!("reading standard input: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = line
            .parse()
            .map_err(|e| format!("bad position: {e}"))
            .and_then(|pos| database.answer(&pos).map_err(|e| e.to_string()));
        match answer {
            Ok(a) => write_json(out, &a)?,
            Err(error) => write_json(
                out,
                &ProbeError {
                    input: millbase::position::excerpt(&line),
                    error,
                },
            )?,
        }
        out.flush()?;
    }
    Ok(())
}
