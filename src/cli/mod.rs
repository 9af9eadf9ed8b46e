//! The command line: one module per command, each a thin call into the library.

mod arena;
mod bearoff;
mod checksums;
mod generate;
mod line;
mod moves;
mod perft;
mod play;
mod probe;
mod progress;
mod query;
mod review;
mod rules;
mod serve;
mod show;
mod solve_opening;
mod stats;
mod subspaces;
mod text;
mod upgrade;
mod verify;

use clap::{Args, Parser, Subcommand};
use millbase::Variant;
use millbase::answer::query::{Database, QueryError};
use millbase::play::players::Level;
use millbase::rules::game::Game;
use millbase::rules::position::Position;
use millbase::storage::StorageError;
use millbase::storage::dir::DbError;
use std::path::PathBuf;

/// Retrograde-analysis solver and perfect-play database for Nine Men's Morris.
///
/// Positions are written as in docs/RULES.md: `BOARD SIDE WHITE_IN_HAND BLACK_IN_HAND`,
/// e.g. "........................ w 9 9" (quote it: it contains spaces). BOARD lists
/// the 24 points a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7
/// d7 g7 as W (white), B (black) or . (empty).
#[derive(Parser)]
#[command(name = "millbase", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Draw the board of a position, with side to move and stones in hand.
    Show(show::ShowArgs),
    /// List every legal move and the position after it.
    Moves(moves::MovesArgs),
    /// Solve the game into a database directory (resumes what is there).
    ///
    /// The movement subspaces are solved in dependency order, each with its colour
    /// swap, then the placement sectors (stones in hand); each finished file is
    /// written atomically with checksums, so an interrupted run loses at most the
    /// pair or sector in progress. Rerunning skips finished, valid files.
    Generate(generate::GenerateArgs),
    /// Check every stored value against its children by forward move generation.
    ///
    /// Exits with status 1 if any entry disagrees.
    Verify(verify::VerifyArgs),
    /// The perfect-play value of a position and of every legal move, best first.
    ///
    /// Read from the database's tables. A position with stones in hand whose
    /// placement sector the database lacks (built with --movement-only, or by an
    /// older millbase) is solved by search instead: early ones take minutes and
    /// several GB.
    Query(query::QueryArgs),
    /// The value of a placement-phase position (default: the initial position).
    ///
    /// Read from the placement tables; with --search (or where the database lacks
    /// them), found by alpha-beta search over the placement phase with the movement
    /// tables at the leaves: win, draw or loss, and with --exact also the plies.
    SolveOpening(solve_opening::SolveOpeningArgs),
    /// Win/loss/draw counts, longest plies and file sizes per subspace.
    Stats(stats::StatsArgs),
    /// Rewrite the files of a database made by an older millbase in the current
    /// format (values unchanged; format 2 is about 30% smaller, and rule tables
    /// without their own win/draw/loss stream about 39%).
    ///
    /// One file at a time, each replaced atomically: an interrupted upgrade can be
    /// run again. Files already in the current format are left alone.
    Upgrade(upgrade::UpgradeArgs),
    /// List the 49 movement subspaces and the 497 placement sectors (stones in
    /// hand) with their classes, index size and density.
    Subspaces(subspaces::SubspacesArgs),
    /// Count the positions DEPTH plies deep (a move with its removal is one ply).
    Perft(perft::PerftArgs),
    /// The rules: every preset, one preset or a file of your own drawn and
    /// described with its fingerprint, or (--db) the rules of a database.
    ///
    /// The fingerprint names the rules in every database; rules that differ
    /// only in name, in the counter's limit or in the order their
    /// description lists things have the same (docs/FORMAT.md).
    Rules(rules::RulesArgs),
    /// The perfect-play line from a position to the end of the game.
    ///
    /// The winner ends the game as fast as it can, the loser delays it as long as
    /// it can; from a drawn position, best moves up to --max-plies.
    Line(line::LineArgs),
    /// The SHA-256 of every file of a database, or (--check FILE) a comparison
    /// with a list: a build confirmed byte for byte in minutes.
    Checksums(checksums::ChecksumsArgs),
    /// Answer positions read from standard input, one a line, as JSON lines.
    ///
    /// For engines and scripts: the database is opened once. Each input line is
    /// a position; each output line is the answer of `query --json`, or
    /// {"input", "error"} for a line that could not be answered.
    Probe(probe::ProbeArgs),
    /// Serve the web explorer and its JSON API on a database.
    ///
    /// Open the printed address in a browser: the board, every move with its
    /// value, the main line, a board editor, play against perfect play, and
    /// statistics per subspace. The API (JSON): /api/query?position=POS,
    /// /api/mainline?position=POS, /api/stats, /api/stats/SECTOR, /api/health.
    Serve(serve::ServeArgs),
    /// Play games between two levels (random, simple, hard, expert, perfect,
    /// ultra) on every core.
    ///
    /// Prints wins, draws and losses with a 95% interval and the time per
    /// move of each level; with --db, every move is judged by the database
    /// (a mistake turns a win into a draw or a draw into a loss, a blunder a
    /// win into a loss) and the mistakes per 100 moves are given by phase.
    Arena(arena::ArenaArgs),
    /// Review a game: every move judged from its mover's side by the
    /// database, before and after it.
    ///
    /// Each move is marked best (the outcome kept at the best distance),
    /// keeps (kept, slower), mistake (win to draw, draw to loss) or blunder
    /// (win to loss), with the best move where another was played; under the
    /// no-removal rule where the database has its tables.
    Review(review::ReviewArgs),
    /// Play a game against a level in the terminal.
    ///
    /// The board is shown after every move; type moves as d1, d1-d2 or
    /// d1-d2xa7, or undo (your last move and the reply), hint (the database's
    /// best move, or the hard level's without a database) or quit.
    Play(play::PlayArgs),
    /// Backgammon's bear-off: gnubg's one- and two-sided databases byte for
    /// byte, millbase's two-sided file of up to 15 chequers, their values
    /// and best plays.
    ///
    /// Positions are written as the point of each chequer, the side on roll
    /// first, then a slash and the opponent: "2 5 / 2 3"; one side alone for
    /// a one-sided file: "1 6"; gnubg position IDs are read too.
    Bearoff(bearoff::BearoffArgs),
}

