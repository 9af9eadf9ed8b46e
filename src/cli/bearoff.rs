//! `millbase bearoff`: backgammon's bear-off databases, generated (gnubg's
//! files, or millbase's larger two-sided one), queried, and checked against
//! f64.

use super::{Failure, write_json};
use clap::{Args, Subcommand, ValueEnum};
use md5::{Digest, Md5};
use millbase::bearoff::database::BearoffFile;
use millbase::bearoff::file::BearoffError;
use millbase::bearoff::moves::Roll;
use millbase::bearoff::position::{MAX_CHEQUERS, MAX_POINTS, Written, positions};
use millbase::bearoff::query::{self, Value};
use millbase::bearoff::{exact, full, one_sided, two_sided};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args)]
pub struct BearoffArgs {
    #[command(subcommand)]
    command: BearoffCommand,
}

#[derive(Subcommand)]
enum BearoffCommand {
    /// Write a database: gnubg's one-sided (--one-sided) or two-sided
    /// (--two-sided) file, byte for byte what gnubg's makebearoff writes by
    /// default, or (--two-sided --format millbase) the cubeless equities of
    /// up to 15 chequers in millbase's own compressed file.
    ///
    /// Prints the file's size and MD5 (gnubg's manual lists the MD5 of its
    /// files). The file is written under a temporary name and renamed when
    /// complete, so an interrupted run leaves no partial file.
    Generate(GenerateArgs),
    /// The value of a position: for a one-sided file the expected rolls and
    /// their distribution, for a two-sided file the chance of winning and
    /// the equities of the side on roll.
    Query(QueryArgs),
    /// Every legal play of a roll, best first, with the value after it.
    Best(BestArgs),
    /// Solve a database again in f64 and print the largest difference from
    /// gnubg's fixed point.
    Exact(ExactArgs),
}

/// Which database.
#[derive(Args)]
#[group(required = true, multiple = false)]
struct Sides {
    /// The distributions of one side (gnubg's makebearoff -o P).
    #[arg(long)]
    one_sided: bool,
    /// The equities of both sides (gnubg's makebearoff -t PxC).
    #[arg(long)]
    two_sided: bool,
}

/// The size of a database.
#[derive(Args)]
struct Size {
    /// Points of a side's home board the positions use (1 to 13; gnubg's
    /// two-sided files use 6).
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u8).range(1..=MAX_POINTS as i64))]
    points: u8,
    /// Most chequers of a side (1 to 15; default 15 for one-sided files).
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u8).range(1..=MAX_CHEQUERS as i64))]
    checkers: Option<u8>,
}

impl Size {
    /// Points and chequers; two-sided files need --checkers.
    fn get(&self, two_sided: bool) -> Result<(usize, usize), Failure> {
        match (self.checkers, two_sided) {
            (Some(c), _) => Ok((usize::from(self.points), usize::from(c))),
            (None, false) => Ok((usize::from(self.points), MAX_CHEQUERS)),
            (None, true) => Err(Failure::input(
                "a two-sided database needs --checkers C (gnubg's default file is --points 6 --checkers 6)",
            )),
        }
    }
}

/// The file layout of a two-sided database.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// gnubg's file (up to 11 chequers).
    Gnubg,
    /// millbase's compressed file of cubeless equities (up to 15 chequers on
    /// 6 points; the solve holds 4 bytes a pair in memory, 11.8 GB for 15).
    Millbase,
}

