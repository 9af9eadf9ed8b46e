//! `millbase probe`: answers for positions read from standard input.

use super::{DbArgs, Failure, LimitArgs, write_json};
use clap::Args;
use serde::Serialize;
use std::io::{BufRead, Write};

#[derive(Args)]
pub struct ProbeArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    limit: LimitArgs,
}

/// The answer line of an input that could not be answered.
#[derive(Serialize)]
struct ProbeError {
    input: String,
    error: String,
}

pub fn run(a: ProbeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let database = a.limit.open(&a.db.db)?;
    // every line gets one answer line: bytes that are not UTF-8 and blank
    // lines get an error line, and the stream goes on
    for bytes in std::io::stdin().lock().split(b'\n') {
        let bytes = bytes.map_err(|e| Failure::fault(format!("reading standard input: {e}")))?;
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
        let answer = match std::str::from_utf8(bytes) {
            Err(_) => {
                Err("the line is not UTF-8 text: give a position as in docs/RULES.md".to_string())
            }
            Ok(l) if l.trim().is_empty() => Err(
                "blank line: give a position, e.g. \"........................ w 9 9\"".to_string(),
            ),
            Ok(l) => l
                .parse()
                .map_err(|e| format!("bad position: {e}"))
                .and_then(|pos| {
                    // the answer of `query --json POS`: a game from the position
                    let game = database.new_game(pos, None).map_err(|e| e.to_string())?;
                    database.answer_game(&game, true).map_err(|e| e.to_string())
                }),
        };
        let line = String::from_utf8_lossy(bytes);
        match answer {
            Ok(a) => write_json(out, &a)?,
            Err(error) => write_json(
                out,
                &ProbeError {
                    input: millbase::rules::position::excerpt(&line),
                    error,
                },
            )?,
        }
        out.flush()?;
    }
    Ok(())
}
