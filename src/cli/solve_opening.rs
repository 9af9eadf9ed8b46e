//! `millbase solve-opening`: the value of a placement-phase position (the
//! initial one by default), read from the tables or found by search.

use super::progress::with_spinner;
use super::{DbArgs, Failure, LimitArgs, parse_position, write_json};
use clap::Args;
use millbase::answer::answers::Source;
use millbase::answer::opening::{OpeningSearch, Precision};
use millbase::answer::query::{Database, QueryError};
use millbase::answer::report::{Comparison, Disagreement, OpeningResult};
use millbase::index::Subspace;
use millbase::play::sample::random_placement_positions;
use millbase::rules::position::Position;
use millbase::solve::value::Value;
use std::io::Write;
use std::time::Instant;

#[derive(Args)]
pub struct SolveOpeningArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    limit: LimitArgs,
    /// The position to solve (default: the start of the largest game the
    /// database holds, "........................ w 9 9" for the whole game).
    #[arg(long, value_name = "POS")]
    position: Option<String>,
    /// Solve by alpha-beta search over the placement phase with the movement
    /// tables at the leaves, an independent check of the placement tables
    /// (minutes and several GB for the initial position).
    #[arg(long)]
    search: bool,
    /// With --search or --compare: also find (and compare) the exact plies to
    /// the end (slower).
    #[arg(long)]
    exact: bool,
    /// Compare the tables with the search on N random positions, each taken
    /// after a random number of placements from a random game from
    /// --position: the value of each position and of every move from it;
    /// exits with status 1 if any disagrees.
    #[arg(long, value_name = "N", conflicts_with = "search")]
    compare: Option<usize>,
    /// With --compare: the seed of the random games.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "compare")]
    seed: u64,
    /// With --compare: take positions after at least K placements (early
    /// positions take the search longest).
    #[arg(long, value_name = "K", default_value_t = 0, requires = "compare")]
    min_ply: u32,
    /// Print {"position", "value", "plies", "source", "nodes", "seconds"}
    /// (with --compare: {"start", "seed", "positions", "moves", "exact",
    /// "disagreements", "table_seconds", "search_seconds", "nodes"}).
    #[arg(long)]
    json: bool,
    /// No progress display on stderr.
    #[arg(long)]
    quiet: bool,
}

pub fn run(a: SolveOpeningArgs, out: &mut impl Write) -> Result<(), Failure> {
    super::check_board(&a.db.db)?;
    let given = a.position.as_deref().map(parse_position).transpose()?;
    let database = a.limit.open(&a.db.db)?;
    let pos = given.unwrap_or_else(|| database.start());
    let precision = if a.exact {
        Precision::ExactPlies
    } else {
        Precision::WinDrawLoss
    };
    if let Some(n) = a.compare {
        return compare(&a, &database, &pos, n, precision, out);
    }
    let start = Instant::now();
    let from_tables = if a.search {
        None
    } else {
        match database.probe(&pos) {
            Err(QueryError::PlacementPhase(_)) => {
                if !a.quiet {
                    eprintln!(
                        "note: {} lacks the placement sector {}: solving by search",
                        database.path().display(),
                        Subspace::of(&pos)
                    );
                }
                None
            }
            v => Some(v?),
        }
    };
    let (value, source, exact, nodes) = match from_tables {
        Some(v) => (v, Source::Table, true, 0),
        None => {
            let mut search = OpeningSearch::new(&database, precision);
            let v = with_spinner(a.quiet, &search.progress(), || search.value(&pos))?;
            (v, Source::Search, a.exact, search.nodes())
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        return write_json(
            out,
            &OpeningResult::new(&pos, value, exact, source, nodes, seconds),
        );
    }
    let shown = if exact {
        value.to_string()
    } else {
        value.name().to_string()
    };
    let how = match source {
        Source::Table => "from the tables".to_string(),
        Source::Search => format!("by search, {nodes} nodes"),
    };
    writeln!(
        out,
        "{pos}: {shown} for {} ({} rules); {how}, {seconds:.3} s",
        pos.side.name(),
        database.variant().name(),
    )?;
    Ok(())
}

/// `--compare N`: the tables against the search on `n` random positions.
fn compare(
    a: &SolveOpeningArgs,
    database: &Database,
    start: &Position,
    n: usize,
    precision: Precision,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let variant = database.variant();
    let positions =
        random_placement_positions(start, variant, n, a.min_ply, a.seed).ok_or_else(|| {
            let placements = u32::from(start.mover_hand) + u32::from(start.opponent_hand);
            Failure::input(format!(
                "--min-ply {}: {start} has {placements} placements to play; take K below \
                 {placements}",
                a.min_ply
            ))
        })?;
    let shown = |v: Value| match precision {
        Precision::ExactPlies => v.to_string(),
        Precision::WinDrawLoss => v.name().to_string(),
    };
    let mut search = OpeningSearch::new(database, precision);
    let (mut table_seconds, mut search_seconds) = (0.0, 0.0);
    let (mut disagreements, mut moves) = (vec![], 0);
    for (k, pos) in positions.iter().enumerate() {
        let t = Instant::now();
        let tables = match database.answer_from_tables(pos) {
            Err(QueryError::PlacementPhase(_)) => {
                return Err(Failure::fault(format!(
                    "{pos}: {} lacks the placement sector {}: --compare needs the \
                     placement tables; build them with `millbase generate --db {}`",
                    database.path().display(),
                    Subspace::of(pos),
                    database.path().display()
                )));
            }
            a => a?,
        };
        table_seconds += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let searched = with_spinner(a.quiet, &search.progress(), || search.answer(pos))?;
        search_seconds += t.elapsed().as_secs_f64();
        // every move's value too: each table move has its twin in the search
        let moves_differing = tables.moves.len().abs_diff(searched.moves.len())
            + (tables.moves.iter())
                .filter(|m| {
                    !(searched.moves.iter())
                        .any(|s| s.mv == m.mv && shown(s.value) == shown(m.value))
                })
                .count();
        moves += tables.moves.len();
        let (table, found) = (shown(tables.value), shown(searched.value));
        let agree = table == found && moves_differing == 0;
        if !a.json {
            let verdict = if agree { "agree" } else { "DISAGREE" };
            writeln!(
                out,
                "{:>5} {pos}: tables {table}, search {found}, {} moves ({moves_differing} \
                 differ): {verdict}",
                k + 1,
                tables.moves.len()
            )?;
        }
        if !agree {
            disagreements.push(Disagreement {
                position: pos.to_string(),
                table,
                search: found,
                moves_differing,
            });
        }
    }
    let ms = |s: f64| (s * 1000.0).round() / 1000.0;
    let report = Comparison {
        start: start.to_string(),
        seed: a.seed,
        positions: positions.len(),
        moves,
        exact: precision == Precision::ExactPlies,
        disagreements,
        table_seconds: ms(table_seconds),
        search_seconds: ms(search_seconds),
        nodes: search.nodes(),
    };
    if a.json {
        write_json(out, &report)?;
    } else {
        writeln!(
            out,
            "{} positions ({} moves) from random games from {start} (seed {}), {} rules: {} \
             disagree; tables {:.3} s, search {:.3} s ({} nodes)",
            report.positions,
            report.moves,
            report.seed,
            variant.name(),
            report.disagreements.len(),
            report.table_seconds,
            report.search_seconds,
            report.nodes
        )?;
    }
    match report.disagreements.len() {
        0 => Ok(()),
        d => Err(Failure::fault(format!(
            "the tables and the search disagree on {d} of {} positions",
            report.positions
        ))),
    }
}