#[derive(Args)]
struct GenerateArgs {
    #[command(flatten)]
    sides: Sides,
    #[command(flatten)]
    size: Size,
    /// Cubeless equities only (two-sided gnubg files; gnubg's -C).
    #[arg(long)]
    cubeless: bool,
    /// File layout of a two-sided database.
    #[arg(long, value_enum, default_value = "gnubg")]
    format: Format,
    /// The file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

#[derive(Args)]
struct QueryArgs {
    /// The database file.
    #[arg(long, value_name = "FILE")]
    db: PathBuf,
    /// The position: the point of each chequer, e.g. "1 6" (one-sided file),
    /// or the side on roll, a slash, the opponent: "2 5 / 2 3", a side
    /// without chequers written "-"; or a gnubg position ID.
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct BestArgs {
    #[command(flatten)]
    query: QueryArgs,
    /// The roll: two digits, e.g. 21 or 66.
    #[arg(long, value_name = "D1D2", value_parser = parse_roll)]
    roll: Roll,
}

#[derive(Args)]
struct ExactArgs {
    #[command(flatten)]
    sides: Sides,
    #[command(flatten)]
    size: Size,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn parse_roll(s: &str) -> Result<Roll, String> {
    Roll::parse(s).ok_or_else(|| format!("{s:?} is not a roll: two digits 1 to 6, e.g. 21 or 66"))
}

impl From<BearoffError> for Failure {
    fn from(e: BearoffError) -> Failure {
        match e {
            BearoffError::Position(p) => Failure::input(format!("bad position: {p}")),
            // a file named that is not there: the user's to fix
            BearoffError::Io { ref error, .. } if error.kind() == std::io::ErrorKind::NotFound => {
                Failure::input(e.to_string())
            }
            other => Failure::fault(other),
        }
    }
}

pub fn run(a: BearoffArgs, out: &mut impl Write) -> Result<(), Failure> {
    match a.command {
        BearoffCommand::Generate(g) => generate(g, out),
        BearoffCommand::Query(q) => {
            let (file, written) = open(&q)?;
            let value = query::value(&file, written)?;
            if q.json {
                return write_json(out, &value);
            }
            write_value(out, &value)
        }
        BearoffCommand::Best(b) => {
            let (file, written) = open(&b.query)?;
            let plays = query::best(&file, written, b.roll)?;
            if b.query.json {
                return write_json(out, &plays);
            }
            if let Some(over) = plays.over {
                writeln!(out, "{}: the game is over: {over}.", plays.position)?;
                return Ok(());
            }
            let ranked = match plays.moves.first() {
                Some(p) if p.centred_cube.is_some() => {
                    ", best first by the cubeful equity (centred cube)"
                }
                Some(p) if p.cubeless.is_some() => ", best first by the cubeless equity",
                _ => ", best first by the rolls left",
            };
            writeln!(out, "{} to play {}{ranked}:", plays.position, plays.roll)?;
            for p in &plays.moves {
                let mut line = format!("  {:<20}", p.notation);
                if let Some(r) = p.expected_rolls {
                    line += &format!(" {r:.4} rolls left");
                }
                if let (Some(w), Some(e)) = (p.win, p.cubeless) {
                    line += &format!(" wins {:.2}%, cubeless {e:+.4}", 100.0 * w);
                }
                if let Some(e) = p.centred_cube {
                    line += &format!(", centred cube {e:+.4}");
                }
                writeln!(out, "{line}")?;
            }
            Ok(())
        }
        BearoffCommand::Exact(e) => exact_difference(e, out),
    }
}

/// The file and the position of a query.
fn open(q: &QueryArgs) -> Result<(BearoffFile, Written), Failure> {
    let file = BearoffFile::open(&q.db)?;
    let written = Written::parse(&q.position, file.size().0)
        .map_err(|e| Failure::input(format!("bad position {:?}: {e}", q.position)))?;
    Ok((file, written))
}

fn write_value(out: &mut impl Write, value: &Value) -> Result<(), Failure> {
    match value {
        Value::OneSided {
            position,
            expected_rolls,
            distribution,
            expected_rolls_first,
        } => {
            writeln!(
                out,
                "{position}: {expected_rolls:.4} rolls expected to bear off"
            )?;
            if let Some(f) = expected_rolls_first.filter(|f| *f > 0.0) {
                writeln!(out, "first chequer off in {f:.4} rolls expected")?;
            }
            for (i, p) in distribution.iter().enumerate().filter(|(_, p)| **p > 0.0) {
                let rolls = if i == 1 { "roll " } else { "rolls" };
                writeln!(out, "  {i:>2} {rolls}: {:>8.4}%", 100.0 * p)?;
            }
        }
        Value::TwoSided {
            position,
            win,
            cubeless,
            cubeful,
            cube,
            over,
        } => {
            if let Some(over) = over {
                writeln!(out, "{position}: the game is over: {over}.")?;
                return Ok(());
            }
            writeln!(out, "{position}: the side on roll wins {:.4}%", 100.0 * win)?;
            writeln!(out, "  cubeless equity                  {cubeless:+.4}")?;
            if let Some(c) = cubeful {
                writeln!(
                    out,
                    "Cubeful equities before the cube decision, as the file stores them:"
                )?;
                writeln!(out, "  cube owned                       {:+.4}", c.owned)?;
                writeln!(out, "  cube centred                     {:+.4}", c.centred)?;
                writeln!(out, "  cube owned by the opponent       {:+.4}", c.opponent)?;
            }
            if let Some(c) = cube {
                writeln!(out, "Cube action and cubeful equity:")?;
                for (whose, a) in [("centred cube", c.centred), ("owned cube", c.owned)] {
                    writeln!(
                        out,
                        "  {whose:<16} {:<15} {:+.4}",
                        a.action.words(),
                        a.equity
                    )?;
                }
            }
        }
    }
    Ok(())
}

fn generate(g: GenerateArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (points, chequers) = g.size.get(g.sides.two_sided)?;
    if g.sides.one_sided && (g.cubeless || g.format == Format::Millbase) {
        return Err(Failure::input(
            "--cubeless and --format millbase are for two-sided databases: one-sided files are gnubg's",
        ));
    }
    let start = Instant::now();
    let shown = Progress::new(if g.sides.two_sided {
        "pairs solved"
    } else {
        "positions solved"
    });
    let mut progress = |done: u64, total: u64| shown.tell(done, total);
    let bytes = if g.sides.one_sided {
        let table = one_sided::generate(points, chequers, &mut |d, t| progress(d.into(), t.into()));
        Some(one_sided::gnubg_bytes(points, chequers, &table))
    } else if g.format == Format::Gnubg {
        if chequers > 11 {
            return Err(Failure::input(
                "gnubg's two-sided files go to 11 chequers: use --format millbase (cubeless) for more",
            ));
        }
        let table = two_sided::generate(points, chequers, !g.cubeless, &mut progress);
        Some(two_sided::gnubg_bytes(
            points,
            chequers,
            !g.cubeless,
            &table,
        ))
    } else {
        if points > 6 {
            return Err(Failure::input(
                "millbase's two-sided file holds up to 6 points",
            ));
        }
        let table = full::generate(points, chequers, &|d, t| shown.tell(d, t));
        full::write(&g.out, points, chequers, &table)?;
        None
    };
    shown.bar.finish_and_clear();
    // the MD5 of the bytes written: from memory, or read back from
    // millbase's file, which is written block by block
    let (md5, len) = match &bytes {
        Some(bytes) => {
            millbase::storage::write_atomic(&g.out, |f| f.write_all(bytes))?;
            (hex(&Md5::digest(bytes)), bytes.len() as u64)
        }
        None => md5_of(&g.out).map_err(|e| Failure::fault(format!("{}: {e}", g.out.display())))?,
    };
    let n = u64::from(positions(points, chequers));
    writeln!(
        out,
        "{}: {} positions of up to {chequers} chequers on {points} points{}, {} bytes, {:.1} s",
        g.out.display(),
        if g.sides.two_sided { n * n } else { n },
        if g.sides.two_sided { " (pairs)" } else { "" },
        len,
        start.elapsed().as_secs_f64()
    )?;
    writeln!(out, "MD5 {md5}")?;
    Ok(())
}

/// Progress of a generation: the bar on a terminal, else a line on stderr
/// at every tenth of the work (for logs).
struct Progress {
    bar: indicatif::ProgressBar,
    what: &'static str,
    start: Instant,
    tenths: std::sync::atomic::AtomicU64,
}

impl Progress {
    fn new(what: &'static str) -> Progress {
        Progress {
            bar: super::progress::counter_bar(what),
            what,
            start: Instant::now(),
            tenths: std::sync::atomic::AtomicU64::new(0),
        }
    }

