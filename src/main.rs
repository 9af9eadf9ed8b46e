//! The `millbase` command line: a thin layer over the library.

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use millbase::generate::{self, GenerateError, Limits, Observer, Report};
use millbase::index::{Indexer, Subspace};
use millbase::moves::{self, Rules};
use millbase::opening::{OpeningSearch, Precision, SearchProgress};
use millbase::position::Position;
use millbase::query::{Database, QueryError};
use millbase::solver::Progress;
use millbase::storage::{self, Counts, StorageError};
use millbase::verify;
use rayon::prelude::*;
use serde_json::json;
use std::io::IsTerminal;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

/// Retrograde-analysis solver and perfect-play database for Nine Men's Morris.
///
/// Positions are written as in RULES.md: `BOARD SIDE WHITE_IN_HAND BLACK_IN_HAND`,
/// e.g. "........................ w 9 9" (quote it: it contains spaces). BOARD lists
/// the 24 points a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7
/// d7 g7 as W (white), B (black) or . (empty).
#[derive(Parser)]
#[command(name = "millbase", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone, Copy)]
struct RuleArgs {
    /// Play without flying (a side with 3 stones may only slide).
    #[arg(long)]
    no_flying: bool,
}

impl RuleArgs {
    fn rules(self) -> Rules {
        Rules {
            flying: !self.no_flying,
        }
    }
}

#[derive(Args)]
struct DbArgs {
    /// Database directory.
    #[arg(long, value_name = "DIR", default_value = "data/db")]
    db: PathBuf,
}

