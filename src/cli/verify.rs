//! `millbase verify`: check every stored value against its children.

use super::progress::VerifyUi;
use super::{DbArgs, Failure, ThreadArgs};
use clap::Args;
use millbase::answer::report::VerifyRow;
use millbase::build::verify::{self, Scope, VerifyReport};
use millbase::index::{Indexer, Subspace};
use millbase::solve::known::Kind;
use millbase::storage::dir::DbDir;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    /// One JSON object per table: {"mover", "opponent", "mover_hand",
    /// "opponent_hand", "checked", "mismatches"}, and "move_limit" for a
    /// table of the no-removal rule ("checked": the positions recomputed from
    /// their children; in a rule table, those the game decides).
    #[arg(long)]
    json: bool,
    /// Check the game's tables only, not the tables of the no-removal rule
    /// (which are checked after them by default, where the directory holds
    /// them).
    #[arg(long)]
    no_rule_tables: bool,
    /// Only this subspace: MOVER-OPPONENT stones on board (e.g. 7-6), or a
    /// placement sector MOVER-OPPONENT/MOVER_HAND-OPPONENT_HAND (e.g. 4-4/5-5);
    /// repeatable. Default: every subspace and sector in the directory.
    #[arg(long, value_name = "M-O[/MH-OH]", value_parser = parse_subspace)]
    subspace: Vec<Subspace>,
    /// Check only the positions of every K-th symmetry class of the
    /// opponent's stone sets (a spread-out sample, about 1/K of the
    /// positions): a quick check of a whole database.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    sample: u32,
    /// The `--json` output of an earlier, interrupted run of the same check:
    /// the tables it reports are not checked again, and their results
    /// count in the verdict. Append the new run's output to the same file:
    /// `millbase verify --json --done v.jsonl >> v.jsonl`.
    #[arg(long, value_name = "FILE")]
    done: Option<PathBuf>,
}

/// The rows of an earlier run's `--json` output in `path`; an unfinished last
/// line (the run stopped while writing it) is not a row.
fn read_done(path: &Path) -> Result<Vec<VerifyRow>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("--done {}: {e}", path.display())))?;
    let complete = text.rfind('\n').map_or("", |end| &text[..end]);
    (complete.lines().enumerate())
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(k, l)| {
            let row: VerifyRow = serde_json::from_str(l).map_err(|e| {
                Failure::input(format!(
                    "--done {}: line {} is not a line of `verify --json` ({e})",
                    path.display(),
                    k + 1
                ))
            })?;
            if row.subspace().is_valid() {
                Ok(row)
            } else {
                Err(Failure::input(format!(
                    "--done {}: line {} names no subspace of the game",
                    path.display(),
                    k + 1
                )))
            }
        })
        .collect()
}

/// Parses a subspace `M-O` or a placement sector `M-O/MH-OH`.
fn parse_subspace(s: &str) -> Result<Subspace, String> {
    s.parse::<Subspace>().map_err(|e| e.to_string())
}

/// The text lines of one table's result.
fn text(r: &VerifyReport) -> String {
    let name = match r.move_limit {
        None => r.subspace.to_string(),
        Some(l) => format!("{} rule {l}", r.subspace),
    };
    let mut l = format!(
        "{name:>9}: {} positions checked, {} mismatches",
        r.checked, r.mismatches
    );
    if r.counts_differ {
        l.push_str(
            "\n       the counts in the file differ from those of the distances its children give",
        );
    }
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
    let ix = Indexer::of(db.variant().geometry());
    let done = match &a.done {
        Some(path) => read_done(path)?,
        None => vec![],
    };
    let asked = if a.subspace.is_empty() {
        db.present()
    } else {
        a.subspace.clone()
    };
    let done: Vec<VerifyRow> = (done.into_iter())
        .filter(|r| asked.contains(&r.subspace()))
        .collect();
    // the subspaces of `asked` whose table (the rule's for a move limit) is
    // not among the rows done
    let todo = |limit: Option<u16>| -> Vec<Subspace> {
        (asked.iter().copied())
            .filter(|s| {
                !done
                    .iter()
                    .any(|r| r.subspace() == *s && r.move_limit == limit)
            })
            .collect()
    };
    // the first failure to write the output: no more work after it
    let failed: std::cell::RefCell<Option<Failure>> = Default::default();
    let ui = VerifyUi::new();
    let mut show = |r: &VerifyReport| {
        let written = ui.suspend(|| {
            if a.json {
                let row = VerifyRow {
                    mover: r.subspace.mover,
                    opponent: r.subspace.opponent,
                    mover_hand: r.subspace.mover_hand,
                    opponent_hand: r.subspace.opponent_hand,
                    checked: r.checked,
                    mismatches: r.mismatches,
                    move_limit: r.move_limit,
                };
                super::write_json(out, &row)
            } else {
                writeln!(out, "{}", text(r)).map_err(Failure::from)
            }
            .and_then(|()| out.flush().map_err(Failure::from))
        });
        match written {
            Ok(()) => true,
            Err(e) => {
                *failed.borrow_mut() = Some(e);
                false
            }
        }
    };
    let sample = a.sample as usize;
    let mut work = || -> Result<Vec<VerifyReport>, Failure> {
        let limits = if a.no_rule_tables {
            vec![]
        } else {
            db.move_limits()
        };
        let mut reports = vec![];
        for kind in std::iter::once(Kind::Game).chain(limits.into_iter().map(Kind::Rule)) {
            if failed.borrow().is_some() {
                break;
            }
            // the subspaces asked for whose table is there (every one named
            // by --subspace must be)
            let subs = match (todo(kind.move_limit()), kind) {
                (subs, Kind::Rule(limit)) if a.subspace.is_empty() => {
                    verify::with_rule_table(&db, limit, subs)
                }
                (subs, _) => subs,
            };
            if !subs.is_empty() {
                let scope = Scope {
                    only: &subs,
                    sample,
                    ..Scope::all(kind)
                };
                reports.extend(verify::verify_tables(&db, &ix, scope, &ui, &mut show)?);
            }
        }
        Ok(reports)
    };
    // the bar is cleared whatever the outcome
    let reports = work();
    ui.finish();
    let reports = reports?;
    if let Some(e) = failed.into_inner() {
        return Err(e);
    }
    let bad: u64 = reports.iter().map(|r| r.mismatches).sum::<u64>()
        + done.iter().map(|r| r.mismatches).sum::<u64>();
    let checked: u64 = reports.iter().map(|r| r.checked).sum::<u64>()
        + done.iter().map(|r| r.checked).sum::<u64>();
    let files = reports.len() + done.len();
    if files == 0 {
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
            "ok: {checked} positions in {files} tables ({} rules{}) agree with their children",
            db.variant().name(),
            if a.sample > 1 {
                format!(", one class of opponent sets in {}", a.sample)
            } else {
                String::new()
            }
        )?;
    }
    Ok(())
}