    fn tell(&self, done: u64, total: u64) {
        self.bar.set_length(total);
        self.bar.set_position(done);
        let tenth = (done * 10).checked_div(total).unwrap_or(0);
        if self.bar.is_hidden()
            && tenth
                > self
                    .tenths
                    .fetch_max(tenth, std::sync::atomic::Ordering::Relaxed)
        {
            eprintln!(
                "{done}/{total} {}, {}",
                self.what,
                super::text::duration(self.start.elapsed().as_secs_f64())
            );
        }
    }
}

fn exact_difference(e: ExactArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (points, chequers) = e.size.get(e.sides.two_sided)?;
    let report = if e.sides.one_sided {
        let fixed = one_sided::generate(points, chequers, &mut |_, _| {});
        let real = exact::one_sided(points, chequers);
        let (prob, rolls) = exact::one_sided_difference(&fixed, &real);
        serde_json::json!({
            "points": points, "checkers": chequers,
            "probability": prob, "expected_rolls": rolls,
        })
    } else {
        if chequers > 11 {
            return Err(Failure::input(
                "the f64 check of two-sided files goes to 11 chequers",
            ));
        }
        let fixed = two_sided::generate(points, chequers, true, &mut |_, _| {});
        let real = exact::two_sided(points, chequers);
        let d = exact::two_sided_difference(&fixed, &real, 4);
        serde_json::json!({
            "points": points, "checkers": chequers,
            "cubeless": d[0], "owned": d[1], "centred": d[2], "opponent": d[3],
        })
    };
    if e.json {
        return write_json(out, &report);
    }
    writeln!(
        out,
        "largest difference between gnubg's fixed point and f64:"
    )?;
    for (k, v) in report.as_object().into_iter().flatten() {
        if !matches!(k.as_str(), "points" | "checkers") {
            writeln!(out, "  {k:<15} {:.3e}", v.as_f64().unwrap_or(f64::NAN))?;
        }
    }
    Ok(())
}

/// The MD5 of a file and its length, read in pieces.
fn md5_of(path: &Path) -> std::io::Result<(String, u64)> {
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let (mut hash, mut len) = (Md5::new(), 0u64);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let k = f.read(&mut buf)?;
        if k == 0 {
            break;
        }
        hash.update(&buf[..k]);
        len += k as u64;
    }
    Ok((hex(&hash.finalize()), len))
}

/// Bytes as lower-case hexadecimal.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
