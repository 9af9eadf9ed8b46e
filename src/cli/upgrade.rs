//! `millbase upgrade`: rewrite files of an older layout in the current one.

use super::{DbArgs, Failure, ThreadArgs};
use clap::Args;
use millbase::build::generate;
use std::io::Write;

#[derive(Args)]
pub struct UpgradeArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    threads: ThreadArgs,
}

pub fn run(a: UpgradeArgs, out: &mut impl Write) -> Result<(), Failure> {
    a.threads.apply()?;
    let (mut old, mut new) = (0u64, 0u64);
    let done = generate::upgrade(&a.db.db, &mut |u| {
        old += u.old_bytes;
        new += u.new_bytes;
        let _ = writeln!(
            std::io::stderr(),
            "{:>5}{}: {} -> {} bytes",
            u.subspace.to_string(),
            u.move_limit.map_or(String::new(), |l| format!(" rule {l}")),
            u.old_bytes,
            u.new_bytes
        );
    })?;
    writeln!(
        out,
        "upgraded {} files in {}: {old} -> {new} bytes",
        done.len(),
        a.db.db.display()
    )?;
    Ok(())
}
