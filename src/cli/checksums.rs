//! `millbase checksums`: the SHA-256 of a database's files, printed or checked.

use super::{DbArgs, Failure};
use clap::Args;
use millbase::answer::records;
use millbase::storage::dir::DbDir;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args)]
pub struct ChecksumsArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Compare with this list (lines "HEX  FILE", as this command and
    /// `sha256sum` print them) instead of printing; exit status 1 on any
    /// difference or missing file.
    #[arg(long, value_name = "FILE")]
    check: Option<PathBuf>,
}

pub fn run(a: ChecksumsArgs, out: &mut impl Write) -> Result<(), Failure> {
    let db = DbDir::open(&a.db.db)?;
    let ours = records::checksums(&db)?;
    let Some(list) = a.check else {
        for (name, hex) in ours {
            writeln!(out, "{hex}  {name}")?;
        }
        return Ok(());
    };
    let text = std::fs::read_to_string(&list)
        .map_err(|e| Failure::input(format!("{}: {e}", list.display())))?;
    let (mut same, mut bad) = (0, vec![]);
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let Some((hex, name)) = line.split_once("  ") else {
            return Err(Failure::input(format!(
                "{}: not a checksum line: {line:?}",
                list.display()
            )));
        };
        match ours.iter().find(|(n, _)| n == name.trim()) {
            Some((_, h)) if h == hex.trim() => same += 1,
            Some(_) => bad.push(format!("{name}: differs")),
            None => bad.push(format!("{name}: missing")),
        }
    }
    for b in &bad {
        writeln!(out, "{b}")?;
    }
    if !bad.is_empty() {
        return Err(Failure::fault(format!(
            "{} of {} files differ from {} or are missing",
            bad.len(),
            same + bad.len(),
            list.display()
        )));
    }
    writeln!(out, "ok: {same} files equal {}", list.display())?;
    Ok(())
}
