//! Running the `millbase` binary from the integration tests.

use std::process::{Command, Output};

/// Runs `millbase` with `args` and waits for it.
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .output()
        .expect("run millbase")
}
