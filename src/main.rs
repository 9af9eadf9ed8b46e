//! The `millbase` command line: a thin layer over the library (see `cli`).

mod cli;

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run(cli::Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) if f.status == 0 => ExitCode::SUCCESS,
        Err(f) => {
            let _ = writeln!(std::io::stderr(), "error: {}", f.message);
            ExitCode::from(f.status)
        }
    }
}
