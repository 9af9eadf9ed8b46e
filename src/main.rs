//! The `millbase` command line: a thin layer over the library (see `cli`).

mod cli;

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let parsed = match cli::Cli::try_parse_from(&args) {
        Ok(p) => p,
        Err(e) => {
            let unquoted = e.kind() == clap::error::ErrorKind::UnknownArgument
                && args
                    .iter()
                    .any(|a| looks_like_a_board(&a.to_string_lossy()));
            let _ = e.print();
            if unquoted {
                let _ = writeln!(
                    std::io::stderr(),
                    "hint: a position is one argument: quote it, as in \
                     \"........................ w 9 9\""
                );
            }
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match cli::run(parsed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) if f.status == 0 => ExitCode::SUCCESS,
        Err(f) => {
            let _ = writeln!(std::io::stderr(), "error: {}", f.message);
            ExitCode::from(f.status)
        }
    }
}

/// Whether `arg` is a board of a position string on its own (24 of `W`,
/// `B` and `.`): the first word of a position that was not quoted.
fn looks_like_a_board(arg: &str) -> bool {
    arg.len() == 24 && arg.bytes().all(|b| matches!(b, b'W' | b'B' | b'.'))
}
