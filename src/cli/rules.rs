//! `millbase rules`: the presets, one set of rules (a preset or a file of
//! the user's own) drawn and described, or the rules of a database.

use super::{Failure, rules_of, write_json};
use clap::Args;
use millbase::rules::ruleset::{Counts, Flying, FullBoard, PRESETS, Rules};
use millbase::storage::dir::DbDir;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args)]
pub struct RulesArgs {
    /// A preset (nine, nine-no-flying, twelve, lasker, six, seven, three) or
    /// a file describing rules of your own (JSON or TOML, as --json prints
    /// them under "rules"). Without it and --db: every preset, one a line.
    #[arg(value_name = "NAME|FILE", conflicts_with = "db")]
    rules: Option<String>,
    /// The rules of this database directory.
    #[arg(long, value_name = "DIR")]
    db: Option<PathBuf>,
    /// Print JSON: the description with its fingerprint, symmetries and the
    /// preset it is (a list of them without NAME|FILE and --db).
    #[arg(long)]
    json: bool,
}

/// A set of rules as `--json` prints it.
#[derive(Serialize)]
struct Described {
    /// [`Rules::fingerprint`] in 16 hex digits.
    fingerprint: String,
    /// The preset with these rules, if any.
    preset: Option<&'static str>,
    /// How many symmetries the board has.
    symmetries: usize,
    rules: millbase::rules::ruleset::RulesSpec,
}

impl Described {
    fn of(r: &Rules) -> Described {
        Described {
            fingerprint: format!("{:016x}", r.fingerprint()),
            preset: r.preset_name(),
            symmetries: r.board().symmetries().len(),
            rules: r.spec(),
        }
    }
}

pub fn run(a: RulesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let one = match (&a.rules, &a.db) {
        (Some(arg), _) => Some(rules_of(arg)?),
        (None, Some(dir)) => Some(DbDir::open(dir)?.variant().rules().clone()),
        (None, None) => None,
    };
    match (one, a.json) {
        (Some(r), true) => write_json(out, &Described::of(&r)),
        (Some(r), false) => describe(&r, out),
        (None, true) => {
            let all: Vec<Described> = (PRESETS.iter())
                .map(|n| Described::of(&Rules::preset(n).expect("a preset")))
                .collect();
            write_json(out, &all)
        }
        (None, false) => {
            for name in PRESETS {
                let r = Rules::preset(name).expect("a preset");
                writeln!(
                    out,
                    "{name:<15} {:016x}  {} points, {} mills, {} stones, {}",
                    r.fingerprint(),
                    r.board().len(),
                    r.board().mills().len(),
                    r.stones(),
                    flying(r.flying())
                )?;
            }
            Ok(())
        }
    }
}

fn flying(f: Flying) -> String {
    match f {
        Flying::Never => "no flying".into(),
        Flying::OnBoard(k) => format!("flying at {k} on the board with none in hand"),
        Flying::Total(k) => format!("flying at {k} on the board and in hand"),
    }
}

/// The rules drawn and told.
fn describe(r: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let b = r.board();
    write!(out, "{}", b.draw(|_| '.'))?;
    let names = |ps: &[u8]| -> String {
        (ps.iter())
            .map(|&p| b.points()[p as usize].name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let preset = match r.preset_name() {
        Some(p) if p == r.name() => String::new(),
        Some(p) => format!(" (the rules of {p})"),
        None => String::new(),
    };
    writeln!(out, "rules: {}{preset}", r.name())?;
    writeln!(out, "fingerprint: {:016x}", r.fingerprint())?;
    writeln!(
        out,
        "points: {} ({})",
        b.len(),
        (b.points().iter())
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    )?;
    let edges: Vec<String> = b
        .edges()
        .iter()
        .map(|e| names(e).replace(' ', "-"))
        .collect();
    writeln!(out, "adjacencies: {} ({})", edges.len(), edges.join(" "))?;
    let mills: Vec<String> = b.mills().iter().map(|m| names(m)).collect();
    writeln!(out, "mills: {} ({})", mills.len(), mills.join(", "))?;
    writeln!(out, "symmetries: {}", b.symmetries().len())?;
    writeln!(
        out,
        "stones: {} a side; a side with fewer than {} on the board and in hand has lost",
        r.stones(),
        r.min_stones()
    )?;
    let fly = match r.flying() {
        Flying::Never => "never".to_string(),
        Flying::OnBoard(k) => format!("with {k} stones on the board and none in hand"),
        Flying::Total(k) => format!("with {k} stones on the board and in hand"),
    };
    writeln!(out, "flying: {fly}")?;
    if r.lasker() {
        writeln!(
            out,
            "turn: while a side has stones in hand, it places one or moves one"
        )?;
    }
    let full = match r.full_board() {
        FullBoard::Draw => "a draw",
        FullBoard::LossForSideToMove => "a loss for the side to move",
    };
    writeln!(out, "a full board after the last placement: {full}")?;
    writeln!(
        out,
        "removal: a stone in a mill only when all the opponent's stones are in mills"
    )?;
    let counts = match r.counter().counts {
        Counts::AllPlies => "every ply since the last removal, placements included",
        Counts::MovementPlies => "the plies of the movement phase since the last removal",
    };
    writeln!(
        out,
        "no-removal rule: a draw after {} plies; the counter counts {counts}",
        r.counter().limit
    )?;
    Ok(())
}
