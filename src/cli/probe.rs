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

/// The longest line read, in bytes; a longer one gets an error line, its
/// bytes past this skipped, never held.
pub const MAX_LINE: usize = 4096;

/// The next line of `input` without its end, at most [`MAX_LINE`] bytes
/// kept: `(bytes, whole)`, `whole` false where the line was longer; `None`
/// at the end of the input.
fn next_line(input: &mut impl BufRead) -> std::io::Result<Option<(Vec<u8>, bool)>> {
    let (mut line, mut whole, mut any) = (Vec::new(), true, false);
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(any.then_some((line, whole)));
        }
        any = true;
        let (part, used, ended) = match buf.iter().position(|&b| b == b'\n') {
            Some(n) => (&buf[..n], n + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        if part.len() > room {
            whole = false;
        }
        line.extend_from_slice(&part[..part.len().min(room)]);
        input.consume(used);
        if ended {
            return Ok(Some((line, whole)));
        }
    }
}

pub fn run(a: ProbeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let database = a.limit.open(&a.db.db)?;
    // every line gets one answer line: bytes that are not UTF-8, blank
    // lines and lines too long get an error line, and the stream goes on
    let mut input = std::io::stdin().lock();
    while let Some((bytes, whole)) =
        next_line(&mut input).map_err(|e| Failure::fault(format!("reading standard input: {e}")))?
    {
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
        let answer = match std::str::from_utf8(bytes) {
            _ if !whole => Err(format!(
                "a line of more than {MAX_LINE} bytes: give one position a line"
            )),
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
