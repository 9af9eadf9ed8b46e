//! `millbase stats`: counts and file sizes per subspace and placement sector.

use super::{DbArgs, Failure, write_json};
use clap::Args;
use millbase::db::DbDir;
use millbase::index::Indexer;
use millbase::records;
use millbase::report::StatsRow;
use millbase::value::Counts;
use std::io::Write;

#[derive(Args)]
pub struct StatsArgs {
    #[command(flatten)]
    db: DbArgs,
    /// One JSON object per line with fields mover, opponent, mover_hand,
    /// opponent_hand, classes, wins, losses,
    /// draws, all_wins, all_losses, all_draws, max_win_plies, max_loss_plies,
    /// raw_bytes, bytes.
    #[arg(long)]
    json: bool,
    /// Instead of counts, list the N longest wins and losses of each subspace
    /// (default 3), as positions ready for `query` or `line`; with --json one
    /// object per subspace: {"mover", "opponent", "mover_hand", "opponent_hand",
    /// "longest_wins": [{"position",
    /// "plies"}], "longest_losses": [...]}.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "3")]
    longest: Option<usize>,
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
        "{name:>9} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8} {raw:>12} {bytes:>12}",
        c.classes, c.wins, c.losses, c.draws, c.max_win, c.max_loss
    )
}

fn longest(db: &DbDir, n: usize, json: bool, out: &mut impl Write) -> Result<(), Failure> {
    let ix = Indexer::new();
    for sub in db.present() {
        let r = records::longest(db, &ix, sub, n)?;
        if json {
            write_json(out, &r)?;
            continue;
        }
        writeln!(out, "{sub}:")?;
        for (what, list) in [("win", &r.longest_wins), ("loss", &r.longest_losses)] {
            for rec in list {
                writeln!(out, "  {what:<4} in {:>3}  {}", rec.plies, rec.position)?;
            }
        }
    }
    Ok(())
}

pub fn run(a: StatsArgs, out: &mut impl Write) -> Result<(), Failure> {
    let db = DbDir::open(&a.db.db)?;
    if let Some(n) = a.longest {
        return longest(&db, n, a.json, out);
    }
    let mut total = Counts::default();
    let (mut raw_total, mut bytes_total) = (0u64, 0u64);
    if !a.json {
        writeln!(
            out,
            "{:>9} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8} {:>12} {:>12}",
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
