//! `millbase generate`: solve the game (movement phase, then placement phase)
//! into a directory.

use super::progress::GenerateUi;
use super::text::{count, duration};
use super::{DbArgs, Failure, RuleArgs, ThreadArgs, rules_of};
use clap::Args;
use millbase::Variant;
use millbase::build::generate;
use millbase::index::plan::{Limits, all_sectors, all_subspaces, placement_plan, plan};
use millbase::index::{Indexer, Subspace};
use millbase::rules::variant::{DEFAULT_MOVE_LIMIT, MAX_MOVE_LIMIT, MAX_STONES, MIN_STONES};
use millbase::storage::dir::DbDir;
use std::collections::HashMap;
use std::io::Write;

#[derive(Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Only positions where neither side has more than N stones on the board
    /// plus in hand (3 to the rules' stones, 9 for nine): the whole game
    /// where each side starts with N stones.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u8).range(MIN_STONES as i64..=MAX_STONES as i64))]
    max_stones: Option<u8>,
    /// Only positions with at most N stones in all, on the board plus in hand
    /// (6 to twice the rules' stones; default: twice --max-stones).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u8).range(2 * MIN_STONES as i64..=2 * MAX_STONES as i64))]
    max_total: Option<u8>,
    /// The rules: a preset (nine, nine-no-flying, six, seven, three) or a
    /// file describing one's own (JSON or TOML, as `millbase rules NAME
    /// --json` prints). Default: nine; an existing database keeps its own.
    #[arg(long, value_name = "NAME|FILE", conflicts_with = "no_flying")]
    rules: Option<String>,
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
    variant: RuleArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// What the project machine measured for one subspace or sector
/// (`data/generation-flying.tsv`).
struct Measured {
    /// A movement subspace: the seconds of its colour-swap pair; a placement
    /// sector: its own.
    seconds: f64,
    peak_gb: f64,
    bytes: u64,
}

/// The measurements of the complete flying generation, by subspace and sector.
fn measured() -> HashMap<Subspace, Measured> {
    parse_measured(include_str!("../../data/generation-flying.tsv"))
}

/// The data rows of a table in the form of `data/generation-flying.tsv`
/// (neither comments nor the header).
fn data_rows(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("subspace"))
}