#[derive(Args, Clone, Copy)]
struct ThreadArgs {
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

impl ThreadArgs {
    fn apply(self) {
        if let Some(n) = self.threads {
            // Fails only if the pool was built already, which run() never does.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(n as usize)
                .build_global();
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Draw the board of a position, with side to move and stones in hand.
    Show {
        /// The position, e.g. "........................ w 9 9".
        position: String,
    },
    /// List every legal move and the position after it.
    Moves {
        /// The position, e.g. "........................ w 9 9".
        position: String,
        /// Print one JSON object: {"position", "moves": [{"move", "position"}]}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Solve the movement phase into a database directory (resumes what is there).
    ///
    /// Subspaces are solved in dependency order, each with its colour swap; each
    /// finished subspace is written atomically with checksums, so an interrupted run
    /// loses at most the pair in progress. Rerunning skips finished, valid files.
    Generate {
        #[command(flatten)]
        db: DbArgs,
        /// Only subspaces where neither side has more than N stones (3..9).
        #[arg(long, value_name = "N", default_value_t = 9, value_parser = clap::value_parser!(u8).range(3..=9))]
        max_stones: u8,
        /// Only subspaces with at most N stones in all (6..18).
        #[arg(long, value_name = "N", default_value_t = 18, value_parser = clap::value_parser!(u8).range(6..=18))]
        max_total: u8,
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        threads: ThreadArgs,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Check every stored value against its children by forward move generation.
    ///
    /// Exits with status 1 if any entry disagrees.
    Verify {
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        threads: ThreadArgs,
        /// One JSON object per subspace: {"mover", "opponent", "checked", "mismatches"}.
        #[arg(long)]
        json: bool,
        /// Only this movement subspace, as MOVER-OPPONENT stones on board (e.g. 7-6);
        /// repeatable. Default: every subspace in the directory.
        #[arg(long, value_name = "M-O", value_parser = parse_subspace)]
        subspace: Vec<Subspace>,
        /// Check only every K-th block of symmetry orbits (a spread-out sample,
        /// about 1/K of the positions): a quick check of a whole database.
        #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        sample: u32,
    },
    /// The perfect-play value of a position and of every legal move, best first.
    ///
    /// Movement-phase positions are read from the database. Placement-phase
    /// positions (stones in hand) are solved by search with the database at the
    /// leaves: early ones take minutes (the initial position and all its moves need
    /// the complete database and about 9 GB of memory).
    Query {
        #[command(flatten)]
        db: DbArgs,
        /// The position, e.g. "WWW.BBB.........B....... w 0 0".
        position: String,
        /// One JSON object: {"position", "value", "plies", "moves": [{"move", "position", "value", "plies"}]}.
        #[arg(long)]
        json: bool,
    },
    /// Solve a placement-phase position (default: the initial position) exactly.
    ///
    /// Alpha-beta search over the placement phase with the movement database at the
    /// leaves. By default it finds win, draw or loss; --exact also finds the plies.
    SolveOpening {
        #[command(flatten)]
        db: DbArgs,
        /// The position to solve.
        #[arg(
            long,
            value_name = "POS",
            default_value = "........................ w 9 9"
        )]
        position: String,
        /// Also find the exact plies to the end (slower).
        #[arg(long)]
        exact: bool,
        /// Print {"position", "value", "plies", "nodes", "seconds"}.
        #[arg(long)]
        json: bool,
        /// No progress display on stderr.
        #[arg(long)]
        quiet: bool,
    },
    /// Win/loss/draw counts, longest plies and file sizes per subspace.
    Stats {
        #[command(flatten)]
        db: DbArgs,
        /// One JSON object per line with fields mover, opponent, classes, wins, losses,
        /// draws, all_wins, all_losses, all_draws, max_win_plies, max_loss_plies,
        /// raw_bytes, bytes.
        #[arg(long)]
        json: bool,
    },
    /// Rewrite the files of a database made by an older millbase in the current
    /// format (values unchanged; format 2 is about 30% smaller).
    ///
    /// One file at a time, each replaced atomically: an interrupted upgrade can be
    /// run again. Files already in the current format are left alone.
    Upgrade {
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        threads: ThreadArgs,
    },
    /// List the 49 movement subspaces with their classes, index size and density.
    Subspaces {
        /// One JSON object per line: {"mover", "opponent", "classes", "index_size", "density"}.
        #[arg(long)]
        json: bool,
    },
    /// Count the positions DEPTH plies deep (a move with its removal is one ply).
    Perft {
        /// The position, e.g. "........................ w 9 9".
        position: String,
        /// Plies to search (0..=30).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
        depth: u32,
        /// Print {"depth": D, "nodes": N}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RuleArgs,
    },
}

/// A failure of a command: the message and the exit status.
struct Failure {
    message: String,
    status: u8,
}

impl From<GenerateError> for Failure {
    fn from(e: GenerateError) -> Failure {
        Failure::fault(e)
    }
}

impl From<StorageError> for Failure {
    fn from(e: StorageError) -> Failure {
        Failure::fault(e)
    }
}

impl From<QueryError> for Failure {
    fn from(e: QueryError) -> Failure {
        Failure::fault(e)
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure {
            message: e.to_string(),
            status: if e.kind() == std::io::ErrorKind::BrokenPipe {
                0
            } else {
                1
            },
        }
    }
}

impl Failure {
    /// A failure that is not the user's input (a damaged or missing database, a
    /// verification mismatch): exit status 1.
    fn fault(e: impl std::fmt::Display) -> Failure {
        Failure {
            message: e.to_string(),
            status: 1,
        }
    }

    /// Bad input from the user: exit status 2.
    fn input(e: impl std::fmt::Display) -> Failure {
        Failure {
            message: e.to_string(),
            status: 2,
        }
    }
}

/// Progress display of `generate`: a bar on stderr, a summary line per subspace.
/// When stderr is not a terminal (a log file), plain lines replace the bar.
struct GenerateUi {
    bar: ProgressBar,
    /// Plain progress lines on stderr instead of the bar.
    lines: bool,
    start: Instant,
    current: Mutex<String>,
}

impl GenerateUi {
    fn new(quiet: bool) -> GenerateUi {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(0)
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:24} [{bar:30}] {human_pos}/{human_len} {per_sec} ETA {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        GenerateUi {
            bar,
            lines: !quiet && !std::io::stderr().is_terminal(),
            start: Instant::now(),
            current: Mutex::new(String::new()),
        }
    }
}

impl Progress for GenerateUi {
    fn initialised(&self, done: u64) {
        self.bar.inc(done);
    }
    fn level(&self, plies: u16) {
        let cur = self.current.lock().map(|c| c.clone()).unwrap_or_default();
        self.bar.set_message(format!("{cur}: level {plies}"));
        if self.lines && plies.is_multiple_of(20) {
            eprintln!(
                "{cur}: propagated level {plies} ({:.0} s since start)",
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}

impl Observer for GenerateUi {
    fn start_pair(&self, sub: Subspace, positions: u64) {
        let name = if sub.negate() == sub {
            sub.to_string()
        } else {
            format!("{sub}+{}", sub.negate())
        };
        self.bar.set_length(positions);
        self.bar.set_position(0);
        self.bar.reset_eta();
        self.bar.set_message(format!("{name}: init"));
        if self.lines {
            eprintln!(
                "{name}: solving {positions} positions ({:.0} s since start)",
                self.start.elapsed().as_secs_f64()
            );
        }
        if let Ok(mut c) = self.current.lock() {
            *c = name;
        }
    }
    fn finished(&self, r: &Report) {
        let c = &r.counts;
        let line = if r.skipped {
            format!(
                "{:>5}: already solved ({} classes)",
                r.subspace.to_string(),
                c.classes
            )
        } else {
            format!(
                "{:>5}: {} classes, {} wins, {} losses, {} draws, max win {} max loss {} plies, {:.1} s, peak {:.2} GB, {} bytes",
                r.subspace.to_string(),
                c.classes,
                c.wins,
                c.losses,
                c.draws,
                c.max_win,
                c.max_loss,
                r.seconds,
                r.peak_bytes as f64 / 1e9,
                r.file_bytes
            )
        };
        self.bar.suspend(|| println!("{line}"));
    }
}

/// Runs `work` with a spinner on stderr showing the nodes searched (none when
/// `quiet` or when stderr is not a terminal).
fn with_spinner<T>(quiet: bool, progress: &SearchProgress, work: impl FnOnce() -> T) -> T {
    if quiet || !std::io::stderr().is_terminal() {
        return work();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("valid template"),
    );
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        let bar = &bar;
        s.spawn(move || {
            let wait = std::time::Duration::from_millis(200);
            while finished.recv_timeout(wait).is_err() {
                let n = progress.nodes.load(std::sync::atomic::Ordering::Relaxed);
                bar.set_message(format!("{n} positions searched"));
                bar.tick();
            }
            bar.finish_and_clear();
        });
        let out = work();
        let _ = done.send(());
        out
    })
}

/// Parses a movement subspace written `M-O` (stones on board, 3..9 each).
fn parse_subspace(s: &str) -> Result<Subspace, String> {
    let parsed = s
        .split_once('-')
        .and_then(|(m, o)| Some((m.parse::<u8>().ok()?, o.parse::<u8>().ok()?)));
    match parsed {
        Some((m, o)) if (3..=9).contains(&m) && (3..=9).contains(&o) => {
            Ok(Subspace::movement(m, o))
        }
        _ => Err(format!(
            "{s:?} is not a movement subspace: write MOVER-OPPONENT stones, 3..9 each, e.g. 7-6"
        )),
    }
}

fn parse_position(s: &str) -> Result<Position, Failure> {
    s.parse::<Position>()
        .map_err(|e| Failure::input(format!("bad position {s:?}: {e}")))
}

fn run(cli: Cli) -> Result<(), Failure> {
    let out = &mut std::io::stdout().lock();
    match cli.command {
        Command::Show { position } => {
            let pos = parse_position(&position)?;
            let (wh, bh) = pos.hands();
            write!(out, "{}", pos.diagram())?;
            writeln!(
                out,
                "{} to move; in hand: White {wh}, Black {bh}",
                pos.side.name()
            )?;
            writeln!(out, "{pos}")?;
        }
        Command::Moves {
            position,
            json,
            rules,
        } => {
            let pos = parse_position(&position)?;
            let list = moves::legal_moves(&pos, rules.rules());
            if json {
                let items: Vec<_> = list
                    .iter()
                    .map(|&m| json!({"move": m.to_string(), "position": moves::apply(&pos, m).to_string()}))
                    .collect();
                writeln!(
                    out,
                    "{}",
                    json!({"position": pos.to_string(), "moves": items})
                )?;
            } else {
                for m in list {
                    writeln!(out, "{:<10} {}", m.to_string(), moves::apply(&pos, m))?;
                }
            }
        }
        Command::Generate {
            db,
            max_stones,
            max_total,
            rules,
            threads,
            quiet,
        } => {
            threads.apply();
            let ix = Indexer::new();
            let ui = GenerateUi::new(quiet);
            let limits = Limits {
                max_stones,
                max_total,
            };
            let reports = generate::generate(&db.db, rules.rules(), limits, &ix, &ui)?;
            ui.bar.finish_and_clear();
            let solved = reports.iter().filter(|r| !r.skipped).count();
            let classes: u64 = reports.iter().map(|r| r.counts.classes).sum();
            writeln!(
                out,
                "done: {} subspaces in {} ({} solved now, {} already there), {classes} classes, {:.1} s",
                reports.len(),
                db.db.display(),
                solved,
                reports.len() - solved,
                ui.start.elapsed().as_secs_f64()
            )?;
        }
        Command::Upgrade { db, threads } => {
            threads.apply();
            let (mut old, mut new) = (0u64, 0u64);
            let done = generate::upgrade(&db.db, &mut |u| {
                old += u.old_bytes;
                new += u.new_bytes;
                eprintln!(
                    "{:>5}: {} -> {} bytes",
                    u.subspace.to_string(),
                    u.old_bytes,
                    u.new_bytes
                );
            })?;
            writeln!(
                out,
                "upgraded {} files in {}: {old} -> {new} bytes",
                done.len(),
                db.db.display()
            )?;
        }
        Command::Verify {
            db,
            threads,
            json,
            subspace,
            sample,
        } => {
            threads.apply();
            let rules = storage::dir_rules(&db.db)?;
            let ix = Indexer::new();
            let mut lines = vec![];
            let reports =
                verify::verify_dir(&db.db, rules, &ix, &subspace, sample as usize, &mut |r| {
                    let line = if json {
                        json!({"mover": r.subspace.mover, "opponent": r.subspace.opponent,
                           "checked": r.checked, "mismatches": r.mismatches})
                        .to_string()
                    } else {
                        let mut l = format!(
                            "{:>5}: {} positions checked, {} mismatches",
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
                    };
                    println!("{line}");
                    lines.push(line);
                })?;
            let bad: u64 = reports.iter().map(|r| r.mismatches).sum();
            let checked: u64 = reports.iter().map(|r| r.checked).sum();
            if reports.is_empty() {
                return Err(Failure::fault(format!(
                    "{}: no subspace files to verify",
                    db.db.display()
                )));
            }
            if bad > 0 {
                return Err(Failure::fault(format!(
                    "{bad} mismatches in {checked} positions"
                )));
            }
            if !json {
                writeln!(
                    out,
                    "ok: {checked} positions in {} subspaces ({} rules{}) agree with their children",
                    reports.len(),
                    rules.name(),
                    if sample > 1 {
                        format!(", one orbit block in {sample}")
                    } else {
                        String::new()
                    }
                )?;
            }
        }
        Command::Query { db, position, json } => {
            let pos = parse_position(&position)?;
            let database = Database::open(&db.db)?;
            let answer = database.answer(&pos)?;
            if json {
                let moves: Vec<_> = answer
                    .moves
                    .iter()
                    .map(|m| {
                        json!({"move": m.mv.to_string(), "position": m.position.to_string(),
                                    "value": m.value.name(), "plies": m.value.plies()})
                    })
                    .collect();
                let row = json!({"position": pos.to_string(), "value": answer.value.name(),
                                 "plies": answer.value.plies(), "moves": moves});
                writeln!(out, "{row}")?;
            } else {
                writeln!(
                    out,
                    "{pos}: {} for {} ({} rules)",
                    answer.value,
                    pos.side.name(),
                    database.rules().name()
                )?;
                for m in &answer.moves {
                    writeln!(
                        out,
                        "  {:<10} {:<12} {}",
                        m.mv.to_string(),
                        m.value.to_string(),
                        m.position
                    )?;
                }
            }
        }
        Command::SolveOpening {
            db,
            position,
            exact,
            json,
            quiet,
        } => {
            let pos = parse_position(&position)?;
            let database = Database::open(&db.db)?;
            let precision = if exact {
                Precision::ExactPlies
            } else {
                Precision::WinDrawLoss
            };
            let start = Instant::now();
            let mut search = OpeningSearch::new(&database, precision);
            let value = with_spinner(quiet, &search.progress(), || search.value(&pos))?;
            let seconds = start.elapsed().as_secs_f64();
            let plies = if exact { value.plies() } else { None };
            if json {
                let row = json!({"position": pos.to_string(), "value": value.name(), "plies": plies,
                                 "nodes": search.nodes(), "seconds": (seconds * 1000.0).round() / 1000.0});
                writeln!(out, "{row}")?;
            } else {
                let shown = if exact {
                    value.to_string()
                } else {
                    value.name().to_string()
                };
                writeln!(
                    out,
                    "{pos}: {shown} for {} ({} rules); {} nodes, {seconds:.2} s",
                    pos.side.name(),
                    database.rules().name(),
                    search.nodes()
                )?;
            }
        }
        Command::Stats { db, json } => {
            let rules = storage::dir_rules(&db.db)?;
            let mut total = Counts::default();
            let (mut raw_total, mut bytes_total) = (0u64, 0u64);
            if !json {
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
            for sub in generate::all_subspaces(Limits::default()) {
                let t = match generate::open_table(&db.db, rules, sub) {
                    Ok(t) => t,
                    Err(StorageError::Missing { .. }) => continue,
                    Err(e) => return Err(e.into()),
                };
                let c = t.header.counts;
                let raw = t.header.entries;
                let bytes = t.file_len();
                total = total.merge(c);
                raw_total += raw;
                bytes_total += bytes;
                if json {
                    let row = json!({"mover": sub.mover, "opponent": sub.opponent, "classes": c.classes,
                        "wins": c.wins, "losses": c.losses, "draws": c.draws, "all_wins": c.all_wins,
                        "all_losses": c.all_losses, "all_draws": c.all_draws, "max_win_plies": c.max_win,
                        "max_loss_plies": c.max_loss, "raw_bytes": raw, "bytes": bytes});
                    writeln!(out, "{row}")?;
                } else {
                    writeln!(
                        out,
                        "{:>5} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8} {raw:>12} {bytes:>12}",
                        sub.to_string(),
                        c.classes,
                        c.wins,
                        c.losses,
                        c.draws,
                        c.max_win,
                        c.max_loss
                    )?;
                }
            }
            if !json {
                writeln!(
                    out,
                    "{:>5} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8} {raw_total:>12} {bytes_total:>12}",
                    "total",
                    total.classes,
                    total.wins,
                    total.losses,
                    total.draws,
                    total.max_win,
                    total.max_loss
                )?;
            }
        }
        Command::Subspaces { json } => {
            let ix = Indexer::new();
            let rows: Vec<(Subspace, u64, u64)> = Subspace::all_movement()
                .into_par_iter()
                .map(|s| (s, ix.classes(s), ix.index_size(s)))
                .collect();
            if !json {
                writeln!(
                    out,
                    "{:>8} {:>14} {:>14} {:>8}",
                    "subspace", "classes", "index size", "density"
                )?;
            }
            for &(s, classes, size) in &rows {
                let density = classes as f64 / size as f64;
                if json {
                    let row = json!({"mover": s.mover, "opponent": s.opponent, "classes": classes,
                                     "index_size": size, "density": (density * 1e6).round() / 1e6});
                    writeln!(out, "{row}")?;
                } else {
                    writeln!(
                        out,
                        "{:>8} {classes:>14} {size:>14} {density:>8.4}",
                        s.to_string()
                    )?;
                }
            }
            let classes: u64 = rows.iter().map(|r| r.1).sum();
            let size: u64 = rows.iter().map(|r| r.2).sum();
            if !json {
                let density = classes as f64 / size as f64;
                writeln!(
                    out,
                    "{:>8} {classes:>14} {size:>14} {density:>8.4}",
                    "total"
                )?;
            }
        }
        Command::Perft {
            position,
            depth,
            json,
            rules,
        } => {
            let pos = parse_position(&position)?;
            let nodes = moves::perft_parallel(&pos, depth, rules.rules());
            if json {
                writeln!(out, "{}", json!({"depth": depth, "nodes": nodes}))?;
            } else {
                writeln!(out, "perft({depth}) = {nodes}")?;
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) if f.status == 0 => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.status)
        }
    }
}
