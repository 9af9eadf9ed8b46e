//! `millbase stats`: counts and file sizes per subspace.

use super::{DbArgs, Failure, write_json};
use clap::Args;
use millbase::db::DbDir;
use millbase::report::StatsRow;
use millbase::value::Counts;
use std::io::Write;

#[derive(Args)]
pub struct StatsArgs {
    #[command(flatten)]
    db: DbArgs,
    /// One JSON object per line with fields mover, opponent, classes, wins, losses,
    /// draws, all_wins, all_losses, all_draws, max_win_plies, max_loss_plies,
    /// raw_bytes, bytes.
    #[arg(long)]
    json: bool,
}

/// One row of the text table.
fn text_row(
    out: &mut impl Write,
    name: &str,
    c: &Counts,
    raw: u64,
    bytes: u64,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{name:>5} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8} {raw:>12} {bytes:>12}",
        c.classes, c.wins, c.losses, c.draws, c.max_win, c.max_loss
    )
}

pub fn run(a: StatsArgs, out: &mut impl Write) -> Result<(), Failure> {
    let db = DbDir::open(&a.db.db)?;
    let mut total = Counts::default();
    let (mut raw_total, mut bytes_total) = (0u64, 0u64);
    if !a.json {
        writeln!(
            out,
            "{:>5} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8} {:>12} {:>12}",
            "sub",
            "classes",
            "wins",
            "losses",
            "draws",
            "max win",
            "max loss",
            "raw bytes",
            "bytes"
        )?;
    }
    for sub in db.present() {
        let t = db.open_table(sub)?;
        let c = t.header.counts;
        let (raw, bytes) = (t.header.entries, t.file_len());
        total = total.merge(c);
        raw_total += raw;
        bytes_total += bytes;
        if a.json {
            write_json(out, &StatsRow::new(sub, c, raw, bytes))?;
        } else {
            text_row(out, &sub.to_string(), &c, raw, bytes)?;
        }
    }
    if !a.json {
        text_row(out, "total", &total, raw_total, bytes_total)?;
    }
    Ok(())
}
