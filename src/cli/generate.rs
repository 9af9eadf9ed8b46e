//! `millbase generate`: solve the game (movement phase, then placement phase)
//! into a directory.

use super::progress::GenerateUi;
use super::{DbArgs, Failure, RuleArgs, ThreadArgs};
use clap::Args;
use millbase::Rules;
use millbase::db::DbDir;
use millbase::generate;
use millbase::index::{Indexer, Subspace};
use millbase::plan::{Limits, all_sectors, placement_plan, plan};
use millbase::rules::{DEFAULT_MOVE_LIMIT, MAX_MOVE_LIMIT, MIN_STONES, STONES_PER_SIDE};
use std::collections::HashMap;
use std::io::Write;

#[derive(Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Only positions where neither side has more than N stones on the board
    /// plus in hand (3..9): the whole game where each side starts with N stones.
    #[arg(long, value_name = "N", default_value_t = STONES_PER_SIDE,
          value_parser = clap::value_parser!(u8).range(MIN_STONES as i64..=STONES_PER_SIDE as i64))]
    max_stones: u8,
    /// Only positions with at most N stones in all, on the board plus in hand (6..18).
    #[arg(long, value_name = "N", default_value_t = 2 * STONES_PER_SIDE,
          value_parser = clap::value_parser!(u8).range(2 * MIN_STONES as i64..=2 * STONES_PER_SIDE as i64))]
    max_total: u8,
    /// Only the movement phase (no stones in hand); positions with stones in
    /// hand are then solved by search when asked.
    #[arg(long)]
    movement_only: bool,
    /// The move limit L of the no-removal rule (plies without a removal that
    /// draw the game) whose tables are built after the game's own: 100 (the
    /// rule texts' 50 moves a side) by default, 1..254.
    #[arg(long, value_name = "L", default_value_t = DEFAULT_MOVE_LIMIT,
          value_parser = clap::value_parser!(u16).range(1..=MAX_MOVE_LIMIT as i64))]
    move_limit: u16,
    /// Build the game's tables only, none of the no-removal rule; a later
    /// run without this flag adds the rule's tables.
    #[arg(long, conflicts_with = "move_limit")]
    no_rule_tables: bool,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// What the project machine measured for one subspace (`data/generation-flying.tsv`).
struct Measured {
    pair_seconds: f64,
    peak_gb: f64,
    bytes: u64,
}

/// The measurements of the complete flying generation, by subspace.
fn measured() -> HashMap<Subspace, Measured> {
    include_str!("../../data/generation-flying.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("subspace"))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let (m, o) = f.first()?.split_once('-')?;
            let sub = Subspace::movement(m.parse().ok()?, o.parse().ok()?);
            let m = Measured {
                pair_seconds: f.get(1)?.parse().ok()?,
                peak_gb: f.get(2)?.parse().ok()?,
                bytes: f.get(3)?.parse().ok()?,
            };
            Some((sub, m))
        })
        .collect()
}

/// "2.4 GB", "35 MB".
fn size(bytes: f64) -> String {
    if bytes >= 1e9 {
        format!("{:.1} GB", bytes / 1e9)
    } else {
        format!("{:.0} MB", bytes / 1e6)
    }
}

/// "1 h 42 min", "12 min", "40 s".
pub fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s.div_ceil(60)),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}