/// `--no-flying`.
#[derive(Args, Clone, Copy)]
struct RuleArgs {
    /// Play without flying (a side with 3 stones may only slide).
    #[arg(long)]
    no_flying: bool,
}

impl RuleArgs {
    fn variant(self) -> Variant {
        Variant::nine(!self.no_flying)
    }
}

/// `--rule-limit L`, for the commands that answer from a database.
#[derive(Args, Clone, Copy)]
struct LimitArgs {
    /// Answer under the no-removal rule with move limit L, where the database
    /// holds that rule's tables for several limits (default: the one it holds).
    #[arg(long, value_name = "L")]
    rule_limit: Option<u16>,
}

impl LimitArgs {
    /// The database in `dir`, answering under the chosen move limit.
    fn open(self, dir: &std::path::Path) -> Result<Database, Failure> {
        let db = Database::open_with_move_limit(dir, self.rule_limit)?;
        on_nines_board(db.variant(), dir)?;
        Ok(db)
    }
}

/// [`on_nines_board`] for the database in `dir`, if one opens there: called
/// before a position is read, so that a position of another board gets the
/// refusal, not a misreading; a missing or damaged database is reported
/// where it is opened, after the position.
fn check_board(dir: &std::path::Path) -> Result<(), Failure> {
    match millbase::storage::dir::DbDir::open(dir) {
        Ok(db) => on_nines_board(db.variant(), dir),
        Err(_) => Ok(()),
    }
}

/// Refuses a database of rules on another board for the commands that read
/// and write positions and moves, which this version does on nine's board
/// only.
fn on_nines_board(variant: Variant, dir: &std::path::Path) -> Result<(), Failure> {
    if variant.nine_flying().is_some() {
        return Ok(());
    }
    Err(Failure::input(format!(
        "{}: a database of the {} rules ({:016x}); this command reads positions on the \
         nine board only so far (generate, verify, stats, checksums, rules and subspaces \
         work on any rules)",
        dir.display(),
        variant.preset(),
        variant.fingerprint()
    )))
}

/// `--db DIR`.
#[derive(Args)]
struct DbArgs {
    /// Database directory.
    #[arg(long, value_name = "DIR", default_value = "data/db")]
    db: PathBuf,
}

