//! `millbase verify`: check every stored value against its children.

use super::{DbArgs, Failure, ThreadArgs};
use clap::Args;
use millbase::db::DbDir;
use millbase::index::{Indexer, Subspace};
use millbase::report::VerifyRow;
use millbase::verify::{self, VerifyReport};
use std::io::Write;

#[derive(Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    /// One JSON object per subspace: {"mover", "opponent", "mover_hand",
    /// "opponent_hand", "checked", "mismatches"}.
    #[arg(long)]
    json: bool,
    /// Only this subspace: MOVER-OPPONENT stones on board (e.g. 7-6), or a
    /// placement sector MOVER-OPPONENT/MOVER_HAND-OPPONENT_HAND (e.g. 4-4/5-5);
    /// repeatable. Default: every subspace and sector in the directory.
    #[arg(long, value_name = "M-O[/MH-OH]", value_parser = parse_subspace)]
    subspace: Vec<Subspace>,
    /// Check only every K-th block of symmetry orbits (a spread-out sample,
    /// about 1/K of the positions): a quick check of a whole database.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    sample: u32,
}

/// Parses a subspace `M-O` or a placement sector `M-O/MH-OH`.
fn parse_subspace(s: &str) -> Result<Subspace, String> {
    s.parse::<Subspace>().map_err(|e| e.to_string())
}

/// The text lines of one subspace's result.
fn text(r: &VerifyReport) -> String {
    let mut l = format!(
        "{:>9}: {} positions checked, {} mismatches",
        r.subspace.to_string(),
        r.checked,
        r.mismatches
    );
    for m in &r.examples {
        l.push_str(&format!(
            "\n       {}  stored {}  expected {}",
            m.position, m.stored, m.expected
        ));
    }
    l
}

pub fn run(a: VerifyArgs, out: &mut impl Write) -> Result<(), Failure> {
    a.threads.apply()?;
    let db = DbDir::open(&a.db.db)?;
    let ix = Indexer::new();
    let mut written = Ok(());
    let reports = verify::verify_dir(&db, &ix, &a.subspace, a.sample as usize, &mut |r| {
        written = if a.json {
            let row = VerifyRow {
                mover: r.subspace.mover,
                opponent: r.subspace.opponent,
                mover_hand: r.subspace.mover_hand,
                opponent_hand: r.subspace.opponent_hand,
                checked: r.checked,
                mismatches: r.mismatches,
            };
            super::write_json(out, &row)
        } else {
            writeln!(out, "{}", text(r)).map_err(Failure::from)
        }
        .and_then(|()| out.flush().map_err(Failure::from));
        written.is_ok()
    })?;
    written?;
    let bad: u64 = reports.iter().map(|r| r.mismatches).sum();
    let checked: u64 = reports.iter().map(|r| r.checked).sum();
    if reports.is_empty() {
        return Err(Failure::fault(format!(
            "{}: no subspace files to verify",
            a.db.db.display()
        )));
    }
    if bad > 0 {
        return Err(Failure::fault(format!(
            "{bad} mismatches in {checked} positions"
        )));
    }
    if !a.json {
        writeln!(
            out,
            "ok: {checked} positions in {} subspaces ({} rules{}) agree with their children",
            reports.len(),
            db.rules().name(),
            if a.sample > 1 {
                format!(", one orbit block in {}", a.sample)
            } else {
                String::new()
            }
        )?;
    }
    Ok(())
}
