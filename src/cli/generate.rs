//! `millbase generate`: solve the movement phase into a directory.

use super::progress::GenerateUi;
use super::{DbArgs, Failure, RuleArgs, ThreadArgs};
use clap::Args;
use millbase::generate;
use millbase::index::Indexer;
use millbase::plan::Limits;
use millbase::rules::{MIN_STONES, STONES_PER_SIDE};
use std::io::Write;

#[derive(Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Only subspaces where neither side has more than N stones (3..9).
    #[arg(long, value_name = "N", default_value_t = STONES_PER_SIDE,
          value_parser = clap::value_parser!(u8).range(MIN_STONES as i64..=STONES_PER_SIDE as i64))]
    max_stones: u8,
    /// Only subspaces with at most N stones in all (6..18).
    #[arg(long, value_name = "N", default_value_t = 2 * STONES_PER_SIDE,
          value_parser = clap::value_parser!(u8).range(2 * MIN_STONES as i64..=2 * STONES_PER_SIDE as i64))]
    max_total: u8,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

pub fn run(a: GenerateArgs, out: &mut impl Write) -> Result<(), Failure> {
    a.threads.apply()?;
    let ix = Indexer::new();
    let ui = GenerateUi::new(a.quiet);
    let limits = Limits {
        max_stones: a.max_stones,
        max_total: a.max_total,
    };
    let reports = generate::generate(&a.db.db, a.rules.rules(), limits, &ix, &ui)?;
    ui.bar.finish_and_clear();
    if let Some(e) = ui.output_error() {
        return Err(Failure::output_lost(
            e,
            "generate stopped after the pair in progress; the subspaces finished are kept: run the same command again to resume",
        ));
    }
    let solved = reports.iter().filter(|r| !r.skipped).count();
    let classes: u64 = reports.iter().map(|r| r.counts.classes).sum();
    writeln!(
        out,
        "done: {} subspaces in {} ({} solved now, {} already there), {classes} classes, {:.1} s",
        reports.len(),
        a.db.db.display(),
        solved,
        reports.len() - solved,
        ui.start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