/// `--threads N`.
#[derive(Args, Clone, Copy)]
struct ThreadArgs {
    /// Worker threads (default: all cores; at most 4 per core, and 4 at the least).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,
}

/// The most worker threads `--threads` accepts: more only slow the work down.
fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn parse_threads(s: &str) -> Result<usize, String> {
    let max = max_threads().max(4);
    match s.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{s:?} is not a thread count from 1 to {max} (4 per core of this machine)"
        )),
    }
}

impl ThreadArgs {
    /// Starts the worker threads asked for.
    fn apply(self) -> Result<(), Failure> {
        match self.threads {
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build_global()
                .map_err(|e| Failure::fault(format!("cannot start {n} worker threads: {e}"))),
            None => Ok(()),
        }
    }
}

/// A failure of a command: the message and the exit status.
pub struct Failure {
    /// What went wrong.
    pub message: String,
    /// The exit status: 0 for a closed output pipe, 1 for a fault, 2 for bad input.
    pub status: u8,
}

impl From<DbError> for Failure {
    fn from(e: DbError) -> Failure {
        Failure::fault(e)
    }
}

impl From<StorageError> for Failure {
    fn from(e: StorageError) -> Failure {
        Failure::fault(e)
    }
}

impl From<QueryError> for Failure {
    /// A counter out of range is the user's input (status 2); anything else
    /// is the database's fault (status 1).
    fn from(e: QueryError) -> Failure {
        match e {
            QueryError::Counter(m) => Failure::input(m),
            e => Failure::fault(e),
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure {
            message: format!("cannot write the output: {e}"),
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

    /// The output went away: quietly (status 0) for a closed pipe, else an
    /// error naming it and saying what became of the work (`what`).
    fn output_lost(e: std::io::Error, what: &str) -> Failure {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Failure::from(e);
        }
        Failure::fault(format!("cannot write the output: {e}; {what}"))
    }

    /// Bad input from the user: exit status 2.
    fn input(e: impl std::fmt::Display) -> Failure {
        Failure {
            message: e.to_string(),
            status: 2,
        }
    }
}

/// Writes `value` as one line of JSON.
fn write_json(out: &mut impl std::io::Write, value: &impl serde::Serialize) -> Result<(), Failure> {
    serde_json::to_writer(&mut *out, value).map_err(|e| match e.io_error_kind() {
        Some(kind) => Failure::from(std::io::Error::from(kind)),
        None => Failure::fault(e),
    })?;
    writeln!(out)?;
    Ok(())
}

/// A position given as a string, a move list, or both (`POS --moves "..."`).
#[derive(Args)]
struct PositionArgs {
    /// The position, e.g. "WWW.BBB.........B....... w 0 0" (default with --moves:
    /// the start of the largest game the database holds).
    position: Option<String>,
    /// Moves to play from the position first: a game record in docs/RULES.md
    /// notation, e.g. "1. d1 a1 2. d2"; the first illegal one is reported
    /// with its number and the reason. The game's counter (plies since the
    /// last removal) and repetitions follow the moves.
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
}

impl PositionArgs {
    /// The game from `start` (counter 0, the 100-ply rule) with the moves of
    /// --moves played under `variant`: for the commands without a database.
    fn game(&self, start: Position, variant: Variant) -> Result<Game, Failure> {
        let record = self.moves.as_deref().unwrap_or_default();
        Game::from_record(start, variant, 0, record).map_err(Failure::input)
    }

    /// The game from `start` (the start of the database's largest game
    /// where only --moves is given) against `db` ([`Database::new_game`]: at
    /// `counter`, under the database's rule) with the moves of --moves played.
    fn game_on(
        &self,
        db: &Database,
        start: Position,
        counter: Option<u16>,
    ) -> Result<Game, Failure> {
        // with only --moves, the game starts where the database's largest does
        let start = if self.position.is_none() {
            db.start()
        } else {
            start
        };
        let mut game = db.new_game(start, counter)?;
        if let Some(record) = &self.moves {
            game.play_record(record).map_err(Failure::input)?;
        }
        Ok(game)
    }

    /// The position given (the initial one with only --moves), checked before
    /// anything else is opened; `finished` accepts a game that is over.
    fn start(&self, finished: bool) -> Result<Position, Failure> {
        match (&self.position, &self.moves) {
            (Some(p), _) if finished => Position::parse_finished(p).map_err(|e| bad_position(p, e)),
            (Some(p), _) => parse_position(p),
            (None, Some(_)) => Ok(Position::initial()),
            (None, None) => Err(Failure::input(
                "give a position (e.g. \"........................ w 9 9\") or --moves",
            )),
        }
    }
}

/// The start of the games of `play` and `arena`: `given`, else the start
/// of the largest game `db` holds, else the initial position; a start whose
/// games would run into tables `db` lacks is refused at once, naming the
/// `--position` to use.
fn start_within(given: Option<Position>, db: Option<&Database>) -> Result<Position, Failure> {
    let Some(db) = db else {
        return Ok(given.unwrap_or_else(Position::initial));
    };
    let start = given.unwrap_or_else(|| db.start());
    match db.outside(&start) {
        Some(why) => Err(Failure::input(why)),
        None => Ok(start),
    }
}

/// Where the rule variant comes from: `--db DIR` (the database's), or
/// `--no-flying`.
#[derive(Args)]
struct VariantArgs {
    /// Use the rule variant of this database directory.
    #[arg(long, value_name = "DIR", conflicts_with = "no_flying")]
    db: Option<PathBuf>,
    #[command(flatten)]
    variant: RuleArgs,
}

impl VariantArgs {
    /// [`check_board`] of `--db`, if given.
    fn check_board(&self) -> Result<(), Failure> {
        self.db.as_deref().map_or(Ok(()), check_board)
    }

    fn variant(&self) -> Result<Variant, Failure> {
        match &self.db {
            Some(dir) => {
                let variant = millbase::storage::dir::DbDir::open(dir)?.variant();
                on_nines_board(variant, dir)?;
                Ok(variant)
            }
            None => Ok(self.variant.variant()),
        }
    }
}

fn bad_position(s: &str, e: impl std::fmt::Display) -> Failure {
    Failure::input(format!(
        "bad position {:?}: {e}",
        millbase::rules::position::excerpt(s)
    ))
}

/// The rules `arg` names: a preset, else a file.
fn rules_of(arg: &str) -> Result<millbase::rules::ruleset::Rules, Failure> {
    if let Some(r) = millbase::rules::ruleset::Rules::preset(arg) {
        return Ok(r);
    }
    let path = std::path::Path::new(arg);
    if !path.exists() {
        return Err(Failure::input(format!(
            "{arg:?} is neither a preset ({}) nor a file",
            millbase::rules::ruleset::PRESETS.join(", ")
        )));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
    millbase::rules::ruleset::Rules::parse(&text)
        .map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

fn parse_position(s: &str) -> Result<Position, Failure> {
    s.parse::<Position>().map_err(|e| bad_position(s, e))
}

/// Runs the command `cli` names, writing its output to standard output.
pub fn run(cli: Cli) -> Result<(), Failure> {
    let out = &mut std::io::stdout().lock();
    match cli.command {
        Command::Show(a) => show::run(a, out),
        Command::Moves(a) => moves::run(a, out),
        Command::Generate(a) => generate::run(a, out),
        Command::Upgrade(a) => upgrade::run(a, out),
        Command::Verify(a) => verify::run(a, out),
        Command::Query(a) => query::run(a, out),
        Command::SolveOpening(a) => solve_opening::run(a, out),
        Command::Stats(a) => stats::run(a, out),
        Command::Subspaces(a) => subspaces::run(a, out),
        Command::Perft(a) => perft::run(a, out),
        Command::Line(a) => line::run(a, out),
        Command::Rules(a) => rules::run(a, out),
        Command::Probe(a) => probe::run(a, out),
        Command::Serve(a) => serve::run(a, out),
        Command::Checksums(a) => checksums::run(a, out),
        Command::Arena(a) => arena::run(a, out),
        Command::Review(a) => review::run(a, out),
        Command::Play(a) => play::run(a, out),
        Command::Bearoff(a) => bearoff::run(a, out),
    }
}

/// A level by its name, for clap.
fn parse_level(s: &str) -> Result<Level, String> {
    s.parse()
}