/// The rows of a table in the form of `data/generation-flying.tsv`; a row that
/// does not parse is left out (the test below requires none is).
fn parse_measured(text: &str) -> HashMap<Subspace, Measured> {
    data_rows(text)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let sub = f.first()?.parse().ok()?;
            let m = Measured {
                seconds: f.get(1)?.parse().ok()?,
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

/// The movement pairs and placement sectors to solve (those not all there
/// yet), in solving order with their expected seconds, and a line telling the
/// plan: work, time, disk and memory to expect.
fn plan_of(
    dir: &std::path::Path,
    variant: Variant,
    limits: Limits,
) -> (Vec<(Subspace, f64)>, String) {
    // measured for nine's board: no estimate for another's
    let table = match variant.nine_flying() {
        Some(_) => measured(),
        None => HashMap::new(),
    };
    let pairs = plan(limits);
    let todo: Vec<Subspace> = pairs
        .iter()
        .copied()
        .filter(|rep| {
            rep.with_swap()
                .iter()
                .any(|&s| !dir.join(millbase::storage::dir::file_name(s)).exists())
        })
        .collect();
    let m = |s: Subspace| table.get(&s);
    let sectors = placement_plan(limits);
    let sectors_todo: Vec<Subspace> = sectors
        .iter()
        .copied()
        .filter(|&s| !dir.join(millbase::storage::dir::file_name(s)).exists())
        .collect();
    let expected: Vec<(Subspace, f64)> = todo
        .iter()
        .chain(&sectors_todo)
        .map(|&rep| (rep, m(rep).map_or(0.0, |x| x.seconds)))
        .collect();
    let seconds =
        |subs: &[Subspace]| -> f64 { subs.iter().filter_map(|&s| m(s).map(|x| x.seconds)).sum() };
    let bytes =
        |files: &[Subspace]| -> u64 { files.iter().filter_map(|&s| m(s).map(|x| x.bytes)).sum() };
    // a placement sector's peak is the process's, with what it holds from the
    // sectors before: counted only when no movement pair is left to solve
    let peak = if todo.is_empty() {
        &sectors_todo
    } else {
        &todo
    }
    .iter()
    .filter_map(|&rep| m(rep).map(|x| x.peak_gb))
    .fold(0.0, f64::max);
    let subspaces: usize = pairs.iter().map(|p| p.with_swap().len()).sum();
    let rule_todo = limits.move_limit.map(|l| {
        let rule_dir = dir.join(format!("{}{l}", millbase::storage::dir::RULE_DIR_PREFIX));
        let missing = all_sectors(limits)
            .into_iter()
            .filter(|&s| !rule_dir.join(millbase::storage::dir::file_name(s)).exists())
            .count();
        (l, missing)
    });
    let text = if todo.is_empty() && sectors_todo.is_empty() && rule_todo.is_none_or(|r| r.1 == 0) {
        format!(
            "plan: all {subspaces} movement subspaces and {} placement sectors are there already ({} rules)",
            sectors.len(),
            variant.name()
        )
    } else {
        // time and disk as measured, where the table has the subspaces
        // (todo: pairs or sectors to solve; files: all of the phase)
        let estimate = |todo: &[Subspace], files: &[Subspace]| {
            let (t, b) = (seconds(todo), bytes(files));
            if t > 0.0 {
                format!(", about {}, {} of disk", duration(t), size(b as f64))
            } else {
                String::new()
            }
        };
        let movement = if todo.is_empty() {
            format!("the {subspaces} movement subspaces are there already")
        } else {
            format!(
                "{} of {} movement subspace pairs to solve ({subspaces} subspaces){}",
                todo.len(),
                pairs.len(),
                estimate(&todo, &all_subspaces(limits))
            )
        };
        let placement = if sectors.is_empty() {
            String::new()
        } else if sectors_todo.is_empty() {
            format!(
                "; the {} placement sectors are there already",
                sectors.len()
            )
        } else {
            format!(
                "; then {} of {} placement sectors (the phase with stones in hand){}",
                sectors_todo.len(),
                sectors.len(),
                estimate(&sectors_todo, &sectors)
            )
        };
        let memory = if peak > 0.0 {
            format!(
                "; {} of memory at the peak (times, disk and memory as measured on a \
                 2-core, 24 GB machine for the flying rules; no-flying takes longer)",
                size(peak * 1e9)
            )
        } else {
            String::new()
        };
        let rule = rule_todo.map_or(String::new(), |(l, missing)| {
            format!(
                "; each subspace and sector followed by its table of the no-removal rule \
                 (limit {l}; {missing} to solve, a pass that skips the game's draws)"
            )
        });
        format!(
            "plan ({} rules, into {}): {movement}{placement}{memory}{rule}",
            variant.name(),
            dir.display()
        )
    };
    (expected, text)
}

pub fn run(a: GenerateArgs, out: &mut impl Write) -> Result<(), Failure> {
    a.threads.apply()?;
    // an existing database keeps its variant: resuming needs no flag
    let variant = match (&a.rules, DbDir::open(&a.db.db)) {
        (Some(arg), _) => Variant::of_rules(&rules_of(arg)?).map_err(Failure::input)?,
        (None, Ok(db)) if !a.variant.no_flying => db.variant(),
        _ => a.variant.variant(),
    };
    let ix = Indexer::of(variant.geometry());
    let max_stones = a.max_stones.unwrap_or(variant.stones());
    let limits = Limits {
        max_stones,
        max_total: a.max_total.unwrap_or(2 * max_stones),
        placement: !a.movement_only,
        move_limit: (!a.no_rule_tables).then_some(a.move_limit),
    };
    let (expected, plan) = plan_of(&a.db.db, variant, limits);
    let ui = GenerateUi::new(a.quiet, expected);
    ui.set_plan(plan);
    let reports = generate::generate(&a.db.db, variant, limits, &ix, &ui)?;
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
    let sectors = game.iter().filter(|r| !r.subspace.is_movement()).count() as u64;
    let subspaces = game.len() as u64 - sectors;
    let parts = match (subspaces, sectors) {
        (n, 0) => count(n, "movement subspace", "movement subspaces"),
        (0, s) => count(s, "placement sector", "placement sectors"),
        (n, s) => format!(
            "{} and {}",
            count(n, "movement subspace", "movement subspaces"),
            count(s, "placement sector", "placement sectors")
        ),
    };
    writeln!(
        out,
        "done: {parts} in {} ({} solved now, {} already there), {}{rule_note}, {:.1} s",
        a.db.db.display(),
        solved,
        game.len() - solved,
        count(classes, "class", "classes"),
        ui.start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of `data/generation-flying.tsv` parses (a row that does not
    /// would quietly leave its subspace out of the plan's estimate), and the
    /// table covers the whole game: the 49 movement subspaces and the 497
    /// placement sectors.
    #[test]
    fn the_measured_table_covers_every_subspace_and_sector() {
        let rows = data_rows(include_str!("../../data/generation-flying.tsv")).count();
        let table = measured();
        assert_eq!(table.len(), rows, "rows that do not parse");
        for sub in Subspace::all_movement()
            .into_iter()
            .chain(Subspace::all_placement())
        {
            let m = table
                .get(&sub)
                .unwrap_or_else(|| panic!("no row for {sub}"));
            assert!(m.seconds >= 0.0 && m.peak_gb > 0.0 && m.bytes > 0, "{sub}");
        }
    }

    #[test]
    fn a_row_that_names_no_subspace_is_left_out() {
        let t = parse_measured(
            "subspace\tseconds\tpeak_gb\tbytes\n3-3\t0.2\t0.1\t10\n2-2\t1\t1\t1\n4-4/1-1\t2\t1\t5\n",
        );
        assert_eq!(t.len(), 2);
        assert_eq!(t[&"4-4/1-1".parse::<Subspace>().unwrap()].bytes, 5);
    }
}
