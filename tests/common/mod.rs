//! Running the `millbase` binary from the integration tests.

use std::process::{Command, Output};

/// Runs `millbase` with `args` and waits for it.
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .output()
        .expect("run millbase")
}

/// Starts `millbase` with `args` in the background, its output discarded.
#[allow(dead_code)]
pub fn spawn_silent(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start millbase")
}
