//! `millbase stats`: counts and file sizes per subspace and placement sector.

use super::{DbArgs, Failure, write_json};
use clap::Args;
use millbase::answer::query::Database;
use millbase::answer::records;
use millbase::answer::report::{RuleCounts, RuleStatsRow, StatsRow};
use millbase::solve::known::Kind;
use millbase::solve::value::Counts;
use millbase::storage::dir::DbDir;
use millbase::storage::reports;
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
    /// Instead, the counts under the no-removal rule at counter 0: wins,
    /// cursed wins (won without the rule, drawn with it), draws, blessed
    /// losses, losses and the largest dtc of each subspace, with the move
    /// limit L of the database's rule tables (the smallest, when there are
    /// several, or the one given); with --json one object per line with
    /// fields mover, opponent, mover_hand, opponent_hand, move_limit,
    /// classes, wins, cursed_wins, draws, blessed_losses, losses, the same
    /// over every symmetric image (all_*), max_win_dtc, max_loss_dtc.
    #[arg(long, value_name = "L", num_args = 0..=1, default_missing_value = "0", conflicts_with = "longest")]
    rule: Option<u16>,
    /// Instead, keep in the database the statistics (histogram of plies,
    /// longest wins and losses) of every table that has none kept yet in
    /// reports/, so that every /api/stats/SECTOR request is a file read.
    /// `generate` keeps them as it writes each table; this makes them for
    /// a database without, each from its table and, where the file stores
    /// no plies, its children's tables in memory (a few GB for the largest).
    #[arg(long, conflicts_with_all = ["longest", "rule"])]
    reports: bool,
}

/// `--reports`: the statistics of every table of `db` that has none kept.
fn make_reports(db: &DbDir, out: &mut impl Write) -> Result<(), Failure> {
    let ix = millbase::index::Indexer::of(db.variant().geometry());
    let (mut made, mut kept) = (0, 0);
    for sub in db.present() {
        let key = reports::TableKey::of(&db.open_table(Kind::Game, sub)?);
        if reports::report_is_kept(db.path(), sub, key) {
            kept += 1;
            continue;
        }
        let start = std::time::Instant::now();
        let cells = millbase::build::complete::read_complete(db, &ix, Kind::Game, sub)?;
        reports::keep_report(db.path(), db.variant(), sub, &cells, key)?;
        made += 1;
        writeln!(out, "{sub}: made in {:.1} s", start.elapsed().as_secs_f64())?;
    }
    writeln!(out, "{made} reports made, {kept} kept already")?;
    Ok(())
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

fn longest(db: &Database, n: usize, json: bool, out: &mut impl Write) -> Result<(), Failure> {
    for sub in db.dir().present() {
        let r = records::longest(db, sub, n)?;
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

/// One row of the text table under the rule.
fn rule_row(out: &mut impl Write, name: &str, c: &RuleCounts) -> std::io::Result<()> {
    writeln!(
        out,
        "{name:>9} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>7} {:>7}",
        c.classes,
        c.wins,
        c.cursed_wins,
        c.draws,
        c.blessed_losses,
        c.losses,
        c.max_win_dtc,
        c.max_loss_dtc
    )
}

fn rule(db: &DbDir, limit: u16, json: bool, out: &mut impl Write) -> Result<(), Failure> {
    let limits = db.move_limits();
    let limit = match (limit, limits.first()) {
        (0, Some(&l)) => l,
        (l, _) if limits.contains(&l) => l,
        _ => {
            return Err(Failure::input(format!(
                "{} holds no tables of the no-removal rule{}: build them with \
                 `millbase generate --db {}{}`",
                db.path().display(),
                if limit == 0 {
                    String::new()
                } else {
                    format!(" with move limit {limit}")
                },
                db.path().display(),
                if limit == 0 {
                    String::new()
                } else {
                    format!(" --move-limit {limit}")
                },
            )));
        }
    };
    if !json {
        writeln!(
            out,
            "Counter 0 under the {limit}-ply no-removal rule (classes; dtc: plies to the next removal or the end)"
        )?;
        writeln!(
            out,
            "{:>9} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>7} {:>7}",
            "sub", "classes", "wins", "cursed", "draws", "blessed", "losses", "win dtc", "loss dtc"
        )?;
    }
    let (mut plain_total, mut rule_total) = (Counts::default(), Counts::default());
    for sub in db.present() {
        let plain = db.open_table(Kind::Game, sub)?.header.counts;
        let with_rule = db.open_table(Kind::Rule(limit), sub)?.header.counts;
        let counts = RuleCounts::new(plain, with_rule).ok_or_else(|| {
            Failure::fault(format!(
                "{}: the counts of the rule table of {sub} cannot belong to its table                  (run `millbase verify --db {}`)",
                db.path().display(),
                db.path().display()
            ))
        })?;
        plain_total = plain_total.merge(plain);
        rule_total = rule_total.merge(with_rule);
        if json {
            write_json(
                out,
                &RuleStatsRow {
                    mover: sub.mover,
                    opponent: sub.opponent,
                    mover_hand: sub.mover_hand,
                    opponent_hand: sub.opponent_hand,
                    move_limit: limit,
                    counts,
                },
            )?;
        } else {
            rule_row(out, &sub.to_string(), &counts)?;
        }
    }
    if !json {
        let total = RuleCounts::new(plain_total, rule_total).unwrap_or_default();
        rule_row(out, "total", &total)?;
        writeln!(
            out,
            "Positions (every symmetric image): {} wins of the game without the rule are draws \
             with it at counter 0 (cursed), and {} losses (blessed).",
            total.all_cursed_wins, total.all_blessed_losses
        )?;
    }
    Ok(())
}

pub fn run(a: StatsArgs, out: &mut impl Write) -> Result<(), Failure> {
    let db = DbDir::open(&a.db.db)?;
    if let Some(n) = a.longest {
        return longest(&Database::open(&a.db.db)?, n, a.json, out);
    }
    if let Some(l) = a.rule {
        return rule(&db, l, a.json, out);
    }
    if a.reports {
        return make_reports(&db, out);
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
        let t = db.open_table(Kind::Game, sub)?;
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