/// The pairs to solve (those not all there yet) with their expected seconds,
/// and a line telling the plan: work, time, disk and memory to expect.
fn plan_of(dir: &std::path::Path, rules: Rules, limits: Limits) -> (Vec<(Subspace, f64)>, String) {
    let table = measured();
    let pairs = plan(limits);
    let todo: Vec<Subspace> = pairs
        .iter()
        .copied()
        .filter(|rep| {
            rep.with_swap()
                .iter()
                .any(|&s| !dir.join(millbase::db::file_name(s)).exists())
        })
        .collect();
    let m = |s: Subspace| table.get(&s);
    let expected: Vec<(Subspace, f64)> = todo
        .iter()
        .map(|&rep| (rep, m(rep).map_or(0.0, |x| x.pair_seconds)))
        .collect();
    let seconds: f64 = expected.iter().map(|e| e.1).sum();
    let bytes: u64 = pairs
        .iter()
        .flat_map(|rep| rep.with_swap())
        .filter_map(|s| m(s).map(|x| x.bytes))
        .sum();
    let peak = todo
        .iter()
        .filter_map(|&rep| m(rep).map(|x| x.peak_gb))
        .fold(0.0, f64::max);
    let subspaces: usize = pairs.iter().map(|p| p.with_swap().len()).sum();
    let sectors = placement_plan(limits);
    let sectors_todo = sectors
        .iter()
        .filter(|&&s| !dir.join(millbase::db::file_name(s)).exists())
        .count();
    let rule_todo = limits.move_limit.map(|l| {
        let rule_dir = dir.join(format!("{}{l}", millbase::db::RULE_DIR_PREFIX));
        let missing = all_sectors(limits)
            .into_iter()
            .filter(|&s| !rule_dir.join(millbase::db::file_name(s)).exists())
            .count();
        (l, missing)
    });
    let text = if todo.is_empty() && sectors_todo == 0 && rule_todo.is_none_or(|r| r.1 == 0) {
        format!(
            "plan: all {subspaces} movement subspaces and {} placement sectors are there already ({} rules)",
            sectors.len(),
            rules.name()
        )
    } else {
        let movement = if todo.is_empty() {
            format!("the {subspaces} movement subspaces are there already")
        } else {
            format!(
                "{} of {} movement subspace pairs to solve ({subspaces} subspaces); \
                 measured on a 2-core, 24 GB machine for the flying rules (no-flying takes longer): \
                 about {}, {} of disk, {} of memory at the peak",
                todo.len(),
                pairs.len(),
                duration(seconds),
                size(bytes as f64),
                size(peak * 1e9)
            )
        };
        let placement = if sectors.is_empty() {
            String::new()
        } else {
            format!(
                "; then {sectors_todo} of {} placement sectors (the phase with stones in hand)",
                sectors.len()
            )
        };
        let rule = rule_todo.map_or(String::new(), |(l, missing)| {
            format!(
                "; each subspace and sector followed by its table of the no-removal rule \
                 (limit {l}; {missing} to solve, a pass that skips the game's draws)"
            )
        });
        format!(
            "plan ({} rules, into {}): {movement}{placement}{rule}",
            rules.name(),
            dir.display()
        )
    };
    (expected, text)
}

pub fn run(a: GenerateArgs, out: &mut impl Write) -> Result<(), Failure> {
    a.threads.apply()?;
    let ix = Indexer::new();
    let limits = Limits {
        max_stones: a.max_stones,
        max_total: a.max_total,
        placement: !a.movement_only,
        move_limit: (!a.no_rule_tables).then_some(a.move_limit),
    };
    // an existing database keeps its variant: resuming needs no flag
    let rules = match DbDir::open(&a.db.db) {
        Ok(db) if !a.rules.no_flying => db.rules(),
        _ => a.rules.rules(),
    };
    let (expected, plan) = plan_of(&a.db.db, rules, limits);
    let ui = GenerateUi::new(a.quiet, expected);
    ui.set_plan(plan);
    let reports = generate::generate(&a.db.db, rules, limits, &ix, &ui)?;
    ui.bar.finish_and_clear();
    if let Some(e) = ui.output_error() {
        return Err(Failure::output_lost(
            e,
            "generate stopped after the pair in progress; the subspaces finished are kept: run the same command again to resume",
        ));
    }
    let (game, rule): (Vec<_>, Vec<_>) = reports.iter().partition(|r| r.move_limit.is_none());
    let solved = game.iter().filter(|r| !r.skipped).count();
    let classes: u64 = game.iter().map(|r| r.counts.classes).sum();
    let rule_note = if rule.is_empty() {
        String::new()
    } else {
        format!(
            "; tables of the no-removal rule (limit {}): {} ({} solved now)",
            a.move_limit,
            rule.len(),
            rule.iter().filter(|r| !r.skipped).count()
        )
    };
    writeln!(
        out,
        "done: {} subspaces in {} ({} solved now, {} already there), {classes} classes{rule_note}, {:.1} s",
        game.len(),
        a.db.db.display(),
        solved,
        game.len() - solved,
        ui.start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
