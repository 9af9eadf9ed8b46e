//! millbase: a retrograde-analysis solver and database generator for Nine Men's
//! Morris (Mill, Mühle).
//!
//! The folders, in the order the data flows (no module, and no folder, uses
//! one that uses it back; `tests/layers.rs` checks this):
//!
//! - [`rules`]: the variant and the stone counts, the board's points, mills and
//!   symmetries, positions and their string form, the legal moves, a game
//!   with its history and end;
//! - [`index`]: subspaces and sectors, the perfect hash of symmetry classes,
//!   and the order they are solved in;
//! - [`solve`]: values and table cells, the retrograde analysis of a movement
//!   pair, the forward pass of a placement sector, the no-removal rule, and
//!   the tables a solve reads ([`solve::known`]);
//! - [`storage`]: the file format (header, container, writer, one codec per
//!   encoding) and the database directory, which names, locks, reads and
//!   writes files of either [`solve::known::Kind`] of table;
//! - [`build`]: complete tables from a directory, a generation in units, and
//!   the forward check of every stored entry;
//! - [`answer`]: probes, whole-table maps, the placement search, the answer to
//!   a position under one policy, records and the JSON shapes;
//! - [`play`]: the players, games between them, the review of a game;
//! - [`server`]: the web explorer and its HTTP API.
//!
//! Beside Mill, [`bearoff`] solves backgammon's bear-off the same way, into
//! gnubg's database files and a larger one of millbase's own.
//!
//! # Probing a database and walking a line
//!
//! ```
//! use millbase::build::generate::{generate, Silent};
//! use millbase::index::Indexer;
//! use millbase::index::plan::Limits;
//! use millbase::answer::query::Database;
//! use millbase::{Position, Variant, Value};
//!
//! // build a tiny database (the 3-against-3 endgame; `millbase generate` builds
//! // the whole game), then open it
//! let dir = std::env::temp_dir().join(format!("millbase-crate-doc-{}", std::process::id()));
//! let limits = Limits { max_stones: 3, max_total: 6, placement: true, move_limit: None };
//! generate(&dir, Variant::default(), limits, &Indexer::new(), &Silent).unwrap();
//! let db = Database::open(&dir).unwrap();
//!
//! // the value of a position for the side to move, and of every move, best first
//! let pos: Position = "WW.....BB..........W.B.. w 0 0".parse().unwrap();
//! assert_eq!(db.probe(&pos).unwrap(), Value::Win(1));
//! let answer = db.answer(&pos).unwrap();
//! let best = &answer.moves[0];
//! assert_eq!((best.mv.to_string().as_str(), best.value), ("d6-g1xd3", Value::Loss(0)));
//!
//! // the perfect-play line from the other side's point of view
//! let other: Position = "WW.....BB..........W.B.. b 0 0".parse().unwrap();
//! let line = db.line(&other, 40).unwrap();
//! assert_eq!(line.value, Value::Win(1));
//! for step in &line.steps {
//!     println!("{} -> {}", step.mv, step.position);
//! }
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
#![warn(missing_docs)]

pub mod answer;
pub mod bearoff;
pub mod build;
pub mod index;
pub mod play;
pub mod rules;
pub mod server;
pub mod solve;
pub mod storage;

pub use rules::moves::Move;
pub use rules::position::{Color, Position, PositionError};
pub use rules::variant::Variant;
pub use solve::value::Value;
